"""The table, the deck, the deal and the first card turned over (O1-O9, K1-1, K1-2, K2-1, K2-2)."""

from __future__ import annotations

from collections import Counter

import pytest
from prepared import Deal, act, cards, hand, of_type, prepared_game, refused

from lanuno.engine.cards import COLORS, Card, Rank
from lanuno.engine.events import CardReturned, CardTurned, DirectionChanged, Skipped
from lanuno.engine.game import Game, SeatInfo
from lanuno.engine.phases import Phase
from lanuno.engine.rules import kids1, kids2, official


def all_cards(game: Game) -> Counter[str]:
    rnd = game.round
    every = [*rnd.draw_pile, *rnd.discard, *(c for h in rnd.hands for c in h)]
    return Counter(card.code for card in every)


def test_O1_two_to_ten_seats() -> None:
    for n in (2, 10):
        game = Game(official(), n, seed=1)
        assert len(game.round.hands) == n
    for n in (0, 1, 11):
        with pytest.raises(ValueError):
            Game(official(), n, seed=1)


def test_O1_action_from_a_seat_that_does_not_exist_is_refused() -> None:
    game = prepared_game(official(), ["R1 R2", "G1 G2", "B1 B2"], top="R5")
    refused(game, "3 draw", "O1")
    refused(game, "-1 draw", "O1")


def expected_standard_deck() -> Counter[str]:
    # O2, written out from the rule text.
    deck: Counter[str] = Counter()
    for color in "RYGB":
        deck[f"{color}0"] += 1
        for face in [*"123456789", "S", "R", "+2"]:
            deck[f"{color}{face}"] += 2
    deck["W"] += 4
    deck["W+4"] += 4
    return deck


def test_O2_the_official_deck_has_108_cards() -> None:
    game = Game(official(), 4, seed=7)
    assert sum(all_cards(game).values()) == 108
    assert all_cards(game) == expected_standard_deck()


def test_O3_seven_cards_each_and_one_card_turned() -> None:
    game = Game(official(), 4, seed=3)
    rnd = game.round
    assert [len(h) for h in rnd.hands] == [7, 7, 7, 7]
    assert len(rnd.discard) == 1
    assert len(rnd.draw_pile) == 108 - 4 * 7 - 1


def test_O3_the_first_card_of_the_draw_pile_starts_the_discard_pile() -> None:
    hands = ["R1 R2 R3 R4 R5 R6 R7", "G1 G2 G3 G4 G5 G6 G7", "B1 B2 B3 B4 B5 B6 B7"]
    game = prepared_game(official(), hands, top="Y9", draw="Y8 Y7")
    assert [c.code for c in game.round.discard] == ["Y9"]
    assert game.round.draw_pile[-1].code == "Y8"
    assert of_type(game.round.events, CardTurned)[0].card.code == "Y9"


def test_O4_first_dealer_comes_from_the_seeded_shuffler_and_left_of_dealer_starts() -> None:
    game = prepared_game(official(), ["R1", "G1", "B1", "Y1"], top="R5", dealer=2)
    assert game.dealer == 2
    assert game.round.turn == 3
    # Reproducible from the seed: same seed, same dealer and same hands.
    a, b = Game(official(), 5, seed="abc"), Game(official(), 5, seed="abc")
    assert a.dealer == b.dealer
    assert a.round.hands == b.round.hands
    # Random: different seeds do not all give the same first dealer.
    assert len({Game(official(), 5, seed=s).dealer for s in range(30)}) > 1


def test_O4_play_goes_clockwise() -> None:
    game = prepared_game(official(), ["R1 R2", "R3 R4", "R6 R7"], top="R5", dealer=0)
    assert game.round.turn == 1
    act(game, "1 play R3")
    assert game.round.turn == 2
    act(game, "2 play R6")
    assert game.round.turn == 0


def test_O4_the_dealer_rotates_clockwise_each_round() -> None:
    later = [Deal(["G1", "R1", "B1"], top="R5"), Deal(["G2", "B2", "Y2"], top="Y5")]
    game = prepared_game(official(), ["R1", "G1", "B1"], top="R5", dealer=2, later=later)
    assert (game.dealer, game.round.turn) == (2, 0)
    act(game, "0 play R1")
    game.next_round()
    assert (game.dealer, game.round.turn) == (0, 1)
    act(game, "1 play R1")
    game.next_round()
    assert (game.dealer, game.round.turn) == (1, 2)
    assert hand(game, 2) == ["Y2"]


def test_O5_wild_turned_over_first_player_chooses_the_color_then_plays() -> None:
    game = prepared_game(official(), ["R1 G2", "B1 Y2", "G3 G4"], top="W", dealer=0)
    rnd = game.round
    assert (rnd.phase, rnd.actor) == (Phase.CHOOSE_COLOR, 1)
    refused(game, "1 play B1", "O11")
    refused(game, "2 color G", "O10")
    act(game, "1 color Y")
    assert (rnd.phase, rnd.turn, rnd.color) == (Phase.TURN, 1, COLORS[1])
    refused(game, "1 play B1", "O10")  # yellow now, B1 does not match
    act(game, "1 play Y2")
    assert rnd.turn == 2


def test_O6_draw_two_turned_over_first_player_draws_two_and_is_skipped() -> None:
    game = prepared_game(official(), ["R1 G2", "B1 Y2", "G3 G4"], top="R+2", draw="B7 B8 B9")
    rnd = game.round
    assert hand(game, 1) == cards("B1 Y2 B7 B8")
    assert [e.seat for e in of_type(rnd.events, Skipped)] == [1]
    assert (rnd.phase, rnd.turn) == (Phase.TURN, 2)
    assert rnd.pending_penalty == 0


def test_O7_skip_turned_over_first_player_is_skipped() -> None:
    game = prepared_game(official(), ["R1 G2", "B1 Y2", "G3 G4"], top="GS")
    assert [e.seat for e in of_type(game.round.events, Skipped)] == [1]
    assert game.round.turn == 2
    assert len(game.round.hands[1]) == 2


def test_O8_reverse_turned_over_dealer_plays_first_then_counter_clockwise() -> None:
    game = prepared_game(official(), ["G1 G2", "G3 Y2", "G5 G6", "G7 G8"], top="GR", dealer=0)
    rnd = game.round
    assert rnd.direction == -1
    assert of_type(rnd.events, DirectionChanged)
    assert rnd.turn == 0
    act(game, "0 play G1")
    assert rnd.turn == 3
    act(game, "3 play G7")
    assert rnd.turn == 2


def test_O9_wild_draw_four_turned_over_goes_back_and_another_card_is_turned() -> None:
    game = prepared_game(official(), ["R1 G2", "B1 Y2"], top="W+4", draw="B5 B6")
    rnd = game.round
    assert [e.card.code for e in of_type(rnd.events, CardReturned)] == ["W+4"]
    assert [c.code for c in rnd.discard] == ["B5"]
    assert Card.parse("W+4") in rnd.draw_pile
    assert "round 1 redeal 1" in game.shuffler.purposes  # type: ignore[attr-defined]
    assert (rnd.phase, rnd.turn, rnd.color) == (Phase.TURN, 1, COLORS[3])


def test_K1_1_kids1_deck_is_the_76_number_cards() -> None:
    game = Game(kids1(), 3, seed=5, first_player=0)
    deck = all_cards(game)
    assert sum(deck.values()) == 76
    expected = {code: n for code, n in expected_standard_deck().items() if code[1:].isdigit()}
    assert deck == expected


def test_K1_2_five_cards_each_youngest_starts_clockwise() -> None:
    rules = kids1()
    game = Game(rules, [SeatInfo(age=6), SeatInfo(age=4), SeatInfo(age=5)], seed=2)
    rnd = game.round
    assert [len(h) for h in rnd.hands] == [5, 5, 5]
    assert rnd.turn == 1
    assert len(rnd.discard) == 1
    prepared = prepared_game(
        rules,
        ["R1 R2 R3 R4 R6", "R7 R8 R9 G1 G2", "G3 G4 G6 G7 G8"],
        top="R5",
        draw="B1",
        ages=[6, 4, 5],
    )
    assert [c.code for c in prepared.round.discard] == ["R5"]
    act(prepared, "1 play R7")
    assert prepared.round.turn == 2
    assert prepared.round.direction == 1


def test_K1_2_host_picks_who_starts_when_nobody_gave_an_age() -> None:
    game = Game(kids1(), 4, seed=2, first_player=2)
    assert game.round.turn == 2
    game = prepared_game(kids1(), ["R1", "G1", "B1"], top="R5", first_player=1)
    assert game.round.turn == 1


def test_K2_1_kids2_deck_is_the_official_deck_plus_four_blanks() -> None:
    game = Game(kids2(), 3, seed=5, first_player=0)
    deck = all_cards(game)
    assert sum(deck.values()) == 112
    assert deck == expected_standard_deck() + Counter({"X": 4})


def test_K2_2_five_cards_youngest_starts_blank_turned_over_is_returned() -> None:
    game = Game(kids2(), [SeatInfo(age=9), SeatInfo(age=8), SeatInfo(age=12)], seed=4)
    assert [len(h) for h in game.round.hands] == [5, 5, 5]
    assert game.round.turn == 1
    game = prepared_game(
        kids2(), ["R1 R2", "G1 G2", "B1 B2"], top="X", draw="G5 G6", ages=[9, 8, 12]
    )
    rnd = game.round
    assert [e.card.code for e in of_type(rnd.events, CardReturned)] == ["X"]
    assert [c.code for c in rnd.discard] == ["G5"]
    assert (rnd.turn, rnd.phase) == (1, Phase.TURN)
    act(game, "1 play G1")
    assert rnd.turn == 2


def test_K2_2_first_card_rules_O5_to_O9_apply() -> None:
    # A Skip turned over skips the youngest, who would have started.
    game = prepared_game(kids2(), ["R1 R2", "G1 G2", "B1 B2"], top="BS", ages=[9, 8, 12])
    assert [e.seat for e in of_type(game.round.events, Skipped)] == [1]
    assert game.round.turn == 2
    # A Wild turned over: the youngest picks the color.
    game = prepared_game(kids2(), ["R1 R2", "G1 G2", "B1 B2"], top="W", ages=[9, 8, 12])
    assert (game.round.phase, game.round.actor) == (Phase.CHOOSE_COLOR, 1)
    # A Wild Draw Four turned over goes back (O9).
    game = prepared_game(
        kids2(), ["R1 R2", "G1 G2", "B1 B2"], top="W+4", draw="Y3", ages=[9, 8, 12]
    )
    assert [c.code for c in game.round.discard] == ["Y3"]
    assert game.round.discard[-1].rank is Rank.THREE
