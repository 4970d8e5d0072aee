"""The hall as plain data (issue 12 item 2): each table's row from its shared-screen feed
(phase, players with scores, who is away, seats free, the two codes), the words for it in
English and French, which rows fit the screen, and the new-table form's checks."""

from __future__ import annotations

import dataclasses

import pytest
from ui_fakes import event, lobby, state

from lanuno.engine.rules import MAX_SEATS, preset, rules_from_words, with_options
from lanuno.ui.contracts import NewTable
from lanuno.ui.hall_model import (
    HallModel,
    HallPlayer,
    NewTableForm,
    check_new_table,
    codes_text,
    hall_row,
    phase_text,
    player_text,
    visible_rows,
)
from lanuno.ui.i18n import translator
from lanuno.ui.table_model import TableModel
from lanuno.wire.messages import Bye, GameEnd, Lobby, RoundEnd

EN, FR = translator("en"), translator("fr")


def fed(*messages: object) -> TableModel:
    model = TableModel(EN)
    for message in messages:
        model.apply(message, 0.0)  # type: ignore[arg-type]
    return model


def with_seat(base: Lobby, index: int, **changes: object) -> Lobby:
    seats = list(base.seats)
    seats[index] = dataclasses.replace(seats[index], **changes)  # type: ignore[arg-type]
    return dataclasses.replace(base, seats=tuple(seats))


# ---------------------------------------------------------------------------- rows


def test_a_lobby_lists_its_players_without_scores_and_its_free_seats() -> None:
    row = hall_row(2, "Kitchen", "482913", "105227", fed(lobby()))
    assert (row.number, row.name, row.phase) == (2, "Kitchen", "lobby")
    assert [p.name for p in row.players] == ["Lea", "Max", "Ana", "Bot Bob"]
    assert all(p.score is None for p in row.players)
    assert row.seats_free == MAX_SEATS - 4
    assert (row.room_code, row.screen_code) == ("482913", "105227")
    assert phase_text(EN, row) == "lobby · 6 seats free"
    assert codes_text(EN, row) == "room 482 913  screen 105 227"


def test_a_table_with_no_feed_yet_is_an_empty_lobby() -> None:
    row = hall_row(1, "Attic", "111111", "222222", TableModel(EN))
    assert row.phase == "lobby"
    assert row.players == ()
    assert row.seats_free == MAX_SEATS


def test_a_round_in_play_shows_scores_and_who_is_to_act() -> None:
    row = hall_row(1, "Kitchen", "482913", "105227", fed(lobby(), state()))
    assert row.phase == "playing"
    assert row.round == 1
    assert [(p.name, p.score) for p in row.players] == [
        ("Lea", 120),
        ("Max", 0),
        ("Ana", 40),
        ("Bot Bob", 65),
    ]
    assert row.turn == "Ana"
    assert row.seats_free == 0  # a game in progress takes nobody new
    assert phase_text(EN, row) == "round 1 in play · Ana to play"


def test_between_rounds_the_scores_are_the_round_ends_totals() -> None:
    end = RoundEnd(round=2, winner=1, points=87, scores=(120, 187, 40, 65))
    row = hall_row(1, "Kitchen", "1", "2", fed(lobby(), state(round_no=2), end))
    assert row.phase == "between"
    assert [p.score for p in row.players] == [120, 187, 40, 65]
    assert row.winner == "Max"
    assert phase_text(EN, row) == "round 2 over · won by Max"


def test_game_over_and_closed() -> None:
    over = fed(lobby(), state(), GameEnd(winner=0, scores=(512, 87, 40, 65)))
    row = hall_row(1, "Kitchen", "1", "2", over)
    assert row.phase == "game_over"
    assert row.winner == "Lea"
    assert row.players[0].score == 512
    assert phase_text(EN, row) == "game over · Lea wins"
    over.apply(Bye(code=1, reason="the host closed the table"), 0.0)
    assert hall_row(1, "Kitchen", "1", "2", over).phase == "closed"
    assert phase_text(FR, hall_row(1, "Kitchen", "1", "2", over)) == "fermée"


def test_a_table_whose_journal_failed_is_paused_not_closed() -> None:
    model = fed(lobby(), state())
    model.apply(Bye(code=1, reason="journal write failed"), 0.0)  # the feed ends
    row = hall_row(1, "Kitchen", "1", "2", model, paused=True)
    assert row.phase == "paused"
    assert phase_text(EN, row) == "paused: its journal could not be written"
    assert phase_text(FR, row) == "en pause : sa sauvegarde sur disque a échoué"


def test_who_is_away_dropped_or_played_by_a_bot() -> None:
    seats = with_seat(with_seat(lobby(), 1, connected=False), 2, bot_playing=True)
    row = hall_row(1, "Kitchen", "1", "2", fed(seats, state()))
    assert [p.presence for p in row.players] == ["here", "away", "bot", "here"]
    assert row.away == ("Max", "Ana")
    assert player_text(EN, row.players[1]) == "Max 0 (away)"
    assert player_text(EN, row.players[2]) == "Ana 40 (bot playing)"
    assert player_text(FR, row.players[1]) == "Max 0 (absent)"


def test_a_table_with_every_player_away_says_it_waits_for_them() -> None:
    """After a host restart nothing is played for the away players until one is back
    (host/table.py): the row says so instead of naming whose turn it is."""
    everyone_away = lobby()
    for seat in range(3):
        everyone_away = with_seat(everyone_away, seat, connected=False)
    row = hall_row(1, "Kitchen", "1", "2", fed(everyone_away, state()))
    assert row.waiting
    assert phase_text(EN, row) == "round 1 in play · waiting for the players to come back"
    assert phase_text(FR, row) == "manche 1 en cours · en attente du retour des joueurs"
    one_back = with_seat(everyone_away, 0, connected=True)
    assert phase_text(EN, hall_row(1, "K", "1", "2", fed(one_back, state()))) == (
        "round 1 in play · Ana to play"
    )
    played = with_seat(everyone_away, 0, bot_playing=True)  # a bot plays Lea's seat
    assert not hall_row(1, "K", "1", "2", fed(played, state())).waiting


def test_the_autopilot_makes_a_player_away_until_it_stops() -> None:
    model = fed(lobby(), state(), event("autopilot", seat=0, on=True))
    assert hall_row(1, "K", "1", "2", model).away == ("Lea",)
    model.apply(event("autopilot", seat=0, on=False), 0.0)
    assert hall_row(1, "K", "1", "2", model).away == ()


def test_a_bot_is_never_away() -> None:
    row = hall_row(1, "K", "1", "2", fed(with_seat(lobby(), 3, connected=False), state()))
    assert row.players[3].kind == "bot"
    assert row.away == ()


def test_the_hall_reads_in_french() -> None:
    playing = hall_row(1, "Cuisine", "482913", "105227", fed(lobby(), state()))
    assert phase_text(FR, playing) == "manche 1 en cours · à Ana de jouer"
    assert codes_text(FR, playing) == "salle 482 913  écran 105 227"
    waiting = hall_row(1, "Cuisine", "482913", "105227", fed(lobby()))
    assert phase_text(FR, waiting) == "salon · 6 places libres"
    one_left = dataclasses.replace(waiting, seats_free=1)
    assert phase_text(FR, one_left) == "salon · 1 place libre"
    end = RoundEnd(round=1, winner=0, points=9, scores=(9, 0, 0, 0))
    between = hall_row(1, "C", "1", "2", fed(lobby(), state(), end))
    assert phase_text(FR, between) == "manche 1 finie · gagnée par Lea"
    assert player_text(FR, HallPlayer("Zoé", "human", 3, "bot")) == "Zoé 3 (robot joue)"
    assert player_text(FR, HallPlayer("Zoé", "human", None)) == "Zoé"


# ---------------------------------------------------------------------------- scrolling


def test_rows_that_fit_keep_their_place() -> None:
    shown = visible_rows([4, 4, 4], selected=0, top=0, height=20)
    assert (shown.first, shown.last, shown.above(), shown.below(3)) == (0, 3, 0, 0)


def test_the_list_scrolls_to_keep_the_selected_row_in_view() -> None:
    heights = [4] * 7
    first = visible_rows(heights, selected=0, top=0, height=20)
    assert (first.first, first.last) == (0, 5)  # the last blank line becomes "2 more below"
    down = visible_rows(heights, selected=6, top=0, height=20)
    assert down.last == 7
    assert down.first > 0
    assert sum(heights[down.first : down.last]) + 1 <= 20  # with "more above"
    back = visible_rows(heights, selected=1, top=down.first, height=20)
    assert back.first == 1  # scrolled back just enough


def test_a_taller_window_shows_the_rows_scrolled_out_before() -> None:
    heights = [4] * 6
    assert visible_rows(heights, selected=5, top=0, height=20).first == 2
    taller = visible_rows(heights, selected=5, top=2, height=36)
    assert (taller.first, taller.last) == (0, 6)
    one_more = visible_rows(heights, selected=5, top=2, height=22)  # 1 + 4 x 5 = 21 lines
    assert (one_more.first, one_more.last) == (1, 6)


def test_an_empty_hall_shows_no_rows() -> None:
    assert visible_rows([], 0, 0, 20) == visible_rows([], 3, 5, 20)


# ---------------------------------------------------------------------------- the form


def good(**changes: str) -> dict[str, str]:
    values = {
        "name": "Kids corner",
        "preset": "kids2",
        "options": "",
        "bots": "2",
        "level": "beginner",
    }
    return values | changes


def test_a_good_form_gives_the_table_with_canonical_options() -> None:
    table, errors = check_new_table(good(options="stacking, timer=30 jump-in=on"), EN)
    assert errors == {}
    assert table == NewTable(
        name="Kids corner",
        preset="kids2",
        options=("stacking=on", "move_timer=30", "jump_in=on"),
        bots=2,
        level="beginner",
    )


def test_a_french_level_word_is_understood() -> None:
    table, errors = check_new_table(good(level="Débutant"), FR)
    assert errors == {}
    assert table is not None
    assert table.level == "beginner"


@pytest.mark.parametrize(
    ("field", "text", "says"),
    [
        ("name", "   ", "Give the table a name."),
        ("name", "x" * 33, "A table name has at most 32 characters."),
        ("preset", "kids3", "Unknown preset «kids3»: choose official, kids1, kids2."),
        ("options", "stacking=on colour=red", "Unknown option «colour»: see lanuno host --help."),
        ("options", "stacking=maybe", "The option «stacking» takes on|off."),
        ("options", "target=lots", "The option «target» takes N|none."),
        ("options", "hand_size=7 hand_limit=3", "These options do not fit together: "),
        ("options", "move_timer=5", "Out of range: move_timer must be between 20 and 60"),
        ("options", "hand_size=20", "Out of range: hand_size must be between 1 and 15."),
        ("bots", "12", "Bots: a number from 0 to 10, not «12»."),
        ("bots", "two", "Bots: a number from 0 to 10, not «two»."),
        ("bots", "-1", "Bots: a number from 0 to 10, not «-1»."),
        ("level", "grandmaster", "Unknown bot level «grandmaster»: choose beginner, "),
    ],
)
def test_bad_input_is_refused_clearly(field: str, text: str, says: str) -> None:
    table, errors = check_new_table(good(**{field: text}), EN)
    assert table is None
    assert list(errors) == [field]
    assert errors[field].startswith(says), errors[field]


def test_every_bad_field_is_named_at_once_in_french() -> None:
    table, errors = check_new_table(
        {"name": "", "preset": "x", "options": "nope", "bots": "99", "level": "x"}, FR
    )
    assert table is None
    assert errors == {
        "name": "Donnez un nom à la table.",
        "preset": "Règles inconnues «x» : choisissez officielles, enfants 1, enfants 2.",
        "options": "Option inconnue «nope» : la liste est dans «lanuno host --help».",
        "bots": "Robots : un nombre de 0 à 10, pas «99».",
        "level": "Niveau inconnu «x» : choisissez débutant, intermédiaire, expert.",
    }


def test_the_form_types_erases_and_moves_to_the_first_bad_field() -> None:
    form = NewTableForm(EN, number=4)
    assert form.values["name"] == "Table 4"
    assert form.values["level"] == "intermediate"
    form.move(3)
    assert form.current == "bots"
    form.erase()
    form.type("11")
    form.move(-3)
    form.type("Quiz")  # the proposed name is replaced, not added to ("Table 4Quiz")
    form.type("!")
    assert form.values["name"] == "Quiz!"
    assert form.submit() is None
    assert form.current == "bots"  # the cursor goes where the problem is
    assert "bots" in form.errors
    form.erase()
    assert "bots" not in form.errors  # typing there clears its complaint
    form.erase()
    form.type("3")
    table = form.submit()
    assert table == NewTable("Quiz!", "official", (), 3, "intermediate")


def test_a_proposed_name_kept_in_part_is_edited_from_its_end() -> None:
    form = NewTableForm(EN, number=4)
    form.erase()
    form.type("5")
    assert form.values["name"] == "Table 5"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_form_starts_from_the_hosts_preset_options_bots_and_level(lang: str) -> None:
    """``lanuno host --tables 1 --bots 2 --preset kids2 --option ka1`` offered an official
    table with no bot: the README says those apply to every table."""
    tr = translator(lang)
    defaults = NewTable("Kitchen", "kids2", ("target=3", "ka1=on"), 2, "expert")
    model = HallModel(tr, defaults)
    form = model.open_form()
    assert form.values["name"] == "Kitchen 1"  # as the command line's tables are named
    assert form.values["preset"] == tr.preset("kids2")
    assert form.values["options"] == "target=3 ka1=on"
    assert form.values["bots"] == "2"
    assert form.values["level"] == tr("level.expert")
    table = form.submit()
    assert table is not None
    assert (table.preset, table.bots, table.level) == ("kids2", 2, "expert")
    # A proposed value is replaced by the first key typed ("12" bots), but for the
    # options, where it adds one.
    form = model.open_form()
    form.move(2)
    form.type("stacking=on")
    form.move(1)
    form.type("3")
    assert form.values["options"] == "target=3 ka1=on stacking=on"
    assert form.values["bots"] == "3"
    assert rules_from_words(table.preset, table.options) == with_options(
        preset("kids2"), ["target=3", "ka1=on"]
    )


def test_the_form_hints_in_the_readers_language() -> None:
    form = NewTableForm(FR, number=1)
    assert form.values["level"] == "intermédiaire"
    assert form.values["preset"] == "officielles"
    assert form.hint("preset") == "au choix : officielles, enfants 1, enfants 2"
    assert form.hint("level") == "au choix : débutant, intermédiaire, expert"
    assert "stacking=on" in form.hint("options")


@pytest.mark.parametrize("typed", ["officielles", "Enfants 2", "kids2", "official"])
def test_the_form_takes_the_rules_as_the_french_screens_name_them(typed: str) -> None:
    """'officielles' (what every French screen calls the rules) was refused: 'Règles
    inconnues «officielles» : choisissez official, kids1, kids2.'."""
    table, errors = check_new_table(good(preset=typed), FR)
    assert errors == {}
    assert table is not None
    assert table.preset == {"o": "official", "e": "kids2", "k": "kids2"}[typed[0].lower()]


# ---------------------------------------------------------------------------- the model


def test_the_selection_follows_its_table_when_rows_change() -> None:
    model = HallModel(EN)
    rows = [hall_row(n, f"T{n}", "1", "2", TableModel(EN)) for n in (1, 2, 4)]
    model.set_rows(rows)
    model.move(2)
    assert model.selected_number == 4
    model.set_rows([rows[0], rows[2]])  # table 2 closed
    assert model.selected_number == 4
    model.set_rows([rows[0]])  # and table 4 too
    assert model.selected_number == 1
    assert model.next_number() == 2
    model.set_rows([])
    assert model.selected_number is None
    assert model.next_number() == 1
    assert model.open_form().values["name"] == "Table 1"


def test_a_finished_games_row_gives_each_player_their_own_score_after_seats_move() -> None:
    lea, _max, ana, bot = lobby().seats
    after = dataclasses.replace(lobby(), seats=(lea, ana, bot))  # Max's seat freed
    model = fed(lobby(), state(), RoundEnd(round=1, winner=2, points=60, scores=(5, 0, 60, 30)))
    model.apply(GameEnd(winner=2, scores=(5, 0, 60, 30)), 0.0)
    model.apply(after, 0.0)
    row = hall_row(1, "Attic", "111111", "222222", model)
    assert [(p.name, p.score) for p in row.players] == [("Lea", 5), ("Ana", 60), ("Bot Bob", 30)]
    assert row.winner == "Ana"


def test_a_finished_games_row_marks_no_bot_playing_in_the_lobby_it_is_back_in() -> None:
    """Seen in the lab: 'game over · Ann wins', then 'Ann 171 (bot playing)' under it:
    T3's autopilot played her last round, and the table is in its lobby now."""
    model = fed(lobby(), state(), event("autopilot", seat=1, on=True))
    model.apply(RoundEnd(round=1, winner=1, points=60, scores=(0, 60, 0, 0)), 0.0)
    model.apply(GameEnd(winner=1, scores=(0, 60, 0, 0)), 0.0)
    row = hall_row(1, "Attic", "111111", "222222", model)
    assert [p.presence for p in row.players] == ["here", "here", "here", "here"]
