"""Seat and table views: who may see what (DESIGN: events with an audience, views as
projections), and views pinned to the moment they were made."""

from __future__ import annotations

import pytest
from prepared import act, cards, prepared_game

from lanuno.engine.actions import Draw, Play
from lanuno.engine.cards import Card
from lanuno.engine.errors import IllegalAction
from lanuno.engine.events import CardsDrawn, HandDealt
from lanuno.engine.phases import Phase
from lanuno.engine.rules import kids2, official
from lanuno.engine.views import SeatView, StaleView, TableView

HANDS = ["G1 G2 G3", "R9 B5 Y7", "G5 B6 YS"]


def codes(hand: tuple[Card, ...]) -> list[str]:
    return sorted((c.code for c in hand), key=lambda code: Card.parse(code).index)


def test_a_seat_view_shows_its_own_hand_only() -> None:
    game = prepared_game(official(), HANDS, top="R5", draw="B7")
    for seat, text in enumerate(HANDS):
        view = game.seat_view(seat)
        assert codes(view.hand) == cards(text)
        assert view.table.counts == (3, 3, 3)
        private = view.private_log
        assert private
        assert all(e.audience == seat for e in private)
        dealt = [e for e in private if isinstance(e, HandDealt)]
        assert [e.seat for e in dealt] == [seat]
    assert not hasattr(game.seat_view(0), "hands")
    assert game.seat_view(1).my_turn
    assert not game.seat_view(0).my_turn


def test_a_seat_sees_the_cards_it_draws_and_nobody_else_does() -> None:
    game = prepared_game(official(), ["G1 G2 G3", "Y1 Y2 Y3", "B1 B2 B3"], top="R5", draw="B7")
    act(game, "1 draw")
    drawn = [e for e in game.seat_view(1).private_log if isinstance(e, CardsDrawn)]
    assert [tuple(c.code for c in e.cards) for e in drawn] == [("B7",)]
    for seat in (0, 2):
        assert not [e for e in game.seat_view(seat).private_log if isinstance(e, CardsDrawn)]
    assert not [e for e in game.table_view().log if isinstance(e, CardsDrawn)]
    assert game.table_view().counts == (3, 4, 3)


def test_the_table_view_has_no_hand_and_no_hidden_card() -> None:
    game = prepared_game(official(), HANDS, top="R5", draw="B7 B8")
    view = game.table_view()
    assert not hasattr(view, "hand")
    assert not hasattr(view, "hands")
    assert not hasattr(view, "draw_pile")
    assert all(e.audience is None for e in view.log)
    hidden = {c for hand in game.round.hands for c in hand} | set(game.round.draw_pile)
    hidden -= set(game.round.discard)
    # Read every public property: none of them holds a card that is not face up.
    for name in dir(TableView):
        if isinstance(getattr(TableView, name), property):
            value = getattr(view, name)
            found = value if isinstance(value, tuple) else (value,)
            assert not any(isinstance(v, Card) and v in hidden for v in found), name
    assert (view.top.code, view.draw_pile_size, view.counts) == ("R5", 108 - 9 - 1, (3, 3, 3))
    assert (view.phase, view.actor, view.turn, view.direction) == (Phase.TURN, 1, 1, 1)


def test_legal_actions_in_a_seat_view() -> None:
    game = prepared_game(official(), HANDS, top="R5")
    legal = game.seat_view(1).legal
    assert Play(1, Card.parse("R9")) in legal
    assert Draw(1) in legal
    assert game.seat_view(0).legal == ()


def test_a_view_raises_stale_view_after_the_round_moves_on() -> None:
    game = prepared_game(official(), HANDS, top="R5")
    seat_view = game.seat_view(1)
    legal = seat_view.legal  # cached, but still refused once stale
    table_view = game.table_view()
    assert Play(1, Card.parse("B5")) in legal
    act(game, "1 play B5")
    for read in (
        lambda: seat_view.hand,
        lambda: seat_view.legal,
        lambda: seat_view.my_turn,
        lambda: seat_view.private_log,
        lambda: table_view.top,
        lambda: table_view.counts,
    ):
        with pytest.raises(StaleView):
            read()
    assert game.table_view().top.code == "B5"


def test_a_miss_counter_uno_also_moves_the_round_on() -> None:
    game = prepared_game(official(), HANDS, top="R5")
    view = game.table_view()
    act(game, "0 catch 2")
    with pytest.raises(StaleView):
        _ = view.log


def test_a_refused_action_leaves_views_readable() -> None:
    game = prepared_game(official(), HANDS, top="R5")
    view = game.seat_view(1)
    with pytest.raises(IllegalAction):
        game.apply(Play(1, Card.parse("Y7")))
    assert codes(view.hand) == cards("R9 B5 Y7")


def test_a_snapshot_stays_readable() -> None:
    game = prepared_game(official(), HANDS, top="R5")
    seat_snapshot = game.seat_view(1).snapshot()
    table_snapshot = game.table_view().snapshot()
    act(game, "1 play B5", "2 play B6")
    assert isinstance(seat_snapshot, SeatView)
    assert codes(seat_snapshot.hand) == cards("R9 B5 Y7")
    assert seat_snapshot.my_turn
    assert Play(1, Card.parse("B5")) in seat_snapshot.legal
    assert seat_snapshot.table.top.code == "R5"
    assert (table_snapshot.top.code, table_snapshot.turn) == ("R5", 1)
    assert game.table_view().top.code == "B6"


def test_drawn_and_gift_are_shown_to_the_actor_only() -> None:
    game = prepared_game(official(), ["G1 G2", "Y1 Y2", "B1 B2"], top="R5", draw="R8")
    act(game, "1 draw")
    assert game.seat_view(1).drawn == Card.parse("R8")
    assert game.seat_view(0).drawn is None
    game = prepared_game(
        kids2(), ["G1 G2", "R+2 Y2", "B1 B2"], top="R5", draw="Y7 Y8", first_player=1
    )
    act(game, "1 play R+2")
    assert [c.code for c in game.seat_view(1).gift] == ["Y7", "Y8"]
    assert game.seat_view(2).gift == ()
