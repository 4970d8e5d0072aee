"""``lanuno host --tables N`` on the host's own terminal: the hall app over a real
``Hall`` (one port on loopback, no journal): the form opens a table with its own name,
preset, options, bots and level; C closes one; Q then Y closes the hall."""

from __future__ import annotations

import asyncio

from helpers import until
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from lanuno.commands.hall_screen import HallHost, form_defaults
from lanuno.engine.rules import preset, rules_from_words, with_options
from lanuno.host.table import TableConfig
from lanuno.net.hall import Hall
from lanuno.ui.contracts import HallControls, NewTable
from lanuno.ui.hall_app import run_hall_app
from lanuno.wire.crypto import MAX_TABLES

DOWN = "\x1b[B"
BACKSPACE = "\x7f"


async def press(pipe: object, keys: str) -> None:
    pipe.send_text(keys)  # type: ignore[attr-defined]
    await asyncio.sleep(0.02)


async def test_the_hall_screen_opens_closes_and_quits_a_real_hall() -> None:
    hall = Hall(host="127.0.0.1", port=0)
    await hall.start()
    base = TableConfig(name="unused", drop_grace=12.0)
    await hall.open_table(TableConfig(name="Kitchen"), bots=1)
    controls: HallControls = HallHost(hall, base)
    with create_pipe_input() as pipe:
        running = asyncio.create_task(
            run_hall_app(controls, lang="en", input=pipe, output=DummyOutput())
        )
        await press(pipe, "n")
        await press(pipe, BACKSPACE * 7 + "Kids" + DOWN + BACKSPACE * 8 + "kids1")
        await press(pipe, DOWN + "ka1" + DOWN + BACKSPACE + "2" + DOWN)
        await press(pipe, BACKSPACE * 12 + "expert\r")
        await until(lambda: len(hall.tables) == 2, "the form opened table 2")
        kids = hall.tables[1]
        assert (kids.number, kids.name) == (2, "Kids")
        config = kids.server.table.config
        assert config.rules.preset == "kids1"
        assert config.rules.kids_immune_to_counter_uno
        assert config.bot_level == "expert"
        assert config.drop_grace == 12.0  # the command line's settings carry over
        assert [slot.kind for slot in kids.server.table.slots] == ["bot", "bot"]
        assert hall.tables[0].screen_code != kids.screen_code

        await press(pipe, "1cy")
        await until(lambda: [t.number for t in hall.tables] == [2], "C then Y closed table 1")
        await press(pipe, "qy")
        assert await asyncio.wait_for(running, 10) == 0
    assert hall.closed.is_set()
    assert hall.tables == []


async def test_a_refusal_of_the_hall_is_a_sentence_on_screen() -> None:
    hall = Hall(host="127.0.0.1", port=0)
    await hall.start()
    host = HallHost(hall, TableConfig())
    first = await host.open_table(NewTable("A", "official", ("stacking=on",), 0, "beginner"))
    assert first.number == 1
    try:
        for number in range(2, MAX_TABLES + 1):
            await hall.open_table(TableConfig(name=f"T{number}"))
        refused = None
        try:
            await host.open_table(NewTable("One too many", "official"))
        except ValueError as error:
            refused = str(error)
        assert refused is not None
        assert str(MAX_TABLES) in refused
    finally:
        await host.shutdown()
    assert hall.closed.is_set()


async def test_closing_the_last_table_leaves_the_hall_open_for_a_new_one() -> None:
    hall = Hall(host="127.0.0.1", port=0)
    await hall.start()
    await hall.open_table(TableConfig(name="Kitchen"))
    with create_pipe_input() as pipe:
        running = asyncio.create_task(
            run_hall_app(HallHost(hall, TableConfig()), lang="en", input=pipe, output=DummyOutput())
        )
        await press(pipe, "cy")
        await until(lambda: hall.tables == [], "C then Y closed the only table")
        await asyncio.sleep(0.1)
        assert not hall.closed.is_set()  # the host closed it: the hall goes on
        assert not running.done()
        await press(pipe, "n\r")
        await until(lambda: len(hall.tables) == 1, "N opened a new table")
        assert hall.tables[0].name == "Table 1"
        await press(pipe, "qy")
        assert await asyncio.wait_for(running, 10) == 0
    assert hall.closed.is_set()


def test_the_form_proposes_the_command_lines_table() -> None:
    """``lanuno host --tables 1 --bots 2 --preset kids2 --option ka1 --level expert``: the
    form N opens proposes kids2 with ka1, 2 bots, expert (it proposed official, 0 bots)."""
    rules = with_options(preset("kids2"), ["ka1", "target=3"])
    base = TableConfig(name="Kitchen", rules=rules, bot_level="expert")
    defaults = form_defaults(base, bots=2, name="Fete")
    assert defaults == NewTable("Fete", "kids2", ("target=3", "ka1=on"), 2, "expert")
    assert rules_from_words(defaults.preset, defaults.options) == rules
    plain = form_defaults(TableConfig(), bots=0)
    assert (plain.name, plain.preset, plain.options, plain.bots) == ("", "official", (), 0)
