"""``lanuno join``: find a table (mDNS, or HOST:PORT), ask the room code, play in the hand
app or the plain line-based client."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import sys

from lanuno.commands.common import say
from lanuno.commands.terminal import play_in_terminal
from lanuno.net.client import JoinError, NetClientSession
from lanuno.net.discovery import (
    LOOPBACK,
    LOOPBACK_ONLY,
    TableBrowser,
    TableInfo,
    discovery_addresses,
    probe,
)
from lanuno.ui.plain import stdin_lines


def run(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(_join(args))
    except KeyboardInterrupt:
        return 0


def split_address(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"expected HOST:PORT, got {text!r}")
    return host, int(port)


async def _read_line(prompt: str) -> str:
    print(prompt, end="", flush=True)
    # Closed at once, so its stdin reader is gone before the next one is installed.
    async with contextlib.aclosing(stdin_lines()) as lines:
        async for line in lines:
            return line.strip()
    return ""


async def _choose_table(interfaces: list[str]) -> TableInfo | None:
    browser = TableBrowser(interfaces)
    await browser.start()
    try:
        say("looking for tables on the LAN (3 s)...")
        deadline = asyncio.get_running_loop().time() + 3.0
        while (left := deadline - asyncio.get_running_loop().time()) > 0:
            await browser.wait_for_change(left)
        while True:
            tables = browser.listed()
            if not tables:
                say("no table found; ask the host for its address: lanuno join HOST:PORT")
                return None
            for i, t in enumerate(tables, 1):
                stale = "  (not answering)" if t.stale else ""
                say(f"  {i}) {t.name}  {t.endpoint}  {t.free} seats free  {t.preset}{stale}")
            answer = await _read_line("table number: ")
            if not answer.isdigit() or not 1 <= int(answer) <= len(tables):
                return None
            chosen = tables[int(answer) - 1]
            if await probe(chosen.address, chosen.port):
                return chosen
            browser.mark_stale(chosen.instance)
            say("that table does not answer any more; choose another")
    finally:
        await browser.close()


async def _join(args: argparse.Namespace) -> int:
    if args.address:
        try:
            host, port = split_address(args.address)
        except ValueError as error:
            print(f"lanuno join: {error}", file=sys.stderr)
            return 2
    else:
        interfaces = discovery_addresses(getattr(args, "interface", None))
        if interfaces == [LOOPBACK]:
            say(LOOPBACK_ONLY + " Looking on this machine only.")
        table = await _choose_table(interfaces)
        if table is None:
            return 1
        host, port = table.address, table.port
    code = args.code or await _read_line("room code (on the shared screen): ")
    name = args.name or getpass.getuser() or "player"
    session = NetClientSession(host, port, code, name[:32], age=args.age, kid=args.kid)
    try:
        await session.connect()
    except JoinError as error:
        print(f"lanuno join: {error}", file=sys.stderr)
        return 1
    return await play_in_terminal(session, args)
