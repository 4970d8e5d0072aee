"""Saying UNO and Counter-UNO (O23-O26, KA1, K1-6, K2-4, K2-10, T6)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from prepared import act, cards, hand, of_type, prepared_game, refused

from lanuno.bots import make_bot
from lanuno.engine.actions import CounterUno, DeclareUno
from lanuno.engine.events import CounterUnoCalled, Drew, Event, UnoDeclared, UnoExposed
from lanuno.engine.rules import kids1, kids2, official, with_options

# dealer 0: seat 1 plays first.
TWO_EACH = ["R2 G2", "R1 G1", "R3 Y3"]


def caught(events: Sequence[Event]) -> list[tuple[int, int, bool]]:
    return [(e.caller, e.target, e.caught) for e in of_type(events, CounterUnoCalled)]


def test_O23_declare_uno_before_playing_the_second_to_last_card() -> None:
    game = prepared_game(official(), TWO_EACH, top="R5", draw="B7 B8")
    events = act(game, "1 uno")
    assert [e.seat for e in of_type(events, UnoDeclared)] == [1]
    refused(game, "1 uno", "O23")  # once is enough
    events = act(game, "1 play R1")
    assert not of_type(events, UnoExposed)
    assert game.round.exposed is None
    events = act(game, "0 catch 1")
    assert caught(events) == [(0, 1, False)]
    assert hand(game, 1) == cards("G1")


def test_O23_declare_uno_right_after_the_play() -> None:
    game = prepared_game(official(), TWO_EACH, top="R5", draw="B7 B8")
    act(game, "1 play R1")
    assert game.round.exposed == 1
    act(game, "1 uno")
    assert game.round.exposed is None
    assert caught(act(game, "2 catch 1")) == [(2, 1, False)]
    assert hand(game, 1) == cards("G1")


def test_O23_uno_is_refused_with_more_cards_or_out_of_turn_with_two() -> None:
    game = prepared_game(official(), ["R2 G2 B2", "R1 G1 B1", "R3 Y3 B3"], top="R5")
    refused(game, "1 uno", "O23")  # three cards
    game = prepared_game(official(), TWO_EACH, top="R5")
    refused(game, "2 uno", "O23")  # two cards, but not seat 2's turn
    refused(game, DeclareUno(0), "O23")


def test_O24_an_exposed_player_caught_by_counter_uno_draws_two() -> None:
    game = prepared_game(official(), TWO_EACH, top="R5", draw="B7 B8 B9")
    events = act(game, "1 play R1")
    assert [e.seat for e in of_type(events, UnoExposed)] == [1]
    assert CounterUno(0, 1) in game.legal_actions(0)
    assert CounterUno(2, 1) in game.legal_actions(2)
    events = act(game, "0 catch 1")  # any other player, not only the next one
    assert caught(events) == [(0, 1, True)]
    assert [(e.seat, e.count) for e in of_type(events, Drew)] == [(1, 2)]
    assert hand(game, 1) == cards("G1 B7 B8")
    assert game.round.exposed is None
    # The first valid call counts; later calls do nothing.
    events = act(game, "2 catch 1")
    assert caught(events) == [(2, 1, False)]
    assert hand(game, 1) == cards("G1 B7 B8")
    assert game.round.turn == 2  # the call did not move the turn on


def test_O24_exposure_ends_when_the_next_player_acts() -> None:
    game = prepared_game(official(), TWO_EACH, top="R5", draw="B7 B8")
    act(game, "1 play R1")
    assert game.round.exposed == 1
    act(game, "2 uno", "2 play R3")
    assert game.round.exposed is None
    assert not any(isinstance(a, CounterUno) for a in game.legal_actions(0))
    assert caught(act(game, "0 catch 1")) == [(0, 1, False)]
    assert hand(game, 1) == cards("G1")


def test_O24_exposure_ends_when_the_next_player_draws() -> None:
    game = prepared_game(official(), ["R2 G2", "R1 G1", "B3 Y3"], top="R5", draw="B7 B8")
    act(game, "1 play R1", "2 draw")
    assert game.round.exposed is None


def test_O24_exposed_seat_can_still_declare_while_others_move_out_of_turn() -> None:
    game = prepared_game(official(), TWO_EACH, top="R5", draw="B7 B8")
    act(game, "1 play R1", "0 catch 2")  # a miss on someone else does not end the exposure
    assert game.round.exposed == 1
    act(game, "1 uno")
    assert game.round.exposed is None


def test_O25_counter_uno_on_a_player_who_is_not_exposed_is_a_harmless_miss() -> None:
    game = prepared_game(official(), TWO_EACH, top="R5")
    before = game.round.fingerprint()
    events = act(game, "0 catch 2")
    assert caught(events) == [(0, 2, False)]
    assert len(events) == 1
    after = game.round.fingerprint()
    # Only the event log grew: hands, piles, turn and everything else are as they were.
    assert [a for a, b in zip(before, after, strict=True) if a != b] == [len(game.round.events) - 1]
    refused(game, "0 catch 0", "O24")  # on oneself: not a call at all


def test_O1_a_counter_uno_on_a_seat_past_the_table_says_there_is_no_such_seat() -> None:
    # "catch 9" typed at a table of three read "Call Counter-UNO on another player."
    game = prepared_game(official(), TWO_EACH, top="R5")
    refusal = refused(game, "0 catch 8", "O1")
    assert refusal.message == "There is no seat 8 at this table."
    refused(game, "0 catch -1", "O1")


def test_O26_beginner_bot_sometimes_forgets_uno_and_sometimes_catches() -> None:
    bot = make_bot("beginner")
    game = prepared_game(official(), TWO_EACH, top="R5")
    view = game.seat_view(1)
    assert DeclareUno(1) in view.legal
    rng = random.Random(26)
    said = sum(bot.choose(view, rng) == DeclareUno(1) for _ in range(400))
    assert 0 < said < 400  # a beginner does not always declare (B3)
    act(game, "1 play R1")
    view = game.seat_view(2)
    calls = sum(bot.choose(view, rng) == CounterUno(2, 1) for _ in range(400))
    assert 0 < calls < 200  # and rarely catches


def test_KA1_kids_cannot_be_caught_adults_can() -> None:
    rules = with_options(official(), ["ka1"])
    kids = [False, True, False]
    game = prepared_game(rules, TWO_EACH, top="R5", draw="B7 B8", kids=kids)
    events = act(game, "1 play R1")  # a kid forgets UNO
    assert not of_type(events, UnoExposed)
    refused(game, "0 catch 1", "KA1")
    act(game, "2 play R3")  # an adult forgets UNO
    assert game.round.exposed == 2
    events = act(game, "1 catch 2")  # a kid may catch an adult
    assert caught(events) == [(1, 2, True)]
    assert hand(game, 2) == cards("Y3 B7 B8")


def test_K1_6_kids1_uno_at_one_card_without_penalty_for_forgetting() -> None:
    hands = ["R2 G2", "R1 G1", "R3 Y3"]
    game = prepared_game(kids1(), hands, top="R5", first_player=1)
    act(game, "1 uno", "1 play R1")
    assert game.round.declared[1]
    events = act(game, "2 play R3")  # seat 2 forgets: no exposure, no catch
    assert not of_type(events, UnoExposed)
    refused(game, "0 catch 2", "O24")
    act(game, "2 uno")  # may still say it
    # With the Counter-UNO option switched on, forgetting costs two cards.
    rules = with_options(kids1(), ["counter_uno=on"])
    game = prepared_game(rules, hands, top="R5", draw="B7 B8", first_player=1)
    act(game, "1 play R1", "0 catch 1")
    assert hand(game, 1) == cards("G1 B7 B8")


def test_K2_10_kids2_uno_at_one_card_as_K1_6() -> None:
    hands = ["R2 G2", "R1 G1", "R3 Y3"]
    game = prepared_game(kids2(), hands, top="R5", first_player=1)
    events = act(game, "1 play R1")
    assert not of_type(events, UnoExposed)
    refused(game, "0 catch 1", "O24")
    act(game, "1 uno")
    assert game.round.declared[1]
    rules = with_options(kids2(), ["counter_uno=on"])
    game = prepared_game(rules, hands, top="R5", draw="B7 B8", first_player=1)
    act(game, "1 play R1", "2 catch 1")
    assert hand(game, 1) == cards("G1 B7 B8")


def test_K2_4_a_uno_said_with_the_draw_two_survives_the_gift() -> None:
    rules = with_options(official(), ["draw_two_gift=on"])
    game = prepared_game(rules, ["G1 G2", "R+2 R5", "Y1 Y2"], top="R3", draw="B1 B2")
    act(game, "1 uno", "1 play R+2", "1 give 0 2")
    assert hand(game, 1) == ["R5"]
    assert game.round.exposed is None  # O23: it was said in time
    events = act(game, CounterUno(2, 1))
    assert [e.caught for e in of_type(events, CounterUnoCalled)] == [False]


def test_K2_4_a_player_who_forgot_uno_is_still_exposed_after_the_gift() -> None:
    rules = with_options(official(), ["draw_two_gift=on"])
    game = prepared_game(rules, ["G1 G2", "R+2 R5", "Y1 Y2"], top="R3", draw="B1 B2")
    act(game, "1 play R+2", "1 give 0 2")
    assert game.round.exposed == 1


def test_T6_a_seat_about_to_jump_in_may_say_uno_first() -> None:
    rules = with_options(official(), ["jump-in"])
    game = prepared_game(rules, ["R5 G2", "R5 Y1", "B1 B2"], top="R3")
    act(game, "1 play R5")
    assert game.round.actor == 2
    assert DeclareUno(0) in game.legal_actions(0)
    act(game, "0 uno", "0 play R5")
    assert hand(game, 0) == ["G2"]
    assert game.round.exposed is None
