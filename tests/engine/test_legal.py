"""One set of predicates: the legal list and the refusals agree on every action.

For positions reached by random play, every action a seat could send (every type, every
card, every color, every target) is tried on a copy of the round: it is accepted exactly
when the legal list names it, apart from the two documented extras (a Counter-UNO miss,
O25, and a wild played without its color, which the CHOOSE_COLOR phase then asks for) and
the host's timeout.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from lanuno.engine.actions import (
    ACTION_TYPES,
    Action,
    ChooseColor,
    ChooseTarget,
    CounterUno,
    Give,
    Play,
    ReturnCard,
    SwapHands,
    Timeout,
)
from lanuno.engine.cards import ALL_FACES, COLORS
from lanuno.engine.errors import IllegalAction
from lanuno.engine.game import Game, SeatInfo
from lanuno.engine.phases import Phase
from lanuno.engine.round import Round
from lanuno.engine.rules import preset, with_options
from tests.engine.test_invariants import RULE_ID


def every_action(rnd: Round, seat: int) -> Iterator[Action]:
    others = range(-1, rnd.n + 1)
    for cls in ACTION_TYPES:
        if cls is Play:
            for card in ALL_FACES:
                yield Play(seat, card)
                if card.color is None:
                    yield from (Play(seat, card, color) for color in COLORS)
        elif cls is ReturnCard:
            yield from (ReturnCard(seat, card) for card in ALL_FACES)
        elif cls is ChooseColor:
            yield from (ChooseColor(seat, color) for color in COLORS)
        elif cls is Give:
            yield from (Give(seat, (a,)) for a in others)
            yield from (Give(seat, (a, b)) for a in others for b in others)
        elif cls in (CounterUno, ChooseTarget, SwapHands):
            yield from (cls(seat, t) for t in others)  # type: ignore[call-arg]
        else:
            yield cls(seat)


def tolerated(rnd: Round, action: Action, listed: list[Action]) -> bool:
    if isinstance(action, CounterUno):
        return True  # O25: a miss is accepted, with no effect
    if isinstance(action, Timeout):
        return action.seat == rnd.actor
    if isinstance(action, Play) and action.color is None and action.card.color is None:
        return Play(action.seat, action.card, COLORS[0]) in listed
    return False


def check_position(rnd: Round) -> int:
    tried = 0
    for seat in range(rnd.n):
        listed = rnd.legal_actions(seat)
        for action in every_action(rnd, seat):
            twin = rnd.clone()
            try:
                twin.apply(action)
            except IllegalAction as refusal:
                assert action not in listed, f"{action} is listed but refused: {refusal}"
                assert RULE_ID.match(refusal.rule_id)
            else:
                assert action in listed or tolerated(rnd, action, listed), (
                    f"{action} was accepted but is not listed"
                )
            tried += 1
    return tried


@pytest.mark.parametrize("name", ["official", "kids1", "kids2"])
def test_the_legal_list_names_exactly_the_accepted_actions(name: str) -> None:
    options = ["stacking", "seven_o", "jump_in", "ka3", "ka4", "target=none"]
    for combo in ([], options[:1], options[1:3], options[3:5], options):
        rules = with_options(preset(name), [*combo, "target=none"])
        seats = (SeatInfo(kid=True), SeatInfo(), SeatInfo(kid=True))
        game = Game(rules, seats, f"legal/{combo}")
        rng = random.Random(str(combo))
        rnd = game.round
        for step in range(400):
            if rnd.phase is Phase.ROUND_OVER:
                break
            if step % 20 == 0 or rnd.phase not in (Phase.TURN, Phase.DRAWN):
                check_position(rnd)
            seat = rnd.actor if rng.random() < 0.85 else rng.randrange(rnd.n)
            rnd.apply(rng.choice(rnd.legal_actions(seat) or rnd.legal_actions(rnd.actor)))
