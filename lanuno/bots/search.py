"""Determinized Monte Carlo search for the expert bot.

The expert never sees the real round (B2). From its :class:`SeatView` it builds *worlds*:
fresh rounds in which its own hand, the discard pile and every public fact (counts,
color, direction, who is exposed, who said UNO) are as in the view, while the cards it has
not seen are dealt at random to the other hands (respecting what each opponent showed it
lacked) and to the draw pile. Each candidate action is tried in the same worlds (common
random numbers, so the comparison is fair) and the round is played out with a quick policy.

A world starts as a round dealt by the engine itself with the table's rules and seats
(so every field the engine keeps has a valid value), cloned, then overwritten with the
sampled state. Only phases whose state is fully public are searched: a plain turn and the
decision after a draw, with no penalty pending.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from lanuno.bots.knowledge import TableKnowledge
from lanuno.engine.actions import (
    AcceptPenalty,
    Action,
    Challenge,
    ChooseColor,
    ChooseTarget,
    DeclareUno,
    Draw,
    Give,
    Play,
    ReturnCard,
    SwapHands,
)
from lanuno.engine.cards import COLORS, Card, Color, Rank
from lanuno.engine.observation import Observation
from lanuno.engine.phases import Phase
from lanuno.engine.round import Round

HAND_SIZE_WEIGHT = 0.6
"""How fast the chance of winning falls with each card held, for playouts cut short."""
ROLLOUT_CHALLENGE = 0.25
"""How often the playout policy challenges a Wild Draw Four (a typical table's habit)."""


class RandomShuffler:
    """The engine's shuffler interface over a plain generator (worlds need no audit)."""

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def shuffle(self, cards: list[Card], purpose: str) -> None:
        self.rng.shuffle(cards)

    def below(self, n: int, purpose: str) -> int:
        return self.rng.randrange(n)


def searchable(view: Observation) -> bool:
    table = view.table
    return (
        table.actor == view.seat
        and table.phase in (Phase.TURN, Phase.DRAWN)
        and table.pending == 0
        and table.color is not None
    )


@dataclass(frozen=True, slots=True)
class WorldMaker:
    """Everything public about the moment of decision, read once from the view."""

    template: Round
    seat: int
    hand: tuple[Card, ...]
    counts: tuple[int, ...]
    unseen: tuple[Card, ...]
    knowledge: TableKnowledge

    @classmethod
    def from_view(cls, view: Observation, knowledge: TableKnowledge) -> WorldMaker:
        table = view.table
        template = Round(
            table.rules,
            table.kids,
            RandomShuffler(random.Random(0)),
            round_no=table.round_no,
            dealer=table.dealer,
            scores=list(table.scores),
        )
        template.discard = list(table.discard)
        template.color = table.color
        template.direction = table.direction
        template.turn = table.turn
        template.actor = view.seat
        template.phase = table.phase
        template.pending_penalty = 0
        template.drawn_card = view.drawn
        template.declared = list(table.declared)
        template.exposed = table.exposed
        template.events = []
        template.winner = None
        template.game_over = False
        template._action_seat = view.seat
        unseen = knowledge.unseen_cards()
        counts = table.counts
        hidden = sum(counts) - len(view.hand) + table.draw_pile_size
        if hidden != len(unseen):
            raise AssertionError("card counting lost a card: the view and the log disagree")
        return cls(template, view.seat, view.hand, counts, tuple(unseen), knowledge)

    def sample(self, rng: random.Random) -> Round:
        """One world consistent with the view."""
        world = self.template.clone()
        pool = list(self.unseen)
        rng.shuffle(pool)
        n = len(self.counts)
        hands: list[list[Card]] = [[] for _ in range(n)]
        hands[self.seat] = list(self.hand)
        lacks = self.knowledge.lacks
        # Seats with known gaps pick first, from the cards they can hold.
        order = sorted(
            (s for s in range(n) if s != self.seat),
            key=lambda s: not (lacks[s].colors or lacks[s].wilds),
        )
        for s in order:
            want = self.counts[s]
            lack = lacks[s]
            if lack.colors or lack.wilds:
                chosen: list[Card] = []
                rest: list[Card] = []
                for card in pool:
                    if len(chosen) < want and not lack.excludes(card):
                        chosen.append(card)
                    else:
                        rest.append(card)
                short = want - len(chosen)
                if short:
                    chosen.extend(rest[-short:])
                    del rest[-short:]
                hands[s] = chosen
                pool = rest
            else:
                hands[s] = pool[len(pool) - want :]
                del pool[len(pool) - want :]
        world.hands = hands
        world.draw_pile = pool
        return world


def _favourite(hand: Sequence[Card]) -> Color:
    counts = [0, 0, 0, 0]
    for card in hand:
        if card.color is not None:
            counts[COLORS.index(card.color)] += 1
    return COLORS[counts.index(max(counts))]


_FACES_PER_COLOR = 13
"""Cards are indexed color by color (ten numbers and three actions each)."""


def _holds(hand: Sequence[Card], color: Color | None) -> bool:
    for card in hand:  # noqa: SIM110 (hot loop)
        if card.color is color:
            return True
    return False


def _fewest_cards(rnd: Round, seat: int) -> int:
    best, best_count = seat, 1 << 30
    for k in range(1, rnd.n):
        other = (seat + rnd.direction * k) % rnd.n
        count = len(rnd.hands[other])
        if count < best_count:
            best, best_count = other, count
    return best


def playout_policy(rnd: Round, seat: int, rng: random.Random) -> Action:
    """A quick, reasonable player for playouts: follows its longest color, keeps wilds,
    never bluffs, always says UNO, stacks when it can, aims at the player with fewest cards.
    It reads the world directly (a world is the searcher's own invention, not the table)."""
    phase = rnd.phase
    hand = rnd.hands[seat]
    if phase is Phase.TURN or phase is Phase.DRAWN:
        if len(hand) == 2 and not rnd.declared[seat]:
            return DeclareUno(seat)
        counts = [0, 0, 0, 0]
        for card in hand:
            if card.color is not None:
                counts[card.index // _FACES_PER_COLOR] += 1
        favourite = COLORS[counts.index(max(counts))]
        if phase is Phase.DRAWN:
            drawn = rnd.drawn_card
            assert drawn is not None
            return Play(seat, drawn, favourite if drawn.color is None else None)
        current = rnd.color
        top_rank = rnd.discard[-1].rank
        # Someone about to win: attack the next player and shed the expensive cards.
        urgent = False
        for other in rnd.hands:
            if len(other) <= 2 and other is not hand:
                urgent = True
        next_short = len(rnd.hands[(seat + rnd.direction) % rnd.n]) <= 2
        best: Card | None = None
        best_score = -1
        for card in hand:
            if card.color is None:
                if card.rank is Rank.WILD_DRAW_FOUR:
                    score = 0 if _holds(hand, current) else (30 if next_short else 1)
                else:
                    score = 2
            elif card.color is current or card.rank is top_rank:
                score = 10 + counts[card.index // _FACES_PER_COLOR]
                if urgent:
                    score += card.points // 4
                    if next_short and card.index % _FACES_PER_COLOR >= 10:
                        score += 10
            else:
                continue
            if score > best_score:
                best, best_score = card, score
        if best is None or (best_score == 0 and rnd.rules.voluntary_draw):
            return Draw(seat)
        if best.color is None:
            if not rnd.fits(best, hand):
                return Draw(seat)
            return Play(seat, best, favourite)
        return Play(seat, best)
    if phase is Phase.CHOOSE_COLOR:
        return ChooseColor(seat, _favourite(hand))
    if phase is Phase.PENALTY:
        legal = rnd.legal_actions(seat)
        for action in legal:
            if type(action) is Play:
                return action
        challenge = Challenge(seat)
        if challenge in legal and rng.random() < ROLLOUT_CHALLENGE:
            return challenge
        return AcceptPenalty(seat)
    if phase is Phase.GIFT:
        target = _fewest_cards(rnd, seat)
        return Give(seat, tuple(target for _ in rnd.gift_cards))
    if phase is Phase.CHOOSE_TARGET:
        return ChooseTarget(seat, _fewest_cards(rnd, seat))
    if phase is Phase.SWAP:
        return SwapHands(seat, _fewest_cards(rnd, seat))
    if phase is Phase.EXCESS:
        return ReturnCard(seat, max(hand, key=lambda c: (c.points, c.index)))
    return rnd.legal_actions(seat)[0]


def playout(world: Round, seat: int, rng: random.Random, horizon: int) -> float:
    """Play the world on for at most ``horizon`` actions and score it for ``seat``: 1 for a
    win, 0 for a loss, and in between, when the round is still on, a share that falls
    with the cards ``seat`` holds compared with the others (shorter playouts keep the
    luck of far-off draws out of the comparison)."""
    for _ in range(horizon):
        if world.phase is Phase.ROUND_OVER:
            return 1.0 if world.winner == seat else 0.0
        world.apply(playout_policy(world, world.actor, rng))
    if world.phase is Phase.ROUND_OVER:
        return 1.0 if world.winner == seat else 0.0
    weights = [_HAND_SHARE[min(len(hand), _MAX_SHARE)] for hand in world.hands]
    return weights[seat] / sum(weights)


_MAX_SHARE = 40
_HAND_SHARE = [math.exp(-HAND_SIZE_WEIGHT * k) for k in range(_MAX_SHARE + 1)]


def evaluate(
    maker: WorldMaker,
    candidates: Sequence[Action],
    rng: random.Random,
    *,
    playouts: int | None,
    deadline: float | None,
    horizon: int,
) -> tuple[list[float], int]:
    """Mean playout value of each candidate over the same sampled worlds, and how many
    worlds were played. Stops after ``playouts`` worlds, or when ``deadline`` (a
    ``time.perf_counter`` value) passes, whichever is given (at least one world)."""
    totals = [0.0] * len(candidates)
    worlds = 0
    while True:
        if playouts is not None and worlds >= playouts:
            break
        if deadline is not None and worlds and time.perf_counter() >= deadline:
            break
        seed = rng.getrandbits(48)
        world = maker.sample(random.Random(seed))
        for i, action in enumerate(candidates):
            twin = world.clone()
            twin.shuffler = RandomShuffler(random.Random(seed + 1))
            twin.apply(action)
            totals[i] += playout(twin, maker.seat, random.Random(seed + 2), horizon)
        worlds += 1
    return [t / max(worlds, 1) for t in totals], worlds
