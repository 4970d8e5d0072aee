"""The one interface every bot level implements (B1, B2).

A bot decides from an :class:`Observation` and a random generator, nothing else: plain
data copied out of the round at the moment of decision (its hand, the public table and
log, its own private events, its legal actions), with no way back to the round, the other
hands, the draw pile or the shuffler. Callers that hold a :class:`SeatView` may pass it:
:func:`as_observation` turns it into an observation before any decision logic runs.
"""

from __future__ import annotations

import random
from typing import Protocol

from lanuno.bots.levels import BotLevel
from lanuno.engine.actions import Action
from lanuno.engine.observation import Observation, observe
from lanuno.engine.views import SeatView


class BotThinking(Exception):
    """Raised by ``choose`` of a bot whose answer is being computed elsewhere (a worker
    process, ``net/workers.py``): the caller asks again shortly, with the same moment."""


class Bot(Protocol):
    @property
    def level(self) -> BotLevel: ...

    def choose(self, seen: Observation | SeatView, rng: random.Random) -> Action | None:
        """The action to take now, or None to do nothing (only allowed when the seat is not
        the actor: an out-of-turn chance such as a Counter-UNO that the bot lets go)."""


def as_observation(seen: Observation | SeatView) -> Observation:
    """The frozen observation a bot decides from (a view is copied out, then dropped)."""
    if type(seen) is Observation:
        return seen
    assert isinstance(seen, SeatView)
    return observe(seen)
