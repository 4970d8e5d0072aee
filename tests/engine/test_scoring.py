"""End of round, scoring and the end of the game (O27-O30, K1-7, K2-11)."""

from __future__ import annotations

import pytest
from prepared import Deal, act, of_type, prepared_game, refused

from lanuno.engine.actions import Draw
from lanuno.engine.cards import Color
from lanuno.engine.errors import IllegalAction
from lanuno.engine.events import GameEnded, RoundEnded
from lanuno.engine.game import Game
from lanuno.engine.phases import Phase
from lanuno.engine.rules import kids1, kids2, official, with_options

# dealer 0: seat 1 plays first.


def test_O27_the_round_ends_when_a_player_plays_their_last_card() -> None:
    game = prepared_game(official(), ["G1", "R1", "Y3"], top="R5")
    events = act(game, "1 play R1")
    rnd = game.round
    assert (rnd.phase, rnd.winner) == (Phase.ROUND_OVER, 1)
    assert [(e.winner, e.points) for e in of_type(events, RoundEnded)] == [(1, 1 + 3)]
    refused(game, "2 draw", "O27")
    assert rnd.legal_actions(2) == []


def test_O27_a_last_draw_two_is_drawn_first_and_those_cards_count() -> None:
    game = prepared_game(official(), ["G1", "R+2", "Y3"], top="R5", draw="B7 B8")
    events = act(game, "1 play R+2")
    assert [(e.winner, e.points) for e in of_type(events, RoundEnded)] == [(1, 1 + 3 + 7 + 8)]


def test_O27_a_last_wild_draw_four_can_still_be_challenged_and_the_cards_count() -> None:
    draw = "B1 B2 B3 B4 B6 B7"
    game = prepared_game(official(), ["G1", "W+4", "Y3"], top="R5", draw=draw)
    act(game, "1 play W+4 B")
    assert (game.round.phase, game.round.actor, game.round.winner) == (Phase.PENALTY, 2, None)
    events = act(game, "2 challenge")  # no card left, so no bluff: 6 cards
    assert [(e.winner, e.points) for e in of_type(events, RoundEnded)] == [
        (1, 1 + 3 + 1 + 2 + 3 + 4 + 6 + 7)
    ]


def test_O27_no_stacking_on_a_last_card() -> None:
    rules = with_options(official(), ["stacking"])
    game = prepared_game(rules, ["G1", "R+2", "G+2"], top="R5", draw="B7 B8")
    events = act(game, "1 play R+2")  # seat 2 may not pass it on: it draws at once
    assert [(e.winner, e.points) for e in of_type(events, RoundEnded)] == [(1, 1 + 20 + 7 + 8)]


@pytest.mark.parametrize(
    ("loser", "points"),
    [
        ("Y9 G0 B7", 9 + 0 + 7),
        ("GS BR Y+2", 20 + 20 + 20),
        ("W W+4 G+2", 50 + 50 + 20),
    ],
)
def test_O28_the_winner_scores_the_cards_left_in_the_other_hands(loser: str, points: int) -> None:
    game = prepared_game(official(), [loser, "RS RR R1"], top="R5")
    act(game, "1 play RS", "1 uno", "1 play RR", "1 play R1")  # two players: S and R replay
    assert game.round.winner == 1
    assert [e.points for e in of_type(game.round.events, RoundEnded)] == [points]
    assert game.scores == [0, points]


def test_O28_points_of_several_losers_add_up() -> None:
    game = prepared_game(official(), ["R7 W", "R1 RS", "Y3 B+2"], top="R5")
    act(game, "1 uno", "1 play RS", "0 play R7", "1 play R1")  # seat 2 was skipped
    assert game.scores == [0, 50 + 3 + 20, 0]


def assert_game_over(game: Game) -> None:
    for attempt in (game.next_round, lambda: game.apply(Draw(0))):
        with pytest.raises(IllegalAction) as info:
            attempt()
        assert info.value.rule_id == "O29"


ROUND = Deal(["W W W+4", "RS RR R1"], top="R5", draw="B9")
LOSER_ROUND_1 = 50 + 50 + 50
LOSER_ROUND_2 = 50 + 50 + 50 + 9


def play_two_rounds(rules_options: list[str]) -> Game:
    game = prepared_game(
        with_options(official(), rules_options), ROUND.hands, top="R5", later=[ROUND]
    )
    act(game, "1 play RS", "1 uno", "1 play RR", "1 play R1")
    assert game.scores == [0, LOSER_ROUND_1]
    assert not game.over
    game.next_round()
    assert game.round.turn == 0
    act(game, "0 draw", "1 play RS", "1 uno", "1 play RR", "1 play R1")
    assert game.scores == [0, LOSER_ROUND_1 + LOSER_ROUND_2]
    return game


def test_O29_default_target_is_500() -> None:
    assert official().target == 500
    game = play_two_rounds([])
    assert (game.over, game.winner) == (False, None)  # 309 < 500


def test_O29_the_first_player_to_reach_the_target_wins_the_game() -> None:
    game = play_two_rounds(["target=200"])
    assert (game.over, game.winner) == (True, 1)
    assert [(e.winner, e.scores) for e in of_type(game.events, GameEnded)] == [
        (1, (0, LOSER_ROUND_1 + LOSER_ROUND_2))
    ]
    assert_game_over(game)


def test_O29_a_single_round_game() -> None:
    rules = with_options(official(), ["target=none"])
    game = prepared_game(rules, ["G1", "R1"], top="R5")
    act(game, "1 play R1")
    assert (game.over, game.winner) == (True, 1)
    assert_game_over(game)


def test_O30_a_last_wild_still_needs_its_color() -> None:
    game = prepared_game(official(), ["G1", "W", "Y3"], top="R5")
    act(game, "1 play W")
    rnd = game.round
    assert (rnd.phase, rnd.actor, rnd.winner) == (Phase.CHOOSE_COLOR, 1, None)
    refused(game, "2 play Y3", "O10")
    act(game, "1 color Y")
    assert (rnd.phase, rnd.winner, rnd.color) == (Phase.ROUND_OVER, 1, Color.YELLOW)


def test_O30_a_last_wild_draw_four_chooses_its_color_then_the_penalty_is_drawn() -> None:
    game = prepared_game(official(), ["G1", "W+4", "Y3"], top="R5", draw="B1 B2 B3 B4")
    act(game, "1 play W+4")
    assert (game.round.phase, game.round.actor) == (Phase.CHOOSE_COLOR, 1)
    act(game, "1 color G")
    assert (game.round.phase, game.round.actor, game.round.pending_penalty) == (Phase.PENALTY, 2, 4)
    events = act(game, "2 accept")
    assert [(e.winner, e.points) for e in of_type(events, RoundEnded)] == [
        (1, 1 + 3 + 1 + 2 + 3 + 4)
    ]


def test_K1_7_kids1_game_ends_when_a_player_has_no_card_left() -> None:
    game = prepared_game(kids1(), ["G1", "R1", "Y3"], top="R5", first_player=1)
    events = act(game, "1 play R1")
    assert (game.over, game.winner) == (True, 1)
    assert [e.winner for e in of_type(events, GameEnded)] == [1]
    assert_game_over(game)


def test_K2_11_one_point_per_round_first_to_five_wins() -> None:
    deal = Deal(["R1", "G2"], top="R5", draw="B9")
    game = prepared_game(kids2(), deal.hands, top="R5", draw="B9", first_player=1, later=[deal] * 6)
    for won in range(1, 6):
        if game.round.turn == 1:
            act(game, "1 draw")  # nothing fits: draws B9, which does not fit either
        events = act(game, "0 play R1")
        assert [e.points for e in of_type(events, RoundEnded)] == [1]
        assert game.scores == [won, 0]
        if won < 5:
            assert not game.over
            game.next_round()
    assert (game.over, game.winner) == (True, 0)
    assert game.round.round_no == 5
