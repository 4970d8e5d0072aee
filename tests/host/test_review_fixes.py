"""Regression tests for the host/net review findings (one section per finding)."""

from __future__ import annotations

from table_harness import Harness

from lanuno.host.table import Table, TableConfig, TablePhase
from lanuno.wire.crypto import counter_drbg

# ---------------------------------------------------------------------- 1: lobby removals


def test_restore_after_a_lobby_leave_keeps_every_resume_secret_with_its_player() -> None:
    table = Table(TableConfig(), counter_drbg(b"t"))
    h = Harness(table)
    a, b, c = h.join("A"), h.join("B"), h.join("C")
    h.drop(b)  # B leaves the lobby: C moves down to seat 1
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
        replayed._apply_record(record)
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
    assert restored.phase is TablePhase.PLAYING
    (round_record,) = [r for r in restored.take_records() if r["k"] == "round"]
    assert round_record["now"] == 500.0
    deadline = restored.next_deadline()
    assert deadline is not None and deadline >= 500.0
