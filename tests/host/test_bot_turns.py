"""A bot's turn at the table: a move the engine refuses is logged and replaced, and the
game goes on (it once raised out of ``tick``)."""

from __future__ import annotations

import random

from table_harness import Harness

from lanuno.bots.base import Bot
from lanuno.engine.actions import Action, parse_action
from lanuno.engine.views import SeatView
from lanuno.host.pace import FixedPace
from lanuno.host.table import Table, TableConfig
from lanuno.wire.crypto import counter_drbg


class WrongBot:
    """Always asks for a move the engine refuses (a card nobody has, out of turn too)."""

    level = "beginner"

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        return parse_action(f"{view.seat} play X")


def test_a_bot_move_the_engine_refuses_is_replaced_and_the_game_goes_on() -> None:
    lines: list[str] = []

    def factory(level: str) -> Bot:
        return WrongBot()

    config = TableConfig(pace=FixedPace(0.1))
    table = Table(config, counter_drbg(b"t"), bot_factory=factory)
    table.log = lines.append
    h = Harness(table)
    table.add_bot("beginner")
    table.add_bot("beginner")
    table.start(h.now)
    h.pump()
    sid = table.sid
    h.advance(1.0)  # the old table raised IllegalAction out of tick here
    assert table.sid >= sid + 5
    assert any("refused" in line for line in lines)
