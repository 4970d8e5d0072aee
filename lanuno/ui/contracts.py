"""What the terminal apps need from the network layer, and nothing more.

The apps in :mod:`lanuno.ui` are written against these protocols; :mod:`lanuno.net`
implements them over real connections (and tests implement them in memory). Everything
the apps receive is a validated wire message from :mod:`lanuno.wire.messages`, or a local
notice from :mod:`lanuno.client.notices` (what the client concluded by itself).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from lanuno.bots.levels import BotLevel
from lanuno.client.notices import Notice
from lanuno.wire.messages import Message

ConnectionState = Literal["connecting", "connected", "quiet", "reconnecting", "closed"]


class ClientSession(Protocol):
    """A player's connection to the host, as the hand app sees it."""

    @property
    def seat(self) -> int | None:
        """This player's seat once welcomed."""

    @property
    def check_number(self) -> int | None:
        """The 6-digit check number of this connection, shown next to the name on the
        shared screen (handshake.md)."""

    @property
    def connection(self) -> ConnectionState: ...

    @property
    def end_reason(self) -> str:
        """Why ``updates`` ended, in English, when no ``bye`` said it ("" while they go on,
        or when it needs no saying: the player left)."""

    def updates(self) -> AsyncIterator[Message | Notice]:
        """Every message from the host (Welcome, Lobby, State, Event, ErrorReply, RoundEnd,
        GameEnd, Bye, ...), in order, and the client's own notices (a deck that does not
        check out, a seat lost); ends when the session is closed for good. Reconnects
        happen underneath: the app sees ``connection`` change, then fresh State."""

    async def act(self, notation: str) -> None:
        """Send an action in engine notation without the seat: ``play R7``, ``play W B``,
        ``draw``, ``pass``, ``color G``, ``uno``, ``catch 2``, ``give 0 3``, ..."""

    async def set_ready(self, ready: bool) -> None: ...

    async def close(self) -> None: ...


class HostScreen(Protocol):
    """What the shared screen shows: public information only (never a card of a hand)."""

    @property
    def table_name(self) -> str: ...

    @property
    def room_code(self) -> str:
        """The code players type to join (it changes after 10 failed attempts)."""

    @property
    def addresses(self) -> Sequence[str]:
        """``host:port`` strings a player can pass to ``lanuno join``."""

    @property
    def announced(self) -> bool:
        """Whether the table is announced on the LAN (mDNS), so that a plain ``lanuno join``
        finds it."""

    def updates(self) -> AsyncIterator[Message]:
        """Lobby, public State (empty hand, no legal actions), public Event, RoundEnd and
        GameEnd messages, as a spectator would receive them; ends when the table closes."""

    @property
    def end_reason(self) -> str:
        """Why ``updates`` ended, in English ("" while they go on, or when it needs no
        saying): a remote screen shows it."""

    @property
    def linked(self) -> bool:
        """False while a remote screen's link to the host is down and it pairs again (what
        it shows is not current); True otherwise, and always on the host's own screen."""


class HostControls(Protocol):
    """The host's keys on the shared screen. Each raises ValueError with a sentence to show
    when the request cannot be done now (e.g. adding a bot to a full table)."""

    async def add_bot(self, level: str) -> None: ...

    async def remove_seat(self, seat: int) -> None:
        """Remove a bot, or kick a player between rounds."""

    async def set_preset(self, preset: str) -> None: ...

    async def set_option(self, key: str, value: str) -> None: ...

    async def start(self) -> None:
        """Start the game (lobby) or the next round (between rounds)."""

    async def shutdown(self) -> None: ...


# ---------------------------------------------------------------------------- the hall


@dataclass(frozen=True, slots=True)
class NewTable:
    """A table the host opens from the hall screen, already checked by the form
    (:func:`lanuno.ui.hall_model.check_new_table`): a non-blank name of at most 32
    characters, a known preset, options in canonical ``name=value`` words that fit that
    preset, 0 to 10 bots and a known bot level (the bots' and dropped players' level)."""

    name: str
    preset: str
    options: tuple[str, ...] = ()
    bots: int = 0
    level: str = "intermediate"


class HallTable(Protocol):
    """One table of the hall, as the host's hall screen sees it."""

    @property
    def number(self) -> int:
        """The table's number, 1..64, as clients name it (``lanuno join --table N``)."""

    @property
    def name(self) -> str: ...

    @property
    def bot_level(self) -> BotLevel:
        """The level the table was opened with: what B adds on its screen at first."""

    @property
    def screen_code(self) -> str:
        """The 6-digit code that pairs a ``lanuno screen`` with this table. Shown by the
        host only (its hall screen, a plain host's help), never on a shared screen."""

    @property
    def screen(self) -> HostScreen:
        """The table's shared screen feed (public only), as the table app shows it."""

    @property
    def controls(self) -> HostControls:
        """The host's keys for this table (its ``shutdown`` closes this table only)."""

    @property
    def paused(self) -> bool:
        """Whether the table stopped by itself because its journal could not be written:
        paused, not over (its players keep their seats for a ``--resume``)."""


class HallControls(Protocol):
    """The host's hall: every table served by this process. Requests raise ValueError with a
    sentence to show when they cannot be done (no table number left, ...)."""

    def tables(self) -> Sequence[HallTable]:
        """The tables served now, by number."""

    async def open_table(self, table: NewTable) -> HallTable: ...

    async def close_table(self, number: int) -> None:
        """Close one table for everyone at it (its players get a goodbye)."""

    async def shutdown(self) -> None:
        """Close every table and stop serving (Q on the hall, confirmed)."""
