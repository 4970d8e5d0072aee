"""Text snapshots of the hall at 80x24 (tests/ui/golden/hall_*.txt), made like the other
golden screens: ``LANUNO_REGEN_GOLDEN=1 pytest tests/ui`` rewrites them, review the diff."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from hall_fakes import FakeHall
from prompt_toolkit.application import Application
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from test_golden_screens import NOW, check_golden
from ui_fakes import lobby, opening_events, state

from lanuno.ui.hall_app import HallController, build_hall_application
from lanuno.ui.hall_model import HallModel
from lanuno.ui.i18n import translator
from lanuno.ui.widgets import render_text
from lanuno.wire.messages import Lobby, LobbySeat, RoundEnd, UnoFlags

Hall = tuple[HallController, Application[int]]


def hall_of(names: tuple[str, ...], lang: str) -> Iterator[Hall]:
    ctl = HallController(FakeHall(names), HallModel(translator(lang)), clock=lambda: NOW)
    ctl.sync()
    with create_pipe_input() as pipe:
        yield ctl, build_hall_application(ctl, input=pipe, output=DummyOutput())


@pytest.fixture
def three() -> Iterator[Hall]:
    yield from hall_of(("Kitchen", "Garden", "Living room"), "en")


def away(base: Lobby, index: int) -> Lobby:
    seats = list(base.seats)
    seats[index] = dataclasses.replace(seats[index], connected=False, check=None)
    return dataclasses.replace(base, seats=tuple(seats))


def feed(ctl: HallController, number: int, *messages: object) -> None:
    model = ctl.views[number].ctl.model
    for message in messages:
        model.apply(message, NOW)  # type: ignore[arg-type]


def party(ctl: HallController) -> None:
    """Table 1 plays (Max dropped), table 2 fills its lobby, table 3 is between rounds."""
    feed(ctl, 1, away(lobby(), 1), *opening_events(), state())
    feed(ctl, 2, lobby(ready=False, can_start=False))
    end = RoundEnd(round=3, winner=2, points=64, scores=(120, 87, 204, 65))
    feed(ctl, 3, lobby(), state(round_no=3), end)


def ten_players() -> Lobby:
    names = ("Léa", "Maximilien", "Anaïs", "Tom", "Zoé", "Noé", "Eva", "Léo", "Mia", "Sam")
    seats = tuple(
        LobbySeat(name=n, kind="human", kid=False, connected=True, ready=True, check=None)
        for n in names
    )
    return Lobby(seats=seats, preset="official", options={}, can_start=True)


def test_hall_three_tables(three: Hall) -> None:
    ctl, app = three
    party(ctl)
    check_golden("hall_three_tables", render_text(app))


def test_hall_scrolls_past_four_tables_in_french() -> None:
    for ctl, app in hall_of(("Cuisine", "Jardin", "Salon", "Grenier", "Cave", "Garage"), "fr"):
        party(ctl)
        flags = (UnoFlags(False, False),) * 10
        feed(ctl, 5, ten_players(), state(counts=(7,) * 10, uno=flags, actor=9, turn=9))
        ctl.model.selected = 4
        check_golden("hall_scrolled_fr", render_text(app))


def test_hall_new_table_form_with_a_refusal(three: Hall) -> None:
    ctl, app = three
    form = ctl.model.open_form()
    form.values.update(name="Kids corner", preset="kids2", options="colour=red", bots="12")
    assert form.submit() is None
    check_golden("hall_new_table_form", render_text(app))


def test_hall_close_confirmation(three: Hall) -> None:
    ctl, app = three
    party(ctl)
    ctl.model.selected = 1
    ctl.model.confirm, ctl.model.confirm_number = "close", 2
    text = render_text(app)
    assert "Close table 2 (Garden) for everyone? Y closes it, any other key keeps it." in text


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_quit_question_wraps_at_its_words(lang: str) -> None:
    """At 80 columns it read 'Press Y to quit, an' / 'y other key to stay.'."""
    for ctl, app in hall_of(("Kitchen", "Garden"), lang):
        ctl.model.confirm = "quit"
        lines = [line.strip() for line in render_text(app).splitlines()[-3:-1]]
        assert " ".join(lines) == ctl.tr("hall.confirm_quit")


def test_a_table_shown_from_the_hall_is_the_table_app_with_its_number(three: Hall) -> None:
    ctl, app = three
    party(ctl)
    ctl.show(1)
    text = render_text(app)
    check_golden("hall_table_shown", text)
    assert "screen 1" not in text  # the screen code belongs on the hall only
    assert ctl.views[1].table.screen_code[:3] not in text


def test_an_empty_hall_says_how_to_open_a_table() -> None:
    for _ctl, app in hall_of((), "en"):
        text = render_text(app)
        assert "No table is open. Press N to open one." in text


def test_a_table_after_the_first_says_its_number_in_the_join_line(three: Hall) -> None:
    ctl, app = three
    feed(ctl, 2, lobby())
    ctl.show(2)
    text = render_text(app)
    rows = [row.split("│")[0].rstrip() for row in text.splitlines()]  # the left pane
    joined = rows.index("   lanuno join 192.168.1.20:41234")
    assert rows[joined + 1] == "   --table 2"  # wrapped, not cut
    ctl.show(1)
    feed(ctl, 1, lobby())
    first = render_text(app)
    assert "lanuno join 192.168.1.20:41234  │" in first
    assert "--table" not in first  # table 1 is what a bare address means


def test_a_default_table_name_is_not_numbered_twice() -> None:
    for ctl, app in hall_of(("Table 1", "Table 2"), "en"):
        ctl.show(2)
        assert render_text(app).startswith(" lanuno · Table 2 · Preset")
