"""The expert reads the opponents' choices (:mod:`lanuno.bots.inference`): against the
intermediate, whose habits the reading assumes, every readable choice agrees with that
player's real hand; the reading uses the public log only; and a sampled world that breaks
a habit is kept less often."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest
from bot_helpers import round_steps

from lanuno.bots import BotLevel, make_bot
from lanuno.bots import fastcore as fc
from lanuno.bots.inference import (
    BROKEN_HABIT,
    NAMED,
    PLAYED,
    WILD_PLAYED,
    Choice,
    consistent,
    likelihood,
    read_choices,
)
from lanuno.engine.cards import parse_card
from lanuno.engine.game import Game
from lanuno.engine.observation import observe_round
from lanuno.engine.rules import preset, with_options


def _idx(code: str) -> int:
    return parse_card(code).index


def _intermediate_choices(table: str) -> Iterator[tuple[Choice, list[int]]]:
    """Every choice read at every decision of 12 rounds of intermediates (2 to 4 seats),
    with the real hand of the seat that made it."""
    rules = with_options(preset(table), ["target=none"])
    for game_no in range(12):
        seats = 2 + game_no % 3
        game = Game(rules, seats, f"inference/{game_no}")
        bots = [make_bot(BotLevel.INTERMEDIATE) for _ in range(seats)]
        for rnd in round_steps(game, bots, random.Random(game_no), 400):
            for choice in read_choices(observe_round(rnd, rnd.actor)):
                assert choice.seat != rnd.actor
                yield choice, [card.index for card in rnd.hands[choice.seat]]


def test_intermediate_choices_agree_with_its_real_hand() -> None:
    seen: Counter[int] = Counter()
    for choice, real in _intermediate_choices("official"):
        assert consistent(choice, real), (choice, real)
        seen[choice.kind] += 1
        seen[-1] += choice.danger
    assert seen[PLAYED] > 100
    assert seen[NAMED] > 5
    assert seen[WILD_PLAYED] > 5
    assert seen[-1] > 20  # plays made while someone was near UNO are read too


@pytest.mark.parametrize("table", ["kids1", "kids2"])
def test_B1_kids_intermediate_choices_agree_with_its_real_hand(table: str) -> None:
    # On a kids' table the reading follows the kids' habit (the card the hand matches
    # least). The cards drawn since a choice are counted in the hand it was made from,
    # and one of them can change which card matched least: a few choices in a thousand.
    agree: Counter[bool] = Counter()
    for choice, real in _intermediate_choices(table):
        assert choice.kids
        agree[consistent(choice, real)] += 1
    assert agree[True] > 300
    assert agree[False] <= agree[True] / 200  # the colour-held-most reading: 1 in 9 on kids1


def test_habits() -> None:
    red, green = 0, 2
    # Named green while holding more red: a broken habit.
    named = Choice(1, NAMED, -1, green, fc.RANK_OF[_idx("R5")], ())
    assert consistent(named, [_idx("G1"), _idx("G2"), _idx("R3")])
    assert not consistent(named, [_idx("G1"), _idx("R2"), _idx("R3")])
    # Played G5 on R5 (green over red): holds at least as much green as red, counting the
    # played card itself.
    played = Choice(1, PLAYED, _idx("G5"), red, 5, (_idx("G5"),))
    assert consistent(played, [_idx("R1"), _idx("B9")])
    assert not consistent(played, [_idx("R1"), _idx("R2")])
    # A wild played while a colored card fitted.
    wild = Choice(1, WILD_PLAYED, _idx("W"), red, 5, (_idx("W"),))
    assert consistent(wild, [_idx("B1"), _idx("G2")])
    assert not consistent(wild, [_idx("R1")])
    # Near UNO the habit dumps points: a 1 played while a fitting 9 was held breaks it.
    low = Choice(1, PLAYED, _idx("R1"), red, 5, (_idx("R1"),), danger=True)
    assert consistent(low, [_idx("B9"), _idx("R0")])
    assert not consistent(low, [_idx("R9")])
    # B9 on R9 from a hand heavy in blue, rather than a red Skip: the habit's choice, but
    # not when the next player was near UNO (the Skip would have stopped it).
    blue = [_idx("B1"), _idx("B2"), _idx("B3"), _idx("RS")]  # and B9, played since
    b9 = (_idx("B9"),)
    assert consistent(Choice(1, PLAYED, b9[0], red, 9, b9, danger=True), blue)
    attacked = Choice(1, PLAYED, b9[0], red, 9, b9, danger=True, next_short=True)
    assert not consistent(attacked, blue)
    # A wild is kept for when only cheap cards fit.
    dumped_wild = Choice(1, WILD_PLAYED, _idx("W"), red, 5, (_idx("W"),), danger=True)
    assert consistent(dumped_wild, [_idx("R0")])
    assert not consistent(dumped_wild, [_idx("R9")])
    # ... unless it was drawn since (the slack).
    assert consistent(Choice(1, PLAYED, _idx("R1"), red, 5, (_idx("R1"),), 1, True), [_idx("R9")])
    assert likelihood((named, wild), [[], [_idx("G1"), _idx("R2"), _idx("R3")]]) < 0.5
    assert likelihood((named,), [[], [_idx("G1")]]) == 1.0
    # A sampler that rejects below a floor gets a value at most the floor, or the exact one.
    broken = (named, wild, played)
    hands = [[], [_idx("R1"), _idx("R2"), _idx("R3")]]
    exact = likelihood(broken, hands)
    assert exact == pytest.approx(BROKEN_HABIT**3)
    assert likelihood(broken, hands, 0.05) <= 0.05
    assert likelihood(broken, hands, exact / 2) == exact
