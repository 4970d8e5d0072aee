"""Intermediate: sound habits of a regular player, no memory and no look-ahead.

Keeps wilds for when nothing else fits, follows the color it holds most (on a kids' table:
sheds first the card its other cards match least), changes the color to its favourite,
dumps high-value and attacking cards when someone is near UNO, says UNO reliably and
catches sometimes (B3), never bluffs a Wild Draw Four.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from lanuno.bots import tactics
from lanuno.bots.base import as_observation
from lanuno.bots.levels import BotLevel
from lanuno.engine.actions import (
    AcceptPenalty,
    Action,
    Challenge,
    ChooseColor,
    ChooseTarget,
    CounterUno,
    DeclareUno,
    Draw,
    Pass,
    Play,
    SwapHands,
)
from lanuno.engine.cards import Card, Rank
from lanuno.engine.observation import Observation
from lanuno.engine.phases import Phase
from lanuno.engine.rules import WildDrawFour
from lanuno.engine.views import SeatView


@dataclass(frozen=True, slots=True)
class IntermediateBot:
    level: BotLevel = BotLevel.INTERMEDIATE
    declare_uno: float = 0.95
    """Chance of saying UNO when it should (B3: reliable, not perfect)."""
    catch: float = 0.5
    """Chance of calling Counter-UNO on an exposed player."""
    challenge: float = 0.2
    """Chance of challenging a Wild Draw Four (it does not weigh the evidence)."""

    def choose(self, seen: Observation | SeatView, rng: random.Random) -> Action | None:
        return self.decide(as_observation(seen), rng)

    def decide(self, view: Observation, rng: random.Random) -> Action | None:
        legal = view.legal
        if not legal:
            return None
        call = self._call(view, rng)
        if call is not None:
            return call
        table = view.table
        if table.actor != view.seat:
            jump = [a for a in legal if type(a) is Play]
            return jump[0] if jump else None  # jumping in costs nothing and sheds a card
        phase = table.phase
        if phase is Phase.TURN or phase is Phase.DRAWN:
            return self._play_or_draw(view, legal)
        if phase is Phase.CHOOSE_COLOR:
            return ChooseColor(view.seat, tactics.favourite_color(view.hand))
        if phase is Phase.PENALTY:
            stacks = [a for a in legal if type(a) is Play]
            if stacks:
                return self._best_play(view, legal, stacks)
            if Challenge(view.seat) in legal and rng.random() < self.challenge:
                return Challenge(view.seat)
            return AcceptPenalty(view.seat)
        if phase is Phase.GIFT:
            return tactics.gift_to_leader(view)
        if phase is Phase.CHOOSE_TARGET:
            return ChooseTarget(view.seat, tactics.leader(view))
        if phase is Phase.SWAP:
            return SwapHands(view.seat, tactics.leader(view))
        if phase is Phase.EXCESS:
            return tactics.excess_card(view)
        return legal[0]

    def _call(self, view: Observation, rng: random.Random) -> Action | None:
        """UNO or Counter-UNO, each with its chance (rolled in the order of the legal
        actions, whether or not a UNO is worth saying, so the rolls stay the same)."""
        for action in view.legal:
            kind = type(action)
            if kind is DeclareUno:
                if rng.random() < self.declare_uno and tactics.uno_worth_saying(view):
                    return action
            elif kind is CounterUno and rng.random() < self.catch:
                return action
        return None

    def _play_or_draw(self, view: Observation, legal: tuple[Action, ...]) -> Action:
        plays = tactics.distinct_plays(legal)
        honest = [p for p in plays if not _bluff(view, p.card)]
        if honest:
            return self._best_play(view, legal, honest)
        if Draw(view.seat) in legal:
            return Draw(view.seat)
        if Pass(view.seat) in legal:
            return Pass(view.seat)
        return self._best_play(view, legal, plays)  # must play (kids rules)

    def _best_play(self, view: Observation, legal: tuple[Action, ...], plays: list[Play]) -> Action:
        hand = view.hand
        weights = tactics.color_weights(hand)
        danger = tactics.danger(view) <= tactics.NEAR_UNO
        next_short = view.table.counts[tactics.next_seat(view)] <= tactics.NEAR_UNO
        kids_table = tactics.kids_habit(view.table.rules)

        def score(play: Play) -> float:
            ties = tactics.ties_of(play.card, hand) if kids_table else None
            return tactics.habit_value(play.card.index, weights, danger, next_short, ties)

        best = max(plays, key=score)
        remaining: list[Card] = list(hand)
        remaining.remove(best.card)
        return tactics.with_color(best, tactics.favourite_color(remaining), legal)


def _bluff(view: Observation, card: Card) -> bool:
    """A Wild Draw Four played while holding the current color (challengeable, O21)."""
    if card.rank is not Rank.WILD_DRAW_FOUR:
        return False
    if view.table.rules.wild_draw_four is not WildDrawFour.CHALLENGE:
        return False
    color = view.table.color
    return any(c.color is color for c in view.hand)
