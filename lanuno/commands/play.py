"""``lanuno play``: host on 127.0.0.1 without mDNS, bots in the other seats, this terminal
as a player."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

from lanuno.commands.common import pace_from_args, rules_from_args
from lanuno.commands.terminal import play_in_terminal
from lanuno.host.table import Table, TableConfig
from lanuno.net.client import NetClientSession
from lanuno.net.server import ServerLimits, TableControls, TableServer
from lanuno.net.workers import close_shared_workers
from lanuno.ui.i18n import translator


def run(args: argparse.Namespace) -> int:
    try:
        rules = rules_from_args(args)
    except ValueError as error:
        print(f"lanuno play: {error}", file=sys.stderr)
        return 2
    config = TableConfig(
        name=translator(args.lang)("play.table_name"),
        rules=rules,
        bot_level=args.level,
        pace=pace_from_args(args),
        next_round_after=3.0,
        auto_start=True,  # no host screen: the player's R starts the next game
    )
    try:
        return asyncio.run(_play(args, config))
    except KeyboardInterrupt:
        return 0
    finally:
        # Now, not at exit: a pool still shutting down then races Python's own exit hook
        # (concurrent.futures writes to a pipe its manager thread is closing: EBADF).
        close_shared_workers()


async def _play(args: argparse.Namespace, config: TableConfig) -> int:
    table = Table(config, os.urandom)
    # One local player and in-process bots: no hostile peers to rate-limit.
    server = TableServer(table, host="127.0.0.1", port=0, limits=ServerLimits(rate=500, burst=1000))
    await server.start()
    try:
        session = NetClientSession(
            "127.0.0.1",
            server.port,
            table.room_code,
            (args.name or translator(args.lang)("play.default_name"))[:32],
            age=args.age,
            kid=args.kid,
        )
        await session.connect()
        for _ in range(100):  # wait for the welcome: the bots sit down after this player
            if session.seat is not None:
                break
            await asyncio.sleep(0.02)
        controls = TableControls(server)
        for _ in range(args.players - 1):
            await controls.add_bot(args.level)
        await controls.start()
        return await play_in_terminal(session, args, local=True)
    finally:
        await server.close()
