"""Beginner: any legal card at random (drawing only when nothing fits); often forgets UNO
and rarely catches others (B3)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from lanuno.bots.base import as_observation
from lanuno.bots.levels import BotLevel
from lanuno.bots.tactics import excess_card
from lanuno.engine.actions import Action, CounterUno, DeclareUno, Play, ReturnCard
from lanuno.engine.observation import Observation
from lanuno.engine.views import SeatView


@dataclass(frozen=True, slots=True)
class BeginnerBot:
    level: BotLevel = BotLevel.BEGINNER
    declare_uno: float = 0.6
    """Chance of saying UNO when it could (B3: beginners often forget)."""
    catch: float = 0.15
    """Chance of calling Counter-UNO on an exposed player when it notices."""

    def choose(self, seen: Observation | SeatView, rng: random.Random) -> Action | None:
        return self.decide(as_observation(seen), rng)

    def decide(self, view: Observation, rng: random.Random) -> Action | None:
        plays: list[Action] = []
        others: list[Action] = []
        # One pass, in the order of the legal actions (which fixes the order of rng calls).
        for action in view.legal:
            kind = type(action)
            if kind is Play:
                plays.append(action)
            elif kind is DeclareUno:
                if rng.random() < self.declare_uno:
                    return action
            elif kind is CounterUno:
                if rng.random() < self.catch:
                    return action
            else:
                others.append(action)
        if not view.my_turn:
            return plays[0] if plays and rng.random() < 0.5 else None  # a jump-in, sometimes
        if others and type(others[0]) is ReturnCard:
            return excess_card(view)  # K2-9 [decision]: the highest-value card goes back
        moves = plays or others
        return moves[int(rng.random() * len(moves))] if moves else None
