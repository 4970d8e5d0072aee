"""What the terminal apps need from the network layer, and nothing more.

The apps in :mod:`lanuno.ui` are written against these protocols; :mod:`lanuno.net`
implements them over real connections (and tests implement them in memory). Everything
the apps receive is a validated wire message from :mod:`lanuno.wire.messages`, or a local
notice from :mod:`lanuno.client.notices` (what the client concluded by itself).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Literal, Protocol

from lanuno.client.notices import Notice
from lanuno.wire.messages import Message

ConnectionState = Literal["connecting", "connected", "reconnecting", "closed"]


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
