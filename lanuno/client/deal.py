"""The client's half of the fair deal (protocol/fairness.md), without any I/O.

``DealBook`` remembers, per (game, round), the host's seed commitment, the seed this
client revealed, and what this seat saw dealt; when the host reveals its seed it returns a
verdict. Rounds are numbered from 1 again in every game, so everything is keyed by a local
game number too: a client that missed game 2's commitment (it was away during the deal)
must not check game 2's reveal against game 1's commitment of the same round number.

The wire carries no game number, so the book counts games itself: a ``game_end`` starts
the next game, and so does a round number that goes down or a second, different commitment
for a round already committed (the client missed the game end while it was away).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from lanuno.client.notices import FairnessAlarm, Notice, SeedUnused
from lanuno.wire.fairness import FairnessError, check_my_deal, verify_round
from lanuno.wire.messages import Event, GameEnd, HostSeedReveal, SeedCommit, State

RoundKey = tuple[int, int]
"""(local game number, round number)."""

_V = TypeVar("_V")

KEEP_ROUNDS = 4
"""Rounds remembered: a reveal comes right after its round, so a few are plenty."""


@dataclass(slots=True)
class DealSeen:
    """What this client saw of one round's deal (fairness.md, "Checking the deal")."""

    dealer: int
    hand_size: int
    hand: tuple[str, ...] | None = None
    turned: str | None = None
    returned: bool = False


@dataclass(frozen=True, slots=True)
class DealContext:
    """What the verdict needs from the session around it."""

    room_id: bytes
    seat: int | None
    seats: int | None
    """Seats at the table (``len(state.counts)``), None before any state."""
    canonical_deck: Sequence[str]


class DealBook:
    """Commitments, reveals and deals by (game, round), and the verdict per round."""

    def __init__(self) -> None:
        self.game = 0
        self._round = 0
        """The highest round number seen in the current game."""
        self._commits: dict[RoundKey, bytes] = {}
        self._my_seeds: dict[RoundKey, bytes] = {}
        self._deals: dict[RoundKey, DealSeen] = {}
        self.verdicts: dict[RoundKey, bool] = {}
        """(game, round) -> whether its deck checked out."""

    # ------------------------------------------------------------------ games

    def _next_game(self) -> None:
        self.game += 1
        self._round = 0

    def _see_round(self, round_no: int) -> None:
        if round_no < self._round:  # rounds count from 1 again: a game ended unseen
            self._next_game()
        self._round = max(self._round, round_no)

    def on_state(self, state: State) -> None:
        if state.round:
            self._see_round(state.round)

    def on_game_end(self, _: GameEnd) -> None:
        self._next_game()

    # ------------------------------------------------------------------ the deal

    def on_commit(self, commit: SeedCommit) -> None:
        known = self._commits.get((self.game, commit.round))
        if known is not None and known != commit.commit:
            # Another commitment for a round already committed: a new game we did not see
            # end (the same commitment again is only a resend after a resume).
            self._next_game()
        self._see_round(commit.round)
        self._commits[(self.game, commit.round)] = commit.commit
        self._trim()

    def on_my_reveal(self, round_no: int, seed: bytes) -> None:
        self._my_seeds[(self.game, round_no)] = seed

    def on_event(self, event: Event, my_seat: int | None) -> None:
        """Remember what this seat saw dealt, to check it against the revealed deck."""
        fields = event.fields
        if event.type == "round_started":
            round_no, dealer, size = (fields.get(k) for k in ("round_no", "dealer", "hand_size"))
            if type(round_no) is int and type(dealer) is int and type(size) is int:
                self._see_round(round_no)
                self._deals[(self.game, round_no)] = DealSeen(dealer, size)
                self._trim()
            return
        deal = self._deals.get((self.game, self._round))
        if deal is None:
            return
        cards = fields.get("cards")
        if event.type == "hand_dealt" and fields.get("seat") == my_seat:
            if isinstance(cards, tuple) and all(type(c) is str for c in cards):
                deal.hand = tuple(str(c) for c in cards)
        elif event.type == "card_returned":
            deal.returned = True
        elif event.type == "card_turned" and deal.turned is None and not deal.returned:
            card = fields.get("card")
            deal.turned = card if type(card) is str else None

    def on_reveal(self, reveal: HostSeedReveal, context: DealContext) -> Notice | None:
        """The verdict on a revealed round: None when it checks out quietly, a notice when
        it does not (or when the host dealt without this client's seed). A round whose
        commitment this client never saw (it joined or came back mid-round) is not judged."""
        key = (self.game, reveal.round)
        commit = self._commits.pop(key, None)
        if commit is None:
            return None
        try:
            result = verify_round(
                reveal,
                room_id=context.room_id,
                host_commit=commit,
                my_seat=context.seat,
                my_seed=self._my_seeds.get(key),
                canonical_deck=context.canonical_deck,
            )
            deal = self._deals.get(key)
            if deal is not None and context.seats is not None:
                check_my_deal(
                    reveal.deck,
                    seats=context.seats,
                    dealer=deal.dealer,
                    hand_size=deal.hand_size,
                    seat=context.seat,
                    my_hand=deal.hand,
                    turned=deal.turned,
                )
        except (FairnessError, ValueError) as error:
            self.verdicts[key] = False
            return FairnessAlarm(reveal.round, str(error))
        self.verdicts[key] = True
        return SeedUnused(reveal.round) if result.my_seed_unused else None

    def _trim(self) -> None:
        _keep_latest(self._commits, KEEP_ROUNDS)
        _keep_latest(self._my_seeds, KEEP_ROUNDS)
        _keep_latest(self._deals, KEEP_ROUNDS)


def _keep_latest(book: dict[RoundKey, _V], n: int) -> None:
    for key in sorted(book)[:-n]:
        del book[key]
