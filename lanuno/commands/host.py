"""``lanuno host``, ``join`` and ``play``: the commands that put the pieces together.

host: a ``Table`` served by a ``TableServer`` (journaled), announced over mDNS, shown by
      the full-screen table app, or logged as text with ``--headless``.
join: find a table (mDNS, or HOST:PORT), ask the room code, play in the hand app or the
      plain line-based client.
play: host on 127.0.0.1 without mDNS, bots in the other seats, this terminal as a player.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import importlib.util
import os
import signal
import sys
import time
from pathlib import Path

from lanuno.host.journal import JournalError
from lanuno.host.pace import NO_PACE, FixedPace, LevelPace, Pace
from lanuno.host.table import Table, TableConfig
from lanuno.net.client import JoinError, NetClientSession
from lanuno.net.discovery import Announcer, TableBrowser, TableInfo, probe
from lanuno.net.journal_files import JournalWriter, read_journal
from lanuno.net.plain import PlainClient, log_screen, stdin_lines
from lanuno.net.server import ServerLimits, TableControls, TableScreen, TableServer, lan_address
from lanuno.wire.crypto import format_check_number


def _say(text: str) -> None:
    print(text, flush=True)


def _has_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def _pace(args: argparse.Namespace) -> Pace:
    delay = getattr(args, "bot_delay", None)
    if delay is None:
        return LevelPace()
    return NO_PACE if delay <= 0 else FixedPace(delay)


def _default_journal() -> Path:
    base = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state")
    directory = base / "lanuno"
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    return directory / f"table-{time.strftime('%Y%m%d-%H%M%S')}.journal"


# ---------------------------------------------------------------------- host


def run_host(args: argparse.Namespace) -> int:
    from lanuno.cli import rules_from_args

    try:
        rules = rules_from_args(args)
    except ValueError as error:
        print(f"lanuno host: {error}", file=sys.stderr)
        return 2
    config = TableConfig(
        name=args.name,
        rules=rules,
        bot_level=args.level,
        pace=_pace(args),
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
        _say(f"journal: {recovery.message}")
        try:
            table = Table.restore(recovery.records, config, os.urandom, now=0.0)
        except Exception as error:  # any record that does not replay: one clear line
            raise JournalError(
                f"cannot restore the table from {path}: {type(error).__name__}: {error}"
            ) from None
        return table, JournalWriter(path, existing=recovery)
    path = Path(args.journal) if args.journal else _default_journal()
    table = Table(config, os.urandom, room_code=args.code)
    journal = JournalWriter(path)
    for _ in range(args.bots):
        table.add_bot(args.level)
    _say(f"journal: {path} (restart with: lanuno host --resume {path})")
    return table, journal


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
        log=_say if args.headless else None,
    )
    await server.start()
    announcer: Announcer | None = None
    if not args.no_mdns:
        address = args.interface or lan_address()
        announcer = Announcer(
            config.name,
            address,
            server.port,
            preset=table.rules.preset,
            room_id=table.room_id,
            free=table.free_seats,
        )
        try:
            await announcer.start()
        except Exception as error:  # mDNS is a convenience: the address always works
            _say(f"mDNS announcement failed ({error}); players can join with the address")
            announcer = None
        else:
            announce = announcer
            server.on_change = lambda: announce.update(table.free_seats, table.rules.preset)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, lambda: asyncio.ensure_future(server.close()))
    screen = TableScreen(server, announced=announcer is not None)
    controls = TableControls(server)
    addresses = ", ".join(server.addresses)
    try:
        if args.headless or not _has_module("lanuno.ui.table_app"):
            _say(
                f"table {config.name!r} at {addresses}  room code "
                f"{format_check_number(int(table.room_code))}"
            )
            _say(f"players join with: lanuno join {server.addresses[0]} --code {table.room_code}")
            logger = asyncio.create_task(log_screen(screen, _say))
            await server.closed.wait()
            logger.cancel()
        else:
            from lanuno.ui.table_app import run_table_app

            # The app ends with Q; a SIGTERM closes the server, which must end the app too.
            app = asyncio.create_task(run_table_app(screen, controls, lang=args.lang))
            closed = asyncio.create_task(server.closed.wait())
            await asyncio.wait({app, closed}, return_when=asyncio.FIRST_COMPLETED)
            closed.cancel()
            if not app.done():
                app.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await app
    finally:
        await server.close()
        if announcer is not None:
            await announcer.close()
    return 0


# ---------------------------------------------------------------------- join


def _split_address(text: str) -> tuple[str, int]:
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
        _say("looking for tables on the LAN (3 s)...")
        deadline = asyncio.get_running_loop().time() + 3.0
        while (left := deadline - asyncio.get_running_loop().time()) > 0:
            await browser.wait_for_change(left)
        while True:
            tables = browser.listed()
            if not tables:
                _say("no table found; ask the host for its address: lanuno join HOST:PORT")
                return None
            for i, t in enumerate(tables, 1):
                stale = "  (not answering)" if t.stale else ""
                _say(f"  {i}) {t.name}  {t.endpoint}  {t.free} seats free  {t.preset}{stale}")
            answer = await _read_line("table number: ")
            if not answer.isdigit() or not 1 <= int(answer) <= len(tables):
                return None
            chosen = tables[int(answer) - 1]
            if await probe(chosen.address, chosen.port):
                return chosen
            browser.mark_stale(chosen.instance)
            _say("that table does not answer any more; choose another")
    finally:
        await browser.close()


def run_join(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(_join(args))
    except KeyboardInterrupt:
        return 0


async def _join(args: argparse.Namespace) -> int:
    if args.address:
        try:
            host, port = _split_address(args.address)
        except ValueError as error:
            print(f"lanuno join: {error}", file=sys.stderr)
            return 2
    else:
        interface = getattr(args, "interface", None) or lan_address()
        table = await _choose_table([interface])
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
    return await _play_in_terminal(session, args)


async def _play_in_terminal(session: NetClientSession, args: argparse.Namespace) -> int:
    if not getattr(args, "plain", False) and _has_module("lanuno.ui.client_app"):
        from lanuno.ui.client_app import run_client_app

        return await run_client_app(session, lang=args.lang)
    return await PlainClient(session).run(stdin_lines())


# ---------------------------------------------------------------------- play


def run_play(args: argparse.Namespace) -> int:
    from lanuno.cli import rules_from_args

    if not 2 <= args.players <= 10:
        print("lanuno play: --players must be between 2 and 10 (O1)", file=sys.stderr)
        return 2
    try:
        rules = rules_from_args(args)
    except ValueError as error:
        print(f"lanuno play: {error}", file=sys.stderr)
        return 2
    config = TableConfig(
        name="lanuno play",
        rules=rules,
        bot_level=args.level,
        pace=_pace(args),
        next_round_after=3.0,
    )
    try:
        return asyncio.run(_play(args, config))
    except KeyboardInterrupt:
        return 0


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
            (args.name or "You")[:32],
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
        return await _play_in_terminal(session, args)
    finally:
        await server.close()


__all__ = ["JoinError", "run_host", "run_join", "run_play"]
