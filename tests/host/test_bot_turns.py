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


class BrokenBot:
    """Raises on every decision (a bug in a bot), as a bot once could out of ``tick``."""

    level = "beginner"

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        raise KeyError("a bug")


def broken_bots_playing() -> tuple[Table, Harness, list[str]]:
    """Two bots that raise on every decision, their game started; the host's log lines."""
    lines: list[str] = []
    table = Table(
        TableConfig(pace=FixedPace(0.1)), counter_drbg(b"t"), bot_factory=lambda _: BrokenBot()
    )
    table.log = lines.append
    h = Harness(table)
    table.add_bot("beginner")
    table.add_bot("beginner")
    table.start(h.now)
    h.pump()
    return table, h, lines


def test_a_bot_that_raises_is_logged_its_timer_decision_stands_in_and_the_game_goes_on() -> None:
    table, h, lines = broken_bots_playing()
    sid = table.sid
    h.advance(1.0)
    assert table.sid >= sid + 5  # every bot turn decided by the seat's timer instead
    assert any("a bot failed: KeyError" in line for line in lines)


def test_when_nothing_can_stand_in_for_a_failed_bot_the_bots_are_asked_again_later() -> None:
    table, h, lines = broken_bots_playing()

    def refuse(_action: Action, _now: float) -> bool:
        raise RuntimeError("the stand-in failed too")

    table._bot_act = refuse  # type: ignore[method-assign]
    h.advance(0.2)
    assert any("the stand-in failed too" in line for line in lines)
    # Not stalled: a plan is left, so the table's timer comes back to the bots.
    deadline = table.next_deadline()
    assert deadline is not None
    assert deadline > h.now
    asked = len(lines)
    h.advance(1.5)
    assert len(lines) > asked
