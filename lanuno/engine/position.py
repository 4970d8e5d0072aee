"""A round written down: every fact the rules need, as a value and as one line of text.

Like a chess FEN, a *position* lets tests, bots and other programs set up a round without
a prepared shuffle or private fields, and write one down to look at or to store:

>>> pos = Position.parse("official hands=R7,G+2/B5,Y1 discard=B3,R3 draw=G9,W color=R")
>>> pos.hands[1], pos.top, pos.draw[0], pos.turn, pos.phase.value
((Card.parse('B5'), Card.parse('Y1')), Card.parse('R3'), Card.parse('G9'), 0, 'turn')
>>> str(pos)
'official hands=R7,G+2/B5,Y1 discard=B3,R3 draw=G9,W color=R direction=cw phase=turn turn=0'
>>> Position.parse(str(pos)) == pos
True

:meth:`lanuno.engine.round.Round.from_position` builds a live round from a position (or
its text) and :meth:`~lanuno.engine.round.Round.to_position` writes one down; a round and
the round rebuilt from its position accept the same actions and answer them alike.

The text form
-------------
The first word is the rules: a preset name, then ``:`` and the options that differ from
the preset, comma-separated, in :func:`lanuno.engine.rules.parse_option` spelling
(``official:stacking=on,target=200``). Every other word is ``key=value``, in any order;
:meth:`Position.__str__` writes them in the order below and leaves out the optional ones
that hold their default. Cards are written in card notation (``R7``, ``W+4``), joined by
``,``; ``-`` is an empty list or "none"; seats are numbers from 0.

=============  =========================================================================
``hands``      every seat's hand, seat 0 first, separated by ``/`` (required)
``discard``    the discard pile, bottom first: the last card is the top card (required)
``draw``       the draw pile, the next card drawn first (required; ``-`` when empty)
``color``      the current color ``R Y G B``; ``-`` while a wild turned over first awaits
               its color (required)
``direction``  ``cw`` (seat numbers go up) or ``ccw``; default ``cw``
``phase``      a :class:`~lanuno.engine.phases.Phase` value; default ``turn``
``turn``       the seat whose turn it is in the order of play; default 0
``actor``      the seat whose decision the round waits for; default: the ``turn`` seat
``kids``       the seats that play by the kids' rules (KA1-KA5)
``penalty``    a pending Draw Two / Wild Draw Four penalty: ``AMOUNT:SOURCE>TARGET``, and
               ``:noskip`` when play resumes after the source rather than after the
               target (KA4 aimed at a seat further on)
``wd4``        the last Wild Draw Four, for a challenge (O21): ``SEAT:bluff:HAND`` or
               ``SEAT:honest:HAND``, the hand as it was right after the play; written
               while a Wild Draw Four is the top card at a table that allows challenges
``drawn``      in the ``drawn`` phase: the card just drawn, which may be played
``then``       in the ``choose_color`` phase: what the color opens: ``advance`` (the next
               turn), ``first`` (a wild turned over first: the first player plays),
               ``penalty``, ``target`` (KA4) or ``all_adults`` (KA5)
``gift``       in the ``gift`` phase: the cards the actor must give away (K2-4)
``excess``     in the ``excess`` phase: the seats still over the hand limit, actor first
``jump``       with jump-in (T6): the seat that played the top card, while the window is
               open
``uno``        the seats that said UNO for their current hand (O23)
``exposed``    the seat that may be caught by Counter-UNO (O24)
``timeouts``   consecutive timeouts per seat (T2), when any
``autopilot``  the seats a bot plays after repeated timeouts (T3)
``scores``     the game's scores per seat so far, when any
``winner``     in the ``round_over`` phase: who went out
``round``      the round number (default 1); ``dealer`` the dealer (default 0);
``reshuffles`` how many times the discard pile became the draw pile this round (these
               name the shuffles, so a seeded shuffler shuffles alike)
``stalled``    with a hand limit (K1-5): the turns in a row that ended without a card
               played
=============  =========================================================================

A position may hold fewer cards than the deck (the missing cards are out of play, which
tests of exhausted piles use) but never more copies of a card than the deck has.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from lanuno.engine.cards import (
    ALL_FACES,
    COLORS,
    WILD_DRAW_FOUR,
    Card,
    Color,
    DeckKind,
    Rank,
    build_deck,
    parse_card,
)
from lanuno.engine.phases import Phase
from lanuno.engine.rules import (
    MAX_SEATS,
    MIN_SEATS,
    Rules,
    WildDrawFour,
    option_words,
    rules_from_words,
)

AFTER_COLOR = ("advance", "penalty", "first", "target", "all_adults")
"""What choosing a color opens (the ``then`` field), in the engine's internal order."""


def _face_counts(kind: DeckKind) -> tuple[int, ...]:
    counts = [0] * len(ALL_FACES)
    for card in build_deck(kind):
        counts[card.index] += 1
    return tuple(counts)


_PENALTY_RANKS = (Rank.DRAW_TWO, Rank.WILD_DRAW_FOUR)
_DECK_COUNTS = {kind: _face_counts(kind) for kind in DeckKind}
"""How many of each face every deck holds."""
"""How many of each face every deck holds."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Position:
    """Everything that decides how a round goes on from here (see the module docstring).

    Build one with keywords (seat-indexed tuples may be left empty for "none"/zeros),
    from text with :meth:`parse`, or from a live round with ``Round.to_position()``.
    The clock (when the current decision started) is not part of a position."""

    rules: Rules
    hands: tuple[tuple[Card, ...], ...]
    discard: tuple[Card, ...]
    """Bottom first: ``discard[-1]`` is the top card."""
    draw: tuple[Card, ...] = ()
    """The next card drawn first."""
    color: Color | None
    direction: int = 1
    phase: Phase = Phase.TURN
    turn: int = 0
    actor: int | None = None
    """None means the ``turn`` seat."""
    kids: tuple[bool, ...] = ()
    pending_penalty: int = 0
    penalty_source: int = 0
    penalty_target: int = 0
    penalty_skips_target: bool = True
    wd4_player: int = 0
    wd4_bluff: bool = False
    wd4_hand: tuple[Card, ...] = ()
    drawn: Card | None = None
    after_color: str = "advance"
    gift: tuple[Card, ...] = ()
    excess: tuple[int, ...] = ()
    jump_window: int | None = None
    declared: tuple[bool, ...] = ()
    exposed: int | None = None
    timeouts: tuple[int, ...] = ()
    autopilot: tuple[bool, ...] = ()
    scores: tuple[int, ...] = ()
    winner: int | None = None
    round_no: int = 1
    dealer: int = 0
    reshuffles: int = 0
    stalled: int = 0

    def __post_init__(self) -> None:
        n = len(self.hands)
        if not MIN_SEATS <= n <= MAX_SEATS:
            raise ValueError(f"a table has {MIN_SEATS} to {MAX_SEATS} seats (O1), not {n}")
        # Normalise: tuples everywhere, "none" seat tuples filled in, actor spelled out.
        fill = {
            "kids": False,
            "declared": False,
            "timeouts": 0,
            "autopilot": False,
            "scores": 0,
        }
        for name, zero in fill.items():
            value = tuple(getattr(self, name))
            if not value:
                value = (zero,) * n
            if len(value) != n:
                raise ValueError(f"{name} needs one entry per seat ({n}), not {len(value)}")
            object.__setattr__(self, name, value)
        object.__setattr__(self, "hands", tuple(tuple(h) for h in self.hands))
        for name in ("discard", "draw", "wd4_hand", "gift", "excess"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        object.__setattr__(self, "phase", Phase(self.phase))
        if not self.discard:
            raise ValueError("the discard pile needs a top card")
        if self.actor is None:
            object.__setattr__(self, "actor", self.turn)
        if self.after_color not in AFTER_COLOR:
            raise ValueError(f"then: one of {', '.join(AFTER_COLOR)}, not {self.after_color!r}")
        self._forget_dead_facts()
        self._check()

    def _forget_dead_facts(self) -> None:
        """Facts that no rule reads in this position take their defaults, so that two
        positions are equal exactly when the rounds they describe go on alike."""
        phase, clear = self.phase, object.__setattr__
        if phase is not Phase.DRAWN:
            clear(self, "drawn", None)
        if phase is not Phase.CHOOSE_COLOR:
            clear(self, "after_color", "advance")
        if phase is not Phase.GIFT:
            clear(self, "gift", ())
        if phase is not Phase.EXCESS:
            clear(self, "excess", ())
        if not self.pending_penalty:
            clear(self, "penalty_source", 0)
            clear(self, "penalty_target", 0)
            clear(self, "penalty_skips_target", True)
        if not self.shows_wd4():
            clear(self, "wd4_player", 0)
            clear(self, "wd4_bluff", False)
            clear(self, "wd4_hand", ())
        if not self.rules.jump_in:
            clear(self, "jump_window", None)

    def _check(self) -> None:
        n = len(self.hands)

        def seat(name: str, value: int | None) -> None:
            if value is not None and not (type(value) is int and 0 <= value < n):
                raise ValueError(f"{name}: there is no seat {value!r} at a table of {n}")

        for name in ("turn", "actor", "exposed", "winner", "jump_window", "dealer"):
            seat(name, getattr(self, name))
        for s in self.excess:
            seat("excess", s)
        if self.direction not in (1, -1):
            raise ValueError("direction is 1 (cw) or -1 (ccw)")
        if self.color is None and self.phase is not Phase.CHOOSE_COLOR:
            raise ValueError("only the choose_color phase may have no current color")
        if min(self.pending_penalty, self.reshuffles, self.stalled) < 0 or self.round_no < 1:
            raise ValueError("penalty, round, reshuffles and stalled turns cannot be negative")
        if self.pending_penalty:
            seat("penalty source", self.penalty_source)
            seat("penalty target", self.penalty_target)
        self._check_phase()
        self._check_cards()

    def _check_phase(self) -> None:
        """What each phase needs (its card, its queue, its winner)."""
        phase = self.phase
        if phase is Phase.PENALTY and not self.pending_penalty:
            raise ValueError("the penalty phase needs a pending penalty")
        if phase is Phase.DRAWN and self.drawn is None:
            raise ValueError("the drawn phase needs the drawn card")
        if phase is Phase.GIFT and not 1 <= len(self.gift) <= 2:
            raise ValueError("the gift phase needs the one or two cards to give")
        if phase is Phase.EXCESS and (not self.excess or self.excess[0] != self.actor):
            raise ValueError("the excess phase needs its queue of seats, the actor first")
        if phase is Phase.CHOOSE_TARGET and self.top.rank not in (
            Rank.DRAW_TWO,
            Rank.WILD_DRAW_FOUR,
        ):
            raise ValueError("the choose_target phase follows a Draw Two or Wild Draw Four")
        if (phase is Phase.ROUND_OVER) != (self.winner is not None):
            raise ValueError("a winner is named exactly when the phase is round_over")
        if self.winner is not None and self.hands[self.winner]:
            raise ValueError("the winner has no card left")
        if self.drawn is not None and self.drawn not in self.hands[self.actor_seat]:
            raise ValueError("the drawn card must be in the actor's hand")

    def _check_cards(self) -> None:
        # Card conservation, counted by face index (positions are built per bot world).
        left = list(_DECK_COUNTS[self.rules.deck])
        for pile in (self.draw, self.discard, *self.hands):
            for card in pile:
                left[card.index] -= 1
        if min(left) < 0:
            words = " ".join(f"{ALL_FACES[i].code}x{-k}" for i, k in enumerate(left) if k < 0)
            raise ValueError(f"more cards than the {self.rules.deck.value} deck holds: {words}")

    @property
    def actor_seat(self) -> int:
        """The actor (``actor`` spelled out: never None once built)."""
        return self.turn if self.actor is None else self.actor

    @property
    def seats(self) -> int:
        return len(self.hands)

    @property
    def top(self) -> Card:
        return self.discard[-1]

    def replace(self, **changes: object) -> Position:
        """A copy with some fields changed (checked again)."""
        return replace(self, **changes)  # type: ignore[arg-type]

    # ----------------------------------------------------------------- text

    def __str__(self) -> str:
        words = [rules_token(self.rules)]
        add = words.append
        add("hands=" + "/".join(_cards(hand) for hand in self.hands))
        add("discard=" + _cards(self.discard))
        add("draw=" + _cards(self.draw))
        add("color=" + (self.color.value if self.color else "-"))
        add("direction=" + ("cw" if self.direction == 1 else "ccw"))
        add("phase=" + self.phase.value)
        add(f"turn={self.turn}")
        if self.actor != self.turn:
            add(f"actor={self.actor}")
        if any(self.kids):
            add("kids=" + _seats(self.kids))
        if self.pending_penalty:
            skip = "" if self.penalty_skips_target else ":noskip"
            add(f"penalty={self.pending_penalty}:{self.penalty_source}>{self.penalty_target}{skip}")
        if self.shows_wd4():
            verdict = "bluff" if self.wd4_bluff else "honest"
            add(f"wd4={self.wd4_player}:{verdict}:{_cards(self.wd4_hand)}")
        if self.drawn is not None:
            add("drawn=" + self.drawn.code)
        self._phase_words(add)
        self._later_words(add)
        return " ".join(words)

    def _phase_words(self, add: Callable[[str], None]) -> None:
        """The words of the phase's own facts (then=, gift=, excess=)."""
        if self.phase is Phase.CHOOSE_COLOR:
            add("then=" + self.after_color)
        if self.phase is Phase.GIFT:
            add("gift=" + _cards(self.gift))
        if self.phase is Phase.EXCESS:
            add("excess=" + ",".join(str(s) for s in self.excess))

    def _later_words(self, add: Callable[[str], None]) -> None:
        """The words of the calls, timers, scores and round facts, when not the default."""
        if self.jump_window is not None:
            add(f"jump={self.jump_window}")
        if any(self.declared):
            add("uno=" + _seats(self.declared))
        if self.exposed is not None:
            add(f"exposed={self.exposed}")
        if any(self.timeouts):
            add("timeouts=" + ",".join(str(t) for t in self.timeouts))
        if any(self.autopilot):
            add("autopilot=" + _seats(self.autopilot))
        if any(self.scores):
            add("scores=" + ",".join(str(s) for s in self.scores))
        if self.winner is not None:
            add(f"winner={self.winner}")
        if self.round_no != 1:
            add(f"round={self.round_no}")
        if self.dealer:
            add(f"dealer={self.dealer}")
        if self.reshuffles:
            add(f"reshuffles={self.reshuffles}")
        if self.stalled:
            add(f"stalled={self.stalled}")

    def shows_wd4(self) -> bool:
        """Whether the challenge facts are live (and so written): a Wild Draw Four on top
        at a table where it can be challenged."""
        return self.top is WILD_DRAW_FOUR and self.rules.wild_draw_four is WildDrawFour.CHALLENGE

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read a position; anything wrong raises ValueError saying what."""
        words = text.split()
        if not words:
            raise ValueError("an empty position: it starts with the rules, e.g. 'official'")
        rules = parse_rules_token(words[0])
        values: dict[str, str] = {}
        for word in words[1:]:
            key, sep, value = word.partition("=")
            if not sep:
                raise ValueError(f"position fields are key=value, not {word!r}")
            if key not in _READERS:
                raise ValueError(f"unknown position field {key!r}: use {', '.join(_READERS)}")
            if key in values:
                raise ValueError(f"position field {key!r} given twice")
            values[key] = value
        for key in ("hands", "discard", "draw", "color"):
            if key not in values:
                raise ValueError(f"a position needs {key}=")
        n = len(values["hands"].split("/"))
        kwargs: dict[str, object] = {"rules": rules}
        for key, value in values.items():
            try:
                kwargs.update(_READERS[key](value, n))
            except ValueError as exc:
                raise ValueError(f"position field {key}={value}: {exc}") from None
        return cls(**kwargs)  # type: ignore[arg-type]


def rules_token(rules: Rules) -> str:
    """``official`` or ``official:stacking=on,target=200`` (options that differ)."""
    words = option_words(rules)
    return rules.preset + (":" + ",".join(words) if words else "")


def parse_rules_token(token: str) -> Rules:
    preset_name, _, options = token.partition(":")
    return rules_from_words(preset_name, [w for w in options.split(",") if w])


def _cards(cards: Iterable[Card]) -> str:
    return ",".join(card.code for card in cards) or "-"


def _seats(flags: Sequence[bool]) -> str:
    return ",".join(str(s) for s, flag in enumerate(flags) if flag)


def _read_cards(value: str) -> tuple[Card, ...]:
    if value == "-":
        return ()
    return tuple(parse_card(word) for word in value.split(","))


def _read_int(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"not a number: {value!r}") from None


def _read_seat_flags(value: str, n: int) -> tuple[bool, ...]:
    flags = [False] * n
    if value != "-":
        for word in value.split(","):
            seat = _read_int(word)
            if not 0 <= seat < n:
                raise ValueError(f"no seat {seat}")
            flags[seat] = True
    return tuple(flags)


def _read_ints(value: str) -> tuple[int, ...]:
    return () if value == "-" else tuple(_read_int(word) for word in value.split(","))


def _read_color(value: str) -> Color | None:
    if value == "-":
        return None
    for color in COLORS:
        if color.value == value.upper():
            return color
    raise ValueError("a color is R, Y, G or B (or - for none)")


def _read_direction(value: str) -> int:
    if value not in ("cw", "ccw"):
        raise ValueError("cw or ccw")
    return 1 if value == "cw" else -1


def _read_penalty(value: str) -> dict[str, object]:
    parts = value.split(":")
    if len(parts) not in (2, 3) or ">" not in parts[1] or parts[2:] not in ([], ["noskip"]):
        raise ValueError("AMOUNT:SOURCE>TARGET[:noskip]")
    source, _, target = parts[1].partition(">")
    return {
        "pending_penalty": _read_int(parts[0]),
        "penalty_source": _read_int(source),
        "penalty_target": _read_int(target),
        "penalty_skips_target": len(parts) == 2,
    }


def _read_wd4(value: str) -> dict[str, object]:
    parts = value.split(":")
    if len(parts) != 3 or parts[1] not in ("bluff", "honest"):
        raise ValueError("SEAT:bluff:HAND or SEAT:honest:HAND")
    return {
        "wd4_player": _read_int(parts[0]),
        "wd4_bluff": parts[1] == "bluff",
        "wd4_hand": _read_cards(parts[2]),
    }


def _read_phase(value: str) -> Phase:
    try:
        return Phase(value)
    except ValueError:
        raise ValueError(f"a phase is one of {', '.join(p.value for p in Phase)}") from None


_READERS: dict[str, Callable[[str, int], dict[str, object]]] = {
    "hands": lambda v, _n: {"hands": tuple(_read_cards(h) for h in v.split("/"))},
    "discard": lambda v, _n: {"discard": _read_cards(v)},
    "draw": lambda v, _n: {"draw": _read_cards(v)},
    "color": lambda v, _n: {"color": _read_color(v)},
    "direction": lambda v, _n: {"direction": _read_direction(v)},
    "phase": lambda v, _n: {"phase": _read_phase(v)},
    "turn": lambda v, _n: {"turn": _read_int(v)},
    "actor": lambda v, _n: {"actor": _read_int(v)},
    "kids": lambda v, n: {"kids": _read_seat_flags(v, n)},
    "penalty": lambda v, _n: _read_penalty(v),
    "wd4": lambda v, _n: _read_wd4(v),
    "drawn": lambda v, _n: {"drawn": parse_card(v)},
    "then": lambda v, _n: {"after_color": v},
    "gift": lambda v, _n: {"gift": _read_cards(v)},
    "excess": lambda v, _n: {"excess": _read_ints(v)},
    "jump": lambda v, _n: {"jump_window": _read_int(v)},
    "uno": lambda v, n: {"declared": _read_seat_flags(v, n)},
    "exposed": lambda v, _n: {"exposed": _read_int(v)},
    "timeouts": lambda v, _n: {"timeouts": _read_ints(v)},
    "autopilot": lambda v, n: {"autopilot": _read_seat_flags(v, n)},
    "scores": lambda v, _n: {"scores": _read_ints(v)},
    "winner": lambda v, _n: {"winner": _read_int(v)},
    "round": lambda v, _n: {"round_no": _read_int(v)},
    "dealer": lambda v, _n: {"dealer": _read_int(v)},
    "reshuffles": lambda v, _n: {"reshuffles": _read_int(v)},
    "stalled": lambda v, _n: {"stalled": _read_int(v)},
}
"""One reader per text field: (value, number of seats) -> Position keywords."""
