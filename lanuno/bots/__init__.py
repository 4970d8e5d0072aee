"""Bots for empty seats and dropped players: one interface, three levels (B1)."""

from __future__ import annotations

from lanuno.bots.base import Bot
from lanuno.bots.beginner import BeginnerBot

LEVELS = ("beginner", "intermediate", "expert")


def make_bot(level: str) -> Bot:
    """A bot of the named level (B1)."""
    if level == "beginner":
        return BeginnerBot()
    raise ValueError(f"unknown bot level {level!r}: choose from {', '.join(LEVELS)}")
