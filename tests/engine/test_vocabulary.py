"""One vocabulary: the engine defines seat limits, card codes, phases, presets and options;
every layer that keeps its own spelling (the wire's protocol tables, the interface's
words in each language, the playout core) is tied to the engine's here.
"""

from __future__ import annotations

import pytest

import lanuno.bots.fastcore
import lanuno.wire.crypto
import lanuno.wire.messages as wire
from lanuno.engine.cards import ALL_FACES, COLORS
from lanuno.engine.phases import WAITING_FOR, Phase
from lanuno.engine.rules import (
    MAX_SEATS,
    MIN_SEATS,
    OPTION_ALIASES,
    OPTION_NAMES,
    PRESET_NAMES,
    OptionError,
    Rules,
    describe_options,
    format_option,
    official,
    option_name,
    parse_option,
    preset,
    with_options,
)
from lanuno.ui import i18n

CODES = {card.code for card in ALL_FACES}


def test_seat_limits_are_the_engines() -> None:
    assert (MIN_SEATS, MAX_SEATS) == (2, 10)  # O1
    assert wire.MAX_SEATS == MAX_SEATS
    assert lanuno.wire.crypto.MAX_SEATS == MAX_SEATS
    assert lanuno.bots.fastcore.MAX_SEATS == MAX_SEATS


def test_the_wire_spells_the_engines_cards_colors_and_phases() -> None:
    assert set(wire.CARD_CODES) == CODES
    assert set(wire.COLORS) == {color.value for color in COLORS}
    assert set(wire.WILD_CODES) == {card.code for card in ALL_FACES if card.color is None}
    # The wire adds one phase of its own: the game is over (the engine's game, not round).
    assert set(wire.PHASES) == {phase.value for phase in Phase} | {"game_over"}


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_interface_has_words_for_every_card_phase_and_option(lang: str) -> None:
    tr = i18n.translator(lang)
    catalogue = i18n.CATALOGUES[lang]
    for name in OPTION_NAMES:
        if name in ("deck", "hand_size", "first_player", "voluntary_draw", "must_play_drawn"):
            continue  # preset-only options: the lobby shows the preset, not these
        if name in ("counter_uno", "hand_limit", "scoring", "draw_two_gift"):
            continue
        assert f"opt.{name}" in catalogue, (lang, name)
    for phase in Phase:
        assert f"what.{phase.value}" in catalogue, (lang, phase)
    # Every card has words, a code and a large form in every language, and the codes a
    # player reads are all different (French J7 / V7 must not collide).
    written = {tr.code(code) for code in CODES}
    assert len(written) == len(CODES)
    for code in CODES:
        assert tr.card(code)
        assert tr.big(code)


def test_the_engines_waiting_words_match_the_english_interface() -> None:
    for phase, (_rule, what) in WAITING_FOR.items():
        assert i18n.EN[f"what.{phase.value}"] == what


def test_every_option_has_one_canonical_spelling_that_parses_back() -> None:
    rules = with_options(
        official(), ["stacking", "ka1", "target=none", "move_timer=30", "wd4=strict"]
    )
    for name in OPTION_NAMES:
        text = format_option(name, getattr(rules, name))
        assert parse_option(text) == (name, getattr(rules, name)), text
    for alias, name in OPTION_ALIASES.items():
        assert option_name(alias) == name
    # A French host fills the hall form in French.
    assert parse_option("stacking=oui") == ("stacking", True)
    assert parse_option("jump_in=NON") == ("jump_in", False)
    assert parse_option("target=non") == ("target", None)
    for name in PRESET_NAMES:
        assert preset(name).preset == name
        assert Rules.from_dict(preset(name).to_dict()) == preset(name)


@pytest.mark.parametrize(
    ("options", "complaint"),
    [
        (["castling=on"], "unknown option 'castling'"),
        (["preset=kids1"], "unknown option 'preset'"),
        (["stacking=maybe"], "stacking takes on or off"),
        (["target=lots"], "target takes a number or none"),
        (["hand_size=none"], "hand_size takes a number"),
        (["wild_draw_four=sometimes"], "wild_draw_four takes one of challenge, strict, free"),
        ({"jump_in": "perhaps"}, "jump_in takes on or off"),
        ({"timer": True}, "move_timer takes a number or none"),
        ({"nope": 1}, "unknown option 'nope'"),
    ],
)
def test_an_unknown_option_or_value_is_refused_by_the_one_parser(
    options: list[str] | dict[str, object], complaint: str
) -> None:
    with pytest.raises(OptionError, match=complaint):
        with_options(official(), options)


def test_options_come_as_text_or_as_a_mapping() -> None:
    by_text = official().with_options(["stacking=on", "target=200", "ka4"])
    by_map = official().with_options({"stacking": True, "target": 200, "ka4": "on"})
    assert by_text == by_map
    assert by_text.option_words() == [
        "stacking=on",
        "target=200",
        "kids_choose_target=on",
    ]


def test_values_that_do_not_fit_together_are_refused_with_a_reason() -> None:
    with pytest.raises(ValueError, match="hand_limit cannot be below hand_size"):
        with_options(official(), ["hand_limit=3"])
    with pytest.raises(ValueError, match="move_timer must be between 20 and 60"):
        with_options(official(), ["move_timer=5"])
    with pytest.raises(OptionError, match="unknown preset"):
        preset("poker")


def test_the_help_text_names_every_option_and_its_values() -> None:
    text = describe_options()
    for name in OPTION_NAMES:
        assert f"{name}=" in text
    assert "wild_draw_four=challenge|strict|free" in text
    assert "target=N|none" in text
    assert "stacking=on|off" in text
