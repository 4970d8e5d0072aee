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
from dataclasses import dataclass, field, fields
from itertools import chain
from typing import Any, ClassVar, NamedTuple, NoReturn, TypeAlias, TypeVar, dataclass_transform

import msgpack

from lanuno.wire.crypto import MAX_TABLES  # one limit: the hello and the screen message

PROTOCOL_VERSION = 1
SUPPORTED_VERSIONS: tuple[int, ...] = (1,)
"""The message versions a player's ``hello`` lists and a host chooses from."""
SCREEN_VERSION = 2
"""A SCREEN link (handshake mode 3) speaks message version 2: version 1's host messages
plus ``screen``. It sends no ``hello``: the mode fixes the version."""
MAX_ADDRESSES = 8

MAX_SEATS = 10
U32 = 2**32 - 1
U64 = 2**64 - 1
MAX_CARDS = 112
MAX_NAME = 32
MAX_AGE = 120
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


def check_name(value: str) -> str:
    """``value`` if the wire takes it as a player's or a table's name, else MessageError."""
    _name("name", value)
    return value


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
# One schema per message
#
# A message is declared once, as a class under ``@message(type, sender)``: its fields, in
# order, are the keys of its wire map; its ``__post_init__`` checks their types and bounds.
# The decorator makes it a keyword-only frozen dataclass, generates ``to_wire`` and
# ``from_wire`` from ``dataclasses.fields`` and registers it for ``decode``. A field whose
# wire form is not its Python value (a nested record) says how with ``_via``. A protocol
# change is one class plus protocol/messages.md, whose tables tests/wire/test_spec.py
# compares with these classes.


_M = TypeVar("_M", bound="Message")
_R = TypeVar("_R", bound="_Record")

CLIENT_MESSAGES: dict[str, type[Message]] = {}
"""Wire ``t`` -> class, for what a client may send (filled by ``@message``)."""
HOST_MESSAGES: dict[str, type[Message]] = {}
"""Wire ``t`` -> class, for what a host may send (filled by ``@message``)."""

_CODEC = "lanuno.wire.codec"


def _via(*, decode: Callable[[Any], Any], encode: Callable[[Any], Any] | None = None) -> Any:
    """A field whose wire form is not its Python value: ``decode`` builds the value from what
    msgpack returned, ``encode`` the other way (default: the value packs as it is)."""
    return field(metadata={_CODEC: (encode, decode)})


def _absent_is_false(raw: Any) -> Any:
    """A boolean added after version 1 shipped: absent on the wire means false."""
    return False if raw is None else raw


def _absent_is_zero(raw: Any) -> Any:
    """A count added after version 1 shipped: absent on the wire means 0."""
    return 0 if raw is None else raw


def _install_codec(cls: type, tag: str | None, where: str, as_array: bool = False) -> None:
    """Generate ``cls.to_wire``/``cls.from_wire`` from its fields, as dataclasses generates
    ``__init__``: straight-line code keeps the hot path (``state``) as fast as a codec
    written by hand, without a second list of the fields to keep in step with the first.

    ``from_wire`` does what the frozen dataclass ``__init__`` does (set every field, then
    ``__post_init__`` validates) without its keyword call: 18 keyword arguments cost more
    than the rest of building a ``state``."""
    env: dict[str, Any] = {
        "_fail": _fail,
        "Mapping": Mapping,
        "new": object.__new__,
        "put": object.__setattr__,
    }
    names = [f.name for f in fields(cls)]
    values, puts = [], []
    for index, f in enumerate(fields(cls)):
        encoder, decoder = f.metadata.get(_CODEC, (None, None))
        value, raw = f"self.{f.name}", f"wire[{index}]" if as_array else f"get({f.name!r})"
        if encoder is not None:
            env[f"encode_{f.name}"] = encoder
            value = f"encode_{f.name}({value})"
        if decoder is not None:
            env[f"decode_{f.name}"] = decoder
            raw = f"decode_{f.name}({raw})"
        values.append(value if as_array else f"{f.name!r}: {value}")
        puts.append(f"    put(self, {f.name!r}, {raw})\n")
    if as_array:
        shape = f"[{', '.join(names)}]"
        built = f"[{', '.join(values)}]"
        check = f"    if type(wire) is not list or len(wire) != {len(names)}:\n"
    else:
        shape = "a map"
        built = "{" + ", ".join([f"'t': {tag!r}"] * (tag is not None) + values) + "}"
        check = "    if type(wire) is not dict and not isinstance(wire, Mapping):\n"
    validate = "    self.__post_init__()\n" if hasattr(cls, "__post_init__") else ""
    source = (
        f"def to_wire(self):\n    return {built}\n"
        f"def from_wire(cls, wire):\n{check}        _fail({where!r}, {shape!r}, wire)\n"
        + ("" if as_array else "    get = wire.get\n")
        + "    self = new(cls)\n"
        + "".join(puts)
        + validate
        + "    return self\n"
    )
    exec(source, env)  # our own field names only: identifiers, nothing from the wire
    type.__setattr__(cls, "to_wire", env["to_wire"])
    type.__setattr__(cls, "from_wire", classmethod(env["from_wire"]))


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(field, _via))
def message(tag: str, sender: Role | None) -> Callable[[type[_M]], type[_M]]:
    """Declare the wire message ``tag`` sent by ``sender`` (None: either side, ``bye``)."""

    def declare(cls: type[_M]) -> type[_M]:
        cls = dataclass(frozen=True, slots=True, kw_only=True)(cls)
        cls.TYPE, cls.SENDER = tag, sender
        _install_codec(cls, tag, tag)
        for role in (Role.CLIENT, Role.HOST) if sender is None else (sender,):
            registry = CLIENT_MESSAGES if role is Role.CLIENT else HOST_MESSAGES
            assert tag not in registry, f"two {role.value} messages of type {tag!r}"
            registry[tag] = cls
        return cls

    return declare


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(field, _via))
def record(where: str, *, as_array: bool = False) -> Callable[[type[_R]], type[_R]]:
    """Declare a record nested in a message at ``where``: a map of its fields, or with
    ``as_array`` a list of their values in field order."""

    def declare(cls: type[_R]) -> type[_R]:
        cls = dataclass(frozen=True, slots=True, kw_only=True)(cls)
        _install_codec(cls, None, where, as_array)
        return cls

    return declare


def field_names(cls: type[Message] | type[_Record]) -> tuple[str, ...]:
    """The wire keys of a message (besides ``t``) or record, in order."""
    return tuple(f.name for f in fields(cls))


@dataclass(frozen=True, slots=True)
class Message:
    """Base of every message. ``TYPE`` is the wire ``t``; ``SENDER`` who may send it."""

    TYPE: ClassVar[str] = ""
    SENDER: ClassVar[Role | None] = None

    def to_wire(self) -> dict[str, Any]:
        """The wire map: ``t`` and one key per field (generated by ``@message``)."""
        raise NotImplementedError

    @classmethod
    def from_wire(cls: type[_M], wire: Mapping[str, Any]) -> _M:
        """The message from its wire map, validated (generated by ``@message``)."""
        raise NotImplementedError

    def size_floor(self, encoded_length: int) -> int:
        """Smallest padded payload size that hides this message's private content.

        Messages whose size depends only on public facts return their own length.
        """
        return encoded_length


@dataclass(frozen=True, slots=True)
class _Record:
    """Base of the records nested in messages (generated codec, like ``Message``)."""

    def to_wire(self) -> Any:
        raise NotImplementedError

    @classmethod
    def from_wire(cls: type[_R], wire: object) -> _R:
        raise NotImplementedError


# --------------------------------------------------------------------------------------------
# Client -> host


@message("hello", Role.CLIENT)
class Hello(Message):
    """First message after the handshake (JOIN and RESUME alike)."""

    versions: tuple[int, ...]
    name: str
    age: int | None
    kid: bool
    seed_commit: bytes
    """SHA-256 commitment to this client's seed for the next round (fairness.md)."""
    seen_sid: int | None = None
    """RESUME: the ``sid`` of the last ``state`` this client received at this table (0: none,
    a client started again). The host first sends the current round's events after it, as
    this seat may see them (messages.md, "After a resume"). None (or absent: a client from
    before this field): only where the table stands."""

    def __post_init__(self) -> None:
        versions = _sequence("hello.versions", self.versions, 8, 1)
        _ints("hello.versions", versions, 1, 0xFFFF)
        object.__setattr__(self, "versions", versions)
        _name("hello.name", self.name)
        _opt_int("hello.age", self.age, 0, MAX_AGE)
        _bool("hello.kid", self.kid)
        _bytes("hello.seed_commit", self.seed_commit, 32)
        _opt_int("hello.seen_sid", self.seen_sid, 0, U64)


@message("ready", Role.CLIENT)
class Ready(Message):
    """Lobby: this seat is (not) ready to start."""

    ready: bool

    def __post_init__(self) -> None:
        _bool("ready.ready", self.ready)


@message("action", Role.CLIENT)
class ActionRequest(Message):
    """An intention: the host prefixes the seat, checks ``seq`` and ``sid``, then the rules."""

    seq: int
    sid: int
    a: str

    def __post_init__(self) -> None:
        _int("action.seq", self.seq, 1, U32)
        _int("action.sid", self.sid, 0, U64)
        _choice_action("action.a", self.a)


def _choice_action(where: str, value: object) -> None:
    if type(value) is not str or value not in ACTION_NOTATIONS:
        _fail(where, "an action like 'play R7', 'draw', 'color B', 'catch 2', 'give 0 3'", value)


@message("seed_reveal", Role.CLIENT)
class ClientSeedReveal(Message):
    """The seed committed earlier, and a commitment to the seed for the next round."""

    round: int
    seed: bytes
    next_commit: bytes

    def __post_init__(self) -> None:
        _int("seed_reveal.round", self.round, 1, 0xFFFF)
        _bytes("seed_reveal.seed", self.seed, 32)
        _bytes("seed_reveal.next_commit", self.next_commit, 32)


@message("ping", Role.CLIENT)
class Ping(Message):
    n: int

    def __post_init__(self) -> None:
        _int("ping.n", self.n, 0, U32)


@message("bye", None)
class Bye(Message):
    """Either side: the last message on a connection. ``code`` is a ``CloseCode`` value."""

    code: int
    reason: str

    def __post_init__(self) -> None:
        _int("bye.code", self.code, 0, 0xFFFF)
        _text("bye.reason", self.reason, MAX_TEXT)


# --------------------------------------------------------------------------------------------
# Host -> client


@message("welcome", Role.HOST)
class Welcome(Message):
    """Answer to ``hello``: the seat this connection plays and the table's rules. ``seat``
    nil: a spectator (a game is running or the table is full); spectators are seated when
    the game ends, where there is room."""

    version: int
    seat: int | None
    table: str
    preset: str
    options: Mapping[str, OptionValue]
    last_seq: int = field(default=0, metadata={_CODEC: (None, _absent_is_zero)})
    """The seq of the seat's last applied action (0: none). A client started again on a
    saved seat numbers its actions from there: a seq at or below it is taken for a resend
    (never applied again). A host from before this field sends none: 0."""

    def __post_init__(self) -> None:
        _int("welcome.version", self.version, 1, 0xFFFF)
        _opt_int("welcome.seat", self.seat, 0, MAX_SEATS - 1)
        _name("welcome.table", self.table)
        _token("welcome.preset", self.preset)
        object.__setattr__(self, "options", _options("welcome.options", self.options))
        _int("welcome.last_seq", self.last_seq, 0, U32)


@record("lobby.seats")
class LobbySeat(_Record):
    """One seat of the lobby (a map in ``lobby.seats``)."""

    name: str | None
    kind: str
    kid: bool
    connected: bool
    ready: bool
    check: int | None
    """The seat's check number (human seats with a live connection), for the shared screen."""
    bot_playing: bool = field(default=False, metadata={_CODEC: (None, _absent_is_false)})
    """A bot plays this human seat: its player dropped and the hold ran out, or T3's
    autopilot (also told by the ``autopilot`` event). A host from before this field sends
    none: false."""

    def __post_init__(self) -> None:
        if self.name is not None:
            _name("lobby.seats.name", self.name)
        _choice("lobby.seats.kind", self.kind, SEAT_KINDS)
        _bool("lobby.seats.kid", self.kid)
        _bool("lobby.seats.connected", self.connected)
        _bool("lobby.seats.ready", self.ready)
        _opt_int("lobby.seats.check", self.check, 0, 999_999)
        _bool("lobby.seats.bot_playing", self.bot_playing)


@message("lobby", Role.HOST)
class Lobby(Message):
    """The whole lobby, sent whenever it changes."""

    seats: tuple[LobbySeat, ...] = _via(
        encode=lambda seats: [s.to_wire() for s in seats],
        decode=lambda wire: tuple(
            map(LobbySeat.from_wire, _sequence("lobby.seats", wire, MAX_SEATS, 2))
        ),
    )
    preset: str
    options: Mapping[str, OptionValue]
    can_start: bool
    auto_start: bool = field(default=False, metadata={_CODEC: (None, _absent_is_false)})
    """No one presses start: the game starts when every player is ready (a headless host,
    ``lanuno play``). A host from before this field sends none: false."""

    def __post_init__(self) -> None:
        seats = _sequence("lobby.seats", self.seats, MAX_SEATS, 2)
        if not all(type(s) is LobbySeat for s in seats):
            _fail("lobby.seats", "LobbySeat values", seats)
        object.__setattr__(self, "seats", seats)
        _token("lobby.preset", self.preset)
        object.__setattr__(self, "options", _options("lobby.options", self.options))
        _bool("lobby.can_start", self.can_start)
        _bool("lobby.auto_start", self.auto_start)


class UnoFlags(NamedTuple):
    """Per-seat UNO flags; on the wire a ``[declared, exposed]`` pair (a tuple packs as one)."""

    declared: bool
    """The seat said UNO."""
    exposed: bool
    """The seat has one card, did not say UNO, and may be caught."""


_UNO_ONLY.add(UnoFlags)


def _uno_flags(wire: object) -> tuple[UnoFlags, ...]:
    # _make raises TypeError on a pair of the wrong length (decode reports it); other
    # shapes give flags that are not booleans, which the constructor refuses.
    return tuple(map(UnoFlags._make, _sequence("state.uno", wire, MAX_SEATS)))


@message("state", Role.HOST)
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
    uno: tuple[UnoFlags, ...] = _via(decode=_uno_flags)
    scores: tuple[int, ...]
    draw_pile: int
    discard_count: int
    deadline_ms: int | None
    dealer: int

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


@message("event", Role.HOST)
class Event(Message):
    """One log entry. Card codes appear only when this seat may know them (fairness of
    audience is the host's job; see messages.md, "Events")."""

    sid: int
    type: str
    fields: Mapping[str, EventValue] = field(default_factory=dict)

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


@message("error", Role.HOST)
class ErrorReply(Message):
    """A refused action or request. Never closes the connection by itself."""

    code: str
    rule: str | None
    text: str
    seq: int | None
    """The ``action.seq`` this answers, if any."""

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
        "rate_limited",
    }
)
"""The ``error.code`` values defined by version 1 (clients treat others like ``illegal``)."""


@message("ack", Role.HOST)
class Ack(Message):
    """The action ``seq`` was applied (or had been: duplicates are acked, not re-applied)."""

    seq: int

    def __post_init__(self) -> None:
        _int("ack.seq", self.seq, 1, U32)


@message("seed_commit", Role.HOST)
class SeedCommit(Message):
    """Round start: the host's commitment to its seed for this round."""

    round: int
    commit: bytes

    def __post_init__(self) -> None:
        _int("seed_commit.round", self.round, 1, 0xFFFF)
        _bytes("seed_commit.commit", self.commit, 32)


@record("seed_reveal.seeds", as_array=True)
class SeatSeed(_Record):
    """One contributing seat of a round (a ``[seat, seed, commit]`` list in ``seeds``);
    checked by ``HostSeedReveal``."""

    seat: int
    seed: bytes
    commit: bytes
    """The commitment the host recorded for this seed (from hello or the previous reveal)."""


@message("seed_reveal", Role.HOST)
class HostSeedReveal(Message):
    """Round end: every seed of the round and the deck order they produce."""

    round: int
    host_seed: bytes
    seeds: tuple[SeatSeed, ...] = _via(
        encode=lambda seeds: [s.to_wire() for s in seeds],
        decode=lambda wire: tuple(
            map(SeatSeed.from_wire, _sequence("seed_reveal.seeds", wire, MAX_SEATS))
        ),
    )
    deck: tuple[str, ...]

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


@message("round_end", Role.HOST)
class RoundEnd(Message):
    round: int
    winner: int | None
    points: int
    """What the winner scored this round."""
    scores: tuple[int, ...]

    def __post_init__(self) -> None:
        _int("round_end.round", self.round, 1, 0xFFFF)
        scores = _sequence("round_end.scores", self.scores, MAX_SEATS, 2)
        _ints("round_end.scores", scores, 0, MAX_SCORE)
        _opt_int("round_end.winner", self.winner, 0, len(scores) - 1)
        _int("round_end.points", self.points, 0, MAX_SCORE)
        object.__setattr__(self, "scores", scores)


@message("game_end", Role.HOST)
class GameEnd(Message):
    winner: int | None
    scores: tuple[int, ...]

    def __post_init__(self) -> None:
        scores = _sequence("game_end.scores", self.scores, MAX_SEATS, 2)
        _ints("game_end.scores", scores, 0, MAX_SCORE)
        _opt_int("game_end.winner", self.winner, 0, len(scores) - 1)
        object.__setattr__(self, "scores", scores)


@message("screen", Role.HOST)
class ScreenInfo(Message):
    """SCREEN links only (message version 2): the table the screen shows, first on the
    link and again whenever one of these changes (a rotated room code)."""

    version: int
    table: int
    name: str
    code: str
    """The room code players type (the screen shows it; never the screen code)."""
    addresses: tuple[str, ...]
    announced: bool

    def __post_init__(self) -> None:
        _int("screen.version", self.version, 2, 0xFFFF)
        _int("screen.table", self.table, 1, MAX_TABLES)
        _name("screen.name", self.name)
        _text("screen.code", self.code, 6, 6)
        if not self.code.isascii() or not self.code.isdigit():
            _fail("screen.code", "6 digits", self.code)
        addresses = _sequence("screen.addresses", self.addresses, MAX_ADDRESSES)
        for address in addresses:
            _text("screen.addresses[]", address, 64, 1)
        object.__setattr__(self, "addresses", addresses)
        _bool("screen.announced", self.announced)


@message("pong", Role.HOST)
class Pong(Message):
    n: int

    def __post_init__(self) -> None:
        _int("pong.n", self.n, 0, U32)


def may_send(role: Role, message: Message) -> bool:
    table = HOST_MESSAGES if role is Role.HOST else CLIENT_MESSAGES
    return table.get(message.TYPE) is type(message)


# --------------------------------------------------------------------------------------------
# Codec


def encode(message: Message) -> tuple[bytes, int]:
    """(msgpack bytes, padding floor) for a message."""
    payload: bytes = msgpack.packb(message.to_wire(), use_bin_type=True)
    return payload, message.size_floor(len(payload))


def _refuse_ext(code: int, _data: bytes) -> NoReturn:
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
