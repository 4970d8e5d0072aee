"""Playing and drawing (O10-O16, K1-3, K1-4, K2-3, K2-8)."""

from __future__ import annotations

from prepared import act, cards, hand, of_type, prepared_game, refused

from lanuno.engine.cards import Color
from lanuno.engine.events import ColorChosen, Drew, Passed, Reshuffled
from lanuno.engine.phases import Phase
from lanuno.engine.rules import WildDrawFour, kids1, kids2, official, with_options

THREE = ["G1 G2 G3 G4", "R9 B5 Y7 W", "G5 B6 YS Y1"]  # seat 1 starts (dealer 0)


def test_O10_play_a_card_matching_color_or_number() -> None:
    game = prepared_game(official(), THREE, top="R5")
    refused(game, "1 play Y7", "O10")  # neither red nor a 5
    refused(game, "1 play G1", "O10")  # not in the hand
    refused(game, "2 play G5", "O10")  # not seat 2's turn
    act(game, "1 play B5")  # same number
    rnd = game.round
    assert (rnd.top.code, rnd.color, rnd.turn) == ("B5", Color.BLUE, 2)
    assert hand(game, 1) == cards("R9 Y7 W")
    act(game, "2 play B6")  # same color
    assert rnd.turn == 0
    refused(game, "0 play G1", "O10")


def test_O10_symbol_matches_symbol() -> None:
    game = prepared_game(official(), ["YS B9", "GS R1", "BS R2"], top="G7")
    act(game, "1 play GS")  # seat 2 is skipped
    assert game.round.turn == 0
    refused(game, "0 play B9", "O10")
    act(game, "0 play YS")
    assert (game.round.color, game.round.turn) == (Color.YELLOW, 2)


def test_O11_wild_on_anything_then_its_player_chooses_the_color() -> None:
    game = prepared_game(official(), THREE, top="R5")
    rnd = game.round
    refused(game, "1 play R9 B", "O11")  # only a wild takes a color
    act(game, "1 play W")  # legal although seat 1 holds a red card
    assert (rnd.phase, rnd.actor, rnd.top.code) == (Phase.CHOOSE_COLOR, 1, "W")
    refused(game, "2 color B", "O10")
    refused(game, "1 play B5", "O11")
    act(game, "1 color G")
    assert (rnd.phase, rnd.color, rnd.turn) == (Phase.TURN, Color.GREEN, 2)
    refused(game, "2 play B6", "O10")
    act(game, "2 play G5")


def test_O11_wild_played_with_its_color_in_one_action() -> None:
    game = prepared_game(official(), THREE, top="R5")
    events = act(game, "1 play W Y")
    assert [(e.seat, e.color) for e in of_type(events, ColorChosen)] == [(1, Color.YELLOW)]
    assert (game.round.phase, game.round.color, game.round.turn) == (Phase.TURN, Color.YELLOW, 2)


def test_O12_wild_draw_four_while_holding_the_current_color_is_a_bluff_in_challenge_mode() -> None:
    game = prepared_game(official(), ["G1 G2", "R9 W+4", "B6 Y1"], top="R5")
    act(game, "1 play W+4 B")  # holds R9: allowed, but challengeable
    assert (game.round.phase, game.round.actor, game.round.pending_penalty) == (Phase.PENALTY, 2, 4)


def test_O12_strict_refuses_wild_draw_four_with_a_card_of_the_current_color() -> None:
    strict = with_options(official(), ["wd4=strict"])
    assert strict.wild_draw_four is WildDrawFour.STRICT
    game = prepared_game(strict, ["G1 G2", "R9 W+4", "B6 Y1"], top="R5")
    error = refused(game, "1 play W+4 B", "O12")
    assert "Wild Draw Four" in error.message
    assert all("W+4" not in str(a) for a in game.legal_actions(1))


def test_O12_cards_matching_only_by_number_do_not_count() -> None:
    strict = with_options(official(), ["wd4=strict"])
    game = prepared_game(strict, ["G1 G2", "B5 W+4", "B6 Y1"], top="R5", draw="Y2 Y3 Y4 Y6")
    act(game, "1 play W+4 G")  # B5 matches by number only: no red card held
    rnd = game.round
    assert rnd.color is Color.GREEN
    assert hand(game, 2) == cards("B6 Y1 Y2 Y3 Y4 Y6")
    assert rnd.turn == 0


def test_O13_cannot_play_draw_one_and_play_it_if_it_fits() -> None:
    game = prepared_game(official(), ["G1 G2", "Y1 Y2", "B1 B2"], top="R5", draw="R8 B3")
    refused(game, "1 pass", "O13")  # no pass without drawing
    events = act(game, "1 draw")
    rnd = game.round
    assert [(e.seat, e.count) for e in of_type(events, Drew)] == [(1, 1)]
    assert (rnd.phase, rnd.actor, rnd.drawn_card and rnd.drawn_card.code) == (
        Phase.DRAWN,
        1,
        "R8",
    )
    refused(game, "1 draw", "O13")  # one card only
    refused(game, "1 play Y1", "O13")  # only the drawn card may be played
    act(game, "1 play R8")
    assert (rnd.top.code, rnd.turn) == ("R8", 2)


def test_O13_drawn_card_that_does_not_fit_ends_the_turn() -> None:
    game = prepared_game(official(), ["G1 G2", "Y1 Y2", "B1 B2"], top="R5", draw="B3 R8")
    events = act(game, "1 draw")
    assert [e.seat for e in of_type(events, Passed)] == [1]
    assert (game.round.phase, game.round.turn) == (Phase.TURN, 2)
    assert hand(game, 1) == cards("Y1 Y2 B3")


def test_O13_may_keep_a_playable_drawn_card_and_pass() -> None:
    game = prepared_game(official(), ["G1 G2", "Y1 Y2", "B1 B2"], top="R5", draw="R8")
    act(game, "1 draw", "1 pass")
    assert (game.round.turn, game.round.top.code) == (2, "R5")
    assert hand(game, 1) == cards("Y1 Y2 R8")


def test_O14_may_draw_instead_of_playing_a_playable_card() -> None:
    game = prepared_game(official(), ["G1 G2", "R9 Y2", "B1 B2"], top="R5", draw="Y5 G7")
    act(game, "1 draw")  # R9 would fit
    assert game.round.drawn_card is not None
    assert game.round.drawn_card.code == "Y5"
    refused(game, "1 play R9", "O13")  # only the drawn card now
    act(game, "1 play Y5")
    assert (game.round.top.code, game.round.turn) == ("Y5", 2)
    # Drawing a card that does not fit ends the turn at once.
    act(game, "2 draw")  # G7
    assert (game.round.turn, hand(game, 2)) == (0, cards("B1 B2 G7"))


def test_O15_empty_draw_pile_is_refilled_from_the_discard_pile_but_its_top() -> None:
    game = prepared_game(
        official(),
        ["R1 R2 B3", "R6 R7 B4"],
        top="R5",
        rest=False,
        orders={"round 1 reshuffle 1": "R1 R5 R6"},
    )
    rnd = game.round
    assert rnd.draw_pile == []
    act(game, "1 play R6", "0 play R1", "1 play R7")
    assert [c.code for c in rnd.discard] == ["R5", "R6", "R1", "R7"]
    events = act(game, "0 draw")  # R1 comes first in the prepared reshuffle: it fits
    assert of_type(events, Reshuffled) == [Reshuffled(3, gathered=False)]
    assert "round 1 reshuffle 1" in game.shuffler.purposes  # type: ignore[attr-defined]
    assert [c.code for c in rnd.discard] == ["R7"]
    assert [c.code for c in rnd.draw_pile] == ["R6", "R5"]  # R5 is next
    assert rnd.drawn_card is not None
    assert rnd.drawn_card.code == "R1"


def test_O15_a_reshuffled_wild_forgets_its_color() -> None:
    game = prepared_game(official(), ["B1 B2 G3 G4", "W R7 R8 R9"], top="R5", rest=False)
    rnd = game.round
    act(game, "1 play W B", "0 play B1")
    assert [c.code for c in rnd.discard] == ["R5", "W", "B1"]
    act(game, "1 draw")  # the pile is empty: R5 and W are reshuffled, W (on top) drawn
    assert [c.code for c in rnd.discard] == ["B1"]
    assert rnd.color is Color.BLUE
    assert rnd.drawn_card is not None
    assert rnd.drawn_card.code == "W"
    act(game, "1 play W")
    assert rnd.phase is Phase.CHOOSE_COLOR  # a plain wild again: a new color is needed
    act(game, "1 color G")
    assert (rnd.color, rnd.turn) == (Color.GREEN, 0)


def test_O16_nothing_left_to_draw_passes_the_turn() -> None:
    game = prepared_game(official(), ["G1 G2", "B1 B2"], top="R5", rest=False)
    events = act(game, "1 draw")
    assert [(e.seat, e.count) for e in of_type(events, Drew)] == [(1, 0)]
    assert [e.seat for e in of_type(events, Passed)] == [1]
    assert game.round.turn == 0
    assert (hand(game, 0), hand(game, 1)) == (cards("G1 G2"), cards("B1 B2"))


def test_O16_a_penalty_draws_only_what_exists() -> None:
    game = prepared_game(official(), ["G1 G2", "R+2 B2"], top="R5", rest=False)
    events = act(game, "1 play R+2")  # only R5 (under the top) can be drawn
    assert [(e.seat, e.count) for e in of_type(events, Drew)] == [(0, 1)]
    assert hand(game, 0) == cards("G1 G2 R5")
    assert game.round.turn == 1  # seat 0 still loses its turn
    assert (game.round.draw_pile, [c.code for c in game.round.discard]) == ([], ["R+2"])


KIDS1_HANDS = ["G1 G2 G3 G4 G6", "R9 B5 Y7 Y8 Y9", "G7 B6 B7 B8 G8"]


def test_K1_3_kids_match_color_or_number() -> None:
    game = prepared_game(kids1(), KIDS1_HANDS, top="R5", first_player=1)
    refused(game, "1 play Y7", "O10")
    act(game, "1 play B5")  # number
    act(game, "2 play B6")  # color
    assert (game.round.color, game.round.turn) == (Color.BLUE, 0)


def test_K1_4_no_voluntary_draw_and_a_playable_drawn_card_must_be_played() -> None:
    game = prepared_game(kids1(), KIDS1_HANDS, top="R5", draw="G9 Y3", first_player=1)
    refused(game, "1 draw", "K1-4")  # R9 and B5 fit
    assert all(type(a).__name__ != "Draw" for a in game.legal_actions(1))
    act(game, "1 play R9", "2 draw")  # nothing red or 9 in seat 2's hand; draws G9
    rnd = game.round
    assert (rnd.phase, rnd.actor) == (Phase.DRAWN, 2)
    refused(game, "2 pass", "K1-4")
    refused(game, "2 play B6", "O13")
    # A card not held is refused as such, not as "only the card you drew".
    assert "do not hold" in refused(game, "2 play R1", "O10").message
    act(game, "2 play G9")
    assert (rnd.turn, rnd.top.code) == (0, "G9")


def test_K1_4_unplayable_drawn_card_passes() -> None:
    game = prepared_game(kids1(), KIDS1_HANDS, top="R3", draw="Y1", first_player=2)
    act(game, "2 draw")
    assert (game.round.turn, hand(game, 2)) == (0, cards("G7 B6 B7 B8 G8 Y1"))


KIDS2_HANDS = ["G1 G2 G3 G4 G6", "GS B5 Y7 W R+2", "YS B6 B7 G+2 B9"]


def test_K2_3_kids2_match_color_value_or_symbol() -> None:
    game = prepared_game(kids2(), KIDS2_HANDS, top="R5", first_player=1)
    refused(game, "1 play Y7", "O10")
    refused(game, "1 play GS", "O10")
    act(game, "1 play B5")
    refused(game, "2 play YS", "O10")
    act(game, "2 play B7", "0 draw")  # seat 0 has nothing blue or 7; draws the next card
    game2 = prepared_game(kids2(), KIDS2_HANDS, top="RS", first_player=1)
    assert game2.round.turn == 2  # the Skip turned over skipped seat 1
    act(game2, "2 play YS")  # symbol on symbol; seat 0 is skipped
    assert game2.round.turn == 1
    act(game2, "1 play Y7")


def test_K2_8_kids2_must_play_rather_than_draw_and_must_play_a_fitting_drawn_card() -> None:
    game = prepared_game(kids2(), KIDS2_HANDS, top="R5", draw="G8", first_player=0)
    act(game, "0 draw")  # nothing red or 5: must draw; G8 does not fit
    assert (game.round.turn, hand(game, 0)) == (1, cards("G1 G2 G3 G4 G6 G8"))
    refused(game, "1 draw", "K2-8")
    game = prepared_game(kids2(), KIDS2_HANDS, top="R0", draw="R7", first_player=0)
    act(game, "0 draw")
    refused(game, "0 pass", "K2-8")
    # A second draw is refused by the same rule, not with "play the card you drew, or pass".
    again = refused(game, "0 draw", "K2-8")
    assert "must be played" in again.message
    assert "pass" not in again.message
    assert [str(a) for a in game.legal_actions(0)] == ["0 play R7"]
    act(game, "0 play R7")
    assert game.round.turn == 1
