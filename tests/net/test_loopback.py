"""Whole games and hostile peers over real sockets on 127.0.0.1."""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path

import msgpack
import pytest
from helpers import until
from net_helpers import ScriptedPlayer, join

from lanuno.engine.rules import preset, with_options
from lanuno.host.table import Table, TableConfig
from lanuno.net.client import JoinError, NetClientSession
from lanuno.net.journal_files import JournalWriter, read_journal
from lanuno.net.server import ServerLimits, TableControls, TableScreen, TableServer
from lanuno.wire.connection import ClientConnection, HandshakeComplete
from lanuno.wire.messages import ActionRequest, ErrorReply, Event, GameEnd, Hello, State

PRIVATE_EVENTS = frozenset({"hand_dealt", "cards_drawn", "cards_received", "hand_revealed"})

pytestmark = pytest.mark.timeout(60)

RULES = {
    "official": preset("official"),
    "kids1": preset("kids1"),
    "kids2": preset("kids2"),
    "house": with_options(preset("official"), ["stacking", "seven_o", "jump_in", "target=200"]),
}
GENEROUS = ServerLimits(rate=5000, burst=5000)


async def serve(rules_name: str = "official", limits: ServerLimits = GENEROUS, **config: object):
    cfg = TableConfig(rules=RULES[rules_name], next_round_after=0.0, **config)  # type: ignore[arg-type]
    table = Table(cfg, os.urandom, rng=random.Random(1))
    server = TableServer(table, limits=limits)
    await server.start()
    return table, server


@pytest.mark.parametrize("rules_name", sorted(RULES))
async def test_whole_game_over_sockets_with_bots(rules_name: str) -> None:
    table, server = await serve(rules_name)
    try:
        sessions = [await join(server.port, table.room_code, n) for n in ("Ann", "Bob")]
        controls = TableControls(server)
        await controls.add_bot("beginner")
        await controls.add_bot("intermediate")
        players = [ScriptedPlayer(s, i) for i, s in enumerate(sessions)]
        tasks = [asyncio.create_task(p.play()) for p in players]
        screen: list[object] = []

        async def watch() -> None:
            async for message in TableScreen(server).updates():
                screen.append(message)

        watcher = asyncio.create_task(watch())
        await asyncio.sleep(0)
        await controls.start()
        ends = await asyncio.wait_for(asyncio.gather(*tasks), 45)
        assert all(isinstance(e, GameEnd) for e in ends)
        watcher.cancel()
        # The shared screen saw the game, and only its public side.
        assert any(isinstance(m, State) for m in screen)
        for message in screen:
            if isinstance(message, State):
                assert message.hand == ()
                assert message.legal == ()
            if isinstance(message, Event):
                assert message.type not in PRIVATE_EVENTS
        for player, session in zip(players, sessions, strict=True):
            for message in player.messages:
                if isinstance(message, Event) and message.type in PRIVATE_EVENTS:
                    assert message.fields["seat"] == session.seat
        for session in sessions:
            assert session.fair_rounds
            assert all(session.fair_rounds.values())
            await session.close()
    finally:
        await server.close()


async def test_wrong_room_code_is_a_clear_join_error() -> None:
    table, server = await serve()
    try:
        wrong = "000000" if table.room_code != "000000" else "111111"
        with pytest.raises(JoinError, match="room code is wrong"):
            await join(server.port, wrong, "Eve")
    finally:
        await server.close()


async def test_cut_connection_mid_turn_comes_back_to_the_same_seat_and_hand() -> None:
    table, server = await serve()
    try:
        ann = await join(server.port, table.room_code, "Ann")
        bob = await join(server.port, table.room_code, "Bob")
        await TableControls(server).start()
        await until(
            lambda: ann.last_state is not None and bob.last_state is not None, "both see the table"
        )
        if ann.last_state.actor != ann.seat:  # cut whoever is to play: mid-turn
            ann, bob = bob, ann
        seat = ann.seat
        assert seat is not None
        hand = list(table.game.seat_view(seat).hand)
        writer = ann._writer
        assert writer is not None
        writer.transport.abort()  # the Wi-Fi drops: no bye
        await until(lambda: ann.reconnects, "Ann reconnects")
        assert ann.reconnects == 1
        assert ann.seat == seat
        await until(
            lambda: ann.connection == "connected" and ann.last_state and table.slots[seat].peer,
            "Ann is back at the table",
        )
        assert list(table.game.seat_view(seat).hand) == hand
        assert list(ann.last_state.hand) == [c.code for c in hand]
        assert ann.ticket is not None
        assert ann.ticket.generation == 1
        await ann.close()
        await bob.close()
    finally:
        await server.close()


async def test_handshake_that_never_finishes_is_dropped_and_the_cap_holds() -> None:
    limits = ServerLimits(handshake_timeout=0.3, max_unauthenticated_per_ip=2)
    table, server = await serve(limits=limits)
    try:
        stalled = [await asyncio.open_connection("127.0.0.1", server.port) for _ in range(3)]
        # The third one is over the per-address cap: the oldest makes room (test_hostile.py),
        # and every one is closed once its handshake deadline passes.
        assert await asyncio.wait_for(stalled[2][0].read(), 1) == b""
        for reader, _ in stalled[:2]:
            assert await asyncio.wait_for(reader.read(), 2) == b""
        ann = await join(server.port, table.room_code, "Ann")
        assert ann.seat == 0
        await ann.close()
        for _, writer in stalled:
            writer.close()
    finally:
        await server.close()


async def _raw_client(
    port: int, code: str
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, ClientConnection]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    conn = ClientConnection.join(code, os.urandom)
    writer.write(conn.data_to_send())
    while True:
        events = conn.receive_data(await reader.read(65536))
        writer.write(conn.data_to_send())
        if any(isinstance(e, HandshakeComplete) for e in events):
            return reader, writer, conn


async def test_oversized_frame_closes_that_connection_only() -> None:
    table, server = await serve()
    try:
        ann = await join(server.port, table.room_code, "Ann")
        reader, writer, conn = await _raw_client(server.port, table.room_code)
        writer.write(
            conn.send(
                Hello(versions=(1,), name="Eve", age=None, kid=False, seed_commit=os.urandom(32))
            )
        )
        writer.write(b"\xff\xff" + b"\x00" * 64)
        data = b""
        while chunk := await asyncio.wait_for(reader.read(65536), 2):
            data += chunk
        assert ann.connection == "connected"
        await ann.set_ready(True)
        await until(lambda: table.slots[0].ready, "Ann is ready")
        await ann.close()
    finally:
        await server.close()


async def test_action_flood_is_refused_then_dropped_and_the_table_goes_on() -> None:
    limits = ServerLimits(rate=20, burst=40)
    table, server = await serve(limits=limits)
    try:
        ann = await join(server.port, table.room_code, "Ann")
        bob = await join(server.port, table.room_code, "Bob")
        reader, writer, conn = await _raw_client(server.port, table.room_code)
        writer.write(
            conn.send(
                Hello(versions=(1,), name="Eve", age=None, kid=False, seed_commit=os.urandom(32))
            )
        )
        await TableControls(server).start()
        await asyncio.sleep(0.05)
        for seq in range(1, 400):
            writer.write(conn.send(ActionRequest(seq=seq, sid=0, a="draw")))
        received = []
        with pytest.raises((ConnectionError, TimeoutError)):
            while True:
                chunk = await asyncio.wait_for(reader.read(65536), 2)
                if not chunk:
                    raise ConnectionResetError
                received.extend(e for e in conn.receive_data(chunk) if isinstance(e, ErrorReply))
        assert any(e.code == "rate_limited" for e in received)
        players = [ScriptedPlayer(s, i, out_of_turn=0) for i, s in enumerate((ann, bob))]
        tasks = [asyncio.create_task(p.play()) for p in players]
        table_round = table.game.round.round_no
        await until(lambda: table.sid > 10, "the table goes on")
        assert table.game.round.round_no >= table_round
        for task in tasks:
            task.cancel()
        await ann.close()
        await bob.close()
    finally:
        await server.close()


async def test_second_session_on_a_seat_replaces_the_first() -> None:
    table, server = await serve()
    try:
        ann = await join(server.port, table.room_code, "Ann")
        await join(server.port, table.room_code, "Bob")
        await TableControls(server).start()
        assert ann.ticket is not None
        twin = NetClientSession("127.0.0.1", server.port, table.room_code, "Ann", ticket=ann.ticket)
        await twin.connect()  # a RESUME with Ann's ticket
        assert twin.connection == "connected"
        await until(
            lambda: ann.connection != "connected" or table.slots[0].peer is not None,
            "the seat is held by a connection",
        )
        await twin.close()
        await ann.close()
    finally:
        await server.close()


async def test_malformed_and_out_of_turn_actions_get_errors_and_the_table_goes_on() -> None:
    table, server = await serve(reveal_wait=0.2)  # Eve never reveals a seed: deal without
    try:
        ann = await join(server.port, table.room_code, "Ann")
        seen: list[object] = []

        async def collect() -> None:
            async for message in ann.updates():
                seen.append(message)

        collector = asyncio.create_task(collect())
        reader, writer, conn = await _raw_client(server.port, table.room_code)
        writer.write(
            conn.send(
                Hello(versions=(1,), name="Eve", age=None, kid=False, seed_commit=os.urandom(32))
            )
        )
        await until(lambda: len(table.slots) == 2, "Eve is seated")
        await TableControls(server).start()
        await until(lambda: table.game is not None, "the round is dealt")
        eve_seat = 1
        state = table._state_for(eve_seat, server.now())
        # Ann acts on the current state, not on one still on its way.
        await until(
            lambda: ann.last_state is not None and ann.last_state.sid == state.sid,
            "Ann sees the current table",
        )
        if table.game.round.actor == eve_seat:  # Ann is out of turn
            await ann.act("draw")
            await until(lambda: any(isinstance(m, ErrorReply) for m in seen), "Ann is refused")
            error = next(m for m in seen if isinstance(m, ErrorReply))
        else:  # Eve is out of turn
            writer.write(conn.send(ActionRequest(seq=1, sid=state.sid, a="draw")))
            replies: list[object] = []
            while not any(isinstance(m, ErrorReply) for m in replies):
                replies.extend(conn.receive_data(await asyncio.wait_for(reader.read(65536), 2)))
            error = next(m for m in replies if isinstance(m, ErrorReply))
        assert isinstance(error, ErrorReply)
        assert error.code == "not_your_turn"
        assert error.rule == "O10"
        assert error.seq == 1
        # A notation outside the protocol: the frame authenticates, the schema refuses it.
        assert conn.tx is not None
        bad = msgpack.packb({"t": "action", "seq": 2, "sid": state.sid, "a": "play R99"})
        writer.write(conn.tx.seal(bad))
        while await asyncio.wait_for(reader.read(65536), 2):
            pass
        await until(lambda: table.slots[eve_seat].peer is None, "Eve's connection is gone")
        assert ann.connection == "connected"  # Eve is gone, her seat is held
        assert table.slots[eve_seat].kind == "human"
        collector.cancel()
        await ann.close()
    finally:
        await server.close()


async def test_ten_wrong_codes_rotate_the_room_code_and_the_new_one_is_journaled(
    tmp_path: Path,
) -> None:
    # Ten wrong codes from one address: lift the per-address cooldown and the guessing pace
    # to reach the rotation, which this server makes after 10 failures (default: 100).
    limits = ServerLimits(
        rate=5000, burst=5000, max_failures_per_ip=99, pace_free_failures=99, rotate_after=10
    )
    table, server = await serve(limits=limits)
    server.journal = JournalWriter(tmp_path / "t.journal")
    try:
        first = table.room_code
        wrong = f"{(int(first) + 1) % 1_000_000:06d}"
        for _ in range(10):
            with pytest.raises(JoinError):
                await join(server.port, wrong, "Eve")
        assert table.room_code != first
        server.pump()
        ann = await join(server.port, table.room_code, "Ann")
        assert ann.seat == 0
        await ann.close()
        codes = [
            r["code"] for r in read_journal(tmp_path / "t.journal").records if r["k"] == "code"
        ]
        assert codes == [table.room_code]
    finally:
        await server.close()


async def test_a_player_dropped_from_the_lobby_joins_again_by_itself() -> None:
    table, server = await serve()
    try:
        ann = await join(server.port, table.room_code, "Ann")
        await join(server.port, table.room_code, "Bob")
        writer = ann._writer
        assert writer is not None
        seat = ann.seat
        writer.transport.abort()  # in the lobby too, a dropped player's seat is held
        await until(
            lambda: ann.reconnects and ann.seat is not None and len(table.slots) == 2,
            "Ann is back in her held seat",
        )
        assert ann.reconnects == 1
        assert len(table.slots) == 2
        assert {s.name for s in table.slots} == {"Ann", "Bob"}
        assert ann.seat == seat
        assert ann.ticket is not None
        assert ann.ticket.generation == 1
        await ann.close()
    finally:
        await server.close()


class FillingJournal(JournalWriter):
    """A journal whose disk fills up when told."""

    full = False

    def append(self, batch):  # type: ignore[no-untyped-def]
        if self.full:
            raise OSError(28, "No space left on device")
        super().append(batch)


async def test_a_table_that_cannot_write_its_journal_pauses_and_players_keep_their_seats(
    tmp_path: Path,
) -> None:
    """Issue 11 item 4 (client side): the goodbye says "table paused"; the client keeps its
    ticket and keeps trying, so ``lanuno host --resume`` brings it back."""
    table = Table(TableConfig(), os.urandom)
    journal = FillingJournal(tmp_path / "t.journal")
    server = TableServer(table, journal=journal)
    await server.start()
    try:
        ann = await join(server.port, table.room_code, "Ann")
        ticket = ann.ticket
        assert ticket is not None
        journal.full = True
        await TableControls(server).add_bot("beginner")  # a lobby record: cannot be written
        # "reconnecting", not "closed": the table is only paused.
        await until(lambda: ann.connection == "reconnecting", "Ann keeps trying")
        assert ann.ticket == ticket
        await ann.close()
    finally:
        await server.close()
