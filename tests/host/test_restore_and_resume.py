"""A table rebuilt from its journal (``Table.restore``) and a player resuming a seat: the
secrets, the clock and the seats come back as they were, and a resume only ever gets the
seat it was made for."""

from __future__ import annotations

import pytest
from table_harness import FakeClient, Harness

from lanuno.engine.rules import preset, with_options
from lanuno.host.records import SecretRecord
from lanuno.host.table import Close, Send, Table, TableConfig, TablePhase
from lanuno.wire.connection import HandshakeComplete
from lanuno.wire.crypto import Mode, counter_drbg
from lanuno.wire.errors import CloseCode
from lanuno.wire.messages import ActionRequest, ErrorReply, Hello, Lobby, State, Welcome

# ---------------------------------------------------------------------- 1: lobby removals


def test_restore_after_a_lobby_leave_keeps_every_resume_secret_with_its_player() -> None:
    table = Table(TableConfig(), counter_drbg(b"t"))
    h = Harness(table)
    a, b, c = h.join("A"), h.join("B"), h.join("C")
    h.drop(b)  # B leaves the lobby; nobody resumes the seat within the grace...
    h.advance(TableConfig().drop_grace)  # ...so it is freed: C moves down to seat 1
    assert c.seat == 1
    table.start(h.now)
    h.pump()
    assert table.phase is TablePhase.PLAYING
    restored = Table.restore(h.records, TableConfig(), counter_drbg(b"r"), now=h.now)
    assert [s.name for s in restored.slots] == ["A", "C"]
    for player in (a, c):
        assert player.seat is not None
        assert restored.resume_lookup(player.seat, player.generation) == player.secret
    assert restored.resume_lookup(1, 0) != b.secret


def test_restore_after_a_host_removal_in_the_lobby_keeps_the_secrets_too() -> None:
    table = Table(TableConfig(), counter_drbg(b"t"))
    h = Harness(table)
    a, b = h.join("A"), h.join("B")
    table.add_bot("beginner")
    c = h.join("C")
    table.remove_seat(0)  # the host removes A: B, the bot and C move down
    h.pump()
    assert (b.seat, c.seat) == (0, 2)
    replayed = Table.restore(h.records, TableConfig(), counter_drbg(b"x"), now=h.now)
    assert [s.name for s in replayed.slots] == [s.name for s in table.slots]
    assert [s.secrets for s in replayed.slots] == [s.secrets for s in table.slots]
    assert a.closed is not None


def test_a_table_nobody_sat_at_comes_back_with_its_own_rules_not_the_command_lines() -> None:
    """Its only record is the opening one: a kids1 table opened from the hall's form (or
    ``--preset kids1``) is still kids1 after ``--resume``, whatever the resuming command
    line says."""
    kids = with_options(preset("kids1"), ["target=200"])
    table = Table(TableConfig(name="Kids", rules=kids), counter_drbg(b"t"))
    records = table.take_records()
    assert len(records) == 1
    restored = Table.restore(records, TableConfig(), counter_drbg(b"r"), now=0.0)
    assert restored.rules == kids
    assert restored.config.rules == kids
    lobby = Harness(restored).join("A").of_type(Lobby)
    assert lobby
    assert isinstance(lobby[-1], Lobby)
    assert lobby[-1].preset == "kids1"
    assert lobby[-1].options["target"] == 200


def test_a_host_restarted_in_the_lobby_keeps_its_name_and_holds_the_seats() -> None:
    table = Table(TableConfig(name="Salon"), counter_drbg(b"t"))
    h = Harness(table)
    a, b = h.join("A"), h.join("B")
    table.add_bot("beginner")
    c = h.join("C")
    h.pump()
    # The host dies in the lobby. A and C come back within the grace, B does not.
    restored = Table.restore(h.records, TableConfig(), counter_drbg(b"r"), now=h.now)
    assert restored.config.name == "Salon"  # the journal's, not the restart's default
    assert [s.name for s in restored.slots] == ["A", "B", "Bot 1 (beginner)", "C"]
    h2 = Harness(restored)
    h2.now = h.now
    back_a, back_c = h2.resume(a), h2.resume(c)
    assert back_a.closed is None
    assert back_c.closed is None
    assert (back_a.seat, back_c.seat) == (0, 3)
    # B may have to start ``lanuno join`` again by hand: held past a drop's grace...
    h2.advance(TableConfig().drop_grace + 1.0)
    assert [s.name for s in restored.slots] == ["A", "B", "Bot 1 (beginner)", "C"]
    # ...until the restore's grace ends.
    h2.advance(TableConfig().restore_grace)
    assert [s.name for s in restored.slots] == ["A", "Bot 1 (beginner)", "C"]
    assert (back_a.seat, back_c.seat) == (0, 2)
    assert restored.resume_lookup(2, back_c.generation) == back_c.secret
    assert b.seat is not None
    assert restored.resume_lookup(b.seat, b.generation) != b.secret


def test_a_player_back_minutes_after_a_resume_gets_the_lobby_seat_then_a_drop_grace_again() -> None:
    """After a saved table's ``--resume`` a player runs ``lanuno join`` again when they see
    the host is back: minutes may pass. The seat waits; once back, a later drop is an
    ordinary one."""
    config = TableConfig(drop_grace=30.0)
    table = Table(config, counter_drbg(b"t"))
    h = Harness(table)
    a, b = h.join("A"), h.join("B")
    h.pump()
    restored = Table.restore(h.records, config, counter_drbg(b"r"), now=h.now)
    h2 = Harness(restored)
    h2.now = h.now
    back_a = h2.resume(a)
    h2.advance(240.0)
    back_b = h2.resume(b)
    assert back_b.closed is None
    assert (back_a.seat, back_b.seat) == (0, 1)
    h2.drop(back_b)
    h2.advance(config.drop_grace + 1.0)
    assert [s.name for s in restored.slots] == ["A"]


# ---------------------------------------------------------------------- 2: restore's clock


def _play_one_action(h: Harness, players: list) -> None:
    for player in players:
        state = player.state
        if state is not None and state.actor == player.seat and state.legal:
            h.act(player, state.legal[0])
            return
    raise AssertionError("nobody could act")


def test_restore_at_clock_zero_keeps_the_grace_period_of_held_seats() -> None:
    config = TableConfig(drop_grace=30.0)
    table = Table(config, counter_drbg(b"t"))
    h = Harness(table)
    players = [h.join("A"), h.join("B")]
    h.now = 1000.0
    table.start(h.now)
    h.pump()
    _play_one_action(h, players)
    # `lanuno host --resume` restores with now=0.0; the journal's clock is at 1000.
    restored = Table.restore(h.records, config, counter_drbg(b"r"), now=0.0)
    assert restored.last_now == 1000.0
    assert all(slot.dropped_at == 1000.0 for slot in restored.slots)
    h2 = Harness(restored)
    h2.now = restored.last_now  # the server's clock resumes at last_now
    h2.advance(40.0)  # a restored game waits for its players (test_restore_waits.py)
    assert not any(slot.taken_over for slot in restored.slots)
    h2.resume(players[0])  # at 1040: B's grace runs from A's return
    h2.advance(29.9)
    assert not restored.slots[1].taken_over
    h2.advance(0.1)
    assert restored.slots[1].taken_over


def test_restore_during_the_deal_deals_at_the_journal_clock_not_at_zero() -> None:
    from lanuno.engine.rules import preset, with_options

    config = TableConfig(rules=with_options(preset("official"), ["move_timer=20"]))
    table = Table(config, counter_drbg(b"t"))
    h = Harness(table, auto_reveal=False)
    h.join("A"), h.join("B")
    h.now = 500.0
    table.start(h.now)
    h.pump()
    assert table.phase is TablePhase.DEALING
    restored = Table.restore(h.records, config, counter_drbg(b"r"), now=0.0)
    # The commit-reveal resumes (issue 11 item 1): the deal waits for the players' reveals
    # until reveal_wait after the journal's clock, not after 0.
    assert restored.phase is TablePhase.DEALING
    assert restored.next_deadline() == 500.0 + config.reveal_wait
    restored.tick(500.0 + config.reveal_wait)
    assert restored.phase is TablePhase.PLAYING
    (round_record,) = [r for r in restored.take_records() if r["k"] == "round"]
    assert round_record["now"] == 500.0 + config.reveal_wait
    assert restored.game is not None  # its move timer counts from then (not yet running:
    deadline = restored.game.next_deadline()  # the table waits for its players)
    assert deadline is not None
    assert deadline >= 500.0


# ---------------------------------------------------------------------- 3: resume is per slot


def _resume_done(table: Table, seat: int, generation: int) -> HandshakeComplete:
    return HandshakeComplete(Mode.RESUME, seat, generation, b"n" * 32, 111111, table.room_id)


def test_a_resume_whose_seat_moved_during_the_handshake_is_rejected_not_given_another_seat() -> (
    None
):
    table = Table(TableConfig(), counter_drbg(b"t"))
    h = Harness(table)
    _, b, c = h.join("A"), h.join("B"), h.join("C")
    peer = 99
    assert table.resume_lookup(1, 0, peer) == b.secret  # B's resume handshake begins
    h.drop(b)  # B's old connection leaves the lobby; its seat is held for the grace,
    h.advance(TableConfig().drop_grace)  # then freed: C moves down to seat 1
    assert c.seat == 1
    c_secrets = dict(table.slots[1].secrets)
    table.on_handshake(peer, _resume_done(table, 1, 1), h.now)
    out = table.take_outbox()
    assert any(isinstance(o, Close) and o.code is CloseCode.RESUME_REJECTED for o in out)
    assert not [r for r in table.take_records() if r["k"] == "secret"]
    assert table.slots[1].secrets == c_secrets
    assert peer not in table.peers


def test_a_resume_whose_seat_moved_before_its_hello_gets_that_slot_where_it_is_now() -> None:
    """The slot the secret was checked against is given back wherever it moved; never the
    slot now at the number the RESUME named (another player's)."""
    table = Table(TableConfig(), counter_drbg(b"t"))
    h = Harness(table)
    _, b, c = h.join("A"), h.join("B"), h.join("C")
    peer = 99
    assert table.resume_lookup(1, 0, peer) == b.secret
    b_slot = table.slots[1]
    table.on_handshake(peer, _resume_done(table, 1, 1), h.now)  # B resumes seat 1...
    h.pump()
    table.remove_seat(0)  # ...the host removes A: B moves to 0, C to seat 1
    h.pump()
    assert c.seat == 1
    table.on_message(
        peer,
        Hello(versions=(1,), name="B", age=None, kid=False, seed_commit=b.seeds.next_commit),
        h.now,
    )
    out = table.take_outbox()
    assert not any(isinstance(o, Close) and o.peer == peer for o in out)
    sent = [o.message for o in out if isinstance(o, Send) and o.peer == peer]
    assert [m.seat for m in sent if isinstance(m, Welcome)] == [0]
    assert table.slots[0] is b_slot
    assert b_slot.peer == peer
    assert table.slots[1].peer == c.peer


def _leave(h: Harness, client: FakeClient) -> None:
    """A goodbye, then the close: in the lobby the seat is freed at once."""
    h.table.on_leaving(client.peer)
    h.drop(client)


def test_an_away_seat_the_lobby_moved_down_is_resumed_by_the_number_its_ticket_names() -> None:
    table = Table(TableConfig(), counter_drbg(b"t"))
    h = Harness(table)
    a, b, c = h.join("A"), h.join("B"), h.join("C")
    h.drop(c)  # C's link drops: seat 2 is held, and nobody can tell C that it moves
    _leave(h, a)  # A leaves: B moves to 0, C to 1
    assert [s.name for s in table.slots] == ["B", "C"]
    assert c.seat == 2  # what C's ticket still says
    back = h.resume(c)  # checks that the lookup gives C's own secret
    assert back.seat == 1
    assert table.slots[1].peer == back.peer
    assert table.slots[0].peer == b.peer
    secrets = [r for r in h.records if r["k"] == "secret"]
    assert secrets[-1]["seat"] == 1  # journaled where the seat is now


def test_an_away_seat_moved_onto_a_connected_players_number_gets_its_own_secret() -> None:
    table = Table(TableConfig(), counter_drbg(b"t"))
    h = Harness(table)
    a, x, y = h.join("A"), h.join("X"), h.join("Y")
    h.drop(x)
    _leave(h, a)  # X moves to 0 (away), Y to 1 (told): X's ticket names Y's number
    assert (x.seat, y.seat) == (1, 1)
    assert x.generation == y.generation
    back = h.resume(x)
    assert back.seat == 0
    assert table.slots[1].peer == y.peer  # Y keeps its seat and its connection


def test_two_away_seats_that_moved_down_each_get_their_own_back() -> None:
    table = Table(TableConfig(), counter_drbg(b"t"))
    h = Harness(table)
    a, x, y = h.join("A"), h.join("X"), h.join("Y")
    h.drop(x)
    h.drop(y)
    _leave(h, a)  # X to 0, Y to 1, both away: X's ticket names the seat Y sits in now
    back_x, back_y = h.resume(x), h.resume(y)
    assert (back_x.seat, back_y.seat) == (0, 1)
    assert [s.peer for s in table.slots] == [back_x.peer, back_y.peer]


def test_after_a_restore_each_resume_gets_the_seat_at_the_number_it_names() -> None:
    """Replayed, every seat is away and every move is remembered: the seat at the number
    comes first, so the players who were told their new seat get it."""
    config = TableConfig()
    h = Harness(Table(config, counter_drbg(b"t")))
    a, b, c = h.join("A"), h.join("B"), h.join("C")
    _leave(h, a)  # B to 0, C to 1: both told
    restored = Table.restore(h.records, config, counter_drbg(b"r"), now=0.0)
    assert restored.resume_lookup(1, c.generation) == c.secret
    assert restored.resume_lookup(0, b.generation) == b.secret


def test_a_resume_without_a_looked_up_slot_is_rejected() -> None:
    table = Table(TableConfig(), counter_drbg(b"t"))
    h = Harness(table)
    h.join("A"), h.join("B")
    table.on_handshake(99, _resume_done(table, 1, 1), h.now)
    assert any(isinstance(o, Close) and o.peer == 99 for o in table.take_outbox())
    assert not [r for r in table.take_records() if r["k"] == "secret"]


def test_an_action_from_a_connection_that_does_not_hold_its_seat_is_refused() -> None:
    table = Table(TableConfig(), counter_drbg(b"t"))
    h = Harness(table)
    a, b = h.join("A"), h.join("B")
    table.start(h.now)
    h.pump()
    game = table.game
    assert game is not None
    actor = a if a.seat == game.round.actor else b
    other = b if actor is a else a
    table.peers[other.peer].seat = actor.seat  # a stale connection pointing at that seat
    state = actor.state
    assert isinstance(state, State)
    sid = table.sid
    h.send(other, ActionRequest(seq=1, sid=state.sid, a=state.legal[0]))
    reply = other.inbox[-1]
    assert isinstance(reply, ErrorReply)
    assert reply.code == "not_now"
    assert table.sid == sid


def test_a_record_that_cannot_be_applied_is_never_journaled() -> None:
    table = Table(TableConfig(), counter_drbg(b"t"))
    table.take_records()
    with pytest.raises(IndexError):
        table._commit(SecretRecord(seat=7, generation=1, secret=b"s" * 32))
    assert table.take_records() == []


# ---------------------------------------------------------------------- 6: room code epoch


def test_journaling_a_rotated_room_code_does_not_bump_the_epoch_a_second_time() -> None:
    table = Table(TableConfig(), counter_drbg(b"t"), room_code="123456")
    opening = table.take_records()
    guard = table.guard
    for _ in range(guard.max_failures):  # the lockout rotates the code
        guard.record_failure(guard.epoch)
    assert guard.code != "123456"
    epoch = guard.epoch  # a join that starts now, with the new code, runs in this epoch
    table.note_room_code()
    assert guard.is_current(epoch)
    records = [*opening, *table.take_records()]
    assert records[-1]["k"] == "code"
    assert records[-1]["code"] == guard.code
    restored = Table.restore(records, TableConfig(), counter_drbg(b"r"), now=0.0)
    assert restored.room_code == guard.code
