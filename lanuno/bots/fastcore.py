"""A lean copy of the round's rules for the expert's playouts: integer cards, no events,
no views, no timers, no refusals.

Each method below mirrors the :class:`lanuno.engine.round.Round` method of the same name
(``_play``, ``_settle``, ``legal_actions``...), statement for statement, so that
the two can be compared line by line; ``tests/bots/test_fastcore.py`` plays thousands of
random positions under every preset and option through both and checks that they reach
the same positions, list the same legal actions and score the same. What is left out:
timeouts and autopilot (playouts never time out), events, and the checks that refuse an
illegal action (playouts only play legal ones). On the hottest paths (a turn's options, a
number card, a draw, a penalty taken) a small engine method is written out where it is
called, with a comment naming it: ``scripts/bench_engine.py`` measures the difference
(``fastcore_vs_rlcard_ratio``).

Cards are ``Card.index`` (0-51 colored, color * 13 + rank; 52 Wild, 53 Wild Draw Four,
54 blank). Colors are 0-3 in ``COLORS`` order, -1 for none. Actions are tuples
``(kind, seat, a, b)`` built once and shared; :func:`to_engine` and :func:`from_engine`
translate them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial
from itertools import repeat, starmap
from typing import TYPE_CHECKING, Protocol

from lanuno.engine.actions import (
    AcceptPenalty,
    Action,
    Challenge,
    ChooseColor,
    ChooseTarget,
    CounterUno,
    DeclareUno,
    Draw,
    Give,
    Pass,
    Play,
    ReturnCard,
    SwapHands,
)
from lanuno.engine.cards import ALL_FACES, COLORS, Color, DeckKind, Rank, build_deck, parse_card
from lanuno.engine.phases import Phase
from lanuno.engine.rules import Rules, Scoring, WildDrawFour

if TYPE_CHECKING:
    from lanuno.engine.round import Round

MAX_SEATS = 10
FACES = len(ALL_FACES)

# Card facts as tuples indexed by card.
COLOR_OF: tuple[int, ...] = tuple(
    -1 if c.color is None else COLORS.index(c.color) for c in ALL_FACES
)
_RANKS = (
    *(Rank(str(n)) for n in range(10)),
    Rank.SKIP,
    Rank.REVERSE,
    Rank.DRAW_TWO,
    Rank.WILD,
    Rank.WILD_DRAW_FOUR,
    Rank.BLANK,
)
RANK_OF: tuple[int, ...] = tuple(_RANKS.index(c.rank) for c in ALL_FACES)
POINTS: tuple[int, ...] = tuple(c.points for c in ALL_FACES)
_CARDS_OF_COLOR: tuple[frozenset[int], ...] = tuple(
    frozenset(card for card in range(FACES) if COLOR_OF[card] == color)
    for color in (0, 1, 2, 3, -1)
)
"""The cards of each color (the last, reached as index -1, for none: wilds and blanks)."""
ZERO, SEVEN, SKIP, REVERSE, DRAW_TWO, WILD, WILD_DRAW_FOUR, BLANK = 0, 7, 10, 11, 12, 13, 14, 15

# Phases.
TURN, DRAWN, CHOOSE_COLOR, PENALTY, GIFT, CHOOSE_TARGET, SWAP, EXCESS, ROUND_OVER = range(9)
PHASES: tuple[Phase, ...] = (
    Phase.TURN,
    Phase.DRAWN,
    Phase.CHOOSE_COLOR,
    Phase.PENALTY,
    Phase.GIFT,
    Phase.CHOOSE_TARGET,
    Phase.SWAP,
    Phase.EXCESS,
    Phase.ROUND_OVER,
)
PHASE_NO = {phase: i for i, phase in enumerate(PHASES)}

# What to do once the color of a wild is known (the engine's own numbering).
AFTER_ADVANCE, AFTER_PENALTY, AFTER_FIRST, AFTER_TARGET, AFTER_ALL_ADULTS = range(5)

# Action kinds.
PLAY, DRAW, PASS, COLOR, ACCEPT, CHALLENGE, UNO, COUNTER, GIVE, TARGET, SWAP_WITH, RETURN = range(
    12
)

Move = tuple[int, int, int, int]
"""(kind, seat, a, b): a card, color, target or recipient in a and b, -1 when unused."""

PLAYS: list[list[Move]] = [[(PLAY, s, c, -1) for c in range(FACES)] for s in range(MAX_SEATS)]
WILD_PLAYS: list[list[tuple[Move, ...]]] = [
    [tuple((PLAY, s, c, k) for k in range(4)) for c in range(FACES)] for s in range(MAX_SEATS)
]
DRAWS: list[Move] = [(DRAW, s, -1, -1) for s in range(MAX_SEATS)]
PASSES: list[Move] = [(PASS, s, -1, -1) for s in range(MAX_SEATS)]
COLOR_CHOICES: list[tuple[Move, ...]] = [
    tuple((COLOR, s, k, -1) for k in range(4)) for s in range(MAX_SEATS)
]
ACCEPTS: list[Move] = [(ACCEPT, s, -1, -1) for s in range(MAX_SEATS)]
CHALLENGES: list[Move] = [(CHALLENGE, s, -1, -1) for s in range(MAX_SEATS)]
UNOS: list[Move] = [(UNO, s, -1, -1) for s in range(MAX_SEATS)]
COUNTERS: list[list[Move]] = [[(COUNTER, s, t, -1) for t in range(MAX_SEATS)] for s in range(10)]
RETURNS: list[list[Move]] = [[(RETURN, s, c, -1) for c in range(FACES)] for s in range(MAX_SEATS)]


class IntShuffler(Protocol):
    def shuffle(self, cards: list[int], purpose: str) -> None:
        """Shuffle in place (the engine's shuffler interface, over integer cards)."""


class RandomIntShuffler:
    """A shuffler over a plain generator (playouts need no audit)."""

    __slots__ = ("random",)

    def __init__(self, rng: random.Random) -> None:
        self.random = rng.random

    def shuffle(self, cards: list[int], _purpose: str) -> None:
        # Sorting by random keys: a uniform permutation, in C loops rather than the
        # Python-level swaps of random.shuffle (a fifth of a playout round's time). The sort
        # asks the key of each card once, first card first; each answer is the generator's
        # next number (``next(draws, card)``: all C calls, no Python frame per card).
        cards.sort(key=partial(next, starmap(self.random, repeat((), len(cards)))))


class FastRules:
    """Rule answers the core asks, worked out once per table."""

    __slots__ = (
        "adults_draw_until",
        "can_stack",
        "catchable",
        "challenge",
        "counter_uno",
        "draw_two_gift",
        "draw_until",
        "draw_until_by_seat",
        "hand_limit",
        "jump_in",
        "kids",
        "kids_choose_target",
        "kids_hit_all",
        "kids_immune",
        "must_play_drawn",
        "must_play_drawn_by_seat",
        "n",
        "round_wins",
        "seven_o",
        "strict_wd4",
        "target",
        "voluntary_draw",
    )

    def __init__(self, rules: Rules, kids: Sequence[bool]) -> None:
        self.n = len(kids)
        self.kids = tuple(kids)
        self.strict_wd4 = rules.wild_draw_four is WildDrawFour.STRICT
        self.challenge = rules.wild_draw_four is WildDrawFour.CHALLENGE
        self.hand_limit = rules.hand_limit
        self.seven_o = rules.seven_o
        self.jump_in = rules.jump_in
        self.counter_uno = rules.counter_uno
        self.kids_immune = rules.kids_immune_to_counter_uno
        self.catchable = tuple(
            rules.counter_uno and not (rules.kids_immune_to_counter_uno and kid) for kid in kids
        )
        self.voluntary_draw = rules.voluntary_draw
        self.must_play_drawn = rules.must_play_drawn
        self.must_play_drawn_by_seat = tuple(
            rules.must_play_drawn or (rules.adults_draw_until_playable and not kid) for kid in kids
        )
        self.draw_until = rules.draw_until_playable
        self.adults_draw_until = rules.adults_draw_until_playable
        self.draw_until_by_seat = tuple(
            self.draw_until or (self.adults_draw_until and not kid) for kid in kids
        )
        self.can_stack = tuple(rules.stacking or (rules.kids_stack and kid) for kid in kids)
        self.draw_two_gift = rules.draw_two_gift
        self.kids_hit_all = rules.kids_hit_all_adults
        self.kids_choose_target = rules.kids_choose_target
        self.round_wins = rules.scoring is Scoring.ROUND_WINS
        self.target = rules.target


class FastRound:
    """The state of one round, as the engine keeps it, minus events, timers and views."""

    __slots__ = (
        "acting",
        "actor",
        "after_color",
        "color",
        "declared",
        "direction",
        "discard",
        "draw_pile",
        "drawn_card",
        "excess_queue",
        "exposed",
        "game_over",
        "gift_cards",
        "hands",
        "jump_window",
        "n",
        "penalty_skips_target",
        "penalty_source",
        "penalty_target",
        "pending_penalty",
        "phase",
        "reshuffles",
        "round_no",
        "rules",
        "scores",
        "shuffler",
        "stalled",
        "target_amount",
        "turn",
        "wd4_bluff",
        "wd4_player",
        "winner",
    )

    rules: FastRules
    n: int
    round_no: int
    reshuffles: int
    stalled: int
    color: int
    direction: int
    turn: int
    actor: int
    phase: int
    pending_penalty: int
    penalty_target: int
    penalty_source: int
    penalty_skips_target: bool
    wd4_player: int
    wd4_bluff: bool
    drawn_card: int
    after_color: int
    target_amount: int
    game_over: bool
    acting: int
    hands: list[list[int]]
    draw_pile: list[int]
    discard: list[int]
    declared: list[bool]
    scores: list[int]
    gift_cards: list[int]
    excess_queue: list[int]
    exposed: int | None
    jump_window: int | None
    winner: int | None
    shuffler: IntShuffler

    def clone(self) -> FastRound:
        twin = object.__new__(FastRound)
        twin.rules = self.rules
        twin.n = self.n
        twin.round_no = self.round_no
        twin.shuffler = self.shuffler
        twin.hands = [list(hand) for hand in self.hands]
        twin.draw_pile = list(self.draw_pile)
        twin.discard = list(self.discard)
        twin.color = self.color
        twin.direction = self.direction
        twin.turn = self.turn
        twin.actor = self.actor
        twin.phase = self.phase
        twin.pending_penalty = self.pending_penalty
        twin.penalty_target = self.penalty_target
        twin.penalty_source = self.penalty_source
        twin.penalty_skips_target = self.penalty_skips_target
        twin.wd4_player = self.wd4_player
        twin.wd4_bluff = self.wd4_bluff
        twin.drawn_card = self.drawn_card
        twin.jump_window = self.jump_window
        twin.after_color = self.after_color
        twin.target_amount = self.target_amount
        twin.gift_cards = list(self.gift_cards)
        twin.excess_queue = list(self.excess_queue)
        twin.declared = list(self.declared)
        twin.exposed = self.exposed
        twin.winner = self.winner
        twin.game_over = self.game_over
        twin.scores = list(self.scores)
        twin.reshuffles = self.reshuffles
        twin.stalled = self.stalled
        twin.acting = self.acting
        return twin

    # ----------------------------------------------------------------- small helpers

    def _next(self, seat: int, steps: int = 1) -> int:
        return (seat + self.direction * steps) % self.n

    def holds_color(self, hand: list[int], color: int) -> bool:
        return not _CARDS_OF_COLOR[color].isdisjoint(hand)  # a C loop over the hand

    def fits(self, card: int, hand: list[int]) -> bool:
        suit = COLOR_OF[card]
        if suit < 0:
            if RANK_OF[card] == WILD_DRAW_FOUR and self.rules.strict_wd4:
                return not self.holds_color(hand, self.color)
            return True
        return suit == self.color or RANK_OF[card] == RANK_OF[self.discard[-1]]

    def _start_with(self, card: int, first: int) -> None:
        self.color = COLOR_OF[card]
        rank = RANK_OF[card]
        if rank == WILD:
            self.turn = self.actor = first
            self.phase = CHOOSE_COLOR
            self.after_color = AFTER_FIRST
            return
        if rank == SKIP:
            self._settle(self._next(first))
        elif rank == REVERSE:
            self.direction = -1
            self._settle(self._next(first))
        elif rank == DRAW_TWO:
            self._draw(first, 2)
            self._settle(self._next(first))
        else:
            self._settle(first)

    # ----------------------------------------------------------------- piles

    def _reshuffle(self, gather: bool = False) -> None:
        if len(self.discard) <= 1:
            return
        rest = self.discard[:-1]
        del self.discard[:-1]
        if gather:
            rest.extend(self.draw_pile)
            self.draw_pile = []
        self.reshuffles += 1
        self.shuffler.shuffle(rest, f"round {self.round_no} reshuffle {self.reshuffles}")
        rest.extend(self.draw_pile)
        self.draw_pile = rest

    def _take(self, count: int) -> list[int]:
        # (``_draw`` takes from a pile that holds enough cards itself.)
        pile = self.draw_pile
        if count == 1 and pile:
            return [pile.pop()]
        got = []
        for _ in range(count):
            if not self.draw_pile:
                self._reshuffle()
                if not self.draw_pile:
                    break
            got.append(self.draw_pile.pop())
        return got

    def _give_cards(self, seat: int, cards: list[int]) -> None:
        self.hands[seat].extend(cards)
        self.declared[seat] = False
        if self.exposed == seat:
            self.exposed = None

    def _draw(self, seat: int, count: int) -> list[int]:
        pile = self.draw_pile
        if len(pile) >= count:  # _take's common case, inlined: the top cards, top first
            got = pile[-count:]
            del pile[-count:]
            got.reverse()
        else:
            got = self._take(count)
        if got:  # _give_cards, inlined
            self.hands[seat].extend(got)
            self.declared[seat] = False
            if self.exposed == seat:
                self.exposed = None
        return got

    def _draw_until_fits(self, seat: int) -> list[int]:
        got: list[int] = []
        hand = self.hands[seat]
        while True:
            card = self._take(1)
            if not card:
                break
            got.append(card[0])
            if self.fits(card[0], hand):
                break
        if got:
            self._give_cards(seat, got)
        return got

    # ----------------------------------------------------------------- flow

    def _settle(self, seat: int) -> None:
        self.turn = seat
        if self.pending_penalty:
            if self.rules.hand_limit is not None and self._over_limit():
                return
            self.drawn_card = -1
            self.phase = PENALTY
            self.actor = self.turn = self.penalty_target
            return
        hands = self.hands
        if [] in hands:
            self._end_round(hands.index([]))
            return
        if self.rules.hand_limit is not None and self._over_limit():
            return
        self.drawn_card = -1
        self.phase = TURN
        self.actor = seat

    def _over_limit(self) -> bool:
        """``_settle``'s hand-limit check: queue the seats over the limit (EXCESS), if any."""
        limit = self.rules.hand_limit
        assert limit is not None
        hands, start, d, n = self.hands, self.acting, self.direction, self.n
        queue = [(start + d * k) % n for k in range(n) if len(hands[(start + d * k) % n]) > limit]
        if not queue:
            return False
        self.excess_queue = queue
        self.phase = EXCESS
        self.actor = queue[0]
        return True

    def _end_round(self, winner: int) -> None:
        self.winner = winner
        self.phase = ROUND_OVER
        self.exposed = None
        rules = self.rules
        if rules.round_wins:
            points = 1
        else:
            points = 0
            for hand in self.hands:
                for card in hand:
                    points += POINTS[card]
        self.scores[winner] += points
        if rules.target is None or self.scores[winner] >= rules.target:
            self.game_over = True

    # ----------------------------------------------------------------- apply

    def apply(self, move: Move) -> None:
        """Carry out a legal move (an illegal one is not refused: playouts never make one)."""
        kind, seat, a, b = move
        exposed = self.exposed
        self.acting = seat
        if kind == PLAY:  # _on_play, inlined (most moves are plays)
            self.stalled = 0
            if seat != self.actor:  # T6: a jump-in
                self.turn = seat
                b = -1  # (the color of a jump-in is its card's)
            rules = self.rules
            if RANK_OF[a] <= 9 and not rules.seven_o:
                # _play of a number card (always colored), inlined: the most common move.
                hand = self.hands[seat]
                hand.remove(a)
                self.discard.append(a)
                if len(hand) == 1:
                    if not self.declared[seat] and rules.catchable[seat]:  # _expose_if_single
                        self.exposed = seat
                else:
                    self.declared[seat] = False
                self.color = COLOR_OF[a]
                after = (seat + self.direction) % self.n
                if self.pending_penalty or rules.hand_limit is not None or [] in self.hands:
                    self._settle(after)
                else:  # _settle(after), inlined for the common case
                    self.turn = self.actor = after
                    self.drawn_card = -1
                    self.phase = TURN
            else:
                self._play(seat, a)
            if b >= 0:
                self._choose_color(seat, b)
            # O24: the exposure lasts until another seat acts.
            if exposed is not None and seat != exposed and self.exposed == exposed:
                self.exposed = None
            self.jump_window = seat
            return
        if kind == DRAW:
            self._do_draw(seat)
        elif kind in (UNO, COUNTER):
            self._call(kind, seat, a)
            return  # a call is not an action that ends an exposure or a jump-in window
        else:
            _OTHER_MOVES[kind](self, seat, a, b)
        if exposed is not None and seat != exposed and self.exposed == exposed:
            self.exposed = None
        if seat != self.jump_window:
            self.jump_window = None

    def _call(self, kind: int, seat: int, exposed: int) -> None:
        """UNO (O23) or Counter-UNO on ``exposed`` (O24)."""
        if kind == UNO:
            self.declared[seat] = True
            if self.exposed == seat:
                self.exposed = None
        elif self.exposed == exposed:
            self.exposed = None
            self._draw(exposed, 2)
            if self.phase == TURN or self.phase == PENALTY:
                self._settle(self.turn)

    def _on_pass(self, seat: int, _a: int, _b: int) -> None:
        if self.rules.hand_limit is not None:
            self._stall()
        self._settle((seat + self.direction) % self.n)

    def _stall(self) -> None:
        """The engine's ``Round._passed`` (K1-5 [reading]): once as many turns in a row as
        the draw pile has cards have ended without a card played, the piles are shuffled
        together."""
        self.stalled += 1
        if self.stalled >= len(self.draw_pile):
            self.stalled = 0
            self._reshuffle(True)

    def _on_color(self, seat: int, color: int, _b: int) -> None:
        self._choose_color(seat, color)

    def _on_accept(self, _seat: int, _a: int, _b: int) -> None:
        self._take_penalty()

    def _on_challenge_move(self, seat: int, _a: int, _b: int) -> None:
        self._on_challenge(seat)

    def _on_give_move(self, seat: int, a: int, b: int) -> None:
        self._on_give(seat, (a,) if b < 0 else (a, b))

    def _on_target(self, seat: int, target: int, _b: int) -> None:
        amount, self.target_amount = self.target_amount, 0
        self._impose_penalty(seat, target, amount, target == self._next(seat))

    def _on_swap_move(self, seat: int, target: int, _b: int) -> None:
        self._on_swap(seat, target)

    def _on_return_move(self, seat: int, card: int, _b: int) -> None:
        self._on_return(seat, card)

    # ----------------------------------------------------------------- handlers

    def _may_stack(self, seat: int) -> bool:
        if not self.rules.can_stack[seat]:
            return False
        for hand in self.hands:  # noqa: SIM110
            if not hand:
                return False
        return True

    def _stackable(self, card: int, hand: list[int]) -> bool:
        rank = RANK_OF[card]
        if rank == DRAW_TWO:
            return RANK_OF[self.discard[-1]] == DRAW_TWO
        return rank == WILD_DRAW_FOUR and self.fits(card, hand)

    def _expose_if_single(self, seat: int) -> None:
        if len(self.hands[seat]) == 1 and not self.declared[seat] and self.rules.catchable[seat]:
            self.exposed = seat

    def _play(self, seat: int, card: int) -> None:
        hand = self.hands[seat]
        hand.remove(card)
        rank = RANK_OF[card]
        if rank == WILD_DRAW_FOUR:
            self.wd4_player = seat
            self.wd4_bluff = self.holds_color(hand, self.color)  # the color before the play
        self.discard.append(card)
        if len(hand) == 1:
            # _expose_if_single, inlined
            if not self.declared[seat] and self.rules.catchable[seat]:
                self.exposed = seat
        else:
            self.declared[seat] = False
        if rank <= 9:  # a number (always colored): the common case first
            self.color = COLOR_OF[card]
            if self.rules.seven_o and hand:
                if rank == SEVEN:
                    self.phase = SWAP
                    self.actor = seat
                    return
                if rank == ZERO:
                    self._rotate_hands()
            after = (seat + self.direction) % self.n
            if self.pending_penalty or self.rules.hand_limit is not None or [] in self.hands:
                self._settle(after)
            else:  # _settle(after), inlined for the common case
                self.turn = self.actor = after
                self.drawn_card = -1
                self.phase = TURN
            return
        self._play_action(seat, card, rank)

    def _play_action(self, seat: int, card: int, rank: int) -> None:
        """``_play`` of any card but a number: the less common case, kept apart."""
        suit = COLOR_OF[card]
        if suit >= 0:
            self.color = suit
        if rank == SKIP:
            skipped = (seat + self.direction) % self.n
            self._settle((skipped + self.direction) % self.n)
        elif rank == REVERSE:
            self.direction = -self.direction
            if self.n == 2:
                self._settle(seat)
            else:
                self._settle(self._next(seat))
        elif rank == DRAW_TWO:
            self._play_draw_two(seat)
        else:
            if rank == WILD_DRAW_FOUR:
                self.after_color = self._penalty_route(seat)
            else:
                self.after_color = AFTER_ADVANCE
                if rank == BLANK:
                    self._deal_out_pile(seat)
            self.phase = CHOOSE_COLOR
            self.actor = seat

    def _penalty_route(self, seat: int) -> int:
        rules = self.rules
        if rules.kids[seat] and not self.pending_penalty:
            if rules.kids_hit_all:
                return AFTER_ALL_ADULTS
            if rules.kids_choose_target:
                return AFTER_TARGET
        return AFTER_PENALTY

    def _play_draw_two(self, seat: int) -> None:
        route = self._penalty_route(seat) if self.rules.kids[seat] else AFTER_PENALTY
        if self.rules.draw_two_gift and not self.pending_penalty and route != AFTER_ALL_ADULTS:
            declared = self.declared[seat]
            got = self._draw(seat, 2)
            self.declared[seat] = declared
            if got:
                self.gift_cards = got
                self.phase = GIFT
                self.actor = seat
                return
            self._settle(self._next(seat))
            return
        self._route_penalty(seat, route, 2)

    def _route_penalty(self, seat: int, route: int, amount: int) -> None:
        if route == AFTER_ALL_ADULTS:
            kids = self.rules.kids
            for other in range(self.n):
                if not kids[other]:
                    self._draw(other, amount)
            nxt = self._next(seat)
            if not kids[nxt]:
                nxt = self._next(nxt)
            self._settle(nxt)
        elif route == AFTER_TARGET:
            self.target_amount = amount
            self.phase = CHOOSE_TARGET
            self.actor = seat
        else:
            self._impose_penalty(seat, (seat + self.direction) % self.n, amount, True)

    def _impose_penalty(self, source: int, target: int, amount: int, skips_target: bool) -> None:
        self.pending_penalty += amount
        self.penalty_source = source
        self.penalty_target = target
        self.penalty_skips_target = skips_target
        if self._penalty_has_choice(target):
            self.turn = target
            self._settle(self.turn)
        else:
            self._take_penalty()

    def _challengeable(self) -> bool:
        return self.rules.challenge and RANK_OF[self.discard[-1]] == WILD_DRAW_FOUR

    def _penalty_has_choice(self, target: int) -> bool:
        rules = self.rules
        if rules.challenge and RANK_OF[self.discard[-1]] == WILD_DRAW_FOUR:  # _challengeable()
            return True
        if not rules.can_stack[target] or not self._may_stack(target):
            return False
        hand = self.hands[target]
        return any(self._stackable(card, hand) for card in hand)

    def _take_penalty(self) -> None:
        target, amount = self.penalty_target, self.pending_penalty
        self.pending_penalty = 0
        self._draw(target, amount)
        self._after_penalty(target, self.penalty_skips_target)

    def _after_penalty(self, target: int, skipped: bool) -> None:
        self._settle(((target if skipped else self.penalty_source) + self.direction) % self.n)

    def _rotate_hands(self) -> None:
        old = self.hands
        new: list[list[int]] = [[] for _ in range(self.n)]
        for seat in range(self.n):
            new[self._next(seat)] = old[seat]
        self.hands = new
        self.declared = [False] * self.n
        self.exposed = None

    def _deal_out_pile(self, seat: int) -> None:
        under = self.discard[:-1]
        del self.discard[:-1]
        under.reverse()
        opponents = [self._next(seat, k) for k in range(1, self.n)]
        per_seat = len(under) // len(opponents)
        dealt: list[list[int]] = [[] for _ in range(self.n)]
        for i in range(per_seat * len(opponents)):
            dealt[opponents[i % len(opponents)]].append(under[i])
        self.draw_pile[:0] = under[per_seat * len(opponents) :]
        for other in opponents:
            if dealt[other]:
                self._give_cards(other, dealt[other])

    def _do_draw(self, seat: int) -> None:
        hand = self.hands[seat]
        pile = self.draw_pile
        if self.rules.draw_until_by_seat[seat]:
            got = self._draw_until_fits(seat)
            card = got[-1] if got else -1
        elif pile:  # _draw(seat, 1), inlined
            card = pile.pop()
            hand.append(card)
            self.declared[seat] = False
            if self.exposed == seat:
                self.exposed = None
        else:
            got = self._draw(seat, 1)
            card = got[-1] if got else -1
        if card >= 0:
            suit = COLOR_OF[card]
            if (
                suit == self.color or RANK_OF[card] == RANK_OF[self.discard[-1]]
                if suit >= 0
                else self.fits(card, hand)
            ):
                self.drawn_card = card
                self.phase = DRAWN
                return
        after = (seat + self.direction) % self.n
        if self.rules.hand_limit is not None:
            self._stall()
        if self.pending_penalty or self.rules.hand_limit is not None or [] in self.hands:
            self._settle(after)
        else:  # _settle(after), inlined for the common case
            self.turn = self.actor = after
            self.drawn_card = -1
            self.phase = TURN

    def _choose_color(self, seat: int, color: int) -> None:
        self.color = color
        after = self.after_color
        if after == AFTER_FIRST:
            self._settle(seat)
        elif after == AFTER_ADVANCE:
            self._settle((seat + self.direction) % self.n)
        else:
            self._route_penalty(seat, after, 4)

    def _on_challenge(self, challenger: int) -> None:
        suspect = self.wd4_player
        total = self.pending_penalty
        self.pending_penalty = 0
        if self.wd4_bluff:
            self._draw(suspect, 4)
            if total > 4:
                self._draw(challenger, total - 4)
            self._settle(self._next(self.penalty_source))
        else:
            self._draw(challenger, total + 2)
            self._after_penalty(challenger, self.penalty_skips_target)

    def _on_give(self, seat: int, recipients: tuple[int, ...]) -> None:
        cards, self.gift_cards = self.gift_cards, []
        hand = self.hands[seat]
        for card in cards:
            hand.remove(card)
        for card, r in zip(cards, recipients, strict=True):
            self._give_cards(r, [card])
        self._expose_if_single(seat)
        self._settle(self._next(seat))

    def _on_swap(self, seat: int, target: int) -> None:
        hands = self.hands
        hands[seat], hands[target] = hands[target], hands[seat]
        for s in (seat, target):
            self.declared[s] = False
            if self.exposed == s:
                self.exposed = None
        self._settle(self._next(seat))

    def _on_return(self, seat: int, card: int) -> None:
        hand = self.hands[seat]
        hand.remove(card)
        self.draw_pile.insert(0, card)
        limit = self.rules.hand_limit
        assert limit is not None
        if len(hand) <= limit:
            self.excess_queue.pop(0)
        if self.excess_queue:
            self.actor = self.excess_queue[0]
        else:
            self._settle(self.turn)

    # ----------------------------------------------------------------- legal actions

    def may_declare(self, seat: int) -> bool:
        if self.declared[seat]:
            return False
        size = len(self.hands[seat])
        if size == 1:
            return True
        if size != 2:
            return False
        if seat == self.actor:
            phase = self.phase
            return phase in (TURN, DRAWN, PENALTY)
        return self.can_jump_in(seat)

    def can_jump_in(self, seat: int) -> bool:
        top = self.discard[-1]
        return (
            self.rules.jump_in
            and self.phase == TURN
            and not self.pending_penalty
            and self.jump_window is not None
            and seat != self.actor
            and COLOR_OF[top] >= 0
            and top in self.hands[seat]
        )

    def legal_actions(self, seat: int) -> list[Move]:
        """Every move ``seat`` may make now, in the engine's order."""
        phase = self.phase
        hand = self.hands[seat]
        if phase == TURN and seat == self.actor:
            out: list[Move] = []
            # The engine's _turn_options, inlined (the common case). One table lookup per
            # card: its play if it is a colored card that fits, () for a wild (whose fit
            # may depend on the hand), None for a card that does not fit.
            moves = _TURN_MOVES[seat][self.color][RANK_OF[self.discard[-1]]]
            for card in hand:
                move = moves[card]
                if move is None:
                    continue
                if move:
                    if move not in out:  # a hand may hold two of the same card: list it once
                        out.append(move)
                else:
                    wilds = WILD_PLAYS[seat][card]
                    if wilds[0] not in out and self.fits(card, hand):
                        out.extend(wilds)
            if self.rules.voluntary_draw or not out:
                out.append(DRAWS[seat])
        elif phase == DRAWN and seat == self.actor:  # the engine's _drawn_options, inlined
            drawn = self.drawn_card
            out = list(WILD_PLAYS[seat][drawn]) if COLOR_OF[drawn] < 0 else [PLAYS[seat][drawn]]
            if not self.rules.must_play_drawn_by_seat[seat]:
                out.append(PASSES[seat])
        elif phase == ROUND_OVER:
            return []
        elif seat != self.actor:
            out = [PLAYS[seat][self.discard[-1]]] if self.can_jump_in(seat) else []
        else:
            out = _ACTOR_OPTIONS[phase](self, seat, hand)
        if len(hand) <= 2 and self.may_declare(seat):
            out.append(UNOS[seat])
        exposed = self.exposed
        if exposed is not None and exposed != seat:
            out.append(COUNTERS[seat][exposed])
        return out

    def _color_options(self, seat: int, _hand: list[int]) -> list[Move]:
        return list(COLOR_CHOICES[seat])

    def _penalty_options(self, seat: int, hand: list[int]) -> list[Move]:
        out: list[Move] = [ACCEPTS[seat]]
        if self._challengeable():
            out.append(CHALLENGES[seat])
        if self._may_stack(seat):
            seen = 0
            for card in hand:
                if self._stackable(card, hand) and not seen & (1 << card):
                    seen |= 1 << card
                    if COLOR_OF[card] < 0:
                        out.extend(WILD_PLAYS[seat][card])
                    else:
                        out.append(PLAYS[seat][card])
        return out

    def _gift_options(self, seat: int, _hand: list[int]) -> list[Move]:
        opponents = [s for s in range(self.n) if s != seat]
        if len(self.gift_cards) == 2:
            return [(GIVE, seat, a, b) for a in opponents for b in opponents]
        return [(GIVE, seat, a, -1) for a in opponents]

    def _target_options(self, seat: int, _hand: list[int]) -> list[Move]:
        return [(TARGET, seat, s, -1) for s in range(self.n) if s != seat]

    def _swap_options(self, seat: int, _hand: list[int]) -> list[Move]:
        return [(SWAP_WITH, seat, s, -1) for s in range(self.n) if s != seat]

    def _excess_options(self, seat: int, hand: list[int]) -> list[Move]:
        out: list[Move] = []
        seen = 0
        for card in hand:
            if not seen & (1 << card):
                seen |= 1 << card
                out.append(RETURNS[seat][card])
        return out


_ACTOR_OPTIONS: dict[int, Callable[[FastRound, int, list[int]], list[Move]]] = {
    CHOOSE_COLOR: FastRound._color_options,
    PENALTY: FastRound._penalty_options,
    GIFT: FastRound._gift_options,
    CHOOSE_TARGET: FastRound._target_options,
    SWAP: FastRound._swap_options,
    EXCESS: FastRound._excess_options,
}
"""The actor's moves in each phase but TURN and DRAWN (the common cases, written out in
``legal_actions``)."""

_OTHER_MOVES: dict[int, Callable[[FastRound, int, int, int], None]] = {
    PASS: FastRound._on_pass,
    COLOR: FastRound._on_color,
    ACCEPT: FastRound._on_accept,
    CHALLENGE: FastRound._on_challenge_move,
    GIVE: FastRound._on_give_move,
    TARGET: FastRound._on_target,
    SWAP_WITH: FastRound._on_swap_move,
    RETURN: FastRound._on_return_move,
}
"""``apply`` for the moves other than plays, draws and calls, by kind."""


def _fit_table(color: int, top_rank: int) -> tuple[int, ...]:
    return tuple(
        2
        if COLOR_OF[card] < 0
        else 1
        if COLOR_OF[card] == color or RANK_OF[card] == top_rank
        else 0
        for card in range(FACES)
    )


_FIT: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_fit_table(color, rank) for rank in range(BLANK + 1)) for color in (0, 1, 2, 3, -1)
)
"""Per current color (row 4, reached as index -1, for none) and top rank: for each card,
1 if it is a colored card that fits, 2 if it is a wild (whose fit depends on the hand)."""

_TurnMove = Move | tuple[()] | None
_TURN_MOVES: tuple[tuple[tuple[tuple[_TurnMove, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(
            tuple(
                None if how == 0 else PLAYS[seat][card] if how == 1 else ()
                for card, how in enumerate(_FIT[color][rank])
            )
            for rank in range(BLANK + 1)
        )
        for color in range(5)
    )
    for seat in range(MAX_SEATS)
)
"""``_FIT`` per seat as moves: the play of a colored card that fits, () for a wild, None
for a card that does not fit."""


def new_round(
    rules: FastRules,
    shuffler: IntShuffler,
    *,
    round_no: int,
    hands: list[list[int]],
    draw_pile: list[int],
    discard: list[int],
    color: int,
    direction: int,
    turn: int,
    actor: int,
    phase: int,
    scores: list[int],
    declared: list[bool],
    exposed: int | None,
    drawn_card: int = -1,
    jump_window: int | None = None,
    pending_penalty: int = 0,
) -> FastRound:
    """A position written down (the fields a position in play needs; the rest idle)."""
    r = object.__new__(FastRound)
    r.rules = rules
    r.n = rules.n
    r.round_no = round_no
    r.shuffler = shuffler
    r.hands = hands
    r.draw_pile = draw_pile
    r.discard = discard
    r.color = color
    r.direction = direction
    r.turn = turn
    r.actor = actor
    r.phase = phase
    r.pending_penalty = pending_penalty
    r.penalty_target = 0
    r.penalty_source = 0
    r.penalty_skips_target = True
    r.wd4_player = 0
    r.wd4_bluff = False
    r.drawn_card = drawn_card
    r.jump_window = jump_window
    r.after_color = AFTER_ADVANCE
    r.target_amount = 0
    r.gift_cards = []
    r.excess_queue = []
    r.declared = declared
    r.exposed = exposed
    r.winner = None
    r.game_over = False
    r.scores = scores
    r.reshuffles = 0
    r.stalled = 0
    r.acting = actor
    return r


def deal(
    rules: Rules,
    kids: Sequence[bool],
    shuffler: IntShuffler,
    *,
    round_no: int,
    dealer: int,
    scores: list[int],
    first: int | None = None,
    fast_rules: FastRules | None = None,
) -> FastRound:
    """A fresh round, dealt as ``Round.__init__`` deals it (O3-O9, K2-2)."""
    fr = fast_rules if fast_rules is not None else FastRules(rules, kids)
    n = fr.n
    pile = list(_DECK_INDICES[rules.deck])
    r = new_round(
        fr,
        shuffler,
        round_no=round_no,
        hands=[[] for _ in range(n)],
        draw_pile=pile,
        discard=[],
        color=-1,
        direction=1,
        turn=0,
        actor=0,
        phase=TURN,
        scores=scores,
        declared=[False] * n,
        exposed=None,
    )
    r.acting = dealer
    shuffler.shuffle(pile, f"round {round_no} deal")
    hands = r.hands
    # One card at a time from the top, round the table from the dealer's left: seat
    # dealer + k takes the k-th, (k + n)-th... cards from the top (slices, not pops). As in
    # the engine, a deck too small for the deal fails on the first card (an empty pile).
    dealt = rules.hand_size * n  # at least 2
    top = pile[-dealt:]
    del pile[-dealt:]
    top.reverse()
    for offset in range(1, n + 1):
        hands[(dealer + offset) % n].extend(top[offset - 1 :: n])
    card = pile.pop()
    redeals = 0
    while RANK_OF[card] == WILD_DRAW_FOUR or RANK_OF[card] == BLANK:
        pile.append(card)
        redeals += 1
        shuffler.shuffle(pile, f"round {round_no} redeal {redeals}")
        card = pile.pop()
    r.discard.append(card)
    r._start_with(card, (dealer + 1) % n if first is None else first)
    return r


_DECK_INDICES = {kind: tuple(card.index for card in build_deck(kind)) for kind in DeckKind}


def to_engine(move: Move) -> Action:
    kind, seat, a, b = move
    card = ALL_FACES[a] if kind in (PLAY, RETURN) else None
    if kind == PLAY:
        assert card is not None
        return Play(seat, card, COLORS[b] if b >= 0 else None)
    if kind == RETURN:
        assert card is not None
        return ReturnCard(seat, card)
    if kind == COLOR:
        return ChooseColor(seat, COLORS[a])
    if kind == GIVE:
        return Give(seat, (a,) if b < 0 else (a, b))
    if kind == TARGET:
        return ChooseTarget(seat, a)
    if kind == SWAP_WITH:
        return SwapHands(seat, a)
    if kind == COUNTER:
        return CounterUno(seat, a)
    return _SIMPLE[kind](seat)


_SIMPLE: dict[int, type[Action]] = {
    DRAW: Draw,
    PASS: Pass,
    ACCEPT: AcceptPenalty,
    CHALLENGE: Challenge,
    UNO: DeclareUno,
}
_KIND_OF: dict[type[Action], int] = {kind: number for number, kind in _SIMPLE.items()}


def from_engine_card(code: str) -> int:
    """A card in the core's terms, from its notation (for tests and positions)."""
    return parse_card(code).index


def _color_no(color: Color | None) -> int:
    return -1 if color is None else COLORS.index(color)


def from_engine(action: Action) -> Move:
    seat = action.seat
    if isinstance(action, Play):
        return (PLAY, seat, action.card.index, _color_no(action.color))
    if isinstance(action, ReturnCard):
        return RETURNS[seat][action.card.index]
    if isinstance(action, ChooseColor):
        return COLOR_CHOICES[seat][COLORS.index(action.color)]
    if isinstance(action, Give):
        r = action.recipients
        return (GIVE, seat, r[0], r[1] if len(r) > 1 else -1)
    if isinstance(action, ChooseTarget):
        return (TARGET, seat, action.target, -1)
    if isinstance(action, SwapHands):
        return (SWAP_WITH, seat, action.target, -1)
    if isinstance(action, CounterUno):
        return COUNTERS[seat][action.target]
    return (_KIND_OF[type(action)], seat, -1, -1)


def from_round(rnd: Round, shuffler: IntShuffler) -> FastRound:
    """The same position in the core: for worlds the searcher made itself (a world built
    with ``Round`` is its own invention) and for the equivalence tests."""
    r = new_round(
        FastRules(rnd.rules, rnd.kids),
        shuffler,
        round_no=rnd.round_no,
        hands=[[card.index for card in hand] for hand in rnd.hands],
        draw_pile=[card.index for card in rnd.draw_pile],
        discard=[card.index for card in rnd.discard],
        color=_color_no(rnd.color),
        direction=rnd.direction,
        turn=rnd.turn,
        actor=rnd.actor,
        phase=PHASE_NO[rnd.phase],
        scores=list(rnd.scores),
        declared=list(rnd.declared),
        exposed=rnd.exposed,
        drawn_card=-1 if rnd.drawn_card is None else rnd.drawn_card.index,
        jump_window=rnd.jump_window,
        pending_penalty=rnd.pending_penalty,
    )
    r.penalty_target = rnd.penalty_target
    r.penalty_source = rnd.penalty_source
    r.penalty_skips_target = rnd.penalty_skips_target
    r.wd4_player = rnd.wd4_player
    r.wd4_bluff = rnd.wd4_bluff
    r.after_color = rnd.after_color
    r.target_amount = rnd.target_amount
    r.gift_cards = [card.index for card in rnd.gift_cards]
    r.excess_queue = list(rnd.excess_queue)
    r.winner = rnd.winner
    r.game_over = rnd.game_over
    r.reshuffles = rnd.reshuffles
    r.stalled = rnd.stalled
    return r


def position(r: FastRound) -> tuple[object, ...]:
    """The whole state as plain values (compared with :func:`engine_position`)."""
    return (
        tuple(tuple(h) for h in r.hands),
        tuple(r.draw_pile),
        tuple(r.discard),
        r.color,
        r.direction,
        r.turn,
        r.actor,
        r.phase,
        r.pending_penalty,
        r.penalty_target,
        r.penalty_source,
        r.penalty_skips_target,
        r.wd4_player,
        r.wd4_bluff,
        r.drawn_card,
        r.jump_window,
        r.after_color,
        r.target_amount,
        tuple(r.gift_cards),
        tuple(r.excess_queue),
        tuple(r.declared),
        r.exposed,
        r.winner,
        tuple(r.scores),
        r.game_over,
        r.reshuffles,
        r.stalled,
    )


def engine_position(rnd: Round) -> tuple[object, ...]:
    """The engine round's state in the core's terms."""
    return position(from_round(rnd, RandomIntShuffler(random.Random(0))))
