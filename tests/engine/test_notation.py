"""Card and action notation: every face and every action round-trips through its text."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lanuno.engine.actions import (
    ACTION_TYPES,
    AcceptPenalty,
    Action,
    Challenge,
    ChooseColor,
    ChooseTarget,
    CounterUno,
    DeclareUno,
    Draw,
    Give,
    Pass,
    Play,
    ReturnCard,
    SwapHands,
    Timeout,
    parse_action,
)
from lanuno.engine.cards import (
    ALL_FACES,
    COLORS,
    Card,
    Color,
    DeckKind,
    Rank,
    build_deck,
    format_cards,
    parse_card,
    parse_cards,
)

faces = st.sampled_from(ALL_FACES)
colors = st.sampled_from(COLORS)
seats = st.integers(min_value=0, max_value=9)


def test_the_documented_examples() -> None:
    assert [str(c) for c in parse_cards("R7 G+2 BS YR W W+4 X")] == [
        "R7",
        "G+2",
        "BS",
        "YR",
        "W",
        "W+4",
        "X",
    ]
    card = parse_card("G+2")
    assert (card.color, card.rank) == (Color.GREEN, Rank.DRAW_TWO)
    assert parse_card("W+4").color is None
    assert str(parse_action("2 play W+4")) == "2 play W+4"
    assert parse_action("1 play W+4 B") == Play(1, parse_card("W+4"), Color.BLUE)


def test_every_face_has_a_distinct_code_that_parses_back() -> None:
    codes = [card.code for card in ALL_FACES]
    assert len(set(codes)) == len(ALL_FACES) == 4 * 13 + 3
    for card in ALL_FACES:
        assert parse_card(card.code) is card
        assert parse_card(f"  {card.code.lower()} ") is card
        assert Card(card.color, card.rank) is card
    # Every card of every deck is one of the faces.
    for kind in DeckKind:
        assert set(build_deck(kind)) <= set(ALL_FACES)


@pytest.mark.parametrize("text", ["", "R", "R10", "P5", "G+4", "WW", "B+", "X1", "7R"])
def test_bad_card_text_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_card(text)


@given(st.lists(faces, max_size=30))
def test_card_lists_round_trip(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == cards


def wild_or_not(seat: int, card: Card, color: Color) -> Play:
    return Play(seat, card, color if card.is_wild else None)


actions: st.SearchStrategy[Action] = st.one_of(
    st.builds(Play, seats, faces),
    st.builds(wild_or_not, seats, st.sampled_from([c for c in ALL_FACES if c.is_wild]), colors),
    st.builds(Draw, seats),
    st.builds(Pass, seats),
    st.builds(ChooseColor, seats, colors),
    st.builds(Challenge, seats),
    st.builds(AcceptPenalty, seats),
    st.builds(DeclareUno, seats),
    st.builds(CounterUno, seats, seats),
    st.builds(Give, seats, st.lists(seats, min_size=1, max_size=2).map(tuple)),
    st.builds(ChooseTarget, seats, seats),
    st.builds(SwapHands, seats, seats),
    st.builds(ReturnCard, seats, faces),
    st.builds(Timeout, seats),
)


@given(actions)
def test_actions_round_trip(action: Action) -> None:
    text = str(action)
    assert parse_action(text) == action
    assert str(parse_action(text)) == text
    assert parse_action(f"  {text.upper()}  ") == action  # case and spaces do not matter


def test_the_strategy_covers_every_action_type() -> None:
    covered = {
        Play,
        Draw,
        Pass,
        ChooseColor,
        Challenge,
        AcceptPenalty,
        DeclareUno,
        CounterUno,
        Give,
        ChooseTarget,
        SwapHands,
        ReturnCard,
        Timeout,
    }
    assert covered == set(ACTION_TYPES)
    assert len({cls.verb for cls in ACTION_TYPES}) == len(ACTION_TYPES)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "1",
        "draw",
        "x draw",
        "1 dance",
        "1 play",
        "1 play Q9",
        "1 play R7 B G",
        "1 play W P",
        "1 give",
        "1 give 0 2 3",
        "1 give a",
        "1 color",
        "1 color P",
        "1 catch",
        "1 catch x",
        "1 draw 3",
        "1 return",
    ],
)
def test_bad_action_text_is_refused_with_a_reason(text: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_action(text)
    assert str(info.value)
