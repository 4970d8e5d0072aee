"""The hall driven through its keys (prompt_toolkit pipe input, DummyOutput): against the
in-memory hall of hall_fakes, and against real TableServers sharing one event loop."""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

import pytest
from hall_fakes import FakeHall
from helpers import until
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput
from ui_fakes import lobby, state

from lanuno.bots.levels import BotLevel
from lanuno.engine.rules import preset, with_options
from lanuno.host.table import Table, TableConfig
from lanuno.net.server import TableControls, TableScreen, TableServer
from lanuno.ui.contracts import HallTable, NewTable
from lanuno.ui.hall_app import HallController, build_hall_application, run_hall_app
from lanuno.ui.hall_model import HallModel
from lanuno.ui.i18n import translator
from lanuno.ui.widgets import render_text

DOWN = "\x1b[B"
UP = "\x1b[A"
ESC = "\x1b"
BACKSPACE = "\x7f"


async def press(pipe: PipeInput, keys: str) -> None:
    pipe.send_text(keys)
    await asyncio.sleep(0.02)


async def escape(pipe: PipeInput) -> None:
    """A lone Esc reaches the app once the input's escape timeout has passed."""
    pipe.send_text(ESC)
    await asyncio.sleep(0.02)


def started(
    hall: object, pipe: PipeInput, lang: str = "en"
) -> tuple[HallController, asyncio.Task[int]]:
    ctl = HallController(hall, HallModel(translator(lang)))  # type: ignore[arg-type]
    ctl.sync()
    app = build_hall_application(ctl, input=pipe, output=DummyOutput())
    running = asyncio.create_task(
        app.run_async(pre_run=lambda: app.create_background_task(ctl.watch()) and None)
    )
    return ctl, running


async def test_arrows_and_enter_show_a_table_and_esc_or_q_come_back() -> None:
    hall = FakeHall(["Kitchen", "Garden", "Attic"])
    with create_pipe_input() as pipe:
        ctl, running = started(hall, pipe)
        garden = hall.by_number[2]
        garden.screen.feed(lobby())
        await until(lambda: ctl.views[2].ctl.model.lobby is not None, "table 2 fed")
        await press(pipe, DOWN + "\r")
        await until(lambda: ctl.model.open_table == 2, "Enter shows the selected table")
        assert "table 2 · Garden" in render_text(ctl.app).splitlines()[0]  # type: ignore[arg-type]

        await press(pipe, "b")  # the table app's own keys work there, on that table only
        await until(lambda: garden.controls.calls == [("add_bot", "intermediate")], "B adds a bot")
        assert hall.by_number[1].controls.calls == []

        await escape(pipe)
        await until(lambda: ctl.model.open_table is None, "Esc goes back to the hall")
        await press(pipe, "3\r")
        await until(lambda: ctl.model.open_table == 3, "a digit picks a table")
        await press(pipe, "q")
        await until(lambda: ctl.model.open_table is None, "Q in a table goes back to the hall")
        assert not hall.shut  # the tables go on
        assert all(t.controls.calls in ([], [("add_bot", "intermediate")]) for t in hall.tables())

        await press(pipe, UP + UP + "\r?")  # the table's help overlay keeps its keys
        await until(lambda: ctl.views[1].ctl.model.help_open, "help open")
        await press(pipe, "q")
        await until(lambda: not ctl.views[1].ctl.model.help_open, "a key closes the help")
        assert ctl.model.open_table == 1
        await press(pipe, "o")  # in the options list Esc closes the list, not the table
        await escape(pipe)
        await until(lambda: not ctl.views[1].ctl.model.options_open, "Esc closes the options")
        assert ctl.model.open_table == 1
        await escape(pipe)
        await until(lambda: ctl.model.open_table is None, "then Esc goes back")

        await press(pipe, "q")
        await until(lambda: ctl.model.confirm == "quit", "Q on the hall asks first")
        await press(pipe, "n")
        assert ctl.model.confirm is None
        assert not hall.shut
        await press(pipe, "qy")
        assert await asyncio.wait_for(running, 5) == 0
        assert hall.shut


async def test_n_opens_a_table_from_the_form_and_bad_input_is_refused() -> None:
    hall = FakeHall(["Kitchen"])
    with create_pipe_input() as pipe:
        ctl, running = started(hall, pipe)
        await press(pipe, "n")
        await until(lambda: ctl.model.form is not None, "N opens the form")
        form = ctl.model.form
        assert form is not None
        await press(pipe, BACKSPACE * 7 + "Kids corner")
        await press(pipe, DOWN + BACKSPACE * 8 + "kids1" + DOWN + "stacking=maybe")
        await press(pipe, DOWN + BACKSPACE + "12" + DOWN + "\t")  # Tab wraps round to the name
        await press(pipe, "\r")
        await until(lambda: form.errors, "Enter checks the form")
        assert set(form.errors) == {"options", "bots"}
        assert form.current == "options"
        assert hall.opened == []
        text = render_text(ctl.app)  # type: ignore[arg-type]
        assert "The option «stacking» takes on|off." in text
        assert "Bots: a number from 0 to 10, not «12»." in text

        await press(pipe, "\x15stacking=on target=300" + DOWN + BACKSPACE * 2 + "3\r")
        await until(lambda: hall.opened, "a good form opens the table")
        assert hall.opened == [
            NewTable("Kids corner", "kids1", ("stacking=on", "target=300"), 3, "intermediate")
        ]
        await until(lambda: ctl.model.form is None, "the form closes")
        await until(lambda: ctl.model.selected_number == 2, "the new table is selected")
        assert ctl.model.notice == "Table 2 is open."

        hall.refuse = "No table number is left (64 tables)."
        await press(pipe, "n\r")
        await until(lambda: ctl.model.notice == hall.refuse or hall.refuse is None, "refused")
        assert ctl.model.notice == "No table number is left (64 tables)."
        assert ctl.model.form is not None  # the form stays open for another try
        await escape(pipe)
        await until(lambda: ctl.model.form is None, "Esc cancels the form")
        assert len(hall.opened) == 1

        await press(pipe, "\x03")  # Ctrl-C closes everything at once, as on a table
        assert await asyncio.wait_for(running, 5) == 0
        assert hall.shut


async def test_c_closes_the_selected_table_after_a_confirmation_in_french() -> None:
    hall = FakeHall(["Cuisine", "Jardin"])
    with create_pipe_input() as pipe:
        ctl, running = started(hall, pipe, "fr")
        hall.by_number[2].screen.feed(lobby(), state())
        await press(pipe, DOWN + "c")
        await until(lambda: ctl.model.confirm == "close", "C asks first")
        text = render_text(ctl.app)  # type: ignore[arg-type]
        assert "Fermer la table 2 (Jardin) pour tous ? O pour fermer" in text
        await press(pipe, "x")
        assert hall.closed == []
        await press(pipe, "co")
        await until(lambda: hall.closed == [2], "O (oui) closes it")
        await until(lambda: [r.number for r in ctl.model.rows] == [1], "its row is gone")
        assert ctl.model.notice == "La table 2 est fermée."
        await press(pipe, "qy")
        assert await asyncio.wait_for(running, 5) == 0


async def test_a_table_shown_when_it_closes_leaves_the_hall_on_screen() -> None:
    hall = FakeHall(["Kitchen", "Garden"])
    with create_pipe_input() as pipe:
        ctl, running = started(hall, pipe)
        await press(pipe, DOWN + "\r")
        await until(lambda: ctl.model.open_table == 2, "table 2 shown")
        hall.by_number.pop(2).screen.end()  # closed by the host (its journal failed, say)
        await until(lambda: ctl.model.open_table is None, "back to the hall")
        await until(lambda: len(ctl.model.rows) == 1, "and its row is gone")
        await press(pipe, "\x11")  # Ctrl-Q
        assert await asyncio.wait_for(running, 5) == 0


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "paused: its journal could not be written"),
        ("fr", "en pause : sa sauvegarde sur disque a échoué"),
    ],
)
async def test_a_table_whose_journal_failed_stays_listed_as_paused(lang: str, words: str) -> None:
    hall = FakeHall(["Kitchen", "Garden"])
    with create_pipe_input() as pipe:
        ctl, running = started(hall, pipe, lang)
        await until(lambda: len(ctl.model.rows) == 2, "both tables listed")
        garden = hall.by_number[2]
        garden.paused = True  # the table stopped by itself and stays listed
        garden.screen.end()
        await until(lambda: ctl.model.rows[1].phase == "paused", "its row says paused")
        assert ctl.model.rows[0].phase == "lobby"
        await until(lambda: words in render_text(ctl.app), "and the screen too")  # type: ignore[arg-type]
        text = render_text(ctl.app)  # type: ignore[arg-type]
        assert "closed" not in text
        assert "fermée" not in text
        await press(pipe, "\x11")  # Ctrl-Q
        assert await asyncio.wait_for(running, 5) == 0


# ---------------------------------------------------------------------------- real tables


@dataclass
class ServedTable:
    number: int
    name: str
    screen_code: str
    server: TableServer

    @property
    def screen(self) -> TableScreen:
        return TableScreen(self.server)

    @property
    def controls(self) -> TableControls:
        return TableControls(self.server)

    @property
    def bot_level(self) -> BotLevel:
        return self.server.table.config.bot_level

    @property
    def paused(self) -> bool:
        return self.server.stopped is not None


class ServersHall:
    """HallControls over today's TableServers, each on its own loopback port, all in this
    one event loop: what the hall app needs until net/hall.py serves them on one port."""

    def __init__(self) -> None:
        self.served: dict[int, ServedTable] = {}

    def tables(self) -> Sequence[HallTable]:
        return [self.served[n] for n in sorted(self.served)]

    async def open_table(self, table: NewTable) -> HallTable:
        number = next(n for n in range(1, 33) if n not in self.served)
        rules = with_options(preset(table.preset), table.options)
        config = TableConfig(name=table.name, rules=rules, bot_level=table.level)
        host = Table(config, os.urandom)
        for _ in range(table.bots):
            host.add_bot(table.level)
        server = TableServer(host, host="127.0.0.1", port=0)
        await server.start()
        served = ServedTable(number, table.name, f"{secrets.randbelow(10**6):06d}", server)
        self.served[number] = served
        return served

    async def close_table(self, number: int) -> None:
        await self.served.pop(number).server.close()

    async def shutdown(self) -> None:
        for number in list(self.served):
            await self.close_table(number)


async def test_the_hall_runs_real_tables_in_one_event_loop() -> None:
    hall = ServersHall()
    await hall.open_table(NewTable("Kitchen", "official", (), 2, "beginner"))
    with create_pipe_input() as pipe:
        running = asyncio.create_task(
            run_hall_app(hall, lang="en", input=pipe, output=DummyOutput())
        )
        await press(pipe, "n")
        await press(pipe, BACKSPACE * 7 + "Garden" + DOWN + DOWN + "seven_o" + DOWN)
        await press(pipe, BACKSPACE + "3" + DOWN + BACKSPACE * 12 + "expert\r")
        await until(lambda: len(hall.served) == 2, "the form opened a second table")
        garden = hall.served[2].server.table
        assert garden.config.name == "Garden"
        assert garden.rules.seven_o
        assert [slot.kind for slot in garden.slots] == ["bot"] * 3
        await press(pipe, "\rb")  # show it: B adds a bot of the table's own level
        await until(lambda: len(garden.slots) == 4, "B added a bot")
        assert garden.slots[3].level is BotLevel.EXPERT
        await press(pipe, "s")  # start it: bots play the round at once
        await until(lambda: garden.phase.value != "lobby", "S started the shown table")
        await escape(pipe)
        await press(pipe, UP + "c")
        await press(pipe, "y")
        await until(lambda: list(hall.served) == [2], "C then Y closed table 1")
        await press(pipe, "qy")
        assert await asyncio.wait_for(running, 10) == 0
    assert hall.served == {}
