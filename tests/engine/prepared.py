"""Helpers for the engine's rule tests: a prepared deck and terse actions.

``prepared_game`` builds a :class:`Game` whose deal is exactly what the test says::

    game = prepared_game(official(), hands=["R7 G+2", "B5 Y1"], top="R3", draw="G9 W")

The deal (``Round._deal``) pops cards off the end of the shuffled deck: one card at a time
to seats dealer+1, dealer+2, ... for ``hand_size`` rounds, then the first discard. The test
shuffler arranges the deck so that every seat gets the cards written for it (whoever the
engine makes dealer), then the top card, then the draw pile in the order written (the first
card written is the next card drawn). The other cards of the deck lie below, in canonical
order, unless ``rest=False`` (a short deck, for the tests of exhausted piles).

Reshuffles keep the order of the discard pile (bottom card of the discard pile ends at the
bottom of the new draw pile) unless ``orders`` gives the draw order for a purpose such as
``"round 1 reshuffle 1"``. A redeal (O9: a Wild Draw Four turned over goes back) puts the
returned card at the bottom of the pile, so the next card written in ``draw`` is turned.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import pytest

from lanuno.engine.actions import Action, parse_action
from lanuno.engine.cards import Card, parse_card, parse_cards
from lanuno.engine.errors import IllegalAction
from lanuno.engine.events import Event, HandDealt
from lanuno.engine.game import Game, SeatInfo
from lanuno.engine.rules import Rules

E = TypeVar("E", bound=Event)

__all__ = [
    "Deal",
    "PreparedShuffler",
    "act",
    "cards",
    "hand",
    "of_type",
    "prepared_game",
    "refused",
]


@dataclass(frozen=True)
class Deal:
    """One round's deal: each seat's hand (seat order), the first discard, the draw pile."""

    hands: Sequence[str]
    top: str
    draw: str = ""
    rest: bool = True


_DEAL = re.compile(r"round (\d+) deal")


@dataclass
class PreparedShuffler:
    """A :class:`lanuno.engine.shuffle.Shuffler` that arranges decks instead of shuffling."""

    deals: dict[int, Deal]
    dealer: Callable[[int], int]
    """The dealer of round N (asked at the time of that round's deal)."""
    first_dealer: int = 0
    orders: Mapping[str, str] = field(default_factory=dict)
    purposes: list[str] = field(default_factory=list)
    """Every purpose asked for, in order (to check that a reshuffle happened)."""

    def below(self, n: int, purpose: str) -> int:
        self.purposes.append(purpose)
        return self.first_dealer % n

    def shuffle(self, cards: list[Card], purpose: str) -> None:
        self.purposes.append(purpose)
        match = _DEAL.fullmatch(purpose)
        if match and int(match.group(1)) in self.deals:
            round_no = int(match.group(1))
            _arrange(cards, self.deals[round_no], self.dealer(round_no))
        elif purpose in self.orders:
            order = parse_cards(self.orders[purpose])
            if Counter(order) != Counter(cards):
                raise ValueError(
                    f"order for {purpose!r} is not a permutation of "
                    f"{' '.join(c.code for c in cards)}"
                )
            cards[:] = order[::-1]
        elif "redeal" in purpose:
            cards.insert(0, cards.pop())
        # Anything else (reshuffles by default) keeps its order.


def _arrange(deck: list[Card], deal: Deal, dealer: int) -> None:
    hands = [parse_cards(text) for text in deal.hands]
    n = len(hands)
    size = len(hands[0])
    if any(len(h) != size for h in hands):
        raise ValueError("every prepared hand must have the same number of cards")
    popped: list[Card] = []
    for r in range(size):
        for offset in range(1, n + 1):
            popped.append(hands[(dealer + offset) % n][r])
    popped.append(parse_card(deal.top))
    popped.extend(parse_cards(deal.draw))
    rest = Counter(deck)
    rest.subtract(Counter(popped))
    short = [card.code for card, k in rest.items() if k < 0]
    if short:
        raise ValueError(f"the deck does not hold that many of: {' '.join(short)}")
    remaining = []
    for card in deck:
        if rest[card] > 0:
            rest[card] -= 1
            remaining.append(card)
    deck[:] = (remaining if deal.rest else []) + popped[::-1]


def prepared_game(
    rules: Rules,
    hands: Sequence[str],
    top: str,
    draw: str = "",
    *,
    dealer: int = 0,
    kids: Sequence[bool] | None = None,
    ages: Sequence[int | None] | None = None,
    first_player: int | None = None,
    rest: bool = True,
    orders: Mapping[str, str] | None = None,
    later: Sequence[Deal] = (),
) -> Game:
    """A game whose first round is dealt as written (see the module docstring).

    ``dealer`` is the seeded "random" first dealer of O4 (ignored when the rules let the
    youngest start). ``rules.hand_size`` is set to the length of the prepared hands.
    ``later`` gives the deals of rounds 2, 3, ...
    """
    n = len(hands)
    size = len(hands[0].split())
    if rules.hand_size != size:
        rules = dataclasses.replace(rules, hand_size=size)
    seats = [
        SeatInfo(kid=bool(kids[s]) if kids else False, age=ages[s] if ages else None)
        for s in range(n)
    ]
    deals = {1: Deal(hands, top, draw, rest)}
    deals.update(enumerate(later, start=2))
    # Ask the engine who deals round 1 (a probe game, dealt from an unshuffled deck), so the
    # deck is prepared for whatever dealer the engine picks.
    probe = Game(
        rules,
        seats,
        shuffler=PreparedShuffler({}, lambda _: 0, first_dealer=dealer),
        first_player=first_player,
    )
    first_dealer = probe.dealer
    holder: list[Game] = []
    shuffler = PreparedShuffler(
        deals,
        lambda round_no: first_dealer if round_no == 1 else holder[0].dealer,
        first_dealer=dealer,
        orders=dict(orders or {}),
    )
    game = Game(rules, seats, shuffler=shuffler, first_player=first_player)
    holder.append(game)
    dealt = {e.seat: e.cards for e in of_type(game.round.events, HandDealt)}
    for seat, text in enumerate(hands):
        got = [c.code for c in sorted(dealt[seat], key=lambda c: c.index)]
        assert got == cards(text), f"seat {seat} was not dealt {text}"
    return game


def cards(text: str) -> list[str]:
    """Card codes in canonical order, to compare hands as multisets."""
    return [c.code for c in sorted(parse_cards(text), key=lambda c: c.index)]


def hand(game: Game, seat: int) -> list[str]:
    return [c.code for c in sorted(game.round.hands[seat], key=lambda c: c.index)]


def act(game: Game, *texts: str | Action) -> list[Event]:
    """Apply actions written in notation (``"1 play W+4 B"``); returns all their events."""
    out: list[Event] = []
    for text in texts:
        action = parse_action(text) if isinstance(text, str) else text
        out += game.apply(action)
    return out


def refused(game: Game, text: str | Action, rule_id: str) -> IllegalAction:
    """The action is refused under ``rule_id`` and the round is left exactly as it was."""
    action = parse_action(text) if isinstance(text, str) else text
    before = game.round.fingerprint()
    version = game.round.version
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    assert info.value.rule_id == rule_id, info.value
    assert info.value.message
    assert game.round.fingerprint() == before
    assert game.round.version == version
    return info.value


def of_type(events: Sequence[Event], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]
