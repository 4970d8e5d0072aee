"""What a bot is given: a frozen observation of one seat's moment of decision (B2).

A :class:`SeatView` reads through to the live round, so anything reachable from it (the
round, the other hands, the draw pile, the shuffler and its seed) is one attribute away.
An :class:`Observation` is plain data copied out at the moment of decision: the seat's own
hand, the public table, the public events of the round and the seat's own private events,
and the legal actions. Nothing in it refers back to the round; a bot that is given only an
observation is honest by construction, not by discipline.

Built once per decision, so it is kept cheap: named tuples (construction is one C call),
and the public log is filtered incrementally per round instead of once per decision.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, NamedTuple

from lanuno.engine.actions import Action
from lanuno.engine.cards import Card, Color
from lanuno.engine.events import Event
from lanuno.engine.phases import Phase
from lanuno.engine.rules import Rules
from lanuno.engine.views import SeatView

if TYPE_CHECKING:
    from lanuno.engine.round import Round


class PublicTable(NamedTuple):
    """Everything any seat (and the shared screen) may know, as values."""

    rules: Rules
    seats: int
    kids: tuple[bool, ...]
    round_no: int
    dealer: int
    phase: Phase
    turn: int
    actor: int
    direction: int
    top: Card
    color: Color | None
    pending: int
    counts: tuple[int, ...]
    declared: tuple[bool, ...]
    exposed: int | None
    scores: tuple[int, ...]
    draw_pile_size: int
    discard: tuple[Card, ...]
    """Bottom first: every card in it was seen face up."""
    log: tuple[Event, ...]
    """Public events of this round, oldest first."""
    winner: int | None
    stalled: int
    """With a hand limit (K1-5): the turns in a row that ended without a card played."""


class Observation(NamedTuple):
    """One seat's moment of decision: its hand, its own events and choices, the table."""

    seat: int
    hand: tuple[Card, ...]
    legal: tuple[Action, ...]
    drawn: Card | None
    """In the DRAWN phase, for the actor: the card it may still play."""
    gift: tuple[Card, ...]
    """In the GIFT phase, for the actor: the cards it must hand out."""
    private_log: tuple[Event, ...]
    """Events only this seat saw this round (its draws, cards received, a revealed hand)."""
    table: PublicTable

    @property
    def my_turn(self) -> bool:
        return self.table.actor == self.seat


class _RoundCache:
    """Per round: the events scanned so far, split by audience (public, then per seat), and
    the public table of the round's current moment, shared by every seat that observes it
    (the out-of-turn chances of all seats, then the actor, see the same table)."""

    __slots__ = ("events", "private", "public", "scanned", "table", "version")

    def __init__(self, events: list[Event], seats: int) -> None:
        self.events = events
        self.scanned = 0
        self.public: list[Event] = []
        self.private: list[list[Event]] = [[] for _ in range(seats)]
        self.table: PublicTable | None = None
        self.version = -1
        """The round's ``version`` (and event count) ``table`` was built at."""

    def update(self) -> None:
        events = self.events
        public, private = self.public, self.private
        for event in events[self.scanned :]:
            audience = event.audience
            if audience is None:
                public.append(event)
            else:
                private[audience].append(event)
        self.scanned = len(events)


_CACHES: weakref.WeakKeyDictionary[Round, _RoundCache] = weakref.WeakKeyDictionary()
_last: list[tuple[Round, _RoundCache] | None] = [None]
"""The round asked about last: the common case (one round driven decision after decision)
skips the weak dictionary."""


def _cache(rnd: Round) -> _RoundCache:
    last = _last[0]
    if last is not None and last[0] is rnd:
        cache = last[1]
    else:
        got = _CACHES.get(rnd)
        cache = got if got is not None else _RoundCache(rnd.events, rnd.n)
        _CACHES[rnd] = cache
        _last[0] = (rnd, cache)
    if cache.events is not rnd.events or cache.scanned > len(rnd.events):
        cache = _RoundCache(rnd.events, rnd.n)  # a clone or a rewritten log: start again
        _CACHES[rnd] = cache
        _last[0] = (rnd, cache)
    return cache


_new = tuple.__new__


def _public_table(rnd: Round, cache: _RoundCache) -> PublicTable:
    """The round's public table now: built once per moment (``version`` and event count:
    only ``apply`` moves a round on) and shared by the seats that observe it."""
    stamp = rnd.version * 65536 + len(rnd.events)
    table = cache.table
    if table is not None and cache.version == stamp:
        return table
    cache.update()
    # tuple.__new__ rather than the named tuple's own constructor: one C call.
    table = cache.table = _new(
        PublicTable,
        (
            rnd.rules,
            rnd.n,
            rnd.kids,
            rnd.round_no,
            rnd.dealer,
            rnd.phase,
            rnd.turn,
            rnd.actor,
            rnd.direction,
            rnd.discard[-1],
            rnd.color,
            rnd.pending_penalty,
            tuple(map(len, rnd.hands)),
            tuple(rnd.declared),
            rnd.exposed,
            tuple(rnd.scores),
            len(rnd.draw_pile),
            tuple(rnd.discard),
            tuple(cache.public),
            rnd.winner,
            rnd.stalled,
        ),
    )
    cache.version = stamp
    return table


def observe_round(rnd: Round, seat: int) -> Observation:
    """The observation of ``seat`` now (the one place that reads the round for a bot)."""
    cache = _cache(rnd)
    table = _public_table(rnd, cache)
    phase = table.phase
    mine = table.actor == seat
    return _new(
        Observation,
        (
            seat,
            tuple(rnd.hands[seat]),
            tuple(rnd.legal_actions(seat)),
            rnd.drawn_card if mine and phase is Phase.DRAWN else None,
            tuple(rnd.gift_cards) if mine and phase is Phase.GIFT else (),
            tuple(cache.private[seat]),
            table,
        ),
    )


def observe(view: SeatView) -> Observation:
    """The observation behind a (current) seat view."""
    return observe_round(view._live(), view.seat)
