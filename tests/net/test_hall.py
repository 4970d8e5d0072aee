"""The hall (issue 12): many tables on one port, each its own; SCREEN links.

The S1 sniff, across tables: every byte the host sends to table B's connections passes
through a tee proxy on 127.0.0.1, and is then decrypted with B's keys (the frames open
only with them): no hand of table A and no name of A's players is in any of them.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from helpers import until, wrong_code_join
from net_helpers import FAST, ScriptedPlayer, join

from lanuno.engine import events as engine_events
from lanuno.engine.rules import preset as rules_preset
from lanuno.engine.rules import with_options
from lanuno.host.table import Table, TableConfig
from lanuno.net.client import JoinError, NetClientSession
from lanuno.net.discovery import LOOPBACK, HallAnnouncer, TableBrowser, TableInfo
from lanuno.net.hall import Hall, HallTable, load_hall
from lanuno.net.journal_files import JournalWriter, read_journal
from lanuno.net.screen_client import RemoteScreen, ScreenError
from lanuno.net.seat_store import SeatFile
from lanuno.net.server import Gate, ServerLimits
from lanuno.ui.i18n import translator
from lanuno.ui.table_model import TableModel
from lanuno.wire.connection import ClientConnection
from lanuno.wire.crypto import (
    ANY_SEAT,
    MAGIC_CLIENT,
    MAGIC_TABLE_REFUSED,
    MAGIC_VERSION_REFUSED,
)
from lanuno.wire.errors import CloseCode, RemoteProtocolError
from lanuno.wire.framing import Direction, FrameOpener, frame_aad
from lanuno.wire.messages import (
    Bye,
    Event,
    GameEnd,
    Hello,
    Lobby,
    Message,
    Role,
    ScreenInfo,
    State,
    decode,
    encode,
)

pytestmark = pytest.mark.timeout(120)

FAST_LIMITS = ServerLimits(rate=5000, burst=5000)
PRIVATE_KINDS = {
    cls.kind
    for cls in vars(engine_events).values()
    if isinstance(cls, type)
    and issubclass(cls, engine_events.PrivateEvent)
    and cls is not engine_events.PrivateEvent
}
HANDSHAKE_REPLY = 75 + 33
"""host_hello and msgB: what the host sends before its first frame."""


@dataclass
class Sniffed:
    """One connection's host-to-client bytes, and the client's keys to open them."""

    data: bytearray = field(default_factory=bytearray)
    key: bytes = b""
    room_id: bytes = b""

    def messages(self) -> list[Message]:
        opener = FrameOpener(self.key, frame_aad(Direction.HOST_TO_CLIENT, self.room_id, ANY_SEAT))
        buffer = bytearray(self.data[HANDSHAKE_REPLY:])
        assert opener.open_next(buffer) is not None  # the host's key confirmation
        out = []
        while (payload := opener.open_next(buffer)) is not None:
            out.append(decode(payload, Role.HOST))
        assert not buffer, "bytes left that B's keys do not open"
        return out


class SniffingProxy:
    """127.0.0.1:port -> the hall; keeps each connection's host-to-client bytes."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.connections: list[Sniffed] = []
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        port: int = self._server.sockets[0].getsockname()[1]
        return port

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sniffed = Sniffed()
        self.connections.append(sniffed)
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)

        async def pump(
            src: asyncio.StreamReader, dst: asyncio.StreamWriter, keep: bytearray | None
        ) -> None:
            try:
                while data := await src.read(65536):
                    if keep is not None:
                        keep += data
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, asyncio.CancelledError):
                pass
            finally:
                dst.close()

        await asyncio.gather(pump(reader, up_writer, None), pump(up_reader, writer, sniffed.data))

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()


def _keys_of(session: NetClientSession, sniffed: Sniffed) -> None:
    conn = session.core._conn
    assert conn is not None
    assert conn.rx is not None
    sniffed.key, sniffed.room_id = conn.rx.key, conn.room_id


async def _hall(tables: int, limits: ServerLimits = FAST_LIMITS, **kwargs: object) -> Hall:
    hall = Hall(host="127.0.0.1", port=0, limits=limits, **kwargs)  # type: ignore[arg-type]
    await hall.start()
    rules = with_options(rules_preset("official"), ["target=none"])
    for number in range(1, tables + 1):
        config = TableConfig(name=f"Table {number}", rules=rules, next_round_after=0.0)
        await hall.open_table(config)
    return hall


async def _players(
    hall: HallTable, port: int, names: list[str]
) -> tuple[list[NetClientSession], list[ScriptedPlayer]]:
    sessions = [
        await join(port, hall.server.table.room_code, name, table=hall.number) for name in names
    ]
    return sessions, [ScriptedPlayer(s, i) for i, s in enumerate(sessions)]


async def test_no_hand_or_name_of_table_A_reaches_table_B_and_its_screen_sees_no_hand() -> None:
    hall = await _hall(2)
    a, b = hall.tables
    proxy = SniffingProxy(hall.port)
    proxy_port = await proxy.start()
    try:
        a_sessions, a_players = await _players(a, hall.port, ["Annalise-A", "Bartholomew-A"])
        b_sessions: list[NetClientSession] = []
        for name in ("Cyd-B", "Dora-B"):  # one at a time: connection i is session i
            session = await join(proxy_port, b.server.table.room_code, name, table=b.number)
            _keys_of(session, proxy.connections[-1])
            b_sessions.append(session)
        b_players = [ScriptedPlayer(s, 10 + i) for i, s in enumerate(b_sessions)]
        screen = RemoteScreen("127.0.0.1", proxy_port, b.screen_code, table=b.number)
        await screen.connect()
        screen_conn = screen._conn
        assert screen_conn is not None
        assert screen_conn.rx is not None
        proxy.connections[-1].key = screen_conn.rx.key
        proxy.connections[-1].room_id = screen_conn.room_id
        screen_messages: list[Message] = []

        async def watch() -> None:
            async for message in screen.updates():
                screen_messages.append(message)

        watcher = asyncio.create_task(watch())
        for entry in (a, b):
            await entry.controls.add_bot("beginner")
        tasks = [asyncio.create_task(p.play()) for p in a_players + b_players]
        await a.controls.start()
        await b.controls.start()
        ends = await asyncio.wait_for(asyncio.gather(*tasks), 90)
        assert all(isinstance(end, GameEnd) for end in ends)
        await asyncio.sleep(0.2)  # the screen's last messages
        for session in a_sessions + b_sessions:
            await session.close()
        await screen.close()
        await watcher
    finally:
        await proxy.close()
        await hall.close()
    # Hands of 7 cards or more: two tables' short hands ("Y9 R5 YR") coincide by chance
    # over a whole game (CI once failed so); a leak would carry A's dealt hands too.
    a_hands = {
        m.hand for p in a_players for m in p.messages if isinstance(m, State) and len(m.hand) >= 7
    }
    assert a_hands, "table A's players were dealt no hand"
    assert len(proxy.connections) == 3
    for sniffed in proxy.connections:
        messages = sniffed.messages()  # every frame opens with B's keys
        assert messages
        hands = {m.hand for m in messages if isinstance(m, State)}
        assert not hands & a_hands
        names = {s.name for m in messages if isinstance(m, Lobby) for s in m.seats}
        assert not names & {"Annalise-A", "Bartholomew-A"}
        assert {"Cyd-B", "Dora-B"} <= names
    # The screen link (the last connection): the public feed, never a hand.
    screen_wire = proxy.connections[-1].messages()
    assert isinstance(screen_wire[0], ScreenInfo)
    assert screen_wire[0].code == b.server.table.room_code
    assert screen_wire[0].table == b.number
    for messages in (screen_wire, screen_messages):
        states = [m for m in messages if isinstance(m, State)]
        assert states
        assert all(not s.hand and not s.legal for s in states)
        assert not [m for m in messages if isinstance(m, Event) and m.type in PRIVATE_KINDS]
        assert any(isinstance(m, GameEnd) for m in messages)


async def _raw(port: int, data: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(data)
    try:
        return await asyncio.wait_for(reader.read(), 5)
    finally:
        writer.close()


async def test_a_table_not_served_is_refused_with_T_and_generation_1_with_V() -> None:
    hall = await _hall(2)
    try:
        for table in (0, 3, 32, 255):
            got = await _raw(hall.port, MAGIC_CLIENT + bytes((1, table, 255, 0)))
            assert got == MAGIC_TABLE_REFUSED == b"LANUNO/2 T\n"
        # A generation-1 client hello (14 bytes, no table byte): the refusal generation 1
        # knows (its own digit; lanuno 0.2.0 then says "another protocol generation").
        got = await _raw(hall.port, b"LANUNO/1 C\n\x01\xff\x00")
        assert got == b"LANUNO/1 V\n"
        # A generation-2 client refused by another generation's host says so.
        with pytest.raises(RemoteProtocolError, match="another protocol generation") as refused:
            ClientConnection.join("123456", os.urandom).receive_data(MAGIC_VERSION_REFUSED)
        assert refused.value.code is CloseCode.VERSION_MISMATCH
        session = NetClientSession(
            "127.0.0.1", hall.port, hall.tables[0].server.table.room_code, "Eve", table=3
        )
        with pytest.raises(JoinError, match="no table 3") as no_table:
            await session.connect()
        assert no_table.value.no_such_table
        assert not no_table.value.wrong_code
        # Table 2's code at table 1 is a wrong code, never a seat at table 2.
        wrong = NetClientSession(
            "127.0.0.1", hall.port, hall.tables[1].server.table.room_code, "Eve", timing=FAST
        )
        if hall.tables[1].server.table.room_code != hall.tables[0].server.table.room_code:
            with pytest.raises(JoinError, match="room code is wrong") as refused_code:
                await wrong.connect()
            assert refused_code.value.wrong_code
            assert not refused_code.value.no_such_table
    finally:
        await hall.close()


async def test_a_player_back_while_a_resumed_hall_opens_its_tables_waits_for_the_table() -> None:
    """A resumed hall listens, then opens its tables one after the other: a player (or a
    remote screen, which stops for good when told so) coming back to table 2 before it is
    open gets its seat, not 'the host has no table 2'."""
    hall = Hall(host="127.0.0.1", port=0, limits=FAST_LIMITS)
    await hall.start()
    rules = rules_preset("official")
    try:
        async with hall.opening():
            await hall.open_table(TableConfig(name="Table 1", rules=rules))
            second = Table(TableConfig(name="Table 2", rules=rules), os.urandom)
            session = NetClientSession(
                "127.0.0.1", hall.port, second.room_code, "Eve", table=2, timing=FAST
            )
            joining = asyncio.create_task(session.connect())
            await until(lambda: hall.gate.pending or joining.done(), "a hello for table 2")
            await asyncio.sleep(0.1)  # read and routed (with no table 2 open yet)
            await hall.open_table(second.config, table=second)
        await joining
        await until(lambda: session.seat is not None, "Eve is seated")
        assert session.seat == 0
        await session.close()
    finally:
        await hall.close()


async def test_a_closed_table_is_refused_and_the_others_go_on() -> None:
    hall = await _hall(3)
    try:
        ann = await join(hall.port, hall.tables[2].server.table.room_code, "Ann", table=3)
        assert ann.seat == 0
        await hall.close_table(2)
        assert [t.number for t in hall.tables] == [1, 3]
        got = await _raw(hall.port, MAGIC_CLIENT + bytes((1, 2, 255, 0)))
        assert got == MAGIC_TABLE_REFUSED
        bob = await join(hall.port, hall.tables[1].server.table.room_code, "Bob", table=3)
        assert bob.seat == 1
        entry = await hall.open_table(hall.tables[0].server.table.config)
        assert entry.number == 2  # the lowest free number
        await ann.close()
        await bob.close()
        # Closing every table leaves an empty hall, still open for new ones.
        for number in (1, 2, 3):
            await hall.close_table(number)
        await asyncio.sleep(0.05)
        assert not hall.closed.is_set()
        again = await hall.open_table(entry.server.table.config)
        assert again.number == 1
    finally:
        await hall.close()


async def test_lockout_and_guessing_pace_are_per_table() -> None:
    limits = ServerLimits(
        rate=5000, burst=5000, rotate_after=3, max_failures_per_ip=1000, pace_free_failures=1000
    )
    hall = await _hall(2, limits)
    try:
        a, b = hall.tables
        a_code, b_code = a.server.table.room_code, b.server.table.room_code
        a_screen, b_screen = a.screen_code, b.screen_code
        for _ in range(3):
            await wrong_code_join(hall.port, a_code, a.number)
        assert a.server.table.room_code != a_code  # rotated after 3 failures at table A
        assert a.server.code_rotations == 1
        assert b.server.table.room_code == b_code
        assert b.server.table.guard.failures == 0
        assert b.server._pace.recent_failures() == 0
        assert a.server._pace.recent_failures() == 3
        # Failed screen pairings count against that table's screen code only.
        for _ in range(3):
            await wrong_code_join(hall.port, b_screen, b.number, screen=True)
        assert b.screen_code != b_screen
        assert b.server.table.room_code == b_code
        assert b.server._pace.recent_failures() == 0
        assert b.server._screen_pace.recent_failures() == 3
        assert a.screen_code == a_screen
        # Table B still lets its players in with its code.
        cyd = await join(hall.port, b_code, "Cyd", table=b.number)
        assert cyd.seat == 0
        await cyd.close()
        with pytest.raises(ScreenError, match="screen code is wrong"):
            await RemoteScreen("127.0.0.1", hall.port, b_screen, table=b.number).connect()
    finally:
        await hall.close()


async def test_a_screen_may_only_ping_and_sees_no_hand_of_the_table_it_watches() -> None:
    hall = await _hall(1)
    entry = hall.tables[0]
    try:
        ann = await join(hall.port, entry.server.table.room_code, "Ann")
        screen = RemoteScreen("127.0.0.1", hall.port, entry.screen_code, ping_every=0.05)
        await screen.connect()
        await entry.controls.add_bot("beginner")
        await entry.controls.start()
        seen: list[Message] = []

        async def watch() -> None:
            async for message in screen.updates():
                seen.append(message)
                if isinstance(message, State) and message.hand == () and len(seen) > 5:
                    return

        await asyncio.wait_for(watch(), 20)
        assert screen.room_code == entry.server.table.room_code
        assert screen.table_name == "Table 1"
        states = [m for m in seen if isinstance(m, State)]
        assert states
        assert all(not s.hand for s in states)
        assert ann.last_state is not None
        assert ann.last_state.hand  # the player's own connection does get its hand
        assert len(entry.server._screens) == 1
        await screen.close()
        # A screen that says hello breaks the SCREEN rule: bye PROTOCOL_ERROR; play goes on.
        conn = ClientConnection.screen(entry.screen_code, os.urandom)
        reader, writer = await asyncio.open_connection("127.0.0.1", hall.port)
        writer.write(conn.data_to_send())
        while conn.phase.value != "open":
            conn.receive_data(await asyncio.wait_for(reader.read(65536), 5))
            writer.write(conn.data_to_send())
        assert conn.tx is not None
        hello = Hello(versions=(1,), name="Mallory", age=None, kid=False, seed_commit=bytes(32))
        writer.write(conn.tx.seal(encode(hello)[0]))
        events = []
        while data := await asyncio.wait_for(reader.read(65536), 5):
            events += conn.receive_data(data)
        byes = [e for e in events if isinstance(e, Bye)]
        assert byes
        assert byes[0].code == CloseCode.PROTOCOL_ERROR
        writer.close()
        assert ann.connection == "connected"
        await ann.close()
    finally:
        await hall.close()


async def test_two_screens_on_one_table_both_stay_paired_while_the_game_goes_on() -> None:
    """A TV and a second screen watch one table: the second pairing must not cost the first
    its link (the table's info was framed for every screen and sent to the new one only,
    so the others' frame counters moved on and their next frame failed)."""
    hall = await _hall(1)
    entry = hall.tables[0]
    screens = [
        RemoteScreen("127.0.0.1", hall.port, entry.screen_code, ping_every=0.05) for _ in range(3)
    ]
    try:
        ann = await join(hall.port, entry.server.table.room_code, "Ann")
        for screen in screens:
            await screen.connect()
        await entry.controls.add_bot("beginner")
        await entry.controls.start()
        states = [0, 0, 0]

        async def watch(i: int) -> None:
            async for message in screens[i].updates():
                if isinstance(message, State):
                    states[i] += 1
                    if states[i] >= 5:
                        return

        player = ScriptedPlayer(ann, 0)
        task = asyncio.create_task(player.play())
        await asyncio.wait_for(asyncio.gather(*(watch(i) for i in range(3))), 20)
        task.cancel()
        assert [screen.reconnects for screen in screens] == [0, 0, 0]
        assert all(screen.linked for screen in screens)
        assert len(entry.server._screens) == 3
        await ann.close()
    finally:
        for screen in screens:
            await screen.close()
        await hall.close()


async def test_a_screen_paired_after_the_game_shows_the_winner_then_the_lobby() -> None:
    """A TV paired once a game is over showed a lobby (its feed started from the latest
    lobby and state only); and a TV nobody presses Enter on stayed on the winner while the
    players got ready for the next game."""
    hall = await _hall(1)
    entry = hall.tables[0]
    try:
        ann = await join(hall.port, entry.server.table.room_code, "Ann")
        await entry.controls.add_bot("beginner")
        await entry.controls.start()
        assert await asyncio.wait_for(ScriptedPlayer(ann, 3).play(), 60) is not None
        screen = RemoteScreen("127.0.0.1", hall.port, entry.screen_code, ping_every=0.05)
        await screen.connect()
        model = TableModel(translator("en"), remote=True)
        updates = screen.updates()

        async def until_screen(wanted: str) -> None:
            while model.screen != wanted:
                model.apply(await anext(updates), 0.0)

        await asyncio.wait_for(until_screen("game_end"), 10)
        assert model.game_end is not None
        await ann.set_ready(True)
        await asyncio.wait_for(until_screen("lobby"), 10)
        assert model.lobby is not None
        assert [s.ready for s in model.lobby.seats if s.kind == "human"] == [True]
        await screen.close()
        await ann.close()
    finally:
        await hall.close()


async def test_a_hall_journal_directory_lists_its_tables_and_restores_them(tmp_path: Path) -> None:
    hall = await _hall(2, journal_dir=tmp_path)
    try:
        _, b = hall.tables
        cyd = await join(hall.port, b.server.table.room_code, "Cyd", table=2)
        ticket = cyd.ticket
        assert ticket is not None
        await b.controls.add_bot("beginner")
        await b.controls.start()  # a game on: a restart holds the seats
        for _ in range(300):
            if cyd.last_state is not None:
                break
            await asyncio.sleep(0.01)
        assert cyd.last_state is not None
        b_code, b_room = b.server.table.room_code, b.server.table.room_id
        b_screen = b.screen_code
        # The client's machine dies (no goodbye): its lobby seat is held for the grace.
        assert cyd._runner is not None
        assert cyd._writer is not None
        cyd._runner.cancel()
        cyd._writer.transport.abort()
        await asyncio.sleep(0.3)
    finally:
        await hall.close()
    entries = load_hall(tmp_path)
    assert [(e.number, e.name) for e in entries] == [(1, "Table 1"), (2, "Table 2")]
    assert all(e.journal.exists() for e in entries)
    assert [e.journal.name for e in entries] == ["table-1.journal", "table-2.journal"]
    assert entries[1].screen_code == b_screen
    assert oct((tmp_path / "hall.json").stat().st_mode & 0o777) == "0o600"
    # Restore both tables from their journals, in a new hall (a host restart).

    again = Hall(host="127.0.0.1", port=0, limits=FAST_LIMITS, journal_dir=tmp_path)
    await again.start()
    try:
        for entry in entries:
            recovery = read_journal(entry.journal)
            config = TableConfig(name=entry.name)
            table = Table.restore(recovery.records, config, os.urandom, now=0.0)
            await again.open_table(
                table.config,
                number=entry.number,
                table=table,
                journal=JournalWriter(entry.journal, existing=recovery),
                screen_code=entry.screen_code,
            )
        restored = again.table(2)
        assert restored is not None
        assert restored.server.table.room_code == b_code
        assert restored.server.table.room_id == b_room
        assert restored.screen_code == b_screen  # a remote screen pairs again by itself
        back = NetClientSession(
            "127.0.0.1", again.port, "", "Cyd", timing=FAST, ticket=ticket, table=2
        )
        await back.connect()
        for _ in range(200):
            if back.seat is not None:
                break
            await asyncio.sleep(0.01)
        assert back.seat == ticket.seat
        await back.close()
    finally:
        await again.close()


async def test_a_table_closed_in_the_hall_ends_for_good_and_a_hall_that_quits_saves_its_own(
    tmp_path: Path,
) -> None:
    """Closing one table is for good (its players forget their seats); the host quitting
    the hall saves every table it lists (TABLE_SAVED: its players keep their seats on disk,
    for ``lanuno join`` after a ``--resume``)."""
    (tmp_path / "hall").mkdir()
    hall = await _hall(2, journal_dir=tmp_path / "hall")
    try:
        seated = []
        for entry, name in zip(hall.tables, ("Ann", "Cyd"), strict=True):
            seat_file = SeatFile(tmp_path / name, "127.0.0.1", hall.port, name, entry.number)
            code = entry.server.table.room_code
            session = await join(hall.port, code, name, table=entry.number, seat_file=seat_file)
            await until(lambda d=tmp_path / name: list(d.glob("seat-*.json")), "a saved seat")
            seated.append(session)
        ann, cyd = seated
        await hall.close_table(1)
        await until(lambda: ann.connection == "closed", "Ann's goodbye")
        assert not list((tmp_path / "Ann").glob("seat-*.json")), "a closed table's seat stays"
        await hall.close()
        await until(lambda: cyd.connection == "closed", "Cyd's goodbye")
        assert list((tmp_path / "Cyd").glob("seat-*.json")), "a saved table's seat was lost"
        assert hall.saved == [tmp_path / "hall" / "table-2.journal"]
        assert [e.number for e in load_hall(tmp_path / "hall")] == [2]
    finally:
        await hall.close()


@pytest.mark.parametrize("rounds", [0, 1], ids=["before a game", "after a game"])
async def test_a_table_saved_in_its_lobby_keeps_its_players_seats(
    tmp_path: Path, rounds: int
) -> None:
    """The host's goodbye to a saved table's players (TABLE_SAVED) was taken as their
    leaving: in the lobby each seat was freed, and the removals reached the journal, so
    after ``--resume`` nobody had a seat to come back to (seen after Q at a game's end)."""
    (tmp_path / "hall").mkdir()
    hall = await _hall(1, journal_dir=tmp_path / "hall")
    entry = hall.tables[0]
    try:
        ann = await join(hall.port, entry.server.table.room_code, "Ann")
        bob = await join(hall.port, entry.server.table.room_code, "Bob")
        if rounds:
            await entry.controls.start()  # target=none: one round is the game
            players = [ScriptedPlayer(ann, 1), ScriptedPlayer(bob, 2)]
            await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), 60)
            await until(lambda: entry.server.table.phase.value == "lobby", "back in the lobby")
        await hall.close()
        await until(lambda: ann.connection == "closed", "Ann's goodbye")
    finally:
        await hall.close()
    (saved,) = load_hall(tmp_path / "hall")
    records = read_journal(saved.journal).records
    assert not [r for r in records if r["k"] == "remove"]
    restored = Table.restore(records, TableConfig(), os.urandom, now=0.0)
    assert [s.name for s in restored.slots] == ["Ann", "Bob"]


async def test_two_closes_at_once_save_every_table_once(tmp_path: Path) -> None:
    """A closed terminal closes the hall twice at once (its SIGHUP, and the screen ending
    on the dead terminal): the second waits for the first, nothing fails."""
    (tmp_path / "hall").mkdir()
    hall = await _hall(3, journal_dir=tmp_path / "hall")
    await asyncio.wait_for(asyncio.gather(hall.close(), hall.close()), 10)
    assert hall.closed.is_set()
    assert sorted(hall.saved) == [tmp_path / "hall" / f"table-{n}.journal" for n in (1, 2, 3)]
    await hall.close()  # and once more, after: nothing to do
    assert len(hall.saved) == 3


async def test_a_hall_announces_one_service_per_table_on_loopback() -> None:
    """One mDNS service per table (TXT ``table`` = its number, ``name``), on 127.0.0.1 only;
    a closed table says goodbye while the others stay listed."""
    hall = await _hall(0, announcer=HallAnnouncer([LOOPBACK]))
    browser = TableBrowser([LOOPBACK])
    await browser.start()
    try:
        suffix = os.urandom(3).hex()  # other runs on this machine announce tables too
        rules = with_options(rules_preset("official"), ["target=none"])
        for number in (1, 2, 3):
            await hall.open_table(TableConfig(name=f"Hall {suffix} {number}", rules=rules))
        rooms = {t.server.table.room_id.hex(): t for t in hall.tables}

        def ours() -> list[TableInfo]:
            return [t for t in browser.listed() if t.room in rooms]

        await until(lambda: len(ours()) == 3, "three tables listed")
        for info in ours():
            entry = rooms[info.room]
            assert (info.table, info.name, info.port) == (entry.number, entry.name, hall.port)
            assert entry.screen.announced
        await hall.close_table(2)
        await until(lambda: sorted(t.table for t in ours()) == [1, 3], "table 2 said goodbye")
    finally:
        await browser.close()
        await hall.close()


async def test_a_closed_tables_journal_is_kept_when_its_number_is_used_again(
    tmp_path: Path,
) -> None:
    hall = await _hall(2, journal_dir=tmp_path)
    try:
        first = hall.tables[1].journal_path
        assert first is not None
        await hall.close_table(2)
        assert [e.number for e in load_hall(tmp_path)] == [1]
        kept = first.read_bytes()
        entry = await hall.open_table(TableConfig(name="Garden"))
        assert entry.number == 2
        assert entry.journal_path == tmp_path / "table-2-2.journal"
        assert first.read_bytes() == kept
        assert [(e.number, e.name) for e in load_hall(tmp_path)] == [(1, "Table 1"), (2, "Garden")]
    finally:
        await hall.close()


def test_a_hall_admits_more_unfinished_handshakes_the_more_tables_it_serves() -> None:
    """The arrivals of 50 tables at once must not push each other out of a 32-slot gate."""
    limits = ServerLimits()
    gate = Gate(limits, lambda: 0.0, lambda _line: None)
    assert gate.capacity == limits.max_unauthenticated
    gate.tables = 50
    assert gate.capacity == limits.max_unauthenticated + 49 * limits.unauthenticated_per_extra_table


async def test_the_hall_tells_its_gate_how_many_tables_it_serves() -> None:
    hall = Hall(host="127.0.0.1", port=0)
    await hall.start()
    try:
        for number in (1, 2, 3):
            await hall.open_table(TableConfig(name=f"T{number}"))
        assert hall.gate.tables == 3
        await hall.close_table(2)
        assert hall.gate.tables == 2
    finally:
        await hall.close()


async def test_a_table_whose_journal_failed_stays_listed_and_paused() -> None:
    hall = await _hall(2)
    try:
        a, b = hall.tables
        assert not a.paused
        a.server._fail("journal write failed: no room left")  # as a failed append does
        await asyncio.wait_for(a.server.closed.wait(), 5)
        assert [t.number for t in hall.tables] == [1, 2]  # still listed, for the host
        assert a.paused
        assert not b.paused
    finally:
        await hall.close()


async def test_a_plain_hosts_screen_code_is_journaled_and_rotations_too(tmp_path: Path) -> None:
    """A plain host (one journal file, no hall.json) drew a new screen code at each
    ``--resume``: a TV paired before a crash was refused ("the screen code is wrong")."""
    path = tmp_path / "t.journal"
    limits = ServerLimits(
        rate=5000, burst=5000, rotate_after=3, max_failures_per_ip=1000, pace_free_failures=1000
    )
    hall = Hall(host="127.0.0.1", port=0, limits=limits)
    await hall.start()
    try:
        entry = await hall.open_table(TableConfig(), journal=JournalWriter(path))
        first = entry.screen_code
        await until(lambda: bool(read_journal(path).records), "journaled")
        served = Table.restore(read_journal(path).records, TableConfig(), os.urandom, 0.0).served
        assert served is not None
        assert served.screen_code == first
        for _ in range(3):  # wrong screen codes rotate it
            await wrong_code_join(hall.port, first, 1, screen=True)
        assert entry.screen_code != first
        entry.server.pump()
        await entry.server.durable()
        records = read_journal(path).records
        served = Table.restore(records, TableConfig(), os.urandom, 0.0).served
        assert served is not None
        assert served.screen_code == entry.screen_code
    finally:
        await hall.close()
