"""TableModel: the shared screen's data and the host's lobby controls (no terminal)."""

from __future__ import annotations

from dataclasses import fields

import pytest
from ui_fakes import event, lobby, opening_events, state

from lanuno.engine.cards import DeckKind
from lanuno.engine.rules import OPTION_NAMES, FirstPlayer, rules_from_words
from lanuno.ui.i18n import translator
from lanuno.ui.table_model import (
    OPTION_CHOICES,
    ROUND_WIN_TARGETS,
    RULES_SAID,
    SeatTile,
    TableModel,
    option_word,
    rules_summary,
)
from lanuno.wire.messages import GameEnd, Lobby, LobbySeat, RoundEnd

NOW = 10.0


def model_with(*messages: object) -> TableModel:
    model = TableModel(translator("en"))
    for message in messages:
        model.apply(message, NOW)  # type: ignore[arg-type]
    return model


def test_screens_follow_the_game() -> None:
    model = model_with(lobby())
    assert model.screen == "lobby"
    model.apply(state(hand=(), legal=()), NOW)
    assert model.screen == "play"
    model.apply(RoundEnd(round=1, winner=1, points=87, scores=(120, 87, 40, 65)), NOW)
    assert model.screen == "round_end"
    assert model.between_rounds
    model.apply(state(hand=(), legal=(), round_no=2), NOW)
    assert model.screen == "play"
    assert not model.between_rounds
    model.apply(GameEnd(winner=0, scores=(512, 87, 40, 65)), NOW)
    assert model.screen == "game_end"
    assert model.scoreboard()[0] == (0, "Lea", 512, True)


def test_seat_tiles_hold_counts_never_cards() -> None:
    assert "cards" not in {f.name for f in fields(SeatTile)}
    tiles = model_with(lobby(), state(hand=(), legal=())).tiles()
    assert [(t.name, t.count, t.kind, t.is_actor) for t in tiles] == [
        ("Lea", 5, "human", False),
        ("Max", 1, "human", False),
        ("Ana", 8, "human", True),
        ("Bot Bob", 3, "bot", False),
    ]


def test_events_are_logged_with_lobby_names() -> None:
    model = model_with(lobby(), *opening_events())
    assert model.log.lines[2].text == "Lea played Wild Draw Four and chose blue."


def test_options_cycle_through_their_values() -> None:
    model = model_with(lobby())
    assert model.next_option() == ("stacking", "on")
    model.options_open = True
    model.move_cursor(list(OPTION_CHOICES).index("target"))
    assert model.next_option() == ("target", "none")  # 500 -> none (single round)
    model.move_cursor(1)
    assert model.next_option() == ("move_timer", "30")


def test_at_a_table_of_round_wins_the_target_cycles_through_round_counts() -> None:
    """kids2 counts round wins (5): O offered 200, 300, 500, which the rules now refuse
    there (a game of 200 rounds)."""
    kids2 = lobby()
    kids2 = Lobby(
        seats=kids2.seats,
        preset="kids2",
        options={"target": 5, "scoring": "round_wins"},
        can_start=True,
    )
    model = model_with(kids2)
    model.options_open = True
    model.move_cursor(list(OPTION_CHOICES).index("target"))
    assert model.next_option() == ("target", "7")
    assert rules_from_words("kids2", ["target=7"]).target == 7
    for value in ROUND_WIN_TARGETS:
        rules_from_words("kids2", [f"target={value}"])  # each one the rules take


def test_option_words() -> None:
    assert [option_word(v) for v in (None, True, False, 300, "strict")] == [
        "none",
        "on",
        "off",
        "300",
        "strict",
    ]


def test_presets_and_bot_levels_cycle() -> None:
    model = model_with(lobby())
    assert model.next_preset() == "kids1"
    assert [model.cycle_level() for _ in range(3)] == ["expert", "beginner", "intermediate"]


def test_only_occupied_seats_can_be_removed() -> None:
    seats = (
        LobbySeat(name="Lea", kind="human", kid=False, connected=True, ready=True, check=1),
        LobbySeat(name=None, kind="empty", kid=False, connected=False, ready=False, check=None),
    )
    model = model_with(Lobby(seats=seats, preset="official", options={}, can_start=False))
    assert model.removable_seat() == 0
    model.move_cursor(1)
    assert model.removable_seat() is None
    model.move_cursor(1)
    assert model.cursor == 0


def test_cursor_stays_inside_a_shrinking_lobby() -> None:
    model = model_with(lobby())
    model.move_cursor(-1)
    assert model.cursor == 3
    seats = lobby().seats[:2]
    model.apply(Lobby(seats=seats, preset="official", options={}, can_start=True), NOW)
    assert model.cursor == 1


def test_a_game_of_one_round_says_so_in_the_options_summary() -> None:
    """With target=none the lobby's options said nothing at all (seen at 80x24: 'Options'
    and an empty line under it, 'Rules: official' and nothing more for the players)."""
    for lang, said in (
        ("en", "Points to win: none (one round)"),
        ("fr", "Points pour gagner : aucun (une seule manche)"),
    ):
        tr = translator(lang)
        assert rules_summary("official", {"target": None, "move_timer": None}, tr) == said
        assert rules_summary("official", {"target": 500}, tr) == tr(
            "host.option_value", name=tr("opt.target"), value="500"
        )


def test_a_shared_screen_that_starts_mid_round_says_where_the_round_stands() -> None:
    """A host resumed mid-round from its journal (or a remote screen paired late) showed an
    empty 'Last events' until the next move; the players' logs say where the round stands."""
    late = model_with(lobby(), state(hand=(), legal=(), top="R9"))
    assert [line.text for line in late.log.lines] == [
        "Round 1 is under way; the top card is red 9."
    ]
    told = model_with(lobby(), *opening_events(), state(hand=(), legal=(), top="R9"))
    assert not [line for line in told.log.lines if "under way" in line.text]


def wire_options(preset_name: str, *words: str) -> dict[str, object]:
    """The options a host sends for a preset with ``--option`` words (as Lobby carries them)."""
    rules = rules_from_words(preset_name, words)
    return {key: value for key, value in rules.to_dict().items() if key != "preset"}


def test_a_kids_table_tells_every_rule_that_is_not_the_official_one() -> None:
    """At a kids1 table the lobby said only 'Points to win: none (one round)': a player was
    not told that 5 cards are dealt, that 6 is the most a hand may hold, nor (the host having
    turned it on) that Counter-UNO is on at this kids' table."""
    for lang, told in (
        (
            "en",
            "Deck: numbers only, Cards dealt: 5, Hand limit: 6, The youngest plays first, "
            "Draw only when stuck and play it if it fits, Counter-UNO: on, "
            "Points to win: none (one round)",
        ),
        (
            "fr",
            "Paquet : chiffres seulement, Cartes distribuées : 5, Maximum en main : 6, "
            "Le plus jeune commence, Piocher seulement si bloqué et jouer la carte si elle va, "
            "Contre-UNO : oui, Points pour gagner : aucun (une seule manche)",
        ),
    ):
        options = wire_options("kids1", "counter_uno=on")
        assert rules_summary("kids1", options, translator(lang)) == told


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_rule_is_told_when_it_differs_from_the_official_rules_or_the_preset(lang: str) -> None:
    tr = translator(lang)
    kids2 = rules_summary("kids2", wire_options("kids2"), tr).split(", ")
    assert tr("rules.counter_uno.off") in kids2  # official players expect Counter-UNO
    assert tr("rules.draw_two_gift.on") in kids2
    assert tr("host.option_value", name=tr("rules.rounds_to_win"), value="5") in kids2
    # no hand limit at a kids' table: official, but not what the preset's name promised
    unlimited = rules_summary("kids2", wire_options("kids2", "hand_limit=none"), tr)
    assert tr("rules.hand_limit.none") in unlimited.split(", ")
    official = rules_summary("official", wire_options("official", "hand_limit=9"), tr)
    assert official.split(", ") == [
        tr("rules.hand_limit", count=9),
        tr("host.option_value", name=tr("opt.target"), value="500"),
    ]
    # a drawn card that must be played, on its own, is told on its own
    kept = rules_summary("official", wire_options("official", "must_play_drawn=on"), tr)
    assert tr("rules.must_play_drawn.on") in kept.split(", ")


def test_every_rule_has_its_place_in_the_summary() -> None:
    """A rule added to the engine is told in the lobby (or this test names it)."""
    assert set(RULES_SAID) | {"scoring"} == set(OPTION_NAMES)
    every_value = {
        "deck": [kind.value for kind in DeckKind],
        "first_player": [first.value for first in FirstPlayer],
    }
    for lang in ("en", "fr"):
        tr = translator(lang)
        for key, values in every_value.items():
            for value in values:
                assert tr(f"rules.{key}.{value}")
        for key in ("voluntary_draw", "must_play_drawn", "counter_uno", "draw_two_gift"):
            for value in (True, False):
                told = rules_summary("official", {key: value, "voluntary_draw": True}, tr)
                assert key not in told  # a sentence, never the rule's field name


def test_a_preset_or_value_from_a_newer_host_is_told_as_sent() -> None:
    tr = translator("en")
    assert rules_summary("kids3", {"deck": "jumbo", "target": 500}, tr) == (
        "deck: jumbo, Points to win: 500"
    )


def _max_gone_after_the_game() -> Lobby:
    """The lobby once the game is over: Max's seat freed (he was away), Ana and the bot
    moved down one seat, and Cyd, who watched, seated at the end."""
    lea, _max, ana, bot = lobby().seats
    cyd = LobbySeat(name="Cyd", kind="human", kid=False, connected=True, ready=False, check=1)
    return Lobby(seats=(lea, ana, bot, cyd), preset="official", options={}, can_start=True)


def test_the_scores_of_a_game_stay_with_its_players_when_the_lobby_moves_seats() -> None:
    """Seen in the lab: the host's screen read 'Léa 0, Max 0' under the winner, Ann gone,
    Léa given Ann's score and Max (who had only watched) Léa's, once Ann's seat was freed."""
    model = model_with(lobby(), state(hand=(), legal=()))
    model.apply(RoundEnd(round=1, winner=3, points=71, scores=(5, 60, 0, 71)), NOW)
    model.apply(GameEnd(winner=3, scores=(5, 60, 0, 71)), NOW)
    model.apply(_max_gone_after_the_game(), NOW)
    assert model.scoreboard() == [
        (0, "Lea", 5, False),
        (1, "Max", 60, False),
        (2, "Ana", 0, False),
        (3, "Bot Bob", 71, True),
    ]
    assert model.end_name(3) == "Bot Bob"  # the winner's line


def test_T3_the_shared_screen_shows_the_autopilot_for_its_round_only() -> None:
    model = model_with(lobby(), state(hand=(), legal=()), event("autopilot", seat=1, on=True))
    assert model.presence_of(1) == "bot"
    model.apply(event("round_started", round_no=2, dealer=1), NOW)
    assert model.presence_of(1) == "here"
