"""The expert's playouts: jump-ins (T6) and Counter-UNO (O24) happen in them, with a
points target the evaluation weighs the points at stake, not only who wins, and a stalled
kids' table goes on counting (K1-5)."""

from __future__ import annotations

import random

from lanuno.bots import fastcore as fc
from lanuno.bots.knowledge import read_table
from lanuno.bots.search import (
    WorldMaker,
    out_of_turn,
    policy,
    rewards,
    scored_rewards,
    self_policy,
)
from lanuno.engine.game import Game
from lanuno.engine.observation import observe_round
from lanuno.engine.round import Round
from lanuno.engine.rules import preset


def _core(text: str) -> fc.FastRound:
    return fc.from_round(Round.from_position(text), fc.RandomIntShuffler(random.Random(0)))


def test_playouts_jump_in_with_the_identical_card() -> None:
    r = _core(
        "official:jump_in=on hands=R3,G5,B1/Y7,Y8,G2/R5,B9,G7 discard=G1,R5 draw=Y1,Y2 "
        "color=R turn=1 jump=0"
    )
    out_of_turn(r, me=1, rng=random.Random(0))
    assert r.discard[-1] == fc.from_engine_card("R5")
    assert len(r.hands[2]) == 2
    assert r.actor == 0  # play goes on from the seat that jumped in


def test_playouts_catch_a_forgotten_uno() -> None:
    caught = 0
    for seed in range(40):
        r = _core("official hands=R3/Y7,Y8,G2 discard=G1,R5 draw=Y1,Y2,B4 color=R turn=1 exposed=0")
        out_of_turn(r, me=1, rng=random.Random(seed))
        caught += len(r.hands[0]) == 3
    assert 0 < caught < 40  # the exposed seat sometimes says UNO first, else it is caught


def test_points_target_weighs_the_points_at_stake() -> None:
    cheap = _core("official hands=-/R1,R2 discard=G1,R5 draw=Y1 color=R phase=round_over winner=0")
    dear = _core("official hands=-/W+4,W discard=G1,R5 draw=Y1 color=R phase=round_over winner=0")
    for r in (cheap, dear):
        r.scores[0] += sum(fc.POINTS[c] for c in r.hands[1])
    assert rewards(cheap) == rewards(dear) == [1.0, 0.0]
    assert scored_rewards(dear, 500, [0, 0])[0] > scored_rewards(cheap, 500, [0, 0])[0]


def test_own_playout_turns_shed_a_skip_first_heads_up() -> None:
    # Heads-up, a Skip of the current color keeps the turn: with another card that still
    # fits, the searcher's own playout turn plays the Skip first (the plain policy would
    # follow its longest color and play R3).
    r = _core("official hands=R3,RS,B1/Y7,Y8,G2 discard=G1,R5 draw=Y1,Y2 color=R turn=0")
    move = self_policy(r, 0, random.Random(0))
    assert move == fc.PLAYS[0][fc.from_engine_card("RS")]
    assert policy(r, 0, random.Random(0)) != move
    # With four players the Skip only hurts the next seat: the plain policy decides.
    r4 = _core(
        "official hands=R3,RS,B1/Y7,Y8,G2/Y1,Y2,Y3/B5,B6,B7 discard=G1,R5 draw=G9 color=R turn=0"
    )
    assert self_policy(r4, 0, random.Random(0)) == policy(r4, 0, random.Random(0))


def test_K1_5_worlds_carry_the_stall_count() -> None:
    # A kids' table some turns into a stall: every world the expert samples goes on
    # counting from there (the count is public), so its playouts shuffle when the table
    # would.
    rnd = Game(preset("kids1"), 2, "stall count").round
    rnd.stalled = 2  # as if two turns in a row had ended without a card played
    view = observe_round(rnd, rnd.actor)
    assert view.table.stalled == 2
    maker = WorldMaker.from_view(view, read_table(view))
    assert {maker.sample(random.Random(seed)).stalled for seed in range(5)} == {2}
