"""B2: the expert's card reading is only as sure as the rules allow. Against a player who
draws while holding playable cards (O14) and keeps fitting drawn cards (O13), what the
expert holds for sure (gaps, cards seen after a challenge) never contradicts that player's
real hand; under rules where a draw is proof, it still reads the gaps."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

import pytest
from bot_helpers import TEST_PLAYOUTS, table

from lanuno.bots import make_bot
from lanuno.bots.base import as_observation
from lanuno.bots.knowledge import read_table
from lanuno.engine.actions import Action, Challenge, Draw, Pass
from lanuno.engine.game import Game
from lanuno.engine.observation import Observation, observe_round
from lanuno.engine.phases import Phase
from lanuno.engine.views import SeatView
from lanuno.sim import offer_out_of_turn


@dataclass(frozen=True)
class VoluntaryDrawer:
    """Draws a third of the time even when a card fits, keeps half the fitting cards it draws,
    otherwise plays like the intermediate (and challenges every Wild Draw Four)."""

    level: str = "voluntary drawer"

    def choose(self, seen: Observation | SeatView, rng: random.Random) -> Action | None:
        view = as_observation(seen)
        seat = view.seat
        if view.my_turn and Draw(seat) in view.legal and rng.random() < 0.3:
            return Draw(seat)
        if view.my_turn and Pass(seat) in view.legal and rng.random() < 0.5:
            return Pass(seat)
        if Challenge(seat) in view.legal:
            return Challenge(seat)
        return make_bot("intermediate").choose(view, rng)


def _check_beliefs(options: tuple[str, ...], games: int, *, expert: bool = True) -> tuple[int, int]:
    """The expert (or, to see more challenges, a voluntary drawer) at seat 0, voluntary
    drawers elsewhere; seat 0's reading is checked against the real hands at every step.
    Returns (sure gaps checked, known cards checked)."""
    gaps = known = 0
    for game_no in range(games):
        game = Game(table("official", options), 3, f"reading/{options}/{game_no}")
        first = make_bot("expert", playouts=TEST_PLAYOUTS) if expert else VoluntaryDrawer()
        bots = [first, VoluntaryDrawer(), VoluntaryDrawer()]
        rng = random.Random(game_no)
        rnd = game.round
        steps = 0
        while rnd.phase is not Phase.ROUND_OVER and steps < 400:
            steps += 1
            knowledge = read_table(observe_round(rnd, 0))
            for seat in (1, 2):
                lack, hand = knowledge.lacks[seat], rnd.hands[seat]
                assert lack.holds_for(hand), f"seat {seat} holds {hand}, read as lacking {lack}"
                gaps += not lack.empty
                held = Counter(knowledge.known[seat])
                assert not held - Counter(hand), f"seat {seat} {hand} lacks known {held}"
                known += sum(held.values())
            offer_out_of_turn(game, bots, rng)
            if rnd.phase is Phase.ROUND_OVER:
                break
            action = bots[rnd.actor].choose(rnd.seat_view(rnd.actor), rng)
            assert action is not None
            rnd.apply(action)
    return gaps, known


def test_B2_voluntary_draws_prove_nothing() -> None:
    _check_beliefs(("target=none",), 12)


@pytest.mark.parametrize("must_play", ["on", "off"])
def test_B2_forced_draws_are_read_and_kept_cards_allowed(must_play: str) -> None:
    gaps, _ = _check_beliefs(
        ("target=none", "voluntary_draw=off", f"must_play_drawn={must_play}"), 8
    )
    assert gaps > 20


def test_B2_hand_shown_after_a_challenge_is_remembered() -> None:
    """Seat 0 challenges, sees the hand (O21) and keeps those cards as known while the
    owner keeps them (swaps and rotations move them along)."""
    _, known = _check_beliefs(("target=none", "seven_o", "jump_in"), 12, expert=False)
    assert known > 10


def test_B2_tree_search_plays_legal_moves() -> None:
    """The IS-MCTS variant of the expert (method="tree") decides legally on every table."""
    from bot_helpers import Checked

    from lanuno.bots.expert import ExpertBot
    from lanuno.sim import play_game

    for name, options in (("official", ["jump_in", "seven_o"]), ("kids2", [])):
        bots = [Checked(ExpertBot(playouts=6, method="tree")), Checked(make_bot("intermediate"))]
        play_game(table(name, [*options, "target=none"]), bots, f"tree/{name}")
        assert bots[0].decisions > 5
