"""What a position in a playout is worth to each seat, when the playout stops before the
round ends: each seat's chance to win the round, as a conditional logit (a softmax over the
seats) of a few features of its hand and its place in the turn order.

The weights are fitted by ``scripts/fit_eval.py`` from rounds that the playout policy plays
against itself on the fast core (so the value estimates how the playout would have ended
had it gone on), and written to :mod:`lanuno.bots.eval_weights`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from lanuno.bots import fastcore as fc
from lanuno.bots.eval_weights import WEIGHTS

SIZE_BINS = 12
"""Hand sizes 1..11 each get a weight; 12 or more share the last."""
FEATURES = (
    *(f"size_{k}" for k in range(1, SIZE_BINS)),
    f"size_{SIZE_BINS}+",
    "wilds",
    "wilds_small_hand",
    "action_cards",
    "colors_held",
    "actor",
    "actor_can_play",
    "actor_wins_next",
    "next_after_actor",
    "current_color_cards",
    "penalty_due",
)
_COLOR_OF = fc.COLOR_OF
_RANK_OF = fc.RANK_OF
_SKIP = fc.SKIP


def features(r: fc.FastRound, seat: int) -> list[float]:
    """The feature vector of ``seat`` (in ``FEATURES`` order)."""
    hand = r.hands[seat]
    size = len(hand)
    out = [0.0] * len(FEATURES)
    if size:
        out[min(size, SIZE_BINS) - 1] = 1.0
    wilds = actions = current = 0
    held = [False, False, False, False]
    color = r.color
    top_rank = _RANK_OF[r.discard[-1]] if r.discard else -1
    playable = False
    for card in hand:
        suit = _COLOR_OF[card]
        if suit < 0:
            wilds += 1
            playable = True
            continue
        held[suit] = True
        rank = _RANK_OF[card]
        if rank >= _SKIP:
            actions += 1
        if suit == color:
            current += 1
            playable = True
        elif rank == top_rank:
            playable = True
    base = SIZE_BINS
    out[base] = wilds
    out[base + 1] = wilds if size <= 3 else 0
    out[base + 2] = actions
    out[base + 3] = sum(held)
    actor = r.actor == seat and r.phase == fc.TURN
    out[base + 4] = 1.0 if actor else 0.0
    out[base + 5] = 1.0 if actor and playable else 0.0
    out[base + 6] = 1.0 if actor and playable and size == 1 else 0.0
    out[base + 7] = 1.0 if r.phase == fc.TURN and (r.actor + r.direction) % r.n == seat else 0.0
    out[base + 8] = min(current, 3)
    out[base + 9] = r.pending_penalty if r.penalty_target == seat and r.pending_penalty else 0
    return out


def score(r: fc.FastRound, seat: int, weights: Sequence[float] = WEIGHTS) -> float:
    """The logit of ``seat``: the weights times :func:`features`, without building them
    (this runs at the end of every playout)."""
    hand = r.hands[seat]
    size = len(hand)
    value = weights[min(size, SIZE_BINS) - 1] if size else 0.0
    wilds = actions = current = 0
    held = 0
    color = r.color
    top_rank = _RANK_OF[r.discard[-1]] if r.discard else -1
    playable = False
    for card in hand:
        suit = _COLOR_OF[card]
        if suit < 0:
            wilds += 1
            playable = True
            continue
        held |= 1 << suit
        rank = _RANK_OF[card]
        if rank >= _SKIP:
            actions += 1
        if suit == color:
            current += 1
            playable = True
        elif rank == top_rank:
            playable = True
    base = SIZE_BINS
    value += weights[base] * wilds + weights[base + 2] * actions
    if size <= 3:
        value += weights[base + 1] * wilds
    value += weights[base + 3] * _BITS[held]
    if r.phase == fc.TURN:
        if r.actor == seat:
            value += weights[base + 4]
            if playable:
                value += weights[base + 5]
                if size == 1:
                    value += weights[base + 6]
        elif (r.actor + r.direction) % r.n == seat:
            value += weights[base + 7]
    value += weights[base + 8] * (current if current < 3 else 3)
    if r.pending_penalty and r.penalty_target == seat:
        value += weights[base + 9] * r.pending_penalty
    return value


_BITS = tuple(bin(k).count("1") for k in range(16))


def win_chances(r: fc.FastRound, weights: Sequence[float] = WEIGHTS) -> list[float]:
    """Each seat's chance to win the round from here (they sum to 1)."""
    scores = [score(r, seat, weights) for seat in range(r.n)]
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]
