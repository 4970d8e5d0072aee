"""A remote shared screen (``lanuno screen``): the client side of a SCREEN link.

``RemoteScreen`` pairs with a table's screen code (handshake mode 3, protocol/handshake.md)
and implements the shared screen's contract (``lanuno.ui.contracts.HostScreen``) from the
wire: the host's ``screen`` message gives the table's name, room code and addresses, and
every other message is what the host's own shared screen gets (public only: the host
never sends a hand on this link). It pings every 5 s, as players do, takes a link that
answers nothing for 15 s for dropped, and after a drop it pairs again with the same code
until ``close()`` (a refused code ends it: the code was wrong, or rotated after failed
pairings). While the link is down it looks for its table where it is announced, as a
player does (protocol/discovery.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator, Callable, Sequence

from lanuno.net.client import Endpoint, Locator, LostHost, open_first
from lanuno.wire.connection import ClientConnection, ConnectionClosed, HandshakeComplete
from lanuno.wire.errors import CloseCode, ProtocolError
from lanuno.wire.messages import Bye, Message, Ping, Pong, ScreenInfo

READ_CHUNK = 65536
PING_EVERY = 5.0
RETRY_EVERY = 2.0
SILENCE = 15.0
"""Seconds without a frame from the host (three pings unanswered) before the link is
taken for dead: a host whose link was pulled, or whose address changed, sends no reset."""
HANDSHAKE_TIMEOUT = 6.0
FINAL = frozenset(
    {CloseCode.NORMAL, CloseCode.HOST_SHUTDOWN, CloseCode.TABLE_SAVED, CloseCode.KICKED}
)
"""A ``bye`` with one of these ends the screen; any other end is a drop to recover from."""


WRONG_SCREEN_CODE = "the screen code is wrong (it is shown on the host's own screen)"


class ScreenError(Exception):
    """The screen could not pair; the message says why (``reason`` alone, for a message in
    the host's language: :mod:`lanuno.ui.reasons`)."""

    def __init__(self, address: str, reason: str) -> None:
        super().__init__(f"could not pair with {address}: {reason}")
        self.address, self.reason = address, reason

    @property
    def wrong_code(self) -> bool:
        return self.reason == WRONG_SCREEN_CODE


class RemoteScreen:
    """``HostScreen`` over a SCREEN link. ``await connect()`` first (raises ScreenError)."""

    def __init__(
        self,
        host: str,
        port: int,
        code: str,
        *,
        table: int = 1,
        random_bytes: Callable[[int], bytes] = os.urandom,
        ping_every: float = PING_EVERY,
        retry_every: float = RETRY_EVERY,
        silence: float = SILENCE,
        locate: Callable[[bytes, int], Locator] | None = None,
    ) -> None:
        """``silence``: a link with no authenticated frame for this long is dropped and
        paired again (the host answers every ping); ``locate``: a locator started while
        the link is down (the host may be announced at a new address, discovery.md)."""
        self.host, self.port, self.code, self.table = host, port, code, table
        self._locate = locate
        self._lost: LostHost | None = None
        """Set while the link is down and ``locate`` looks for the table."""
        self._trying: Endpoint = (host, port)
        self.room_id = b""
        self._random_bytes = random_bytes
        self._ping_every, self._retry_every, self._silence = ping_every, retry_every, silence
        self.info: ScreenInfo | None = None
        self._queue: asyncio.Queue[Message | None] = asyncio.Queue()
        self._conn: ClientConnection | None = None
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._runner: asyncio.Task[None] | None = None
        self._ended = False
        self.end_reason = ""
        self.reconnects = 0
        self._linked = False

    # ------------------------------------------------------------------ HostScreen

    @property
    def table_name(self) -> str:
        return self.info.name if self.info is not None else f"table {self.table}"

    @property
    def room_code(self) -> str:
        return self.info.code if self.info is not None else ""

    @property
    def addresses(self) -> Sequence[str]:
        """Where players join: ``lanuno join`` alone means table 1, so another table's
        addresses carry its ``--table N``."""
        found = self.info.addresses if self.info is not None else (f"{self.host}:{self.port}",)
        if self.table == 1:
            return found
        return [f"{address} --table {self.table}" for address in found]

    @property
    def announced(self) -> bool:
        return self.info.announced if self.info is not None else False

    @property
    def linked(self) -> bool:
        return self._linked or self._ended  # once ended, it pairs no more: nothing to say

    async def updates(self) -> AsyncIterator[Message]:
        while (message := await self._queue.get()) is not None:
            yield message

    # ------------------------------------------------------------------ life

    async def connect(self) -> None:
        """Pair once (raises ScreenError), then keep the link up in the background."""
        try:
            await self._pair()
        except (OSError, TimeoutError, ProtocolError) as error:
            why = _describe(error)
            self._end(why)
            raise ScreenError(f"{self.host}:{self.port}", why) from None
        self._runner = asyncio.create_task(self._run())

    async def close(self) -> None:
        if self._conn is not None and self._writer is not None:
            with contextlib.suppress(Exception):
                self._writer.write(self._conn.close(CloseCode.NORMAL, "screen closed"))
        # Ended and unplugged first: the runner stops even if a cancellation is lost in a
        # wait_for that completed at the same moment.
        self._end("closed")
        self._drop()
        if self._runner is not None and self._runner is not asyncio.current_task():
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._runner

    async def _pair(self) -> None:
        conn = ClientConnection.screen(self.code, self._random_bytes, self.table)
        self._trying = (self.host, self.port)
        now = asyncio.get_running_loop().time()
        located = self._lost.endpoints(now) if self._lost is not None else []
        reader, writer, endpoint = await open_first(
            [(self.host, self.port), *located], HANDSHAKE_TIMEOUT
        )
        self._trying = endpoint
        self._reader, self._writer, self._conn = reader, writer, conn
        writer.write(conn.data_to_send())
        loop = asyncio.get_running_loop()
        deadline = loop.time() + HANDSHAKE_TIMEOUT
        while True:
            data = await asyncio.wait_for(reader.read(READ_CHUNK), deadline - loop.time())
            events = conn.receive_data(data)
            writer.write(conn.data_to_send())
            for index, event in enumerate(events):
                if isinstance(event, HandshakeComplete):
                    self.host, self.port = endpoint  # where the host is now
                    self.room_id = event.room_id
                    self._linked = True
                    self._deliver(events[index + 1 :])
                    return
            if not data:
                raise ConnectionResetError("the host closed the connection")

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while not self._ended:
                final = await self._read()
                self._drop()
                if final:
                    return
                while not self._ended:  # a drop: pair again with the same code
                    await asyncio.sleep(self._retry_every)
                    await self._start_locating()
                    try:
                        await self._pair()
                    except (ProtocolError, OSError, TimeoutError) as error:
                        if self._trying != (self.host, self.port):
                            # Only announced there (anyone can announce a room id): the
                            # others get their turn, and nothing is held against the code.
                            if self._lost is not None:
                                self._lost.failed(self._trying, loop.time())
                        elif isinstance(error, ProtocolError) and error.code in (
                            CloseCode.AUTH_FAILED,
                            CloseCode.NO_SUCH_TABLE,
                        ):
                            self._end(_describe(error))
                            return
                        self._drop()
                    else:
                        self.reconnects += 1
                        await self._stop_locating()
                        break
        finally:
            self._drop()
            self._end(self.end_reason or "closed")
            await self._stop_locating()

    async def _start_locating(self) -> None:
        if self._locate is not None and self._lost is None and self.room_id:
            self._lost = LostHost(self._locate(self.room_id, self.table))
            await self._lost.locator.start()

    async def _stop_locating(self) -> None:
        lost, self._lost = self._lost, None
        if lost is not None:
            await lost.locator.close()

    async def _read(self) -> bool:
        """Read the link until it ends; True if the host said a final goodbye."""
        reader, conn, writer = self._reader, self._conn, self._writer
        assert reader is not None
        assert conn is not None
        assert writer is not None
        loop = asyncio.get_running_loop()
        next_ping, n = loop.time() + self._ping_every, 0
        silent_after = loop.time() + self._silence
        while not self._ended:
            if loop.time() >= silent_after:
                return False  # a host that answers no ping is gone (a pulled link, a move)
            try:
                data = await asyncio.wait_for(
                    reader.read(READ_CHUNK), max(0.0, min(next_ping, silent_after) - loop.time())
                )
            except TimeoutError:
                if loop.time() >= next_ping:
                    n += 1
                    with contextlib.suppress(Exception):
                        writer.write(conn.send(Ping(n=n)))
                    next_ping = loop.time() + self._ping_every
                continue
            except OSError:
                return False
            try:
                events = conn.receive_data(data)
            except ProtocolError:
                return False
            if events:  # an authenticated frame (a pong at least): the host is there
                silent_after = loop.time() + self._silence
            final = self._deliver(events)
            if final is not None:
                return final
            if not data:
                return False
        return True

    def _deliver(self, events: Sequence[object]) -> bool | None:
        """Pass messages on; None while the link goes on, else whether the end is final."""
        for event in events:
            if isinstance(event, ScreenInfo):
                self.info = event
                self._queue.put_nowait(event)  # the table app ignores what it does not know
            elif isinstance(event, Bye):
                self.end_reason = event.reason or "the host ended the link"
                return event.code in FINAL
            elif isinstance(event, ConnectionClosed):
                return event.clean and event.code in FINAL
            elif isinstance(event, Message) and not isinstance(event, Pong):
                self._queue.put_nowait(event)
        return None

    def _drop(self) -> None:
        self._linked = False
        if self._writer is not None:
            with contextlib.suppress(Exception):
                self._writer.close()
        self._writer = self._reader = None
        self._conn = None

    def _end(self, reason: str) -> None:
        if not self._ended:
            self._ended = True
            self.end_reason = self.end_reason or reason
            self._queue.put_nowait(None)


class ScreenControls:
    """A remote screen changes nothing at the table: the host's keys stay on the host.
    ``shutdown`` (Q) closes this screen only."""

    def __init__(self, screen: RemoteScreen) -> None:
        self._screen = screen

    @staticmethod
    def _refuse() -> None:
        raise ValueError("This is a remote screen: the host's own screen changes the table.")

    async def add_bot(self, level: str) -> None:  # noqa: ARG002 (HostControls' signature)
        self._refuse()

    async def remove_seat(self, seat: int) -> None:  # noqa: ARG002
        self._refuse()

    async def set_preset(self, preset: str) -> None:  # noqa: ARG002
        self._refuse()

    async def set_option(self, key: str, value: str) -> None:  # noqa: ARG002
        self._refuse()

    async def start(self) -> None:
        self._refuse()

    async def shutdown(self) -> None:
        await self._screen.close()


def _describe(error: BaseException) -> str:
    if isinstance(error, ConnectionRefusedError):
        return "nobody answers at that address (is the host running?)"
    if isinstance(error, TimeoutError):
        return "the host did not answer in time"
    if isinstance(error, ProtocolError) and error.code is CloseCode.AUTH_FAILED:
        return WRONG_SCREEN_CODE
    if isinstance(error, ProtocolError):
        return error.reason
    return str(error) or type(error).__name__
