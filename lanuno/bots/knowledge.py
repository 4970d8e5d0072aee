"""Card reading from what a seat may know (B2): its hand, the discard pile, the public log,
and its own private events.

:func:`read_table` replays the round's events once per decision and returns a
:class:`TableKnowledge`:

* ``unseen``: the cards this seat has not seen (the deck minus its hand and the discard);
* ``lacks``: what each opponent's hand *surely* does not hold. Only the rules make a draw
  proof: where drawing is allowed only when nothing fits (``voluntary_draw`` off), a draw
  shows the hand held no card of the color, of the rank, nor a wild. Where a player may draw
  while holding a playable card (O14, the official rules), a draw proves nothing. The card
  drawn then spoils the proof unless the rules make a fitting drawn card be played at once
  (so a pass after the draw shows that card did not fit either); otherwise ``spare`` counts
  the cards that may break it;
* ``readings``: what each opponent *probably* lacked at each of its draws, whether or not
  the rules made it proof (most players draw only when nothing fits, and keep a drawn card
  only when it does not fit). Each reading binds the hand held at its draw, not the cards
  received since: its ``spare`` counts those, less the ones since played that it excludes;
  a card played that it excludes with no spare left disproves it (that player draws while
  holding a fitting card), and it is dropped. They only bias the sampled worlds, never a
  sure conclusion;
* ``likely``: ``lacks`` plus the readings that bind all but at most ``LIKELY_SPARE`` cards
  of the hand, for the heuristics (wild colors, the order of the options, bluff odds);
* ``known``: cards an opponent surely holds, from a hand shown to this seat after its
  challenge (O21), kept until that seat plays them or its hand changes owner;
* ``named``: the last color each opponent chose for a wild (it probably holds that color).

Every fact stays true only until the seat gets cards it did not choose, or its hand moves.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from lanuno.engine.cards import ALL_FACES, Card, Color, Rank, build_deck
from lanuno.engine.events import (
    CardsReturned,
    CardTurned,
    Challenged,
    ColorChosen,
    DrawCause,
    Drew,
    Event,
    Gave,
    HandRevealed,
    HandsRotated,
    HandsSwapped,
    Passed,
    PileDealtOut,
    Played,
    RoundStarted,
    UnoDeclared,
)
from lanuno.engine.observation import Observation
from lanuno.engine.rules import Rules

FACES = len(ALL_FACES)
WILD_READING_DANGER = 2
"""With an opponent down to this many cards, players play wilds to attack: a wild then
says nothing about the colored cards they hold."""
LIKELY_SPARE = 1
"""Readings with at most this many cards received since count towards ``likely``."""


@dataclass(frozen=True, slots=True)
class Lack:
    """A hand holds no card of these colors or ranks, nor a wild, except for up to
    ``spare`` cards it received since the evidence (a kept drawn card)."""

    colors: frozenset[Color] = frozenset()
    ranks: frozenset[Rank] = frozenset()
    wilds: bool = False
    spare: int = 0

    def excludes(self, card: Card) -> bool:
        if card.color is None:
            return self.wilds
        return card.color in self.colors or card.rank in self.ranks

    def merge(self, color: Color | None, rank: Rank) -> Lack:
        colors = self.colors | {color} if color is not None else self.colors
        return Lack(colors, self.ranks | {rank}, True, self.spare)

    def merge_lack(self, other: Lack) -> Lack:
        return Lack(
            self.colors | other.colors,
            self.ranks | other.ranks,
            self.wilds or other.wilds,
            self.spare + other.spare,
        )

    @property
    def empty(self) -> bool:
        return not (self.colors or self.ranks or self.wilds)

    def holds_for(self, hand: Iterable[Card]) -> bool:
        """Whether ``hand`` is consistent with this lack."""
        return sum(1 for card in hand if self.excludes(card)) <= self.spare


NO_LACK = Lack()


@dataclass(frozen=True, slots=True)
class WildDrawFourPlay:
    """The last Wild Draw Four of the log: who played it and the color it replaced."""

    seat: int
    prior_color: Color | None
    hand_after: int
    """Cards its player held right after playing it (for the bluff odds)."""


@dataclass(frozen=True, slots=True)
class TableKnowledge:
    unseen: tuple[int, ...]
    """How many copies of each face (by ``Card.index``) this seat has not seen."""
    lacks: tuple[Lack, ...]
    """Per seat, what its hand surely does not hold."""
    likely: tuple[Lack, ...]
    """Per seat, what its hand probably does not hold, but for a card or so (includes
    ``lacks``)."""
    known: tuple[tuple[Card, ...], ...]
    """Per seat, cards it surely holds."""
    named: tuple[Color | None, ...]
    """Per seat, the last color it named for a wild while its hand stayed its own."""
    last_wild_draw_four: WildDrawFourPlay | None
    known_honest: frozenset[int]
    """Seats whose Wild Draw Four was challenged and found legal this round."""
    known_bluffers: frozenset[int]
    readings: tuple[tuple[Lack, ...], ...] = ()
    """Per seat, what it probably lacked at each of its draws, oldest first; ``spare``: how
    many of the cards it holds now may break that reading (received since)."""

    def unseen_cards(self) -> list[Card]:
        return [ALL_FACES[i] for i, k in enumerate(self.unseen) for _ in range(k)]

    def unseen_of(self, color: Color) -> int:
        return sum(k for i, k in enumerate(self.unseen) if ALL_FACES[i].color is color)


def deck_counts(rules: Rules) -> list[int]:
    counts = [0] * FACES
    for card in build_deck(rules.deck):
        counts[card.index] += 1
    return counts


def unseen_counts(rules: Rules, hand: Iterable[Card], discard: Iterable[Card]) -> list[int]:
    counts = deck_counts(rules)
    for card in hand:
        counts[card.index] -= 1
    for card in discard:
        counts[card.index] -= 1
    return counts


class _Reader:
    """The per-seat facts, updated event by event."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.sure = [NO_LACK] * n
        self.known: list[list[Card]] = [[] for _ in range(n)]
        self.named: list[Color | None] = [None] * n
        self.readings: list[list[Lack]] = [[] for _ in range(n)]

    def received(self, seat: int, count: int) -> None:
        """The seat got ``count`` cards nobody saw: each reading may be broken by them."""
        self.readings[seat] = [_with_spare(r, r.spare + count) for r in self.readings[seat]]

    def played(self, seat: int, card: Card) -> None:
        """A card the seat played: a reading it breaks spends a spare card, or, with none
        left, loses the part the card disproves (the player drew while holding it: a
        Wild Draw Four kept for later, say)."""
        kept = []
        for r in self.readings[seat]:
            if r.excludes(card):
                if r.spare:
                    r = _with_spare(r, r.spare - 1)
                elif card.color is None:
                    r = Lack(r.colors, r.ranks, False)
                else:
                    r = Lack(r.colors - {card.color}, r.ranks - {card.rank}, r.wilds)
            if not r.empty:
                kept.append(r)
        self.readings[seat] = kept

    def reset(self, seat: int) -> None:
        """The seat got cards it did not choose: its gaps may be filled."""
        self.sure[seat] = NO_LACK

    def move_hands(self, moves: dict[int, int]) -> None:
        """Hands change owners (seat -> new seat): the facts follow the hands."""
        sure, known, readings = list(self.sure), list(self.known), list(self.readings)
        for src, dst in moves.items():
            self.sure[dst], self.known[dst] = sure[src], known[src]
            self.readings[dst] = readings[src]
            self.named[dst] = None  # a named color says what its namer held, not the hand


@dataclass(frozen=True, slots=True)
class _Draw:
    """A draw on a turn, read until the drawer plays the drawn card or passes."""

    seat: int
    count: int
    older: Lack
    """What the hand surely lacked before the draw."""
    fresh: Lack
    """What the draw proves the hand before it lacked (empty when it proves nothing)."""

    def settle(self, *, played: bool, must_play: bool) -> Lack:
        """The sure gaps of the hand after the draw. Every drawn card but the last fitted
        nothing (T7 draws until one fits), so it respects ``fresh`` but maybe not ``older``;
        the last one was played, or kept: kept, it fitted nothing if it had to be played."""
        if self.fresh.empty and self.older.empty:
            return NO_LACK
        last_unknown = 0 if played or must_play else 1
        before = self.older.merge_lack(self.fresh)
        if self.older.empty:
            return _with_spare(self.fresh, self.fresh.spare + last_unknown)
        extra = self.count - (1 if played else 0)
        if not played and must_play:
            extra = self.count  # they fitted nothing now, but may break the older gaps
        return _with_spare(before, before.spare + extra)


def _with_spare(lack: Lack, spare: int) -> Lack:
    return Lack(lack.colors, lack.ranks, lack.wilds, spare)


def _settle_draw(facts: _Reader, drawing: _Draw, event: Event, must_play: list[bool]) -> None:
    """The event after a turn's draw: the drawer played (the drawn card) or passed, which
    settles what its hand lacks; anything else leaves it unsettled."""
    seat = drawing.seat
    kind = type(event)
    if kind is not Played and kind is not Passed:
        return
    if event.seat != seat:  # type: ignore[attr-defined]
        return
    played = kind is Played
    facts.sure[seat] = drawing.settle(played=played, must_play=must_play[seat])
    # The reading of this draw: a drawn card kept did not fit (as most players keep one);
    # drawing until one fits (T7), the last one kept did fit. One played is the last drawn
    # (it fitted): the play, read next, spends the spare left for it.
    readings = facts.readings[seat]
    if readings:
        spare = 1 if played or drawing.count > 1 else 0
        readings[-1] = _with_spare(readings[-1], spare)


_HAND_EVENTS = (Gave, HandsSwapped, HandsRotated, PileDealtOut)
"""Events that give cards nobody chose or move whole hands: the facts follow."""


def _follow_hands(facts: _Reader, event: Event, n: int) -> None:
    if isinstance(event, Gave):
        for r in event.recipients:
            facts.reset(r)
            facts.received(r, 1)
    elif isinstance(event, HandsSwapped):
        facts.move_hands({event.seat: event.target, event.target: event.seat})
    elif isinstance(event, HandsRotated):
        facts.move_hands({seat: (seat + event.direction) % n for seat in range(n)})
    elif isinstance(event, PileDealtOut):
        for seat, got in enumerate(event.counts):
            if got:
                facts.reset(seat)
                facts.received(seat, got)


def _wild_chosen_calmly(play: Played, counts: list[int]) -> bool:
    """A wild played on a turn (not jumped in) while no other seat was near UNO: read like a
    draw, as most players keep their wilds until nothing else fits."""
    others = (count for seat, count in enumerate(counts) if seat != play.seat)
    return play.card.color is None and not play.jump_in and min(others) > WILD_READING_DANGER


def _must_play_drawn(view: Observation) -> list[bool]:
    """Per seat, whether a drawn card that fits must be played (so a pass proves it did
    not fit)."""
    rules = view.table.rules
    return [
        rules.must_play_drawn or (rules.adults_draw_until_playable and not kid)
        for kid in view.table.kids
    ]


def read_table(view: Observation) -> TableKnowledge:
    table = view.table
    rules = table.rules
    n = table.seats
    must_play = _must_play_drawn(view)
    proof = not rules.voluntary_draw
    facts = _Reader(n)
    color: Color | None = None
    top_rank = Rank.ZERO
    last_wd4: WildDrawFourPlay | None = None
    # A turn's draw, until it is settled.
    drawing: _Draw | None = None
    # Hand sizes as the log goes, for the wild readings (not followed through the rare
    # events that move cards between hands).
    counts = list(table.counts)
    counted = False
    for event in table.log:
        kind = type(event)
        drawn_play = False
        if drawing is not None and kind is not UnoDeclared:
            drawn_play = kind is Played and event.seat == drawing.seat  # type: ignore[attr-defined]
            _settle_draw(facts, drawing, event, must_play)
            drawing = None
        if kind is Played:
            assert isinstance(event, Played)
            card = event.card
            seat = event.seat
            facts.played(seat, card)
            if counted and not drawn_play and _wild_chosen_calmly(event, counts):
                # Most players keep their wilds for when no colored card fits.
                colors = frozenset((color,)) if color is not None else frozenset()
                facts.readings[seat].append(Lack(colors, frozenset((top_rank,)), False))
            counts[seat] -= 1
            if card.rank is Rank.WILD_DRAW_FOUR:
                last_wd4 = WildDrawFourPlay(event.seat, color, -1)
            top_rank = card.rank
            if card.color is not None:
                color = card.color
        elif kind is ColorChosen:
            assert isinstance(event, ColorChosen)
            color = event.color
            facts.named[event.seat] = event.color
        elif kind is CardTurned:
            assert isinstance(event, CardTurned)
            color, top_rank = event.card.color, event.card.rank
        elif kind is RoundStarted:
            assert isinstance(event, RoundStarted)
            counts = [event.hand_size] * n
            counted = True
        elif kind is CardsReturned:
            assert isinstance(event, CardsReturned)
            counts[event.seat] -= event.count
        elif kind is Drew:
            assert isinstance(event, Drew)
            counts[event.seat] += event.count
            # (Any earlier draw was settled above, by this very event.)
            drawing = _read_draw(facts, event, color, top_rank, proof=proof)
        elif kind in _HAND_EVENTS:
            _follow_hands(facts, event, n)
            counted = False
    if drawing is not None:  # the drawer still decides (its own turn, or an UNO call)
        facts.sure[drawing.seat] = drawing.settle(played=False, must_play=False)
    return _knowledge(view, facts, last_wd4)


def _read_draw(
    facts: _Reader, event: Drew, color: Color | None, top_rank: Rank, *, proof: bool
) -> _Draw | None:
    """A seat received cards from the pile: a draw on its turn (returned, to be settled by
    what the seat does next) reads as a gap; a penalty's cards end the sure gaps."""
    seat = event.seat
    facts.received(seat, event.count)
    if event.cause is DrawCause.DRAW:
        fresh = NO_LACK.merge(color, top_rank) if proof else NO_LACK
        drawing = _Draw(seat, event.count, facts.sure[seat], fresh)
        # Until the draw settles, the drawn cards are unknown: no sure gap, and the new
        # reading may be broken by every drawn card.
        facts.sure[seat] = NO_LACK
        facts.readings[seat].append(_with_spare(NO_LACK.merge(color, top_rank), event.count))
        return drawing
    if event.count:
        facts.reset(seat)
    return None


def _knowledge(
    view: Observation, facts: _Reader, last_wd4: WildDrawFourPlay | None
) -> TableKnowledge:
    """What ``read_table`` concludes once the log is read: the hand a challenge showed,
    the last Wild Draw Four with its player's hand size now, the unseen cards."""
    table = view.table
    honest: set[int] = set()
    bluffers: set[int] = set()
    _read_reveals(view, facts, last_wd4, honest, bluffers)
    if last_wd4 is not None:
        last_wd4 = WildDrawFourPlay(
            last_wd4.seat, last_wd4.prior_color, table.counts[last_wd4.seat]
        )
    unseen = unseen_counts(table.rules, view.hand, table.discard)
    me = view.seat
    facts.sure[me] = NO_LACK
    facts.known[me] = []
    facts.readings[me] = []
    merged = [
        _union(sure, _whole_hand(readings))
        for sure, readings in zip(facts.sure, facts.readings, strict=True)
    ]
    return TableKnowledge(
        tuple(unseen),
        tuple(facts.sure),
        tuple(merged),
        tuple(tuple(k) for k in facts.known),
        tuple(facts.named),
        last_wd4,
        frozenset(honest),
        frozenset(bluffers),
        tuple(tuple(readings) for readings in facts.readings),
    )


def _whole_hand(readings: list[Lack]) -> Lack:
    """What the readings say the hand mostly lacks (for the heuristics)."""
    out = NO_LACK
    for r in readings:
        if r.spare <= LIKELY_SPARE:
            out = out.merge_lack(r)
    return Lack(out.colors, out.ranks, out.wilds)


def _union(sure: Lack, likely: Lack) -> Lack:
    if sure.empty:
        return likely
    return Lack(
        sure.colors | likely.colors,
        sure.ranks | likely.ranks,
        sure.wilds or likely.wilds,
        sure.spare,
    )


def _read_reveals(
    view: Observation,
    facts: _Reader,
    last_wd4: WildDrawFourPlay | None,
    honest: set[int],
    bluffers: set[int],
) -> None:
    """O21: a hand shown to this seat after its challenge. The shown cards stay known while
    the public log shows the owner has not played them nor lost its hand since."""
    table = view.table
    reveals = [e for e in view.private_log if type(e) is HandRevealed]
    if not reveals:
        return
    reveal = reveals[-1]
    assert isinstance(reveal, HandRevealed)
    if last_wd4 is not None and reveal.owner == last_wd4.seat:
        held = any(c.color is last_wd4.prior_color for c in reveal.cards)
        (bluffers if held else honest).add(reveal.owner)
    # Replay the public log after the challenge for the owner's hand.
    owner: int | None = reveal.owner
    cards = Counter(reveal.cards)
    log = table.log
    start = max(
        (
            i
            for i, e in enumerate(log)
            if type(e) is Challenged and e.challenger == view.seat and e.target == reveal.owner
        ),
        default=len(log),
    )
    for event in log[start + 1 :]:
        kind = type(event)
        if kind is Played and event.seat == owner:  # type: ignore[attr-defined]
            card = event.card  # type: ignore[attr-defined]
            if cards[card]:
                cards[card] -= 1
        elif kind is HandsSwapped:
            assert isinstance(event, HandsSwapped)
            if owner in (event.seat, event.target):
                owner = event.target if owner == event.seat else event.seat
        elif kind is HandsRotated:
            assert isinstance(event, HandsRotated)
            if owner is not None:
                owner = (owner + event.direction) % table.seats
        elif kind is CardsReturned and event.seat == owner:  # type: ignore[attr-defined]
            owner = None
    if owner is not None and owner != view.seat:
        facts.known[owner] = list(cards.elements())
