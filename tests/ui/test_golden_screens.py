"""Text snapshots of key screens at 80x24, compared with tests/ui/golden/*.txt.

Regenerate after a deliberate layout change with ``LANUNO_REGEN_GOLDEN=1 pytest tests/ui``
and review the diff. The clock is fixed, so the move timer always reads the same.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from prompt_toolkit.application import Application
from prompt_toolkit.input import create_pipe_input
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

from lanuno.engine.rules import rules_from_words
from lanuno.ui.client_app import ClientController, build_client_application
from lanuno.ui.client_model import ClientModel
from lanuno.ui.i18n import translator
from lanuno.ui.table_app import TableController, build_table_application
from lanuno.ui.table_model import TableModel, rules_summary
from lanuno.ui.widgets import render_text
from lanuno.wire.messages import ErrorReply, GameEnd, Lobby, LobbySeat, RoundEnd, UnoFlags

GOLDEN = Path(__file__).parent / "golden"
REGENERATE = os.environ.get("LANUNO_REGEN_GOLDEN") == "1"
NOW = 1000.0


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / f"{name}.txt"
    if REGENERATE or not path.exists():
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if not REGENERATE:
            pytest.fail(f"{path.name} did not exist; written now, review it and rerun")
    assert text == path.read_text(encoding="utf-8"), f"{name}: screen differs from golden"


@pytest.fixture
def client() -> Iterator[tuple[ClientModel, Application[int]]]:
    model = ClientModel(translator("en"))
    ctl = ClientController(FakeSession(), model, clock=lambda: NOW)
    with create_pipe_input() as pipe:
        yield model, build_client_application(ctl, input=pipe, output=DummyOutput())


@pytest.fixture
def table() -> Iterator[tuple[TableModel, Application[int]]]:
    model = TableModel(translator("en"))
    ctl = TableController(FakeScreen(), FakeControls(), model, clock=lambda: NOW)
    with create_pipe_input() as pipe:
        yield model, build_table_application(ctl, input=pipe, output=DummyOutput())


def feed(model: ClientModel | TableModel, *messages: object) -> None:
    for message in messages:
        model.apply(message, NOW)  # type: ignore[arg-type]


def test_client_lobby(client: tuple[ClientModel, Application[int]]) -> None:
    model, app = client
    feed(model, welcome(), lobby(ready=False, can_start=False))
    check_golden("client_lobby", render_text(app))


def test_a_ready_player_is_not_asked_to_press_r_when_ready(
    client: tuple[ClientModel, Application[int]],
) -> None:
    """The lobby kept saying "Press R when you are ready." to a player who had (seen at
    80x24 between two games: only the keys bar said "R not ready yet")."""
    model, app = client
    feed(model, welcome(), lobby(ready=True, can_start=False))
    screen = render_text(app)
    assert "Press R when you are ready." not in screen
    assert "You are ready (R if you are not after all)." in screen


def test_a_spectator_in_the_lobby_is_not_asked_to_press_r(
    client: tuple[ClientModel, Application[int]],
) -> None:
    """A late guest who joined between two rounds read "Press R when you are ready." with
    "R I'm ready" in the keys (the host ignores a spectator's R), and was told to compare
    a check number with the one next to a name the shared screen does not show."""
    model, app = client
    feed(model, welcome(seat=None), lobby(ready=True, can_start=False))  # type: ignore[arg-type]
    screen = render_text(app)
    assert "You are watching: you will be seated when this game ends." in screen
    assert "Press R" not in screen
    assert "I'm ready" not in screen
    assert "check number" not in screen.lower()


def test_client_turn_with_highlights(client: tuple[ClientModel, Application[int]]) -> None:
    model, app = client
    feed(model, welcome(), lobby(), *opening_events(), state())
    check_golden("client_turn", render_text(app))


def test_client_color_pick(client: tuple[ClientModel, Application[int]]) -> None:
    model, app = client
    feed(model, welcome(), lobby(), *opening_events(), state())
    model.select(model.hand.index("W+4"))
    assert model.activate() == ()
    check_golden("client_color_pick", render_text(app))


def test_client_challenge(client: tuple[ClientModel, Application[int]]) -> None:
    model, app = client
    penalty = state(
        phase="penalty",
        pending=4,
        top="W+4",
        color="G",
        legal=("accept", "challenge"),
        deadline_ms=15_000,
    )
    feed(
        model,
        welcome(),
        lobby(),
        *opening_events(),
        event("played", seat=1, card="W+4", jump_in=False),
        event("color_chosen", seat=1, color="G"),
        event("penalty_pending", seat=2, amount=4),
        penalty,
        ErrorReply(
            code="illegal",
            rule="O19",
            text="You must first take the penalty or challenge it.",
            seq=3,
        ),
    )
    check_golden("client_challenge", render_text(app))


def test_client_ten_seats_big_hand_and_a_picker_fit_80x24(
    client: tuple[ClientModel, Application[int]],
) -> None:
    model, app = client
    names = ("Lea", "Max", "Ana", "Tom", "Zoe", "Noe", "Eva", "Leo", "Mia", "Sam")
    seats = tuple(
        LobbySeat(name=n, kind="human", kid=False, connected=True, ready=True, check=100_000 + i)
        for i, n in enumerate(names)
    )
    hand = ("R1", "R2", "R3", "R4", "Y5", "Y6", "G7", "G8", "B9", "BS", "YR", "G+2", "W", "W+4")
    crowded = state(
        hand=hand,
        counts=(7, 1, 14, 3, 5, 6, 2, 9, 4, 8),
        uno=(UnoFlags(False, False),) * 10,
        legal=("play R1", "play R2", "play W B", "play W R", "draw", "uno"),
    )
    feed(
        model,
        welcome(),
        Lobby(seats=seats, preset="official", options={}, can_start=True),
        *opening_events(),
        crowded,
    )
    model.play_index(hand.index("W"))
    check_golden("client_ten_seats", render_text(app))


def test_client_round_end(client: tuple[ClientModel, Application[int]]) -> None:
    model, app = client
    feed(
        model,
        welcome(),
        lobby(),
        *opening_events(),
        event("played", seat=1, card="R3", jump_in=False),
        event("round_ended", winner=1, points=87, scores=(120, 87, 40, 65)),
        RoundEnd(round=1, winner=1, points=87, scores=(120, 87, 40, 65)),
    )
    check_golden("client_round_end", render_text(app))


def test_table_lobby(table: tuple[TableModel, Application[int]]) -> None:
    model, app = table
    feed(model, lobby())
    check_golden("table_lobby", render_text(app))


def test_table_options_in_french() -> None:
    model = TableModel(translator("fr"))
    ctl = TableController(FakeScreen(), FakeControls(), model, clock=lambda: NOW)
    with create_pipe_input() as pipe:
        app = build_table_application(ctl, input=pipe, output=DummyOutput())
        feed(model, lobby())
        model.options_open = True
        model.move_cursor(5)
        check_golden("table_options_fr", render_text(app))


@pytest.mark.parametrize(
    ("lang", "label"), [("en", "Rounds to win"), ("fr", "Manches pour gagner")]
)
def test_the_options_of_a_game_won_by_rounds_name_its_target_so(lang: str, label: str) -> None:
    """kids2 is won by 5 round wins (K2-11): its options read 'Points to win 5'."""
    model = TableModel(translator(lang))
    ctl = TableController(FakeScreen(), FakeControls(), model, clock=lambda: NOW)
    kids2 = dataclasses.replace(
        lobby(), preset="kids2", options={"target": 5, "scoring": "round_wins"}
    )
    with create_pipe_input() as pipe:
        app = build_table_application(ctl, input=pipe, output=DummyOutput())
        feed(model, kids2)
        model.options_open = True
        lines = render_text(app).splitlines()
    target = [line for line in lines if line.rstrip().endswith(" 5")]
    assert len(target) == 1
    assert label in target[0]
    assert translator(lang)("opt.target") not in "".join(lines)


def test_table_turn(table: tuple[TableModel, Application[int]]) -> None:
    model, app = table
    no, caught_out, said_uno = UnoFlags(False, False), UnoFlags(False, True), UnoFlags(True, False)
    exposed = (no, caught_out, no, said_uno)
    feed(model, lobby(), *opening_events(), state(hand=(), legal=(), uno=exposed))
    check_golden("table_turn", render_text(app))


def test_table_ten_seats_in_french() -> None:
    model = TableModel(translator("fr"))
    ctl = TableController(FakeScreen(), FakeControls(), model, clock=lambda: NOW)
    names = ("Lea", "Max", "Ana", "Tom", "Zoe", "Noe", "Eva", "Leo", "Mia", "Sam")
    seats = tuple(
        LobbySeat(name=n, kind="human", kid=False, connected=True, ready=True, check=100 + i)
        for i, n in enumerate(names)
    )
    flags = (UnoFlags(False, False), UnoFlags(False, True)) + (UnoFlags(True, False),) * 8
    public = state(hand=(), legal=(), counts=(7, 1, 14, 3, 5, 6, 2, 9, 4, 8), uno=flags)
    with create_pipe_input() as pipe:
        app = build_table_application(ctl, input=pipe, output=DummyOutput())
        feed(
            model,
            Lobby(seats=seats, preset="official", options={}, can_start=True),
            *opening_events(),
            public,
        )
        check_golden("table_ten_seats_fr", render_text(app))


def test_table_turn_on_a_wide_screen_seats_players_on_both_sides(
    table: tuple[TableModel, Application[int]],
) -> None:
    model, app = table
    no, said_uno, caught_out = UnoFlags(False, False), UnoFlags(True, False), UnoFlags(False, True)
    public = state(hand=(), legal=(), pending=4, uno=(no, said_uno, no, caught_out))
    feed(model, lobby(), *opening_events(), public)
    check_golden("table_turn_wide", render_text(app, 140, 36))


def test_table_round_end(table: tuple[TableModel, Application[int]]) -> None:
    model, app = table
    feed(model, lobby(), *opening_events(), state(hand=(), legal=()))
    feed(model, RoundEnd(round=1, winner=1, points=87, scores=(120, 87, 40, 65)))
    check_golden("table_round_end", render_text(app))


def test_table_game_end(table: tuple[TableModel, Application[int]]) -> None:
    model, app = table
    feed(model, lobby(), state(hand=(), legal=()), GameEnd(winner=0, scores=(512, 87, 40, 65)))
    check_golden("table_game_end", render_text(app))


def test_client_turn_in_french_at_80x24() -> None:
    model = ClientModel(translator("fr"))
    ctl = ClientController(FakeSession(), model, clock=lambda: NOW)
    with create_pipe_input() as pipe:
        app = build_client_application(ctl, input=pipe, output=DummyOutput())
        feed(model, welcome(), lobby(), *opening_events(), state())
        check_golden("client_turn_fr", render_text(app))


def test_table_lobby_without_mdns_does_not_promise_discovery() -> None:
    """`lanuno host --no-mdns`: only the address works, so the lobby must not suggest a bare
    `lanuno join` (it would find nothing)."""
    screens = {}
    for announced in (True, False):
        screen = FakeScreen()
        screen.announced = announced
        model = TableModel(translator("en"))
        ctl = TableController(screen, FakeControls(), model, clock=lambda: NOW)
        with create_pipe_input() as pipe:
            app = build_table_application(ctl, input=pipe, output=DummyOutput())
            feed(model, lobby())
            screens[announced] = render_text(app)
    assert "or just: lanuno join" in screens[True]
    assert "or just: lanuno join" not in screens[False]
    assert "lanuno join 192.168.1.20:41234" in screens[False]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_between_rounds_the_scoreboard_says_who_is_away(lang: str) -> None:
    model = TableModel(translator(lang))
    ctl = TableController(FakeScreen(), FakeControls(), model, clock=lambda: NOW)
    here = lobby()
    seats = list(here.seats)
    seats[2] = dataclasses.replace(seats[2], connected=False)  # Ana dropped during the round
    with create_pipe_input() as pipe:
        app = build_table_application(ctl, input=pipe, output=DummyOutput())
        feed(model, dataclasses.replace(here, seats=tuple(seats)))
        feed(model, *opening_events(), state(hand=(), legal=()))
        feed(model, RoundEnd(round=1, winner=1, points=87, scores=(120, 87, 40, 65)))
        rows = render_text(app).splitlines()
    away = translator(lang)("status.away")
    ana = next(row for row in rows if " Ana " in row)
    assert ana.split("│")[0].split()[-2:] == ["40", away]
    lea = next(row for row in rows if " Lea " in row)
    assert away not in lea.split("│")[0]


def kids_lobby(preset_name: str, *words: str, seats: int = 10) -> Lobby:
    """A lobby of ``seats`` players at a kids' table, not ready yet."""
    rules = rules_from_words(preset_name, words)
    names = ("Lea", "Max", "Ana", "Tom", "Zoe", "Noe", "Eva", "Leo", "Mia", "Sam")[:seats]
    return Lobby(
        seats=tuple(
            LobbySeat(name=n, kind="human", kid=i % 2 == 1, connected=True, ready=False, check=i)
            for i, n in enumerate(names)
        ),
        preset=preset_name,
        options={k: v for k, v in rules.to_dict().items() if k != "preset"},
        can_start=True,
    )


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_kids_lobby_of_ten_tells_its_rules_and_still_fits_80x24(lang: str) -> None:
    """The lobby told a kids' table only its target: not the 5 cards dealt, the 6-card
    limit, nor Counter-UNO turned on. Every rule now shows, on the players' screens and the
    shared one, and ten seats still leave the last line in view at 80 x 24."""
    tr = translator(lang)
    table_lobby = kids_lobby("kids2", "counter_uno=on")
    told = rules_summary("kids2", table_lobby.options, tr)
    model = ClientModel(tr)
    ctl = ClientController(FakeSession(), model, clock=lambda: NOW)
    with create_pipe_input() as pipe:
        app = build_client_application(ctl, input=pipe, output=DummyOutput())
        feed(model, welcome(), table_lobby)
        screen = render_text(app)
    check_golden(f"client_lobby_kids2_{lang}", screen)
    assert " ".join(" ".join(screen.split("\n")[7:11]).split()) == told
    assert tr("lobby.press_ready") in screen  # the last line, below the ten seats
    table = TableModel(tr)
    host = TableController(FakeScreen(), FakeControls(), table, clock=lambda: NOW)
    with create_pipe_input() as pipe:
        app = build_table_application(host, input=pipe, output=DummyOutput())
        feed(table, table_lobby)
        shared = render_text(app)
    check_golden(f"table_lobby_kids2_{lang}", shared)
    right = " ".join(row.split("│")[-1].strip() for row in shared.splitlines()[1:-2])
    assert told in " ".join(right.split())
    # A remote screen says who starts the game in two lines (French): the rules still fit.
    remote = TableModel(tr, remote=True)
    screen = TableController(FakeScreen(), FakeControls(), remote, clock=lambda: NOW)
    with create_pipe_input() as pipe:
        app = build_table_application(screen, input=pipe, output=DummyOutput())
        feed(remote, table_lobby)
        rows = render_text(app).splitlines()[1:-2]
    assert told in " ".join(" ".join(row.split("│")[-1].strip() for row in rows).split())
