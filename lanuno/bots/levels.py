"""The bot levels (B1), named once: the CLI, the host, the shared screen, ``lanuno sim`` and
the tournament script all take their spelling from here."""

from __future__ import annotations

import enum


class UnknownBotLevel(ValueError):
    """A level name that is not one of :class:`BotLevel` (the message lists the levels)."""


class BotLevel(enum.StrEnum):
    """A bot's strength. A ``StrEnum``: each member is its own name as a string, so it goes
    into journals, the wire and the screen as plain text."""

    BEGINNER = "beginner"
    INTERMEDIATE = "intermediate"
    EXPERT = "expert"

    @classmethod
    def parse(cls, word: str) -> BotLevel:
        """The level named ``word`` (any case, surrounding spaces ignored). An unknown name
        is refused, never read as a beginner."""
        try:
            return cls(word.strip().lower())
        except (ValueError, AttributeError):
            choices = ", ".join(level.value for level in cls)
            raise UnknownBotLevel(f"unknown bot level {word!r}: choose from {choices}") from None


LEVELS: tuple[BotLevel, ...] = tuple(BotLevel)
"""Every level, weakest first."""
