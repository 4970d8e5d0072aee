"""``lanuno host``: a hall of tables (``lanuno.net.hall``) on one port, journaled,
announced over mDNS (one service per table). One table (no ``--tables``) is shown by the
full-screen table app, or logged as text with ``--headless``; ``--tables N`` opens N
tables with the same preset, options and bots, shown by the hall app (every table, its
room and screen codes; Enter shows one table's full screen, N opens another table) or
logged with ``--headless`` (each table's screen code is printed: ``lanuno screen`` pairs
with it).

Journals: one table writes one journal file (``--journal FILE``, as before); a hall
writes a directory (``--journal DIR``: ``table-N.journal`` per table and ``hall.json``).
``--resume FILE`` restores one table, ``--resume DIR`` a whole hall."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import os
import resource
import signal
import socket
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

from lanuno.commands.common import default_journal, pace_from_args, rules_from_args, say
from lanuno.commands.hall_screen import show_hall_until_closed
from lanuno.commands.screen import log_until_closed, show_until_closed
from lanuno.host.journal import JournalError, Recovery
from lanuno.host.table import Table, TableConfig
from lanuno.net.discovery import HallAnnouncer, discovery_addresses
from lanuno.net.hall import Hall, HallEntry, HallTable, HallTableControls, load_hall
from lanuno.net.journal_files import (
    JournalWriter,
    check_not_in_use,
    hold_directory,
    keep_copy,
    read_journal,
)
from lanuno.net.server import ServerLimits
from lanuno.net.workers import close_shared_workers
from lanuno.ui.i18n import Translator, translator
from lanuno.ui.plain import log_screen
from lanuno.wire.crypto import MAX_TABLES, format_check_number


def default_table_name() -> str:
    """This computer's name (``kitchen-laptop``, not ``kitchen-laptop.local``): two hosts in
    one room tell their tables apart in ``lanuno join``'s list without anyone naming them."""
    machine = socket.gethostname().split(".")[0].strip()
    return machine[:32] or "lanuno table"


def run(args: argparse.Namespace) -> int:
    try:
        rules = rules_from_args(args)
    except ValueError as error:
        print(f"lanuno host: {error}", file=sys.stderr)
        return 2
    tables = getattr(args, "tables", None)
    if tables is not None and not 1 <= tables <= MAX_TABLES:
        print(f"lanuno host: --tables must be between 1 and {MAX_TABLES}", file=sys.stderr)
        return 2
    config = TableConfig(
        name=args.name or default_table_name(),
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
    finally:
        # Now, not at exit: a pool still shutting down then races Python's own exit hook
        # (concurrent.futures writes to a pipe its manager thread is closing: EBADF).
        close_shared_workers()


def _is_hall(args: argparse.Namespace) -> bool:
    """A hall journal (a directory): ``--tables`` given, or ``--resume`` names a directory."""
    if args.resume:
        return Path(args.resume).is_dir()
    return getattr(args, "tables", None) is not None


@dataclass(frozen=True, slots=True)
class Restored:
    """A table read back from its journal by ``--resume``, before anything is served."""

    table: Table
    recovery: Recovery
    journal: Path
    entry: HallEntry | None = None
    """Its place in the hall (number, screen code), for a hall's directory."""


def _restore_all(args: argparse.Namespace, config: TableConfig) -> list[Restored]:
    """Every table ``--resume`` names (none without it), each journal read once. Every
    table first, then open them: opening one rewrites hall.json, so a bad journal found
    halfway would drop the tables after it from the hall for good."""
    if args.salvage and not args.resume:
        raise JournalError("--salvage goes with --resume FILE")
    if not args.resume:
        return []
    path = Path(args.resume)
    if not path.is_dir():  # one table's journal file
        table, recovery = _restore(path, config, args.salvage)
        return [Restored(table, recovery, path)]
    restored: list[Restored] = []
    try:
        for entry in load_hall(path):
            table, recovery = _restore(entry.journal, config, args.salvage)  # its name
            restored.append(Restored(table, recovery, entry.journal, entry))
    except (JournalError, OSError) as error:
        raise JournalError(
            f"{error}. No table was opened, and hall.json still lists every table"
        ) from None
    return restored


def _keep_network_limits(args: argparse.Namespace, restored: list[Restored]) -> None:
    """A resumed table stays off the networks its host kept it off: served on the one
    ``--interface`` and not announced (``--no-mdns``) if its journal says so, unless this
    command line names an interface itself. Said, since the command line does not show it."""
    served = next((one.table.served for one in restored if one.table.served), None)
    if served is None:
        return
    tr = translator(args.lang)
    if served.interface and not args.interface:
        args.interface = served.interface
        say(tr("host.log.kept_interface", address=served.interface))
    if not served.announced and not args.no_mdns:
        args.no_mdns = True
        say(tr("host.log.kept_no_mdns"))


def _resume_port(args: argparse.Namespace, restored: list[Restored]) -> int:
    """The port to listen on: ``--port``, else (a ``--resume``) the port the journal's table
    was served on, where its players' clients try to reconnect (0: any free port)."""
    if args.port:
        return int(args.port)
    for one in restored:  # a hall's tables share its one port
        port = one.table.served_port
        if port is not None and 0 < port < 65536:
            return port
    return 0


def _restore(path: Path, config: TableConfig, salvage: bool) -> tuple[Table, Recovery]:
    """The table a journal holds (named by it), and what was read: nothing is written yet
    (a journal damaged in the middle is only copied aside, with ``salvage``)."""
    recovery = read_journal(path)
    if recovery.records_after and not salvage:
        # Damage in the middle: acknowledged records follow it. Nothing is written
        # (not even a cut) until the user chooses to salvage.
        raise JournalError(f"cannot resume from {path}: {recovery.refusal()}")
    if not recovery.records:
        raise JournalError(
            f"cannot resume from {path}: it holds no table (not a lanuno journal, or empty)"
        )
    say(f"journal: {recovery.message}")
    if recovery.records_after:
        say(f"journal: kept a copy of the damaged journal as {keep_copy(path)}")
    try:
        table = Table.restore(recovery.records, config, os.urandom, now=0.0)
    except Exception as error:  # any record that does not replay: one clear line
        # A ValueError is restore's own sentence; anything else also names its kind.
        why = str(error) if type(error) is ValueError else f"{type(error).__name__}: {error}"
        raise JournalError(f"cannot restore the table from {path}: {why}") from None
    return table, recovery


def _journal_dir(args: argparse.Namespace) -> Path:
    if args.journal:
        directory = Path(args.journal)
    else:
        directory = default_journal().with_name(f"hall-{time.strftime('%Y%m%d-%H%M%S')}")
    if directory.exists() and not directory.is_dir():
        raise JournalError(f"--journal {directory}: a hall's journal is a directory")
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    return directory


async def _open_tables(
    args: argparse.Namespace, config: TableConfig, hall: Hall, restored: list[Restored]
) -> None:
    if args.resume and hall.journal_dir is not None:  # a whole hall
        for one in restored:
            assert one.entry is not None
            await hall.open_table(
                one.table.config,
                number=one.entry.number,
                table=one.table,
                journal=JournalWriter(one.journal, existing=one.recovery),
                screen_code=one.entry.screen_code,  # remote screens pair again by themselves
            )
        say(translator(args.lang)("host.log.journal", path=hall.journal_dir))
        return
    if args.resume:  # one table's journal file
        (one,) = restored
        journal = JournalWriter(one.journal, existing=one.recovery)
        served = one.table.served  # its screens pair again with the code they know
        screen_code = served.screen_code if served is not None else None
        await hall.open_table(
            one.table.config, table=one.table, journal=journal, screen_code=screen_code
        )
        return
    if hall.journal_dir is not None:  # a new hall
        prefix = args.name or "Table"
        for number in range(1, args.tables + 1):
            name = f"{prefix} {number}" if args.tables > 1 or args.name is None else prefix
            # --code applies to every table, like the other flags (scripts, benchmarks);
            # without it each table draws its own.
            await hall.open_table(
                replace(config, name=name[:32]), bots=args.bots, room_code=args.code
            )
        say(translator(args.lang)("host.log.journal", path=hall.journal_dir))
        return
    path = Path(args.journal) if args.journal else default_journal()
    # As a hall's --journal DIR is, a table's --journal FILE's folder is made if need be.
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    table = Table(config, os.urandom, room_code=args.code)
    for _ in range(args.bots):
        table.add_bot(args.level)
    await hall.open_table(config, table=table, journal=JournalWriter(path))
    say(translator(args.lang)("host.log.journal", path=path))


def screen_code_line(entry: HallTable, address: str, tr: Translator) -> str:
    """The host's own terminal only: the code that pairs a remote shared screen."""
    code = entry.screen_code
    table = f" --table {entry.number}" if entry.number != 1 else ""
    command = f"lanuno screen {address}{table} --code {code}"
    spaced = format_check_number(int(code))
    return tr("host.log.screen_code", code=spaced, number=entry.number, command=command)


async def _start(hall: Hall, args: argparse.Namespace, bind: str, port: int) -> None:
    try:
        await hall.start()
    except OSError as error:
        if port == args.port or error.errno != errno.EADDRINUSE:
            raise _cannot_listen(error, bind, port) from None
        # The resumed table's port is taken: serve elsewhere; players join again.
        say(translator(args.lang)("host.log.port_taken", port=port))
        try:
            await hall.start(port=0)
        except OSError as again:
            raise _cannot_listen(again, bind, 0) from None


def _cannot_listen(error: OSError, bind: str, port: int) -> OSError:
    """What to do about a port the host cannot listen on, in one line."""
    where = f"{bind}:{port}" if port else bind
    why = {
        errno.EADDRINUSE: f"port {port} is taken (another lanuno host?): choose another one "
        "with --port",
        errno.EADDRNOTAVAIL: f"this computer has no address {bind}: --interface names one "
        "of its own addresses",
        errno.EACCES: f"port {port} is reserved for the administrator: choose one above 1023 "
        "with --port",
    }.get(error.errno or 0, error.strerror or str(error))
    return OSError(f"cannot listen on {where}: {why}")


def _raise_open_file_limit() -> None:
    """A hall of 50 tables holds 500 players' sockets, their handshakes and 50 journals:
    more than the usual soft limit of 1024 open files. Raise it as far as allowed."""
    with contextlib.suppress(ValueError, OSError):
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = 8192 if hard == resource.RLIM_INFINITY else min(hard, 8192)
        if soft != resource.RLIM_INFINITY and soft < wanted:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


async def _host(args: argparse.Namespace, config: TableConfig) -> int:
    hall_journal = _is_hall(args)
    _raise_open_file_limit()
    directory: Path | None = None
    if hall_journal:
        directory = Path(args.resume) if args.resume else _journal_dir(args)
    held = _hold_journals(args, directory)  # before reading: another host may be writing
    try:
        return await _serve(args, config, directory)
    finally:
        if held is not None:
            os.close(held)


def _hold_journals(args: argparse.Namespace, directory: Path | None) -> int | None:
    """Refuse, before anything is read or served, a journal another running host writes
    (a --resume while the host it resumes still runs: the process killed was another).
    A hall's directory stays locked while this host runs (returned: close it at the end);
    a table's file is locked by its writer."""
    if directory is not None:
        return hold_directory(directory)
    path = args.resume or args.journal
    if path:
        check_not_in_use(Path(path))
    return None


async def _serve(args: argparse.Namespace, config: TableConfig, directory: Path | None) -> int:
    hall_journal = directory is not None
    restored = _restore_all(args, config)  # a journal that cannot resume fails here
    _keep_network_limits(args, restored)
    bind = args.interface or "0.0.0.0"
    limits = ServerLimits(silence_timeout=getattr(args, "peer_timeout", 15.0))
    announcer = None
    if not args.no_mdns:
        # With no --interface it serves every address: it announces them as they change.
        follow = None if args.interface else lambda: discovery_addresses(None)
        announcer = HallAnnouncer(discovery_addresses(args.interface), follow=follow)
    port = _resume_port(args, restored)
    hall = Hall(
        host=bind,
        port=port,
        limits=limits,
        log=say if args.headless else None,  # else the screen (table or hall app) is the log
        journal_dir=directory,
        announcer=announcer,
        prefix_logs=hall_journal,
    )
    opening, stop_asked = True, False
    closing: list[asyncio.Task[None]] = []

    def stop() -> None:
        nonlocal stop_asked
        if opening:  # a table opened after a close would never be closed: wait for them
            stop_asked = True
        else:
            closing.append(asyncio.ensure_future(hall.close()))

    loop = asyncio.get_running_loop()
    # SIGHUP (the terminal was closed) saves the tables and tells the players, as Ctrl-C does.
    signals = [signal.SIGINT, signal.SIGTERM]
    if hasattr(signal, "SIGHUP"):
        signals.append(signal.SIGHUP)
    for sig in signals:
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop)
    await _start(hall, args, bind, port)
    try:
        async with hall.opening():
            await _open_tables(args, config, hall, restored)
    except BaseException:
        await hall.close()
        raise
    opening = False
    if stop_asked:  # stopped while the tables opened (or resumed): close them now
        stop()
    try:
        if len(hall.tables) == 1 and not hall_journal:
            entry = hall.tables[0]
            if args.headless:
                say(screen_code_line(entry, entry.server.addresses[0], translator(args.lang)))
                await log_until_closed(entry.server, entry.screen, args.lang)
            else:
                # Q quits the host: like Ctrl-C, it saves the table (not a table closed for good).
                controls = HallTableControls(hall, entry.number, entry.server, quits_hall=True)
                await show_until_closed(entry.server, entry.screen, controls, args.lang)
        elif args.headless:
            await _log_hall(hall, args.lang)
        else:
            await show_hall_until_closed(hall, config, args.lang, bots=args.bots, name=args.name)
    finally:
        stopped = [(t.name, t.server.stopped, t.journal_path) for t in hall.tables]
        await hall.close()
    if hall.saved:
        saved_at = directory if directory is not None else hall.saved[0]
        key = "host.log.saved" if len(hall.saved) == 1 else "host.log.saved_tables"
        say(translator(args.lang)(key, path=saved_at, count=len(hall.saved)))
    failed = [(name, why, path) for name, why, path in stopped if why is not None]
    for name, why, path in failed:
        # The table is paused, not over: its journal holds every acknowledged action.
        where = directory if directory is not None else path
        print(
            f"lanuno host: {name} stopped: {why}. Every player keeps their seat: restart "
            f"it with lanuno host --resume {where} (with room on disk)",
            file=sys.stderr,
        )
    return 1 if failed else 0


async def _log_hall(hall: Hall, lang: str | None) -> None:
    """A hall in text: each table's address, room and screen codes, then every table's
    public messages as lines (prefixed by its name) until the hall closes."""
    loggers: list[asyncio.Task[None]] = []
    tr = translator(lang)
    for entry in hall.tables:
        server = entry.server
        address, code = server.addresses[0], server.table.room_code
        spaced = format_check_number(int(code))
        say(tr("host.log.hall_table", number=entry.number, name=repr(entry.name), code=spaced))
        command = f"lanuno join {address} --table {entry.number} --code {code}"
        say("  " + tr("host.log.hall_join", command=command))
        say("  " + screen_code_line(entry, address, tr))
        loggers.append(asyncio.create_task(_log_table(entry, lang)))
    await hall.closed.wait()
    for logger in loggers:
        logger.cancel()


async def _log_table(entry: HallTable, lang: str | None) -> None:
    prefix = f"[{entry.name}] "
    # The hall's log already warns of a rotated room code (prefixed by the table's name).
    await log_screen(entry.screen, lambda line: say(prefix + line), lang, watch_room_code=False)
