"""TableModel: the shared screen's data and the host's lobby controls (no terminal)."""

from __future__ import annotations

from dataclasses import fields

from ui_fakes import lobby, opening_events, state

from lanuno.ui.i18n import translator
from lanuno.ui.table_model import (
    OPTION_CHOICES,
    SeatTile,
    TableModel,
    option_word,
    options_summary,
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
        assert options_summary({"target": None, "move_timer": None}, tr) == said
        assert options_summary({"target": 500}, tr) == tr(
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
