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
