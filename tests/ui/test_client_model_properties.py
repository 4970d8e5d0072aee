"""Whatever the host sends and whatever keys are pressed, the client model never crashes
and only ever sends notations the wire accepts (ActionRequest refuses anything else)."""

from __future__ import annotations

from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from ui_fakes import FakeControls, FakeScreen, FakeSession, lobby, welcome

from lanuno.ui.client_app import ClientController, build_client_application
from lanuno.ui.client_model import ClientModel
from lanuno.ui.i18n import translator
from lanuno.ui.table_app import TableController, build_table_application
from lanuno.ui.table_model import TableModel
from lanuno.ui.widgets import render_text
from lanuno.wire.messages import ACTION_NOTATIONS, CARD_CODES, PHASES, State, UnoFlags

CODES = sorted(CARD_CODES)
NOTATIONS = sorted(ACTION_NOTATIONS)
KEYS = ("move", "select", "activate", "simple", "catch", "pick_move", "choose", "color", "cancel")


@st.composite
def states(draw: st.DrawFn) -> State:
    seats = 4
    actor = draw(st.none() | st.integers(0, seats - 1))
    return State(
        sid=draw(st.integers(0, 10)),
        round=draw(st.integers(0, 3)),
        hand=tuple(draw(st.lists(st.sampled_from(CODES), max_size=20))),
        counts=tuple(draw(st.lists(st.integers(0, 30), min_size=seats, max_size=seats))),
        top=draw(st.none() | st.sampled_from(CODES)),
        color=draw(st.none() | st.sampled_from("RYGB")),
        direction=draw(st.sampled_from((1, -1))),
        turn=draw(st.integers(0, seats - 1)),
        actor=actor,
        phase=draw(st.sampled_from(sorted(PHASES))),
        pending=draw(st.integers(0, 8)),
        legal=tuple(draw(st.lists(st.sampled_from(NOTATIONS), max_size=12))),
        uno=tuple(UnoFlags(draw(st.booleans()), draw(st.booleans())) for _ in range(seats)),
        scores=(0, 0, 0, 0),
        draw_pile=50,
        discard_count=5,
        deadline_ms=draw(st.none() | st.integers(0, 60_000)),
        dealer=0,
    )


@settings(max_examples=examples(150), deadline=None)
@given(
    st.lists(states(), min_size=1, max_size=4),
    st.lists(st.tuples(st.sampled_from(KEYS), st.integers(-3, 12)), max_size=25),
    st.sampled_from(("en", "fr")),
)
def test_model_only_sends_wire_notations(
    updates: list[State], keys: list[tuple[str, int]], lang: str
) -> None:
    model = ClientModel(translator(lang))
    sent: list[str] = []
    for message in (welcome(), lobby()):
        model.apply(message, 0.0)
    for index, update in enumerate(updates):
        sent += model.apply(update, float(index))
        for key, number in keys:
            if key == "move":
                model.move(number)
            elif key == "select":
                model.select(number)
            elif key == "activate":
                sent += model.activate()
            elif key == "simple":
                sent += model.simple(("draw", "pass", "uno", "challenge", "accept")[number % 5])
            elif key == "catch":
                sent += model.catch()
            elif key == "pick_move":
                model.picker_move(number)
            elif key == "choose":
                sent += model.choose(number if number >= 0 else None)
            elif key == "color":
                sent += model.choose_color("RYGB"[number % 4])
            else:
                model.cancel()
        model.prompt(float(index))
        model.seat_rows()
    assert set(sent) <= ACTION_NOTATIONS


@settings(max_examples=examples(60), deadline=None)
@given(states(), st.integers(40, 160), st.integers(10, 50), st.booleans())
def test_any_state_renders_at_any_size(state: State, width: int, height: int, pick: bool) -> None:
    client = ClientModel(translator("en"))
    table = TableModel(translator("fr"))
    for message in (welcome(), lobby(), state):
        client.apply(message, 0.0)
        table.apply(message, 0.0)
    if pick:
        client.activate()
    client_ctl = ClientController(FakeSession(), client, clock=lambda: 0.0)
    table_ctl = TableController(FakeScreen(), FakeControls(), table, clock=lambda: 0.0)
    with create_pipe_input() as pipe:
        for app in (
            build_client_application(client_ctl, input=pipe, output=DummyOutput()),
            build_table_application(table_ctl, input=pipe, output=DummyOutput()),
        ):
            lines = render_text(app, width, height).splitlines()
            assert len(lines) == height
            assert all(len(line) <= width for line in lines)
