"""Card counting from what a seat may know (B2): its hand, the discard pile, the public log.

:func:`read_table` replays the public events of the round once per decision and returns a
:class:`TableKnowledge`: the cards this seat has not seen (the deck minus its hand minus the
discard pile) and, for each opponent, what it showed it lacked when it drew on its turn
(a seat draws when nothing fits, so its hand held no card of that color, that rank, nor a
wild). That evidence stays true until the seat receives cards it did not choose.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from lanuno.engine.cards import ALL_FACES, Card, Color, Rank, build_deck
from lanuno.engine.events import (
    CardTurned,
    ColorChosen,
    DrawCause,
    Drew,
    Gave,
    HandRevealed,
    HandsRotated,
    HandsSwapped,
    PileDealtOut,
    Played,
    UnoDeclared,
)
from lanuno.engine.observation import Observation
from lanuno.engine.rules import Rules

FACES = len(ALL_FACES)


@dataclass(frozen=True, slots=True)
class Lack:
    """What a seat's hand is known not to hold: any card of these colors or ranks, or a wild."""

    colors: frozenset[Color] = frozenset()
    ranks: frozenset[Rank] = frozenset()
    wilds: bool = False

    def excludes(self, card: Card) -> bool:
        if card.color is None:
            return self.wilds
        return card.color in self.colors or card.rank in self.ranks

    def merge(self, color: Color | None, rank: Rank) -> Lack:
        colors = self.colors | {color} if color is not None else self.colors
        return Lack(colors, self.ranks | {rank}, True)


NO_LACK = Lack()


@dataclass(frozen=True, slots=True)
class WildDrawFourPlay:
    """The last Wild Draw Four of the log: who played it and the color it replaced."""

    seat: int
    prior_color: Color | None
    hand_after: int
    """Cards its player held right after playing it (for the bluff odds)."""


@dataclass(frozen=True, slots=True)
class TableKnowledge:
    unseen: tuple[int, ...]
    """How many copies of each face (by ``Card.index``) this seat has not seen."""
    lacks: tuple[Lack, ...]
    """Per seat, what its hand is known not to hold."""
    last_wild_draw_four: WildDrawFourPlay | None
    known_honest: frozenset[int]
    """Seats whose Wild Draw Four was challenged and found legal this round."""
    known_bluffers: frozenset[int]

    def unseen_cards(self) -> list[Card]:
        return [ALL_FACES[i] for i, k in enumerate(self.unseen) for _ in range(k)]

    def unseen_of(self, color: Color) -> int:
        return sum(k for i, k in enumerate(self.unseen) if ALL_FACES[i].color is color)


def deck_counts(rules: Rules) -> list[int]:
    counts = [0] * FACES
    for card in build_deck(rules.deck):
        counts[card.index] += 1
    return counts


def unseen_counts(rules: Rules, hand: Iterable[Card], discard: Iterable[Card]) -> list[int]:
    counts = deck_counts(rules)
    for card in hand:
        counts[card.index] -= 1
    for card in discard:
        counts[card.index] -= 1
    return counts


def read_table(view: Observation) -> TableKnowledge:
    table = view.table
    n = table.seats
    lacks = [NO_LACK] * n
    color: Color | None = None
    top_rank = Rank.ZERO
    last_wd4: WildDrawFourPlay | None = None
    honest: set[int] = set()
    bluffers: set[int] = set()
    before_draw = [NO_LACK] * n
    drew_last: int | None = None
    for event in table.log:
        kind = type(event)
        if drew_last is not None and kind is not Played and kind is not UnoDeclared:
            drew_last = None
        if kind is Played:
            assert isinstance(event, Played)
            if event.seat == drew_last:
                lacks[drew_last] = before_draw[drew_last]  # back to the hand before the draw
            drew_last = None
            card = event.card
            if card.rank is Rank.WILD_DRAW_FOUR:
                last_wd4 = WildDrawFourPlay(event.seat, color, -1)
            top_rank = card.rank
            if card.color is not None:
                color = card.color
        elif kind is ColorChosen:
            assert isinstance(event, ColorChosen)
            color = event.color
        elif kind is CardTurned:
            assert isinstance(event, CardTurned)
            color, top_rank = event.card.color, event.card.rank
        elif kind is Drew:
            assert isinstance(event, Drew)
            if event.cause is DrawCause.DRAW:
                # The hand before the draw fitted nothing. The drawn card does not fit now
                # either, unless it is played at once, but it may break older evidence.
                before_draw[event.seat] = lacks[event.seat].merge(color, top_rank)
                lacks[event.seat] = NO_LACK.merge(color, top_rank)
                drew_last = event.seat
                continue
            if event.count:
                lacks[event.seat] = NO_LACK
        elif kind is Gave:
            assert isinstance(event, Gave)
            for r in event.recipients:
                lacks[r] = NO_LACK
        elif kind is HandsSwapped:
            assert isinstance(event, HandsSwapped)
            a, b = event.seat, event.target
            lacks[a], lacks[b] = lacks[b], lacks[a]
        elif kind is HandsRotated:
            assert isinstance(event, HandsRotated)
            rotated = [NO_LACK] * n
            for seat in range(n):
                rotated[(seat + event.direction) % n] = lacks[seat]
            lacks = rotated
        elif kind is PileDealtOut:
            assert isinstance(event, PileDealtOut)
            for seat, got in enumerate(event.counts):
                if got:
                    lacks[seat] = NO_LACK
    for event in view.private_log:
        if type(event) is HandRevealed:
            assert isinstance(event, HandRevealed)
            if last_wd4 is not None and event.owner == last_wd4.seat:
                held = any(c.color is last_wd4.prior_color for c in event.cards)
                (bluffers if held else honest).add(event.owner)
    if last_wd4 is not None:
        last_wd4 = WildDrawFourPlay(
            last_wd4.seat, last_wd4.prior_color, table.counts[last_wd4.seat]
        )
    unseen = unseen_counts(table.rules, view.hand, table.discard)
    return TableKnowledge(
        tuple(unseen), tuple(lacks), last_wd4, frozenset(honest), frozenset(bluffers)
    )
