"""What the engine tells the world, each event with its audience.

``audience`` is None for a public event (every seat, the shared screen) or a seat number
for an event only that seat may see (its own cards). The host routes events by audience;
the engine is the only place that decides who may know what.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any, ClassVar

from lanuno.engine.cards import Card, Color


class DrawCause(enum.StrEnum):
    DRAW = "draw"
    PENALTY = "penalty"
    COUNTER_UNO = "counter_uno"
    CHALLENGE = "challenge"
    TIMEOUT = "timeout"
    GIFT = "gift"


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[str] = "event"

    @property
    def audience(self) -> int | None:
        return None

    def to_dict(self) -> dict[str, Any]:
        """Plain data (cards as codes) for logs, replays and the wire."""
        out: dict[str, Any] = {"type": self.kind}
        for field in dataclasses.fields(self):
            out[field.name] = _plain(getattr(self, field.name))
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, Card):
        return value.code
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class PrivateEvent(Event):
    seat: int

    @property
    def audience(self) -> int | None:
        return self.seat


# Public events -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    round_no: int
    dealer: int
    hand_size: int
    kind: ClassVar[str] = "round_started"


@dataclass(frozen=True, slots=True)
class CardTurned(Event):
    card: Card
    kind: ClassVar[str] = "card_turned"


@dataclass(frozen=True, slots=True)
class CardReturned(Event):
    """O9 / K2-2: a first card that may not start the pile went back into the deck."""

    card: Card
    kind: ClassVar[str] = "card_returned"


@dataclass(frozen=True, slots=True)
class Played(Event):
    seat: int
    card: Card
    jump_in: bool = False
    kind: ClassVar[str] = "played"


@dataclass(frozen=True, slots=True)
class ColorChosen(Event):
    seat: int
    color: Color
    kind: ClassVar[str] = "color_chosen"


@dataclass(frozen=True, slots=True)
class Drew(Event):
    seat: int
    count: int
    cause: DrawCause
    kind: ClassVar[str] = "drew"


@dataclass(frozen=True, slots=True)
class Passed(Event):
    seat: int
    kind: ClassVar[str] = "passed"


@dataclass(frozen=True, slots=True)
class Skipped(Event):
    seat: int
    kind: ClassVar[str] = "skipped"


@dataclass(frozen=True, slots=True)
class DirectionChanged(Event):
    direction: int
    kind: ClassVar[str] = "direction_changed"


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    count: int
    gathered: bool = False
    """The draw pile was shuffled in too (K1-5 [reading]: a stalled table), not just
    the discard pile into an empty draw pile (O15)."""
    kind: ClassVar[str] = "reshuffled"


@dataclass(frozen=True, slots=True)
class PenaltyPending(Event):
    seat: int
    amount: int
    kind: ClassVar[str] = "penalty_pending"


@dataclass(frozen=True, slots=True)
class UnoDeclared(Event):
    seat: int
    kind: ClassVar[str] = "uno_declared"


@dataclass(frozen=True, slots=True)
class UnoExposed(Event):
    """A seat is down to one card without having said UNO: it can be caught (O24)."""

    seat: int
    kind: ClassVar[str] = "uno_exposed"


@dataclass(frozen=True, slots=True)
class CounterUnoCalled(Event):
    caller: int
    target: int
    caught: bool
    kind: ClassVar[str] = "counter_uno"


@dataclass(frozen=True, slots=True)
class Challenged(Event):
    challenger: int
    target: int
    bluff: bool
    kind: ClassVar[str] = "challenged"


@dataclass(frozen=True, slots=True)
class Gave(Event):
    seat: int
    recipients: tuple[int, ...]
    kind: ClassVar[str] = "gave"


@dataclass(frozen=True, slots=True)
class HandsSwapped(Event):
    seat: int
    target: int
    kind: ClassVar[str] = "hands_swapped"


@dataclass(frozen=True, slots=True)
class HandsRotated(Event):
    direction: int
    kind: ClassVar[str] = "hands_rotated"


@dataclass(frozen=True, slots=True)
class PileDealtOut(Event):
    """K2-7: the blank's player dealt the discard pile out; ``counts`` per seat."""

    seat: int
    counts: tuple[int, ...]
    returned: int
    kind: ClassVar[str] = "pile_dealt_out"


@dataclass(frozen=True, slots=True)
class CardsReturned(Event):
    seat: int
    count: int
    kind: ClassVar[str] = "cards_returned"


@dataclass(frozen=True, slots=True)
class TimedOut(Event):
    seat: int
    in_a_row: int
    kind: ClassVar[str] = "timed_out"


@dataclass(frozen=True, slots=True)
class AutopilotChanged(Event):
    """T3: a bot plays this seat (on) until its player acts again (off)."""

    seat: int
    on: bool
    kind: ClassVar[str] = "autopilot"


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    winner: int
    points: int
    scores: tuple[int, ...]
    kind: ClassVar[str] = "round_ended"


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    winner: int
    scores: tuple[int, ...]
    kind: ClassVar[str] = "game_ended"


# Private events ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandDealt(PrivateEvent):
    cards: tuple[Card, ...]
    kind: ClassVar[str] = "hand_dealt"


@dataclass(frozen=True, slots=True)
class CardsDrawn(PrivateEvent):
    cards: tuple[Card, ...]
    kind: ClassVar[str] = "cards_drawn"


@dataclass(frozen=True, slots=True)
class CardsReceived(PrivateEvent):
    """Cards that arrive from another seat: a gift, a dealt-out pile, a swapped hand."""

    cards: tuple[Card, ...]
    source: int
    kind: ClassVar[str] = "cards_received"


@dataclass(frozen=True, slots=True)
class HandRevealed(PrivateEvent):
    """O21: the challenged hand, as it was when the Wild Draw Four was played, shown to
    the challenger (``seat``) alone."""

    owner: int
    cards: tuple[Card, ...]
    kind: ClassVar[str] = "hand_revealed"
