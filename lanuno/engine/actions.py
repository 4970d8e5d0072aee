"""What a seat can ask the engine to do, with a one-line notation that round-trips.

Notation: ``<seat> <verb> [argument ...]``, e.g. ``2 play W+4``, ``2 color B``,
``0 catch 2``, ``1 give 0 3``. Replay files and journals store actions this way.

>>> str(parse_action("2 play W+4"))
'2 play W+4'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from lanuno.engine.cards import Card, Color, parse_card


@dataclass(frozen=True, slots=True)
class Action:
    seat: int
    verb: ClassVar[str] = ""

    def args(self) -> tuple[str, ...]:
        return ()

    def __str__(self) -> str:
        return " ".join((str(self.seat), self.verb, *self.args()))


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play a card from the hand (O10-O12), a drawn card (O13), a stack (T1) or a jump-in (T6).

    A wild may carry its color (O11: ``2 play W+4 B``); without one, the round asks for it
    in the CHOOSE_COLOR phase. A colored card never carries a color."""

    card: Card
    color: Color | None = None
    verb: ClassVar[str] = "play"

    def args(self) -> tuple[str, ...]:
        if self.color is None:
            return (self.card.code,)
        return (self.card.code, self.color.value)


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Draw from the pile instead of playing (O13, O14, T7, KA2)."""

    verb: ClassVar[str] = "draw"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Keep a playable drawn card and end the turn (O13, O14)."""

    verb: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class ChooseColor(Action):
    """Name the color after a wild, a blank, or a wild turned over first (O5, O11, O30)."""

    color: Color
    verb: ClassVar[str] = "color"

    def args(self) -> tuple[str, ...]:
        return (self.color.value,)


@dataclass(frozen=True, slots=True)
class Challenge(Action):
    """Challenge the Wild Draw Four aimed at you (O21)."""

    verb: ClassVar[str] = "challenge"


@dataclass(frozen=True, slots=True)
class AcceptPenalty(Action):
    """Draw the pending Draw Two / Wild Draw Four penalty without stacking or challenging."""

    verb: ClassVar[str] = "accept"


@dataclass(frozen=True, slots=True)
class DeclareUno(Action):
    """Say UNO with two cards before playing, or with one card while exposed (O23, O24)."""

    verb: ClassVar[str] = "uno"


@dataclass(frozen=True, slots=True)
class CounterUno(Action):
    """Catch a player who is exposed with one card (O24)."""

    target: int
    verb: ClassVar[str] = "catch"

    def args(self) -> tuple[str, ...]:
        return (str(self.target),)


@dataclass(frozen=True, slots=True)
class Give(Action):
    """K2-4: hand the drawn cards out: the first to ``recipients[0]``, the second to [1].
    (One recipient when the piles held only one card, O16.)"""

    recipients: tuple[int, ...]
    verb: ClassVar[str] = "give"

    def args(self) -> tuple[str, ...]:
        return tuple(str(r) for r in self.recipients)


@dataclass(frozen=True, slots=True)
class ChooseTarget(Action):
    """KA4: the kid names who receives their Draw Two or Wild Draw Four."""

    target: int
    verb: ClassVar[str] = "target"

    def args(self) -> tuple[str, ...]:
        return (str(self.target),)


@dataclass(frozen=True, slots=True)
class SwapHands(Action):
    """T5: after a 7, swap hands with another seat."""

    target: int
    verb: ClassVar[str] = "swap"

    def args(self) -> tuple[str, ...]:
        return (str(self.target),)


@dataclass(frozen=True, slots=True)
class ReturnCard(Action):
    """K1-5 / K2-9: put one excess card face down under the draw pile."""

    card: Card
    verb: ClassVar[str] = "return"

    def args(self) -> tuple[str, ...]:
        return (self.card.code,)


@dataclass(frozen=True, slots=True)
class Timeout(Action):
    """T2: the move timer ran out for this seat; the engine decides for it."""

    verb: ClassVar[str] = "timeout"


ACTION_TYPES: tuple[type[Action], ...] = (
    Play,
    Draw,
    Pass,
    ChooseColor,
    Challenge,
    AcceptPenalty,
    DeclareUno,
    CounterUno,
    Give,
    ChooseTarget,
    SwapHands,
    ReturnCard,
    Timeout,
)
_BY_VERB: dict[str, type[Action]] = {cls.verb: cls for cls in ACTION_TYPES}


def parse_action(text: str) -> Action:
    """Read an action from its notation; raises ValueError with a readable reason."""
    words = text.split()
    if len(words) < 2:
        raise ValueError(f"not an action: {text!r}")
    try:
        seat = int(words[0])
    except ValueError:
        raise ValueError(f"an action starts with a seat number: {text!r}") from None
    verb, args = words[1].lower(), words[2:]
    cls = _BY_VERB.get(verb)
    if cls is None:
        raise ValueError(f"unknown action {verb!r}: use one of {', '.join(_BY_VERB)}")
    try:
        return _build(cls, seat, args)
    except (ValueError, IndexError):
        raise ValueError(f"bad arguments for {verb!r}: {text!r}") from None


def _build(cls: type[Action], seat: int, args: list[str]) -> Action:
    if cls is Play and len(args) == 2:
        return Play(seat, parse_card(args[0]), Color(args[1].upper()))
    expected = {
        Play: 1,
        ChooseColor: 1,
        CounterUno: 1,
        ChooseTarget: 1,
        SwapHands: 1,
        ReturnCard: 1,
    }.get(cls, 0)
    if cls is Give:
        if not 1 <= len(args) <= 2:
            raise ValueError("give names one or two recipients")
        return Give(seat, tuple(int(arg) for arg in args))
    if len(args) != expected:
        raise ValueError("wrong number of arguments")
    if cls is Play:
        return Play(seat, parse_card(args[0]))
    if cls is ReturnCard:
        return ReturnCard(seat, parse_card(args[0]))
    if cls is ChooseColor:
        return ChooseColor(seat, Color(args[0].upper()))
    if cls is CounterUno:
        return CounterUno(seat, int(args[0]))
    if cls is ChooseTarget:
        return ChooseTarget(seat, int(args[0]))
    if cls is SwapHands:
        return SwapHands(seat, int(args[0]))
    return cls(seat)
