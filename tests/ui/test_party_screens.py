"""Issue 10, items 5, 6 and 7 on the screens: who is away, the round's result, the log, the
help, the room code, check numbers, the player's own seat in the second person, French all
the way through, the kids' keys, and the smallest terminal. Each test failed before."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Iterator

import pytest
from helpers import until
from prompt_toolkit.application import Application
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput
from ui_fakes import (
    FakeControls,
    FakeScreen,
    FakeSession,
    event,
    lobby,
    opening_events,
    state,
    welcome,
)

from lanuno.ui.client_app import ClientController, build_client_application, run_client_app
from lanuno.ui.client_model import ClientModel
from lanuno.ui.i18n import translator
from lanuno.ui.table_app import TableController, build_table_application
from lanuno.ui.table_model import TableModel
from lanuno.ui.widgets import MIN_HEIGHT, MIN_WIDTH, render_text
from lanuno.wire.messages import (
    ErrorReply,
    GameEnd,
    Lobby,
    LobbySeat,
    RoundEnd,
    UnoFlags,
    Welcome,
)

NOW = 1000.0


def seat_(
    name: str,
    kind: str,
    kid: bool,
    connected: bool,
    ready: bool,
    check: int | None,
    *,
    bot_playing: bool = False,
) -> LobbySeat:
    return LobbySeat(
        name=name,
        kind=kind,
        kid=kid,
        connected=connected,
        ready=ready,
        check=check,
        bot_playing=bot_playing,
    )


def lobby_(seats: tuple[LobbySeat, ...], preset: str, options: object, can_start: bool) -> Lobby:
    return Lobby(seats=seats, preset=preset, options=options, can_start=can_start)  # type: ignore[arg-type]


def round_end_(round_no: int, winner: int, points: int, scores: tuple[int, ...]) -> RoundEnd:
    return RoundEnd(round=round_no, winner=winner, points=points, scores=scores)


def error_(code: str, rule: str, text: str, seq: int) -> ErrorReply:
    return ErrorReply(code=code, rule=rule, text=text, seq=seq)


def welcome_(seat: int, table: str, preset: str, options: object) -> Welcome:
    return Welcome(version=1, seat=seat, table=table, preset=preset, options=options)  # type: ignore[arg-type]


def feed(model: ClientModel | TableModel, *messages: object) -> None:
    for message in messages:
        model.apply(message, NOW)  # type: ignore[arg-type]


def client_app(
    lang: str = "en",
) -> Iterator[tuple[ClientModel, ClientController, Application[int]]]:
    model = ClientModel(translator(lang))
    ctl = ClientController(FakeSession(), model, clock=lambda: NOW)
    with create_pipe_input() as pipe:
        yield model, ctl, build_client_application(ctl, input=pipe, output=DummyOutput())


def table_app(lang: str = "en") -> Iterator[tuple[TableModel, FakeScreen, Application[int]]]:
    model = TableModel(translator(lang))
    screen = FakeScreen()
    ctl = TableController(screen, FakeControls(), model, clock=lambda: NOW)
    with create_pipe_input() as pipe:
        yield model, screen, build_table_application(ctl, input=pipe, output=DummyOutput())


@pytest.fixture
def client() -> Iterator[tuple[ClientModel, ClientController, Application[int]]]:
    yield from client_app()


@pytest.fixture
def table() -> Iterator[tuple[TableModel, FakeScreen, Application[int]]]:
    yield from table_app()


def lobby_with(*changes: tuple[int, LobbySeat]) -> Lobby:
    seats = list(lobby().seats)
    for index, seat in changes:
        seats[index] = seat
    return lobby_(tuple(seats), "official", {"target": 500}, True)


MAX_AWAY = seat_("Max", "human", True, False, True, None)
MAX_BOT = seat_("Max", "human", True, False, True, None, bot_playing=True)


# ------------------------------------------------------------------ item 5: what happens


def test_shared_screen_shows_an_away_player_then_bot_playing(
    table: tuple[TableModel, FakeScreen, Application[int]],
) -> None:
    model, _screen, app = table
    feed(model, lobby(), *opening_events(), state(hand=(), legal=()))
    assert "away" not in render_text(app)
    feed(model, lobby_with((1, MAX_AWAY)))
    screen = render_text(app)
    assert re.search(r"Max [^\n]*\n[^\n]*│\s+away\n", screen), screen
    feed(model, lobby_with((1, MAX_BOT)))
    assert "bot playing" in render_text(app)


def test_every_client_shows_who_is_away(
    client: tuple[ClientModel, ClientController, Application[int]],
) -> None:
    model, _ctl, app = client
    feed(model, welcome(), lobby(), *opening_events(), state(), lobby_with((1, MAX_AWAY)))
    assert re.search(r"Max [^\n]*\n\s+away", render_text(app))
    feed(model, lobby_with((1, MAX_BOT)))
    assert re.search(r"Max [^\n]*\n\s+bot playing", render_text(app))
    # The engine's own autopilot (T3, two timeouts) shows the same way.
    feed(model, lobby(), event("autopilot", seat=0, on=True))
    assert re.search(r"Lea [^\n]*\n\s+bot playing", render_text(app))


def test_shared_screen_keeps_the_room_code_and_check_numbers_during_the_game(
    table: tuple[TableModel, FakeScreen, Application[int]],
) -> None:
    model, _screen, app = table
    feed(model, lobby(), *opening_events(), state(hand=(), legal=()))
    screen = render_text(app)
    assert "code 482 913" in screen.splitlines()[0]
    assert "check 271 828" in screen
    # Max drops and resumes: a new connection, a new check number beside the seat.
    feed(model, lobby_with((1, MAX_AWAY)))
    feed(model, lobby_with((1, seat_("Max", "human", True, True, True, 654321))))
    screen = render_text(app)
    assert "check 654 321" in screen
    assert "check 271 828" not in screen


def test_ten_seats_show_away_and_check_numbers_on_one_line_each() -> None:
    names = ("Lea", "Max", "Ana", "Tom", "Zoe", "Noe", "Eva", "Leo", "Mia", "Sam")
    seats = [seat_(n, "human", False, True, True, 100_000 + i) for i, n in enumerate(names)]
    seats[4] = seat_("Zoe", "human", False, False, True, None)
    counts = (7, 1, 14, 3, 5, 6, 2, 9, 4, 8)
    public = state(hand=(), legal=(), counts=counts, uno=(UnoFlags(False, False),) * 10)
    for model, _screen, app in table_app():
        feed(model, lobby_(tuple(seats), "official", {}, True), public)
        screen = render_text(app)
        assert re.search(r"Zoe\s+away", screen), screen
        assert re.search(r"Sam\s+100 009", screen), screen


def test_round_result_waits_for_enter_then_the_new_round_shows(
    client: tuple[ClientModel, ClientController, Application[int]],
) -> None:
    model, _ctl, app = client
    started = event("round_started", round_no=1, dealer=0, hand_size=7)
    feed(model, welcome(), lobby(), started, state(), round_end_(1, 1, 87, (120, 87, 40, 65)))
    started = event("round_started", round_no=2, dealer=1, hand_size=7)
    feed(model, started, state(round_no=2, sid=9, deadline_ms=None))  # round 2 began at once
    screen = render_text(app)
    assert model.screen == "round_end"
    assert "Round 1 is over" in screen
    assert "Round 2 has started: press Enter to play." in screen
    model.continue_()
    assert model.screen == "play"


def test_round_result_gives_way_to_a_timed_decision(
    client: tuple[ClientModel, ClientController, Application[int]],
) -> None:
    model, _ctl, _app = client
    feed(model, welcome(), lobby(), state(), round_end_(1, 1, 87, (120, 87, 40, 65)))
    feed(model, state(round_no=2, sid=9, deadline_ms=30_000))  # the move timer runs for us
    assert model.screen == "play"


async def test_enter_closes_the_round_result() -> None:
    session = FakeSession()
    with create_pipe_input() as pipe:
        app = asyncio.create_task(
            run_client_app(session, lang="en", input=pipe, output=DummyOutput())
        )
        session.feed(welcome(), lobby(), state(), round_end_(1, 1, 87, (120, 87, 40, 65)))
        session.feed(state(round_no=2, sid=9, deadline_ms=None))
        await _drained(session.queue)
        pipe.send_text("\r")
        await asyncio.sleep(0.2)
        pipe.send_text("\x11")  # Ctrl-Q leaves at once
        assert await asyncio.wait_for(app, 5) == 0


async def _drained(queue: asyncio.Queue[object]) -> None:
    await until(queue.empty, "the app reads what the fake session fed it")
    await asyncio.sleep(0.05)  # and applies the last one (taken off the queue, not yet shown)


def test_round_result_is_never_cut_at_80_columns() -> None:
    long = "Maximilian-Alexandre Fontaine"
    seats = list(lobby().seats)
    seats[1] = seat_(long, "human", False, True, True, 1)
    for lang, sentence in (
        ("en", f"{long} wins the round and scores 87 points."),
        ("fr", f"{long} gagne la manche et marque 87 points."),
    ):
        for model, _ctl, app in client_app(lang):
            feed(model, welcome(), lobby_(tuple(seats), "official", {}, True), state())
            feed(model, round_end_(1, 1, 87, (120, 87, 40, 65)))
            words = " ".join(render_text(app).replace("│", " ").split())
            assert sentence in _panel_text(render_text(app)), words
        for table, _screen, tapp in table_app(lang):
            feed(table, lobby_(tuple(seats), "official", {}, True), state(hand=(), legal=()))
            feed(table, round_end_(1, 1, 87, (120, 87, 40, 65)))
            assert sentence in _panel_text(render_text(tapp))


def _panel_text(screen: str) -> str:
    """The left panel's text as one line (wrapped lines joined)."""
    return " ".join(line.split("│")[0].strip() for line in screen.splitlines() if line.strip())


def test_log_scrolls_back_with_page_up(
    client: tuple[ClientModel, ClientController, Application[int]],
) -> None:
    model, _ctl, app = client
    feed(model, welcome(), lobby(), event("round_started", round_no=1, dealer=1, hand_size=7))
    for number in range(1, 40):
        feed(model, event("played", seat=0, card=f"R{number % 10}", jump_in=False))
    feed(model, state())
    assert "Round 1 starts" not in render_text(app)
    model.scroll_log(1000)  # PgUp, many times: stops at the first line
    screen = render_text(app)
    assert "Round 1 starts" in screen
    assert "PgDn" in screen
    model.scroll_log(-1000)
    assert "Round 1 starts" not in render_text(app)


def test_page_up_scrolls_the_shared_screen_too(
    table: tuple[TableModel, FakeScreen, Application[int]],
) -> None:
    model, _screen, app = table
    feed(model, lobby(), event("round_started", round_no=1, dealer=1, hand_size=7))
    for number in range(1, 40):
        feed(model, event("played", seat=0, card=f"R{number % 10}", jump_in=False))
    feed(model, state(hand=(), legal=()))
    assert "Round 1 starts" not in render_text(app)
    model.scroll_log(1000)
    assert "Round 1 starts" in render_text(app)


def _client_playing(
    lang: str, pipe: PipeInput
) -> tuple[FakeSession, ClientModel, Application[int], asyncio.Task[int]]:
    """A player's full-screen client, running, fed the lobby and a state."""
    session = FakeSession()
    model = ClientModel(translator(lang))
    ctl = ClientController(session, model)
    app = build_client_application(ctl, input=pipe, output=DummyOutput())
    running = asyncio.create_task(
        app.run_async(pre_run=lambda: app.create_background_task(ctl.pump()) and None)
    )
    session.feed(welcome(), lobby(), state())
    return session, model, app, running


async def test_question_mark_opens_help_and_q_asks_before_leaving() -> None:
    with create_pipe_input() as pipe:
        session, model, app, running = _client_playing("en", pipe)
        await _drained(session.queue)  # type: ignore[arg-type]
        pipe.send_text("?")
        await until(lambda: model.help_open, "? opens the help")
        assert "Counter-UNO: catch a player" in render_text(app)
        pipe.send_text("d")  # any key closes the help, and does nothing else
        await until(lambda: not model.help_open, "a key closes the help")
        assert session.acted == []
        pipe.send_text("q")
        await until(lambda: model.confirm_quit, "Q asks before leaving")
        assert "Leave the game?" in render_text(app)
        pipe.send_text("n")  # anything but Y stays
        await until(lambda: not model.confirm_quit, "N stays")
        assert not running.done()
        pipe.send_text("qy")
        assert await asyncio.wait_for(running, 5) == 0


@pytest.mark.parametrize(("lang", "stay", "leave"), [("en", "o", "y"), ("fr", "n", "o")])
async def test_the_quit_question_takes_yes_in_the_players_language(
    lang: str, stay: str, leave: str
) -> None:
    with create_pipe_input() as pipe:
        session, model, app, running = _client_playing(lang, pipe)
        await _drained(session.queue)  # type: ignore[arg-type]
        pipe.send_text("q")
        await until(lambda: model.confirm_quit, "Q asks before leaving")
        assert f" {leave.upper()} " in render_text(app)  # the question names the key
        pipe.send_text(stay)  # O is no answer in English, N none in French: both stay
        await until(lambda: not model.confirm_quit, "another key stays")
        assert not running.done()
        pipe.send_text("q" + leave)
        assert await asyncio.wait_for(running, 5) == 0


async def test_shared_screen_asks_before_closing_a_running_game() -> None:
    screen, controls = FakeScreen(), FakeControls()
    model = TableModel(translator("en"))
    ctl = TableController(screen, controls, model)
    with create_pipe_input() as pipe:
        app = build_table_application(ctl, input=pipe, output=DummyOutput())
        running = asyncio.create_task(
            app.run_async(pre_run=lambda: app.create_background_task(ctl.pump()) and None)
        )
        screen.feed(lobby(), state(hand=(), legal=()))
        await _drained(screen.queue)  # type: ignore[arg-type]
        pipe.send_text("q")
        await until(
            lambda: "Close the table for all (it stays saved)?" in render_text(app), "Q asks"
        )
        assert controls.calls == []
        pipe.send_text("x")
        await until(lambda: not model.confirm_quit, "any other key stays")
        assert controls.calls == []
        pipe.send_text("?")
        await until(lambda: "PgUp/PgDn: scroll the events" in render_text(app), "? shows help")
        pipe.send_text(" qy")
        assert await asyncio.wait_for(running, 5) == 0
        assert controls.calls == [("shutdown",)]


def test_a_rotated_room_code_shows_at_once_with_a_warning(
    table: tuple[TableModel, FakeScreen, Application[int]],
) -> None:
    model, screen, app = table
    feed(model, lobby(), state(hand=(), legal=()))
    assert "code 482 913" in render_text(app)
    screen.room = "105377"  # ten wrong codes: the host picked a new one
    shown = render_text(app)
    assert "code 105 377" in shown.splitlines()[0]
    assert "Too many wrong codes: the room code is now 105 377." in shown


def test_a_table_with_every_player_away_says_it_waits_for_them(
    table: tuple[TableModel, FakeScreen, Application[int]],
) -> None:
    """A host restarted mid-round plays nothing for its away players until one is back:
    its screen says so (and stops saying it once a player is back)."""
    model, _screen, app = table
    away = lobby()
    seats = tuple(
        dataclasses.replace(s, connected=False) if s.kind == "human" else s for s in away.seats
    )
    feed(model, dataclasses.replace(away, seats=seats), state(hand=(), legal=()))
    assert model.waiting_for_players
    assert "Waiting for the players to come back." in render_text(app)
    feed(model, lobby())
    assert "Waiting for the players" not in render_text(app)


def test_a_remote_screen_learning_the_room_code_is_no_rotation(
    table: tuple[TableModel, FakeScreen, Application[int]],
) -> None:
    model, screen, app = table
    screen.room = ""  # a paired screen before the host's first info
    feed(model, lobby())
    render_text(app)
    screen.room = "482913"
    assert "Too many wrong codes" not in render_text(app)
    assert not model.code_rotated


# ------------------------------------------------------------------ item 6: language


def round_over(model: ClientModel, winner: int) -> None:
    feed(
        model,
        event("round_ended", winner=winner, points=87),
        round_end_(1, winner, 87, (120, 87, 40, 65)),
    )


@pytest.mark.parametrize(
    ("lang", "log_line", "summary"),
    [
        ("en", "You win the round: 87 points.", "You win the round and score 87 points."),
        ("fr", "Vous gagnez la manche : 87 points.", "Vous gagnez la manche et marquez 87 points."),
    ],
)
def test_my_own_seat_is_narrated_in_the_second_person(
    lang: str, log_line: str, summary: str
) -> None:
    seats = list(lobby().seats)
    seats[2] = seat_("jdoe", "human", False, True, True, 123456)  # the login name
    for model, _ctl, app in client_app(lang):
        feed(model, welcome(seat=2), lobby_(tuple(seats), "official", {}, True), state())
        assert model.log.lines[0].text.startswith(("Round 1 is under way", "La manche 1 est en"))
        model.log.lines.clear()  # arrived mid-round (no round_started): where it stands
        feed(model, event("played", seat=2, card="R7", jump_in=False))
        feed(model, event("counter_uno", caller=0, target=2, caught=True))
        round_over(model, winner=2)
        lines = [line.text for line in model.log.lines]
        assert lines[0] == {"en": "You played red 7.", "fr": "Vous avez joué 7 rouge."}[lang]
        assert (
            lines[1]
            == {
                "en": "Lea caught you without UNO!",
                "fr": "Lea vous a contré : vous n'aviez pas dit UNO !",
            }[lang]
        )
        assert lines[2] == log_line
        screen = render_text(app)
        assert summary in _panel_text(screen)
        assert "jdoe wins" not in screen
        assert "You wins" not in screen
        assert "jdoe gagne" not in screen


@pytest.mark.parametrize(("lang", "you"), [("en", "(you)"), ("fr", "(vous)")])
def test_a_long_name_is_cut_but_the_row_still_says_it_is_yours(lang: str, you: str) -> None:
    seats = list(lobby().seats)
    seats[2] = seat_("Zoé-Marie-Antoinette", "human", False, True, True, 1)  # 20 letters
    for model, _ctl, app in client_app(lang):
        feed(model, welcome(seat=2), lobby_(tuple(seats), "official", {}, True), state())
        rows = [line for line in render_text(app).splitlines() if "Zoé" in line]
        assert rows, render_text(app)
        assert f"… {you}" in rows[0]


def test_a_player_named_you_never_reads_you_wins() -> None:
    for model, _ctl, app in client_app("en"):
        seats = list(lobby().seats)
        seats[2] = seat_("You", "human", False, True, True, 1)  # a name like a pronoun
        feed(model, welcome(seat=2), lobby_(tuple(seats), "official", {}, True), state())
        round_over(model, winner=2)
        assert "You wins" not in render_text(app)


def test_one_point_is_singular() -> None:
    for model, _ctl, app in client_app("en"):
        feed(model, welcome(), lobby(), state(), event("round_ended", winner=1, points=1))
        feed(model, round_end_(1, 1, 1, (0, 1, 0, 0)))
        screen = render_text(app)
        assert "scores 1 point." in _panel_text(screen)
        assert "1 points" not in screen


def test_engine_refusals_are_translated_and_seats_count_from_one() -> None:
    for model, _ctl, _app in client_app("fr"):
        feed(model, welcome(), lobby(), state())
        feed(model, error_("not_your_turn", "O10", "It is not your turn: waiting for seat 1.", 3))
        assert model.refusal == "Ce n'est pas à vous : on attend Max."
        feed(model, error_("illegal", "O10", "You do not hold blue Skip.", 4))
        assert model.refusal == "Vous n'avez pas Passe bleue."
    for model, _ctl, _app in client_app("en"):
        feed(model, welcome(), lobby(), state())
        feed(model, error_("not_your_turn", "O10", "It is not your turn: waiting for seat 1.", 3))
        assert model.refusal == "It is not your turn: waiting for Max."


def test_bot_levels_and_card_codes_in_french() -> None:
    seats = list(lobby().seats)
    seats[3] = seat_("Bot 2 (intermediate)", "bot", False, True, True, None)
    for model, _ctl, app in client_app("fr"):
        hand = ("W", "W+4", "YS", "G+2")
        legal = ("play W", "play W+4", "draw")
        feed(model, welcome(), lobby_(tuple(seats), "official", {}, True))
        feed(model, state(hand=hand, legal=legal))
        screen = render_text(app)
        assert model.name_of(3) == "Robot 2 (intermédiaire)"
        assert "Robot 2 (int" in screen
        assert "intermediate" not in screen
        hand_row = next(line for line in screen.splitlines() if "JPa" in line)
        assert "W" not in hand_row
        assert "[Jok]" in hand_row
        assert "[ +4]" in hand_row  # not J+4: a French J is yellow, and J+2 its Draw Two
    for table, _screen, tapp in table_app("fr"):
        feed(table, lobby_(tuple(seats), "official", {}, True))
        feed(table, state(hand=(), legal=(), top="W+4", color="G"))
        screen = render_text(tapp)
        assert "+4  VERT" in screen
        assert "J+4" not in screen
        assert "W+4" not in screen
        assert "Robot 2 (interméd" in screen
        assert "intermediate" not in screen


@pytest.mark.parametrize(
    ("lang", "shown", "raw"),
    [("fr", "Robot 2 (débutant)", "Bot 2"), ("en", "Bot 2 (beginner)", "Robot")],
)
def test_bot_names_in_the_lobby_read_in_the_readers_language(
    lang: str, shown: str, raw: str
) -> None:
    """The lobby lists of both apps name a bot as the hall and the table do."""
    seats = list(lobby().seats)
    seats[3] = seat_("Bot 2 (beginner)", "bot", False, True, True, None)
    for model, _ctl, app in client_app(lang):
        feed(model, welcome(), lobby_(tuple(seats), "official", {}, True))
        screen = render_text(app)
        assert shown in screen, screen
        assert raw not in screen
    for table, _screen, tapp in table_app(lang):
        feed(table, lobby_(tuple(seats), "official", {}, True))
        screen = render_text(tapp)
        assert shown[:13] in screen, screen  # the table app's seat list fits 14 columns
        assert raw not in screen
        assert table.name_of(3) == shown


def test_a_local_game_shows_no_check_number_or_connection(
    client: tuple[ClientModel, ClientController, Application[int]],
) -> None:
    model, _ctl, app = client
    model.local = True
    feed(model, welcome(), lobby(), state())
    header = render_text(app).splitlines()[0]
    assert "check" not in header
    assert "connected" not in header
    assert header.strip().startswith("lanuno · Kitchen")


# ------------------------------------------------------------------ item 7: kids


KIDS1 = {
    "deck": "numbers",
    "counter_uno": False,
    "wild_draw_four": "challenge",
    "target": None,
    "must_play_drawn": True,
}
KIDS2 = {
    "deck": "with_blanks",
    "counter_uno": False,
    "wild_draw_four": "free",
    "target": 5,
    "must_play_drawn": True,
}


@pytest.mark.parametrize("options", [KIDS1, KIDS2], ids=["kids1", "kids2"])
def test_kids_screens_hide_keys_their_preset_does_not_have(options: dict[str, object]) -> None:
    for model, _ctl, app in client_app("en"):
        kids_lobby = lobby_(lobby().seats, "kids", options, True)  # type: ignore[arg-type]
        feed(model, welcome_(2, "Kitchen", "kids", options), kids_lobby, state())  # type: ignore[arg-type]
        keys = render_text(app).splitlines()[-1]
        assert "D draw" in keys
        assert "U UNO!" in keys
        assert "Counter-UNO" not in keys
        assert "challenge" not in keys
        assert "pass" not in keys  # K1-4 / K2-8: a drawn card that fits is played, always
        model.help_open = True
        # The keys the help lists (under them, the table's rules say there is no Counter-UNO)
        help_text, rules = render_text(app).split("Rules: kids")
        assert "Counter-UNO" not in help_text
        assert "Counter-UNO: off" in rules
        assert "challenge" not in help_text
        assert "D draw  U say UNO!" in help_text
        assert "Enter or Space: play it" in help_text
        # kids1 deals numbers only: no wild to ask for its color.
        assert ("wild" in help_text) == (options is KIDS2)


def test_esc_to_cancel_is_offered_only_where_esc_cancels_something() -> None:
    # A Seven-O swap, a color owed to the host, a gift's first recipient: Esc does nothing
    # there (the host waits for the choice), yet the hint said "Esc to cancel".
    owed = (
        state(phase="swap", legal=("swap 0", "swap 1", "swap 3")),
        state(phase="choose_color", legal=("color R", "color Y", "color G", "color B")),
        state(phase="gift", legal=("give 0", "give 1", "give 3")),
    )
    for lang, esc in (("en", "Esc"), ("fr", "Échap")):
        for waiting in owed:
            for model, _ctl, app in client_app(lang):
                feed(model, welcome(), lobby(), waiting)
                screen = render_text(app)
                assert model.picker is not None
                model.cancel()
                assert model.picker is not None  # Esc indeed left it open
                assert esc not in screen, screen
                assert {"en": "then Enter", "fr": "puis Entrée"}[lang] in screen
        for model, _ctl, app in client_app(lang):
            feed(model, welcome(), lobby(), state())
            model.select(model.hand.index("W"))
            model.activate()  # a wild from the hand: Esc puts it back
            assert esc in render_text(app)


def test_kids2_gift_prompt_fits_80_columns() -> None:
    names = ("Léonie-Charlotte", "Maximilien", "Anastasia", "Théodore", "Bartholomew")
    seats = tuple(seat_(n, "human", True, True, True, 1) for n in names)
    gift = state(
        phase="gift",
        hand=("R1", "R2", "G+2", "Y5", "B9"),
        legal=tuple(f"give {a} {b}" for a in (0, 1, 3, 4) for b in (0, 1, 3, 4)),
        counts=(5, 5, 5, 5, 5),
        uno=(UnoFlags(False, False),) * 5,
        actor=2,
        turn=2,
    )
    for lang in ("en", "fr"):
        for model, _ctl, app in client_app(lang):
            feed(model, welcome_(2, "Kitchen", "kids2", KIDS2), lobby_(seats, "kids2", KIDS2, True))  # type: ignore[arg-type]
            feed(model, gift)
            screen = render_text(app)
            assert model.picker is not None
            assert model.picker.kind == "gift"
            for name in ("Léonie-Charlotte", "Maximilien", "Théodore", "Bartholomew"):
                assert name in screen, screen
            hint = {"en": "a number chooses", "fr": "un numéro choisit"}[lang]
            assert hint in screen


def test_below_the_minimum_size_a_clear_make_it_bigger_screen() -> None:
    for model, _ctl, app in client_app("en"):
        feed(model, welcome(), lobby(), state())
        assert "Your hand" in render_text(app, MIN_WIDTH, MIN_HEIGHT)
        small = render_text(app, 70, 20)
        assert "too small" in small
        assert f"at least {MIN_WIDTH} x {MIN_HEIGHT}" in small
        assert "(now 70 x 20)" in small
    for table, _screen, tapp in table_app("fr"):
        feed(table, lobby())
        assert "Agrandissez la fenêtre" in render_text(tapp, 79, 24)


def test_the_make_it_bigger_screen_wraps_by_words_on_a_small_terminal() -> None:
    # At 40 x 15 the window's own wrap cut "lanu|no" and "80 x 2|4".
    words = {
        "en": ("lanuno.", "bigger:", "80 x 24", "(now 40 x 15)."),
        "fr": ("lanuno.", "fenêtre :", "80 x 24", "(actuellement 40 x 15)."),
    }
    for lang, expected in words.items():
        for model, _ctl, app in client_app(lang):
            feed(model, welcome(), lobby(), state())
            small = render_text(app, 40, 15)
            lines = [line.rstrip() for line in small.splitlines()]
            assert all(len(line) <= 40 for line in lines)
            for piece in expected:
                assert any(piece in line for line in lines), small
        for table, _screen, tapp in table_app(lang):
            feed(table, lobby())
            assert "80 x 24" in render_text(tapp, 40, 15)


def test_a_late_joiner_is_told_they_watch_until_the_next_game(
    client: tuple[ClientModel, ClientController, Application[int]],
) -> None:
    model, _ctl, app = client
    late = Welcome(version=1, seat=None, table="Kitchen", preset="official", options={})
    feed(model, late, lobby(), state(hand=(), legal=()))
    text = render_text(app)
    assert "You are watching: you will be seated when this game ends." in text
    # No hand and no keys to play one: only quitting and the help.
    assert "Your hand" not in text
    assert "D draw" not in text
    assert "Q quit" in text


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("en", "Round 1 is under way; the top card is red 9."),
        ("fr", "La manche 1 est en cours ; la carte du dessus est 9 rouge."),
    ],
)
def test_a_guest_arriving_mid_round_is_told_where_it_stands(lang: str, line: str) -> None:
    for model, _ctl, _app in client_app(lang):
        feed(model, welcome_(None, "Kitchen", "official", {}), lobby(), state())  # type: ignore[arg-type]
        assert [entry.text for entry in model.log.lines] == [line]
        feed(model, state(sid=8))  # said once a round
        assert len(model.log.lines) == 1


def test_a_round_seen_from_its_start_needs_no_summary() -> None:
    for model, _ctl, _app in client_app("en"):
        started = event("round_started", round_no=1, dealer=0, hand_size=7)
        feed(model, welcome(), lobby(), started, state())
        assert not any("under way" in entry.text for entry in model.log.lines)


def test_a_long_refusal_fits_its_line_with_an_ellipsis() -> None:
    for model, _ctl, app in client_app("fr"):
        feed(model, welcome(), lobby(), state())
        model.refusal = (
            "Pas maintenant : prenez la pénalité (ou cumulez, ou contestez, si c'est permis)."
        )
        line = next(row for row in render_text(app).splitlines() if "Refusé" in row)
        assert line.endswith("…")
        assert len(line) <= 80


def test_back_in_the_lobby_after_a_game_the_header_names_no_round() -> None:
    for model, _ctl, app in client_app("en"):
        feed(
            model,
            welcome(),
            lobby(),
            state(round_no=3),
            GameEnd(winner=0, scores=(512, 87, 40, 65)),
        )
        assert "round 3" in render_text(app).splitlines()[0]
        model.continue_()
        assert model.screen == "lobby"
        assert "round" not in render_text(app).splitlines()[0]


@pytest.mark.parametrize(
    ("lang", "first", "second"),
    [
        ("en", "Who gets green 7?", "Who gets yellow 5?"),
        ("fr", "Qui reçoit 7 vert ?", "Qui reçoit 5 jaune ?"),
    ],
)
def test_the_gift_picker_names_each_card_it_gives(lang: str, first: str, second: str) -> None:
    gives = tuple(f"give {a} {b}" for a in (0, 1, 3) for b in (0, 1, 3))
    for model, _ctl, app in client_app(lang):
        feed(model, welcome(), lobby(), state())
        feed(model, event("cards_drawn", seat=2, cards=("G7", "Y5")))
        feed(model, event("drew", seat=2, count=2, cause="gift"))
        feed(model, state(phase="gift", legal=gives, sid=9))
        assert first in render_text(app)
        model.choose(0)
        assert second in render_text(app)
        # A plain draw later forgets the gift's cards: no stale names on the next gift.
        feed(model, event("cards_drawn", seat=2, cards=("R1",)))
        feed(model, event("drew", seat=2, count=1, cause="draw"))
        assert model.gift_cards == ()


def test_lanuno_play_asks_for_r_to_play_again_and_shows_no_check_number() -> None:
    """One computer (``lanuno play``): no host screen starts the next game and no shared
    screen shows check numbers; the player's R starts it (the table auto-starts)."""
    for model, _ctl, app in client_app("en"):
        model.local = True
        feed(model, welcome(), lobby(), state(), GameEnd(winner=0, scores=(512, 87, 40, 65)))
        assert "then R to play another" in render_text(app)
        model.continue_()
        screen = render_text(app)
        assert "Press R to start the next game." in screen
        assert "Waiting for the host" not in screen
        assert "check number" not in screen.lower()


@pytest.mark.parametrize(
    ("lang", "hint"),
    [
        ("en", "You can jump in: choose red 7 and press Enter."),
        ("fr", "Vous pouvez vous interposer : choisissez 7 rouge, puis Entrée."),
    ],
)
def test_a_jump_in_is_offered_out_of_turn(lang: str, hint: str) -> None:
    """T6: another seat just played red 7 and this player holds one: the prompt says so, and
    the card plays with Enter although it is not this player's turn."""
    for model, _ctl, app in client_app(lang):
        feed(model, welcome(), lobby(), state(top="R7", turn=0, actor=0, legal=("play R7",)))
        assert hint in render_text(app)
        model.select(model.hand.index("R7"))
        assert model.activate() == ("play R7",)
        feed(model, state(top="R7", turn=0, actor=0, legal=(), sid=8))  # the window closed
        assert hint not in render_text(app)


@pytest.mark.parametrize(("lang", "word"), [("en", "bot playing"), ("fr", "robot joue")])
def test_between_rounds_the_host_reads_bot_playing_whole(lang: str, word: str) -> None:
    for model, _screen, app in table_app(lang):
        feed(model, lobby(), *opening_events(), state(hand=(), legal=()))
        feed(model, lobby_with((1, MAX_BOT)), round_end_(1, 0, 87, (87, 0, 0, 0)))
        rows = render_text(app).splitlines()
        row = next(line for line in rows if re.match(r" [ ›][ ★]Max ", line))
        assert word in row, row
        assert "…" not in row


@pytest.mark.parametrize(
    ("lang", "says"),
    [("en", "Another screen for this table"), ("fr", "Un autre écran pour cette table")],
)
def test_a_plain_hosts_help_gives_the_command_that_pairs_another_screen(
    lang: str, says: str
) -> None:
    """A plain ``lanuno host`` has no hall screen, and nothing showed its screen code: no
    TV could become its shared screen. Its help (?) gives it; a remote screen's does not."""
    for code, shown in (("654321", True), (None, False)):
        model = TableModel(translator(lang))
        screen = FakeScreen()
        screen.address_list = ("192.168.1.20:40123",)
        ctl = TableController(screen, FakeControls(), model, clock=lambda: NOW,
                              screen_code=None if code is None else (lambda: "654321"))  # fmt: skip
        with create_pipe_input() as pipe:
            app = build_table_application(ctl, input=pipe, output=DummyOutput())
            feed(model, lobby())
            model.help_open = True
            text = " ".join(render_text(app).split())
        command = "lanuno screen 192.168.1.20:40123 --code 654321"
        assert (command in text) is shown, text
        assert (says in text) is shown


@pytest.mark.parametrize(("lang", "says"), [("en", "reconnecting..."), ("fr", "reconnexion...")])
def test_a_remote_screen_pairing_again_says_so_in_its_header(lang: str, says: str) -> None:
    """What a screen shows while its link is down is not current: its header says so."""
    for model, screen, app in table_app(lang):
        feed(model, lobby())
        assert says not in render_text(app).splitlines()[0]
        screen.linked = False
        assert says in render_text(app).splitlines()[0]
        screen.linked = True
        assert says not in render_text(app).splitlines()[0]


@pytest.mark.parametrize(
    ("lang", "host_key", "says"),
    [
        ("en", "B add a bot", "only the host's own screen changes it"),
        ("fr", "B robot", "seul l'écran de l'hôte la modifie"),
    ],
)
def test_a_remote_screens_help_lists_its_own_keys_not_the_hosts(
    lang: str, host_key: str, says: str
) -> None:
    """A TV's help listed B, Del, P, O, S and "Q close the table", none of which it has."""
    for remote in (False, True):
        model = TableModel(translator(lang), remote=remote)
        ctl = TableController(FakeScreen(), FakeControls(), model, clock=lambda: NOW)
        with create_pipe_input() as pipe:
            app = build_table_application(ctl, input=pipe, output=DummyOutput())
            feed(model, lobby())
            model.help_open = True
            text = " ".join(render_text(app).split())
        assert (host_key in text) is not remote, text
        assert (says in text) is remote, text


@pytest.mark.parametrize(("lang", "says"), [("en", "Kids cannot be caught"), ("fr", "KA1")])
def test_k_on_a_silent_kid_says_ka1_not_that_nobody_has_one_card(lang: str, says: str) -> None:
    """KA1: the kid (seat 0) is down to one card without saying UNO; K said "Nobody to
    catch: no player has one card without having said UNO", which the table could see was
    false."""
    options = {"counter_uno": True, "kids_immune_to_counter_uno": True}
    seats = (
        seat_("Ann", "human", True, True, True, 1),
        seat_("Max", "human", False, True, True, 2),
        seat_("Bob", "human", False, True, True, 3),
    )
    silent = state(counts=(1, 5, 6), uno=(UnoFlags(False, False),) * 3, legal=("draw",))
    model = ClientModel(translator(lang))
    for message in (
        welcome_(2, "Kitchen", "official", options),
        lobby_(seats, "official", options, True),
        silent,
    ):
        model.apply(message, NOW)  # type: ignore[arg-type]
    assert model.catch() == ()
    assert model.refusal is not None
    assert says in model.refusal
    assert "KA1" in model.refusal


def test_the_uno_hint_shows_with_two_cards_only_when_one_can_be_played() -> None:
    """With two cards and nothing to play, "Press U to say UNO!" invited a UNO that the
    draw then loses (the bots do not say it then either: tactics.uno_worth_saying)."""
    for legal, shown in ((("play R2", "uno", "draw"), True), (("uno", "draw"), False)):
        for model, _ctl, app in client_app("en"):
            feed(
                model,
                welcome(),
                lobby(),
                state(hand=("R2", "B7"), legal=legal, counts=(5, 1, 2, 3)),
            )
            assert ("Press U to say UNO!" in render_text(app)) is shown
