"""The catalogue, card chips and event sentences."""

from __future__ import annotations

import string
from collections import defaultdict

import pytest

from lanuno.engine.cards import ALL_FACES
from lanuno.engine.rules import PRESET_NAMES
from lanuno.ui.faces import big_text, face, sort_hand
from lanuno.ui.i18n import CATALOGUES, EN, FR, resolve_lang, translator
from lanuno.ui.narrate import EventLog, describe
from lanuno.ui.refusals import refused_line
from lanuno.ui.widgets import KeyItem, keys_line, squeeze_lines, wrap_items, wrap_words
from lanuno.wire.messages import MAX_NAME

NAMES = ("Lea", "Max", "Ana")


def names(seat: int | None) -> str:
    return NAMES[seat] if seat is not None and seat < len(NAMES) else "?"


def placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def test_french_has_every_english_key_with_the_same_placeholders() -> None:
    assert set(FR) == set(EN)
    for key, template in EN.items():
        assert placeholders(FR[key]) == placeholders(template), key


@pytest.mark.parametrize(
    ("argument", "environ", "expected"),
    [
        ("fr", {"LANG": "en_US.UTF-8"}, "fr"),
        (None, {"LANG": "fr_FR.UTF-8"}, "fr"),
        (None, {"LANGUAGE": "de:fr", "LANG": "en_US"}, "fr"),
        (None, {"LC_ALL": "C", "LANG": "fr_CA"}, "fr"),
        (None, {"LANG": "de_DE.UTF-8"}, "en"),
        (None, {}, "en"),
        ("en_GB", {"LANG": "fr_FR"}, "en"),
    ],
)
def test_language_from_argument_then_environment(
    argument: str | None, environ: dict[str, str], expected: str
) -> None:
    assert resolve_lang(argument, environ) == expected


def test_an_unknown_language_argument_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown language"):
        resolve_lang("klingon", {})


def test_english_card_words_match_the_engine() -> None:
    tr = translator("en")
    for card in ALL_FACES:
        assert tr.card(card.code) == card.words


def test_every_card_has_words_in_french() -> None:
    tr = translator("fr")
    assert tr.card("R7") == "7 rouge"
    assert tr.card("BS") == "Passe bleue"  # la Passe: the color agrees
    assert tr.card("GR") == "Inversion verte"
    assert tr.card("YR") == "Inversion jaune"
    assert tr.card("G+2") == "+2 vert"
    assert tr.card("B7") == "7 bleu"
    assert all(tr.card(card.code) for card in ALL_FACES)


def test_chips_carry_color_letter_and_value_in_three_cells() -> None:
    chips = {card.code: face(card.code).chip for card in ALL_FACES}
    assert all(len(chip) == 3 for chip in chips.values())
    assert chips["R7"] == "R 7"
    assert chips["G+2"] == "G+2"
    assert chips["BS"] == "BSk"
    assert chips["YR"] == "YRv"
    assert chips["W+4"] == "W+4"
    for code, chip in chips.items():
        assert chip.strip()[0] == code[0]


def test_french_chips_use_french_color_initials() -> None:
    letters = translator("fr").letters()
    assert [face(code, letters).chip for code in ("R7", "YS", "G+2", "BR")] == [
        "R 7",
        "JPa",
        "V+2",
        "BIn",
    ]


def test_sort_hand_groups_colors_then_wilds() -> None:
    assert sort_hand(["W", "B1", "R+2", "R0", "W+4", "G5"]) == ("R0", "R+2", "G5", "B1", "W", "W+4")


def test_big_text_is_five_rows_of_equal_width() -> None:
    rows = big_text("482913")
    assert len(rows) == 5
    assert len({len(row) for row in rows}) == 1


@pytest.mark.parametrize(
    ("kind", "fields", "sentence"),
    [
        ("played", {"seat": 0, "card": "R7", "jump_in": False}, "Lea played red 7."),
        ("played", {"seat": 1, "card": "R7", "jump_in": True}, "Max jumped in with red 7."),
        ("drew", {"seat": 2, "count": 1, "cause": "draw"}, "Ana drew a card."),
        ("drew", {"seat": 2, "count": 2, "cause": "penalty"}, "Ana took the penalty: 2 cards."),
        (
            "drew",
            {"seat": 0, "count": 2, "cause": "counter_uno"},
            "Lea was caught and drew 2 cards.",
        ),
        ("counter_uno", {"caller": 1, "target": 0, "caught": True}, "Max caught Lea without UNO!"),
        ("skipped", {"seat": 1}, "Max is skipped."),
        ("direction_changed", {"direction": -1}, "Play goes counter-clockwise now."),
        ("gave", {"seat": 0, "recipients": (1, 2)}, "Lea gave cards to Max, Ana."),
        ("gave", {"seat": 0, "recipients": (1, 1)}, "Lea gave cards to Max."),  # K2-4, both
        ("hands_swapped", {"seat": 0, "target": 2}, "Lea swapped hands with Ana."),
        ("cards_drawn", {"seat": 2, "cards": ("R7", "W")}, "You drew red 7, Wild."),
        ("autopilot", {"seat": 1, "on": True}, "A bot plays for Max until they come back."),
        ("something_new", {}, "something new"),
        ("played", {"seat": "zero", "card": 7}, "? played ?."),
    ],
)
def test_event_sentences(kind: str, fields: dict[str, object], sentence: str) -> None:
    assert describe(kind, fields, names, translator("en")).text == sentence  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("lang", "sentence"),
    [
        ("en", "A bot plays for you until you make a move yourself."),
        ("fr", "Un robot joue pour vous jusqu'à ce que vous jouiez vous-même."),
    ],
)
def test_a_player_whose_time_ran_out_twice_reads_how_to_play_again(
    lang: str, sentence: str
) -> None:
    # T3: they are at the keyboard; "until you come back" did not say what brings them back.
    on = describe("autopilot", {"seat": 2, "on": True}, names, translator(lang), 2)
    assert on.text == sentence


def test_event_log_keeps_the_last_lines() -> None:
    log = EventLog(limit=3)
    for seat in (0, 1, 2, 0):
        log.add_event("passed", {"seat": seat}, names, translator("en"))
    assert [line.text for line in log.lines] == ["Max passed.", "Ana passed.", "Lea passed."]
    assert log.last(0) == []


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_my_own_plain_draw_is_one_line_a_penalty_keeps_its_reason(lang: str) -> None:
    log, tr = EventLog(), translator(lang)
    log.add_event("cards_drawn", {"seat": 2, "cards": ("Y3",)}, names, tr, me=2)
    log.add_event("drew", {"seat": 2, "count": 1, "cause": "draw"}, names, tr, me=2)
    assert [line.text for line in log.lines] == [
        describe("cards_drawn", {"seat": 2, "cards": ("Y3",)}, names, tr, 2).text
    ]
    log.add_event("cards_drawn", {"seat": 2, "cards": ("R7", "W")}, names, tr, me=2)
    log.add_event("drew", {"seat": 2, "count": 2, "cause": "penalty"}, names, tr, me=2)
    assert len(log.lines) == 3  # the cards, then why they came
    # Someone else's draw right after mine is still told.
    log.add_event("cards_drawn", {"seat": 2, "cards": ("G1",)}, names, tr, me=2)
    log.add_event("drew", {"seat": 1, "count": 1, "cause": "draw"}, names, tr, me=2)
    assert len(log.lines) == 5


def test_catalogue_has_only_the_two_languages() -> None:
    assert set(CATALOGUES) == {"en", "fr"}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_round_shuffled_without_my_seed_is_a_notice_not_an_alarm(lang: str) -> None:
    line = describe("my_seed_unused", {"round": 3}, lambda seat: f"seat {seat}", translator(lang))
    assert "3" in line.text
    assert "my_seed_unused" not in line.text  # a sentence, not the generic fallback


def test_preset_names_are_shown_in_the_players_language() -> None:
    fr, en = translator("fr"), translator("en")
    assert [fr.preset(name) for name in PRESET_NAMES] == ["officielles", "enfants 1", "enfants 2"]
    assert [en.preset(name) for name in PRESET_NAMES] == list(PRESET_NAMES)
    assert fr.preset("party") == "party"  # a newer host's preset: shown as sent


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_second_timeout_is_told_once_though_the_autopilot_comes_between(lang: str) -> None:
    """T3: "You ran out of time. A bot plays for you ... You drew blue 3. You ran out of time
    and drew 1 card." (seen at a 20 s timer): the autopilot's line broke the link between
    the timeout and its draw."""
    tr = translator(lang)
    mine = EventLog()
    mine.add_event("timed_out", {"seat": 2, "in_a_row": 2}, names, tr, me=2)
    mine.add_event("autopilot", {"seat": 2, "on": True}, names, tr, me=2)
    mine.add_event("cards_drawn", {"seat": 2, "cards": ("B3",)}, names, tr, me=2)
    mine.add_event("drew", {"seat": 2, "count": 1, "cause": "timeout"}, names, tr, me=2)
    mine.add_event("passed", {"seat": 2}, names, tr, me=2)
    texts = [line.text for line in mine.lines]
    assert texts == [
        describe("timed_out", {"seat": 2, "in_a_row": 2}, names, tr, 2).text,
        describe("autopilot", {"seat": 2, "on": True}, names, tr, 2).text,
        describe("cards_drawn", {"seat": 2, "cards": ("B3",)}, names, tr, 2).text,
        describe("passed", {"seat": 2}, names, tr, 2).text,
    ]


def test_a_timeout_is_told_once_then_its_draw() -> None:
    """T2: the timer's draw follows "ran out of time"; the log does not say it twice."""
    tr = translator("en")
    mine = EventLog()
    mine.add_event("timed_out", {"seat": 2, "in_a_row": 1}, names, tr, me=2)
    mine.add_event("cards_drawn", {"seat": 2, "cards": ("B9",)}, names, tr, me=2)
    mine.add_event("drew", {"seat": 2, "count": 1, "cause": "timeout"}, names, tr, me=2)
    mine.add_event("passed", {"seat": 2}, names, tr, me=2)
    assert [line.text for line in mine.lines] == [
        "You ran out of time.",
        "You drew blue 9.",
        "You passed.",
    ]
    theirs = EventLog()
    theirs.add_event("timed_out", {"seat": 2, "in_a_row": 1}, names, tr, me=0)
    theirs.add_event("drew", {"seat": 2, "count": 1, "cause": "timeout"}, names, tr, me=0)
    assert theirs.lines[0].text == f"{names(2)} ran out of time."
    assert "ran out of time" not in theirs.lines[1].text
    # Without the timeout just before (a client that arrived in between), the draw says why.
    alone = EventLog()
    alone.add_event("drew", {"seat": 2, "count": 1, "cause": "timeout"}, names, tr, me=0)
    assert "ran out of time" in alone.lines[0].text


@pytest.mark.parametrize("catalogue", [EN, FR])
def test_every_play_key_and_help_fit_an_80_column_keys_bar(catalogue: dict[str, str]) -> None:
    """The help key is the last to go, and whole: gaps shrink to one space first (the French
    bar at 80 columns ended on a bare '?', its word 'aide' dropped)."""
    keys = ("draw", "pass", "uno", "catch", "challenge", "accept", "quit")
    items = [KeyItem(k[0].upper(), catalogue[f"key.{k}"]) for k in keys]
    items.append(KeyItem("?", catalogue["key.help"], optional=True))
    line = "".join(fragment[1] for fragment in keys_line(items, 80))
    assert len(line) <= 80
    for item in items:
        assert f"{item.key} {item.label}" in line


@pytest.mark.parametrize("catalogue", [EN, FR])
def test_a_keys_bar_shows_each_entry_whole_or_not_at_all(catalogue: dict[str, str]) -> None:
    keys = ("draw", "pass", "uno", "catch", "challenge", "accept", "quit")
    items = [KeyItem(k[0].upper(), catalogue[f"key.{k}"]) for k in keys]
    items.append(KeyItem("?", catalogue["key.help"], optional=True))
    for width in range(8, 100):
        check_keys_bar(items, width)


def check_keys_bar(items: list[KeyItem], width: int) -> None:
    fragments = keys_line(items, width)
    line = "".join(fragment[1] for fragment in fragments)
    assert len(line) <= width or line == f" {items[0].key} {items[0].label}"
    shown = [fragment[1] for fragment in fragments if fragment[0].startswith("class:key")]
    assert shown, width
    for key in shown:
        item = next(item for item in items if item.key == key)
        assert f"{item.key} {item.label}" in line, (width, key)
    assert line.rstrip() == line  # never a bare key or a gap at the end


def test_a_wrapped_french_line_never_begins_with_its_punctuation() -> None:
    text = "L'hôte ne répond plus depuis 5 min : lanuno essaie encore. Tapez « aide » ?"
    for width in range(12, len(text) + 1):
        lines = wrap_words(text, width)
        assert " ".join(lines) == text, width  # nothing lost, nothing cut
        assert all(len(line) <= width for line in lines), width
        assert not any(line.split(" ")[0] in (":", ";", "!", "?", "»") for line in lines), width
        assert not any(line.endswith("«") for line in lines), width
    assert wrap_words(text, 36) == [
        "L'hôte ne répond plus depuis 5 min :",
        "lanuno essaie encore. Tapez",
        "« aide » ?",
    ]


def test_squeezed_text_loses_its_lowest_blank_lines_until_it_fits() -> None:
    text: list[tuple[str, str]] = [("", "title\n\nseats\n\nrules\n\nprompt")]
    assert squeeze_lines(text, 7) == text  # it fits: as it is
    assert squeeze_lines(text, 5) == [
        ("", "title"), ("", "\n"), ("", ""), ("", "\n"), ("", "seats"), ("", "\n"),
        ("", "rules"), ("", "\n"), ("", "prompt"),
    ]  # fmt: skip
    only_words = [("", "a\nb\nc")]
    assert "".join(text for _, text in squeeze_lines(only_words, 2)) == "a\nb\nc"


def test_a_short_name_stays_whole_and_a_one_word_value_on_its_line() -> None:
    items = ["Deck: numbers only", "Cards dealt: 5", "Maximum en main : 6"]
    assert wrap_items(items, 27) == [
        "Deck: numbers only,",
        "Cards dealt: 5, Maximum en",
        "main : 6",
    ]
    assert wrap_words(", ".join(items), 27)[-1] == "6"  # what plain words did
    named = ["Counter-UNO: on", "Draw Two: draw 2 and give them away"]
    assert wrap_items(named, 24) == ["Counter-UNO: on,", "Draw Two: draw 2 and", "give them away"]
    assert wrap_words(", ".join(named), 24)[0] == "Counter-UNO: on, Draw"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_refusal_whose_reason_has_a_colon_reads_with_one_colon(lang: str) -> None:
    """'Refusé : Personne à contrer : ...' read two colons in a row (the prefix's, the
    reason's own): a sentence follows 'Refused.' as a sentence of its own."""
    tr = translator(lang)
    nobody = tr("catch.nobody")
    assert (
        refused_line(nobody, tr)
        == {
            "en": f"Refused. {nobody}",
            "fr": f"Refusé. {nobody}",
        }[lang]
    )
    catalogue = CATALOGUES[lang]
    for key, template in catalogue.items():
        if key.startswith("refusal.") or key == "catch.nobody":
            reason = template.format_map(defaultdict(lambda: "2"))
            line = refused_line(reason, tr)
            assert line.endswith(reason)
            assert line.count(":") <= max(1, reason.count(":")), key  # never one more
    assert refused_line("not connected", tr) == tr("error.refused", text="not connected")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_catch_prompt_fits_the_prompt_line_with_the_longest_name(lang: str) -> None:
    """The prompt is one line: 'Robot 2 (intermédiaire) a une carte sans avoir dit UNO :
    appuyez sur K pour le' was cut at 80 columns before its end, and a player's name may
    be 32 letters."""
    tr = translator(lang)
    line = " " + tr("prompt.catch", name="W" * MAX_NAME)
    assert len(line) <= 80
    assert "K" in line


def test_a_first_card_sent_back_agrees_with_any_card_in_french() -> None:
    """'Joker +4 est retournée dans le paquet.': the feminine of 'la carte' on a masculine
    card's name."""
    tr = translator("fr")
    line = describe("card_returned", {"card": "W+4"}, names, tr, 2).text
    assert line == "Joker +4 retourne dans le paquet."


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_counter_uno_that_catches_nobody_does_not_say_too_late(lang: str) -> None:
    """'catch 2' typed on a player holding 7 cards read "You called Counter-UNO on Bot 1,
    too late.": nobody was late, there was nothing to catch (the engine does not say why)."""
    tr = translator(lang)
    for me in (0, 1, 2):
        line = describe("counter_uno", {"caller": 0, "target": 1, "caught": False}, names, tr, me)
        assert "too late" not in line.text
        assert "trop tard" not in line.text
        assert {"en": "nothing to catch", "fr": "en vain"}[lang] in line.text


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_cards_returned_one_by_one_are_one_line_per_player(lang: str) -> None:
    """K2-9 after a Blank over a long pile: 16 cards returned, one Enter each, were 16 lines
    that pushed everything else off the shared screen's last events."""
    log, tr = EventLog(), translator(lang)
    for seat, times in ((0, 9), (1, 3)):
        for _ in range(times):
            log.add_event("cards_returned", {"seat": seat, "count": 1}, names, tr)
    log.add_event("passed", {"seat": 2}, names, tr)
    log.add_event("cards_returned", {"seat": 2, "count": 1}, names, tr)
    texts = [line.text for line in log.lines]
    assert texts == [
        describe("cards_returned", {"seat": 0, "count": 9}, names, tr).text,
        describe("cards_returned", {"seat": 1, "count": 3}, names, tr).text,
        describe("passed", {"seat": 2}, names, tr).text,
        describe("cards_returned", {"seat": 2, "count": 1}, names, tr).text,
    ]
    assert "9" in texts[0]


def test_a_printed_log_tells_each_return_as_it_comes() -> None:
    """The line client prints each line once: a merged line would never be printed."""
    log, tr = EventLog(merge_returns=False), translator("en")
    for _ in range(3):
        log.add_event("cards_returned", {"seat": 0, "count": 1}, names, tr)
    assert len(log.lines) == 3
