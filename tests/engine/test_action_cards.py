"""Action cards: Skip, Reverse, Draw Two, Wild Draw Four and the challenge (O17-O22),
and the kids2 action cards (K2-4 to K2-7)."""

from __future__ import annotations

from prepared import act, cards, hand, of_type, prepared_game, refused

from lanuno.engine.actions import Challenge
from lanuno.engine.cards import Color
from lanuno.engine.events import (
    CardsReceived,
    Challenged,
    DirectionChanged,
    Drew,
    Gave,
    HandRevealed,
    PileDealtOut,
    Skipped,
)
from lanuno.engine.phases import Phase
from lanuno.engine.rules import kids2, official, with_options

# dealer 0: seat 1 plays first.


def test_O17_skip_the_next_player_loses_their_turn() -> None:
    game = prepared_game(official(), ["R1 R2", "RS G2", "R3 G3"], top="R5")
    events = act(game, "1 play RS")
    assert [e.seat for e in of_type(events, Skipped)] == [2]
    assert game.round.turn == 0
    assert hand(game, 2) == cards("R3 G3")


def test_O17_skip_with_two_players_plays_again() -> None:
    game = prepared_game(official(), ["R1 R2 R3", "RS R7 G3"], top="R5")
    act(game, "1 play RS")
    assert game.round.turn == 1
    act(game, "1 play R7")
    assert game.round.turn == 0


def test_O18_reverse_changes_the_direction() -> None:
    game = prepared_game(official(), ["R1 R2", "RR G2", "R3 G3", "R4 G4"], top="R5")
    events = act(game, "1 play RR")
    assert [e.direction for e in of_type(events, DirectionChanged)] == [-1]
    assert game.round.turn == 0
    act(game, "0 play R1")
    assert game.round.turn == 3


def test_O18_reverse_with_two_players_acts_as_a_skip() -> None:
    game = prepared_game(official(), ["R1 R2 R3", "RR G2 G3"], top="R5")
    events = act(game, "1 play RR")
    assert [e.seat for e in of_type(events, Skipped)] == [0]
    assert game.round.turn == 1


def test_O19_draw_two_next_player_draws_two_and_loses_their_turn() -> None:
    game = prepared_game(official(), ["R1 R2", "R+2 G2", "R3 G3"], top="R5", draw="B7 B8 B9")
    events = act(game, "1 play R+2")
    assert [(e.seat, e.count) for e in of_type(events, Drew)] == [(2, 2)]
    assert hand(game, 2) == cards("R3 G3 B7 B8")
    assert [e.seat for e in of_type(events, Skipped)] == [2]
    assert (game.round.phase, game.round.turn, game.round.pending_penalty) == (Phase.TURN, 0, 0)


WD4_HANDS = ["G1 G2 G3", "R9 W+4 Y2", "R3 G5 Y5"]


def test_O20_wild_draw_four_next_player_draws_four_and_loses_their_turn() -> None:
    game = prepared_game(official(), WD4_HANDS, top="R5", draw="B1 B2 B3 B4 B6")
    act(game, "1 play W+4 G")
    rnd = game.round
    assert (rnd.phase, rnd.actor, rnd.pending_penalty) == (Phase.PENALTY, 2, 4)
    assert rnd.color is Color.GREEN
    assert {str(a) for a in game.legal_actions(2)} >= {"2 accept", "2 challenge"}
    refused(game, "2 draw", "O19")
    refused(game, "2 play G5", "T1")  # no stacking at this table
    refused(game, "0 accept", "O10")
    act(game, "2 accept")
    assert hand(game, 2) == cards("R3 G5 Y5 B1 B2 B3 B4")
    assert (rnd.phase, rnd.turn, rnd.color) == (Phase.TURN, 0, Color.GREEN)


def test_O21_bluff_caught_the_bluffer_draws_four_and_the_challenger_plays() -> None:
    game = prepared_game(official(), WD4_HANDS, top="R5", draw="B1 B2 B3 B4 B6")
    act(game, "1 play W+4 G")  # seat 1 held R9: a bluff
    events = act(game, "2 challenge")
    assert [(e.challenger, e.target, e.bluff) for e in of_type(events, Challenged)] == [
        (2, 1, True)
    ]
    assert hand(game, 1) == cards("R9 Y2 B1 B2 B3 B4")
    assert hand(game, 2) == cards("R3 G5 Y5")
    rnd = game.round
    assert (rnd.phase, rnd.turn, rnd.color) == (Phase.TURN, 2, Color.GREEN)  # color stands
    act(game, "2 play G5")  # a normal turn
    assert rnd.turn == 0


def test_O21_no_bluff_the_challenger_draws_six_and_loses_their_turn() -> None:
    # B5 matches the top card by number only: it does not make the Wild Draw Four a bluff.
    hands = ["G1 G2 G3", "B5 W+4 Y2", "R3 G5 Y5"]
    game = prepared_game(official(), hands, top="R5", draw="B1 B2 B3 B4 B6 B7 B8")
    act(game, "1 play W+4 Y")
    events = act(game, "2 challenge")
    assert [e.bluff for e in of_type(events, Challenged)] == [False]
    assert hand(game, 1) == cards("B5 Y2")
    assert hand(game, 2) == cards("R3 G5 Y5 B1 B2 B3 B4 B6 B7")
    assert [e.seat for e in of_type(events, Skipped)] == [2]
    rnd = game.round
    assert (rnd.phase, rnd.turn, rnd.color) == (Phase.TURN, 0, Color.YELLOW)


def test_O21_the_challenged_hand_is_shown_to_the_challenger_alone() -> None:
    game = prepared_game(official(), WD4_HANDS, top="R5", draw="B1 B2 B3 B4 B6")
    act(game, "1 play W+4 G")
    events = act(game, "2 challenge")
    revealed = of_type(events, HandRevealed)
    assert [(e.audience, e.owner) for e in revealed] == [(2, 1)]
    assert sorted(c.code for c in revealed[0].cards) == cards("R9 Y2")
    assert revealed[0] in game.seat_view(2).private_log
    assert all(not isinstance(e, HandRevealed) for e in game.table_view().log)
    for seat in (0, 1):
        assert all(not isinstance(e, HandRevealed) for e in game.seat_view(seat).private_log)


def test_O21_the_hand_is_judged_as_it_was_when_the_card_was_played() -> None:
    # Seat 1 bluffs with its second-to-last card; caught at once by Counter-UNO, it draws
    # two cards (one of them green, the new color) before the challenge.
    game = prepared_game(official(), ["G1 G2", "R9 W+4", "R3 G5"], top="R5", draw="G7 B1 B2")
    act(game, "1 play W+4 G", "0 catch 1")
    assert hand(game, 1) == cards("R9 G7 B1")
    events = act(game, "2 challenge")
    assert [e.bluff for e in of_type(events, Challenged)] == [True]
    assert sorted(c.code for c in of_type(events, HandRevealed)[0].cards) == ["R9"]


def test_O21_only_a_wild_draw_four_can_be_challenged() -> None:
    rules = with_options(official(), ["stacking"])
    game = prepared_game(rules, ["G1 G2", "R+2 Y2", "G+2 G5"], top="R5")
    act(game, "1 play R+2")
    assert (game.round.phase, game.round.actor) == (Phase.PENALTY, 2)
    refused(game, "2 challenge", "O21")
    game = prepared_game(official(), WD4_HANDS, top="R5")
    refused(game, "1 challenge", "O10")  # nothing to challenge on a plain turn


def test_O22_strict_no_challenge_is_offered() -> None:
    strict = with_options(official(), ["wd4=strict"])
    game = prepared_game(
        strict, ["G1 G2 G3", "B9 W+4 Y2", "R3 G5 Y5"], top="R5", draw="B1 B2 B3 B4"
    )
    act(game, "1 play W+4 G")
    # No decision for seat 2: the four cards are drawn at once.
    assert hand(game, 2) == cards("R3 G5 Y5 B1 B2 B3 B4")
    assert (game.round.phase, game.round.turn) == (Phase.TURN, 0)


def test_O22_strict_challenge_refused_even_when_facing_a_wild_draw_four() -> None:
    rules = with_options(official(), ["wd4=strict", "stacking"])
    game = prepared_game(rules, ["G1 G2 G3", "G9 W+4 Y2", "W+4 Y1 Y5"], top="R5")
    act(game, "1 play W+4 B")
    assert (game.round.phase, game.round.actor) == (Phase.PENALTY, 2)
    assert Challenge(2) not in game.legal_actions(2)
    refused(game, "2 challenge", "O22")


GIFT_HANDS = ["G1 G2 G3", "R+2 Y1 Y2", "B1 B2 B3"]


def test_K2_4_draw_two_its_player_gives_one_card_to_each_of_two_opponents() -> None:
    game = prepared_game(kids2(), GIFT_HANDS, top="R5", draw="Y7 Y8", first_player=1)
    act(game, "1 play R+2")
    rnd = game.round
    assert (rnd.phase, rnd.actor) == (Phase.GIFT, 1)
    assert [c.code for c in game.seat_view(1).gift] == ["Y7", "Y8"]
    assert hand(game, 1) == cards("Y1 Y2 Y7 Y8")
    refused(game, "1 give 1 2", "K2-4")  # not to oneself
    refused(game, "1 give 2", "K2-4")  # one recipient per card
    refused(game, "2 give 0 0", "O10")
    events = act(game, "1 give 0 2")
    assert [e.recipients for e in of_type(events, Gave)] == [(0, 2)]
    assert hand(game, 0) == cards("G1 G2 G3 Y7")
    assert hand(game, 2) == cards("B1 B2 B3 Y8")
    assert hand(game, 1) == cards("Y1 Y2")
    assert not of_type(events, Skipped)
    assert (rnd.phase, rnd.turn) == (Phase.TURN, 2)  # play continues: nobody is skipped


def test_K2_4_draw_two_both_cards_to_one_opponent() -> None:
    game = prepared_game(kids2(), GIFT_HANDS, top="R5", draw="Y7 Y8", first_player=1)
    act(game, "1 play R+2", "1 give 0 0")
    assert hand(game, 0) == cards("G1 G2 G3 Y7 Y8")
    assert hand(game, 2) == cards("B1 B2 B3")
    assert game.round.turn == 2


def test_K2_5_kids2_skip_and_reverse_work_as_in_O17_O18() -> None:
    game = prepared_game(kids2(), ["R1 R2", "RS RR", "R3 G3"], top="R5", first_player=1)
    act(game, "1 play RS")
    assert game.round.turn == 0
    game = prepared_game(kids2(), ["R1 R2", "RR RS", "R3 G3"], top="R5", first_player=1)
    act(game, "1 play RR")
    assert (game.round.direction, game.round.turn) == (-1, 0)
    game = prepared_game(kids2(), ["R1 R2", "RR RS"], top="R5", first_player=1)
    act(game, "1 play RR")
    assert game.round.turn == 1


def test_K2_6_kids2_wild_draw_four_on_any_card_no_challenge() -> None:
    hands = ["G1 G2", "R9 W+4", "R3 G5"]
    game = prepared_game(kids2(), hands, top="R5", draw="B1 B2 B3 B4", first_player=1)
    act(game, "1 play W+4 B")  # seat 1 holds R9: still allowed
    assert hand(game, 2) == cards("R3 G5 B1 B2 B3 B4")
    rnd = game.round
    assert (rnd.phase, rnd.turn, rnd.color) == (Phase.TURN, 0, Color.BLUE)
    assert not any(isinstance(a, Challenge) for s in range(3) for a in game.legal_actions(s))
    game = prepared_game(kids2(), ["G1 G2", "R9 W", "R3 G5"], top="R5", first_player=1)
    act(game, "1 play W G")
    assert (game.round.color, game.round.turn) == (Color.GREEN, 2)


def test_K2_7_blank_deals_the_discard_pile_out_and_acts_as_a_wild() -> None:
    hands = ["R2 X G1 G2", "R3 Y1 Y2 Y3", "R4 B1 B2 B3", "R6 B4 B6 B7"]
    game = prepared_game(kids2(), hands, top="R1", draw="G9", first_player=0)
    act(game, "0 play R2", "1 play R3", "2 play R4", "3 play R6")
    rnd = game.round
    under = ["R1", "R2", "R3", "R4", "R6"]
    assert [c.code for c in rnd.discard] == under
    events = act(game, "0 play X")
    # Five cards under the blank, three opponents: one card each, two go under the draw pile.
    assert [c.code for c in rnd.discard] == ["X"]
    assert [len(h) for h in rnd.hands] == [2, 4, 4, 4]
    received = [c.code for s in (1, 2, 3) for c in rnd.hands[s] if c.code in under]
    returned = [c.code for c in rnd.draw_pile[:2]]
    assert sorted(received + returned) == sorted(under)
    assert rnd.draw_pile[-1].code == "G9"  # the next card to draw is unchanged
    assert [(e.seat, e.counts, e.returned) for e in of_type(events, PileDealtOut)] == [
        (0, (0, 1, 1, 1), 2)
    ]
    assert [e.seat for e in of_type(events, CardsReceived)] == [1, 2, 3]
    assert (rnd.phase, rnd.actor) == (Phase.CHOOSE_COLOR, 0)
    act(game, "0 color G")
    assert (rnd.color, rnd.turn) == (Color.GREEN, 1)


def test_K2_7_dealing_starts_with_the_next_player_in_the_current_direction() -> None:
    hands = ["RR X G1 G2", "R3 Y1 Y2 Y3", "R4 B1 B2 B3", "Y4 B4 B6 B7"]
    game = prepared_game(kids2(), hands, top="R1", draw="G9", first_player=0)
    act(game, "0 play RR", "3 draw")  # counter-clockwise; seat 3 cannot play and draws
    act(game, "2 play R4", "1 play R3")
    rnd = game.round
    assert (rnd.turn, rnd.direction, [c.code for c in rnd.discard]) == (
        0,
        -1,
        ["R1", "RR", "R4", "R3"],
    )
    events = act(game, "0 play X Y")
    # Four cards, three opponents: one each starting with seat 3, one card left over.
    assert [e.counts for e in of_type(events, PileDealtOut)] == [(0, 1, 1, 1)]
    assert [e.seat for e in of_type(events, CardsReceived)] == [3, 2, 1]
    assert (rnd.color, rnd.turn) == (Color.YELLOW, 3)
