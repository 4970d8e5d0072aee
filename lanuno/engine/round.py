"""One round (manche): the deal, every turn and decision, until someone empties their hand.

See :mod:`lanuno.engine.phases` for the theory of operation. Handlers follow one pattern:
verify everything with the ``check_*`` functions of :mod:`lanuno.engine.legal` (which
raise :class:`IllegalAction`; the legal list is built from the same predicates), then
mutate, then settle (:meth:`Round._settle`: who is out, who is over the hand limit, who
takes a pending penalty, whose turn it is). The hot paths (legal actions, plays, draws)
avoid allocation: cards are interned and actions are built once per (seat, card).

Three seats matter at any moment: ``turn`` (whose turn it is in the order of play),
``actor`` (whose decision the round waits for: usually the same seat, but a color, a gift,
a swap or excess cards may be asked of another) and, while :meth:`Round.apply` runs,
``_action_seat`` (who sent the action being carried out: out-of-turn calls and jump-ins
come from other seats).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from lanuno.engine import legal as _legal
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
    Timeout,
)
from lanuno.engine.cards import (
    ALL_FACES,
    COLORS,
    Card,
    Color,
    Rank,
    build_deck,
)
from lanuno.engine.errors import IllegalAction
from lanuno.engine.events import (
    AutopilotChanged,
    CardReturned,
    CardsDrawn,
    CardsReceived,
    CardsReturned,
    CardTurned,
    Challenged,
    ColorChosen,
    CounterUnoCalled,
    DirectionChanged,
    DrawCause,
    Drew,
    Event,
    GameEnded,
    Gave,
    HandDealt,
    HandRevealed,
    HandsRotated,
    HandsSwapped,
    Passed,
    PenaltyPending,
    PileDealtOut,
    Played,
    Reshuffled,
    RoundEnded,
    RoundStarted,
    Skipped,
    TimedOut,
    UnoDeclared,
    UnoExposed,
)
from lanuno.engine.legal import fits as _fits
from lanuno.engine.phases import Phase
from lanuno.engine.position import AFTER_COLOR, Position
from lanuno.engine.rules import MAX_SEATS, MIN_SEATS, Rules, Scoring, WildDrawFour
from lanuno.engine.shuffle import SeededShuffler, Shuffler
from lanuno.engine.views import SeatView, TableView

AUTOPILOT_AFTER = 2
"""T3: consecutive timeouts after which a bot plays the seat."""

# The most frequent events are immutable values too: shared, like the actions above
# (building a frozen dataclass costs more than the rest of a typical play).
_PLAYED = [[Played(seat, card) for card in ALL_FACES] for seat in range(MAX_SEATS)]
_DREW_ONE_CARD = [[CardsDrawn(seat, (card,)) for card in ALL_FACES] for seat in range(MAX_SEATS)]
_DREW_ONE = [Drew(seat, 1, DrawCause.DRAW) for seat in range(MAX_SEATS)]
_PASSED = [Passed(seat) for seat in range(MAX_SEATS)]
_SKIPPED = [Skipped(seat) for seat in range(MAX_SEATS)]
_UNO_DECLARED = [UnoDeclared(seat) for seat in range(MAX_SEATS)]
_UNO_EXPOSED = [UnoExposed(seat) for seat in range(MAX_SEATS)]
_COLOR_CHOSEN = [{c: ColorChosen(seat, c) for c in COLORS} for seat in range(MAX_SEATS)]
_DIRECTION_CHANGED = {d: DirectionChanged(d) for d in (1, -1)}

# Reading an enum member through its class (Phase.TURN) costs ~60 ns in Python 3.11, a
# module global ~8 ns: the round compares against these aliases.
_TURN = Phase.TURN
_DRAWN = Phase.DRAWN
_CHOOSE_COLOR = Phase.CHOOSE_COLOR
_PENALTY = Phase.PENALTY
_GIFT = Phase.GIFT
_CHOOSE_TARGET = Phase.CHOOSE_TARGET
_SWAP = Phase.SWAP
_EXCESS = Phase.EXCESS
_ROUND_OVER = Phase.ROUND_OVER
_ZERO = Rank.ZERO
_SEVEN = Rank.SEVEN
_SKIP = Rank.SKIP
_REVERSE = Rank.REVERSE
_DRAW_TWO = Rank.DRAW_TWO
_WILD = Rank.WILD
_WILD_DRAW_FOUR = Rank.WILD_DRAW_FOUR
_BLANK = Rank.BLANK
_CAUSE_DRAW = DrawCause.DRAW
_FOLLOW_UP_PHASES = (_CHOOSE_COLOR, _CHOOSE_TARGET, _SWAP, _GIFT, _EXCESS)

# What to do once the color of a wild is known (indices into position.AFTER_COLOR).
_AFTER_ADVANCE, _AFTER_PENALTY, _AFTER_FIRST, _AFTER_TARGET, _AFTER_ALL_ADULTS = (
    AFTER_COLOR.index(name) for name in ("advance", "penalty", "first", "target", "all_adults")
)


class Round:
    """The state of one round. Created and driven by :class:`lanuno.engine.game.Game`."""

    def __init__(
        self,
        rules: Rules,
        kids: Sequence[bool],
        shuffler: Shuffler,
        *,
        round_no: int,
        dealer: int,
        scores: list[int],
        first: int | None = None,
        now: float = 0.0,
    ) -> None:
        self._set_up(
            rules, kids, shuffler, round_no=round_no, dealer=dealer, scores=scores, now=now
        )
        self._deal(first)

    def _set_up(
        self,
        rules: Rules,
        kids: Sequence[bool],
        shuffler: Shuffler,
        *,
        round_no: int,
        dealer: int,
        scores: list[int],
        now: float,
    ) -> None:
        """Every field at its value before the deal (the deal or a position fills them)."""
        n = len(kids)
        if not MIN_SEATS <= n <= MAX_SEATS:
            raise ValueError(f"a table has {MIN_SEATS} to {MAX_SEATS} seats (O1)")
        self.rules = rules
        self.n = n
        self.kids = tuple(kids)
        # Rule answers asked on every play, worked out once (rules and kids never change).
        self._strict_wd4 = rules.wild_draw_four is WildDrawFour.STRICT
        self._hand_limit = rules.hand_limit
        self._seven_o = rules.seven_o
        self._catchable = tuple(
            [rules.counter_uno and not (rules.kids_immune_to_counter_uno and kid) for kid in kids]
        )
        """O24 / KA1: whether each seat can be caught by Counter-UNO."""
        self.shuffler = shuffler
        self.round_no = round_no
        self.dealer = dealer
        self.scores = scores
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.draw_pile: list[Card] = build_deck(rules.deck)
        self.discard: list[Card] = []
        self.color: Color | None = None
        self.direction = 1
        self.turn = 0
        """The seat whose turn it is in the order of play."""
        self.actor = 0
        """The seat whose decision the round waits for: the turn's seat, or the seat a
        decision outside a plain turn belongs to (a color, a gift, excess cards...)."""
        self.phase = _TURN
        self.pending_penalty = 0
        self.penalty_target = 0
        self.penalty_source = 0
        self.penalty_skips_target = True
        self.wd4_player = 0
        self.wd4_bluff = False
        self.wd4_hand: tuple[Card, ...] = ()
        self.drawn_card: Card | None = None
        self.jump_window: int | None = None
        """T6: who played the top card, until another seat acts (UNO calls aside)."""
        self._played = False
        self.after_color = _AFTER_ADVANCE
        self.target_amount = 0
        self.gift_cards: list[Card] = []
        self.excess_queue: list[int] = []
        self.declared = [False] * n
        self.exposed: int | None = None
        self.timeouts_in_row = [0] * n
        self.autopilot = [False] * n
        self.winner: int | None = None
        self.game_over = False
        self.reshuffles = 0
        self.stalled = 0
        """With a hand limit: turns in a row that ended without a card played (K1-5)."""
        self.decision_started = now
        self.events: list[Event] = []
        self.version = 0
        """Counts accepted actions; views are pinned to a version."""
        self._action_seat = dealer
        """The seat whose action :meth:`apply` is carrying out (it may act out of turn); the
        hand limit asks for excess cards from there on (K2-9)."""

    # ----------------------------------------------------------------- positions

    @classmethod
    def from_position(
        cls, position: Position | str, *, shuffler: Shuffler | None = None, now: float = 0.0
    ) -> Round:
        """A round in the given position (see :mod:`lanuno.engine.position`), with no events
        yet. ``shuffler`` shuffles the discard pile when the draw pile runs out (a seeded
        one by default); ``now`` is when the current decision started (T2).

        >>> rnd = Round.from_position("official hands=R7,G+2,Y5/B5,Y1 discard=R3 color=R draw=-")
        >>> [str(action) for action in rnd.legal_actions(0)]
        ['0 play R7', '0 draw']
        >>> _ = rnd.apply(Play(0, Card.parse("R7")))
        >>> print(rnd.to_position())
        official hands=G+2,Y5/B5,Y1 discard=R3,R7 draw=- color=R direction=cw phase=turn turn=1
        """
        pos = Position.parse(position) if isinstance(position, str) else position
        rnd = cls.__new__(cls)
        rnd._set_up(
            pos.rules,
            pos.kids,
            shuffler or SeededShuffler(0),
            round_no=pos.round_no,
            dealer=pos.dealer,
            scores=list(pos.scores),
            now=now,
        )
        rnd.hands = [list(hand) for hand in pos.hands]
        rnd.draw_pile = list(reversed(pos.draw))  # the engine draws from the end of the list
        rnd.discard = list(pos.discard)
        rnd.color = pos.color
        rnd.direction = pos.direction
        rnd.turn = pos.turn
        rnd.actor = rnd._action_seat = pos.actor_seat
        rnd.phase = pos.phase
        rnd.pending_penalty = pos.pending_penalty
        rnd.penalty_source = pos.penalty_source
        rnd.penalty_target = pos.penalty_target
        rnd.penalty_skips_target = pos.penalty_skips_target
        rnd.wd4_player = pos.wd4_player
        rnd.wd4_bluff = pos.wd4_bluff
        rnd.wd4_hand = pos.wd4_hand
        rnd.drawn_card = pos.drawn
        rnd.jump_window = pos.jump_window
        rnd.after_color = AFTER_COLOR.index(pos.after_color)
        if pos.phase is _CHOOSE_TARGET:
            rnd.target_amount = 4 if pos.top.rank is _WILD_DRAW_FOUR else 2
        rnd.gift_cards = list(pos.gift)
        rnd.excess_queue = list(pos.excess)
        rnd.declared = list(pos.declared)
        rnd.exposed = pos.exposed
        rnd.timeouts_in_row = list(pos.timeouts)
        rnd.autopilot = list(pos.autopilot)
        rnd.reshuffles = pos.reshuffles
        rnd.stalled = pos.stalled
        winner = rnd.winner = pos.winner
        if winner is not None:
            target = pos.rules.target
            rnd.game_over = target is None or rnd.scores[winner] >= target
        return rnd

    def to_position(self) -> Position:
        """Everything that decides how this round goes on, as a value (``str()`` gives its
        one-line text); :meth:`from_position` rebuilds an equivalent round from it."""
        return Position(
            rules=self.rules,
            hands=tuple(tuple(hand) for hand in self.hands),
            discard=tuple(self.discard),
            draw=tuple(reversed(self.draw_pile)),
            color=self.color,
            direction=self.direction,
            phase=self.phase,
            turn=self.turn,
            actor=self.actor,
            kids=self.kids,
            pending_penalty=self.pending_penalty,
            penalty_source=self.penalty_source,
            penalty_target=self.penalty_target,
            penalty_skips_target=self.penalty_skips_target,
            wd4_player=self.wd4_player,
            wd4_bluff=self.wd4_bluff,
            wd4_hand=self.wd4_hand,
            drawn=self.drawn_card,
            after_color=AFTER_COLOR[self.after_color],
            gift=tuple(self.gift_cards),
            excess=tuple(self.excess_queue),
            jump_window=self.jump_window,
            declared=tuple(self.declared),
            exposed=self.exposed,
            timeouts=tuple(self.timeouts_in_row),
            autopilot=tuple(self.autopilot),
            scores=tuple(self.scores),
            winner=self.winner,
            round_no=self.round_no,
            dealer=self.dealer,
            reshuffles=self.reshuffles,
            stalled=self.stalled,
        )

    def clone(self) -> Round:
        """An independent copy (for snapshots and for bots' look-ahead)."""
        twin = object.__new__(Round)
        twin.__dict__.update(self.__dict__)
        twin.hands = [list(hand) for hand in self.hands]
        twin.draw_pile = list(self.draw_pile)
        twin.discard = list(self.discard)
        twin.gift_cards = list(self.gift_cards)
        twin.excess_queue = list(self.excess_queue)
        twin.declared = list(self.declared)
        twin.timeouts_in_row = list(self.timeouts_in_row)
        twin.autopilot = list(self.autopilot)
        twin.scores = list(self.scores)
        twin.events = list(self.events)
        return twin

    # ----------------------------------------------------------------- small helpers

    def _next(self, seat: int, steps: int = 1) -> int:
        return (seat + self.direction * steps) % self.n

    @property
    def top(self) -> Card:
        return self.discard[-1]

    def fits(self, card: Card, hand: list[Card]) -> bool:
        """Whether ``card`` may be played on the current top card by the holder of ``hand``
        (see :func:`lanuno.engine.legal.fits`)."""
        return _fits(self, card, hand)

    # ----------------------------------------------------------------- the deal

    def _deal(self, first: int | None) -> None:
        rules = self.rules
        self.shuffler.shuffle(self.draw_pile, f"round {self.round_no} deal")
        self.events.append(RoundStarted(self.round_no, self.dealer, rules.hand_size))
        pile = self.draw_pile
        for _ in range(rules.hand_size):
            for offset in range(1, self.n + 1):
                self.hands[(self.dealer + offset) % self.n].append(pile.pop())
        for seat, hand in enumerate(self.hands):
            self.events.append(HandDealt(seat, tuple(hand)))
        card = pile.pop()
        redeals = 0
        # O9 / K2-2: a Wild Draw Four or a blank may not start the pile.
        while card.rank is _WILD_DRAW_FOUR or card.rank is _BLANK:
            self.events.append(CardReturned(card))
            pile.append(card)
            redeals += 1
            self.shuffler.shuffle(pile, f"round {self.round_no} redeal {redeals}")
            card = pile.pop()
        self.discard.append(card)
        self.events.append(CardTurned(card))
        first_seat = (self.dealer + 1) % self.n if first is None else first
        self._start_with(card, first_seat)

    def _start_with(self, card: Card, first: int) -> None:
        """O5-O8: the first card turned over acts on the first player."""
        self.color = card.color
        rank = card.rank
        if rank is _WILD:
            self.turn = self.actor = first
            self.phase = _CHOOSE_COLOR
            self.after_color = _AFTER_FIRST
            return
        if rank is _SKIP:
            self.events.append(_SKIPPED[first])
            self._settle(self._next(first))
        elif rank is _REVERSE:
            self.direction = -1
            self.events.append(_DIRECTION_CHANGED[-1])
            # O8: the dealer plays first, then play goes counter-clockwise.
            self._settle(self._next(first))
        elif rank is _DRAW_TWO:
            self._draw(first, 2, DrawCause.PENALTY)
            self.events.append(_SKIPPED[first])
            self._settle(self._next(first))
        else:
            self._settle(first)

    # ----------------------------------------------------------------- piles

    def _reshuffle(self, *, gather: bool = False) -> None:
        """O15: the discard pile but its top card becomes the new draw pile (shuffled with
        the draw pile itself when ``gather``: K1-5's stalled table)."""
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
        self.events.append(Reshuffled(len(rest), gather))

    def _passed(self, seat: int) -> None:
        """A turn ends without a card played. K1-5 [reading]: returned cards keep the draw
        pile from running out, so a table whose fitting cards all lie in the discard pile
        would draw and return cards for ever; once as many turns in a row as the draw pile
        has cards have ended without a card played (the pile has gone round), the draw pile
        and the discard pile but its top card are shuffled together."""
        self.events.append(_PASSED[seat])
        if self.rules.hand_limit is None:
            return
        self.stalled += 1
        if self.stalled >= len(self.draw_pile):
            self.stalled = 0
            self._reshuffle(gather=True)

    def _take(self, count: int) -> list[Card]:
        """Up to ``count`` cards off the draw pile; O16: fewer if both piles run dry."""
        pile = self.draw_pile
        if len(pile) >= count:
            if count == 1:
                return [pile.pop()]
            got = pile[-count:]
            del pile[-count:]
            got.reverse()
            return got
        got = []
        for _ in range(count):
            if not self.draw_pile:
                self._reshuffle()
                if not self.draw_pile:
                    break
            got.append(self.draw_pile.pop())
        return got

    def _give_cards(self, seat: int, cards: list[Card]) -> None:
        """Cards join a hand: a UNO said earlier no longer holds (the hand grew)."""
        self.hands[seat].extend(cards)
        self.declared[seat] = False
        if self.exposed == seat:
            self.exposed = None

    def _draw(self, seat: int, count: int, cause: DrawCause) -> list[Card]:
        pile = self.draw_pile
        if count == 1 and pile:
            # The common case (one card, the pile not empty), without the general steps.
            card = pile.pop()
            self.hands[seat].append(card)
            self.declared[seat] = False
            if self.exposed == seat:
                self.exposed = None
            events = self.events
            events.append(_DREW_ONE_CARD[seat][card.index])
            events.append(_DREW_ONE[seat] if cause is _CAUSE_DRAW else Drew(seat, 1, cause))
            return [card]
        got = self._take(count)
        if got:
            self._give_cards(seat, got)
            self.events.append(CardsDrawn(seat, tuple(got)))
        self.events.append(Drew(seat, len(got), cause))
        return got

    def _draw_until_fits(self, seat: int) -> list[Card]:
        """T7 / KA2: keep drawing until a card fits or the piles are empty (KA6)."""
        got: list[Card] = []
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
            self.events.append(CardsDrawn(seat, tuple(got)))
        self.events.append(Drew(seat, len(got), DrawCause.DRAW))
        return got

    # ----------------------------------------------------------------- flow

    def _settle(self, turn: int) -> None:
        """The action is complete and ``turn`` is the seat whose turn it is now: end the round
        if someone went out, else ask for the excess cards, else put the pending penalty to
        its target, else start the turn."""
        self.turn = turn
        pending = self.pending_penalty
        if not pending and not all(self.hands):
            self._end_round(next(s for s, hand in enumerate(self.hands) if not hand))
            return
        limit = self._hand_limit
        if limit is not None:
            start = self._action_seat
            queue = [
                (start + self.direction * k) % self.n
                for k in range(self.n)
                if len(self.hands[(start + self.direction * k) % self.n]) > limit
            ]
            if queue:
                self.excess_queue = queue
                self.phase = _EXCESS
                self.actor = queue[0]
                return
        self.drawn_card = None
        if pending:
            self.phase = _PENALTY
            self.actor = self.turn = self.penalty_target
        else:
            self.phase = _TURN
            self.actor = turn

    def _end_round(self, winner: int) -> None:
        self.winner = winner
        self.phase = _ROUND_OVER
        self.exposed = None
        rules = self.rules
        if rules.scoring is Scoring.ROUND_WINS:
            points = 1
        else:
            points = sum(card.points for hand in self.hands for card in hand)
        self.scores[winner] += points
        self.events.append(RoundEnded(winner, points, tuple(self.scores)))
        if rules.target is None or self.scores[winner] >= rules.target:
            self.game_over = True
            self.events.append(GameEnded(winner, tuple(self.scores)))

    # ----------------------------------------------------------------- apply

    def apply(self, action: Action, now: float = 0.0, *, auto: bool = False) -> list[Event]:
        """Carry out ``action`` or raise :class:`IllegalAction` leaving the state untouched.
        Returns the events it caused, each with its audience. ``auto`` marks a move made by
        the autopilot bot (T3), which does not hand the seat back to its player."""
        kind = type(action)
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise IllegalAction("T4", f"{kind.__name__} is not an action of this game.")
        seat = action.seat
        if type(seat) is not int or not 0 <= seat < self.n:
            raise IllegalAction("O1", f"There is no seat {seat!r} at this table.")
        if self.phase is _ROUND_OVER:
            raise IllegalAction("O27", "The round is over.")
        events = self.events
        mark = len(events)
        exposed = self.exposed
        actor, phase = self.actor, self.phase
        self._action_seat = seat
        self._played = False
        handler(self, action)
        self.version += 1
        if self.timeouts_in_row[seat] and not auto and kind is not Timeout:
            self.timeouts_in_row[seat] = 0
            if self.autopilot[seat]:
                self.autopilot[seat] = False
                self.events.append(AutopilotChanged(seat, False))
        if kind is not DeclareUno and kind is not CounterUno:  # O23 / O24 calls
            # O24: the exposure lasts until another seat acts.
            if exposed is not None and seat != exposed and self.exposed == exposed:
                self.exposed = None
            self.decision_started = now
            if self._played:
                self.jump_window = seat
            elif seat != self.jump_window:
                self.jump_window = None
        elif self.actor != actor or self.phase is not phase:
            self.decision_started = now  # a catch opened a new decision (K1-5 excess cards)
        return events[mark:]

    # ----------------------------------------------------------------- handlers

    def _on_play(self, action: Play) -> None:
        _legal.check_play(self, action)
        seat, card, color = action.seat, action.card, action.color
        if seat != self.actor:  # T6: a jump-in
            self.events.append(Played(seat, card, True))
            self.turn = seat
            self._play(seat, card)
            return
        self.events.append(_PLAYED[seat][card.index])
        self._play(seat, card)
        if color is not None:
            self._choose_color(seat, color)

    def _expose_if_single(self, seat: int) -> None:
        """O24: a seat left with one card it has not said UNO for can be caught."""
        if len(self.hands[seat]) == 1 and not self.declared[seat] and self._catchable[seat]:
            self.exposed = seat
            self.events.append(_UNO_EXPOSED[seat])

    def _play(self, seat: int, card: Card) -> None:
        """The card leaves the hand and takes effect (O17-O20, T5, K2-4, K2-7, KA4, KA5)."""
        self.stalled = 0
        hand = self.hands[seat]
        rank = card.rank
        if rank is _WILD_DRAW_FOUR:
            prior = self.color
            hand.remove(card)
            self.wd4_player = seat
            self.wd4_bluff = _legal.holds_color(hand, prior)
            self.wd4_hand = tuple(hand)
        else:
            hand.remove(card)
        self.discard.append(card)
        self._played = True
        if len(hand) == 1:
            self._expose_if_single(seat)
        else:
            self.declared[seat] = False
        suit = card.color
        if suit is not None:
            self.color = suit
        if card.is_number:
            if self._seven_o and hand:
                if rank is _SEVEN:
                    self.phase = _SWAP
                    self.actor = seat
                    return
                if rank is _ZERO:
                    self._rotate_hands()
            self._settle((seat + self.direction) % self.n)
        elif rank is _SKIP:
            skipped = (seat + self.direction) % self.n
            self.events.append(_SKIPPED[skipped])
            self._settle((skipped + self.direction) % self.n)
        elif rank is _REVERSE:
            self.direction = -self.direction
            self.events.append(_DIRECTION_CHANGED[self.direction])
            if self.n == 2:
                # O18: with two players Reverse acts as a Skip.
                self.events.append(_SKIPPED[self._next(seat)])
                self._settle(seat)
            else:
                self._settle(self._next(seat))
        elif rank is _DRAW_TWO:
            self._play_draw_two(seat)
        else:
            if rank is _WILD_DRAW_FOUR:
                self.after_color = self._penalty_route(seat)
            else:
                self.after_color = _AFTER_ADVANCE
                if rank is _BLANK:
                    self._deal_out_pile(seat)
            self.phase = _CHOOSE_COLOR
            self.actor = seat

    def _penalty_route(self, seat: int) -> int:
        """Who a fresh Draw Two / Wild Draw Four hits: KA5 wins over KA4 (RULES KA5)."""
        if self.kids[seat] and not self.pending_penalty:
            if self.rules.kids_hit_all_adults:
                return _AFTER_ALL_ADULTS
            if self.rules.kids_choose_target:
                return _AFTER_TARGET
        return _AFTER_PENALTY

    def _play_draw_two(self, seat: int) -> None:
        route = self._penalty_route(seat)
        # K2-4 gifting already lets its player choose, so it wins over KA4; KA5 wins over both.
        if self.rules.draw_two_gift and not self.pending_penalty and route != _AFTER_ALL_ADULTS:
            # The two cards only pass through the hand on their way to the opponents: a UNO
            # said with the Draw Two still holds (drawing would otherwise cancel it).
            declared = self.declared[seat]
            got = self._draw(seat, 2, DrawCause.GIFT)
            self.declared[seat] = declared
            if got:
                self.gift_cards = got
                self.phase = _GIFT
                self.actor = seat
                return
            self._settle(self._next(seat))
            return
        self._route_penalty(seat, route, 2)

    def _route_penalty(self, seat: int, route: int, amount: int) -> None:
        if route == _AFTER_ALL_ADULTS:
            for other in range(self.n):
                if not self.kids[other]:
                    self._draw(other, amount, DrawCause.PENALTY)
            nxt = self._next(seat)
            if not self.kids[nxt]:
                self.events.append(_SKIPPED[nxt])
                nxt = self._next(nxt)
            self._settle(nxt)
        elif route == _AFTER_TARGET:
            self.target_amount = amount
            self.phase = _CHOOSE_TARGET
            self.actor = seat
        else:
            self._impose_penalty(seat, self._next(seat), amount, skips_target=True)

    def _impose_penalty(self, source: int, target: int, amount: int, *, skips_target: bool) -> None:
        self.pending_penalty += amount
        self.penalty_source = source
        self.penalty_target = target
        self.penalty_skips_target = skips_target
        if _legal.penalty_has_choice(self, target):
            self.events.append(PenaltyPending(target, self.pending_penalty))
            self.turn = target
            self._settle(self.turn)
        else:
            self._take_penalty()

    def _take_penalty(self) -> None:
        target, amount = self.penalty_target, self.pending_penalty
        self.pending_penalty = 0
        self._draw(target, amount, DrawCause.PENALTY)
        self._after_penalty(target, skipped=self.penalty_skips_target)

    def _after_penalty(self, target: int, *, skipped: bool) -> None:
        if skipped:
            self.events.append(_SKIPPED[target])
            self._settle(self._next(target))
        else:
            self._settle(self._next(self.penalty_source))

    def _rotate_hands(self) -> None:
        """T5: on a 0, every hand passes to the next seat in the direction of play."""
        old = self.hands
        new: list[list[Card]] = [[] for _ in range(self.n)]
        for seat in range(self.n):
            new[self._next(seat)] = old[seat]
        self.hands = new
        self.declared = [False] * self.n
        self.exposed = None
        self.events.append(HandsRotated(self.direction))
        for seat in range(self.n):
            self.events.append(
                CardsReceived(seat, tuple(new[seat]), (seat - self.direction) % self.n)
            )

    def _deal_out_pile(self, seat: int) -> None:
        """K2-7: deal the cards under the blank to the opponents, one at a time."""
        under = self.discard[:-1]
        del self.discard[:-1]
        under.reverse()  # picked up from the top down
        opponents = [self._next(seat, k) for k in range(1, self.n)]
        per_seat = len(under) // len(opponents)
        dealt: list[list[Card]] = [[] for _ in range(self.n)]
        for i in range(per_seat * len(opponents)):
            dealt[opponents[i % len(opponents)]].append(under[i])
        rest = under[per_seat * len(opponents) :]
        self.draw_pile[:0] = rest
        counts = tuple(len(cards) for cards in dealt)
        self.events.append(PileDealtOut(seat, counts, len(rest)))
        for other in opponents:
            if dealt[other]:
                self._give_cards(other, dealt[other])
                self.events.append(CardsReceived(other, tuple(dealt[other]), seat))

    def _on_draw(self, action: Draw) -> None:
        _legal.check_draw(self, action)
        self._do_draw(action.seat)

    def _do_draw(self, seat: int) -> None:
        rules = self.rules
        until = rules.draw_until_playable or (
            rules.adults_draw_until_playable and not self.kids[seat]
        )
        got = self._draw_until_fits(seat) if until else self._draw(seat, 1, _CAUSE_DRAW)
        if got:
            card = got[-1]
            if _fits(self, card, self.hands[seat]):
                self.drawn_card = card
                self.phase = _DRAWN
                return
        self._passed(seat)
        self._settle((seat + self.direction) % self.n)

    def _on_pass(self, action: Pass) -> None:
        _legal.check_pass(self, action)
        self._passed(action.seat)
        self._settle(self._next(action.seat))

    def _on_choose_color(self, action: ChooseColor) -> None:
        _legal.check_choose_color(self, action)
        self._choose_color(action.seat, action.color)

    def _choose_color(self, seat: int, color: Color) -> None:
        self.color = color
        self.events.append(_COLOR_CHOSEN[seat][color])
        after = self.after_color
        if after == _AFTER_FIRST:
            self._settle(seat)
        elif after == _AFTER_ADVANCE:
            self._settle((seat + self.direction) % self.n)
        else:
            self._route_penalty(seat, after, 4)

    def _on_challenge(self, action: Challenge) -> None:
        _legal.check_challenge(self, action)
        challenger, suspect = action.seat, self.wd4_player
        bluff = self.wd4_bluff
        self.events.append(Challenged(challenger, suspect, bluff))
        self.events.append(HandRevealed(challenger, suspect, self.wd4_hand))
        total = self.pending_penalty
        self.pending_penalty = 0
        if bluff:
            # O21: the bluffer draws 4 instead; [decision] a stack below the bluff still
            # falls on the challenger, who then takes a normal turn.
            self._draw(suspect, 4, DrawCause.CHALLENGE)
            if total > 4:
                self._draw(challenger, total - 4, DrawCause.PENALTY)
            self._settle(self._next(self.penalty_source))
        else:
            self._draw(challenger, total + 2, DrawCause.CHALLENGE)
            self._after_penalty(challenger, skipped=self.penalty_skips_target)

    def _on_accept(self, action: AcceptPenalty) -> None:
        _legal.check_actor(self, action)  # AcceptPenalty is awaited in the PENALTY phase only
        self._take_penalty()

    def _on_declare_uno(self, action: DeclareUno) -> None:
        _legal.check_declare_uno(self, action)
        seat = action.seat
        self.declared[seat] = True
        if self.exposed == seat:
            self.exposed = None
        self.events.append(_UNO_DECLARED[seat])

    def _on_counter_uno(self, action: CounterUno) -> None:
        _legal.check_counter_uno(self, action)
        caller, target = action.seat, action.target
        caught = self.exposed == target
        self.events.append(CounterUnoCalled(caller, target, caught))
        if caught:
            self.exposed = None
            self._draw(target, 2, DrawCause.COUNTER_UNO)
            if self.phase is _TURN or self.phase is _PENALTY:
                self._settle(self.turn)  # O24's two cards may push a kid past the hand limit

    def _on_give(self, action: Give) -> None:
        _legal.check_give(self, action)
        seat, recipients = action.seat, action.recipients
        cards, self.gift_cards = self.gift_cards, []
        hand = self.hands[seat]
        for card in cards:
            hand.remove(card)
        self.events.append(Gave(seat, recipients))
        for card, r in zip(cards, recipients, strict=True):
            self._give_cards(r, [card])
            self.events.append(CardsReceived(r, (card,), seat))
        self._expose_if_single(seat)
        self._settle(self._next(seat))

    def _on_choose_target(self, action: ChooseTarget) -> None:
        _legal.check_choose_target(self, action)
        seat, target = action.seat, action.target
        amount, self.target_amount = self.target_amount, 0
        self._impose_penalty(seat, target, amount, skips_target=target == self._next(seat))

    def _on_swap(self, action: SwapHands) -> None:
        _legal.check_swap(self, action)
        seat, target = action.seat, action.target
        hands = self.hands
        hands[seat], hands[target] = hands[target], hands[seat]
        for s in (seat, target):
            self.declared[s] = False
            if self.exposed == s:
                self.exposed = None
        self.events.append(HandsSwapped(seat, target))
        self.events.append(CardsReceived(seat, tuple(hands[seat]), target))
        self.events.append(CardsReceived(target, tuple(hands[target]), seat))
        self._settle(self._next(seat))

    def _on_return(self, action: ReturnCard) -> None:
        _legal.check_return(self, action)
        seat, card = action.seat, action.card
        hand = self.hands[seat]
        hand.remove(card)
        self.draw_pile.insert(0, card)
        self.events.append(CardsReturned(seat, 1))
        limit = self.rules.hand_limit
        assert limit is not None
        if len(hand) <= limit:
            self.excess_queue.pop(0)
        if self.excess_queue:
            self.actor = self.excess_queue[0]
        else:
            self._settle(self.turn)

    def _on_timeout(self, action: Timeout) -> None:
        """T2: decide for a seat whose move timer ran out."""
        _legal.check_actor(self, action)
        seat = action.seat
        self.timeouts_in_row[seat] += 1
        count = self.timeouts_in_row[seat]
        self.events.append(TimedOut(seat, count))
        if count >= AUTOPILOT_AFTER and not self.autopilot[seat]:
            self.autopilot[seat] = True
            self.events.append(AutopilotChanged(seat, True))
        phase = self.phase
        if phase is _TURN:
            got = self._draw(seat, 1, DrawCause.TIMEOUT)
            if got and self.rules.must_play_drawn and _fits(self, got[0], self.hands[seat]):
                self.events.append(_PLAYED[seat][got[0].index])
                self._play(seat, got[0])
            else:
                self._passed(seat)
                self._settle(self._next(seat))
        elif phase is _DRAWN:
            card = self.drawn_card
            assert card is not None
            if _legal.must_play_drawn(self, seat):
                self.events.append(_PLAYED[seat][card.index])
                self._play(seat, card)
            else:
                self._passed(seat)
                self._settle(self._next(seat))
        elif phase is _PENALTY:
            self._take_penalty()
        # This seat's decisions that follow at once (a drawn wild's color, a KA4 target, the
        # cards over the hand limit) are part of the same timed-out move: one timeout, not two.
        while self.actor == seat and self.phase in _FOLLOW_UP_PHASES:
            decision = self.default_decision(seat)
            _HANDLERS[type(decision)](self, decision)

    def default_decision(self, seat: int) -> Action:
        """T2 decisions for the pickers: the color held most (ties in R, Y, G, B order), the
        next player as target or gift recipient, the smallest other hand for a swap."""
        phase = self.phase
        if phase is _CHOOSE_COLOR:
            hand = self.hands[seat]
            counts = [sum(1 for c in hand if c.color is color) for color in COLORS]
            return ChooseColor(seat, COLORS[counts.index(max(counts))])
        if phase is _CHOOSE_TARGET:
            return ChooseTarget(seat, self._next(seat))
        if phase is _GIFT:
            return Give(seat, tuple(self._next(seat) for _ in self.gift_cards))
        if phase is _EXCESS:
            # K2-9 [decision]: timeouts return their highest-value cards.
            return ReturnCard(seat, max(self.hands[seat], key=lambda c: (c.points, c.index)))
        if phase is _SWAP:
            others = [self._next(seat, k) for k in range(1, self.n)]
            return SwapHands(seat, min(others, key=lambda s: len(self.hands[s])))
        raise IllegalAction("T2", "No automatic decision in this phase.")

    # ----------------------------------------------------------------- legal actions

    legal_actions = _legal.legal_actions
    """Every action a seat may usefully take now (:func:`lanuno.engine.legal.legal_actions`,
    bound as a method without a wrapper: it runs on every decision)."""

    # ----------------------------------------------------------------- views

    @property
    def deadline(self) -> float | None:
        timer = self.rules.move_timer
        if timer is None or self.phase is _ROUND_OVER:
            return None
        return self.decision_started + timer

    def restart_move_timer(self, now: float) -> None:
        """The decision under way gets its whole move timer again, from ``now`` (a table
        restored from its journal, whose players were away while its host was down)."""
        self.decision_started = now

    def table_view(self) -> TableView:
        return TableView(self)

    def seat_view(self, seat: int) -> SeatView:
        return SeatView(self, seat)

    def card_count(self) -> int:
        """Every card of the deck, wherever it is (conserved by every action)."""
        return len(self.draw_pile) + len(self.discard) + sum(len(h) for h in self.hands)

    def fingerprint(self) -> tuple[object, ...]:
        """The whole mutable state as plain values, to show an action changed nothing."""
        return (
            tuple(tuple(h) for h in self.hands),
            tuple(self.draw_pile),
            tuple(self.discard),
            self.color,
            self.direction,
            self.turn,
            self.actor,
            self.phase,
            self.pending_penalty,
            self.penalty_target,
            self.drawn_card,
            tuple(self.gift_cards),
            tuple(self.excess_queue),
            tuple(self.declared),
            self.exposed,
            tuple(self.timeouts_in_row),
            tuple(self.autopilot),
            self.winner,
            len(self.events),
            tuple(self.scores),
            self.after_color,
            self.jump_window,
            self.target_amount,
            self.penalty_source,
            self.penalty_skips_target,
            self.wd4_player,
            self.wd4_bluff,
            self.wd4_hand,
            self.reshuffles,
            self.game_over,
        )


_HANDLERS: dict[type[Action], Callable[[Round, Any], None]] = {
    Play: Round._on_play,
    Draw: Round._on_draw,
    Pass: Round._on_pass,
    ChooseColor: Round._on_choose_color,
    Challenge: Round._on_challenge,
    AcceptPenalty: Round._on_accept,
    DeclareUno: Round._on_declare_uno,
    CounterUno: Round._on_counter_uno,
    Give: Round._on_give,
    ChooseTarget: Round._on_choose_target,
    SwapHands: Round._on_swap,
    ReturnCard: Round._on_return,
    Timeout: Round._on_timeout,
}
