"""The one interface every bot level implements (B1, B2).

A bot sees a :class:`SeatView` and a random generator, nothing else: it cannot look at
another hand or the draw pile because it is never given them.
"""

from __future__ import annotations

import random
from typing import Protocol

from lanuno.engine.actions import Action
from lanuno.engine.views import SeatView


class Bot(Protocol):
    @property
    def level(self) -> str:
        """beginner, intermediate or expert."""

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        """The action to take now, or None to do nothing (only allowed when the seat is not
        the actor: an out-of-turn chance such as a Counter-UNO that the bot lets go)."""
