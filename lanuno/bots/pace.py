"""Human pace for bots at a table with people (the host applies it; ``lanuno sim`` does not).

A bot answers in microseconds; at a real table that feels like cheating and makes its
moves impossible to follow. The host waits ``think`` (plus up to ``think_jitter``) before
a bot's move, and ``uno_reaction`` / ``catch_reaction`` before its out-of-turn calls, so
that a quick human can still beat a bot to a Counter-UNO.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from lanuno.bots.levels import BotLevel


@dataclass(frozen=True, slots=True)
class BotPace:
    think: float
    """Seconds before a move on the bot's turn."""
    think_jitter: float
    """Extra seconds, uniform in [0, think_jitter), so moves do not tick like a clock."""
    uno_reaction: float
    """Seconds before saying UNO out of turn when exposed."""
    catch_reaction: float
    """Seconds before calling Counter-UNO on an exposed player."""

    def think_delay(self, rng: random.Random) -> float:
        return self.think + rng.random() * self.think_jitter


PACES: dict[BotLevel, BotPace] = {
    BotLevel.BEGINNER: BotPace(think=1.6, think_jitter=1.4, uno_reaction=1.5, catch_reaction=2.5),
    BotLevel.INTERMEDIATE: BotPace(
        think=1.1, think_jitter=0.9, uno_reaction=0.9, catch_reaction=1.6
    ),
    BotLevel.EXPERT: BotPace(think=0.8, think_jitter=0.6, uno_reaction=0.5, catch_reaction=1.0),
}


def pace_for(level: BotLevel | str) -> BotPace:
    """The pace of that level; an unknown name raises ``UnknownBotLevel``."""
    return PACES[BotLevel.parse(level)]
