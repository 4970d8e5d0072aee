"""The hall: one host process, one port, one event loop, many tables (issue 12).

A ``Hall`` owns the listening port (a ``Listener``) and the admission ``Gate`` shared by
its tables; the client hello names the table (protocol/handshake.md, generation 2) and
the listener hands the connection to that table's ``TableServer``. Each table keeps its
own room code, screen code, guessing pace, seats, resume secrets, journal file and fair
deck: nothing of one table is sent on another's connections (each connection has its own
keys, counters and padding; the tables share only the loop and the port).

Interface for the commands layer and the hall screen (``lanuno.ui.hall_*``)::

    hall = Hall(host="0.0.0.0", port=0, limits=ServerLimits(), log=print,
                journal_dir=Path("party"))        # journal_dir None: no journals
    await hall.start()                            # listens; no table yet
    entry = await hall.open_table(config, bots=2) # the next free number, 1..64
    hall.tables                                   # list[HallTable], by number
    hall.table(2)                                 # HallTable | None
    await hall.close_table(2)                     # goodbye to its players; journal kept
    await hall.close()                            # every table, then the port
    hall.closed                                   # asyncio.Event, set by close() or when
                                                  # the last table has closed by itself
    hall.on_change                                # called after a table opened, closed
                                                  # or changed (seats, phase, code)

    HallTable: number, name, server (TableServer), screen (TableScreen: the public shared
    screen, what the table app shows), controls (TableControls: the host's keys; in a
    hall its ``shutdown`` closes that table only), screen_code (pairs ``lanuno screen``;
    show it on the host's own screen only, never on a shared screen), journal_path.

A hall's journal directory holds one journal per table (``table-N.journal``, the same
format as a single table's) and ``hall.json`` listing the open tables with their screen
codes (0600, like the journals, which hold the room codes: a restarted hall keeps them, so
remote screens pair again by themselves); ``load_hall(dir)`` reads it back for
``lanuno host --resume DIR``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path

from lanuno.bots.levels import BotLevel
from lanuno.host.table import Table, TableConfig
from lanuno.net.discovery import Announcer, HallAnnouncer
from lanuno.net.journal_files import JournalWriter, write_atomically
from lanuno.net.server import (
    CLOSED_REASON,
    Gate,
    Listener,
    ServerLimits,
    TableControls,
    TableScreen,
    TableServer,
)
from lanuno.wire.crypto import MAX_TABLES
from lanuno.wire.errors import CloseCode

HALL_FILE = "hall.json"
HALL_FORMAT = 1


def table_journal_name(number: int) -> str:
    return f"table-{number}.journal"


@dataclass(frozen=True, slots=True)
class HallEntry:
    """One table of a hall file: its number, name and journal file."""

    number: int
    name: str
    journal: Path
    screen_code: str | None = None
    """The table's screen code when the hall saved it (kept across a restart)."""


def load_hall(directory: Path) -> list[HallEntry]:
    """The tables a hall directory lists (``hall.json``), by number."""
    try:
        data = json.loads((directory / HALL_FILE).read_text(encoding="utf-8"))
        entries = [
            HallEntry(
                int(t["number"]),
                str(t["name"]),
                directory / str(t["journal"]),
                _screen_code(t.get("screen_code")),
            )
            for t in data["tables"]
        ]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ValueError(f"{directory / HALL_FILE}: not a hall file ({error})") from None
    if data.get("hall") != HALL_FORMAT:
        raise ValueError(f"{directory / HALL_FILE}: unknown hall format {data.get('hall')!r}")
    for entry in entries:
        if not 1 <= entry.number <= MAX_TABLES or entry.journal.parent != directory:
            raise ValueError(f"{directory / HALL_FILE}: bad table entry {entry.number}")
    return sorted(entries, key=lambda e: e.number)


def _screen_code(value: object) -> str | None:
    """A saved screen code if it is 6 digits (anything else: the table draws a new one)."""
    if isinstance(value, str) and len(value) == 6 and value.isascii() and value.isdigit():
        return value
    return None


class HallTableControls(TableControls):
    """The host's keys over one table of a hall: quitting closes that table only, for good
    (or, ``quits_hall``: the host of a single table quits, and the hall saves it)."""

    def __init__(
        self, hall: Hall, number: int, server: TableServer, *, quits_hall: bool = False
    ) -> None:
        super().__init__(server)
        self._hall, self._number, self._quits_hall = hall, number, quits_hall

    async def shutdown(self) -> None:
        if self._quits_hall:
            await self._hall.close()
        else:
            await self._hall.close_table(self._number)


@dataclass(slots=True)
class HallTable:
    """One table of the hall (see the module docstring)."""

    number: int
    server: TableServer
    screen: TableScreen
    controls: TableControls
    journal_path: Path | None = None
    announcer: Announcer | None = field(default=None, repr=False)

    @property
    def name(self) -> str:
        return self.server.table.config.name

    @property
    def bot_level(self) -> BotLevel:
        return self.server.table.config.bot_level

    @property
    def screen_code(self) -> str:
        return self.server.screen_code

    @property
    def paused(self) -> bool:
        """The table stopped by itself: its journal failed (``TableServer.stopped``)."""
        return self.server.stopped is not None


class Hall:
    """Many tables behind one port (see the module docstring)."""

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        limits: ServerLimits | None = None,
        log: Callable[[str], None] | None = None,
        journal_dir: Path | None = None,
        random_bytes: Callable[[int], bytes] = os.urandom,
        announcer: HallAnnouncer | None = None,
        prefix_logs: bool = True,
    ) -> None:
        self.host, self.port = host, port
        self.limits = limits or ServerLimits()
        self._log = log or (lambda _line: None)
        self.journal_dir = journal_dir
        self._random_bytes = random_bytes
        self.announcer = announcer
        self._prefix_logs = prefix_logs
        self._tables: dict[int, HallTable] = {}
        self._loop_time = asyncio.get_running_loop().time
        self.gate = Gate(self.limits, self._loop_time, self._log)
        self.listener = Listener(self._route, self.gate, host=host, port=port, log=self._log)
        self.closed = asyncio.Event()
        self.saved: list[Path] = []
        """The journals of the tables ``close`` saved (a ``--resume`` carries them on)."""
        self.on_change: Callable[[], None] | None = None
        self._watchers: set[asyncio.Task[None]] = set()
        self._closing: asyncio.Future[None] | None = None

    # ------------------------------------------------------------------ reading

    @property
    def tables(self) -> list[HallTable]:
        return [self._tables[n] for n in sorted(self._tables)]

    def table(self, number: int) -> HallTable | None:
        return self._tables.get(number)

    def _route(self, number: int) -> TableServer | None:
        entry = self._tables.get(number)
        return None if entry is None else entry.server

    def next_number(self) -> int:
        for number in range(1, MAX_TABLES + 1):
            if number not in self._tables:
                return number
        raise ValueError(f"A hall holds at most {MAX_TABLES} tables.")

    # ------------------------------------------------------------------ life

    async def start(self, port: int | None = None) -> None:
        """Listen on the port given at construction, or on ``port`` (0: any free one)."""
        if port is not None:
            self.listener.port = port
        await self.listener.start()
        self.port = self.listener.port

    @contextlib.asynccontextmanager
    async def opening(self) -> AsyncIterator[None]:
        """The host opens its first tables (listening already: the port is known): a
        player or screen coming back to one of them meanwhile (a resumed hall's) waits for
        it, rather than be told the hall has no such table."""
        event = asyncio.Event()
        self.listener.opening = event
        try:
            yield
        finally:
            self.listener.opening = None
            event.set()

    async def open_table(
        self,
        config: TableConfig,
        *,
        bots: int = 0,
        room_code: str | None = None,
        number: int | None = None,
        table: Table | None = None,
        journal: JournalWriter | None = None,
        screen_code: str | None = None,
    ) -> HallTable:
        """A new table (or ``table`` restored from ``journal``) at ``number`` (default: the
        lowest free one), served at once. Without ``journal`` and with a journal directory,
        its journal is ``table-N.journal`` there."""
        number = self.next_number() if number is None else number
        if number in self._tables or not 1 <= number <= MAX_TABLES:
            raise ValueError(f"table {number} is taken or out of 1..{MAX_TABLES}")
        if table is None:
            table = Table(config, self._random_bytes, room_code=room_code)
            for _ in range(bots):
                table.add_bot(config.bot_level)
        if journal is None and self.journal_dir is not None:
            journal = JournalWriter(self._new_journal_path(number))
        prefix = f"[{config.name}] " if self._prefix_logs else ""
        server = TableServer(
            table,
            host=self.host,
            port=self.port,
            journal=journal,
            limits=self.limits,
            log=lambda line: self._log(prefix + line),
            random_bytes=self._random_bytes,
            number=number,
            gate=self.gate,
            screen_code=screen_code,
            mdns=self.announcer is not None,
        )
        # The hall file keeps the screen code: save it again when failed pairings change it.
        server.on_screen_code_rotated = lambda _code: self._save()
        entry = HallTable(
            number,
            server,
            TableScreen(server),
            HallTableControls(self, number, server),
            journal.path if journal is not None else None,
        )
        self._tables[number] = entry
        self.gate.tables = len(self._tables)
        server.on_change = self._changed  # the hall screen follows seats, phase and codes
        await server.start(listen=False)
        self._save()
        await self._announce(entry)
        watcher = asyncio.create_task(self._watch(entry))
        self._watchers.add(watcher)
        watcher.add_done_callback(self._watchers.discard)
        self._changed()
        return entry

    async def close_table(self, number: int, reason: str = CLOSED_REASON) -> None:
        """Say goodbye to the table's players and stop serving it: for good (its journal
        stays on disk, but the hall no longer lists it, so its players forget their seats)."""
        entry = self._tables.pop(number, None)
        self.gate.tables = max(1, len(self._tables))
        if entry is None:
            return
        self._save()
        await entry.server.close(reason, CloseCode.HOST_SHUTDOWN)
        await self._unannounce(entry)
        self._changed()

    async def close(self) -> None:
        """Save every table and stop. Once: a call while a close runs (a signal's, and the
        screen's as it ends) waits for that one, and a call after returns at once."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close())
        await asyncio.shield(self._closing)

    async def _close(self) -> None:
        self.listener.closing = True
        for number in list(self._tables):
            entry = self._tables.pop(number)
            self.gate.tables = max(1, len(self._tables))
            if entry.server.resumable and entry.journal_path is not None:
                self.saved.append(entry.journal_path)
            await entry.server.close()
            await self._unannounce(entry)
        await self.listener.close()
        if self.announcer is not None:
            await self.announcer.close()
        for watcher in list(self._watchers):
            watcher.cancel()
        self.closed.set()

    async def _watch(self, entry: HallTable) -> None:
        """A table that stops by itself (its journal failed) stays listed, stopped; the
        hall ends when every table it lists has stopped so. Tables the host closed are not
        listed: closing the last one leaves an empty hall, open for new tables."""
        await entry.server.closed.wait()
        self._changed()
        listed = list(self._tables.values())
        if listed and all(t.server.closed.is_set() for t in listed):
            self.closed.set()

    # ------------------------------------------------------------------ helpers

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def _new_journal_path(self, number: int) -> Path:
        """``table-N.journal``, or ``table-N-2.journal``... when a closed table N left its
        journal there (a closed table's journal is kept, never overwritten)."""
        assert self.journal_dir is not None
        path = self.journal_dir / table_journal_name(number)
        again = 2
        while path.exists():
            path = self.journal_dir / f"table-{number}-{again}.journal"
            again += 1
        return path

    def _save(self) -> None:
        """The hall file: which tables are open, for ``--resume DIR`` (atomic)."""
        if self.journal_dir is None:
            return
        data = {
            "hall": HALL_FORMAT,
            "tables": [
                {
                    "number": t.number,
                    "name": t.name,
                    "journal": t.journal_path.name,
                    "screen_code": t.screen_code,
                }
                for t in self.tables
                if t.journal_path is not None
            ],
        }
        write_atomically(self.journal_dir / HALL_FILE, json.dumps(data, indent=1).encode())

    async def _announce(self, entry: HallTable) -> None:
        if self.announcer is None:
            return
        table, server = entry.server.table, entry.server
        try:
            announcer = await self.announcer.add(
                entry.number,
                entry.name,
                server.port,
                preset=table.rules.preset,
                room_id=table.room_id,
                free=table.free_seats,
            )
        except Exception as error:
            self._log(f"mDNS announcement of {entry.name} failed ({error})")
            return
        entry.announcer = announcer
        server.announced = True
        previous = server.on_change

        def update() -> None:
            announcer.update(table.free_seats, table.rules.preset)
            if previous is not None:
                previous()

        server.on_change = update

    async def _unannounce(self, entry: HallTable) -> None:
        if entry.announcer is not None:
            with contextlib.suppress(Exception):
                await entry.announcer.close()
            entry.announcer = None
