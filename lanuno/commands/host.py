"""``lanuno host``: a ``Table`` served by a ``TableServer`` (journaled), announced over
mDNS, shown by the full-screen table app, or logged as text with ``--headless``."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import sys
from pathlib import Path

from lanuno.commands.common import default_journal, pace_from_args, rules_from_args, say
from lanuno.commands.screen import log_until_closed, show_until_closed
from lanuno.host.journal import JournalError
from lanuno.host.table import Table, TableConfig
from lanuno.net.discovery import Announcer, discovery_addresses
from lanuno.net.journal_files import JournalWriter, keep_copy, read_journal
from lanuno.net.server import ServerLimits, TableControls, TableScreen, TableServer


def run(args: argparse.Namespace) -> int:
    try:
        rules = rules_from_args(args)
    except ValueError as error:
        print(f"lanuno host: {error}", file=sys.stderr)
        return 2
    config = TableConfig(
        name=args.name,
        rules=rules,
        bot_level=args.level,
        pace=pace_from_args(args),
        auto_start=args.headless,
        next_round_after=getattr(args, "round_pause", 5.0) if args.headless else None,
    )
    try:
        return asyncio.run(_host(args, config))
    except KeyboardInterrupt:
        return 0
    except (JournalError, OSError, ValueError) as error:
        print(f"lanuno host: {error}", file=sys.stderr)
        return 1


def _open_table(args: argparse.Namespace, config: TableConfig) -> tuple[Table, JournalWriter]:
    if args.resume:
        path = Path(args.resume)
        recovery = read_journal(path)
        if recovery.records_after and not args.salvage:
            # Damage in the middle: acknowledged records follow it. Nothing is written
            # (not even a cut) until the user chooses to salvage.
            raise JournalError(f"cannot resume from {path}: {recovery.refusal()}")
        say(f"journal: {recovery.message}")
        if recovery.records_after:
            say(f"journal: kept a copy of the damaged journal as {keep_copy(path)}")
        try:
            table = Table.restore(recovery.records, config, os.urandom, now=0.0)
        except Exception as error:  # any record that does not replay: one clear line
            raise JournalError(
                f"cannot restore the table from {path}: {type(error).__name__}: {error}"
            ) from None
        return table, JournalWriter(path, existing=recovery)
    if args.salvage:
        raise JournalError("--salvage goes with --resume FILE")
    path = Path(args.journal) if args.journal else default_journal()
    table = Table(config, os.urandom, room_code=args.code)
    journal = JournalWriter(path)
    for _ in range(args.bots):
        table.add_bot(args.level)
    say(f"journal: {path} (restart with: lanuno host --resume {path})")
    return table, journal


async def _announce(args: argparse.Namespace, server: TableServer) -> Announcer | None:
    """Announce the table over mDNS, kept up to date with its free seats; None when asked
    not to, or when mDNS fails (a convenience: the address always works)."""
    if args.no_mdns:
        return None
    table = server.table
    announcer = Announcer(
        table.config.name,
        discovery_addresses(args.interface),
        server.port,
        preset=table.rules.preset,
        room_id=table.room_id,
        free=table.free_seats,
    )
    try:
        await announcer.start()
    except Exception as error:
        say(f"mDNS announcement failed ({error}); players can join with the address")
        return None
    server.on_change = lambda: announcer.update(table.free_seats, table.rules.preset)
    return announcer


async def _host(args: argparse.Namespace, config: TableConfig) -> int:
    table, journal = _open_table(args, config)
    bind = args.interface or "0.0.0.0"
    limits = ServerLimits(silence_timeout=getattr(args, "peer_timeout", 15.0))
    server = TableServer(
        table,
        host=bind,
        port=args.port,
        journal=journal,
        limits=limits,
        log=say if args.headless else None,
    )
    await server.start()
    announcer = await _announce(args, server)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, lambda: asyncio.ensure_future(server.close()))
    screen = TableScreen(server, announced=announcer is not None)
    try:
        if args.headless:
            await log_until_closed(server, screen, args.lang)
        else:
            await show_until_closed(server, screen, TableControls(server), args.lang)
    finally:
        await server.close()
        if announcer is not None:
            await announcer.close()
    if server.stopped is not None:
        # The table is paused, not over: its journal holds every acknowledged action.
        print(
            f"lanuno host: the table stopped: {server.stopped}. Every player keeps their "
            f"seat: restart it with lanuno host --resume {journal.path} (with room on disk)",
            file=sys.stderr,
        )
        return 1
    return 0
