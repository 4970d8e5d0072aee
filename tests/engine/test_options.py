"""Table options (T1-T7), the kids' hand limit (K1-5, K2-9) and the "help the kids"
switches (KA2-KA6)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import pytest
from prepared import act, cards, hand, of_type, prepared_game, refused

from lanuno.engine.actions import Action, CounterUno, Draw, Pass, Play, ReturnCard
from lanuno.engine.actions import parse_action as A
from lanuno.engine.cards import Card, Color
from lanuno.engine.events import (
    AutopilotChanged,
    CardsReturned,
    Challenged,
    CounterUnoCalled,
    Drew,
    Event,
    HandsRotated,
    HandsSwapped,
    Played,
    Reshuffled,
    Skipped,
    TimedOut,
)
from lanuno.engine.phases import Phase
from lanuno.engine.round import Round
from lanuno.engine.rules import kids1, kids2, official, with_options

STACKING = with_options(official(), ["stacking"])

# dealer 0: seat 1 plays first.

# ---------------------------------------------------------------------------- T1 stacking


def test_T1_draw_two_on_draw_two_adds_up_and_the_first_who_does_not_stack_draws() -> None:
    hands = ["G1 G3", "R+2 Y2", "G+2 Y3"]
    game = prepared_game(STACKING, hands, top="R5", draw="B1 B2 B3 B4 B6")
    act(game, "1 play R+2")
    rnd = game.round
    assert (rnd.phase, rnd.actor, rnd.pending_penalty) == (Phase.PENALTY, 2, 2)
    act(game, "2 play G+2")
    # Seat 0 holds nothing to stack: it draws the total at once and loses its turn.
    assert hand(game, 0) == cards("G1 G3 B1 B2 B3 B4")
    assert (rnd.phase, rnd.turn, rnd.pending_penalty) == (Phase.TURN, 1, 0)


def test_T1_a_player_who_could_stack_may_still_accept() -> None:
    hands = ["G1 B+2", "R+2 Y2", "G+2 Y3"]
    game = prepared_game(STACKING, hands, top="R5", draw="B1 B2 B3 B4 B6")
    act(game, "1 play R+2", "2 play G+2")
    assert (game.round.actor, game.round.pending_penalty) == (0, 4)
    act(game, "0 accept")
    assert hand(game, 0) == cards("G1 B+2 B1 B2 B3 B4")
    assert game.round.turn == 1


def test_T1_wild_draw_four_on_draw_two_but_not_draw_two_on_wild_draw_four() -> None:
    hands = ["G1 B+2", "R+2 W+4", "W+4 Y3"]
    game = prepared_game(STACKING, hands, top="R5", draw="B1 B2 B3 B4 B6 B7 B8")
    act(game, "1 play R+2", "2 play W+4 B")  # 2 + 4, seat 2 holds no red card
    rnd = game.round
    assert (rnd.phase, rnd.actor, rnd.pending_penalty) == (Phase.PENALTY, 0, 6)
    assert rnd.color is Color.BLUE
    refused(game, "0 play B+2", "T1")
    act(game, "0 accept")
    assert hand(game, 0) == cards("G1 B+2 B1 B2 B3 B4 B6 B7")
    assert rnd.turn == 1


def test_T1_stacking_is_off_by_default() -> None:
    assert official().stacking is False
    hands = ["G1 G3", "R+2 Y2", "G+2 Y3"]
    game = prepared_game(official(), hands, top="R5", draw="B1 B2")
    act(game, "1 play R+2")  # seat 2 holds a Draw Two but cannot pass it on
    assert hand(game, 2) == cards("G+2 Y3 B1 B2")
    assert game.round.turn == 0


def test_T1_stacked_wild_draw_four_bluff_caught_the_stack_below_falls_on_the_challenger() -> None:
    hands = ["G1 G3", "R+2 Y2", "W+4 R3"]
    game = prepared_game(STACKING, hands, top="R5", draw="B1 B2 B3 B4 B6 B7")
    act(game, "1 play R+2", "2 play W+4 G")  # seat 2 held R3: red was the color, a bluff
    events = act(game, "0 challenge")
    assert [e.bluff for e in of_type(events, Challenged)] == [True]
    assert hand(game, 2) == cards("R3 B1 B2 B3 B4")
    assert hand(game, 0) == cards("G1 G3 B6 B7")
    rnd = game.round
    assert (rnd.phase, rnd.turn, rnd.color) == (Phase.TURN, 0, Color.GREEN)
    act(game, "0 play G1")


def test_T1_stacked_wild_draw_four_fair_the_challenger_draws_the_stack_and_two_more() -> None:
    hands = ["G1 G3", "R+2 Y2", "W+4 Y3"]
    game = prepared_game(STACKING, hands, top="R5", draw="B1 B2 B3 B4 B6 B7 B8 B9")
    act(game, "1 play R+2", "2 play W+4 G", "0 challenge")
    assert hand(game, 0) == cards("G1 G3 B1 B2 B3 B4 B6 B7 B8 B9")
    assert game.round.turn == 1


# ---------------------------------------------------------------------------- T2, T3 timer


def test_T2_timer_runs_out_the_player_draws_one_and_passes() -> None:
    rules = with_options(official(), ["timer=30"])
    assert official().move_timer is None
    game = prepared_game(rules, ["G1 G2", "Y1 Y2", "B1 B2"], top="R5", draw="R8 B3")
    assert game.next_deadline() == 30
    assert game.handle_timeout(29.9) == []
    events = game.handle_timeout(30)
    assert [(e.seat, e.count) for e in of_type(events, Drew)] == [(1, 1)]
    assert hand(game, 1) == cards("Y1 Y2 R8")  # R8 fits but is kept: the turn passes
    assert game.round.turn == 2
    assert game.next_deadline() == 60


def test_T2_timer_is_20_to_60_seconds_or_none() -> None:
    assert official().move_timer is None
    for seconds in (20, 60):
        assert with_options(official(), [f"timer={seconds}"]).move_timer == seconds
    for seconds in (19, 61):
        with pytest.raises(ValueError):
            with_options(official(), [f"timer={seconds}"])
    game = prepared_game(official(), ["G1 G2", "Y1 Y2"], top="R5")
    assert game.next_deadline() is None
    assert game.handle_timeout(10_000) == []


def test_T2_timeout_after_drawing_passes_without_drawing_again() -> None:
    rules = with_options(official(), ["timer=20"])
    game = prepared_game(rules, ["G1 G2", "Y1 Y2", "B1 B2"], top="R5", draw="R8 B3")
    game.apply(A("1 draw"), now=5)
    assert game.next_deadline() == 25
    game.handle_timeout(25)
    assert hand(game, 1) == cards("Y1 Y2 R8")
    assert game.round.turn == 2


def test_T2_timeout_takes_a_pending_penalty() -> None:
    rules = with_options(official(), ["timer=30"])
    hands = ["G1 G2", "W+4 Y2", "B1 B2"]
    game = prepared_game(rules, hands, top="R5", draw="R1 R2 R3 R4 R6")
    game.apply(A("1 play W+4 G"), now=10)
    game.handle_timeout(40)
    assert hand(game, 2) == cards("B1 B2 R1 R2 R3 R4")
    assert (game.round.turn, game.round.color) == (0, Color.GREEN)


def test_T2_timeout_chooses_the_color_held_most() -> None:
    rules = with_options(official(), ["timer=30"])
    game = prepared_game(rules, ["G1 G2 G3", "W B1 B2", "Y1 Y2 Y3"], top="R5")
    game.apply(A("1 play W"))
    assert game.round.phase is Phase.CHOOSE_COLOR
    game.handle_timeout(30)
    assert (game.round.color, game.round.turn) == (Color.BLUE, 2)


def test_T3_two_timeouts_in_a_row_put_a_bot_on_the_seat_until_its_player_acts() -> None:
    rules = with_options(official(), ["timer=30"])
    draw = "B7 B8 B9 G4 Y8 Y9 B6"  # nothing here fits the red 5: every draw passes
    game = prepared_game(rules, ["G1 G2 G3", "Y1 Y2 Y3"], top="R5", draw=draw)
    first = game.handle_timeout(30)  # seat 1 draws B7, passes
    assert [(e.seat, e.in_a_row) for e in of_type(first, TimedOut)] == [(1, 1)]
    assert not game.round.autopilot[1]
    game.apply(A("0 draw"), now=31)  # B8
    second = game.handle_timeout(61)  # seat 1 again: B9
    assert [(e.seat, e.in_a_row) for e in of_type(second, TimedOut)] == [(1, 2)]
    assert [(e.seat, e.on) for e in of_type(second, AutopilotChanged)] == [(1, True)]
    assert game.round.autopilot == [False, True]
    game.apply(A("0 draw"), now=62)  # G4
    game.apply(A("1 draw"), now=63, auto=True)  # the bot moves (Y8): the bot keeps the seat
    assert game.round.autopilot == [False, True]
    game.apply(A("0 draw"), now=64)  # Y9
    events = game.apply(A("1 draw"), now=65)  # the player is back (B6)
    assert [(e.seat, e.on) for e in of_type(events, AutopilotChanged)] == [(1, False)]
    assert game.round.autopilot == [False, False]
    assert game.round.timeouts_in_row == [0, 0]
    assert hand(game, 1) == cards("Y1 Y2 Y3 B7 B9 Y8 B6")  # the seat kept its hand


def test_T3_a_timeout_between_two_moves_of_the_player_does_not_count_in_a_row() -> None:
    rules = with_options(official(), ["timer=30"])
    draw = "B7 B8 B9 G4 Y8 Y9 B6"
    game = prepared_game(rules, ["G1 G2 G3", "Y1 Y2 Y3"], top="R5", draw=draw)
    game.handle_timeout(30)
    game.apply(A("0 draw"), now=31)
    game.apply(A("1 draw"), now=32)  # the player acts itself
    game.apply(A("0 draw"), now=33)
    events = game.handle_timeout(63)
    assert [(e.seat, e.in_a_row) for e in of_type(events, TimedOut)] == [(1, 1)]
    assert game.round.autopilot == [False, False]


# ---------------------------------------------------------------------------- T4


@dataclass(frozen=True, slots=True)
class Dance(Action):
    verb: ClassVar[str] = "dance"


def test_T4_legal_actions_are_what_the_engine_accepts_and_refusals_explain() -> None:
    hands = ["G1 G2 G3 G4", "R9 B5 Y7 W", "G5 B6 YS Y1"]
    game = prepared_game(official(), hands, top="R5")
    legal = {str(a) for a in game.legal_actions(1)}
    assert legal == {
        "1 play R9",
        "1 play B5",
        "1 play W R",
        "1 play W Y",
        "1 play W G",
        "1 play W B",
        "1 draw",
    }
    for action in [*map(A, sorted(legal)), A("1 play Y7"), A("1 play W")]:
        fresh = prepared_game(official(), hands, top="R5")
        if str(action) in legal or action == A("1 play W"):
            fresh.apply(action)
        else:
            error = refused(fresh, action, "O10")
            assert "yellow 7" in error.message
    assert game.legal_actions(0) == []  # nothing to do out of turn
    refused(game, Dance(1), "T4")


# ---------------------------------------------------------------------------- T5 Seven-O

SEVEN_O = with_options(official(), ["seven-o"])


def test_T5_seven_swaps_hands_with_a_chosen_player() -> None:
    hands = ["G1 G2 G3", "R7 Y1 Y2", "B1 B2 B3"]
    game = prepared_game(SEVEN_O, hands, top="R5")
    act(game, "1 play R7")
    rnd = game.round
    assert (rnd.phase, rnd.actor) == (Phase.SWAP, 1)
    refused(game, "1 swap 1", "T5")
    refused(game, "1 swap 3", "O1")  # three seats: there is no seat 3
    refused(game, "2 swap 0", "O10")
    events = act(game, "1 swap 0")
    assert [(e.seat, e.target) for e in of_type(events, HandsSwapped)] == [(1, 0)]
    assert hand(game, 1) == cards("G1 G2 G3")
    assert hand(game, 0) == cards("Y1 Y2")
    assert (rnd.phase, rnd.turn) == (Phase.TURN, 2)


def test_T5_a_swapped_hand_is_never_exposed() -> None:
    hands = ["G1 G2", "R7 Y1", "B1 B2"]
    game = prepared_game(SEVEN_O, hands, top="R5")
    act(game, "1 play R7")  # one card left, no UNO said: exposed
    assert game.round.exposed == 1
    act(game, "1 swap 0")
    assert hand(game, 0) == cards("Y1")
    assert game.round.exposed is None
    assert not any(isinstance(a, CounterUno) for s in range(3) for a in game.legal_actions(s))
    act(game, "2 catch 0")
    assert hand(game, 0) == cards("Y1")


def test_T5_zero_passes_every_hand_to_the_next_player() -> None:
    hands = ["G1 G2 G3", "R0 Y1 Y2", "B1 B2 B3", "Y4 Y5 Y6"]
    game = prepared_game(SEVEN_O, hands, top="R5")
    events = act(game, "1 play R0")
    assert [e.direction for e in of_type(events, HandsRotated)] == [1]
    assert hand(game, 2) == cards("Y1 Y2")
    assert hand(game, 3) == cards("B1 B2 B3")
    assert hand(game, 0) == cards("Y4 Y5 Y6")
    assert hand(game, 1) == cards("G1 G2 G3")
    assert game.round.turn == 2


def test_T5_a_rotated_hand_is_never_exposed() -> None:
    game = prepared_game(SEVEN_O, ["G1 G2", "R0 Y1", "B1 B2"], top="R5")
    act(game, "1 play R0")  # one card left, no UNO said, then every hand moves on
    assert hand(game, 2) == cards("Y1")
    assert game.round.exposed is None
    assert caught_nothing(act(game, "0 catch 2"))
    assert hand(game, 2) == cards("Y1")


def caught_nothing(events: list[Event]) -> bool:
    return [e.caught for e in of_type(events, CounterUnoCalled)] == [False]


def test_T5_zero_passes_hands_counter_clockwise_after_a_reverse() -> None:
    hands = ["G1 G2 G3", "RR Y1 Y2", "B1 B2 B3", "R0 Y5 Y6"]
    game = prepared_game(SEVEN_O, hands, top="R5", draw="Y9")
    act(game, "1 play RR", "0 draw")  # seat 0 cannot play: draws Y9, which does not fit
    assert game.round.turn == 3
    act(game, "3 play R0")
    assert hand(game, 2) == cards("Y5 Y6")
    assert hand(game, 1) == cards("B1 B2 B3")
    assert game.round.turn == 2


# ---------------------------------------------------------------------------- T6 jump-in

JUMP_IN = with_options(official(), ["jump-in"])


def test_T6_an_identical_card_may_be_played_out_of_turn() -> None:
    hands = ["R5 G2 G3", "R5 Y1 Y2", "B1 B2 B3"]
    game = prepared_game(JUMP_IN, hands, top="R3")
    act(game, "1 play R5")
    assert Play(0, Card.parse("R5")) in game.legal_actions(0)
    refused(game, "0 play G3", "T6")  # not identical to the top card
    events = act(game, "0 play R5")
    assert [(e.seat, e.jump_in) for e in of_type(events, Played)] == [(0, True)]
    assert game.round.turn == 1  # play continues from the jumper


def test_T6_jump_in_is_refused_without_the_option_or_after_the_next_player_acts() -> None:
    hands = ["R5 G2 G3", "R5 Y1 Y2", "B1 B2 B3"]
    game = prepared_game(official(), hands, top="R3")
    act(game, "1 play R5")
    refused(game, "0 play R5", "O10")
    hands = [*hands, "B4 B6 B7"]
    game = prepared_game(JUMP_IN, hands, top="R3", draw="Y9")
    act(game, "1 play R5", "2 draw")  # the next player acted (the top is still R5)
    assert game.round.turn == 3
    assert Play(0, Card.parse("R5")) not in game.legal_actions(0)
    refused(game, "0 play R5", "T6")


def test_T6_uno_calls_and_the_players_own_follow_up_keep_the_moment_open() -> None:
    rules = with_options(official(), ["jump-in", "seven-o"])
    hands = ["R7 G2", "R7 Y1", "B1 B2", "B3 B4"]
    game = prepared_game(rules, hands, top="R3")
    act(game, "1 play R7")  # seat 1 is down to one card and must pick a seat to swap with
    act(game, "0 catch 1", "1 swap 2")  # a Counter-UNO and the swap are not the next move
    assert game.round.turn == 2
    events = act(game, "0 play R7")
    assert [(e.seat, e.jump_in) for e in of_type(events, Played)] == [(0, True)]
    assert (game.round.phase, game.round.actor) == (Phase.SWAP, 0)


def test_T6_no_jump_in_on_a_pending_penalty() -> None:
    rules = with_options(official(), ["jump-in", "stacking"])
    game = prepared_game(rules, ["R+2 G1", "R+2 Y1", "G+2 B1"], top="R3")
    act(game, "1 play R+2")
    assert game.round.phase is Phase.PENALTY
    refused(game, "0 play R+2", "T6")


# ---------------------------------------------------------------------------- T7


def test_T7_draw_until_a_playable_card_comes_which_may_then_be_played() -> None:
    rules = with_options(official(), ["draw-until-playable"])
    game = prepared_game(rules, ["G1 G2", "Y1 Y2", "B1 B2"], top="R5", draw="B3 G4 R8 B6")
    events = act(game, "1 draw")
    assert [(e.seat, e.count) for e in of_type(events, Drew)] == [(1, 3)]
    assert hand(game, 1) == cards("Y1 Y2 B3 G4 R8")
    assert game.round.drawn_card == Card.parse("R8")
    assert Pass(1) in game.legal_actions(1)
    act(game, "1 pass")  # "may" play it
    assert game.round.turn == 2


def test_T7_draw_until_playable_stops_when_the_piles_are_empty() -> None:
    rules = with_options(official(), ["draw-until-playable"])
    game = prepared_game(rules, ["G1 G2", "Y1 Y2"], top="R5", draw="B3 G4", rest=False)
    events = act(game, "1 draw")
    assert [(e.seat, e.count) for e in of_type(events, Drew)] == [(1, 2)]
    assert game.round.turn == 0


# ---------------------------------------------------------------------------- K1-5, K2-9


def test_K1_5_more_than_six_cards_the_player_returns_cards_of_their_choice_under_the_pile() -> None:
    hands = ["G1 G2 G3 G4 G6 G7", "Y1 Y2 Y3 Y4 Y6 Y7", "B1 B2 B3 B4 B6 B7"]
    game = prepared_game(kids1(), hands, top="R5", draw="G9 R1", first_player=1)
    assert kids1().hand_limit == 6
    act(game, "1 draw")  # G9 does not fit: seven cards
    rnd = game.round
    assert (rnd.phase, rnd.actor) == (Phase.EXCESS, 1)
    refused(game, "2 draw", "O10")
    refused(game, "1 return R1", "K1-5")  # not held
    events = act(game, "1 return Y7")
    assert [(e.seat, e.count) for e in of_type(events, CardsReturned)] == [(1, 1)]
    assert hand(game, 1) == cards("Y1 Y2 Y3 Y4 Y6 G9")
    assert rnd.draw_pile[0] == Card.parse("Y7")  # face down under the draw pile
    assert rnd.draw_pile[-1] == Card.parse("R1")
    assert (rnd.phase, rnd.turn) == (Phase.TURN, 2)


def test_K1_5_timeout_returns_the_highest_value_cards() -> None:
    hands = ["G1 G2 G3 G4 G6 G7", "Y1 Y2 Y3 Y9 Y6 Y7", "B1 B2 B3 B4 B6 B7"]
    rules = with_options(kids1(), ["timer=20"])
    game = prepared_game(rules, hands, top="R5", draw="G8", first_player=1)
    act(game, "1 draw")
    game.handle_timeout(20)
    assert hand(game, 1) == cards("Y1 Y2 Y3 Y6 Y7 G8")
    assert game.round.turn == 2


# Found by the tournament (kids1, a bot heads-up): nothing held or in the draw pile fits Y5,
# every fitting card lies in the discard pile, and each drawn 9 goes back under the pile.
STALLED = (
    "kids1 hands=R1,R2,G3,G4,B6,B7/R8,G8,B8,R3,G2,B1 discard=Y1,Y2,Y3,R5,Y5 draw=B9,G9,R9 color=Y"
)


def _draw_and_return_the_drawn_card(rnd: Round) -> list[Event]:
    seat, drawn = rnd.actor, rnd.draw_pile[-1]
    events = rnd.apply(Draw(seat))
    assert rnd.phase is Phase.EXCESS
    return events + rnd.apply(ReturnCard(seat, drawn))


def test_K1_5_a_stalled_table_shuffles_the_draw_and_discard_piles_together() -> None:
    rnd = Round.from_position(STALLED)
    assert not of_type(_draw_and_return_the_drawn_card(rnd), Reshuffled)
    assert rnd.to_position().stalled == 1
    # The second turn in a row without a card played, with 2 cards left in the draw pile
    # (the drawn one is still in the hand): the pile has gone round, the piles are shuffled
    # together (the drawn card then goes back under the new pile).
    events = _draw_and_return_the_drawn_card(rnd)
    assert of_type(events, Reshuffled) == [Reshuffled(6, gathered=True)]  # the log says why
    assert [c.code for c in rnd.discard] == ["Y5"]
    assert sorted(c.code for c in rnd.draw_pile) == sorted(
        ["B9", "G9", "R9", "Y1", "Y2", "Y3", "R5"]
    )
    assert rnd.to_position().stalled == 0
    # Now a fitting card comes up within the next draws and play goes on.
    for _ in range(7):
        if Draw(rnd.actor) not in rnd.legal_actions(rnd.actor):
            break
        seat, drawn = rnd.actor, rnd.draw_pile[-1]
        rnd.apply(Draw(seat))
        if rnd.phase is Phase.DRAWN:
            rnd.apply(Play(seat, drawn))
            break
        rnd.apply(ReturnCard(seat, drawn))
    assert of_type(rnd.events, Played)
    assert rnd.discard[-1] != Card.parse("Y5")


def test_K1_5_a_card_played_restarts_the_count_and_without_a_limit_there_is_none() -> None:
    rnd = Round.from_position(STALLED.replace("B9", "Y9") + " stalled=3")  # the draw fits
    rnd.apply(Draw(0))
    assert rnd.phase is Phase.DRAWN
    rnd.apply(Play(0, Card.parse("Y9")))
    assert rnd.to_position().stalled == 0
    # The position text keeps the count, and reads it back.
    stalled = Round.from_position(STALLED + " stalled=1")
    assert str(stalled.to_position()).endswith("stalled=1")
    assert of_type(_draw_and_return_the_drawn_card(stalled), Reshuffled)
    # A long draw pile goes round slowly: no shuffle after a few turns without a play.
    long_pile = STALLED.replace("draw=B9,G9,R9", "draw=B9,G9,R9,B4,G7,R7,B0,G0")
    patient = Round.from_position(long_pile)
    for _ in range(4):
        assert not of_type(_draw_and_return_the_drawn_card(patient), Reshuffled)
    assert patient.to_position().stalled == 4
    # Without a hand limit the draw pile runs out as O15 says: no count is kept.
    official_round = Round.from_position(
        "official hands=R1,R2/G3,G4 discard=Y1,Y5 draw=B9,G9 color=Y"
    )
    for _ in range(2):
        seat = official_round.actor
        official_round.apply(Draw(seat))
        if official_round.phase is Phase.DRAWN:
            official_round.apply(Pass(seat))
    assert official_round.to_position().stalled == 0


K2_9_HANDS = ["G1 G2 G3 G4 G6 G7", "Y1 Y2 Y3 Y4 Y6 Y+2", "B1 B2 B3 B4 B6 BS"]


def test_K2_9_every_player_over_the_limit_returns_cards_in_turn_order_from_the_actor() -> None:
    game = prepared_game(kids2(), K2_9_HANDS, top="Y5", draw="R1 R2", first_player=1)
    act(game, "1 play Y+2")
    assert hand(game, 1) == cards("Y1 Y2 Y3 Y4 Y6 R1 R2")  # over the limit while giving
    assert game.round.phase is Phase.GIFT
    act(game, "1 give 2 0")  # seats 2 and 0 now hold seven cards each
    rnd = game.round
    assert (rnd.phase, rnd.actor) == (Phase.EXCESS, 2)  # from the actor (1): 2 comes first
    refused(game, "0 return G1", "O10")
    act(game, "2 return B6")
    assert (rnd.phase, rnd.actor) == (Phase.EXCESS, 0)
    act(game, "0 return G7")
    assert hand(game, 0) == cards("G1 G2 G3 G4 G6 R2")
    assert hand(game, 2) == cards("B1 B2 B3 B4 BS R1")
    assert [c.code for c in rnd.draw_pile[:2]] == ["G7", "B6"]
    assert (rnd.phase, rnd.turn) == (Phase.TURN, 2)  # K2-4: nobody skipped


def test_K2_9_timeouts_return_the_highest_value_cards() -> None:
    rules = with_options(kids2(), ["timer=20"])
    game = prepared_game(rules, K2_9_HANDS, top="Y5", draw="R1 R2", first_player=1)
    act(game, "1 play Y+2", "1 give 2 0")
    game.handle_timeout(20)
    assert hand(game, 2) == cards("B1 B2 B3 B4 B6 R1")  # the Skip (20 points) went back
    assert game.round.actor == 0


# ---------------------------------------------------------------------------- KA2, KA6

KA2 = with_options(official(), ["ka2"])


def test_KA2_adults_keep_drawing_until_they_can_play() -> None:
    game = prepared_game(
        KA2, ["G1 G2", "Y1 Y2", "B1 B2"], top="R5", draw="B3 G4 R8 B6", kids=[True, False, True]
    )
    events = act(game, "1 draw")
    assert [(e.seat, e.count) for e in of_type(events, Drew)] == [(1, 3)]
    assert hand(game, 1) == cards("Y1 Y2 B3 G4 R8")
    assert game.round.drawn_card == Card.parse("R8")


def test_KA2_kids_draw_once() -> None:
    game = prepared_game(
        KA2, ["G1 G2", "Y1 Y2", "B1 B2"], top="R5", draw="B3 G4 R8", kids=[False, True, False]
    )
    events = act(game, "1 draw")
    assert [(e.seat, e.count) for e in of_type(events, Drew)] == [(1, 1)]
    assert game.round.turn == 2


def test_KA6_the_playable_card_an_adult_draws_must_be_played() -> None:
    game = prepared_game(
        KA2, ["G1 G2", "Y1 Y2", "B1 B2"], top="R5", draw="B3 R8", kids=[True, False, True]
    )
    act(game, "1 draw")
    assert Pass(1) not in game.legal_actions(1)
    refused(game, "1 pass", "KA6")
    act(game, "1 play R8")
    assert game.round.turn == 2


def test_KA6_drawing_stops_when_both_piles_are_exhausted() -> None:
    game = prepared_game(KA2, ["G1 G2", "Y1 Y2"], top="R5", draw="B3 G4", rest=False)
    events = act(game, "1 draw")
    assert [(e.seat, e.count) for e in of_type(events, Drew)] == [(1, 2)]
    assert (game.round.phase, game.round.turn) == (Phase.TURN, 0)


# ---------------------------------------------------------------------------- KA3


def test_KA3_kids_may_stack_adults_may_not() -> None:
    rules = with_options(official(), ["ka3"])
    hands = ["G1 B+2", "R+2 Y2", "G+2 Y3"]
    game = prepared_game(rules, hands, top="R5", draw="B1 B2 B3 B4", kids=[False, False, True])
    act(game, "1 play R+2")
    assert (game.round.phase, game.round.actor) == (Phase.PENALTY, 2)
    act(game, "2 play G+2")  # the kid passes it on
    # The adult holds a Draw Two too, but may not stack: four cards at once.
    assert hand(game, 0) == cards("G1 B+2 B1 B2 B3 B4")
    assert game.round.turn == 1


def test_KA3_an_adult_facing_a_wild_draw_four_cannot_stack() -> None:
    rules = with_options(official(), ["ka3"])
    hands = ["G1 G2", "W+4 Y2", "W+4 Y3"]
    game = prepared_game(rules, hands, top="R5", kids=[False, True, False])
    act(game, "1 play W+4 B")
    assert (game.round.phase, game.round.actor) == (Phase.PENALTY, 2)  # challenge only
    refused(game, "2 play W+4 G", "T1")


# ---------------------------------------------------------------------------- KA4

KA4 = with_options(official(), ["ka4"])
FOUR = ["G1 G2", "R+2 W+4", "B1 B2", "Y1 Y2"]


def test_KA4_a_kid_chooses_who_receives_the_draw_two() -> None:
    game = prepared_game(KA4, FOUR, top="R5", draw="B3 B4", kids=[False, True, False, False])
    act(game, "1 play R+2")
    rnd = game.round
    assert (rnd.phase, rnd.actor) == (Phase.CHOOSE_TARGET, 1)
    refused(game, "1 target 1", "KA4")
    refused(game, "0 target 3", "O10")
    act(game, "1 target 2")  # the next player: draws and loses the turn
    assert hand(game, 2) == cards("B1 B2 B3 B4")
    assert rnd.turn == 3


def test_KA4_a_target_further_away_draws_and_play_goes_on_with_the_next_player() -> None:
    game = prepared_game(KA4, FOUR, top="R5", draw="B3 B4", kids=[False, True, False, False])
    act(game, "1 play R+2", "1 target 3")
    assert hand(game, 3) == cards("Y1 Y2 B3 B4")
    assert game.round.turn == 2


def test_KA4_a_kid_chooses_who_receives_the_wild_draw_four() -> None:
    game = prepared_game(KA4, FOUR, top="R5", draw="B3 B4 B6 B7", kids=[False, True, False, False])
    act(game, "1 play W+4 G")
    assert (game.round.phase, game.round.actor) == (Phase.CHOOSE_TARGET, 1)
    act(game, "1 target 0")
    assert (game.round.phase, game.round.actor, game.round.pending_penalty) == (Phase.PENALTY, 0, 4)
    act(game, "0 accept")
    assert hand(game, 0) == cards("G1 G2 B3 B4 B6 B7")
    assert game.round.turn == 2


def test_KA4_adults_do_not_choose() -> None:
    game = prepared_game(KA4, FOUR, top="R5", draw="B3 B4", kids=[True, False, True, True])
    act(game, "1 play R+2")
    assert hand(game, 2) == cards("B1 B2 B3 B4")
    assert game.round.turn == 3


def test_KA4_gifting_K2_4_wins_over_KA4_for_a_draw_two() -> None:
    rules = with_options(kids2(), ["ka4"])
    game = prepared_game(rules, FOUR, top="R5", draw="B3 B4", kids=[False, True, False, False])
    act(game, "1 play R+2")
    assert (game.round.phase, game.round.actor) == (Phase.GIFT, 1)


def test_KA4_does_not_apply_to_a_stacked_draw_two() -> None:
    rules = with_options(official(), ["ka3", "ka4"])
    hands = ["G1 G2", "R+2 Y2", "G+2 Y3"]
    game = prepared_game(rules, hands, top="R5", draw="B1 B2 B3 B4", kids=[False, False, True])
    act(game, "1 play R+2", "2 play G+2")  # the kid stacks: no target to choose
    assert hand(game, 0) == cards("G1 G2 B1 B2 B3 B4")
    assert game.round.turn == 1


# ---------------------------------------------------------------------------- KA5

KA5 = with_options(official(), ["ka5"])


def test_KA5_a_kids_draw_two_hits_every_adult_and_the_next_adult_loses_the_turn() -> None:
    draw = "B3 B4 B6 B7 B8 B9"
    game = prepared_game(KA5, FOUR, top="R5", draw=draw, kids=[False, True, False, False])
    events = act(game, "1 play R+2")
    assert sorted((e.seat, e.count) for e in of_type(events, Drew)) == [(0, 2), (2, 2), (3, 2)]
    assert [len(h) for h in game.round.hands] == [4, 1, 4, 4]
    drawn = sorted(c.code for s in (0, 2, 3) for c in game.round.hands[s][2:])
    assert drawn == cards(draw)
    assert [e.seat for e in of_type(events, Skipped)] == [2]
    assert (game.round.phase, game.round.turn, game.round.pending_penalty) == (Phase.TURN, 3, 0)


def test_KA5_a_kid_next_in_line_keeps_the_turn() -> None:
    draw = "B3 B4 B6 B7"
    game = prepared_game(KA5, FOUR, top="R5", draw=draw, kids=[False, True, True, False])
    events = act(game, "1 play R+2")
    assert sorted((e.seat, e.count) for e in of_type(events, Drew)) == [(0, 2), (3, 2)]
    assert not of_type(events, Skipped)
    assert game.round.turn == 2


def test_KA5_a_kids_wild_draw_four_cannot_be_challenged() -> None:
    draw = "B3 B4 B6 B7 B8 B9 G3 G4 G5 G6 G7 G8"
    game = prepared_game(KA5, FOUR, top="R5", draw=draw, kids=[False, True, False, False])
    act(game, "1 play W+4 Y")  # a bluff (R+2 is red), but nothing is left pending
    assert [len(h) for h in game.round.hands] == [6, 1, 6, 6]
    assert (game.round.phase, game.round.turn, game.round.color) == (Phase.TURN, 3, Color.YELLOW)
    refused(game, "3 challenge", "O10")


def test_KA5_wins_over_KA4_and_over_gifting() -> None:
    for rules in (with_options(official(), ["ka4", "ka5"]), with_options(kids2(), ["ka5"])):
        game = prepared_game(
            rules, FOUR, top="R5", draw="B3 B4 B6 B7 B8 B9", kids=[False, True, False, False]
        )
        act(game, "1 play R+2")
        assert [len(h) for h in game.round.hands] == [4, 1, 4, 4]
        assert (game.round.phase, game.round.turn) == (Phase.TURN, 3)


def test_KA5_does_not_apply_to_a_stacked_draw_two() -> None:
    rules = with_options(official(), ["ka3", "ka5"])
    hands = ["G1 G2", "R+2 Y2", "G+2 Y3"]
    game = prepared_game(rules, hands, top="R5", draw="B1 B2 B3 B4", kids=[False, False, True])
    act(game, "1 play R+2", "2 play G+2")
    assert hand(game, 0) == cards("G1 G2 B1 B2 B3 B4")
    assert hand(game, 1) == cards("Y2")
    assert game.round.turn == 1
