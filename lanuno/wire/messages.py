"""Typed, validated wire messages (protocol/messages.md is the normative list).

Every message is a small frozen dataclass whose constructor checks every field's type and
bounds, so a message object that exists is a valid message. ``encode`` turns one into
msgpack; ``decode`` turns authenticated bytes back into one, after msgpack limits and the
schema check. Unknown keys are ignored (forward compatibility); unknown types, missing keys
and out-of-bounds values raise ``MessageError``.

Type checks use ``type(v) is int`` on purpose: msgpack's ``true`` decodes to ``True``, which
``isinstance(v, int)`` would accept as 1.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, ClassVar, NamedTuple, NoReturn, TypeAlias, TypeVar

import msgpack

PROTOCOL_VERSION = 1
SUPPORTED_VERSIONS: tuple[int, ...] = (1,)

MAX_SEATS = 10
U32 = 2**32 - 1
U64 = 2**64 - 1
MAX_CARDS = 112
MAX_NAME = 32
MAX_TEXT = 200
MAX_LEGAL = 160
MAX_OPTIONS = 48
MAX_EVENT_FIELDS = 16
MAX_DEADLINE_MS = 3_600_000
MAX_SCORE = 1_000_000

# msgpack limits: every legal message fits well inside them (see messages.md, "Limits").
MAX_STR_BYTES = 1024
MAX_BIN_BYTES = 64
MAX_ARRAY_LENGTH = 256
MAX_MAP_LENGTH = 64

COLORS = frozenset("RYGB")
CARD_CODES: frozenset[str] = frozenset(
    [
        c + r
        for c in "RYGB"
        for r in ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2")
    ]
    + ["W", "W+4", "X"]
)
PHASES = frozenset(
    {
        "turn",
        "drawn",
        "choose_color",
        "penalty",
        "gift",
        "choose_target",
        "swap",
        "excess",
        "round_over",
        "game_over",
    }
)
WILD_CODES = ("W", "W+4", "X")
"""Cards without a color of their own: a play of one may name the color chosen."""
SEAT_KINDS = frozenset({"human", "bot", "empty"})


def _all_action_notations() -> frozenset[str]:
    seats = [str(s) for s in range(MAX_SEATS)]
    notations = {"draw", "pass", "challenge", "accept", "uno"}
    notations |= {f"play {c}" for c in CARD_CODES} | {f"return {c}" for c in CARD_CODES}
    # A wild (or a blank) may carry its color: ``play W+4 B`` (O11).
    notations |= {f"play {w} {c}" for w in WILD_CODES for c in COLORS}
    notations |= {f"color {c}" for c in COLORS}
    for verb in ("catch", "target", "swap", "give"):  # one gift card left: ``give 3`` (O16)
        notations |= {f"{verb} {s}" for s in seats}
    notations |= {f"give {a} {b}" for a in seats for b in seats}
    return frozenset(notations)


ACTION_NOTATIONS = _all_action_notations()
"""Every action a client may send, in canonical form: ``verb`` or ``verb arg [arg]``,
single spaces, no seat prefix (the host adds the sender's seat). ``timeout`` is host-only."""

PRIVATE_VERBS = frozenset({"play", "return", "draw", "pass", "uno", "accept", "challenge"})
"""Verbs whose presence in ``legal`` may depend on the hand; padding hides them (S1)."""
PRIVATE_NOTATIONS = frozenset(a for a in ACTION_NOTATIONS if a.split(" ", 1)[0] in PRIVATE_VERBS)
WORST_NOTATIONS_PER_CARD = len(COLORS) * len("play W+4 B ")
"""Packed bytes of the legal notations one card can add at most: a wild played in each color."""
PRIVATE_FIXED_WORST = sum(len(v) + 1 for v in ("draw", "pass", "uno", "accept", "challenge"))
"""Packed size of every argument-less private verb at once (their worst case)."""
LEGAL_HEADER_WORST = 3
"""msgpack header of the ``legal`` array: 1 byte up to 15 entries (fixarray), 3 from 16
(array 16). How many entries there are depends on the hand, so the floor assumes 3."""


def _array_header_size(length: int) -> int:
    return 1 if length <= 15 else 3 if length <= 0xFFFF else 5


class Role(enum.Enum):
    HOST = "host"
    CLIENT = "client"


class MessageError(ValueError):
    """A message is missing a field, has a wrong type, or a value out of bounds."""


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _fail(where: str, expected: str, value: object) -> NoReturn:
    raise MessageError(f"{where}: expected {expected}, got {_show(value)}")


def _int(where: str, value: object, low: int, high: int) -> None:
    if type(value) is not int or not low <= value <= high:
        _fail(where, f"an integer in [{low}, {high}]", value)


def _opt_int(where: str, value: object, low: int, high: int) -> None:
    if value is not None:
        _int(where, value, low, high)


def _bool(where: str, value: object) -> None:
    if type(value) is not bool:
        _fail(where, "true or false", value)


def _text(where: str, value: object, max_len: int, min_len: int = 0) -> None:
    # isprintable() refuses control, format (bidi overrides, zero-width) and separator
    # characters other than the plain space: names and reasons go straight to screens.
    if type(value) is not str or not min_len <= len(value) <= max_len or not value.isprintable():
        _fail(where, f"printable text of {min_len}-{max_len} characters", value)


def _name(where: str, value: object) -> None:
    _text(where, value, MAX_NAME, 1)
    assert isinstance(value, str)
    if not value.strip():
        _fail(where, "a name that is not blank", value)


def _token(where: str, value: object, max_len: int = MAX_NAME) -> None:
    if (
        type(value) is not str
        or not 1 <= len(value) <= max_len
        or not value.isascii()
        or not value.replace("_", "").replace("-", "").isalnum()
    ):
        _fail(where, f"a token of 1-{max_len} letters, digits, '_' or '-'", value)


def _bytes(where: str, value: object, length: int) -> None:
    if type(value) is not bytes or len(value) != length:
        _fail(where, f"{length} bytes", value)


def _choice(where: str, value: object, choices: frozenset[str]) -> None:
    if type(value) is not str or value not in choices:
        _fail(where, f"one of {', '.join(sorted(choices))}", value)


def _subset(where: str, values: tuple[object, ...], allowed: frozenset[str], what: str) -> None:
    try:
        ok = allowed.issuperset(values) and all(type(v) is str for v in values)
    except TypeError:  # an unhashable element (a list or a map)
        ok = False
    if not ok:
        _fail(where, what, values)


def _sequence(where: str, value: object, max_len: int, min_len: int = 0) -> tuple[Any, ...]:
    """A wire list (or a tuple built locally) as a tuple, length-checked."""
    if type(value) is not list and type(value) is not tuple:
        _fail(where, "a list", value)
    if not min_len <= len(value) <= max_len:
        _fail(where, f"a list of {min_len}-{max_len} items", value)
    return tuple(value)


def _all_str_in(values: Iterable[object], allowed: frozenset[str]) -> bool:
    # Only a str can equal a member of a set of str, so no per-item type test is needed.
    try:
        return allowed.issuperset(values)
    except TypeError:  # an unhashable element (a list or a map)
        return False


_INT_ONLY = {int}
_BOOL_ONLY = {bool}
_UNO_ONLY: set[type] = set()  # {UnoFlags}, filled in below its class


def _all_int_in(values: Any, low: int, high: int) -> bool:
    """Every item an int (not a bool) in [low, high]; set-of-types keeps this in C."""
    if type(values) is not tuple and type(values) is not list:
        return False
    return not values or (
        {*map(type, values)} == _INT_ONLY and low <= min(values) and max(values) <= high
    )


def _ints(where: str, values: tuple[object, ...], low: int, high: int) -> None:
    for v in values:
        if type(v) is not int or not low <= v <= high:
            _fail(where, f"integers in [{low}, {high}]", values)


OptionValue: TypeAlias = bool | int | str | None
EventValue: TypeAlias = bool | int | str | tuple[int | str, ...] | None


def _options(where: str, value: object) -> dict[str, OptionValue]:
    if not isinstance(value, Mapping) or len(value) > MAX_OPTIONS:
        _fail(where, f"a map of at most {MAX_OPTIONS} options", value)
    for key, item in value.items():
        _token(f"{where} key", key)
        if item is None or type(item) is bool:
            continue
        if type(item) is int:
            _int(f"{where}.{key}", item, -U32, U32)
        else:
            _text(f"{where}.{key}", item, MAX_NAME)
    return dict(value)


# --------------------------------------------------------------------------------------------
# Base class


_M = TypeVar("_M", bound="Message")


@dataclass(frozen=True, slots=True)
class Message:
    """Base of every message. ``TYPE`` is the wire ``t``; ``SENDER`` who may send it."""

    TYPE: ClassVar[str] = ""
    SENDER: ClassVar[Role | None] = None
    FIELDS: ClassVar[tuple[str, ...]] = ()

    def to_wire(self) -> dict[str, Any]:
        wire: dict[str, Any] = {"t": self.TYPE}
        for name in self.FIELDS:
            wire[name] = getattr(self, name)
        return wire

    @classmethod
    def from_wire(cls: type[_M], wire: Mapping[str, Any]) -> _M:
        return cls(*[wire.get(name) for name in cls.FIELDS])

    def size_floor(self, encoded_length: int) -> int:
        """Smallest padded payload size that hides this message's private content.

        Messages whose size depends only on public facts return their own length.
        """
        return encoded_length


# --------------------------------------------------------------------------------------------
# Client -> host


@dataclass(frozen=True, slots=True)
class Hello(Message):
    """First message after the handshake (JOIN and RESUME alike)."""

    versions: tuple[int, ...]
    name: str
    age: int | None
    kid: bool
    seed_commit: bytes
    """SHA-256 commitment to this client's seed for the next round (fairness.md)."""

    TYPE: ClassVar[str] = "hello"
    SENDER: ClassVar[Role | None] = Role.CLIENT
    FIELDS: ClassVar[tuple[str, ...]] = ("versions", "name", "age", "kid", "seed_commit")

    def __post_init__(self) -> None:
        versions = _sequence("hello.versions", self.versions, 8, 1)
        _ints("hello.versions", versions, 1, 0xFFFF)
        object.__setattr__(self, "versions", versions)
        _name("hello.name", self.name)
        _opt_int("hello.age", self.age, 0, 120)
        _bool("hello.kid", self.kid)
        _bytes("hello.seed_commit", self.seed_commit, 32)


@dataclass(frozen=True, slots=True)
class Ready(Message):
    """Lobby: this seat is (not) ready to start."""

    ready: bool

    TYPE: ClassVar[str] = "ready"
    SENDER: ClassVar[Role | None] = Role.CLIENT
    FIELDS: ClassVar[tuple[str, ...]] = ("ready",)

    def __post_init__(self) -> None:
        _bool("ready.ready", self.ready)


@dataclass(frozen=True, slots=True)
class ActionRequest(Message):
    """An intention: the host prefixes the seat, checks ``seq`` and ``sid``, then the rules."""

    seq: int
    sid: int
    a: str

    TYPE: ClassVar[str] = "action"
    SENDER: ClassVar[Role | None] = Role.CLIENT
    FIELDS: ClassVar[tuple[str, ...]] = ("seq", "sid", "a")

    def __post_init__(self) -> None:
        _int("action.seq", self.seq, 1, U32)
        _int("action.sid", self.sid, 0, U64)
        _choice_action("action.a", self.a)


def _choice_action(where: str, value: object) -> None:
    if type(value) is not str or value not in ACTION_NOTATIONS:
        _fail(where, "an action like 'play R7', 'draw', 'color B', 'catch 2', 'give 0 3'", value)


@dataclass(frozen=True, slots=True)
class ClientSeedReveal(Message):
    """The seed committed earlier, and a commitment to the seed for the next round."""

    round: int
    seed: bytes
    next_commit: bytes

    TYPE: ClassVar[str] = "seed_reveal"
    SENDER: ClassVar[Role | None] = Role.CLIENT
    FIELDS: ClassVar[tuple[str, ...]] = ("round", "seed", "next_commit")

    def __post_init__(self) -> None:
        _int("seed_reveal.round", self.round, 1, 0xFFFF)
        _bytes("seed_reveal.seed", self.seed, 32)
        _bytes("seed_reveal.next_commit", self.next_commit, 32)


@dataclass(frozen=True, slots=True)
class Ping(Message):
    n: int

    TYPE: ClassVar[str] = "ping"
    SENDER: ClassVar[Role | None] = Role.CLIENT
    FIELDS: ClassVar[tuple[str, ...]] = ("n",)

    def __post_init__(self) -> None:
        _int("ping.n", self.n, 0, U32)


@dataclass(frozen=True, slots=True)
class Bye(Message):
    """Either side: the last message on a connection. ``code`` is a ``CloseCode`` value."""

    code: int
    reason: str

    TYPE: ClassVar[str] = "bye"
    SENDER: ClassVar[Role | None] = None
    FIELDS: ClassVar[tuple[str, ...]] = ("code", "reason")

    def __post_init__(self) -> None:
        _int("bye.code", self.code, 0, 0xFFFF)
        _text("bye.reason", self.reason, MAX_TEXT)


# --------------------------------------------------------------------------------------------
# Host -> client


@dataclass(frozen=True, slots=True)
class Welcome(Message):
    """Answer to ``hello``: the seat this connection plays and the table's rules."""

    version: int
    seat: int
    table: str
    preset: str
    options: Mapping[str, OptionValue]

    TYPE: ClassVar[str] = "welcome"
    SENDER: ClassVar[Role | None] = Role.HOST
    FIELDS: ClassVar[tuple[str, ...]] = ("version", "seat", "table", "preset", "options")

    def __post_init__(self) -> None:
        _int("welcome.version", self.version, 1, 0xFFFF)
        _int("welcome.seat", self.seat, 0, MAX_SEATS - 1)
        _name("welcome.table", self.table)
        _token("welcome.preset", self.preset)
        object.__setattr__(self, "options", _options("welcome.options", self.options))


@dataclass(frozen=True, slots=True)
class LobbySeat:
    name: str | None
    kind: str
    kid: bool
    connected: bool
    ready: bool
    check: int | None
    """The seat's check number (human seats with a live connection), for the shared screen."""

    FIELDS: ClassVar[tuple[str, ...]] = ("name", "kind", "kid", "connected", "ready", "check")

    def __post_init__(self) -> None:
        if self.name is not None:
            _name("lobby.seats.name", self.name)
        _choice("lobby.seats.kind", self.kind, SEAT_KINDS)
        _bool("lobby.seats.kid", self.kid)
        _bool("lobby.seats.connected", self.connected)
        _bool("lobby.seats.ready", self.ready)
        _opt_int("lobby.seats.check", self.check, 0, 999_999)

    def to_wire(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.FIELDS}

    @classmethod
    def from_wire(cls, wire: object) -> LobbySeat:
        if not isinstance(wire, Mapping):
            _fail("lobby.seats", "a map per seat", wire)
        values: list[Any] = [wire.get(name) for name in cls.FIELDS]
        return cls(*values)


@dataclass(frozen=True, slots=True)
class Lobby(Message):
    """The whole lobby, sent whenever it changes."""

    seats: tuple[LobbySeat, ...]
    preset: str
    options: Mapping[str, OptionValue]
    can_start: bool

    TYPE: ClassVar[str] = "lobby"
    SENDER: ClassVar[Role | None] = Role.HOST
    FIELDS: ClassVar[tuple[str, ...]] = ("seats", "preset", "options", "can_start")

    def __post_init__(self) -> None:
        seats = _sequence("lobby.seats", self.seats, MAX_SEATS, 2)
        if not all(type(s) is LobbySeat for s in seats):
            _fail("lobby.seats", "LobbySeat values", seats)
        object.__setattr__(self, "seats", seats)
        _token("lobby.preset", self.preset)
        object.__setattr__(self, "options", _options("lobby.options", self.options))
        _bool("lobby.can_start", self.can_start)

    def to_wire(self) -> dict[str, Any]:
        return {
            "t": self.TYPE,
            "seats": [s.to_wire() for s in self.seats],
            "preset": self.preset,
            "options": self.options,
            "can_start": self.can_start,
        }

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> Lobby:
        seats = _sequence("lobby.seats", wire.get("seats"), MAX_SEATS, 2)
        return cls(
            tuple(LobbySeat.from_wire(s) for s in seats),
            wire.get("preset"),  # type: ignore[arg-type]
            wire.get("options"),  # type: ignore[arg-type]
            wire.get("can_start"),  # type: ignore[arg-type]
        )


class UnoFlags(NamedTuple):
    """Per-seat UNO flags; on the wire a ``[declared, exposed]`` pair (a tuple packs as one)."""

    declared: bool
    """The seat said UNO."""
    exposed: bool
    """The seat has one card, did not say UNO, and may be caught."""


_UNO_ONLY.add(UnoFlags)


@dataclass(frozen=True, slots=True)
class State(Message):
    """One seat's view of the round: the public table plus this seat's own hand and choices."""

    sid: int
    round: int
    hand: tuple[str, ...]
    counts: tuple[int, ...]
    top: str | None
    color: str | None
    direction: int
    turn: int
    actor: int | None
    phase: str
    pending: int
    legal: tuple[str, ...]
    uno: tuple[UnoFlags, ...]
    scores: tuple[int, ...]
    draw_pile: int
    discard_count: int
    deadline_ms: int | None
    dealer: int

    TYPE: ClassVar[str] = "state"
    SENDER: ClassVar[Role | None] = Role.HOST
    FIELDS: ClassVar[tuple[str, ...]] = (
        "sid",
        "round",
        "hand",
        "counts",
        "top",
        "color",
        "direction",
        "turn",
        "actor",
        "phase",
        "pending",
        "legal",
        "uno",
        "scores",
        "draw_pile",
        "discard_count",
        "deadline_ms",
        "dealer",
    )

    def __post_init__(self) -> None:
        # The hot path of the protocol: one flat test that every valid state passes, and
        # only on failure the field-by-field checks that say what is wrong. A property test
        # (tests/wire/test_messages.py) keeps the two in agreement.
        # Typed Any: the values may come straight off the wire, whatever the annotations say.
        hand: Any = self.hand
        counts: Any = self.counts
        legal: Any = self.legal
        uno: Any = self.uno
        scores: Any = self.scores
        hand_type, counts_type, legal_type = type(hand), type(counts), type(legal)
        seats = len(counts) if counts_type is tuple or counts_type is list else 0
        sid, turn, actor, dealer, pending = (
            self.sid,
            self.turn,
            self.actor,
            self.dealer,
            self.pending,
        )
        deadline, top, color = self.deadline_ms, self.top, self.color
        fast_ok = (
            2 <= seats <= MAX_SEATS
            and type(sid) is int and 0 <= sid <= U64
            and type(self.round) is int and 0 <= self.round <= 0xFFFF
            and (hand_type is tuple or hand_type is list) and len(hand) <= MAX_CARDS
            and _all_str_in(hand, CARD_CODES)
            and _all_int_in(counts, 0, MAX_CARDS)
            and (top is None or (type(top) is str and top in CARD_CODES))
            and (color is None or (type(color) is str and color in COLORS))
            and type(self.direction) is int and (self.direction == 1 or self.direction == -1)
            and type(turn) is int and 0 <= turn < seats
            and (actor is None or (type(actor) is int and 0 <= actor < seats))
            and type(self.phase) is str and self.phase in PHASES
            and type(pending) is int and 0 <= pending <= 4 * MAX_CARDS
            and (legal_type is tuple or legal_type is list) and len(legal) <= MAX_LEGAL
            and _all_str_in(legal, ACTION_NOTATIONS)
            and (type(uno) is tuple or type(uno) is list) and len(uno) == seats
            and {*map(type, uno)} == _UNO_ONLY
            and {*map(type, chain.from_iterable(uno))} == _BOOL_ONLY
            and (type(scores) is tuple or type(scores) is list) and len(scores) == seats
            and _all_int_in(scores, 0, MAX_SCORE)
            and type(self.draw_pile) is int and 0 <= self.draw_pile <= MAX_CARDS
            and type(self.discard_count) is int and 0 <= self.discard_count <= MAX_CARDS
            and (deadline is None or (type(deadline) is int and 0 <= deadline <= MAX_DEADLINE_MS))
            and type(dealer) is int and 0 <= dealer < seats
        )  # fmt: skip
        if not fast_ok:
            self._explain_invalid()
        setattr_ = object.__setattr__
        if hand_type is not tuple:
            setattr_(self, "hand", tuple(hand))
        if counts_type is not tuple:
            setattr_(self, "counts", tuple(counts))
        if legal_type is not tuple:
            setattr_(self, "legal", tuple(legal))
        if type(uno) is not tuple:
            setattr_(self, "uno", tuple(uno))
        if type(scores) is not tuple:
            setattr_(self, "scores", tuple(scores))

    def _explain_invalid(self) -> NoReturn:
        _int("state.sid", self.sid, 0, U64)
        _int("state.round", self.round, 0, 0xFFFF)
        hand = _sequence("state.hand", self.hand, MAX_CARDS)
        _subset("state.hand", hand, CARD_CODES, "card codes like R7, G+2, W+4")
        counts = _sequence("state.counts", self.counts, MAX_SEATS, 2)
        _ints("state.counts", counts, 0, MAX_CARDS)
        seats = len(counts)
        if self.top is not None:
            _choice("state.top", self.top, CARD_CODES)
        if self.color is not None:
            _choice("state.color", self.color, COLORS)
        if type(self.direction) is not int or self.direction not in (1, -1):
            _fail("state.direction", "1 or -1", self.direction)
        _int("state.turn", self.turn, 0, seats - 1)
        _opt_int("state.actor", self.actor, 0, seats - 1)
        _choice("state.phase", self.phase, PHASES)
        _int("state.pending", self.pending, 0, 4 * MAX_CARDS)
        legal = _sequence("state.legal", self.legal, MAX_LEGAL)
        _subset("state.legal", legal, ACTION_NOTATIONS, "action notations")
        uno = _sequence("state.uno", self.uno, seats, seats)
        for flags in uno:
            if (
                type(flags) is not UnoFlags
                or type(flags[0]) is not bool
                or type(flags[1]) is not bool
            ):
                _fail("state.uno", "[declared, exposed] pairs of booleans", uno)
        scores = _sequence("state.scores", self.scores, seats, seats)
        _ints("state.scores", scores, 0, MAX_SCORE)
        _int("state.draw_pile", self.draw_pile, 0, MAX_CARDS)
        _int("state.discard_count", self.discard_count, 0, MAX_CARDS)
        _opt_int("state.deadline_ms", self.deadline_ms, 0, MAX_DEADLINE_MS)
        _int("state.dealer", self.dealer, 0, seats - 1)
        raise MessageError("state: invalid")  # unreachable while the two checks agree

    def to_wire(self) -> dict[str, Any]:
        return {
            "t": "state",
            "sid": self.sid,
            "round": self.round,
            "hand": self.hand,
            "counts": self.counts,
            "top": self.top,
            "color": self.color,
            "direction": self.direction,
            "turn": self.turn,
            "actor": self.actor,
            "phase": self.phase,
            "pending": self.pending,
            "legal": self.legal,
            "uno": self.uno,
            "scores": self.scores,
            "draw_pile": self.draw_pile,
            "discard_count": self.discard_count,
            "deadline_ms": self.deadline_ms,
            "dealer": self.dealer,
        }

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> State:
        get: Callable[[str], Any] = wire.get
        uno = _sequence("state.uno", get("uno"), MAX_SEATS)
        # _make raises TypeError on a pair of the wrong length (decode reports it); other
        # shapes give flags that are not booleans, which the constructor refuses.
        return cls(
            get("sid"), get("round"), get("hand"), get("counts"), get("top"), get("color"),
            get("direction"), get("turn"), get("actor"), get("phase"), get("pending"),
            get("legal"), tuple(map(UnoFlags._make, uno)), get("scores"),
            get("draw_pile"), get("discard_count"), get("deadline_ms"), get("dealer"),
        )  # fmt: skip

    def size_floor(self, encoded_length: int) -> int:
        # Replace the hand-dependent bytes by their worst case for this many cards, so the
        # padded size depends only on public facts (hand size, phase, seats). A card code
        # or notation of n <= 31 bytes packs as a fixstr of 1 + n bytes. The ``legal``
        # array header counts too: its entry count depends on the hand (each playable wild
        # adds four entries), and it packs as 1 byte up to 15 entries, 3 from 16. The
        # ``hand`` header depends on the hand size only, which ``counts`` makes public.
        cards = len(self.hand)
        actual = sum(len(code) + 1 for code in self.hand)
        actual += sum(len(a) + 1 for a in self.legal if a in PRIVATE_NOTATIONS)
        actual += _array_header_size(len(self.legal))
        worst = 4 * cards + WORST_NOTATIONS_PER_CARD * cards + PRIVATE_FIXED_WORST + 2
        worst += LEGAL_HEADER_WORST
        return encoded_length - actual + worst


def _event_value(where: str, value: object) -> EventValue:
    if value is None or type(value) is bool:
        return value
    if type(value) is int:
        _int(where, value, -U64, U64)
        return value
    if type(value) is str:
        _text(where, value, 64)
        return value
    items = _sequence(where, value, MAX_CARDS)
    for item in items:
        if type(item) is int:
            _int(where, item, -U32, U32)
        else:
            _text(where, item, 16)
    return items


@dataclass(frozen=True, slots=True)
class Event(Message):
    """One log entry. Card codes appear only when this seat may know them (fairness of
    audience is the host's job; see messages.md, "Events")."""

    sid: int
    type: str
    fields: Mapping[str, EventValue] = field(default_factory=dict)

    TYPE: ClassVar[str] = "event"
    SENDER: ClassVar[Role | None] = Role.HOST
    FIELDS: ClassVar[tuple[str, ...]] = ("sid", "type", "fields")

    def __post_init__(self) -> None:
        _int("event.sid", self.sid, 0, U64)
        _token("event.type", self.type)
        if not isinstance(self.fields, Mapping) or len(self.fields) > MAX_EVENT_FIELDS:
            _fail("event.fields", f"a map of at most {MAX_EVENT_FIELDS} fields", self.fields)
        checked: dict[str, EventValue] = {}
        for key, value in self.fields.items():
            _token("event.fields key", key)
            checked[key] = _event_value(f"event.fields.{key}", value)
        object.__setattr__(self, "fields", checked)

    def size_floor(self, encoded_length: int) -> int:
        codes = [v for v in _flat(self.fields.values()) if isinstance(v, str) and v in CARD_CODES]
        return encoded_length - sum(len(c) + 1 for c in codes) + 4 * len(codes)


def _flat(values: Iterable[EventValue]) -> Iterable[object]:
    for value in values:
        if isinstance(value, tuple):
            yield from value
        else:
            yield value


@dataclass(frozen=True, slots=True)
class ErrorReply(Message):
    """A refused action or request. Never closes the connection by itself."""

    code: str
    rule: str | None
    text: str
    seq: int | None
    """The ``action.seq`` this answers, if any."""

    TYPE: ClassVar[str] = "error"
    SENDER: ClassVar[Role | None] = Role.HOST
    FIELDS: ClassVar[tuple[str, ...]] = ("code", "rule", "text", "seq")

    def __post_init__(self) -> None:
        _token("error.code", self.code)
        if self.rule is not None:
            _token("error.rule", self.rule, 8)
        _text("error.text", self.text, MAX_TEXT, 1)
        _opt_int("error.seq", self.seq, 1, U32)


ERROR_CODES = frozenset(
    {
        "illegal",
        "not_your_turn",
        "stale_state",
        "bad_seq",
        "bad_seed",
        "not_now",
        "version",
        "seat_taken",
        "rate_limited",
    }
)
"""The ``error.code`` values defined by version 1 (clients treat others like ``illegal``)."""


@dataclass(frozen=True, slots=True)
class Ack(Message):
    """The action ``seq`` was applied (or had been: duplicates are acked, not re-applied)."""

    seq: int

    TYPE: ClassVar[str] = "ack"
    SENDER: ClassVar[Role | None] = Role.HOST
    FIELDS: ClassVar[tuple[str, ...]] = ("seq",)

    def __post_init__(self) -> None:
        _int("ack.seq", self.seq, 1, U32)


@dataclass(frozen=True, slots=True)
class SeedCommit(Message):
    """Round start: the host's commitment to its seed for this round."""

    round: int
    commit: bytes

    TYPE: ClassVar[str] = "seed_commit"
    SENDER: ClassVar[Role | None] = Role.HOST
    FIELDS: ClassVar[tuple[str, ...]] = ("round", "commit")

    def __post_init__(self) -> None:
        _int("seed_commit.round", self.round, 1, 0xFFFF)
        _bytes("seed_commit.commit", self.commit, 32)


@dataclass(frozen=True, slots=True)
class SeatSeed:
    seat: int
    seed: bytes
    commit: bytes
    """The commitment the host recorded for this seed (from hello or the previous reveal)."""


@dataclass(frozen=True, slots=True)
class HostSeedReveal(Message):
    """Round end: every seed of the round and the deck order they produce."""

    round: int
    host_seed: bytes
    seeds: tuple[SeatSeed, ...]
    deck: tuple[str, ...]

    TYPE: ClassVar[str] = "seed_reveal"
    SENDER: ClassVar[Role | None] = Role.HOST
    FIELDS: ClassVar[tuple[str, ...]] = ("round", "host_seed", "seeds", "deck")

    def __post_init__(self) -> None:
        _int("seed_reveal.round", self.round, 1, 0xFFFF)
        _bytes("seed_reveal.host_seed", self.host_seed, 32)
        seeds = _sequence("seed_reveal.seeds", self.seeds, MAX_SEATS)
        for s in seeds:
            if type(s) is not SeatSeed:
                _fail("seed_reveal.seeds", "SeatSeed values", s)
            _int("seed_reveal.seeds.seat", s.seat, 0, MAX_SEATS - 1)
            _bytes("seed_reveal.seeds.seed", s.seed, 32)
            _bytes("seed_reveal.seeds.commit", s.commit, 32)
        if len({s.seat for s in seeds}) != len(seeds):
            _fail("seed_reveal.seeds", "one seed per seat", seeds)
        deck = _sequence("seed_reveal.deck", self.deck, MAX_CARDS, 1)
        _subset("seed_reveal.deck", deck, CARD_CODES, "card codes")
        object.__setattr__(self, "seeds", seeds)
        object.__setattr__(self, "deck", deck)

    def to_wire(self) -> dict[str, Any]:
        wire = Message.to_wire(self)
        wire["seeds"] = [[s.seat, s.seed, s.commit] for s in self.seeds]
        return wire

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> HostSeedReveal:
        seeds = []
        for item in _sequence("seed_reveal.seeds", wire.get("seeds"), MAX_SEATS):
            if type(item) is not list or len(item) != 3:
                _fail("seed_reveal.seeds", "[seat, seed, commit] triples", item)
            seeds.append(SeatSeed(*item))
        return cls(wire.get("round"), wire.get("host_seed"), tuple(seeds), wire.get("deck"))  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class RoundEnd(Message):
    round: int
    winner: int | None
    points: int
    """What the winner scored this round."""
    scores: tuple[int, ...]

    TYPE: ClassVar[str] = "round_end"
    SENDER: ClassVar[Role | None] = Role.HOST
    FIELDS: ClassVar[tuple[str, ...]] = ("round", "winner", "points", "scores")

    def __post_init__(self) -> None:
        _int("round_end.round", self.round, 1, 0xFFFF)
        scores = _sequence("round_end.scores", self.scores, MAX_SEATS, 2)
        _ints("round_end.scores", scores, 0, MAX_SCORE)
        _opt_int("round_end.winner", self.winner, 0, len(scores) - 1)
        _int("round_end.points", self.points, 0, MAX_SCORE)
        object.__setattr__(self, "scores", scores)


@dataclass(frozen=True, slots=True)
class GameEnd(Message):
    winner: int | None
    scores: tuple[int, ...]

    TYPE: ClassVar[str] = "game_end"
    SENDER: ClassVar[Role | None] = Role.HOST
    FIELDS: ClassVar[tuple[str, ...]] = ("winner", "scores")

    def __post_init__(self) -> None:
        scores = _sequence("game_end.scores", self.scores, MAX_SEATS, 2)
        _ints("game_end.scores", scores, 0, MAX_SCORE)
        _opt_int("game_end.winner", self.winner, 0, len(scores) - 1)
        object.__setattr__(self, "scores", scores)


@dataclass(frozen=True, slots=True)
class Pong(Message):
    n: int

    TYPE: ClassVar[str] = "pong"
    SENDER: ClassVar[Role | None] = Role.HOST
    FIELDS: ClassVar[tuple[str, ...]] = ("n",)

    def __post_init__(self) -> None:
        _int("pong.n", self.n, 0, U32)


CLIENT_MESSAGES: dict[str, type[Message]] = {
    cls.TYPE: cls for cls in (Hello, Ready, ActionRequest, ClientSeedReveal, Ping, Bye)
}
HOST_MESSAGES: dict[str, type[Message]] = {
    cls.TYPE: cls
    for cls in (
        Welcome,
        Lobby,
        State,
        Event,
        ErrorReply,
        Ack,
        SeedCommit,
        HostSeedReveal,
        RoundEnd,
        GameEnd,
        Pong,
        Bye,
    )
}


def may_send(role: Role, message: Message) -> bool:
    table = HOST_MESSAGES if role is Role.HOST else CLIENT_MESSAGES
    return table.get(message.TYPE) is type(message)


# --------------------------------------------------------------------------------------------
# Codec


def encode(message: Message) -> tuple[bytes, int]:
    """(msgpack bytes, padding floor) for a message."""
    payload: bytes = msgpack.packb(message.to_wire(), use_bin_type=True)
    return payload, message.size_floor(len(payload))


def _refuse_ext(code: int, data: bytes) -> NoReturn:
    raise MessageError(f"msgpack extension type {code} is not allowed")


def decode(payload: bytes, sender: Role) -> Message:
    """Authenticated payload -> validated message from ``sender``; MessageError otherwise."""
    try:
        # unpackb() already bounds every length by len(payload) (msgpack 1.x has no
        # max_buffer_size argument here); the explicit limits below are tighter still.
        wire = msgpack.unpackb(
            payload,
            max_str_len=MAX_STR_BYTES,
            max_bin_len=MAX_BIN_BYTES,
            max_array_len=MAX_ARRAY_LENGTH,
            max_map_len=MAX_MAP_LENGTH,
            max_ext_len=0,
            strict_map_key=True,
            raw=False,
            ext_hook=_refuse_ext,
        )
    except MessageError:
        raise
    except Exception as error:  # the C decoder's many error types: all mean "malformed"
        raise MessageError(f"not valid msgpack within limits ({type(error).__name__})") from None
    if type(wire) is not dict:
        _fail("message", "a map", wire)
    kind = wire.get("t")
    table = HOST_MESSAGES if sender is Role.HOST else CLIENT_MESSAGES
    cls = table.get(kind) if type(kind) is str else None
    if cls is None:
        _fail("message.t", f"a {sender.value} message type", kind)
    try:
        return cls.from_wire(wire)
    except MessageError:
        raise
    except (TypeError, ValueError) as error:  # e.g. wrong argument count from odd shapes
        raise MessageError(f"{kind}: malformed ({error})") from None
