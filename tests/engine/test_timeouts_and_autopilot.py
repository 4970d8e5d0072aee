"""Regressions for rule bugs found in review (each test failed before its fix)."""

from __future__ import annotations

from prepared import act, hand, of_type, prepared_game

from lanuno.engine.actions import CounterUno, DeclareUno, Timeout
from lanuno.engine.events import CounterUnoCalled
from lanuno.engine.game import Game
from lanuno.engine.phases import Phase
from lanuno.engine.replay import Record, event_dicts, replay
from lanuno.engine.rules import kids1, official, with_options


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


def test_T2_one_timeout_also_returns_the_cards_over_the_limit() -> None:
    """K1-5 + T2: a kid at the limit who times out draws, then returns the excess card in the
    same timed-out move; that is one timeout, not two (T3 would call the bot)."""
    rules = with_options(kids1(), ["timer=30"])
    hands = ["R1 R2 R3 R4 R5 R6", "B1 B2 B3 B4 B5 B6", "Y1 Y2 Y3 Y4 Y5 Y6"]
    game = prepared_game(rules, hands, top="G9", draw="B8", first_player=0)
    rnd = game.round
    assert rnd.actor == 0
    game.apply(Timeout(0), now=31.0)
    assert len(rnd.hands[0]) == 6
    assert rnd.timeouts_in_row[0] == 1 and not rnd.autopilot[0]
    assert rnd.phase is Phase.TURN and rnd.actor == 1


def test_T6_a_seat_about_to_jump_in_may_say_uno_first() -> None:
    rules = with_options(official(), ["jump-in"])
    game = prepared_game(rules, ["R5 G2", "R5 Y1", "B1 B2"], top="R3")
    act(game, "1 play R5")
    assert game.round.actor == 2
    assert DeclareUno(0) in game.legal_actions(0)
    act(game, "0 uno", "0 play R5")
    assert hand(game, 0) == ["G2"] and game.round.exposed is None


def test_T3_a_replay_keeps_the_autopilot_moves_apart() -> None:
    game = Game(with_options(official(), ["timer=30", "target=none"]), 2, seed=4)
    for _ in range(4):  # both seats time out twice in a row: the autopilot takes both
        game.apply(Timeout(game.round.actor), now=100.0)
    assert game.round.autopilot == [True, True]
    actor = game.round.actor
    game.apply(game.legal_actions(actor)[0], now=101.0, auto=True)
    assert game.round.autopilot[actor]  # the bot's move does not hand the seat back
    again = replay(Record.from_json(Record.of(game).to_json()))
    assert again.round.autopilot == game.round.autopilot
    assert event_dicts(again) == event_dicts(game)
