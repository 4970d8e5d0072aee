"""Bots for empty seats and dropped players: one interface, three levels (B1)."""

from __future__ import annotations

from lanuno.bots.base import Bot
from lanuno.bots.beginner import BeginnerBot
from lanuno.bots.expert import ExpertBot
from lanuno.bots.intermediate import IntermediateBot
from lanuno.bots.levels import LEVELS, BotLevel, UnknownBotLevel

__all__ = ["LEVELS", "Bot", "BotLevel", "UnknownBotLevel", "make_bot"]


def make_bot(level: BotLevel | str, *, playouts: int | None = None) -> Bot:
    """A bot of the named level (B1); an unknown name raises :class:`UnknownBotLevel`.
    ``playouts`` sets the expert's search size and lifts its time cap (reproducible runs
    whatever the machine's load); other levels do not search."""
    level = BotLevel.parse(level)
    if level is BotLevel.BEGINNER:
        return BeginnerBot()
    if level is BotLevel.INTERMEDIATE:
        return IntermediateBot()
    if playouts is None:
        return ExpertBot()
    return ExpertBot(playouts=playouts, budget_ms=None)
