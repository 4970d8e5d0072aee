"""Expert: counts cards, reads the table, and searches (B2-B4).

* Always says UNO (with its last card, or with two when it can play one now) and always
  catches an exposed player (B3); always jumps in, but not down to one card.
* It decides from a frozen :class:`Observation` only (B2: honest by construction).
* On its turn, and after a draw, it compares its options by Monte Carlo search on the
  fast simulation core (:mod:`lanuno.bots.search`, :mod:`lanuno.bots.fastcore`): worlds
  consistent with what it knows for sure (and, in most worlds, with what it suspects),
  each option played out in the same worlds, with UNO calls, Counter-UNO and jump-ins.
  It searches a fixed number of worlds (``playouts``, 150: the same observation and
  generator always give the same action), within a time cap (``budget_ms``, 90 ms) that
  only a slow or busy machine reaches.
* Card reading (:mod:`lanuno.bots.knowledge`) is only as sure as the rules allow: a draw
  where drawing is voluntary proves nothing; cards shown after its challenge are known.
* Wild colors: the color it holds most, steered towards colors that the next player and
  the leader probably lack, and away from the color the next player last named.
* Wild Draw Four: it bluffs only when the search finds it pays, and challenges when the
  odds that the player held the previous color (given the unseen cards, the player's hand
  size and what it showed it lacked), and the look at that player's hand that a challenge
  buys (O21), make the challenge worth its risk (B4).
* Penalties, gifts, swaps and targets go to the leader.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from lanuno.bots import tactics
from lanuno.bots.base import as_observation
from lanuno.bots.knowledge import TableKnowledge, read_table
from lanuno.bots.levels import BotLevel
from lanuno.bots.search import WorldMaker, flat, search, searchable, to_moves
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
from lanuno.engine.cards import COLORS, Card, Color, Rank
from lanuno.engine.observation import Observation
from lanuno.engine.phases import Phase
from lanuno.engine.rules import WildDrawFour
from lanuno.engine.views import SeatView

BLUFF_TENDENCY = 0.35
"""Assumed chance that a player holding the current color plays a Wild Draw Four anyway,
relative to a player who may play it legally (most players bluff now and then)."""
LACKED_COLOR_BONUS = 2.5
"""Heuristic preference for a card of a color the next player showed it lacks."""
FLAT_MARGIN = 0.02
"""How much better than the heuristic's first choice a flat-searched option must score."""
INFORMATION_CARDS = 2.5
"""What seeing the hidden hands is worth, in cards: a challenge shows the Wild Draw Four
player's hand to the challenger (O21), and the search then plays on with those cards known.
Heads-up that is every hidden hand, worth more than the 2 cards a lost challenge costs, so
every Wild Draw Four is challenged. By ``scripts/tournament.py`` against intermediates, who
never bluff (so every challenge is lost), heads-up: 0.657 and 0.666 (seeds 2026 and 11),
where challenging on the bluff odds alone scored 0.629 and 0.626. At a bigger table one
hand of several is shown, worth its share: at four seats 0.304 (0.305 on the odds alone,
0.298 challenging every one)."""
BLUFF_PRIOR_COST = 0.03
"""Win-probability handicap on a bluff in the search, for the challenges it attracts from
players who read the table better than the playout policy does."""


WORLDS = 150
"""Worlds searched per decision: about 25 ms a decision on one core (the time budget it
replaces spent 50 ms on every decision). By ``scripts/bot_regret.py`` (600 positions,
heads-up and at four seats) 48, 100, 150 and 300 worlds choose about equally well: what
the expert cannot see costs it ten times what the search does. A fixed count makes a
decision reproducible, and lets the tournament measure the shipped bot."""
TIME_CAP_MS = 90.0
"""The most a decision may take, however many worlds are left (decision p99 <= 100 ms)."""


@dataclass(frozen=True, slots=True)
class ExpertBot:
    level: BotLevel = BotLevel.EXPERT
    budget_ms: float | None = TIME_CAP_MS
    """Thinking time cap per searched decision (None: no cap, for reproducible runs)."""
    playouts: int | None = WORLDS
    """Search iterations (one sampled world each) per decision (None: as many as the
    time cap allows)."""
    horizon: int = 24
    """Moves played out (below the tree, for "tree") before the position is scored."""
    method: str = "flat"
    """"flat": each option played out in the same sampled worlds (common random numbers);
    "tree": IS-MCTS over the expert's own later decisions. Measured against the
    intermediate at equal compute, flat scores higher (see :mod:`lanuno.bots.search`)."""

    def choose(self, seen: Observation | SeatView, rng: random.Random) -> Action | None:
        return self.decide(as_observation(seen), rng)

    def decide(self, view: Observation, rng: random.Random) -> Action | None:
        legal = view.legal
        if not legal:
            return None
        # Catch first: an exposure ends when the actor acts, a UNO can still be said after.
        for action in legal:
            if type(action) is CounterUno:
                return action
        table = view.table
        my_turn = table.actor == view.seat
        # With two cards out of turn it does not jump in (below), so it has nothing to say.
        if tactics.uno_worth_saying(view) and (my_turn or len(view.hand) != 2):
            for action in legal:
                if type(action) is DeclareUno:
                    return action
        if not my_turn:
            # Jump in (T6), but not down to one card: the UNO could only be said after
            # others had a chance to catch it.
            jump = [a for a in legal if type(a) is Play]
            return jump[0] if jump and len(view.hand) != 2 else None
        phase = table.phase
        if phase is Phase.TURN or phase is Phase.DRAWN:
            return self._turn(view, legal, rng)
        knowledge = read_table(view)
        if phase is Phase.CHOOSE_COLOR:
            return ChooseColor(view.seat, _color_for(view, knowledge, view.hand))
        if phase is Phase.PENALTY:
            return _answer_penalty(view, legal, knowledge)
        if phase is Phase.GIFT:
            return tactics.gift_to_leader(view)
        if phase is Phase.CHOOSE_TARGET:
            return ChooseTarget(view.seat, tactics.leader(view))
        if phase is Phase.SWAP:
            return SwapHands(view.seat, _swap_target(view))
        if phase is Phase.EXCESS:
            return tactics.excess_card(view)
        return legal[0]

    def _turn(self, view: Observation, legal: tuple[Action, ...], rng: random.Random) -> Action:
        knowledge = read_table(view)
        candidates = _candidates(view, legal, knowledge)
        if len(candidates) == 1 or not searchable(view):
            return candidates[0]
        deadline = None
        if self.budget_ms is not None:
            deadline = time.perf_counter() + self.budget_ms / 1000
        worlds = self.playouts
        if worlds is None and deadline is None:
            worlds = WORLDS  # neither a count nor a cap: the shipped count
        maker = WorldMaker.from_view(view, knowledge)
        moves = to_moves(candidates)
        if self.method == "flat":
            means, _ = flat(
                maker, moves, rng, worlds=worlds, deadline=deadline, horizon=self.horizon
            )
            scored = [
                value - (BLUFF_PRIOR_COST if _is_bluff(view, action) else 0.0)
                for value, action in zip(means, candidates, strict=True)
            ]
            scored[0] += FLAT_MARGIN
            return candidates[scored.index(max(scored))]
        visits, means, _ = search(
            maker,
            moves,
            rng,
            iterations=worlds,
            deadline=deadline,
            horizon=self.horizon,
        )
        # The most visited option; a bluff must also beat the best honest option's value
        # by what the challenges it draws from real players cost.
        order = sorted(range(len(candidates)), key=lambda i: (-visits[i], i))
        best = order[0]
        if _is_bluff(view, candidates[best]):
            honest = [i for i in order if not _is_bluff(view, candidates[i])]
            if honest and means[best] - BLUFF_PRIOR_COST < means[honest[0]]:
                best = honest[0]
        return candidates[best]


def _is_bluff(view: Observation, action: Action) -> bool:
    if type(action) is not Play:
        return False
    assert isinstance(action, Play)
    if action.card.rank is not Rank.WILD_DRAW_FOUR:
        return False
    if view.table.rules.wild_draw_four is not WildDrawFour.CHALLENGE:
        return False
    return any(card.color is view.table.color for card in view.hand)


def _color_for(view: Observation, knowledge: TableKnowledge, hand: tuple[Card, ...]) -> Color:
    """The color to name: the one held most, towards colors the next player and the leader
    lack, away from colors of which many cards are still unseen."""
    nxt, lead = tactics.next_seat(view), tactics.leader(view)
    bonus = []
    for color in COLORS:
        value = -0.03 * knowledge.unseen_of(color)
        if color in knowledge.likely[nxt].colors:
            value += 1.5
        if color in knowledge.likely[lead].colors:
            value += 0.75
        if color is knowledge.named[nxt]:
            value -= 1.0  # the next player named it: it probably holds some
        bonus.append(value)
    return tactics.favourite_color(hand, bonus)


def _colors_to_try(view: Observation, knowledge: TableKnowledge, card: Card) -> list[Color]:
    """The two most promising colors for a wild (the search compares them)."""
    remaining = list(view.hand)
    remaining.remove(card)
    first = _color_for(view, knowledge, tuple(remaining))
    weights = tactics.color_weights(remaining)
    others = sorted((c for c in COLORS if c is not first), key=lambda c: -weights[COLORS.index(c)])
    return [first, others[0]]


def _candidates(
    view: Observation, legal: tuple[Action, ...], knowledge: TableKnowledge
) -> list[Action]:
    """Options worth searching, best first by a quick heuristic: colored cards of the color
    held most, action cards, then wilds (two colors each), then drawing or passing."""
    weights = tactics.color_weights(view.hand)
    plays = tactics.distinct_plays(legal)
    nxt = tactics.next_seat(view)
    attack = view.table.counts[nxt] <= 2 or nxt == tactics.leader(view)
    lacking = knowledge.likely[nxt].colors

    def order(play: Play) -> float:
        card = play.card
        if card.color is None:
            return -10.0 + (1 if card.rank is Rank.WILD else 0)
        value = weights[COLORS.index(card.color)] + card.points / 50
        if card.color in lacking:
            value += LACKED_COLOR_BONUS  # keep the next player on a color it has not got
        if attack and card.rank in tactics.ATTACK_RANKS:
            value += 2.0  # aim the Skip / Draw Two at the leader
        return value

    out: list[Action] = []
    bluffs: list[Action] = []
    for play in sorted(plays, key=order, reverse=True):
        forms: list[Action] = [play]
        if play.card.color is None:
            forms = [
                tactics.with_color(play, color, legal)
                for color in _colors_to_try(view, knowledge, play.card)
            ]
        (bluffs if _is_bluff(view, play) else out).extend(forms)
    # Drawing while holding a fitting card (O14) is rarely right: only when nothing fits.
    if not out:
        out.extend(a for a in (Draw(view.seat), Pass(view.seat)) if a in legal)
    elif Pass(view.seat) in legal:
        out.append(Pass(view.seat))
    out.extend(bluffs)
    if not out:
        out.append(legal[0])
    return out


def _answer_penalty(
    view: Observation, legal: tuple[Action, ...], knowledge: TableKnowledge
) -> Action:
    stacks = [a for a in legal if type(a) is Play]
    if stacks:
        # Passing the penalty on is always better than taking it; keep a Wild Draw Four
        # if a Draw Two does the job.
        plain = [a for a in stacks if isinstance(a, Play) and a.card.color is not None]
        if plain:
            return plain[0]
        wild = stacks[0]
        assert isinstance(wild, Play)
        color = _color_for(view, knowledge, _without(view.hand, wild.card))
        return tactics.with_color(Play(view.seat, wild.card), color, legal)
    challenge = Challenge(view.seat)
    if challenge in legal and _should_challenge(view, knowledge):
        return challenge
    return AcceptPenalty(view.seat)


def _without(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    rest = list(hand)
    rest.remove(card)
    return tuple(rest)


def bluff_odds(_view: Observation, knowledge: TableKnowledge) -> float:
    """Probability that the Wild Draw Four aimed at this seat was a bluff (B4)."""
    play = knowledge.last_wild_draw_four
    if play is None or play.prior_color is None:
        return 0.0
    if play.seat in knowledge.known_bluffers:
        return 0.9
    lack = knowledge.likely[play.seat]  # a probability: what it probably lacks is evidence
    if play.prior_color in lack.colors:
        return 0.02  # it drew on that color and has not been given cards since
    unseen = sum(knowledge.unseen)
    of_color = knowledge.unseen_of(play.prior_color)
    none = 1.0
    for i in range(play.hand_after):
        if unseen - i <= 0:
            break
        none *= max(0.0, (unseen - of_color - i) / (unseen - i))
    held = 1.0 - none
    # A player caught playing it legally earlier this round is less likely to bluff.
    tendency = BLUFF_TENDENCY / 2 if play.seat in knowledge.known_honest else BLUFF_TENDENCY
    bluffing = held * tendency
    return bluffing / (bluffing + (1.0 - held)) if bluffing + (1.0 - held) > 0 else 0.0


def _should_challenge(view: Observation, knowledge: TableKnowledge) -> bool:
    """Challenge when the expected cost in cards is lower than accepting: a caught bluff
    saves the penalty and gives the bluffer 4 (worth more the closer it is to winning); a
    lost one costs 2 more; either way the challenger sees the player's hand."""
    play = knowledge.last_wild_draw_four
    if play is None:
        return False
    p = bluff_odds(view, knowledge)
    counts = view.table.counts
    worth = 1.0 if play.seat == tactics.leader(view) or counts[play.seat] <= 2 else 0.5
    look = INFORMATION_CARDS * shown_share(view, knowledge, play.seat)
    return p > (2.0 - look) / (7.0 + 4.0 * worth)


def shown_share(view: Observation, knowledge: TableKnowledge, seat: int) -> float:
    """The share of the cards hidden in the other hands that seeing ``seat``'s hand would
    show (1 heads-up, less where cards of it are already known or other hands are hidden)."""
    counts = view.table.counts

    def hidden(other: int) -> int:
        return max(0, counts[other] - len(knowledge.known[other]))

    total = sum(hidden(other) for other in tactics.opponents(view))
    return hidden(seat) / total if total else 0.0


def _swap_target(view: Observation) -> int:
    """T5: take the smallest hand (the leader's)."""
    return tactics.leader(view)
