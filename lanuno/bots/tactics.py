"""Small judgements shared by the intermediate and expert bots, all read from a seat's view."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from lanuno.engine.actions import (
    Action,
    Give,
    Play,
    ReturnCard,
)
from lanuno.engine.cards import ALL_FACES, COLORS, Card, Color, DeckKind, Rank
from lanuno.engine.observation import Observation
from lanuno.engine.rules import Rules

ATTACK_RANKS = (Rank.SKIP, Rank.REVERSE, Rank.DRAW_TWO)

_SUIT = tuple(COLORS.index(c.color) if c.color is not None else -1 for c in ALL_FACES)
_RANK = tuple(c.rank for c in ALL_FACES)
_WEIGHT = tuple(1.5 if c.rank in ATTACK_RANKS else 1.0 for c in ALL_FACES)


def weight_of(face: int) -> float:
    """How much one card (by ``Card.index``) counts towards its color's weight."""
    return _WEIGHT[face]


def color_weights_of(faces: Iterable[int]) -> list[float]:
    """How much of each color (R, Y, G, B) the cards (by ``Card.index``, as the fast core
    and the card reading number them) hold; action cards count a bit more because they
    keep the turn or hurt the next player."""
    weights = [0.0, 0.0, 0.0, 0.0]
    for face in faces:
        suit = _SUIT[face]
        if suit >= 0:
            weights[suit] += _WEIGHT[face]
    return weights


def favourite_of(faces: Iterable[int]) -> int:
    """The color (0-3: R, Y, G, B) held most by ``color_weights_of``, ties in that order."""
    weights = color_weights_of(faces)
    return weights.index(max(weights))


NEAR_UNO = 2
"""With an opponent down to this many cards, a regular player dumps points and attacks."""
_POINTS = tuple(c.points for c in ALL_FACES)
_ATTACKS = tuple(c.rank in ATTACK_RANKS for c in ALL_FACES)


def habit_value(
    face: int,
    weights: Sequence[float],
    danger: bool,
    next_short: bool,
    ties: int | None = None,
) -> float:
    """How much a regular player (and the intermediate bot exactly) wants to play a card
    that fits (by ``Card.index``), given its hand's ``color_weights_of``: the color it holds
    most; wilds kept for when nothing else fits, unless someone is near UNO (``danger``),
    when it dumps points; a Skip, Reverse or Draw Two when the next player is near UNO.
    With ``ties`` (a kids' table, :func:`ties_of`), the card fewest of its other cards
    match replaces the color held most.
    The expert reads the opponents' plays against it (:mod:`lanuno.bots.inference`)."""
    suit = _SUIT[face]
    if suit < 0:
        return 2.0 if danger else -10.0 + _POINTS[face] / 100
    value = weights[suit] if ties is None else -float(ties)
    if danger:
        value += _POINTS[face] / 5
    if next_short and _ATTACKS[face]:
        value += 10
    return value


def kids_habit(rules: Rules) -> bool:
    """Whether a regular player sheds by :func:`ties_of` at this table rather than follow
    the color held most: on a kids' deck (kids1, kids2 and their options). The intermediate
    plays by it and the expert reads it (:mod:`lanuno.bots.inference`)."""
    return rules.deck is not DeckKind.STANDARD


def ties_of(card: Card, hand: Sequence[Card]) -> int:
    """How many of the other cards in ``hand`` (which holds ``card``) match ``card``'s color
    or number. On a kids' table a regular player sheds first the card with the fewest:
    the others can follow one another later, it will only fit when the pile happens to
    match it (by ``scripts/tournament.py``, the intermediate then beats beginners on kids1,
    where following the color held most lost to them)."""
    return ties_among(card.index, [other.index for other in hand])


def ties_among(face: int, faces: Sequence[int]) -> int:
    """:func:`ties_of` by ``Card.index`` (``faces`` holds ``face``)."""
    suit, rank = _SUIT[face], _RANK[face]
    return sum(1 for other in faces if _SUIT[other] == suit or _RANK[other] == rank) - 1


def uno_worth_saying(view: Observation) -> bool:
    """O23: say UNO with the last card, or with two when a card can be played now. Said
    before a draw, it would only be lost with the drawn card (and look odd to people)."""
    return len(view.hand) != 2 or any(type(action) is Play for action in view.legal)


def color_weights(hand: Iterable[Card]) -> list[float]:
    """``color_weights_of`` for cards."""
    return color_weights_of(card.index for card in hand)


def favourite_color(hand: Iterable[Card], bonus: Sequence[float] = (0, 0, 0, 0)) -> Color:
    """The color held most (ties in R, Y, G, B order), plus an optional bonus per color."""
    weights = color_weights(hand)
    scores = [w + b for w, b in zip(weights, bonus, strict=True)]
    return COLORS[scores.index(max(scores))]


def opponents(view: Observation) -> list[int]:
    """Other seats, nearest first in the direction of play."""
    table = view.table
    n, d = table.seats, table.direction
    return [(view.seat + d * k) % n for k in range(1, n)]


def next_seat(view: Observation) -> int:
    return (view.seat + view.table.direction) % view.table.seats


def leader(view: Observation) -> int:
    """The opponent closest to winning: fewest cards, then highest score, then nearest."""
    counts, scores = view.table.counts, view.table.scores
    others = opponents(view)
    return min(others, key=lambda s: (counts[s], -scores[s], others.index(s)))


def danger(view: Observation) -> int:
    """Fewest cards held by an opponent (1 means someone is about to win)."""
    counts = view.table.counts
    return min(counts[s] for s in opponents(view))


def gift_to_leader(view: Observation) -> Give:
    target = leader(view)
    return Give(view.seat, tuple(target for _ in view.gift))


def excess_card(view: Observation) -> ReturnCard:
    """K1-5 / K2-9 [decision]: bots return their highest-value card first (ties: the later
    face in the canonical order, so the choice is deterministic)."""
    return ReturnCard(view.seat, max(view.hand, key=lambda card: (card.points, card.index)))


def distinct_plays(legal: Iterable[Action]) -> list[Play]:
    """Each card once: a wild's colored variants collapse to the plain card."""
    seen: dict[int, Play] = {}
    for action in legal:
        if type(action) is Play:
            assert isinstance(action, Play)
            seen.setdefault(action.card.index, Play(action.seat, action.card))
    return list(seen.values())


def with_color(play: Play, color: Color, legal: Sequence[Action]) -> Action:
    """The legal form of ``play`` with ``color`` for a wild (the legal list has one per color),
    or ``play`` itself for a colored card."""
    if play.card.color is not None:
        return play
    wanted = Play(play.seat, play.card, color)
    return wanted if wanted in legal else play
