"""A player's connection to the host (``ClientSession``) over TCP: the asyncio adapter of
``lanuno.client.ClientCore``.

The core decides everything (join or resume, when to ping, retry or give up, what to
resend, whether the deck checked out); this adapter only opens sockets, reads and writes
bytes, sleeps until the core's next deadline, and hands the host's messages and the
core's notices to the app through ``updates()``.

``lanuno join`` gives it a ``locate`` factory (unless told a loopback address): while it
has lost the host, it browses for the table's room id (``discovery.TableLocator``) and
tries the addresses the table is announced at along with the one it knew, the first to
answer wins. So a host that got a new address (a new DHCP lease, Wi-Fi to a cable) is
found again. Without one it browses nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from typing import Literal, Protocol

from lanuno.client import (
    ClientCore,
    ClientTiming,
    Connected,
    Credentials,
    FairnessAlarm,
    HostStillLost,
    Notice,
    Player,
    Reconnecting,
    ResumeTicket,
    SeatLost,
    SeedUnused,
    SessionEnded,
    SessionPhase,
)
from lanuno.client.deal import DealSeen
from lanuno.client.session import FINAL_CLOSE_CODES, MAX_REFUSALS, WRONG_CODE
from lanuno.net.seat_store import SeatFile
from lanuno.net.streams import settle_quietly
from lanuno.wire.errors import CloseCode
from lanuno.wire.fairness import ClientSeeds
from lanuno.wire.messages import Message, State, Welcome

ConnectionState = Literal["connecting", "connected", "quiet", "reconnecting", "closed"]
"""The same spelling as ``lanuno.ui.contracts.ConnectionState`` (net and ui do not import
each other; tests/commands/test_wiring.py ties the two)."""

READ_CHUNK = 65536
SHUN_FOR = 20.0
"""Seconds an announced address whose handshake failed is left out of the attempts: a
forged announcement that accepts first must not keep the real host from its turn."""

APP_NOTICES = (FairnessAlarm, SeedUnused, SeatLost, HostStillLost)
"""The local notices the app shows the player (the others steer this adapter)."""

Endpoint = tuple[str, int]


class Locator(Protocol):
    """Where the table is announced now (``discovery.TableLocator``)."""

    async def start(self) -> None: ...

    def endpoints(self) -> list[Endpoint]: ...

    async def close(self) -> None: ...


class LostHost:
    """While the host is lost: where its table is announced now (the locator), less the
    announced addresses whose handshake failed lately. Those sit out ``SHUN_FOR`` seconds,
    so that a forger that accepts first does not keep the real host from its turn."""

    def __init__(self, locator: Locator) -> None:
        self.locator = locator
        self._left_out: dict[Endpoint, float] = {}

    def endpoints(self, now: float) -> list[Endpoint]:
        return [e for e in self.locator.endpoints() if self._left_out.get(e, now) <= now]

    def failed(self, endpoint: Endpoint, now: float) -> None:
        self._left_out[endpoint] = now + SHUN_FOR


async def open_first(
    endpoints: Sequence[Endpoint], timeout: float
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, Endpoint]:
    """A TCP connection to the first of ``endpoints`` (duplicates dropped) to accept, all
    tried at once; raises the last failure if none does within ``timeout``."""
    unique = list(dict.fromkeys(endpoints))
    if len(unique) == 1:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(*unique[0]), timeout)
        settle_quietly(writer)
        return reader, writer, unique[0]
    tries = {
        asyncio.create_task(asyncio.wait_for(asyncio.open_connection(*e), timeout)): e
        for e in unique
    }
    winner: asyncio.Task[tuple[asyncio.StreamReader, asyncio.StreamWriter]] | None = None
    error: BaseException | None = None
    pending = set(tries)
    try:
        while pending and winner is None:
            done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                failure = task.exception()
                if failure is not None:
                    error = failure
                elif winner is None:
                    winner = task
                else:  # two accepted at once: one is enough
                    task.result()[1].close()
    finally:
        for task in pending:
            task.cancel()
        # One may have connected as it was cancelled: close it rather than leave it idle.
        for late in await asyncio.gather(*pending, return_exceptions=True):
            if isinstance(late, tuple):
                late[1].close()
    if winner is None:
        assert error is not None
        raise error
    reader, writer = winner.result()
    settle_quietly(writer)
    return reader, writer, tries[winner]


class JoinError(Exception):
    """The table could not be joined; the message says why, for the player (``reason``
    alone, for a message in the player's language: :mod:`lanuno.ui.reasons`)."""

    def __init__(self, address: str, reason: str, code: CloseCode | None = None) -> None:
        super().__init__(f"could not join {address}: {reason}")
        self.address, self.reason, self.code = address, reason, code

    @property
    def wrong_code(self) -> bool:
        return self.reason == WRONG_CODE

    @property
    def no_such_table(self) -> bool:
        """The host runs a hall and has no table of the number asked for."""
        return self.code is CloseCode.NO_SUCH_TABLE


def _describe(error: BaseException) -> str:
    if isinstance(error, ConnectionRefusedError):
        return "nobody answers at that address (is the host running?)"
    if isinstance(error, TimeoutError):
        return "the host did not answer in time"
    return str(error) or type(error).__name__


class NetClientSession:
    """``ClientSession`` over TCP. ``await connect()`` first (raises ``JoinError``)."""

    def __init__(
        self,
        host: str,
        port: int,
        code: str,
        name: str,
        *,
        age: int | None = None,
        kid: bool = False,
        timing: ClientTiming | None = None,
        random_bytes: Callable[[int], bytes] = os.urandom,
        ticket: ResumeTicket | None = None,
        seat_file: SeatFile | None = None,
        table: int = 1,
        locate: Callable[[bytes, int], Locator] | None = None,
    ) -> None:
        """``ticket``: a saved seat to resume instead of joining with ``code``;
        ``seat_file``: where to keep the seat's credentials for a restarted client;
        ``table``: the table's number at that address (a hall); ``locate``: a locator for
        the table (room id, number), started each time the host is lost."""
        self.host, self.port = host, port
        self.core = ClientCore(
            Player(code, name, age, kid, table), random_bytes, timing=timing, ticket=ticket
        )
        self._queue: asyncio.Queue[Message | Notice | None] = asyncio.Queue()
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._runner: asyncio.Task[None] | None = None
        self._ended = False
        self._seat_file = seat_file
        self._locate = locate
        self._lost: LostHost | None = None
        """Set while the host is lost and ``locate`` looks for its table."""
        self._announced: Endpoint | None = None
        """The announced address this attempt connected to, until its channel opens."""
        self._background: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ ClientSession

    @property
    def seat(self) -> int | None:
        return self.core.seat

    @property
    def check_number(self) -> int | None:
        return self.core.check_number

    @property
    def end_reason(self) -> str:
        reason = self.core.end_reason if self.core.finished else ""
        return "" if reason == "left" else reason

    @property
    def connection(self) -> ConnectionState:
        phase = self.core.phase
        if phase is SessionPhase.FINISHED or self._ended:
            return "closed"
        if phase is SessionPhase.OPEN:
            # The loop's clock is time.monotonic(): the core's times come from it.
            return "quiet" if self.core.host_quiet(time.monotonic()) else "connected"
        return "reconnecting" if self.core.ever_open else "connecting"

    async def updates(self) -> AsyncIterator[Message | Notice]:
        while (message := await self._queue.get()) is not None:
            yield message

    async def act(self, notation: str) -> None:
        self.core.act(notation)
        self._pump()

    async def set_ready(self, ready: bool) -> None:
        self.core.set_ready(ready)
        self._pump()

    async def close(self) -> None:
        self.core.close()
        self._pump()
        if self._runner is not None and self._runner is not asyncio.current_task():
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._runner
        self._end()
        self._stop_locating()
        for task in list(self._background):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # ------------------------------------------------------------------ what tests inspect

    @property
    def timing(self) -> ClientTiming:
        return self.core.timing

    @property
    def ticket(self) -> ResumeTicket | None:
        return self.core.ticket

    @ticket.setter
    def ticket(self, ticket: ResumeTicket | None) -> None:
        self.core.ticket = ticket

    @property
    def seq(self) -> int:
        """The last action number used."""
        return self.core.seq

    @property
    def last_state(self) -> State | None:
        return self.core.last_state

    @property
    def welcome(self) -> Welcome | None:
        return self.core.welcome

    @property
    def room_id(self) -> bytes:
        return self.core.room_id

    @property
    def seeds(self) -> ClientSeeds:
        return self.core.seeds

    @property
    def fair_rounds(self) -> dict[tuple[int, int], bool]:
        """(game, round) -> whether its deck checked out (fairness.md)."""
        return self.core.deals.verdicts

    @property
    def reconnects(self) -> int:
        return self.core.reconnects

    # ------------------------------------------------------------------ connecting

    async def connect(self) -> None:
        """The first connection (JOIN, or RESUME with a saved ticket); raises ``JoinError``
        with the reason if it fails."""
        await self._attempt()
        if self.core.phase is not SessionPhase.OPEN:
            self._end()
            reason = self.core.end_reason
            raise JoinError(f"{self.host}:{self.port}", reason, self.core.end_code)
        self._runner = asyncio.create_task(self._run())

    async def _attempt(self) -> None:
        """Open one TCP connection and read it until the handshake is over either way."""
        loop = asyncio.get_running_loop()
        try:
            reader, writer, endpoint = await self._open()
        except (OSError, TimeoutError) as error:
            self.core.connection_failed(loop.time(), _describe(error))
            self._pump()
            return
        unproven = endpoint != (self.host, self.port)  # only announced there
        self._announced = endpoint if unproven else None
        self._reader, self._writer = reader, writer
        self.core.connection_made(loop.time(), unproven=unproven)
        self._pump()
        await self._read(until_open=True)
        if self._announced is not None:  # not opened there: the others get their turn
            if self._lost is not None:
                self._lost.failed(self._announced, loop.time())
            self._announced = None

    async def _open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, Endpoint]:
        """A connection to the address it knows or, while the host is lost, to any address
        the table is announced at (but those whose handshake failed lately)."""
        now = asyncio.get_running_loop().time()
        located = self._lost.endpoints(now) if self._lost is not None else []
        return await open_first([(self.host, self.port), *located], self.timing.connect_timeout)

    def _adopt(self) -> None:
        """The channel opened at an announced address: the host is there now."""
        if self._announced is not None and self.core.phase is SessionPhase.OPEN:
            self.host, self.port = self._announced
            if self._seat_file is not None:
                self._seat_file.host, self._seat_file.port = self._announced
            self._announced = None

    # ------------------------------------------------------------------ running

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while not self.core.finished:
                if self.core.socket_wanted:
                    await self._read(until_open=False)
                elif self.core.wants_connection(loop.time()):
                    await self._attempt()
                else:
                    timer = self.core.get_timer()
                    delay = 3600.0 if timer is None else max(0.0, timer - loop.time())
                    await asyncio.sleep(delay)
        finally:
            self._drop_socket()
            self._end()

    async def _read(self, *, until_open: bool) -> None:
        """Feed the socket to the core until it no longer wants it (or, during a handshake
        with ``until_open``, until the channel is open); wake it at its deadlines."""
        loop, core, reader = asyncio.get_running_loop(), self.core, self._reader
        while core.socket_wanted and reader is not None:
            if until_open and core.phase is SessionPhase.OPEN:
                return
            timer = core.get_timer()
            timeout = None if timer is None else max(0.0, timer - loop.time())
            try:
                data = await asyncio.wait_for(reader.read(READ_CHUNK), timeout)
            except TimeoutError:
                core.handle_timer(loop.time())
                self._pump()
                continue
            except OSError:
                data = b""
            core.receive_data(data, loop.time())
            self._pump()
            if not data:
                break

    def _pump(self) -> None:
        """Write what the core wants sent, pass its events on, close a socket it is done
        with."""
        core, writer = self.core, self._writer
        out = core.data_to_send()
        if out and writer is not None:
            try:
                writer.write(out)
            except (OSError, RuntimeError):
                self._drop_socket()
        while (event := core.next_event()) is not None:
            self._adopt()  # before a ticket is saved with the address
            if isinstance(event, (Message, *APP_NOTICES)):
                self._queue.put_nowait(event)
            elif isinstance(event, Credentials):
                self._keep(event.ticket)
            elif isinstance(event, Reconnecting):
                self._start_locating()
            elif isinstance(event, Connected):
                self._stop_locating()
            elif isinstance(event, SessionEnded):
                self._end()
                self._stop_locating()
        if not core.socket_wanted:
            self._drop_socket()

    def _start_locating(self) -> None:
        """The host was lost: look for where its table is announced (a fresh locator, on
        this machine's interfaces as they are now)."""
        if self._locate is None or self._lost is not None or not self.core.room_id:
            return
        self._lost = LostHost(self._locate(self.core.room_id, self.core.player.table))
        self._in_background(self._lost.locator.start())

    def _stop_locating(self) -> None:
        lost, self._lost = self._lost, None
        if lost is not None:
            self._in_background(lost.locator.close())

    def _in_background(self, work: Coroutine[object, object, None]) -> None:
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _keep(self, ticket: ResumeTicket | None) -> None:
        """Keep (or forget) the seat's credentials on disk for a restarted client."""
        if self._seat_file is not None:
            with contextlib.suppress(OSError):  # a full disk costs the restart, not the game
                self._seat_file.keep(ticket)

    def _drop_socket(self) -> None:
        if self._writer is not None:
            with contextlib.suppress(Exception):
                self._writer.close()
        self._writer = self._reader = None

    def _end(self) -> None:
        if not self._ended:
            self._ended = True
            self._queue.put_nowait(None)
            if self._seat_file is not None:
                self._seat_file.release()


__all__ = [
    "FINAL_CLOSE_CODES",
    "MAX_REFUSALS",
    "ClientTiming",
    "DealSeen",
    "Endpoint",
    "JoinError",
    "Locator",
    "LostHost",
    "NetClientSession",
    "ResumeTicket",
    "open_first",
]
