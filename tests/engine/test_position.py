"""Positions: a round written down and rebuilt goes on exactly like the original.

The property: for every position reached by random play (every preset, random options),
``to_position`` -> text -> ``from_position`` gives a round with the same legal actions for
every seat and, after any legal action (and a timeout), the same events and the same
successor position.
"""

from __future__ import annotations

import doctest
import pathlib
import random

import pytest
from helpers import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lanuno.engine.position
from lanuno.engine.actions import Action, Timeout, parse_action
from lanuno.engine.cards import parse_cards
from lanuno.engine.game import Game, SeatInfo
from lanuno.engine.phases import Phase
from lanuno.engine.position import Position
from lanuno.engine.round import Round
from lanuno.engine.rules import Rules, kids2, official, preset, with_options
from tests.engine.prepared import act, prepared_game
from tests.engine.test_invariants import BOOLEAN_OPTIONS, tables

DOCS = pathlib.Path(__file__).parents[2] / "docs" / "position.md"


def successors(rnd: Round) -> list[Action]:
    """Every legal action of every seat, and a timeout for the actor."""
    out: list[Action] = []
    for seat in range(rnd.n):
        out += rnd.legal_actions(seat)
    if rnd.phase is not Phase.ROUND_OVER:
        out.append(Timeout(rnd.actor))
    return out


def assert_equivalent(rnd: Round) -> None:
    position = rnd.to_position()
    text = str(position)
    assert Position.parse(text) == position, text
    twin = Round.from_position(text, shuffler=rnd.shuffler)
    assert twin.to_position() == position
    for seat in range(rnd.n):
        assert twin.legal_actions(seat) == rnd.legal_actions(seat), (text, seat)
    for action in successors(rnd):
        original, copy = rnd.clone(), twin.clone()
        assert copy.apply(action) == original.apply(action), (text, str(action))
        assert copy.to_position() == original.to_position(), (text, str(action))


def walk(game: Game, rng: random.Random, *, every: int, limit: int) -> int:
    """Random play, checking every ``every``-th position, until the game ends or ``limit``
    positions were checked."""
    checked = step = 0
    while True:
        rnd = game.round
        while True:
            if step % every == 0:
                assert_equivalent(rnd)
                checked += 1
                if checked >= limit:
                    return checked
            step += 1
            if rnd.phase is Phase.ROUND_OVER:
                break
            seat = rnd.actor if rng.random() < 0.8 else rng.randrange(rnd.n)
            legal = rnd.legal_actions(seat) or rnd.legal_actions(rnd.actor)
            if rng.random() < 0.03:
                game.apply(Timeout(rnd.actor))
            else:
                game.apply(rng.choice(legal))
        if game.over:
            return checked
        game.next_round()


@settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), play_seed=st.integers(0, 2**32))
def test_positions_reached_by_random_play_rebuild_an_equivalent_round(
    table: tuple[Rules, tuple[SeatInfo, ...], int], play_seed: int
) -> None:
    rules, seats, seed = table
    walk(Game(rules, seats, seed, first_player=0), random.Random(play_seed), every=5, limit=150)


@pytest.mark.parametrize("name", ["official", "kids1", "kids2"])
def test_every_preset_and_option_rebuilds_an_equivalent_round(name: str) -> None:
    combos = [[opt] for opt in BOOLEAN_OPTIONS] + [list(BOOLEAN_OPTIONS), []]
    if name == "official":
        combos += [["wild_draw_four=strict"], ["wild_draw_four=free", "stacking"]]
    seats = (SeatInfo(kid=True, age=5), SeatInfo(), SeatInfo(kid=True), SeatInfo())
    for combo in combos:
        rules = with_options(preset(name), [*combo, "target=none", "move_timer=30"])
        game = Game(rules, seats, f"position/{name}/{combo}")
        assert walk(game, random.Random(str(combo)), every=5, limit=60) > 0


def test_a_hand_written_position_plays_like_a_prepared_deal() -> None:
    """The same situation set up both ways: a prepared deck, and one line of text."""
    game = prepared_game(official(), hands=["R7 G+2 W+4", "B5 Y1 R1"], top="R3", draw="G9 W")
    act(game, "1 play R1")  # the prepared deal makes seat 1 start (the dealer is 0)
    rnd = Round.from_position("official hands=R7,G+2,W+4/B5,Y1 discard=R3,R1 draw=G9,W color=R")
    ours = game.round
    for seat in (0, 1):
        assert set(rnd.legal_actions(seat)) == set(ours.legal_actions(seat))
        assert sorted(rnd.hands[seat], key=str) == sorted(ours.hands[seat], key=str)
    assert rnd.discard == ours.discard
    assert rnd.draw_pile[-2:] == ours.draw_pile[-2:]  # the next two cards drawn: G9 then W
    assert act(game, "0 draw") == rnd.apply(parse_action("0 draw"))


def test_the_canonical_text_leaves_defaults_out() -> None:
    rnd = Round.from_position("kids2 hands=R1/B2,B3 discard=G5,R5 draw=- color=R turn=1")
    assert str(rnd.to_position()) == (
        "kids2 hands=R1/B2,B3 discard=G5,R5 draw=- color=R direction=cw phase=turn turn=1"
    )


def test_every_field_survives_the_text() -> None:
    rules = with_options(kids2(), ["jump_in", "target=none", "move_timer=20"])
    pos = Position(
        rules=rules,
        hands=(tuple(parse_cards("R1 R1 B2")), (), tuple(parse_cards("X"))),
        discard=tuple(parse_cards("G5 R+2")),
        draw=tuple(parse_cards("W W+4")),
        color=None,
        direction=-1,
        phase=Phase.CHOOSE_COLOR,
        turn=2,
        actor=0,
        kids=(True, False, True),
        pending_penalty=4,
        penalty_source=0,
        penalty_target=1,
        penalty_skips_target=False,
        after_color="target",
        jump_window=0,
        declared=(False, False, True),
        exposed=2,
        timeouts=(1, 0, 0),
        autopilot=(False, True, False),
        scores=(3, 1, 0),
        round_no=4,
        dealer=2,
        reshuffles=1,
    )
    text = str(pos)
    assert Position.parse(text) == pos
    assert text == (
        "kids2:jump_in=on,move_timer=20,target=none hands=R1,R1,B2/-/X discard=G5,R+2 "
        "draw=W,W+4 color=- direction=ccw phase=choose_color turn=2 actor=0 kids=0,2 "
        "penalty=4:0>1:noskip then=target jump=0 uno=2 exposed=2 timeouts=1,0,0 "
        "autopilot=1 scores=3,1,0 round=4 dealer=2 reshuffles=1"
    )


def test_facts_no_rule_reads_are_left_out_of_the_position() -> None:
    """Two rounds that differ only in a stale field have equal positions."""
    base = "official hands=R1/B2 discard=G5 draw=- color=G"
    plain = Position.parse(base)
    assert Position.parse(base + " then=first") == plain  # then= belongs to choose_color
    assert plain.replace(drawn=None, gift=(), excess=()) == plain


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("", "starts with the rules"),
        ("chess hands=R1/B2 discard=G5 draw=- color=G", "unknown preset"),
        ("official:stacking=maybe hands=R1/B2 discard=G5 draw=- color=G", "on or off"),
        ("official:castling=on hands=R1/B2 discard=G5 draw=- color=G", "unknown option"),
        ("official hands=R1/B2 discard=G5 color=G", "needs draw="),
        ("official hands=R1 discard=G5 draw=- color=G", "2 to 10 seats"),
        ("official hands=R1/B2 discard=G5 draw=- color=G castle=yes", "unknown position field"),
        ("official hands=R1/B2 discard=G5 draw=- color=G turn=2", "no seat 2"),
        ("official hands=R1/B2 discard=G5 draw=- color=P", "R, Y, G or B"),
        ("official hands=R1/Q2 discard=G5 draw=- color=G", "not a card"),
        ("official hands=R0/R0 discard=G5 draw=- color=G", "more cards than"),
        ("kids1 hands=R1/W discard=G5 draw=- color=G", "more cards than"),
        ("official hands=R1/B2 discard=G5 draw=- color=G phase=drawn", "drawn card"),
        ("official hands=R1/B2 discard=G5 draw=- color=G phase=penalty", "pending penalty"),
        ("official hands=R1/B2 discard=G5 draw=- color=G phase=lunch", "a phase is one of"),
        ("official hands=R1/B2 discard=G5 draw=- color=- ", "no current color"),
        ("official hands=R1/B2 discard=- draw=- color=G", "top card"),
        ("official hands=R1/B2 discard=G5 draw=- color=G phase=round_over", "winner"),
        ("official hands=R1/B2 discard=G5 draw=- color=G phase=round_over winner=0", "no card"),
        ("official hands=R1/B2 discard=G5 draw=- color=G penalty=2:0-1", "AMOUNT:SOURCE>TARGET"),
        ("official hands=R1/B2 discard=G5 draw=- color=G turn=0 turn=1", "given twice"),
        ("official hands=R1/B2 discard=G5 draw=- color=G scores=1", "one entry per seat"),
        ("official hands=R1/B2 discard=G5 draw=- color=G direction=up", "cw or ccw"),
        ("official hands=R1/B2 discard=G5 draw=- color=G then=later", "then: one of"),
        ("official hands=R1/B2 discard=G5 draw=- color=G round=0", "cannot be negative"),
        ("kids2 hands=R1/B2 discard=G5 draw=- color=G phase=gift", "gift phase"),
        ("kids2 hands=R1/B2 discard=G5 draw=- color=G phase=excess", "excess phase"),
        ("kids2 hands=R1/B2 discard=G5 draw=- color=G phase=choose_target", "Draw Two"),
        ("official hands=R1/B2 discard=G5 draw=- color=G phase=drawn drawn=G7", "drawn card"),
        ("official hands=R1/B2 discard=G5 draw=- color=G uno", "key=value"),
        ("official hands=R1/B2 discard=G5 draw=- color=G uno=5", "no seat 5"),
        ("official hands=R1/B2 discard=G5 draw=- color=G exposed=x", "not a number"),
        ("official hands=R1/B2 discard=W+4 draw=- color=G wd4=0:maybe:-", "SEAT:bluff:HAND"),
    ],
)
def test_a_wrong_position_is_refused_with_a_reason(text: str, complaint: str) -> None:
    with pytest.raises(ValueError, match=complaint):
        Round.from_position(text)


def test_seat_count_and_top_card_read_from_a_position() -> None:
    pos = Position.parse("official hands=R1/B2/- discard=G5,W+4 draw=- color=G wd4=0:bluff:R1")
    assert (pos.seats, pos.top.code, pos.wd4_bluff, pos.wd4_hand) == (3, "W+4", True, pos.hands[0])
    assert "wd4=0:bluff:R1" in str(pos)


def test_a_round_over_position_knows_whether_the_game_ended() -> None:
    over = "official hands=-/B2 discard=G5 draw=- color=G phase=round_over winner=0"
    assert Round.from_position(over + " scores=500,0").game_over
    assert not Round.from_position(over + " scores=2,0").game_over
    assert Round.from_position(over + " scores=500,0").legal_actions(0) == []


def test_a_position_needs_no_shuffle_to_play_on() -> None:
    rnd = Round.from_position(
        "official:stacking=on hands=R+2,G4/B+2,Y1/G1 discard=B5,R5 draw=G9,W,R2 color=R"
    )
    rnd.apply(parse_action("0 play R+2"))
    assert (rnd.phase, rnd.actor, rnd.pending_penalty) == (Phase.PENALTY, 1, 2)
    rnd.apply(parse_action("1 play B+2"))
    # Seat 2 cannot stack: it draws the 4 at once (the 3 on the pile, then one from the
    # reshuffled discard pile) and is skipped.
    assert [c.code for c in rnd.hands[2][:4]] == ["G1", "G9", "W", "R2"]
    assert len(rnd.hands[2]) == 5
    position = rnd.to_position()
    assert (position.turn, position.reshuffles, position.pending_penalty) == (0, 1, 0)


def test_docs_and_docstrings() -> None:
    failures, _ = doctest.testmod(lanuno.engine.position)
    assert failures == 0
    failures, _ = doctest.testfile(str(DOCS), module_relative=False)
    assert failures == 0


def test_the_public_face_exports_what_it_lists() -> None:
    import lanuno.engine

    assert sorted(lanuno.engine.__all__) == sorted(set(lanuno.engine.__all__))
    for name in lanuno.engine.__all__:
        assert hasattr(lanuno.engine, name), name
    failures, _ = doctest.testmod(lanuno.engine)
    assert failures == 0
