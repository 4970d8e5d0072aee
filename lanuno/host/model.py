"""The table's vocabulary: its settings, phases, seats and connections, and what it sends.

Data only (the behaviour is in :mod:`lanuno.host.table` and :mod:`lanuno.host.seats`), so
every part of the table controller and its adapter name the same things.
"""

from __future__ import annotations

import enum
from collections import deque
from dataclasses import dataclass, field

from lanuno.bots.levels import BotLevel
from lanuno.engine.rules import Rules
from lanuno.host.pace import NO_PACE, Pace
from lanuno.host.records import SeatEntry
from lanuno.wire.crypto import Mode
from lanuno.wire.errors import CloseCode
from lanuno.wire.messages import MAX_TEXT, Hello, Message

SCREEN = -1
"""The shared screen's peer id: it receives what a spectator receives (public only)."""
MAX_SEATS = 10

APPLIED_MEMORY = 1024
"""Applied action numbers remembered per seat (resends come from the last few seconds)."""


class TablePhase(enum.Enum):
    LOBBY = "lobby"
    DEALING = "dealing"
    PLAYING = "playing"
    BETWEEN_ROUNDS = "between_rounds"


TRANSITIONS: dict[TablePhase, frozenset[TablePhase]] = {
    TablePhase.LOBBY: frozenset({TablePhase.DEALING}),
    # DEALING -> DEALING: a restore during the deal opens the commit-reveal again.
    TablePhase.DEALING: frozenset({TablePhase.DEALING, TablePhase.PLAYING}),
    TablePhase.PLAYING: frozenset({TablePhase.BETWEEN_ROUNDS, TablePhase.LOBBY}),
    # BETWEEN_ROUNDS -> PLAYING: replaying a journal whose deal of that round left no
    # record of its commit-reveal, only of the round dealt.
    TablePhase.BETWEEN_ROUNDS: frozenset({TablePhase.DEALING, TablePhase.PLAYING}),
}
"""Every allowed phase change; anything else is a bug (``Table._enter`` asserts it)."""


@dataclass(frozen=True, slots=True)
class Send:
    peer: int
    message: Message


@dataclass(frozen=True, slots=True)
class Close:
    """End that connection (after a ``bye`` with ``code``)."""

    peer: int
    code: CloseCode
    reason: str


Outgoing = Send | Close


@dataclass(frozen=True, slots=True)
class TableConfig:
    name: str = "lanuno table"
    rules: Rules = field(default_factory=Rules)
    bot_level: BotLevel = BotLevel.BEGINNER
    """Level of the bot that plays a dropped or kicked player's seat (a name is parsed;
    an unknown one is refused)."""
    pace: Pace = NO_PACE
    reveal_wait: float = 5.0
    """Seconds the deal waits for the players' seed reveals (fairness.md)."""
    drop_grace: float = 30.0
    """Without a move timer: seconds before a bot plays a dropped player's seat."""
    restore_grace: float = 600.0
    """How long a table restored from its journal waits for its players: a lobby seat is
    held that long, a game plays nothing for its human seats until one is back or that
    long has passed. After a saved table's ``--resume`` its players start ``lanuno join``
    again by hand, which takes longer than a client's own reconnection."""
    auto_start: bool = False
    """Start the game once every human seat is ready (headless hosts, tests)."""
    next_round_after: float | None = None
    """Deal the next round this many seconds after a round ends (None: wait for start())."""
    max_spectators: int = 16
    """Authenticated connections without a seat; one more is refused (``table_full``)."""
    ready_wait: float = 30.0
    """Auto-start: once a human is ready, the others have this long to get ready; those
    who do not go back to watching, so an idle connection never holds the table."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "bot_level", BotLevel.parse(self.bot_level))


@dataclass(slots=True)
class Slot:
    """One seat of the table, with the person or bot in it."""

    kind: str
    """``human`` or ``bot``."""
    name: str
    kid: bool = False
    age: int | None = None
    level: BotLevel = BotLevel.BEGINNER
    peer: int | None = None
    ready: bool = False
    check: int | None = None
    secrets: dict[int, bytes] = field(default_factory=dict)
    """Resume secrets by generation: the newest and the one before (handshake.md)."""
    seed_commit: bytes | None = None
    last_seq: int = 0
    applied: deque[int] = field(default_factory=lambda: deque(maxlen=APPLIED_MEMORY))
    """The seats' latest applied sequence numbers: a resent one is acked only if in here."""
    dropped_at: float | None = None
    taken_over: bool = False
    """A bot plays this human seat until its player comes back."""
    away_since_restore: bool = False
    """Its player has not been back since the table was restored (``restore_grace``)."""

    def to_entry(self) -> SeatEntry:
        return SeatEntry(
            kind=self.kind,
            name=self.name,
            kid=self.kid,
            age=self.age,
            level=self.level,
            ready=self.ready,
        )


@dataclass(slots=True)
class Peer:
    id: int
    mode: Mode
    generation: int
    secret: bytes
    check: int
    seat: int | None = None
    hello: Hello | None = None
    resume_slot: Slot | None = None
    """RESUME: the slot whose secret the handshake was checked against. The seat is given
    back only if that very slot is still a human's, wherever the lobby moved it."""
    left: bool = False
    """It said ``bye`` before closing: a player who leaves, not one whose connection dropped."""


def clip(text: str) -> str:
    """``text`` cut to fit a message's text field (``MAX_TEXT``), marked by ``...``."""
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 3] + "..."
