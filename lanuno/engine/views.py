"""Projections of a round: what one seat may know, and what the shared screen may show.

A view reads the round through properties that expose only what its audience may know
(B2): a :class:`TableView` has no card of any hand and nothing of the draw pile but its
size; a :class:`SeatView` adds that seat's own hand and decisions. Views cost nothing to
build (bots get one per decision), and they are pinned to the moment they were made: once
the round moves on, reading one raises :class:`StaleView` rather than mixing two moments.
``snapshot()`` gives a view that stays readable forever (it reads a private copy).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lanuno.engine.actions import Action
from lanuno.engine.cards import Card, Color
from lanuno.engine.events import Event
from lanuno.engine.phases import Phase
from lanuno.engine.rules import Rules

if TYPE_CHECKING:
    from lanuno.engine.round import Round


class StaleView(RuntimeError):
    """The round has changed since this view was made; take a new view or a snapshot."""


class TableView:
    """Public state only."""

    __slots__ = ("_round", "_version")

    def __init__(self, rnd: Round) -> None:
        self._round = rnd
        self._version = rnd.version

    def _live(self) -> Round:
        rnd = self._round
        if rnd.version != self._version:
            raise StaleView("the round has moved on since this view was made")
        return rnd

    def snapshot(self) -> TableView:
        return TableView(self._live().clone())

    @property
    def rules(self) -> Rules:
        return self._live().rules

    @property
    def seats(self) -> int:
        return self._live().n

    @property
    def kids(self) -> tuple[bool, ...]:
        return self._live().kids

    @property
    def round_no(self) -> int:
        return self._live().round_no

    @property
    def dealer(self) -> int:
        return self._live().dealer

    @property
    def phase(self) -> Phase:
        return self._live().phase

    @property
    def turn(self) -> int:
        """The seat whose turn it is in the order of play (see :attr:`actor`)."""
        return self._live().turn

    @property
    def actor(self) -> int:
        """The seat whose decision the round is waiting for."""
        return self._live().actor

    @property
    def direction(self) -> int:
        return self._live().direction

    @property
    def top(self) -> Card:
        return self._live().discard[-1]

    @property
    def color(self) -> Color | None:
        """The current color (None only while a wild turned over first awaits its color)."""
        return self._live().color

    @property
    def pending_penalty(self) -> int:
        """Cards the actor will draw if they accept the pending penalty."""
        return self._live().pending_penalty

    @property
    def pending(self) -> int:
        """The wire's name for :attr:`pending_penalty` (``State.pending``)."""
        return self._live().pending_penalty

    @property
    def counts(self) -> tuple[int, ...]:
        return tuple(len(hand) for hand in self._live().hands)

    @property
    def declared(self) -> tuple[bool, ...]:
        return tuple(self._live().declared)

    @property
    def exposed(self) -> int | None:
        """The seat down to one card without having said UNO (O24), if any."""
        return self._live().exposed

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._live().scores)

    @property
    def draw_pile_size(self) -> int:
        return len(self._live().draw_pile)

    @property
    def discard(self) -> tuple[Card, ...]:
        """The discard pile, bottom first (public: every card in it was seen face up)."""
        return tuple(self._live().discard)

    @property
    def log(self) -> tuple[Event, ...]:
        """Public events of this round, oldest first."""
        return tuple(e for e in self._live().events if e.audience is None)

    @property
    def winner(self) -> int | None:
        return self._live().winner

    @property
    def deadline(self) -> float | None:
        return self._live().deadline

    @property
    def timeouts_in_row(self) -> tuple[int, ...]:
        return tuple(self._live().timeouts_in_row)

    @property
    def autopilot(self) -> tuple[bool, ...]:
        return tuple(self._live().autopilot)


class SeatView:
    """The public table plus what one seat alone may know: its hand and its decisions."""

    __slots__ = ("_legal", "_round", "_version", "seat")

    def __init__(self, rnd: Round, seat: int) -> None:
        self.seat = seat
        self._round = rnd
        self._version = rnd.version
        self._legal: tuple[Action, ...] | None = None

    def _live(self) -> Round:
        rnd = self._round
        if rnd.version != self._version:
            raise StaleView("the round has moved on since this view was made")
        return rnd

    @property
    def table(self) -> TableView:
        """The public table at the same moment."""
        return TableView(self._live())

    def snapshot(self) -> SeatView:
        return SeatView(self._live().clone(), self.seat)

    # hand, legal and my_turn are read on every bot decision: they check the version
    # themselves rather than through _live() (one call fewer each).

    @property
    def hand(self) -> tuple[Card, ...]:
        rnd = self._round
        if rnd.version != self._version:
            raise StaleView("the round has moved on since this view was made")
        return tuple(rnd.hands[self.seat])

    @property
    def legal(self) -> tuple[Action, ...]:
        """What this seat may do now (the interface highlights these; bots choose from them)."""
        rnd = self._round
        if rnd.version != self._version:
            raise StaleView("the round has moved on since this view was made")
        legal = self._legal
        if legal is None:
            legal = self._legal = tuple(rnd.legal_actions(self.seat))
        return legal

    @property
    def my_turn(self) -> bool:
        """Whether the round is waiting for this seat's decision."""
        rnd = self._round
        if rnd.version != self._version:
            raise StaleView("the round has moved on since this view was made")
        return rnd.actor == self.seat

    @property
    def drawn(self) -> Card | None:
        """In the DRAWN phase, for the actor: the card it may still play."""
        rnd = self._live()
        return rnd.drawn_card if rnd.actor == self.seat and rnd.phase is Phase.DRAWN else None

    @property
    def gift(self) -> tuple[Card, ...]:
        """In the GIFT phase, for the actor: the cards it must hand out."""
        rnd = self._live()
        if rnd.actor == self.seat and rnd.phase is Phase.GIFT:
            return tuple(rnd.gift_cards)
        return ()

    @property
    def private_log(self) -> tuple[Event, ...]:
        """Events only this seat saw this round (its draws, cards received, a revealed hand)."""
        return tuple(e for e in self._live().events if e.audience == self.seat)
