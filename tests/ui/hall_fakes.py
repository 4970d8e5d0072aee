"""In-memory stand-ins for the host's hall (``HallControls``), and the sample tables of the
hall's tests: each table is a ``FakeScreen`` and ``FakeControls`` from ui_fakes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ui_fakes import FakeControls, FakeScreen

from lanuno.bots.levels import BotLevel
from lanuno.ui.contracts import HallTable, NewTable


@dataclass
class FakeTable:
    number: int
    name: str
    screen_code: str
    screen: FakeScreen = field(default_factory=FakeScreen)
    controls: FakeControls = field(default_factory=FakeControls)
    paused: bool = False
    bot_level: BotLevel = BotLevel.INTERMEDIATE


class FakeHall:
    """Records the hall's requests; ``refuse`` makes the next one raise ValueError."""

    def __init__(self, names: Sequence[str] = ()) -> None:
        self.by_number: dict[int, FakeTable] = {}
        self.opened: list[NewTable] = []
        self.closed: list[int] = []
        self.shut = False
        self.refuse: str | None = None
        for name in names:
            self.add(name)

    def add(self, name: str) -> FakeTable:
        number = next(n for n in range(1, 33) if n not in self.by_number)
        table = FakeTable(number, name, f"{105227 + 1111 * number:06d}")
        table.screen.room = f"{482913 + 7 * number:06d}"
        self.by_number[number] = table
        return table

    def _check(self) -> None:
        if self.refuse is not None:
            reason, self.refuse = self.refuse, None
            raise ValueError(reason)

    def tables(self) -> Sequence[HallTable]:
        return [self.by_number[n] for n in sorted(self.by_number)]

    async def open_table(self, table: NewTable) -> HallTable:
        self._check()
        self.opened.append(table)
        return self.add(table.name)

    async def close_table(self, number: int) -> None:
        self._check()
        self.closed.append(number)
        self.by_number.pop(number).screen.end()

    async def shutdown(self) -> None:
        self.shut = True
        for table in self.by_number.values():
            table.screen.end()
