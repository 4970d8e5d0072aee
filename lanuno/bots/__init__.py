"""Bots for empty seats and dropped players: one interface, three levels (B1)."""

from __future__ import annotations

from lanuno.bots.base import Bot
from lanuno.bots.beginner import BeginnerBot
from lanuno.bots.expert import ExpertBot
from lanuno.bots.intermediate import IntermediateBot

LEVELS = ("beginner", "intermediate", "expert")


def make_bot(level: str, *, playouts: int | None = None) -> Bot:
    """A bot of the named level (B1). ``playouts`` fixes the expert's search size instead of
    its time budget (reproducible runs); other levels do not search."""
    if level == "beginner":
        return BeginnerBot()
    if level == "intermediate":
        return IntermediateBot()
    if level == "expert":
        return ExpertBot(playouts=playouts)
    raise ValueError(f"unknown bot level {level!r}: choose from {', '.join(LEVELS)}")
