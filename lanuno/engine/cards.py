"""Cards, their short text notation, and the deck compositions.

Notation (round-trips through :func:`parse_card`):

>>> [str(c) for c in parse_cards("R7 G+2 BS YR W W+4 X")]
['R7', 'G+2', 'BS', 'YR', 'W', 'W+4', 'X']

Every distinct card exists exactly once in memory (``Card`` interns itself),
so equality is identity: fast in the engine's hot loops and never surprising.
A wild's chosen color lives on the round state, never on the card.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar


class Color(enum.StrEnum):
    RED = "R"
    YELLOW = "Y"
    GREEN = "G"
    BLUE = "B"

    @property
    def word(self) -> str:
        return self.name.lower()


COLORS: tuple[Color, ...] = (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE)


class Rank(enum.StrEnum):
    ZERO = "0"
    ONE = "1"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    SKIP = "S"
    REVERSE = "R"
    DRAW_TWO = "+2"
    WILD = "W"
    WILD_DRAW_FOUR = "W+4"
    BLANK = "X"


NUMBER_RANKS: tuple[Rank, ...] = tuple(Rank(str(n)) for n in range(10))
ACTION_RANKS: tuple[Rank, ...] = (Rank.SKIP, Rank.REVERSE, Rank.DRAW_TWO)
WILD_RANKS: tuple[Rank, ...] = (Rank.WILD, Rank.WILD_DRAW_FOUR, Rank.BLANK)

_RANK_WORDS = {
    Rank.SKIP: "Skip",
    Rank.REVERSE: "Reverse",
    Rank.DRAW_TWO: "Draw Two",
    Rank.WILD: "Wild",
    Rank.WILD_DRAW_FOUR: "Wild Draw Four",
    Rank.BLANK: "Blank",
}


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card face. ``color`` is None for wilds and blanks."""

    color: Color | None
    rank: Rank
    index: int
    """Position in the canonical ordering of distinct faces (sorting, compact codes)."""
    is_number: bool
    """0-9 (a plain attribute: the engine asks on every play)."""

    _interned: ClassVar[dict[tuple[Color | None, Rank], Card]] = {}

    def __new__(
        cls, color: Color | None, rank: Rank, _index: int = -1, _is_number: bool = False
    ) -> Card:
        try:
            return cls._interned[(color, rank)]
        except KeyError:
            raise ValueError(f"no such card: {color}{rank}") from None

    def __init__(
        self, color: Color | None, rank: Rank, index: int = -1, is_number: bool = False
    ) -> None:
        # The instance is the interned one, already initialised: nothing to set.
        pass

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return parse_card, (str(self),)

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    @property
    def code(self) -> str:
        return _CODES[self.index]

    @property
    def is_wild(self) -> bool:
        """Wild, Wild Draw Four and blank: playable on anything, no color of their own."""
        return self.color is None

    @property
    def points(self) -> int:
        """O28 value of a card left in a hand."""
        return _POINTS[self.index]

    @property
    def words(self) -> str:
        """A plain-English name: 'red 7', 'blue Skip', 'Wild Draw Four'."""
        if self.color is None:
            return _RANK_WORDS[self.rank]
        return f"{self.color.word} {_RANK_WORDS.get(self.rank, self.rank.value)}"

    @staticmethod
    def parse(text: str) -> Card:
        return parse_card(text)


def _build_universe() -> tuple[Card, ...]:
    faces: list[tuple[Color | None, Rank]] = []
    for suit in COLORS:
        faces.extend((suit, rank) for rank in (*NUMBER_RANKS, *ACTION_RANKS))
    faces.extend((None, rank) for rank in WILD_RANKS)
    cards = []
    for index, (color, rank) in enumerate(faces):
        card = object.__new__(Card)
        object.__setattr__(card, "color", color)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "index", index)
        object.__setattr__(card, "is_number", rank in NUMBER_RANKS)
        Card._interned[(color, rank)] = card
        cards.append(card)
    return tuple(cards)


def _points(_color: Color | None, rank: Rank) -> int:
    if rank in NUMBER_RANKS:
        return int(rank.value)
    if rank in ACTION_RANKS:
        return 20
    return 50


ALL_FACES: tuple[Card, ...] = _build_universe()
_CODES: tuple[str, ...] = tuple(
    (c.color.value if c.color else "") + c.rank.value for c in ALL_FACES
)
_POINTS: tuple[int, ...] = tuple(_points(c.color, c.rank) for c in ALL_FACES)
_BY_CODE: dict[str, Card] = dict(zip(_CODES, ALL_FACES, strict=True))

WILD = Card(None, Rank.WILD)
WILD_DRAW_FOUR = Card(None, Rank.WILD_DRAW_FOUR)
BLANK = Card(None, Rank.BLANK)


def parse_card(text: str) -> Card:
    """Read a card from its notation (case-insensitive, surrounding space ignored)."""
    card = _BY_CODE.get(text.strip().upper())
    if card is None:
        raise ValueError(f"not a card: {text!r} (examples: R7, G+2, BS, YR, W, W+4, X)")
    return card


def parse_cards(text: str) -> list[Card]:
    return [parse_card(word) for word in text.split()]


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(card.code for card in cards)


def sort_key(card: Card) -> int:
    return card.index


class DeckKind(enum.StrEnum):
    STANDARD = "standard"
    """O2: 108 cards."""
    NUMBERS = "numbers"
    """K1-1: the 76 number cards."""
    WITH_BLANKS = "with_blanks"
    """K2-1: the 108 of O2 plus 4 blank cards."""


def build_deck(kind: DeckKind) -> list[Card]:
    """The deck in canonical (unshuffled) order; the fairness spec shuffles from this order."""
    return list(_DECKS[kind])


def _compose_deck(kind: DeckKind) -> tuple[Card, ...]:
    deck: list[Card] = []
    for color in COLORS:
        deck.append(Card(color, Rank.ZERO))
        for rank in NUMBER_RANKS[1:]:
            deck += [Card(color, rank)] * 2
        if kind is not DeckKind.NUMBERS:
            for rank in ACTION_RANKS:
                deck += [Card(color, rank)] * 2
    if kind is not DeckKind.NUMBERS:
        deck += [WILD] * 4 + [WILD_DRAW_FOUR] * 4
    if kind is DeckKind.WITH_BLANKS:
        deck += [BLANK] * 4
    return tuple(deck)


_DECKS = {kind: _compose_deck(kind) for kind in DeckKind}
"""Each deck composed once: every round starts from a copy."""


DECK_SIZES = {DeckKind.STANDARD: 108, DeckKind.NUMBERS: 76, DeckKind.WITH_BLANKS: 112}
