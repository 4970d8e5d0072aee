"""The expert's playout-horizon evaluation: the fast score is the weights times the
features, the chances form a distribution, and they follow common sense."""

from __future__ import annotations

import random

import pytest

from lanuno.bots import evaluation
from lanuno.bots import fastcore as fc
from lanuno.bots.eval_weights import WEIGHTS
from lanuno.bots.search import out_of_turn, policy
from lanuno.engine.rules import preset, with_options


def _positions(seats: int, count: int, seed: int) -> list[fc.FastRound]:
    rng = random.Random(seed)
    rules = with_options(preset("official"), ["target=none"])
    out: list[fc.FastRound] = []
    while len(out) < count:
        r = fc.deal(
            rules,
            (False,) * seats,
            fc.RandomIntShuffler(rng),
            round_no=1,
            dealer=0,
            scores=[0] * seats,
        )
        while r.phase != fc.ROUND_OVER and len(out) < count:
            out_of_turn(r, -1, rng)
            if r.phase == fc.ROUND_OVER:
                break
            if rng.random() < 0.3:
                out.append(r.clone())
            r.apply(policy(r, r.actor, rng))
    return out


def test_weights_match_the_features() -> None:
    assert len(WEIGHTS) == len(evaluation.FEATURES)


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_fast_score_is_the_weighted_features(seats: int) -> None:
    rng = random.Random(seats)
    weights = [rng.uniform(-2, 2) for _ in evaluation.FEATURES]
    for r in _positions(seats, 150, seed=seats):
        for seat in range(seats):
            features = evaluation.features(r, seat)
            slow = sum(w * x for w, x in zip(weights, features, strict=True))
            assert evaluation.score(r, seat, weights) == pytest.approx(slow)


def test_chances_are_a_distribution_that_favours_short_hands() -> None:
    for r in _positions(4, 200, seed=7):
        chances = evaluation.win_chances(r)
        assert sum(chances) == pytest.approx(1.0)
        assert all(0.0 < c < 1.0 for c in chances)
    # Same position but one hand much shorter: that seat is the favourite.
    r = _positions(2, 1, seed=3)[0]
    r.hands[1] = r.hands[1][:1]
    r.hands[0] = r.hands[0] + r.draw_pile[:6]
    assert evaluation.win_chances(r)[1] > 0.5
