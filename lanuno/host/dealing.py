"""Dealing a round fairly: the host's seed commitment and the players' reveals.

The part of the table controller (:class:`lanuno.host.table.Table`) that runs each round's
seed commit-reveal (protocol/fairness.md). ``_begin_round`` draws a fresh host seed and
journals it (``DealRecord``) before its commitment leaves, so a restart resumes this very
commit-reveal; the seats' reveals are checked against their commitments
(``SeatSeedBook``); once every connected human seat has revealed, or ``reveal_wait``
seconds have passed, ``_deal`` journals the round (``RoundRecord``) and the table deals it
with the combined seed. Seats that did not reveal contribute nothing.
"""

from __future__ import annotations

import abc

from lanuno.host.model import Peer, Slot, TableConfig, TablePhase, clip
from lanuno.host.records import DealRecord, JournalRecord, RoundRecord, SeedEntry
from lanuno.wire.crypto import RandomBytes
from lanuno.wire.fairness import FairnessError, SeatSeedBook, host_seed_commitment
from lanuno.wire.messages import ClientSeedReveal, ErrorReply, Message, SeedCommit


class Dealing(abc.ABC):
    """A round's commit-reveal (a part of ``Table``, which provides the hooks below)."""

    config: TableConfig
    room_id: bytes
    phase: TablePhase
    slots: list[Slot]
    last_now: float
    _random_bytes: RandomBytes
    _replaying: bool
    _next_round_at: float | None
    _round_no: int
    _host_seed: bytes
    _book: SeatSeedBook
    _reveal_deadline: float | None
    _awaiting_reveal: set[int]
    _committed: set[int]
    """Seats whose seed commitment the deal's book holds (a restored deal of an old
    journal holds none: a seat coming back commits with its hello)."""

    def _host_commit(self) -> bytes:
        return host_seed_commitment(self.room_id, self._round_no, self._host_seed)

    def _begin_round(self, round_no: int, now: float) -> None:
        """Open the round's commit-reveal: a fresh host seed, journaled (``DealRecord``)
        before its commitment leaves, so a restart can resume this very commit-reveal."""
        commits = tuple(
            (seat, slot.seed_commit)
            for seat, slot in enumerate(self.slots)
            if slot.kind == "human" and slot.seed_commit is not None
        )
        self._commit(
            DealRecord(
                round_no=round_no, host_seed=self._random_bytes(32), commits=commits, now=now
            )
        )

    def _apply_deal(self, record: DealRecord) -> None:
        self._round_no, self._host_seed = record.round_no, record.host_seed
        self.last_now = max(self.last_now, record.now)
        self._book = SeatSeedBook()
        self._committed = set()
        for seat, commit in record.commits:
            self._book.commit(seat, commit)
            self._committed.add(seat)
        self._enter(TablePhase.DEALING)
        self._next_round_at = None
        if self._replaying:
            return  # restore() opens the window again for the players coming back
        expected = {s for s, slot in enumerate(self.slots) if slot.peer is not None}
        self._open_reveals(expected & self._human_seats(), record.now)

    def _human_seats(self) -> set[int]:
        return {seat for seat, slot in enumerate(self.slots) if slot.kind == "human"}

    def _open_reveals(self, expected: set[int], now: float) -> None:
        """Wait for ``expected`` seats' reveals, at most ``reveal_wait`` seconds from ``now``;
        deal at once if none is expected."""
        self._awaiting_reveal = set(expected)
        self._reveal_deadline = now + self.config.reveal_wait
        commit = SeedCommit(round=self._round_no, commit=self._host_commit())
        for recipient in self._recipients():
            self._out(recipient, commit)
        if not self._awaiting_reveal:
            self._deal(now)

    def _reveal_lost(self, seat: int, now: float) -> None:
        """A seat dropped: no reveal will come from it (deal once nobody else is awaited)."""
        if self.phase is TablePhase.DEALING and seat in self._awaiting_reveal:
            self._awaiting_reveal.discard(seat)
            if not self._awaiting_reveal:
                self._deal(now)

    def _on_seed_reveal(self, peer: Peer, reveal: ClientSeedReveal, now: float) -> None:
        seat = peer.seat
        if seat is None:
            return
        if self.phase is not TablePhase.DEALING or reveal.round != self._round_no:
            self._out(
                peer.id,
                ErrorReply(
                    code="not_now", rule=None, text="No deal is waiting for seeds.", seq=None
                ),
            )
            return
        try:
            self._book.accept(seat, reveal)
        except FairnessError as error:
            # The client has moved on to the seed it committed to here: keep that
            # commitment, or every later reveal of this seat would be refused too.
            self.slots[seat].seed_commit = reveal.next_commit
            self._out(
                peer.id, ErrorReply(code="bad_seed", rule=None, text=clip(str(error)), seq=None)
            )
            return
        self.slots[seat].seed_commit = reveal.next_commit
        self._awaiting_reveal.discard(seat)
        if not self._awaiting_reveal:
            self._deal(now)

    def _deal(self, now: float) -> None:
        seeds = self._book.seeds(self._round_no)
        commits = self._book.commitments(self._round_no)
        self._commit(
            RoundRecord(
                round_no=self._round_no,
                host_seed=self._host_seed,
                now=now,
                seeds=tuple(
                    SeedEntry(seat=s, seed=seeds[s], commit=commits[s]) for s in sorted(seeds)
                ),
            )
        )

    # ------------------------------------------------------------------ the table's hooks

    @abc.abstractmethod
    def _commit(self, record: JournalRecord) -> None: ...

    @abc.abstractmethod
    def _enter(self, phase: TablePhase) -> None: ...

    @abc.abstractmethod
    def _out(self, recipient: int, message: Message, owner: int | None = None) -> None: ...

    @abc.abstractmethod
    def _recipients(self) -> list[int]: ...
