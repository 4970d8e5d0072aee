"""Monte Carlo search for the expert bot, on the fast simulation core.

The expert never sees the real round (B2). From its :class:`Observation` it builds
*worlds*: positions in which its own hand, the discard pile and every public fact (counts,
color, direction, who is exposed, who said UNO) are as observed, while the cards it has not
seen are dealt at random to the other hands and to the draw pile, respecting what its card
reading (:mod:`lanuno.bots.knowledge`) says for sure (gaps a forced draw proved, cards a
challenge showed), and, in most worlds, what it only suspects; worlds are kept in
proportion to how well the opponents' hands agree with their own past choices (the color
they named, the card they chose: :mod:`lanuno.bots.inference`). The position is written
down once per decision through the engine's public constructor (``Round.from_position``,
which checks it) and converted to the fast core (:mod:`lanuno.bots.fastcore`, the engine's
rules on integer cards, checked against the engine by ``tests/bots/test_fastcore.py``);
each world then deals the hidden cards again.

Two searches share the worlds, the playout policy and the scoring:

* :func:`flat` (the expert's default): every option is played out in the same worlds with
  the same later luck (common random numbers), and the best mean wins;
* :func:`search`: single-observer IS-MCTS whose tree holds the expert's own later
  decisions (which card, drawing, keeping a drawn card), each node counting the worlds it
  was available in; the other seats play the policy.

Below the options (or the tree) a quick policy plays on, with UNO calls, Counter-UNO and
jump-ins (T6) as a table of reasonable players makes them, for at most ``horizon`` moves;
the position is then scored by each seat's chance to win from there, as fitted from
self-play (:mod:`lanuno.bots.evaluation`: hand sizes, wilds, whose turn, who can play),
or, at the end of the round, by who won and, when the game has a points target, by the
points at stake.

Measured against the intermediate at the same compute (400 rounds each, 2 players), the
flat search scores higher than the tree (0.61 against 0.57-0.58): without common random
numbers the tree's estimates are noisier than the differences between options.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from lanuno.bots import evaluation, inference, tactics
from lanuno.bots import fastcore as fc
from lanuno.bots.knowledge import Lack, TableKnowledge
from lanuno.engine.actions import Action
from lanuno.engine.cards import ALL_FACES, Card
from lanuno.engine.events import Played, UnoDeclared
from lanuno.engine.observation import Observation
from lanuno.engine.phases import Phase
from lanuno.engine.position import Position
from lanuno.engine.round import Round

HAND_SIZE_WEIGHT = 0.6
"""How fast the chance of winning falls with each card held, for playouts cut short."""
ROLLOUT_CHALLENGE = 0.25
"""How often the playout policy challenges a Wild Draw Four (a typical table's habit)."""
OTHERS_SAY_UNO = 0.95
"""How often other players remember UNO in playouts."""
OTHERS_CATCH = 0.5
"""How often another player catches an exposed seat in playouts."""
TRUST_LIKELY = 0.95
"""Share of worlds in which what an opponent only probably lacks is taken as true."""
EXPLORATION = 0.7
"""UCB exploration constant (rewards are in [0, 1])."""
SELF_CHAIN = True
"""In playouts, the searcher plays its own turns by ``self_policy`` (measured heads-up
against the intermediate, 1200 paired rounds: +0.015, within its noise of 0.027)."""
READ_CHOICES = True
"""Weigh the sampled worlds by the opponents' choices (:mod:`lanuno.bots.inference`)."""
SAMPLE_TRIES = 20
"""Deals tried per world at most when weighing worlds by the opponents' choices."""
FITTED_EVALUATION = True
"""Score a playout cut short by :mod:`lanuno.bots.evaluation` (fitted from self-play)
rather than by hand sizes alone."""
POINTS_WEIGHT = 0.3
"""With a points target, the share of the reward that the points at stake decide."""

_COLOR_OF = fc.COLOR_OF
_RANK_OF = fc.RANK_OF
_POINTS = fc.POINTS
FACES = len(ALL_FACES)


def searchable(view: Observation) -> bool:
    table = view.table
    return (
        table.actor == view.seat
        and table.phase in (Phase.TURN, Phase.DRAWN)
        and table.pending == 0
        and table.color is not None
    )


def _jump_window(view: Observation) -> int | None:
    """T6: who played the top card, while no other seat has acted since (UNO calls aside)."""
    for event in reversed(view.table.log):
        if type(event) is UnoDeclared:
            continue
        if type(event) is Played:
            return event.seat
        return None
    return None


@dataclass(frozen=True, slots=True)
class WorldMaker:
    """Everything public about the moment of decision, read once from the observation."""

    template: fc.FastRound
    seat: int
    counts: tuple[int, ...]
    unseen: tuple[int, ...]
    """The cards not seen, as integers."""
    knowledge: TableKnowledge
    tiers: tuple[tuple[Tier, ...], ...]
    """Per seat, its hidden cards in tiers by what its draws say it probably lacks."""
    sure_tiers: tuple[tuple[Tier, ...], ...]
    """The same by its sure gaps only (the worlds that do not trust the readings)."""
    order: tuple[int, ...]
    """The other seats, the most bound first."""
    choices: tuple[inference.Choice, ...] = ()
    """The opponents' readable choices (:mod:`lanuno.bots.inference`)."""

    @classmethod
    def from_view(cls, view: Observation, knowledge: TableKnowledge) -> WorldMaker:
        table = view.table
        n = table.seats
        unseen = [card.index for card in knowledge.unseen_cards()]
        counts = table.counts
        hidden = sum(counts) - len(view.hand) + table.draw_pile_size
        if hidden != len(unseen):
            raise AssertionError("card counting lost a card: the view and the log disagree")
        # The position, written down through the engine's public constructor (which checks
        # it), with the hidden cards dealt in some order: each world deals them again.
        hidden_cards = [ALL_FACES[i] for i in unseen]
        hands: list[tuple[Card, ...]] = []
        for seat in range(n):
            if seat == view.seat:
                hands.append(view.hand)
            else:
                hands.append(tuple(hidden_cards[: counts[seat]]))
                del hidden_cards[: counts[seat]]
        position = Position(
            rules=table.rules,
            hands=tuple(hands),
            discard=table.discard,
            draw=tuple(hidden_cards),
            color=table.color,
            direction=table.direction,
            phase=table.phase,
            turn=table.turn,
            actor=view.seat,
            kids=table.kids,
            drawn=view.drawn,
            jump_window=_jump_window(view),
            declared=table.declared,
            exposed=table.exposed,
            scores=table.scores,
            round_no=table.round_no,
            dealer=table.dealer,
            stalled=table.stalled,
        )
        template = fc.from_round(
            Round.from_position(position), fc.RandomIntShuffler(random.Random(0))
        )
        choices = inference.read_choices(view) if READ_CHOICES else ()
        known = [len(cards) for cards in knowledge.known]
        readings = knowledge.readings or tuple(() for _ in range(n))
        tiers = tuple(
            _tiers(knowledge.lacks[s], readings[s], counts[s] - known[s]) for s in range(n)
        )
        sure_tiers = tuple(_tiers(knowledge.lacks[s], (), counts[s] - known[s]) for s in range(n))
        order = tuple(
            sorted(
                (s for s in range(n) if s != view.seat),
                key=lambda s: -len(tiers[s]) - (0 if knowledge.lacks[s].empty else 1),
            )
        )
        return cls(
            template,
            view.seat,
            counts,
            tuple(unseen),
            knowledge,
            tiers,
            sure_tiers,
            order,
            choices,
        )

    def sample(self, rng: random.Random) -> fc.FastRound:
        """One world consistent with the observation and the sure card reading, drawn in
        proportion to how well it agrees with the opponents' choices (rejection sampling,
        at most ``SAMPLE_TRIES`` deals)."""
        world = self._deal(rng)
        if self.choices:
            for _ in range(SAMPLE_TRIES - 1):
                keep = rng.random()  # kept with probability likelihood: below, rejected
                if keep < inference.likelihood(self.choices, world.hands, keep):
                    break
                world = self._deal(rng)
        return world

    def _deal(self, rng: random.Random) -> fc.FastRound:
        world = self.template.clone()
        shuffler = world.shuffler = fc.RandomIntShuffler(rng)
        pool = list(self.unseen)
        shuffler.shuffle(pool, "world")
        n = len(self.counts)
        knowledge = self.knowledge
        hands = world.hands
        counts = self.counts
        for s in range(n):
            if s != self.seat:
                hands[s] = []  # the template's own deal of the hidden cards is redone
        tiers = self.tiers if rng.random() < TRUST_LIKELY else self.sure_tiers
        # Known cards first, then each seat's cards tier by tier, the most bound first,
        # taken from the end of the shuffled pool; the draw pile is what is left.
        for s in range(n):
            for card in knowledge.known[s]:
                if s != self.seat and card.index in pool and len(hands[s]) < counts[s]:
                    pool.remove(card.index)
                    hands[s].append(card.index)
        for s in self.order:
            hand = hands[s]
            for size, allowed in tiers[s]:
                want = min(size, counts[s] - len(hand))
                if want <= 0:
                    continue
                if allowed is None:
                    hand.extend(pool[-want:])
                    del pool[-want:]
                    continue
                want = _take(pool, hand, allowed, want)
                if want:
                    # Not enough cards fit the reading: it gives way, first to the cards
                    # the sure part allows (a kept drawn card), then to any.
                    want = _take(pool, hand, _allowed(knowledge.lacks[s]), want)
                    if want:
                        hand.extend(pool[-want:])
                        del pool[-want:]
            want = counts[s] - len(hand)
            if want > 0:
                hand.extend(pool[-want:])
                del pool[-want:]
        world.draw_pile = pool
        return world


def _take(pool: list[int], hand: list[int], allowed: list[bool], want: int) -> int:
    """Move up to ``want`` cards that ``allowed`` lets through from the end of ``pool`` to
    ``hand``; return how many are still wanted."""
    i = len(pool) - 1
    while i >= 0 and want:
        if allowed[pool[i]]:
            hand.append(pool.pop(i))
            want -= 1
        i -= 1
    return want


Tier = tuple[int, list[bool] | None]
"""Some of a seat's hidden cards: how many, and which faces they may be (None: any)."""


def _tiers(sure: Lack, readings: Sequence[Lack], count: int) -> tuple[Tier, ...]:
    """A seat's ``count`` hidden cards in tiers, the most bound first. A reading with
    ``spare`` k binds all but k of them (the cards received since its draw), so with the
    readings oldest (most spare) first, the first ``count - spare`` cards obey them all,
    the next ones all but the oldest, and so on; the last ones only the sure gaps."""
    binding = sorted((r for r in readings if r.spare < count), key=lambda r: -r.spare)
    base = _allowed(sure) if not sure.empty else None
    out: list[Tier] = []
    placed = 0
    for i, reading in enumerate(binding):
        size = count - reading.spare - placed
        if size <= 0:
            continue
        masks = [_allowed(_bare(r)) for r in binding[i:]]
        if base is not None:
            masks.append(base)
        allowed = [all(m[face] for m in masks) for face in range(FACES)]
        out.append((size, allowed))
        placed += size
    if count > placed:
        out.append((count - placed, base))
    return tuple(out)


def _bare(lack: Lack) -> Lack:
    """The lack without its spare (the spare says how many cards it binds, not which)."""
    return Lack(lack.colors, lack.ranks, lack.wilds) if lack.spare else lack


_ALLOWED_CACHE: dict[Lack, list[bool]] = {}


def _allowed(lack: Lack) -> list[bool]:
    got = _ALLOWED_CACHE.get(lack)
    if got is None:
        got = _ALLOWED_CACHE[lack] = [not lack.excludes(card) for card in ALL_FACES]
        if len(_ALLOWED_CACHE) > 4096:
            _ALLOWED_CACHE.clear()
    return got


# ----------------------------------------------------------------------------- policy


def _fewest_cards(r: fc.FastRound, seat: int) -> int:
    best, best_count = seat, 1 << 30
    for k in range(1, r.n):
        other = (seat + r.direction * k) % r.n
        count = len(r.hands[other])
        if count < best_count:
            best, best_count = other, count
    return best


def policy(r: fc.FastRound, seat: int, rng: random.Random) -> fc.Move:
    """A quick, reasonable player: follows its longest color, keeps wilds, never bluffs,
    stacks when it can, attacks a player about to win, aims at the fewest cards."""
    if r.phase != fc.TURN:
        return _other_policy(r, seat, rng)
    # A turn, the common case (written out here: playouts call this for every move).
    hand = r.hands[seat]
    counts = [0, 0, 0, 0]
    for card in hand:
        suit = _COLOR_OF[card]
        if suit >= 0:
            counts[suit] += 1
    color = r.color
    top_rank = _RANK_OF[r.discard[-1]]
    n, d = r.n, r.direction
    next_short = len(r.hands[(seat + d) % n]) <= 2
    urgent = False
    for k in range(1, n):
        if len(r.hands[(seat + k) % n]) <= 2:
            urgent = True
    best, best_score = -1, -1
    for card in hand:
        suit = _COLOR_OF[card]
        if suit < 0:
            if _RANK_OF[card] == fc.WILD_DRAW_FOUR:
                score = 0 if counts[color] else (30 if next_short else 1)
            else:
                score = 2
        elif suit == color or _RANK_OF[card] == top_rank:
            score = 10 + counts[suit]
            if urgent:
                score += _POINTS[card] // 4
                if next_short and _RANK_OF[card] >= fc.SKIP:
                    score += 10
        else:
            continue
        if score > best_score:
            best, best_score = card, score
    wild = best >= 0 and _COLOR_OF[best] < 0
    if (
        best < 0
        or (best_score == 0 and r.rules.voluntary_draw)
        or (wild and not r.fits(best, hand))  # a wild draw four it may not play
    ):
        return fc.DRAWS[seat]
    if wild:
        return fc.WILD_PLAYS[seat][best][counts.index(max(counts))]
    return fc.PLAYS[seat][best]


def self_policy(r: fc.FastRound, seat: int, rng: random.Random) -> fc.Move:
    """The searcher's own later turns: ``policy``, except that with two players it plays a
    Skip, Reverse or Draw Two that fits first when it holds another card that will still
    fit after it (it keeps the turn, so the card is shed for free)."""
    if r.n == 2 and len(r.hands[seat]) > 2:
        hand = r.hands[seat]
        color = r.color
        top_rank = _RANK_OF[r.discard[-1]]
        for card in hand:
            suit = _COLOR_OF[card]
            rank = _RANK_OF[card]
            if suit >= 0 and rank >= fc.SKIP and (suit == color or rank == top_rank):
                for other in hand:
                    if other != card and (_COLOR_OF[other] == suit or _COLOR_OF[other] < 0):
                        return fc.PLAYS[seat][card]
    return policy(r, seat, rng)


def _other_policy(r: fc.FastRound, seat: int, rng: random.Random) -> fc.Move:
    """``policy`` in every phase but a turn."""
    phase = r.phase
    hand = r.hands[seat]
    if phase == fc.DRAWN:
        drawn = r.drawn_card
        if _COLOR_OF[drawn] < 0:
            return fc.WILD_PLAYS[seat][drawn][tactics.favourite_of(hand)]
        return fc.PLAYS[seat][drawn]
    if phase == fc.CHOOSE_COLOR:
        return fc.COLOR_CHOICES[seat][tactics.favourite_of(hand)]
    if phase == fc.PENALTY:
        return _penalty_policy(r, seat, rng)
    if phase == fc.GIFT:
        target = _fewest_cards(r, seat)
        return (fc.GIVE, seat, target, target if len(r.gift_cards) == 2 else -1)
    if phase == fc.CHOOSE_TARGET:
        return (fc.TARGET, seat, _fewest_cards(r, seat), -1)
    if phase == fc.SWAP:
        return (fc.SWAP_WITH, seat, _fewest_cards(r, seat), -1)
    if phase == fc.EXCESS:
        return fc.RETURNS[seat][max(hand, key=lambda c: (_POINTS[c], c))]
    return r.legal_actions(seat)[0]


def _penalty_policy(r: fc.FastRound, seat: int, rng: random.Random) -> fc.Move:
    """Stack when it can; challenge now and then; else take the penalty."""
    legal = r.legal_actions(seat)
    for move in legal:
        if move[0] == fc.PLAY:
            return move
    if len(legal) > 1 and legal[1][0] == fc.CHALLENGE and rng.random() < ROLLOUT_CHALLENGE:
        return legal[1]
    return fc.ACCEPTS[seat]


def out_of_turn(r: fc.FastRound, me: int, rng: random.Random) -> None:
    """Calls made between decisions: the actor's UNO, an exposed seat's late UNO or its
    catch (O23, O24), and a jump-in (T6), as a table of reasonable players makes them."""
    actor = r.actor
    if (
        len(r.hands[actor]) == 2
        and not r.declared[actor]
        and r.phase in (fc.TURN, fc.DRAWN, fc.PENALTY)
        and (actor == me or rng.random() < OTHERS_SAY_UNO)
    ):
        r.apply(fc.UNOS[actor])
    exposed = r.exposed
    if exposed is not None:
        if exposed == me or rng.random() < OTHERS_SAY_UNO:
            r.apply(fc.UNOS[exposed])
        else:
            for k in range(1, r.n):
                seat = (exposed + k) % r.n
                if seat == me or rng.random() < OTHERS_CATCH:
                    r.apply(fc.COUNTERS[seat][exposed])
                    break
    if (
        r.jump_window is not None
        and r.rules.jump_in
        and r.phase == fc.TURN
        and not r.pending_penalty
    ):
        top = r.discard[-1]
        if _COLOR_OF[top] >= 0:
            n, d = r.n, r.direction
            for k in range(1, n):
                seat = (r.actor + d * k) % n
                if top in r.hands[seat] and (seat != me or len(r.hands[seat]) != 2):
                    r.apply(fc.PLAYS[seat][top])
                    break


def rewards(r: fc.FastRound) -> list[float]:
    """Each seat's result in [0, 1]: who won (and, with a points target, the points at
    stake), or for a round still on, a share that falls with the cards each seat holds."""
    n = r.n
    if r.phase == fc.ROUND_OVER:
        out = [0.0] * n
        winner = r.winner
        assert winner is not None
        out[winner] = 1.0
        return out
    if FITTED_EVALUATION:
        return evaluation.win_chances(r)
    weights = [_HAND_SHARE[min(len(hand), _MAX_SHARE)] for hand in r.hands]
    total = sum(weights)
    return [w / total for w in weights]


def scored_rewards(r: fc.FastRound, target: int, scores_before: Sequence[int]) -> list[float]:
    """With a points target: the win counts for most, the points won or given away for the
    rest (a loser who holds many points hands them to the winner)."""
    base = rewards(r)
    if r.phase != fc.ROUND_OVER:
        return base
    winner = r.winner
    assert winner is not None
    gained = r.scores[winner] - scores_before[winner]
    scale = min(1.0, gained / max(target / 5, 1))
    out = []
    for seat, value in enumerate(base):
        if seat == winner:
            out.append((1 - POINTS_WEIGHT) + POINTS_WEIGHT * scale)
        else:
            held = sum(_POINTS[c] for c in r.hands[seat])
            out.append(POINTS_WEIGHT * (1 - min(1.0, held / max(target / 5, 1))) * value)
    return out


_MAX_SHARE = 40
_HAND_SHARE = [math.exp(-HAND_SIZE_WEIGHT * k) for k in range(_MAX_SHARE + 1)]


# ----------------------------------------------------------------------------- the tree


class Node:
    __slots__ = ("avail", "children", "seat", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.children: dict[fc.Move, Node] = {}


def tree_moves(r: fc.FastRound, seat: int, me: int) -> list[fc.Move]:
    """The moves the tree distinguishes at a decision: every distinct card (a wild in the
    player's favourite color), drawing where it may make sense, play-or-keep after a draw.
    Other phases follow the policy (one move)."""
    phase = r.phase
    if phase == fc.TURN:
        hand = r.hands[seat]
        fav = -1
        out: list[fc.Move] = []
        for move in r.legal_actions(seat):
            kind = move[0]
            if kind == fc.PLAY:
                card = move[2]
                if _COLOR_OF[card] < 0:
                    if fav < 0:
                        fav = tactics.favourite_of(hand)
                    if move[3] != fav:
                        continue
                    if (
                        seat != me
                        and _RANK_OF[card] == fc.WILD_DRAW_FOUR
                        and r.rules.challenge
                        and r.holds_color(hand, r.color)
                    ):
                        continue  # the opponents are not modelled as bluffing
                out.append(move)
            elif kind == fc.DRAW and (seat == me or not out):
                out.append(move)
        return out
    if phase == fc.DRAWN and seat == me:
        return [m for m in r.legal_actions(seat) if m[0] == fc.PASS or m[3] <= 0]
    return []


def _select(
    node: Node, moves: Sequence[fc.Move], seat: int, prng: random.Random, *, at_root: bool
) -> tuple[fc.Move, Node, bool]:
    """The move to follow from ``node`` (IS-MCTS with availability counts): an untried one
    first (the root's in order, others at random), else the best by UCB. Also whether its
    child node is new."""
    children = node.children
    untried = [m for m in moves if m not in children]
    for m in moves:
        child = children.get(m)
        if child is not None:
            child.avail += 1
    if untried:
        move = untried[0] if at_root else untried[int(prng.random() * len(untried))]
        child = children[move] = Node(seat)
        child.avail = 1
        return move, child, True
    log, sqrt = math.log, math.sqrt
    best_value = -1.0
    move = moves[0]
    for m in moves:
        c = children[m]
        value = c.total / c.visits + EXPLORATION * sqrt(log(c.avail) / c.visits)
        if value > best_value:
            best_value, move = value, m
    return move, children[move], False


def search(
    maker: WorldMaker,
    candidates: Sequence[fc.Move],
    rng: random.Random,
    *,
    iterations: int | None,
    deadline: float | None,
    horizon: int,
) -> tuple[list[int], list[float], int]:
    """Visits and mean reward of each root candidate, and the iterations run. Stops after
    ``iterations``, or when ``deadline`` (a ``time.perf_counter`` value) passes."""
    me = maker.seat
    root = Node(me)
    target = maker.template.rules.target
    points_target = target if not maker.template.rules.round_wins else None
    done = 0
    while True:
        if iterations is not None and done >= iterations:
            break
        if deadline is not None and done and time.perf_counter() >= deadline:
            break
        world = maker.sample(random.Random(rng.getrandbits(48)))
        prng = random.Random(rng.getrandbits(48))
        scores_before = list(world.scores)
        node = root
        path = [root]
        moves: Sequence[fc.Move] = candidates
        expanded = False
        rollout = 0
        while world.phase != fc.ROUND_OVER:
            if node is not root:
                out_of_turn(world, me, prng)
                if world.phase == fc.ROUND_OVER:
                    break
                seat = world.actor
                # Only the searcher's own decisions are nodes: the others play the policy
                # (a model of a reasonable table), so the tree plans the searcher's turns.
                moves = tree_moves(world, seat, me) if seat == me else ()
                if expanded:
                    world.apply(policy(world, seat, prng))
                    rollout += 1
                    if rollout >= horizon:
                        break
                    continue
                if len(moves) <= 1:
                    world.apply(moves[0] if moves else policy(world, seat, prng))
                    continue
            else:
                seat = me
            move, child, new = _select(node, moves, seat, prng, at_root=node is root)
            if new:
                expanded = True
            world.apply(move)
            path.append(child)
            node = child
        if points_target is not None:
            result = scored_rewards(world, points_target, scores_before)
        else:
            result = rewards(world)
        for visited in path[1:]:
            visited.visits += 1
            visited.total += result[visited.seat]
        done += 1
    visits = [root.children[m].visits if m in root.children else 0 for m in candidates]
    means = [
        root.children[m].total / root.children[m].visits
        if m in root.children and root.children[m].visits
        else 0.0
        for m in candidates
    ]
    return visits, means, done


def to_moves(actions: Sequence[Action]) -> list[fc.Move]:
    return [fc.from_engine(action) for action in actions]


def flat(
    maker: WorldMaker,
    candidates: Sequence[fc.Move],
    rng: random.Random,
    *,
    worlds: int | None,
    deadline: float | None,
    horizon: int,
) -> tuple[list[float], int]:
    """Mean reward of each root candidate over the same sampled worlds (common random
    numbers: every candidate meets the same hidden cards and the same later luck)."""
    me = maker.seat
    totals = [0.0] * len(candidates)
    done = 0
    rules = maker.template.rules
    points_target = rules.target if not rules.round_wins else None
    while True:
        if worlds is not None and done >= worlds:
            break
        if deadline is not None and done and time.perf_counter() >= deadline:
            break
        seed = rng.getrandbits(48)
        world = maker.sample(random.Random(seed))
        scores_before = list(world.scores)
        for i, move in enumerate(candidates):
            twin = world.clone()
            prng = random.Random(seed + 1)
            twin.shuffler = fc.RandomIntShuffler(prng)
            twin.apply(move)
            rollout(twin, me, prng, horizon)
            if points_target is not None:
                totals[i] += scored_rewards(twin, points_target, scores_before)[me]
            else:
                totals[i] += rewards(twin)[me]
        done += 1
    return [t / max(done, 1) for t in totals], done


def rollout(r: fc.FastRound, me: int, rng: random.Random, horizon: int) -> None:
    """Play on with the policy for at most ``horizon`` moves."""
    for _ in range(horizon):
        if r.phase == fc.ROUND_OVER:
            break
        out_of_turn(r, me, rng)
        if r.phase == fc.ROUND_OVER:
            break
        actor = r.actor
        if actor == me and SELF_CHAIN and r.phase == fc.TURN:
            r.apply(self_policy(r, actor, rng))
        else:
            r.apply(policy(r, actor, rng))
