"""Both apps driven through their key bindings: prompt_toolkit pipe input, DummyOutput,
and the in-memory fakes of the network layer (ui_fakes)."""

from __future__ import annotations

import asyncio
import dataclasses
import io
from collections.abc import AsyncIterator

import pytest
from helpers import until
from prompt_toolkit.application import Application
from prompt_toolkit.data_structures import Point, Size
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.mouse_events import MouseButton, MouseEvent, MouseEventType
from prompt_toolkit.output import DummyOutput
from ui_fakes import FakeControls, FakeScreen, FakeSession, lobby, state, welcome

from lanuno.bots.levels import BotLevel
from lanuno.client.notices import HostStillLost
from lanuno.net.server import SAVED_REASON
from lanuno.ui.client_app import (
    ClientController,
    _hand,
    _keys_bar,
    build_client_application,
    run_client_app,
)
from lanuno.ui.client_model import ClientModel
from lanuno.ui.contracts import ConnectionState
from lanuno.ui.faces import big_text
from lanuno.ui.i18n import translator
from lanuno.ui.plain import PlainClient
from lanuno.ui.reasons import alarm_text
from lanuno.ui.table_app import (
    TableController,
    build_table_application,
    run_table_app,
)
from lanuno.ui.table_model import TableModel
from lanuno.ui.widgets import MinimumSize, render_text
from lanuno.wire.errors import CloseCode
from lanuno.wire.messages import Bye, GameEnd, Lobby, LobbySeat, Message, RoundEnd

DOWN = "\x1b[B"
RIGHT = "\x1b[C"


async def consumed(queue: asyncio.Queue[object]) -> None:
    # The app applies a message in the same step as it takes it off the queue.
    await until(queue.empty, "the app took every message")


async def press(pipe: PipeInput, keys: str) -> None:
    pipe.send_text(keys)
    await asyncio.sleep(0.02)


# ---------------------------------------------------------------------------- client


async def test_client_plays_whole_turns_from_the_keyboard() -> None:
    session = FakeSession()
    with create_pipe_input() as pipe:
        app = asyncio.create_task(
            run_client_app(session, lang="en", input=pipe, output=DummyOutput())
        )
        session.feed(welcome(), lobby(ready=False))
        await consumed(session.queue)  # type: ignore[arg-type]
        await press(pipe, "r")
        await until(lambda: session.ready_calls == [True], "ready sent")

        session.feed(state())  # hand sorted: R2 R7 YS G+2 B7 BR W W+4
        await consumed(session.queue)  # type: ignore[arg-type]
        await press(pipe, "2\r")
        await until(lambda: session.acted == ["play R7"], "number key then Enter plays")

        await press(pipe, "8 ")
        await press(pipe, "b")
        await until(lambda: session.acted[-1] == "play W+4 B", "wild with its color")

        await press(pipe, "1" + RIGHT + RIGHT + RIGHT + RIGHT + "\r")
        await until(lambda: session.acted[-1] == "play B7", "arrows then Enter plays")

        for key, verb in (("d", "draw"), ("p", "pass"), ("u", "uno"), ("c", "challenge")):
            await press(pipe, key)
            await until(lambda verb=verb: session.acted[-1] == verb, f"{key} sends {verb}")
        await press(pipe, "a")
        await until(lambda: session.acted[-1] == "accept", "a sends accept")

        session.feed(state(actor=0, turn=0, legal=("catch 1",), sid=8))
        await consumed(session.queue)  # type: ignore[arg-type]
        await press(pipe, "k")
        await until(lambda: session.acted[-1] == "catch 1", "k sends Counter-UNO")

        await press(pipe, "q")  # during a game, Q asks first; Y leaves
        await press(pipe, "y")
        assert await asyncio.wait_for(app, 5) == 0
    assert session.closed


@pytest.mark.parametrize(("lang", "yes"), [("en", "y"), ("fr", "o")])
async def test_the_quit_question_and_the_help_each_take_the_next_key(lang: str, yes: str) -> None:
    session = FakeSession()
    model = ClientModel(translator(lang))
    ctl = ClientController(session, model)
    with create_pipe_input() as pipe:
        app = build_client_application(ctl, input=pipe, output=DummyOutput())
        running = asyncio.create_task(
            app.run_async(pre_run=lambda: app.create_background_task(ctl.pump()) and None)
        )
        session.feed(welcome(), lobby(), state())
        await consumed(session.queue)  # type: ignore[arg-type]
        await press(pipe, "q")
        await until(lambda: model.confirm_quit, "Q asks first during a game")
        await press(pipe, "d")  # any other key: stay, and the key does nothing else
        await until(lambda: not model.confirm_quit, "stayed")
        await press(pipe, "?")
        await until(lambda: model.help_open, "help shown")
        await press(pipe, "p")  # any key closes the help, and only closes it
        await until(lambda: not model.help_open, "help closed")
        assert session.acted == []
        await press(pipe, "p")
        await until(lambda: session.acted == ["pass"], "keys act again")
        await press(pipe, "q" + yes)  # yes in the player's language leaves
        assert await asyncio.wait_for(running, 5) == 0
    assert session.acted == ["pass"]


class ResizableOutput(DummyOutput):
    """A terminal of a size the test sets (DummyOutput is always 80 x 40)."""

    def __init__(self, columns: int, rows: int) -> None:
        self.size = Size(rows=rows, columns=columns)

    def get_size(self) -> Size:
        return self.size


async def test_keys_do_nothing_while_the_window_is_too_small_but_ctrl_c_quits() -> None:
    # A D pressed behind "make the window bigger" drew a card the player could not see.
    session = FakeSession()
    model = ClientModel(translator("en"))
    ctl = ClientController(session, model)
    output = ResizableOutput(60, 20)
    with create_pipe_input() as pipe:
        app = build_client_application(ctl, input=pipe, output=output)
        running = asyncio.create_task(
            app.run_async(pre_run=lambda: app.create_background_task(ctl.pump()) and None)
        )
        session.feed(welcome(), lobby(), state())
        await consumed(session.queue)  # type: ignore[arg-type]
        sized = app.layout.container
        assert isinstance(sized, MinimumSize)
        await until(lambda: sized.showing_small, "drawn too small")
        assert "Ctrl-C quits." in render_text(app, 60, 20)  # the one key that acts
        await press(pipe, "d2\r")
        output.size = Size(rows=24, columns=80)
        app.invalidate()
        await until(lambda: not sized.showing_small, "drawn at 80 x 24")
        await press(pipe, "p")
        await until(lambda: session.acted == ["pass"], "only the key pressed at full size")
        output.size = Size(rows=15, columns=40)
        app.invalidate()
        await until(lambda: sized.showing_small, "drawn too small again")
        await press(pipe, "\x03")  # Ctrl-C
        assert await asyncio.wait_for(running, 5) == 0
    assert session.acted == ["pass"]


async def test_client_pickers_from_the_keyboard() -> None:
    session = FakeSession()
    model = ClientModel(translator("fr"))
    ctl = ClientController(session, model)
    with create_pipe_input() as pipe:
        app = build_client_application(ctl, input=pipe, output=DummyOutput())
        running = asyncio.create_task(
            app.run_async(pre_run=lambda: app.create_background_task(ctl.pump()) and None)
        )
        colors = ("color R", "color Y", "color G", "color B")
        session.feed(welcome(), lobby(), state(phase="choose_color", legal=colors))
        await consumed(session.queue)  # type: ignore[arg-type]
        await press(pipe, "v")  # vert, in French
        await until(lambda: session.acted == ["color G"], "color picker by letter")

        swaps = ("swap 0", "swap 1", "swap 3")
        session.feed(state(phase="swap", legal=swaps, sid=8))
        await consumed(session.queue)  # type: ignore[arg-type]
        await press(pipe, DOWN + DOWN + "\r")
        await until(lambda: session.acted[-1] == "swap 3", "seat picker by arrows")

        gives = tuple(f"give {a} {b}" for a in (0, 1, 3) for b in (0, 1, 3))
        session.feed(state(phase="gift", legal=gives, sid=9))
        await consumed(session.queue)  # type: ignore[arg-type]
        await press(pipe, "2")
        await press(pipe, "3")
        await until(lambda: session.acted[-1] == "give 1 3", "gift picker, two seats")

        session.feed(state(phase="choose_target", legal=("target 0", "target 3"), sid=10))
        await consumed(session.queue)  # type: ignore[arg-type]
        await press(pipe, "2")
        await until(lambda: session.acted[-1] == "target 3", "target picker by number")

        session.feed(state(phase="turn", sid=11))
        await consumed(session.queue)  # type: ignore[arg-type]
        await press(pipe, "7\r")
        assert model.picker is not None
        assert model.picker.card == "W"
        await press(pipe, "\x1b")
        await until(lambda: model.picker is None, "Esc closes the wild's color picker")

        session.end()
        await until(lambda: ctl.finished, "session end noticed")
        assert ctl.connection() == "closed"
        await press(pipe, "q")
        assert await asyncio.wait_for(running, 5) == 0


async def test_clicking_a_card_plays_it() -> None:
    session = FakeSession()
    model = ClientModel(translator("en"))
    ctl = ClientController(session, model)
    with create_pipe_input() as pipe:
        app = build_client_application(ctl, input=pipe, output=DummyOutput())
        sent: list[tuple[str, ...]] = []
        ctl.perform = sent.append  # type: ignore[method-assign]
        for message in (welcome(), lobby(), state()):
            model.apply(message, 0.0)
        render_text(app)
        chips = [f for f in _hand(ctl)(80) if len(f) == 3 and "[R 7]" in f[1]]
        click = MouseEvent(Point(0, 0), MouseEventType.MOUSE_UP, MouseButton.LEFT, frozenset())
        chips[0][2](click)  # type: ignore[misc]
        assert sent == [("play R7",)]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_over_the_hand_limit_the_hand_says_enter_returns_a_card(lang: str) -> None:
    """Over kids2's 6 cards every card showed '[ ]' under 'playable ... Enter plays', while
    Enter returned the card under the draw pile."""
    tr = translator(lang)
    model = ClientModel(tr)
    ctl = ClientController(FakeSession(), model)
    hand = ("R2", "R7", "YS", "G+2", "B7", "BR", "W")
    for message in (welcome(), lobby(), state(phase="excess", hand=hand, legal=("return R2",))):
        model.apply(message, 0.0)
    title = "".join(fragment[1] for fragment in _hand(ctl)(80)).splitlines()[0]
    assert title.endswith(tr("hand.legend_excess"))
    assert len(title) <= 80
    model.apply(state(sid=9), 0.0)
    title = "".join(fragment[1] for fragment in _hand(ctl)(80)).splitlines()[0]
    assert title.endswith(tr("hand.legend"))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_quitting_lanuno_play_mid_game_says_the_game_is_lost(lang: str) -> None:
    """Q in lanuno play asked 'Leave the game?' as at a host that keeps the seat, though
    lanuno play keeps no journal: the game was gone, and starting again dealt a new one."""
    tr = translator(lang)
    for local, key in ((True, "quit.confirm_local"), (False, "quit.confirm")):
        model = ClientModel(tr)
        model.local = local
        ctl = ClientController(FakeSession(), model)
        for message in (welcome(), lobby(), state()):
            model.apply(message, 0.0)
        model.confirm_quit = True
        line = "".join(fragment[1] for fragment in _keys_bar(ctl)(80))
        assert line == " " + tr(key)
        assert len(line) <= 80
        model.apply(GameEnd(winner=0, scores=(500, 0, 0, 0)), 0.0)  # nothing left to lose
        line = "".join(fragment[1] for fragment in _keys_bar(ctl)(80))
        assert line == " " + tr("quit.confirm")


@pytest.mark.parametrize(
    ("lang", "connection", "said"),
    [
        ("en", "connected", "connected"),
        ("en", "quiet", "no answer from the host..."),
        ("en", "reconnecting", "reconnecting..."),
        ("fr", "quiet", "l'hôte ne répond pas..."),
        ("fr", "reconnecting", "reconnexion..."),
    ],
)
async def test_connection_state_is_shown_in_the_header(
    lang: str, connection: ConnectionState, said: str
) -> None:
    session = FakeSession()
    model = ClientModel(translator(lang))
    ctl = ClientController(session, model)
    with create_pipe_input() as pipe:
        app = build_client_application(ctl, input=pipe, output=DummyOutput())
        for message in (welcome(), lobby(), state()):
            model.apply(message, 0.0)
        session.connection_state = connection
        assert render_text(app, 80, 24).splitlines()[0].rstrip().endswith(said)


async def test_a_quiet_link_still_takes_ready_and_the_line_client_says_nothing_of_it() -> None:
    # The quiet may be a slow moment: R is sent (a drop then brings the host's own mark
    # back), and only a drop is worth a line.
    session = FakeSession()
    model = ClientModel(translator("en"))
    ctl = ClientController(session, model)
    with create_pipe_input() as pipe:
        app = build_client_application(ctl, input=pipe, output=DummyOutput())
        running = asyncio.create_task(
            app.run_async(pre_run=lambda: app.create_background_task(ctl.pump()) and None)
        )
        session.feed(welcome(), lobby(ready=False))
        await consumed(session.queue)  # type: ignore[arg-type]
        session.connection_state = "quiet"
        await press(pipe, "r")
        await until(lambda: session.ready_calls == [True], "ready sent on a quiet link")
        session.connection_state = "reconnecting"
        await press(pipe, "r")
        await asyncio.sleep(0.05)
        assert session.ready_calls == [True]  # nobody would hear it
        await press(pipe, "\x03")
        assert await asyncio.wait_for(running, 5) == 0
    out = io.StringIO()
    line_session = FakeSession()
    client = PlainClient(line_session, out, lang="en")
    for connection in ("quiet", "connected", "quiet", "reconnecting", "connected"):
        line_session.connection_state = connection
        client.note_connection()
    assert out.getvalue().splitlines() == [
        "! The connection to the host dropped: reconnecting...",
        translator("en")("plain.reconnected"),
    ]


def test_larger_terminals_get_wider_panels_and_longer_hand_rows() -> None:
    session = FakeSession()
    model = ClientModel(translator("en"))
    ctl = ClientController(session, model)
    many = ("R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "Y1", "Y2", "Y3", "Y4", "Y5")
    with create_pipe_input() as pipe:
        app = build_client_application(ctl, input=pipe, output=DummyOutput())
        for message in (welcome(), lobby(), state(hand=many, legal=("draw",))):
            model.apply(message, 0.0)
        small = render_text(app, 80, 24)
        large = render_text(app, 140, 45)
    assert ctl.per_row == 23
    assert small.count("^^^^^") == 1
    assert large.count("^^^^^") == 1
    assert len(large.splitlines()) == 45
    assert max(len(line) for line in large.splitlines()) > 80


# ---------------------------------------------------------------------------- shared screen


def table_app_in_lobby(
    model: TableModel, pipe: PipeInput
) -> tuple[FakeScreen, FakeControls, Application[int], asyncio.Task[int]]:
    """The shared screen's app running on ``model``, fed a lobby."""
    screen, controls = FakeScreen(), FakeControls()
    ctl = TableController(screen, controls, model)
    app = build_table_application(ctl, input=pipe, output=DummyOutput())
    running = asyncio.create_task(
        app.run_async(pre_run=lambda: app.create_background_task(ctl.pump()) and None)
    )
    screen.feed(lobby())
    return screen, controls, app, running


async def test_host_keys_reach_the_controls() -> None:
    model = TableModel(translator("en"))
    with create_pipe_input() as pipe:
        screen, controls, app, running = table_app_in_lobby(model, pipe)
        await consumed(screen.queue)  # type: ignore[arg-type]
        script = [
            ("b", ("add_bot", "intermediate")),
            ("lb", ("add_bot", "expert")),
            ("p", ("set_preset", "kids1")),
            ("o\r", ("set_option", "stacking", "on")),
            (DOWN + " ", ("set_option", "seven_o", "on")),
            ("\x1b" + DOWN + "x", ("remove_seat", "1")),
            ("s", ("start",)),
        ]
        for keys, call in script:
            await press(pipe, keys)
            await until(lambda call=call: controls.calls[-1:] == [call], f"{keys!r} -> {call}")
        assert not model.options_open

        controls.refuse = "The table is full (10 seats)."
        await press(pipe, "b")
        await until(lambda: model.notice == "The table is full (10 seats).", "refusal shown")
        assert "The table is full (10 seats)." in render_text(app)

        screen.feed(state(hand=(), legal=()))
        await consumed(screen.queue)  # type: ignore[arg-type]
        calls = len(controls.calls)
        await press(pipe, "bs")  # lobby keys do nothing during a round
        assert len(controls.calls) == calls

        await press(pipe, "q")  # a game in progress: the host is asked first; Y closes
        await press(pipe, "y")
        assert await asyncio.wait_for(running, 5) == 0
        assert controls.calls[-1] == ("shutdown",)


async def test_run_table_app_quits_through_shutdown() -> None:
    screen, controls = FakeScreen(), FakeControls()
    with create_pipe_input() as pipe:
        running = asyncio.create_task(
            run_table_app(screen, controls, lang="fr", input=pipe, output=DummyOutput())
        )
        screen.feed(lobby())
        await consumed(screen.queue)  # type: ignore[arg-type]
        await press(pipe, "q")
        assert await asyncio.wait_for(running, 5) == 0
    assert controls.calls == [("shutdown",)]


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "New bots: expert"), ("fr", "Nouveaux robots : expert")]
)
async def test_b_adds_a_bot_of_the_tables_own_level(lang: str, words: str) -> None:
    # `lanuno host --level expert`: the screen offers experts until L changes the level.
    model = TableModel(translator(lang), BotLevel.EXPERT)
    with create_pipe_input() as pipe:
        screen, controls, app, running = table_app_in_lobby(model, pipe)
        await consumed(screen.queue)  # type: ignore[arg-type]
        assert words in render_text(app)
        await press(pipe, "b")
        await until(lambda: controls.calls[-1:] == [("add_bot", "expert")], "B adds an expert")
        await press(pipe, "lb")
        await until(lambda: controls.calls[-1:] == [("add_bot", "beginner")], "L cycles on")
        await press(pipe, "q")
        assert await asyncio.wait_for(running, 5) == 0


def test_shared_screen_shows_check_numbers_and_never_a_hand() -> None:
    screen, controls = FakeScreen(), FakeControls()
    model = TableModel(translator("en"))
    ctl = TableController(screen, controls, model, clock=lambda: 0.0)
    with create_pipe_input() as pipe:
        app = build_table_application(ctl, input=pipe, output=DummyOutput())
        model.apply(lobby(), 0.0)
        text = render_text(app)
        assert "314 159" in text
        assert "271 828" in text
        # Even a (wrongly) non-public State cannot leak: the table never reads the hand.
        model.apply(state(hand=("G5", "G6", "Y8")), 0.0)
        text = render_text(app)
    assert "G 5" not in text
    assert "G5" not in text
    assert "Y 8" not in text


def test_kicked_seat_is_the_selected_one_between_rounds() -> None:
    model = TableModel(translator("en"))
    seats = (
        *lobby().seats[:3],
        LobbySeat(name=None, kind="empty", kid=False, connected=False, ready=False, check=None),
    )
    model.apply(Lobby(seats=seats, preset="official", options={}, can_start=False), 0.0)
    model.move_cursor(3)
    assert model.removable_seat() is None


class BrokenSession(FakeSession):
    async def updates(self):  # type: ignore[no-untyped-def,override]
        yield welcome()
        raise ConnectionResetError("peer reset")


async def test_a_failing_session_is_reported_on_screen_not_as_a_traceback() -> None:
    session = BrokenSession()
    model = ClientModel(translator("en"))
    ctl = ClientController(session, model)
    await ctl.pump()
    assert ctl.finished
    assert ctl.connection() == "closed"
    assert model.log.lines[-1].text == "The connection failed: peer reset"


async def test_the_shared_screen_says_when_the_table_has_closed() -> None:
    screen = FakeScreen()
    model = TableModel(translator("en"))
    ctl = TableController(screen, FakeControls(), model, clock=lambda: 0.0)
    with create_pipe_input() as pipe:
        app = build_table_application(ctl, input=pipe, output=DummyOutput())
        screen.feed(lobby())
        screen.end()
        await ctl.pump()
        assert render_text(app).splitlines()[0].endswith("· disconnected")


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_remote_screen_says_why_its_link_ended(lang: str) -> None:
    tr = translator(lang)
    model = TableModel(tr, remote=True)
    screen = FakeScreen()
    ctl = TableController(screen, FakeControls(), model, clock=lambda: 0.0)
    with create_pipe_input() as pipe:
        app = build_table_application(ctl, input=pipe, output=DummyOutput())
        screen.feed(lobby())
        screen.end("the host closed the table")
        await ctl.pump()
        text = " ".join(render_text(app, 80, 24).split())
    assert tr("screen.ended", reason=tr("reason.closed")) in text


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "The host saved the table and closed it. When it resumes the table, run lanuno "
         "screen again (its screen code is on the host)."),
        ("fr", "L'hôte a sauvegardé la table et l'a fermée. Quand il la reprend, relancez "
         "lanuno screen (son code d'écran est sur l'hôte)."),
    ],
)  # fmt: skip
async def test_a_remote_screen_of_a_saved_table_says_how_to_come_back(lang: str, said: str) -> None:
    """It read 'la liaison est terminée : l'hôte a fermé la table et l'a sauvegardée', in
    lower case among the log's sentences, and not what to do once the host resumes."""
    model = TableModel(translator(lang), remote=True)
    screen = FakeScreen()
    ctl = TableController(screen, FakeControls(), model, clock=lambda: 0.0)
    with create_pipe_input() as pipe:
        app = build_table_application(ctl, input=pipe, output=DummyOutput())
        screen.feed(lobby())
        screen.end(SAVED_REASON)
        await ctl.pump()
        text = " ".join(render_text(app, 80, 24).split())
    assert said in text


def test_wide_shared_screen_writes_the_address_large_too() -> None:
    model = TableModel(translator("en"))
    ctl = TableController(FakeScreen(), FakeControls(), model, clock=lambda: 0.0)
    with create_pipe_input() as pipe:
        app = build_table_application(ctl, input=pipe, output=DummyOutput())
        model.apply(lobby(), 0.0)
        address_top_row = big_text("192.168.1.20:41234")[0]
        assert address_top_row in render_text(app, 170, 30)
        assert address_top_row not in render_text(app, 80, 24)


class RefusingSession(FakeSession):
    async def act(self, notation: str) -> None:
        raise RuntimeError("not connected")

    async def set_ready(self, ready: bool) -> None:
        raise RuntimeError("not connected")


async def test_a_send_that_fails_is_shown_as_a_refusal() -> None:
    session = RefusingSession()
    model = ClientModel(translator("en"))
    ctl = ClientController(session, model)
    with create_pipe_input() as pipe:
        app = build_client_application(ctl, input=pipe, output=DummyOutput())
        model.apply(welcome(), 0.0)
        model.apply(lobby(), 0.0)
        await ctl._send_ready(True)
        assert "Refused: not connected" in render_text(app)
        model.apply(state(), 0.0)
        model.refusal = None
        await ctl._send(("draw",))
        assert "Refused: not connected" in render_text(app)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_shared_screen_warns_when_only_this_machine_can_join(lang: str) -> None:
    screen = FakeScreen()
    screen.address_list = ("127.0.0.1:41234",)
    model = TableModel(translator(lang))
    ctl = TableController(screen, FakeControls(), model, clock=lambda: 0.0)
    warning = translator(lang)("host.loopback_only")
    with create_pipe_input() as pipe:
        app = build_table_application(ctl, input=pipe, output=DummyOutput())
        model.apply(lobby(), 0.0)
        assert warning.split()[0] in render_text(app, 80, 24)
        screen.address_list = ("192.168.1.20:41234", "127.0.0.1:41234")
        assert warning.split(":")[0] not in " ".join(render_text(app, 80, 24).split())


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_remote_screen_offers_only_its_quit_key(lang: str) -> None:
    """``lanuno screen`` changes nothing at the table: no B/L/Del/P/S keys are offered."""
    model = TableModel(translator(lang), remote=True)
    ctl = TableController(FakeScreen(), FakeControls(), model, clock=lambda: 0.0)
    tr = translator(lang)
    with create_pipe_input() as pipe:
        app = build_table_application(ctl, input=pipe, output=DummyOutput())
        model.apply(lobby(), 0.0)
        text = render_text(app, 80, 24)
        wide = render_text(app, 140, 30)  # each sentence on one line
    keys_line = text.splitlines()[-1]
    assert keys_line.startswith(" " + tr("screen.remote.keys"))
    assert tr("host.keys_lobby") not in keys_line
    # Nor the host's own controls: no selected seat, no level of new bots, no "S to start".
    assert tr("screen.remote.can_start") in wide
    assert tr("host.can_start") not in wide
    assert tr("host.bot_level", level=tr("level.intermediate")) not in wide
    assert "›" not in wide


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_host_lobby_keys_bar_keeps_every_key_and_help_whole_at_80_columns(lang: str) -> None:
    """The French bar ended on a bare '?' at 80 columns (its 'aide' dropped to make room)."""
    tr = translator(lang)
    model = TableModel(tr)
    ctl = TableController(FakeScreen(), FakeControls(), model, clock=lambda: 0.0)
    with create_pipe_input() as pipe:
        app = build_table_application(ctl, input=pipe, output=DummyOutput())
        model.apply(lobby(), 0.0)
        keys_line = render_text(app, 80, 24).splitlines()[-1]
    assert keys_line.endswith(f"? {tr('key.help')}")
    for entry in tr("host.keys_lobby").split("  "):
        assert entry in keys_line


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_table_that_starts_itself_says_so_in_the_lobby(lang: str) -> None:
    """A headless host starts when everyone is ready: no one is told to wait for the host."""
    tr = translator(lang)
    auto = dataclasses.replace(lobby(ready=False), auto_start=True)
    model = ClientModel(tr)
    ctl = ClientController(FakeSession(), model, clock=lambda: 0.0)
    screen_model = TableModel(tr, remote=True)
    screen_ctl = TableController(FakeScreen(), FakeControls(), screen_model, clock=lambda: 0.0)
    with create_pipe_input() as pipe:
        app = build_client_application(ctl, input=pipe, output=DummyOutput())
        screen = build_table_application(screen_ctl, input=pipe, output=DummyOutput())
        for message in (welcome(), lobby(ready=False)):
            model.apply(message, 0.0)
        screen_model.apply(lobby(), 0.0)
        assert tr("lobby.waiting") in render_text(app, 120, 30)
        assert tr("screen.remote.can_start") in render_text(screen, 140, 30)
        model.apply(auto, 0.0)
        screen_model.apply(dataclasses.replace(lobby(), auto_start=True), 0.0)
        text, shared = render_text(app, 120, 30), render_text(screen, 140, 30)
    assert tr("lobby.auto_start") in text
    assert tr("lobby.waiting") not in text
    assert tr("screen.remote.auto_start") in shared
    assert tr("screen.remote.can_start") not in shared


async def test_after_the_last_round_the_host_starts_a_second_game() -> None:
    """The winner's screen: S starts a new game with the same seats, Enter opens the lobby
    (bots, preset, options) first; the table is already back in its lobby."""
    model = TableModel(translator("en"))
    with create_pipe_input() as pipe:
        screen, controls, app, running = table_app_in_lobby(model, pipe)
        screen.feed(state(hand=(), legal=()), GameEnd(winner=0, scores=(512, 87, 40, 65)))
        screen.feed(lobby())
        await consumed(screen.queue)  # type: ignore[arg-type]
        assert model.screen == "game_end"
        assert "S new game  Enter lobby" in render_text(app)
        await press(pipe, "s")
        await until(lambda: controls.calls[-1:] == [("start",)], "S starts a second game")
        await press(pipe, "\r")
        assert model.screen == "lobby"
        await press(pipe, "b")
        await until(lambda: controls.calls[-1:] == [("add_bot", "intermediate")], "lobby keys")
        await press(pipe, "q")
        assert await asyncio.wait_for(running, 5) == 0


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_after_the_game_a_player_goes_back_to_the_lobby_to_get_ready(lang: str) -> None:
    session = FakeSession()
    with create_pipe_input() as pipe:
        app = asyncio.create_task(
            run_client_app(session, lang=lang, input=pipe, output=DummyOutput())
        )
        session.feed(welcome(), lobby(), state())
        session.feed(GameEnd(winner=0, scores=(512, 87, 40, 65)), lobby(ready=False))
        await consumed(session.queue)  # type: ignore[arg-type]
        await press(pipe, "\r")
        await press(pipe, "r")
        await until(lambda: session.ready_calls[-1:] == [True], "ready for the next game")
        session.feed(state(round_no=1, sid=40))  # the next game's first round
        await consumed(session.queue)  # type: ignore[arg-type]
        await press(pipe, "\x11")  # Ctrl-Q leaves at once
        assert await asyncio.wait_for(app, 5) == 0


async def test_r_on_the_games_result_goes_to_the_lobby_ready() -> None:
    """'Press Enter, then R to play another game': R pressed at once did nothing at all."""
    session = FakeSession()
    with create_pipe_input() as pipe:
        app = asyncio.create_task(
            run_client_app(session, lang="en", input=pipe, output=DummyOutput())
        )
        session.feed(welcome(), lobby(), state())
        session.feed(GameEnd(winner=0, scores=(512, 87, 40, 65)), lobby(ready=False))
        await consumed(session.queue)  # type: ignore[arg-type]
        await press(pipe, "r")
        await until(lambda: session.ready_calls == [True], "R alone: the lobby, ready")
        await press(pipe, "\x11")
        assert await asyncio.wait_for(app, 5) == 0


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_leaving_a_game_says_the_seat_is_kept(
    lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Q then Y mid-game closed the screen without a word: nothing said that the host keeps
    the seat (a bot plays it meanwhile) and that lanuno join gives it back."""
    tr = translator(lang)
    session = FakeSession()
    with create_pipe_input() as pipe:
        app = asyncio.create_task(
            run_client_app(session, lang=lang, input=pipe, output=DummyOutput())
        )
        session.feed(welcome(), lobby(), state())
        await consumed(session.queue)  # type: ignore[arg-type]
        await press(pipe, "q")
        await press(pipe, tr("key.yes"))
        assert await asyncio.wait_for(app, 5) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert said == tr("quit.seat_kept", table="Kitchen")


def test_leaving_the_lobby_or_lanuno_play_says_nothing_of_a_seat() -> None:
    """Leaving the lobby frees the seat; lanuno play keeps no game; a closed table, none."""
    model = ClientModel(translator("en"))
    ctl = ClientController(FakeSession(), model)
    model.apply(welcome(), 0.0)
    model.apply(lobby(), 0.0)
    assert ctl.parting_line() is None
    model.apply(state(), 0.0)
    assert ctl.parting_line() is not None
    model.local = True
    assert ctl.parting_line() is None
    model.local = False
    ctl.finished = True
    assert ctl.parting_line() is None


async def screen_after_the_session(lang: str, *messages: Message) -> str:
    """The player's screen once the host's messages have come and the session has ended."""
    session = FakeSession()
    ctl = ClientController(session, ClientModel(translator(lang)))
    with create_pipe_input() as pipe:
        app = build_client_application(ctl, input=pipe, output=DummyOutput())
        session.feed(*messages)
        session.end()
        await ctl.pump()
        return render_text(app)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "The host closed the connection: removed by the host"),
        ("fr", "L'hôte a fermé la connexion : retiré par l'hôte"),
    ],
)
async def test_a_player_removed_in_the_lobby_reads_why_there(lang: str, said: str) -> None:
    """The lobby has no log panel: a kicked player used to keep a lobby that looked alive
    (only the header said 'disconnected')."""
    kicked = Bye(code=int(CloseCode.KICKED), reason="removed by the host")
    screen = await screen_after_the_session(lang, welcome(), lobby(), kicked)
    assert said in " ".join(screen.split())
    assert {"en": "Press Q to leave.", "fr": "Appuyez sur Q pour partir."}[lang] in screen
    assert {"en": "Press R", "fr": "Appuyez sur R"}[lang] not in screen


async def test_a_game_closed_by_the_host_stops_offering_moves() -> None:
    closed = Bye(code=int(CloseCode.HOST_SHUTDOWN), reason="the host closed the table")
    screen = await screen_after_the_session("en", welcome(), lobby(), state(), closed)
    assert "This game is over for you (the log says why): press Q to leave." in screen
    assert "Your turn" not in screen
    assert "D draw" not in screen
    assert "The host closed the connection" in screen


@pytest.mark.parametrize(
    ("lang", "prompt", "why"),
    [
        ("en", "The host saved the table: run lanuno join again when it resumes.", "hand back."),
        ("fr", "Table sauvegardée : relancez lanuno join à sa reprise.", "et votre main."),
    ],
)
async def test_a_game_the_host_saved_says_how_to_get_the_seat_back(
    lang: str, prompt: str, why: str
) -> None:
    saved = Bye(code=int(CloseCode.TABLE_SAVED), reason="the host closed the table and saved it")
    screen = await screen_after_the_session(lang, welcome(), lobby(), state(), saved)
    assert prompt in screen
    assert why in screen  # the log panel: the goodbye in the player's language
    assert "D draw" not in screen


def test_a_french_lobby_shows_long_bot_names_whole_at_80_columns() -> None:
    tr = translator("fr")
    model = ClientModel(tr)
    ctl = ClientController(FakeSession(), model, clock=lambda: 0.0)
    seats = [
        LobbySeat(
            name=f"Bot {n + 1} (intermediate)",
            kind="bot",
            kid=False,
            connected=True,
            ready=True,
            check=None,
        )
        for n in range(10)
    ]
    seats[1] = LobbySeat(name="Lea", kind="human", kid=True, connected=False, ready=False, check=1)
    with create_pipe_input() as pipe:
        app = build_client_application(ctl, input=pipe, output=DummyOutput())
        model.apply(welcome(), 0.0)
        model.apply(Lobby(seats=tuple(seats), preset="official", options={}, can_start=True), 0.0)
        text = render_text(app, 80, 30)
    for seat in (0, 9):
        assert model.name_of(seat) in text  # "Robot 10 (intermédiaire)": 24 cells
    assert "…" not in text
    assert tr("lobby.offline") in text


def test_a_wide_shared_screen_shows_long_bot_names_whole() -> None:
    tr = translator("fr")
    model = TableModel(tr, remote=True)
    ctl = TableController(FakeScreen(), FakeControls(), model, clock=lambda: 0.0)
    bot = LobbySeat(
        name="Bot 10 (intermediate)", kind="bot", kid=False, connected=True, ready=True, check=None
    )
    with create_pipe_input() as pipe:
        app = build_table_application(ctl, input=pipe, output=DummyOutput())
        model.apply(Lobby(seats=(bot, bot), preset="official", options={}, can_start=True), 0.0)
        narrow, wide = render_text(app, 80, 24), render_text(app, 140, 30)
    assert "Robot 10 (intermédiaire)" in wide
    assert "Robot 10 (int…" in narrow  # the 80-column pane keeps its columns


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "The connection is closed: the host did not come back."),
        ("fr", "La connexion est fermée : l'hôte n'est pas revenu."),
    ],
)
async def test_a_session_that_ends_with_no_goodbye_says_why(lang: str, said: str) -> None:
    """The core gave up (a bounded client) or was refused too often: its reason, not only
    "the connection is closed", in the log of either client."""
    session = FakeSession()
    model = ClientModel(translator(lang))
    ctl = ClientController(session, model)
    session.feed(welcome(), lobby())
    session.end("the host did not come back")
    await ctl.pump()
    assert model.log.lines[-1].text == said
    plain_session = FakeSession()
    out = io.StringIO()
    plain_session.feed(welcome(), lobby())
    plain_session.end("the host did not come back")
    await PlainClient(plain_session, out, lang=lang).run(_no_lines())
    assert out.getvalue().splitlines()[-1] == f"! {said}"


async def _no_lines() -> AsyncIterator[str]:
    await asyncio.sleep(3600)
    yield ""


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_lobby_whose_host_is_lost_says_so_where_it_asks_for_ready(lang: str) -> None:
    """The lobby has no log panel: while reconnecting it said "press R" to a host that
    could not hear it. It now says the link dropped, then that the host has been silent
    for minutes, and asks for R again once the host welcomes the player back."""
    tr = translator(lang)
    session = FakeSession()
    model = ClientModel(tr)
    ctl = ClientController(session, model)
    with create_pipe_input() as pipe:
        app = build_client_application(ctl, input=pipe, output=DummyOutput())
        for message in (welcome(), lobby(ready=False)):
            model.apply(message, 0.0)
        press_r = {"en": "Press R", "fr": "Appuyez sur R"}[lang]
        assert press_r in render_text(app)
        session.connection_state = "reconnecting"
        model.apply(HostStillLost(300.0), 0.0)
        screen = " ".join(render_text(app).split())
        assert tr("plain.reconnecting") in screen
        assert alarm_text(HostStillLost(300.0), tr) in screen
        assert press_r not in screen
        ctl.toggle_ready()  # R while the host is lost: nobody would hear it
        assert model.ready is False
        session.connection_state = "connected"
        for message in (welcome(), lobby(ready=False)):
            model.apply(message, 0.0)
        screen = " ".join(render_text(app).split())
        assert press_r in screen
        assert alarm_text(HostStillLost(300.0), tr) not in screen
        ctl.toggle_ready()
        assert model.ready is True


@pytest.mark.parametrize("remote", [False, True])
def test_a_lobby_of_players_not_ready_does_not_read_ready(remote: bool) -> None:
    """Seen in the lab: under 'Ann  not ready', 'Léa  not ready', the screen read 'Ready:
    the host starts the game.' (the table is ready to start: two seats taken; the French
    said it, 'La table est prête')."""
    model = TableModel(translator("en"), remote=remote)
    ctl = TableController(FakeScreen(), FakeControls(), model, clock=lambda: 0.0)
    with create_pipe_input() as pipe:
        app = build_table_application(ctl, input=pipe, output=DummyOutput())
        model.apply(lobby(ready=False), 0.0)
        wide = render_text(app, 140, 30)
    assert "not ready" in wide
    assert not any(line.strip().startswith("Ready:") for line in wide.splitlines())
    assert "The table is ready: " in wide


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_table_closed_after_its_last_round_offers_no_lobby(lang: str) -> None:
    """The winner's screen still said 'Press Enter for the lobby, where the next game
    gathers' once the host had closed the table for good: it now says why it ended, and Q."""
    tr = translator(lang)
    closed = Bye(code=int(CloseCode.HOST_SHUTDOWN), reason="the host closed the table")
    game_over = GameEnd(winner=0, scores=(512, 87, 40, 65))
    screen = " ".join(
        (
            await screen_after_the_session(lang, welcome(), lobby(), state(), game_over, closed)
        ).split()
    )
    assert tr("end.game_title") in screen
    assert " ".join(tr("end.next_game").split()) not in screen
    assert " ".join(tr("lobby.closed_leave").split()) in screen
    said = {"en": "The host closed the connection", "fr": "L'hôte a fermé la connexion"}[lang]
    assert said in screen


def clocked_client_app(
    session: FakeSession, pipe: PipeInput, now: list[float]
) -> asyncio.Task[int]:
    """The client app on ``session``, its clock ``now[0]`` (moved by the test)."""
    return asyncio.create_task(
        run_client_app(session, lang="en", input=pipe, output=DummyOutput(), clock=lambda: now[0])
    )


async def test_enter_pressed_twice_on_a_rounds_result_plays_no_card() -> None:
    """The first Enter closes the result onto the new round; a second one at once played
    the selected card (the player meant to close the result, not to play)."""
    now = [100.0]
    session = FakeSession()
    with create_pipe_input() as pipe:
        app = clocked_client_app(session, pipe, now)
        session.feed(welcome(), lobby(), state(deadline_ms=None))
        session.feed(RoundEnd(round=1, winner=1, points=30, scores=(0, 30, 0, 0)))
        session.feed(state(round_no=2, sid=9, deadline_ms=None))
        await consumed(session.queue)  # type: ignore[arg-type]
        await press(pipe, "\r\r")
        now[0] += 0.1
        await press(pipe, " ")
        assert session.acted == []
        now[0] += 1.0
        await press(pipe, "\r")
        await until(lambda: session.acted == ["play R2"], "Enter plays again after a moment")
        await press(pipe, "qy")
        assert await asyncio.wait_for(app, 5) == 0


async def test_a_number_then_enter_answers_one_question_not_the_next_too() -> None:
    """ "2, Enter" (as the hint once read: "arrows or number, Enter to choose"): the 2 chose
    at once, and the Enter answered the next question, or tried to play a card."""
    now = [100.0]
    session = FakeSession()
    with create_pipe_input() as pipe:
        app = clocked_client_app(session, pipe, now)
        swap = state(phase="swap", legal=("swap 0", "swap 1", "swap 3"), deadline_ms=None)
        session.feed(welcome(), lobby(), swap)
        await consumed(session.queue)  # type: ignore[arg-type]
        await press(pipe, "dpa")  # a question is open: the verbs wait (each was refused)
        assert session.acted == []
        await press(pipe, "2")
        await until(lambda: session.acted == ["swap 1"], "the number chose")
        now[0] += 0.2
        await press(pipe, "\r")
        assert session.acted == ["swap 1"]
        await press(pipe, "qy")
        assert await asyncio.wait_for(app, 5) == 0
