"""The host's own terminal when it serves a hall (``lanuno host --tables N``): the hall app
(:mod:`lanuno.ui.hall_app`) over a :class:`~lanuno.net.hall.Hall`. Tables opened from the
hall screen take the command line's bot pace and timings; the form gives each its own
name, preset, options, bots and bot level."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from lanuno.bots.levels import BotLevel
from lanuno.commands.apps import run_app_until_closed
from lanuno.engine.rules import OPTION_ALIASES, option_words, rules_from_words
from lanuno.host.table import TableConfig
from lanuno.net.hall import Hall
from lanuno.ui.contracts import HallTable, NewTable
from lanuno.ui.hall_app import run_hall_app


class HallHost:
    """``HallControls`` over a running hall."""

    def __init__(self, hall: Hall, base: TableConfig) -> None:
        self._hall = hall
        self._base = base

    def tables(self) -> Sequence[HallTable]:
        return self._hall.tables

    async def open_table(self, table: NewTable) -> HallTable:
        config = replace(
            self._base,
            name=table.name,
            rules=rules_from_words(table.preset, table.options),
            bot_level=BotLevel.parse(table.level),
        )
        try:
            return await self._hall.open_table(config, bots=table.bots)
        except OSError as error:  # its journal file: say why on the hall screen
            raise ValueError(f"cannot open the table: {error}") from None

    async def close_table(self, number: int) -> None:
        await self._hall.close_table(number)

    async def shutdown(self) -> None:
        await self._hall.close()


async def show_hall_until_closed(
    hall: Hall, base: TableConfig, lang: str | None, *, bots: int = 0, name: str | None = None
) -> None:
    """The hall app until the host quits it (Q, Y) or the hall closes (SIGTERM, or every
    table stopped by itself). Its new-table form starts from the command line's preset,
    options, ``bots`` and level, which the tables it opened with have, and names the new
    table after ``name`` (``--name``) as they are named."""
    defaults = form_defaults(base, bots, name)
    app = run_hall_app(HallHost(hall, base), lang=lang, defaults=defaults)
    await run_app_until_closed(app, hall.closed)


def form_defaults(base: TableConfig, bots: int, name: str | None = None) -> NewTable:
    """What the hall's new-table form proposes: the command line's table (its ``name``,
    which the form numbers; none: "Table N")."""
    rules = base.rules
    return NewTable(
        name=name or "",
        preset=rules.preset,
        options=tuple(_short(word) for word in option_words(rules)),
        bots=bots,
        level=base.bot_level.value,
    )


_KIDS_SWITCHES = {name: alias for alias, name in OPTION_ALIASES.items() if alias.startswith("ka")}


def _short(word: str) -> str:
    """An option as the form's hint and the README write it: ``ka1=on``, not
    ``kids_immune_to_counter_uno=on``."""
    name, _, value = word.partition("=")
    return f"{_KIDS_SWITCHES.get(name, name)}={value}"
