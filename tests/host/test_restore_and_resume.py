"""Regression tests for the host/net review findings (one section per finding)."""

from __future__ import annotations

import os
import random
import stat
from pathlib import Path

import pytest
from table_harness import Harness

from lanuno.bots.base import Bot
from lanuno.engine.actions import Action, parse_action
from lanuno.engine.views import SeatView
from lanuno.host.pace import FixedPace
from lanuno.host.records import SecretRecord, decode
from lanuno.host.table import Close, Send, Table, TableConfig, TablePhase
from lanuno.net import journal_files as journal_module
from lanuno.net.journal_files import JournalWriter, read_journal
from lanuno.wire.connection import HandshakeComplete
from lanuno.wire.crypto import Mode, counter_drbg
from lanuno.wire.errors import CloseCode
from lanuno.wire.messages import ActionRequest, ErrorReply, Hello, State, Welcome

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
    # A restore in the lobby frees people's seats, so replay the records themselves.
    replayed = Table(TableConfig(), counter_drbg(b"x"))
    replayed._replaying = True
    for record in h.records[1:]:
        replayed._apply_record(decode(record))
    assert [s.name for s in replayed.slots] == [s.name for s in table.slots]
    assert [s.secrets for s in replayed.slots] == [s.secrets for s in table.slots]
    assert a.closed is not None


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
    restored.tick(restored.last_now + 0.1)  # the server's clock resumes at last_now
    assert not any(slot.taken_over for slot in restored.slots)
    restored.tick(restored.last_now + 29.0)
    assert not any(slot.taken_over for slot in restored.slots)
    restored.tick(1030.0)
    assert all(slot.taken_over for slot in restored.slots)


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
    deadline = restored.next_deadline()
    assert deadline is not None and deadline >= 500.0


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


def test_a_resume_whose_seat_moved_before_its_hello_is_rejected_in_reclaim() -> None:
    table = Table(TableConfig(), counter_drbg(b"t"))
    h = Harness(table)
    _, b, c = h.join("A"), h.join("B"), h.join("C")
    peer = 99
    assert table.resume_lookup(1, 0, peer) == b.secret
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
    assert any(isinstance(o, Close) and o.code is CloseCode.RESUME_REJECTED for o in out)
    assert not any(isinstance(o, Send) and isinstance(o.message, Welcome) for o in out)
    assert table.slots[1].peer == c.peer
    assert peer not in table.peers


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
    assert isinstance(reply, ErrorReply) and reply.code == "not_now"
    assert table.sid == sid


def test_a_record_that_cannot_be_applied_is_never_journaled() -> None:
    table = Table(TableConfig(), counter_drbg(b"t"))
    table.take_records()
    with pytest.raises(IndexError):
        table._commit(SecretRecord(seat=7, generation=1, secret=b"s" * 32))
    assert table.take_records() == []


# ---------------------------------------------------------------------- 4: a bot's bad move


class WrongBot:
    """Always asks for a move the engine refuses (a card nobody has, out of turn too)."""

    level = "beginner"

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        return parse_action(f"{view.seat} play X")


def test_a_bot_move_the_engine_refuses_is_replaced_and_the_game_goes_on() -> None:
    lines: list[str] = []

    def factory(level: str) -> Bot:
        return WrongBot()

    config = TableConfig(pace=FixedPace(0.1))
    table = Table(config, counter_drbg(b"t"), bot_factory=factory)
    table.log = lines.append
    h = Harness(table)
    table.add_bot("beginner")
    table.add_bot("beginner")
    table.start(h.now)
    h.pump()
    sid = table.sid
    h.advance(1.0)  # the old table raised IllegalAction out of tick here
    assert table.sid >= sid + 5
    assert any("refused" in line for line in lines)


# ---------------------------------------------------------------------- 5: journal writes


def test_a_short_os_write_is_continued_until_the_whole_batch_is_on_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_write = os.write

    def short_write(fd: int, data: bytes) -> int:
        return real_write(fd, bytes(data[:5]))  # the kernel may write less than asked

    path = tmp_path / "t.journal"
    writer = JournalWriter(path)
    batch = [{"k": "act", "a": f"0 draw {i}", "blob": b"x" * 40} for i in range(6)]
    monkeypatch.setattr(journal_module.os, "write", short_write)
    writer.append(batch)
    monkeypatch.undo()
    writer.close()
    got = read_journal(path)
    assert not got.damaged
    assert [r["a"] for r in got.records] == [r["a"] for r in batch]


def test_a_snapshot_never_follows_a_link_planted_at_a_guessable_temp_name(
    tmp_path: Path,
) -> None:
    target = tmp_path / "t.journal.snap"
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    planted = target.with_name(f".{target.name}.{os.getpid()}.tmp")  # the old fixed name
    planted.symlink_to(victim)
    journal_module.write_atomically(target, b"snapshot data")
    assert victim.read_bytes() == b"precious"
    assert target.read_bytes() == b"snapshot data" and not target.is_symlink()
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp") and p != planted]


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
    assert records[-1]["k"] == "code" and records[-1]["code"] == guard.code
    restored = Table.restore(records, TableConfig(), counter_drbg(b"r"), now=0.0)
    assert restored.room_code == guard.code
