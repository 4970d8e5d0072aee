"""A host restarted in the lobby keeps who had said ready: a player whose seat comes back
is still ready, and a player who does not come back does not hold up the start."""

from __future__ import annotations

from table_harness import Harness

from lanuno.host.journal import pack_record, recover
from lanuno.host.records import LobbyRecord, decode, encode
from lanuno.host.table import Table, TableConfig, TablePhase
from lanuno.wire.crypto import counter_drbg
from lanuno.wire.messages import Lobby, Ready


def restored(h: Harness, config: TableConfig) -> Harness:
    """The table rebuilt from ``h``'s journal (a host killed and run with --resume)."""
    table = Table.restore(h.records, config, counter_drbg(b"r"), now=h.now)
    again = Harness(table)
    again.now = h.now
    return again


def readiness(lobby: Lobby) -> list[bool]:
    return [seat.ready for seat in lobby.seats if seat.kind == "human"]


def test_a_player_who_said_ready_is_still_ready_after_the_host_restarts() -> None:
    """Seen in tmux: Lea pressed R, the host was killed (kill -9) in the lobby and run again
    with --resume; Lea's screen came back with 'Press R when you are ready.', her ready lost."""
    config = TableConfig()
    h = Harness(Table(config, counter_drbg(b"t")))
    lea, max_ = h.join("Lea"), h.join("Max")
    h.send(lea, Ready(ready=True))
    h.send(max_, Ready(ready=True))
    h.send(max_, Ready(ready=False))  # changed his mind: the last word counts
    again = restored(h, config)
    assert [s.ready for s in again.table.slots] == [True, False]
    assert readiness(again.screen[-1]) == [True, False]  # type: ignore[arg-type]
    back = again.resume(lea)
    assert readiness(back.of_type(Lobby)[-1]) == [True, False]  # type: ignore[arg-type]


def test_a_ready_player_who_does_not_come_back_does_not_hold_up_the_start() -> None:
    config = TableConfig(auto_start=True, ready_wait=20.0)
    h = Harness(Table(config, counter_drbg(b"t")))
    lea, max_ = h.join("Lea"), h.join("Max")
    h.send(lea, Ready(ready=True))
    again = restored(h, config)
    back = again.resume(max_)  # Lea's laptop is gone for good
    assert again.table.phase is TablePhase.LOBBY
    again.send(back, Ready(ready=True))
    assert again.table.phase is not TablePhase.LOBBY  # Lea was ready: the game is on


def test_a_player_back_who_never_says_ready_is_seated_out_after_the_ready_wait() -> None:
    """The ready wait of an auto-start table was not journaled: after a restart a player
    back in the lobby who never pressed R would hold the ready player's table for ever."""
    config = TableConfig(auto_start=True, ready_wait=20.0, drop_grace=30.0)
    h = Harness(Table(config, counter_drbg(b"t")))
    lea, max_ = h.join("Lea"), h.join("Max")
    h.table.add_bot("beginner")
    h.send(lea, Ready(ready=True))
    again = restored(h, config)
    again.resume(lea)
    again.resume(max_)  # back, and idle
    again.advance(20.0)
    assert [s.name for s in again.table.slots] == ["Lea", "Bot 1 (beginner)"]
    assert again.table.phase is not TablePhase.LOBBY


def test_a_journal_without_ready_flags_restores_every_player_not_ready() -> None:
    """A journal written before the flags were journaled (its seats have no 'ready')."""
    config = TableConfig()
    h = Harness(Table(config, counter_drbg(b"t")))
    lea, _max = h.join("Lea"), h.join("Max")
    h.send(lea, Ready(ready=True))
    old = []
    for stored in h.records:
        if stored["k"] == "lobby":
            seats = stored["seats"]
            assert isinstance(seats, list)
            stored = {**stored, "seats": [{k: v for k, v in s.items() if k != "ready"}
                                          for s in seats]}  # fmt: skip
        old.append(stored)
    again = Table.restore(old, config, counter_drbg(b"r"), now=h.now)
    assert [s.name for s in again.slots] == ["Lea", "Max"]
    assert [s.ready for s in again.slots] == [False, False]


def test_a_journal_torn_in_its_last_ready_record_restores_the_flags_before_it() -> None:
    config = TableConfig()
    h = Harness(Table(config, counter_drbg(b"t")))
    lea, max_ = h.join("Lea"), h.join("Max")
    h.send(lea, Ready(ready=True))
    h.send(max_, Ready(ready=True))
    numbered = [{**stored, "n": n} for n, stored in enumerate(h.records)]
    blob = b"".join(pack_record(r) for r in numbered)
    recovery = recover([], -1, blob[:-7], "journal")  # the host died writing Max's ready
    assert recovery.torn_tail
    again = Table.restore(recovery.records, config, counter_drbg(b"r"), now=h.now)
    assert [s.ready for s in again.slots] == [True, False]


def test_a_ready_flag_is_journaled_once_per_change_and_a_bots_is_always_set() -> None:
    h = Harness(Table(TableConfig(), counter_drbg(b"t")))
    lea = h.join("Lea")
    h.table.add_bot("beginner")
    h.pump()
    before = len(h.records)
    h.send(lea, Ready(ready=True))
    lobbies = len(lea.of_type(Lobby))
    h.send(lea, Ready(ready=True))  # said again: nothing changed, nothing written...
    assert len(lea.of_type(Lobby)) == lobbies + 1  # ...and the lobby is the host's answer
    written = h.records[before:]
    assert len(written) == 1
    record = decode(written[0])
    assert isinstance(record, LobbyRecord)
    assert [seat.ready for seat in record.seats] == [True, True]
    assert encode(record) == written[0]
