"""What opponents' own choices say about their hands (B2: read from the public log only).

Most players, and the intermediate bot exactly, follow a few habits
(``tactics.habit_value``): among the cards that fit they play the color they hold most
(on a kids' table, the card their other cards match least), keeping wilds for when nothing
else fits, but dump points and attack while someone is near UNO; and they name for a wild
the color they hold most. So each choice is soft evidence about the hand it was made from:
the hand then is the hand now plus the cards played since, as long as the seat received no
unseen card in between (a draw, a penalty, a gift, a swap ends the evidence).
:func:`read_choices` lists that evidence; :func:`likelihood` says how well a sampled hand
agrees with it, and the expert's world sampler keeps worlds in proportion
(:mod:`lanuno.bots.search`). A choice that breaks a habit only makes a world less likely,
never impossible, so a player with other habits misleads the reading only a little.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lanuno.bots import fastcore as fc
from lanuno.bots import tactics
from lanuno.engine.cards import COLORS
from lanuno.engine.events import (
    CardsReturned,
    CardTurned,
    ColorChosen,
    DirectionChanged,
    DrawCause,
    Drew,
    Gave,
    HandsRotated,
    HandsSwapped,
    Passed,
    PileDealtOut,
    Played,
    RoundStarted,
)
from lanuno.engine.observation import Observation

BROKEN_HABIT = 0.1
"""Relative likelihood of a hand under which a choice broke one of the habits."""
READ_DANGER = True
"""Also read the plays made while someone was near UNO (points dumped, attacks), against
the same habit (``tactics.habit_value``)."""

SLACK = 2
"""A choice is read until its seat has drawn more than this many unseen cards since."""

NAMED, PLAYED, WILD_PLAYED = 0, 1, 2

_COLOR_OF = fc.COLOR_OF
_RANK_OF = fc.RANK_OF


@dataclass(frozen=True, slots=True)
class Choice:
    seat: int
    kind: int
    """NAMED (a color named for a wild), PLAYED (a colored card chosen on a turn) or
    WILD_PLAYED (a wild chosen on a turn)."""
    card: int
    """The card played (-1 for NAMED)."""
    color: int
    """The color named (NAMED), or the current color before the play."""
    top_rank: int
    """The rank on the discard pile before the play (fast-core numbering)."""
    since: tuple[int, ...]
    """Cards the seat played after the choice (and the card itself for a play): the hand
    then is the hand now plus these, minus the ``unseen`` cards it drew since."""
    unseen: int = 0
    """Cards the seat drew (unseen) after the choice: any of those in the hand now may be
    one of them, so the habit may be broken by that many cards."""
    danger: bool = False
    """Someone other than the seat was near UNO (``tactics.NEAR_UNO``) at the play."""
    next_short: bool = False
    """The next player was near UNO at the play."""
    kids: bool = False
    """Made on a kids' table, where a card played is read against the kids' habit
    (``tactics.ties_of``; a color named is read as anywhere)."""


@dataclass(slots=True)
class _Open:
    seat: int
    kind: int
    card: int
    color: int
    top_rank: int
    since: list[int]
    unseen: int = 0
    danger: bool = False
    next_short: bool = False
    kids: bool = False


def read_choices(view: Observation) -> tuple[Choice, ...]:
    """Each opponent's choices still readable now (made from a hand that has since only
    lost cards it played in public)."""
    table = view.table
    n = table.seats
    counts = [0] * n
    color = -1
    top_rank = -1
    open_: list[list[_Open]] = [[] for _ in range(n)]
    after_draw = [False] * n
    direction = 1
    kids = tactics.kids_habit(table.rules)
    for event in table.log:
        kind = type(event)
        if kind is Played:
            assert isinstance(event, Played)
            seat, card = event.seat, event.card.index
            for choice in open_[seat]:
                choice.since.append(card)
            chosen = not after_draw[seat] and not event.jump_in
            others = min((counts[s] for s in range(n) if s != seat), default=99)
            danger = others <= tactics.NEAR_UNO
            if chosen and (READ_DANGER or not danger):
                suit = _COLOR_OF[card]
                what = PLAYED if suit >= 0 else WILD_PLAYED
                next_short = counts[(seat + direction) % n] <= tactics.NEAR_UNO
                open_[seat].append(
                    _Open(seat, what, card, color, top_rank, [card], 0, danger, next_short, kids)
                )
            after_draw[seat] = False
            counts[seat] -= 1
            top_rank = _RANK_OF[card]
            if _COLOR_OF[card] >= 0:
                color = _COLOR_OF[card]
        elif kind is ColorChosen:
            assert isinstance(event, ColorChosen)
            color = COLORS.index(event.color)
            seat = event.seat
            open_[seat].append(_Open(seat, NAMED, -1, color, top_rank, [], kids=kids))
        elif kind is CardTurned:
            assert isinstance(event, CardTurned)
            card = event.card.index
            color, top_rank = _COLOR_OF[card], _RANK_OF[card]
        elif kind is Drew:
            assert isinstance(event, Drew)
            counts[event.seat] += event.count
            # The drawn cards are unseen: the older choices stay readable, up to them.
            open_[event.seat] = [c for c in open_[event.seat] if c.unseen + event.count <= SLACK]
            for choice in open_[event.seat]:
                choice.unseen += event.count
            after_draw[event.seat] = event.cause is DrawCause.DRAW
        elif kind is DirectionChanged:
            assert isinstance(event, DirectionChanged)
            direction = event.direction
        elif kind is Passed:
            assert isinstance(event, Passed)
            after_draw[event.seat] = False
        elif kind is RoundStarted:
            assert isinstance(event, RoundStarted)
            counts = [event.hand_size] * n
        elif kind is CardsReturned:
            assert isinstance(event, CardsReturned)
            counts[event.seat] -= event.count
            open_[event.seat] = []
        elif kind is Gave or kind is HandsSwapped or kind is HandsRotated or kind is PileDealtOut:
            # Rare (kids' and house rules): stop reading, the counts are not followed.
            return ()
    me = view.seat
    return tuple(
        Choice(
            c.seat,
            c.kind,
            c.card,
            c.color,
            c.top_rank,
            tuple(c.since),
            c.unseen,
            c.danger,
            c.next_short,
            c.kids,
        )
        for seat in range(n)
        if seat != me
        for c in open_[seat]
    )


def _removals(hand: Sequence[int], suit: int, limit: float, fitting: int | None) -> int:
    """Fewest cards of ``suit`` to take out of ``hand`` (the heaviest first) for its weight
    to fall to ``limit``, or, when ``fitting`` is given, for none of its ``fitting`` cards
    to be left, whichever is fewer."""
    cards = sorted(tactics.weight_of(c) for c in hand if _COLOR_OF[c] == suit)
    weight = sum(cards)
    taken = 0
    while weight > limit:
        weight -= cards.pop()
        taken += 1
    return taken if fitting is None else min(taken, fitting)


def consistent(
    choice: Choice, hand_now: Sequence[int], weights_now: Sequence[float] | None = None
) -> bool:
    """Whether the choice follows the habits, for a seat holding ``hand_now`` (of
    ``tactics.color_weights_of`` ``weights_now``, when known), taking as drawn since (so
    absent then) the ``choice.unseen`` cards that help it most."""
    hand = list(hand_now)
    hand.extend(choice.since)
    if weights_now is None:
        weights = tactics.color_weights_of(hand)
    else:
        weights = tactics.color_weights_of(choice.since)
        for suit in range(4):
            weights[suit] += weights_now[suit]
    slack = choice.unseen
    if choice.kind == NAMED:
        mine = weights[choice.color]
        needed = 0
        for suit in range(4):
            if weights[suit] > mine:
                needed += _removals(hand, suit, mine, None)
        return needed <= slack
    color, top = choice.color, choice.top_rank
    if choice.danger or (choice.kids and choice.kind == PLAYED):
        return _dumped(choice, hand, weights) <= slack
    fitting = [0, 0, 0, 0]
    for c in hand:
        suit = _COLOR_OF[c]
        if suit >= 0 and (suit == color or _RANK_OF[c] == top):
            fitting[suit] += 1
    if choice.kind == WILD_PLAYED:
        return sum(fitting) <= slack  # a wild is kept while a colored card fits
    mine = weights[_COLOR_OF[choice.card]]
    needed = 0
    for suit in range(4):
        if fitting[suit] and weights[suit] > mine:
            needed += _removals(hand, suit, mine, fitting[suit])
    return needed <= slack


def _dumped(choice: Choice, hand: Sequence[int], weights: Sequence[float]) -> int:
    """For a play made while someone was near UNO, or on a kids' table: how many cards that
    fitted would the habit (``tactics.habit_value``) have played before the chosen one
    (each must have been drawn since for the choice to follow it)."""
    danger, short = choice.danger, choice.next_short
    kids = choice.kids

    def value(face: int) -> float:
        ties = tactics.ties_among(face, hand) if kids else None
        return tactics.habit_value(face, weights, danger, short, ties)

    chosen = value(choice.card)
    color, top = choice.color, choice.top_rank
    better = 0
    skipped_self = False
    bluff = any(_COLOR_OF[c] == color for c in hand)  # a Wild Draw Four is then no option
    for c in hand:
        if c == choice.card and not skipped_self:
            skipped_self = True
            continue
        suit = _COLOR_OF[c]
        if suit >= 0 and suit != color and _RANK_OF[c] != top:
            continue  # does not fit
        if bluff and _RANK_OF[c] == fc.WILD_DRAW_FOUR:
            continue
        if value(c) > chosen:
            better += 1
    return better


def likelihood(
    choices: Sequence[Choice], hands: Sequence[Sequence[int]], floor: float = 0.0
) -> float:
    """Relative likelihood of the sampled hands given the choices (1 when all agree), or,
    once it is known to be at most ``floor``, some value at most ``floor`` (a sampler that
    rejects below ``floor`` need not check the other choices)."""
    value = 1.0
    weights: dict[int, list[float]] = {}
    for choice in choices:
        seat = choice.seat
        now = weights.get(seat)
        if now is None:
            now = weights[seat] = tactics.color_weights_of(hands[seat])
        if not consistent(choice, hands[seat], now):
            value *= BROKEN_HABIT
            if value <= floor:
                break
    return value
