"""The line client's actions: the wire's notation in English, French words and cards in
French, and either read at any table (ui/typed.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lanuno.engine.actions import parse_action
from lanuno.engine.cards import DeckKind, build_deck
from lanuno.ui.i18n import translator
from lanuno.ui.typed import ActionWords, read_card

EN = ActionWords(translator("en"))
FR = ActionWords(translator("fr"))


@pytest.mark.parametrize(
    ("typed", "wire"),
    [
        ("Play r7", "play R7"),
        ("  draw ", "draw"),
        ("play w+4 b", "play W+4 B"),
        ("jouer J7", "play Y7"),
        ("jouer v+2", "play G+2"),
        ("Jouer JPa", "play YS"),
        ("jouer rin", "play RR"),
        ("jouer Jok V", "play W G"),
        ("jouer J+4 j", "play W+4 Y"),  # as the French screens once wrote it
        ("jouer +4 j", "play W+4 Y"),
        ("jouer ?", "play X"),
        ("piocher", "draw"),
        ("Passer", "pass"),
        ("couleur V", "color G"),
        ("couleur rouge", "color R"),
        ("couleur verte", "color G"),
        ("jouer Jok bleue", "play W B"),
        ("jouer Jok Bleu", "play W B"),
        ("play W+4 green", "play W+4 G"),
        ("contre-uno 2", "catch 1"),
        ("catch 2", "catch 1"),
        ("échanger 3", "swap 2"),
        ("echanger 3", "swap 2"),
        ("donner 1 3", "give 0 2"),
        ("viser 4", "target 3"),
        ("remettre B5", "return B5"),
        ("contester", "challenge"),
        ("prendre", "accept"),
        ("UNO", "uno"),
    ],
)
def test_either_language_is_read_at_either_table(typed: str, wire: str) -> None:
    assert EN.read(typed) == wire
    assert FR.read(typed) == wire


@pytest.mark.parametrize("typed", ["", "jouez R7", "catch 0", "catch two", "couleur N", "play Q7"])
def test_what_is_not_an_action_is_refused_before_it_is_sent(typed: str) -> None:
    with pytest.raises(ValueError):
        FR.read(typed)


@pytest.mark.parametrize(
    ("wire", "english", "french"),
    [
        ("play YS", "play YS", "jouer JPa"),
        ("play W G", "play W G", "jouer Jok V"),
        ("play W+4 Y", "play W+4 Y", "jouer +4 J"),
        ("play G+2", "play G+2", "jouer V+2"),
        ("draw", "draw", "piocher"),
        ("catch 1", "catch 2", "contre-uno 2"),
        ("give 0 2", "give 1 3", "donner 1 3"),
        ("color B", "color B", "couleur B"),
        ("return RR", "return RR", "remettre RIn"),
        ("timeout", "timeout", "timeout"),  # the host's alone: never offered, still shown
    ],
)
def test_an_action_is_shown_in_the_tables_language_with_seats_from_one(
    wire: str, english: str, french: str
) -> None:
    assert EN.show(wire) == english
    assert FR.show(wire) == french


@given(st.sampled_from(sorted({card.code for card in build_deck(DeckKind.WITH_BLANKS)})))
def test_every_card_as_french_writes_it_reads_back_as_itself(code: str) -> None:
    assert read_card(FR.card(code)) == code
    assert read_card(code) == code


@pytest.mark.parametrize(
    "wire",
    [
        "play R7",
        "play W+4 B",
        "play W G",
        "draw",
        "pass",
        "color Y",
        "catch 3",
        "swap 1",
        "give 0 2",
        "target 2",
        "return G+2",
        "challenge",
        "accept",
        "uno",
    ],
)
def test_what_is_shown_in_french_reads_back_as_the_same_action(wire: str) -> None:
    assert FR.read(FR.show(wire)) == wire
    assert EN.read(EN.show(wire)) == wire
    parse_action(f"0 {wire}")  # and it is the wire's notation
