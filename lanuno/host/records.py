"""The table's journal records: one frozen dataclass per kind, one ``encode``/``decode``.

Every change of a table's state is one of these records (``Table._commit`` applies it, then
journals it); ``Table.restore`` decodes a journal and applies the same records again. On
disk a record is a msgpack map ``{"k": kind, <key>: value, ..., "n": number}`` (framing and
numbering: :mod:`lanuno.host.journal`). The keys are the field names unless a field says
otherwise (``metadata={"key": ...}``), and nested values (seats, seeds, rules) go through
the field's codec. The map format is the one journals have always had: a journal written
before these classes existed decodes to the same records.

Adding a kind: a keyword-only frozen dataclass with a ``KIND`` and an entry in ``KINDS``;
``Table._apply_record`` must handle it (its ``match`` ends in ``assert_never``, so mypy
names a kind left out).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from lanuno.bots.levels import BotLevel
from lanuno.engine.rules import Rules

RecordMap = dict[str, Any]
"""A record as stored: the msgpack map (what ``encode`` returns and ``decode`` reads)."""


def _key(name: str) -> dict[str, Any]:
    return {"key": name}


def _codec(to_map: Callable[[Any], Any], from_map: Callable[[Any], Any]) -> dict[str, Any]:
    return {"to": to_map, "from": from_map}


_BYTES = _codec(lambda v: v, bytes)
_RULES = _codec(lambda r: r.to_dict(), Rules.from_dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatEntry:
    """One lobby seat as journaled (who sits there; never their connection)."""

    kind: str
    """``human`` or ``bot``."""
    name: str
    kid: bool = False
    age: int | None = None
    level: BotLevel = BotLevel.BEGINNER
    ready: bool = False
    """The player said ready in the lobby (a restarted host keeps it). Journals written
    before it have none: nobody ready. Older hosts read a journal with it and ignore it."""

    def to_map(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "kid": self.kid, "age": self.age,
                "level": self.level, "ready": self.ready}  # fmt: skip

    @classmethod
    def from_map(cls, data: Mapping[str, Any]) -> SeatEntry:
        ready = data.get("ready", False)
        if type(ready) is not bool:
            raise TypeError(f"a seat's ready is true or false, not {ready!r}")
        return cls(kind=data["kind"], name=data["name"], kid=data["kid"], age=data["age"],
                   level=BotLevel.parse(data["level"]), ready=ready)  # fmt: skip


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerInfo:
    """What the engine is told about a seat when the game starts (K-rules)."""

    kid: bool
    age: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class SeedEntry:
    """A seat's revealed seed for a round and the commitment it matched."""

    seat: int
    seed: bytes
    commit: bytes


@dataclass(frozen=True, slots=True, kw_only=True)
class OpenRecord:
    """The first record: the table's identity and starting rules."""

    KIND: ClassVar[str] = "open"
    room_id: bytes = field(metadata=_BYTES)
    code: str
    name: str
    rules: Rules = field(metadata=_RULES)


@dataclass(frozen=True, slots=True, kw_only=True)
class CodeRecord:
    """The lockout rotated the room code."""

    KIND: ClassVar[str] = "code"
    code: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PortRecord:
    """Where the table is served: a ``--resume`` listens on the port again, so that its
    players' clients, which reconnect to the address they know, find it by themselves; and
    keeps it off the networks the host kept it off (``--interface``, ``--no-mdns``)."""

    KIND: ClassVar[str] = "port"
    port: int
    interface: str | None = None
    """The one address it was served on (None: every network; older journals say none)."""
    announced: bool = True
    """Whether mDNS was to announce it (False: ``--no-mdns``)."""
    screen_code: str | None = None
    """The code its remote screens pair with: kept by a ``--resume``, so that a TV paired
    before a crash pairs again by itself (a hall's ``hall.json`` keeps its tables' too)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LobbyRecord:
    """Every seat and the rules, after any lobby change."""

    KIND: ClassVar[str] = "lobby"
    seats: tuple[SeatEntry, ...] = field(
        metadata=_codec(
            lambda seats: [s.to_map() for s in seats],
            lambda data: tuple(SeatEntry.from_map(s) for s in data),
        )
    )
    rules: Rules = field(metadata=_RULES)


@dataclass(frozen=True, slots=True, kw_only=True)
class RemoveRecord:
    """A lobby seat was freed; the seats after it move down one place."""

    KIND: ClassVar[str] = "remove"
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SecretRecord:
    """A seat's resume secret of one generation (the newest and the one before are kept)."""

    KIND: ClassVar[str] = "secret"
    seat: int
    generation: int = field(metadata=_key("gen"))
    secret: bytes = field(metadata=_BYTES)


@dataclass(frozen=True, slots=True, kw_only=True)
class StartRecord:
    """The game starts with these seats; round 1 is dealt next."""

    KIND: ClassVar[str] = "start"
    infos: tuple[PlayerInfo, ...] = field(
        metadata=_codec(
            lambda infos: [{"kid": i.kid, "age": i.age} for i in infos],
            lambda data: tuple(PlayerInfo(kid=i["kid"], age=i["age"]) for i in data),
        )
    )
    first: int
    now: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class DealRecord:
    """A round's commit-reveal began: the host seed committed to and each seat's seed
    commitment. Journaled before the commitment is sent, so a restart during the deal
    resumes the same commit-reveal (clients can verify the round against it)."""

    KIND: ClassVar[str] = "deal"
    round_no: int = field(metadata=_key("r"))
    host_seed: bytes = field(metadata=_BYTES)
    commits: tuple[tuple[int, bytes], ...] = field(
        metadata=_codec(
            lambda commits: [[seat, c] for seat, c in commits],
            lambda data: tuple((int(seat), bytes(c)) for seat, c in data),
        )
    )
    now: float


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundRecord:
    """A round was dealt from these seeds."""

    KIND: ClassVar[str] = "round"
    round_no: int = field(metadata=_key("r"))
    host_seed: bytes = field(metadata=_BYTES)
    now: float
    seeds: tuple[SeedEntry, ...] = field(
        metadata=_codec(
            lambda seeds: [[s.seat, s.seed, s.commit] for s in seeds],
            lambda data: tuple(
                SeedEntry(seat=s, seed=bytes(seed), commit=bytes(c)) for s, seed, c in data
            ),
        )
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class ActRecord:
    """An action the engine accepted (``seq`` 0: the host's timer or a bot)."""

    KIND: ClassVar[str] = "act"
    action: str = field(metadata=_key("a"))
    """Engine notation with the seat (``2 play W+4 B``)."""
    now: float
    auto: bool
    seq: int


JournalRecord = (
    OpenRecord
    | CodeRecord
    | PortRecord
    | LobbyRecord
    | RemoveRecord
    | SecretRecord
    | StartRecord
    | DealRecord
    | RoundRecord
    | ActRecord
)

KINDS: dict[str, type[JournalRecord]] = {
    cls.KIND: cls
    for cls in (
        OpenRecord,
        CodeRecord,
        PortRecord,
        LobbyRecord,
        RemoveRecord,
        SecretRecord,
        StartRecord,
        DealRecord,
        RoundRecord,
        ActRecord,
    )
}


def encode(record: JournalRecord) -> RecordMap:
    """The stored map of ``record`` (``"k"`` first, then its fields in order)."""
    data: RecordMap = {"k": record.KIND}
    for f in dataclasses.fields(record):
        value = getattr(record, f.name)
        to_map = f.metadata.get("to")
        data[f.metadata.get("key", f.name)] = to_map(value) if to_map else value
    return data


def decode(data: Mapping[str, Any]) -> JournalRecord:
    """The record a stored map holds; ValueError if its kind or a field is unknown or
    missing (a map's other keys, such as the journal's number ``n``, are ignored)."""
    kind = data.get("k")
    cls = KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"unknown journal record {kind!r}")
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        key = f.metadata.get("key", f.name)
        if key not in data:
            if f.default is dataclasses.MISSING:
                raise ValueError(f"journal record {kind!r} has no {key!r}")
            continue
        from_map = f.metadata.get("from")
        try:
            values[f.name] = from_map(data[key]) if from_map else data[key]
        except (TypeError, ValueError, KeyError) as error:
            raise ValueError(f"journal record {kind!r} has a malformed {key!r}: {error}") from None
    return cls(**values)
