"""A game (partie): rounds until the target is reached, with the dealer moving on (O4).

A game is reproducible from ``(rules, seats, seed, actions)``: the shuffler is derived from
the seed and every random choice goes through it (see :mod:`lanuno.engine.replay`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lanuno.engine.actions import Action, Timeout
from lanuno.engine.errors import IllegalAction
from lanuno.engine.events import Event
from lanuno.engine.round import Round
from lanuno.engine.rules import MAX_SEATS, MIN_SEATS, FirstPlayer, Rules
from lanuno.engine.shuffle import SeededShuffler, Shuffler
from lanuno.engine.views import SeatView, TableView


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """What the rules need to know about a seat (names live in the host)."""

    kid: bool = False
    age: int | None = None


class Game:
    def __init__(
        self,
        rules: Rules,
        seats: Sequence[SeatInfo] | int,
        seed: int | str = 0,
        *,
        shuffler: Shuffler | None = None,
        first_player: int | None = None,
        now: float = 0.0,
    ) -> None:
        """``first_player`` is the host's pick for who starts when the rules say the youngest
        starts but nobody gave an age (K1-2 decision); otherwise it is ignored."""
        infos = tuple(SeatInfo() for _ in range(seats)) if isinstance(seats, int) else tuple(seats)
        if not MIN_SEATS <= len(infos) <= MAX_SEATS:
            raise ValueError(f"a table has {MIN_SEATS} to {MAX_SEATS} seats (O1)")
        self.rules = rules
        self.seats = infos
        self.seed = seed
        self.shuffler: Shuffler = shuffler or SeededShuffler(seed)
        self.scores = [0] * len(infos)
        self.first_player_pick = first_player
        self.actions: list[Action | None] = []
        """Accepted actions in order, None where the next round was dealt (replay log)."""
        self.auto_moves: list[int] = []
        """Indices in :attr:`actions` of the moves the autopilot bot made (T3)."""
        self.past_events: list[Event] = []
        """Events of the rounds before the current one (see :attr:`events`)."""
        n = len(infos)
        first = self._first_player(first_player)
        self.dealer = (first - 1) % n
        self.round = self._new_round(1, first, now)

    def _first_player(self, host_pick: int | None) -> int:
        n = len(self.seats)
        if self.rules.first_player is FirstPlayer.YOUNGEST:
            aged = [(info.age, s) for s, info in enumerate(self.seats) if info.age is not None]
            if aged:
                return min(aged)[1]
            if host_pick is not None:
                if not 0 <= host_pick < n:
                    raise ValueError(f"no seat {host_pick}")
                return host_pick
        # O4: a random first dealer; the player on their left starts.
        return (self.shuffler.below(n, "first dealer") + 1) % n

    def _new_round(self, round_no: int, first: int, now: float) -> Round:
        return Round(
            self.rules,
            [info.kid for info in self.seats],
            self.shuffler,
            round_no=round_no,
            dealer=self.dealer,
            scores=self.scores,
            first=first,
            now=now,
        )

    @property
    def events(self) -> list[Event]:
        """Every event of the game so far, round after round."""
        return self.past_events + self.round.events

    @property
    def over(self) -> bool:
        return self.round.game_over

    @property
    def winner(self) -> int | None:
        return self.round.winner if self.over else None

    def apply(self, action: Action, now: float = 0.0, *, auto: bool = False) -> list[Event]:
        rnd = self.round
        if rnd.game_over:
            raise IllegalAction("O29", "The game is over.")
        events = rnd.apply(action, now, auto=auto)
        if auto:
            self.auto_moves.append(len(self.actions))
        self.actions.append(action)
        return events

    def next_round(self, now: float = 0.0) -> list[Event]:
        """Deal the next round (O4: the dealer moves one seat clockwise)."""
        if self.over:
            raise IllegalAction("O29", "The game is over.")
        if self.round.winner is None:
            raise IllegalAction("O27", "The round is still being played.")
        n = len(self.seats)
        self.dealer = (self.dealer + 1) % n
        self.past_events.extend(self.round.events)
        self.actions.append(None)
        self.round = self._new_round(self.round.round_no + 1, (self.dealer + 1) % n, now)
        return list(self.round.events)

    # Timers (T2): the clock lives outside; the game only compares times it is given.

    def next_deadline(self) -> float | None:
        return None if self.over else self.round.deadline

    def handle_timeout(self, now: float) -> list[Event]:
        """Decide for the actor if its move timer has run out at ``now``; else do nothing."""
        deadline = self.next_deadline()
        if deadline is None or now < deadline:
            return []
        return self.apply(Timeout(self.round.actor), now)

    def legal_actions(self, seat: int) -> list[Action]:
        return self.round.legal_actions(seat)

    def seat_view(self, seat: int) -> SeatView:
        return self.round.seat_view(seat)

    def table_view(self) -> TableView:
        return self.round.table_view()
