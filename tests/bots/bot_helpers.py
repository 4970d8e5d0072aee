"""Shared helpers for the bot tests: a bot wrapper that checks every decision, and tables."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from lanuno.bots import make_bot
from lanuno.bots.base import Bot
from lanuno.engine.actions import Action
from lanuno.engine.game import Game, SeatInfo
from lanuno.engine.phases import Phase
from lanuno.engine.round import Round
from lanuno.engine.rules import Rules, preset, with_options
from lanuno.engine.views import SeatView
from lanuno.sim import offer_out_of_turn

TEST_PLAYOUTS = 2
"""The expert's search size in tests: enough to exercise it, small enough to be quick."""


def round_steps(game: Game, bots: Sequence[Any], rng: random.Random, steps: int) -> Iterator[Round]:
    """Play the round with ``bots``, yielding it before each step (out-of-turn chances,
    then the actor's decision), for at most ``steps`` steps."""
    rnd = game.round
    for _ in range(steps):
        if rnd.phase is Phase.ROUND_OVER:
            return
        yield rnd
        offer_out_of_turn(game, bots, rng)
        if rnd.phase is Phase.ROUND_OVER:
            return
        action = bots[rnd.actor].choose(rnd.seat_view(rnd.actor), rng)
        assert action is not None
        rnd.apply(action)


@dataclass
class Checked:
    """Wraps a bot: every action it returns must be one the view lists as legal, and the
    actor must always decide. Records what it was offered and what it chose."""

    bot: Bot
    decisions: int = 0
    offered: list[tuple[SeatView, Action | None]] = field(default_factory=list)
    keep: bool = False

    @property
    def level(self) -> str:
        return self.bot.level

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        legal = view.legal
        action = self.bot.choose(view, rng)
        if view.my_turn:
            assert action is not None, f"{self.level} made no decision in {view.table.phase}"
        if action is not None:
            assert action in legal, f"{self.level} chose {action} not in {legal}"
        self.decisions += 1
        if self.keep:
            self.offered.append((view.snapshot(), action))
        return action


def bots_for(levels: Sequence[str]) -> list[Checked]:
    return [Checked(make_bot(level, playouts=TEST_PLAYOUTS)) for level in levels]


def table(name: str, options: Sequence[str] = ()) -> Rules:
    return with_options(preset(name), list(options))


def seats(kids: Sequence[bool]) -> list[SeatInfo]:
    return [SeatInfo(kid=kid, age=8 if kid else None) for kid in kids]
