"""How long a bot waits before it acts, so a table with bots feels like a table of people.

The table asks a ``Pace`` for a delay and schedules the bot's move through its own
deadline (no clock here). ``LevelPace`` uses the bots' own human pace per level
(lanuno.bots.pace); ``NO_PACE`` makes bots answer at once (tests, benchmarks).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal, Protocol

from lanuno.bots.pace import pace_for

Moment = Literal["turn", "uno", "catch"]
"""The bot's own turn, saying UNO out of turn, or another out-of-turn call (Counter-UNO,
jump-in)."""


class Pace(Protocol):
    def delay(self, level: str, moment: Moment, rng: random.Random) -> float:
        """Seconds a bot of ``level`` waits before acting at that moment."""


@dataclass(frozen=True, slots=True)
class LevelPace:
    def delay(self, level: str, moment: Moment, rng: random.Random) -> float:
        try:
            pace = pace_for(level)
        except ValueError:
            pace = pace_for("beginner")
        if moment == "turn":
            return pace.think_delay(rng)
        return pace.uno_reaction if moment == "uno" else pace.catch_reaction


@dataclass(frozen=True, slots=True)
class FixedPace:
    seconds: float = 0.0

    def delay(self, _level: str, _moment: Moment, _rng: random.Random) -> float:
        return self.seconds


NO_PACE = FixedPace(0.0)
