"""The host's asyncio adapter: TCP connections in, the pure ``Table`` in the middle.

A ``Listener`` owns the port: it reads each connection's client hello (its first 15 bytes
within 2 s), answers another generation's client (``LANUNO/g V``, g its generation) or a
table it does not serve (``LANUNO/2 T``) with fixed bytes, and hands the connection to its table's
``TableServer``. One listener serves one table (``TableServer.start()``) or every table of
a hall (lanuno.net.hall). The ``Gate`` admits connections for all of them: unauthenticated
connections are capped in total and per address (the host's sockets, not a table's); when
the cap is reached the oldest idle one makes room, so idle sockets can never lock a player
out (a resume under way is the last to go); an address that keeps failing codes is turned
away for a while.

Each ``TableServer`` runs the rest of the handshake under a 5 s deadline with its own room
code, screen code and guessing pace, then feeds validated messages to its table through a
token bucket. JOIN handshakes of a table take turns at a pace that grows with the rate of
its failed ones (wrong codes and handshakes abandoned after the SPAKE2 reply), so guessing
from many addresses stays slow while a new address gets the next turn. SCREEN links (mode
3, paired with the table's screen code, paced the same way) receive the shared screen's
public feed and nothing else.

After every input the server hands the table's journal records to the group commit
(``net/commit.py``: a worker thread, one write and fdatasync per file per pass) and sends
its outbox only once they are durable, so no action is acknowledged before it is on disk.
One timer task calls ``table.tick`` at ``table.next_deadline()``. A peer that completes no
frame for 15 s is dropped (clients ping every 5 s; a frame dribbled byte by byte does not
reset it), and a peer that does not read what it is sent is cut off (the socket is aborted,
not drained).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import os
import socket
import struct
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass

from lanuno.host.table import SCREEN, Close, Outgoing, Send, Table, TablePhase
from lanuno.net.commit import GroupCommit, shared_commit
from lanuno.net.discovery import discovery_addresses
from lanuno.net.journal_files import JournalWriter
from lanuno.net.workers import Workers, shared_workers
from lanuno.wire.connection import (
    CLIENT_HELLO_LENGTH,
    TABLE_BYTE,
    ConnectionClosed,
    HandshakeComplete,
    HostConnection,
    Phase,
    magic_refusal,
)
from lanuno.wire.crypto import (
    MAGIC_CLIENT,
    MAGIC_LENGTH,
    MAGIC_TABLE_REFUSED,
    Mode,
    RoomCodeGuard,
)
from lanuno.wire.errors import CloseCode, ProtocolError
from lanuno.wire.messages import SCREEN_VERSION, Message, Ping, Pong, ScreenInfo

READ_CHUNK = 65536
TIMER_RETRY = 0.5
"""Seconds the timer waits before trying again after the table's tick failed."""


@dataclass(frozen=True, slots=True)
class ServerLimits:
    """Robustness numbers from security-anchors.md section 3.2."""

    handshake_timeout: float = 5.0
    first_bytes_timeout: float = 2.0
    """The client hello (the first 15 bytes) must arrive this soon after the connect."""
    silence_timeout: float = 15.0
    """A connection must complete a frame this often (per frame, not per byte)."""
    max_unauthenticated: int = 32
    max_unauthenticated_per_ip: int = 4
    """Past either cap a new connection is still admitted: the oldest unauthenticated one
    (idle first, then JOINs waiting for their turn, then JOINs, resumes last) is closed."""
    rate: float = 20.0
    """Messages per second a connection may send on average..."""
    burst: float = 40.0
    """...and in one burst. Past the burst messages are dropped with one error; a sender
    that keeps going for another burst is disconnected."""
    max_write_buffer: int = 1 << 20
    """A peer that does not read what it is sent is cut off (aborted) past this many bytes."""
    drain_timeout: float = 5.0
    """A closed connection whose last bytes are not read within this time is aborted."""
    max_failures_per_ip: int = 5
    failure_window: float = 60.0
    failure_cooldown: float = 30.0
    """An address that fails the room code ``max_failures_per_ip`` times within
    ``failure_window`` seconds is refused for ``failure_cooldown`` seconds."""
    pace_window: float = 60.0
    pace_free_failures: int = 5
    pace_step: float = 0.05
    pace_max: float = 2.0
    """JOIN handshakes start one at a time, ``min(pace_max, pace_step * F)`` seconds apart,
    F being the failed JOINs of the last ``pace_window`` seconds (no pace below
    ``pace_free_failures``). Saturated, that is about 35 guesses a minute from any number
    of addresses; an address without recent failures gets the next turn."""
    rotate_after: int = 100
    """Failed JOINs against one room code before it changes (the pace, not the rotation,
    is what keeps guessing slow; a code that changes every few seconds locks honest
    players out)."""


class TokenBucket:
    __slots__ = ("burst", "last", "rate", "tokens")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate, self.burst, self.tokens, self.last = rate, burst, burst, now

    def take(self, now: float) -> float:
        """Spend one token; returns the tokens left (below 0: over the limit)."""
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        self.tokens -= 1
        return self.tokens


@dataclass(slots=True)
class Link:
    peer: int
    conn: HostConnection
    writer: asyncio.StreamWriter
    bucket: TokenBucket
    closed: bool = False
    """Nothing more is read or dispatched (its goodbye may still wait for the disk)."""
    shut: bool = False
    """Its goodbye is written (or the socket aborted): nothing more is sent."""
    screen: bool = False
    """A SCREEN link: the public feed goes to it; the table does not know it."""


@dataclass(frozen=True, slots=True)
class Shut:
    """A link's goodbye, held like a message behind turns still waiting for the disk."""

    link: Link
    code: CloseCode
    reason: str


MAX_REMEMBERED_ADDRESSES = 4096
IDLE, WAITING, WAITING_FRESH, JOINING, RESUMING = range(5)
"""Stages of an unauthenticated connection."""
IDLE_GRACE = 0.25
"""Seconds a new connection counts as arriving rather than idle (its hello is on the way)."""


def _eviction_rank(pending: Pending, now: float) -> tuple[int, int]:
    """Closed first when room is needed: sockets idle past the grace, then JOINs waiting
    for their turn from addresses that failed a code recently, then waiting JOINs from new
    addresses (the address seen first goes first), then connections still arriving, then
    JOINs under way; resumes last. Oldest first within a rank."""
    if pending.stage == IDLE:
        return (0 if now - pending.since > IDLE_GRACE else 3), pending.peer
    if pending.stage == WAITING_FRESH:
        return 2, pending.arrival
    return {WAITING: 1, JOINING: 4, RESUMING: 5}[pending.stage], pending.peer


@dataclass(slots=True)
class Pending:
    """A connection still in its handshake."""

    peer: int
    ip: str
    writer: asyncio.StreamWriter
    since: float
    stage: int = IDLE
    epoch: int = -1
    """The room-code epoch its JOIN runs under (a failure counts against that code)."""
    arrival: int = 0
    """A waiting JOIN from a new address: when the address was first seen waiting."""
    had_turn: bool = False
    """A JOIN that took a turn at the guessing pace (gives it back when it ends)."""
    confirming: bool = False
    """A JOIN that has the host's SPAKE2 reply: hanging up now counts as a failed code."""
    evicted: bool = False
    wake: Callable[[], None] | None = None
    """Wakes the line it waits in (its table's pace) when it is evicted."""


class GuessPace:
    """One JOIN handshake at a time, spaced by an interval that grows with the recent
    failures (``ServerLimits.pace_*``). Waiters from addresses without recent failures go
    first (newest first), so an honest player is served next even while many addresses
    guess."""

    def __init__(self, limits: ServerLimits, now: Callable[[], float]) -> None:
        self._limits = limits
        self._now = now
        self._failures: deque[float] = deque()
        self._next_at = 0.0
        self._in_flight = 0
        self._tickets = itertools.count()
        self._waiting: dict[tuple[int, int, int], asyncio.Event] = {}
        self._arrivals: dict[str, int] = {}

    def forget(self, ip: str) -> None:
        """A JOIN from this address succeeded: a later one is a new arrival again."""
        self._arrivals.pop(ip, None)

    def wake_all(self) -> None:
        """A waiter's connection went away: let it leave the line now."""
        for event in self._waiting.values():
            event.set()

    def note_failure(self) -> None:
        self._failures.append(self._now())

    def recent_failures(self) -> int:
        now, window = self._now(), self._limits.pace_window
        while self._failures and now - self._failures[0] >= window:
            self._failures.popleft()
        return len(self._failures)

    def finished(self) -> None:
        """A JOIN that had its turn ended (either way)."""
        self._in_flight -= 1

    def interval(self) -> float:
        # JOINs under way count as failures until they end: a burst of guesses must not
        # all get turns before the first of their failures is recorded.
        failures, limits = self.recent_failures() + self._in_flight, self._limits
        if failures < limits.pace_free_failures:
            return 0.0
        return min(limits.pace_max, limits.pace_step * failures)

    def arrival(self, ip: str) -> int:
        """When this address was first seen waiting (reconnecting keeps its place)."""
        order = self._arrivals.get(ip)
        if order is None:
            if len(self._arrivals) >= MAX_REMEMBERED_ADDRESSES:
                del self._arrivals[next(iter(self._arrivals))]
            order = self._arrivals[ip] = next(self._tickets)
        return order

    async def turn(self, ip: str, fresh: bool, gone: Callable[[], bool]) -> None:
        """Wait for this handshake's turn (cancel-safe). A waiter whose connection is
        ``gone`` leaves the line without using a turn."""
        # New addresses, the address seen last first: a guesser with many addresses queues
        # its first tries there too (and reconnects when pushed out), and the player who
        # just typed the code must not wait behind them. Then the others, in order.
        count = next(self._tickets)
        ticket = (0, -self.arrival(ip), count) if fresh else (1, count, count)
        event = self._waiting[ticket] = asyncio.Event()
        try:
            while True:
                now = self._now()
                first = min(self._waiting) == ticket
                if gone():
                    return
                if first and now >= self._next_at:
                    self._in_flight += 1
                    self._next_at = now + self.interval()
                    return
                event.clear()
                timeout = max(0.0, self._next_at - now) if first else None
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), timeout)
        finally:
            del self._waiting[ticket]
            if self._waiting:
                self._waiting[min(self._waiting)].set()


class Gate:
    """Admission for one port (every table behind it): the connections still in their
    handshake, capped in total and per address, and the per-address courtesy (an address
    that failed codes ``max_failures_per_ip`` times in the window, at any table, is turned
    away for the cooldown). Peer ids are drawn here, so they are unique across tables."""

    def __init__(
        self, limits: ServerLimits, now: Callable[[], float], log: Callable[[str], None]
    ) -> None:
        self.limits = limits
        self.now = now
        self._log = log
        self.pending: dict[int, Pending] = {}
        """Connections still in their handshake, oldest first."""
        self._peers = itertools.count(1)
        self._failures_by_ip: dict[str, list[float]] = {}
        self._blocked_until: dict[str, float] = {}
        self._quiet_until: dict[str, float] = {}

    def next_peer(self) -> int:
        return next(self._peers)

    def blocked(self, ip: str) -> bool:
        """Cooling down after failed codes (closed at once, no answer)."""
        until = self._blocked_until.get(ip)
        if until is None:
            return False
        if until <= self.now():
            del self._blocked_until[ip]  # the cooldown is over
            return False
        return True

    def fresh(self, ip: str) -> bool:
        """At most one failed code from this address within the failure window (one typo
        is human; a second makes the address a suspected guesser)."""
        now, window = self.now(), self.limits.failure_window
        return sum(now - t < window for t in self._failures_by_ip.get(ip, ())) < 2

    def note_failure(self, ip: str) -> None:
        """Count a failed code against its address (blocked past the limit)."""
        now, limits = self.now(), self.limits
        recent = [t for t in self._failures_by_ip.get(ip, []) if now - t < limits.failure_window]
        recent.append(now)
        if len(self._failures_by_ip) >= MAX_REMEMBERED_ADDRESSES and ip not in self._failures_by_ip:
            del self._failures_by_ip[next(iter(self._failures_by_ip))]
        self._failures_by_ip[ip] = recent
        if len(recent) >= limits.max_failures_per_ip:
            # The failures are kept: once back, the address queues behind new ones until
            # they age out of the window (a further failure blocks it again at once).
            self._blocked_until[ip] = now + limits.failure_cooldown
            self._log(f"{ip}: {len(recent)} wrong codes; refused for {limits.failure_cooldown:g} s")

    def admit(self, ip: str, writer: asyncio.StreamWriter) -> Pending | None:
        """A new connection's place among the unfinished handshakes, or None (blocked, or
        no room for it)."""
        if self.blocked(ip):
            return None
        if not self.make_room(ip, self.fresh(ip)):
            self.log_now_and_then("full", f"{ip}: handshakes full; refused")
            return None
        pending = Pending(self.next_peer(), ip, writer, self.now())
        self.pending[pending.peer] = pending
        return pending

    def make_room(self, ip: str, fresh: bool) -> bool:
        """Close the oldest least-advanced unauthenticated connection(s) so a new one fits
        under both caps: idle sockets cannot lock out a player or starve a resume. An
        address that failed codes recently may only push out sockets idle past the grace and
        other such addresses' waiting JOINs (never a new address's JOIN or a connection still
        arriving); False: no room for it."""
        limits, now = self.limits, self.now()

        def candidates(pool: list[Pending]) -> list[Pending]:
            if fresh:
                return pool
            return [
                p
                for p in pool
                if p.stage == WAITING or (p.stage == IDLE and now - p.since > IDLE_GRACE)
            ]

        same_ip = [p for p in self.pending.values() if p.ip == ip]
        if len(same_ip) >= limits.max_unauthenticated_per_ip:
            pool = candidates(same_ip)
            if not pool:
                return False
            self.evict(min(pool, key=lambda p: _eviction_rank(p, now)))
        if len(self.pending) >= limits.max_unauthenticated:
            pool = candidates(list(self.pending.values()))
            if not pool:
                return False
            self.evict(min(pool, key=lambda p: _eviction_rank(p, now)))
        return True

    def evict(self, pending: Pending) -> None:
        self.pending.pop(pending.peer, None)
        pending.evicted = True
        _close_writer(pending.writer, self.limits)
        if pending.wake is not None:
            pending.wake()
        self.log_now_and_then(
            "evict", f"{pending.ip}: too many unfinished handshakes; closing the oldest"
        )

    def forget(self, pending: Pending) -> None:
        self.pending.pop(pending.peer, None)

    def log_now_and_then(self, kind: str, line: str) -> None:
        """One line per kind every 5 s: a flood of idle sockets must not flood the log."""
        now = self.now()
        if self._quiet_until.get(kind, 0.0) <= now:
            self._quiet_until[kind] = now + 5.0
            self._log(line)


async def read_client_hello(reader: asyncio.StreamReader) -> bytes:
    """The client hello's bytes: the magic first (another generation's hello is shorter,
    and must get its answer), then the rest. Fewer at end of stream."""
    try:
        magic = await reader.readexactly(MAGIC_LENGTH)
    except asyncio.IncompleteReadError as short:
        return short.partial
    if magic != MAGIC_CLIENT:
        return magic
    try:
        return magic + await reader.readexactly(CLIENT_HELLO_LENGTH - MAGIC_LENGTH)
    except asyncio.IncompleteReadError as short:
        return magic + short.partial


class Listener:
    """One port for the tables ``route`` names (``route(number)``: that table's server, or
    None). Reads each client hello, answers what it cannot route, hands the rest over."""

    def __init__(
        self,
        route: Callable[[int], TableServer | None],
        gate: Gate,
        *,
        host: str,
        port: int,
        log: Callable[[str], None],
    ) -> None:
        self.route = route
        self.gate = gate
        self.host = host
        self.port = port
        self._log = log
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._writers: set[asyncio.StreamWriter] = set()
        self.closing = False

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._accept, self.host, self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        self.closing = True
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)
        for writer in list(self._writers):  # connections not handed to a table yet
            _close_writer(writer, self.gate.limits)
        if self._tasks:
            _, late = await asyncio.wait(set(self._tasks), timeout=2.0)
            for task in late:
                task.cancel()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        self._writers.add(writer)
        handed = False
        try:
            handed = await self._route(reader, writer)
        except Exception as error:  # one connection's bug must not take the host down
            self._log(f"connection error: {type(error).__name__}: {error}")
        finally:
            self._tasks.discard(task)
            self._writers.discard(writer)
            if not handed:
                _close_writer(writer, self.gate.limits)

    async def _route(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        peername = writer.get_extra_info("peername")
        ip = str(peername[0]) if peername else "?"
        gate = self.gate
        if self.closing:
            return False
        pending = gate.admit(ip, writer)
        if pending is None:
            return False
        try:
            first = await asyncio.wait_for(
                read_client_hello(reader),
                min(gate.limits.first_bytes_timeout, gate.limits.handshake_timeout),
            )
        except TimeoutError:
            gate.forget(pending)
            gate.log_now_and_then("idle", f"{ip}: no client hello; closed")
            return False
        except OSError:
            gate.forget(pending)
            return False
        if first[:MAGIC_LENGTH] != MAGIC_CLIENT or len(first) < CLIENT_HELLO_LENGTH:
            gate.forget(pending)
            _write(writer, magic_refusal(first[:MAGIC_LENGTH]))  # another generation: V
            if first:
                self._log(f"{ip}: handshake refused (not this generation's client hello)")
            return False
        server = self.route(first[TABLE_BYTE])
        if server is None or server.closed.is_set():
            gate.forget(pending)
            _write(writer, MAGIC_TABLE_REFUSED)
            self._log(f"{ip}: no table {first[TABLE_BYTE]} here; refused")
            return False
        await server.serve(pending, reader, writer, first)
        return True


def _cut_off(transport: asyncio.BaseTransport) -> None:
    """Drop the connection now: a reset (linger 0), so neither asyncio's buffer nor the
    kernel's send queue waits for a peer that does not read."""
    sock = transport.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    assert isinstance(transport, asyncio.WriteTransport)
    transport.abort()


def _write(writer: asyncio.StreamWriter, data: bytes) -> bool:
    """Write unless the transport is already closing or lost: writing to a lost socket
    only makes asyncio log ``socket.send() raised exception`` (once per write)."""
    if not data or writer.transport.is_closing():
        return False
    writer.write(data)
    return True


class ScreenFeed:
    """The shared screen's messages (public only), fanned out to every ``updates()``."""

    def __init__(self) -> None:
        self._queues: list[asyncio.Queue[Message | None]] = []
        self._recent: dict[str, Message] = {}
        self._closed = False

    def publish(self, message: Message) -> None:
        if message.TYPE in ("lobby", "state"):
            self._recent[message.TYPE] = message
        for queue in self._queues:
            queue.put_nowait(message)

    def recent(self) -> list[Message]:
        """The latest lobby and state (what a late viewer starts from)."""
        return list(self._recent.values())

    def close(self) -> None:
        self._closed = True
        for queue in self._queues:
            queue.put_nowait(None)

    async def updates(self) -> AsyncIterator[Message]:
        queue: asyncio.Queue[Message | None] = asyncio.Queue()
        for message in self._recent.values():  # a late viewer starts from the latest
            queue.put_nowait(message)
        if self._closed:
            queue.put_nowait(None)
        self._queues.append(queue)
        try:
            while True:
                item = await queue.get()
                if item is None:
                    return
                yield item
        finally:
            self._queues.remove(queue)


def lan_address() -> str:
    """One IPv4 address to show: the default route's interface if there is one (no packet
    is sent: connecting a UDP socket only picks a route), else the first LAN interface (a
    LAN without a router has no default route), else loopback."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere real
            address: str = probe.getsockname()[0]
        except OSError:
            return discovery_addresses(None)[0]
    return address


def _close_writer(writer: asyncio.StreamWriter, limits: ServerLimits) -> None:
    """Close after the queued bytes are sent, but never wait on a peer that does not
    read: past ``drain_timeout`` (or ``max_write_buffer``) the socket is aborted."""
    transport = writer.transport
    with contextlib.suppress(Exception):
        if transport.get_write_buffer_size() > limits.max_write_buffer:
            _cut_off(transport)
            return
        writer.close()
        if transport.get_write_buffer_size():
            asyncio.get_running_loop().call_later(limits.drain_timeout, _cut_off, transport)


def _new_screen_code(random_bytes: Callable[[int], bytes], room_code: str) -> str:
    """A table's screen code: 6 digits of its own (never its room code)."""
    while True:
        code = RoomCodeGuard(random_bytes).code
        if code != room_code:
            return code


class TableServer:
    """Serves one table. Alone: ``await start()`` listens on its own port (table number 1),
    then ``await close()`` ends it. In a hall (lanuno.net.hall) the hall's listener hands it
    the connections whose client hello names its ``number`` (``gate``: the hall's, shared;
    ``listen=False`` to ``start``)."""

    def __init__(
        self,
        table: Table,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        journal: JournalWriter | None = None,
        commit: GroupCommit | None = None,
        workers: Workers | None = None,
        limits: ServerLimits | None = None,
        log: Callable[[str], None] | None = None,
        random_bytes: Callable[[int], bytes] = os.urandom,
        number: int = 1,
        gate: Gate | None = None,
        screen_code: str | None = None,
    ) -> None:
        self.table = table
        self.host = host
        self.port = port
        self.number = number
        """The table's number in its hall (the client hello names it): 1..64."""
        self.journal = journal
        self.commit = commit or shared_commit()
        self.workers = workers or shared_workers()
        """SPAKE2 steps of handshakes and expert bots' searches run there, off the loop."""
        table.use_bot_factory(self.workers.bot_factory(table.bot_factory))
        """Writes the journal off the loop, one pass for every table of the process."""
        self._held: deque[tuple[asyncio.Future[None] | None, Sequence[Outgoing | Shut]]] = deque()
        """Turns whose messages wait for their records to be durable, oldest first."""
        self.limits = limits or ServerLimits()
        self.screen_feed = ScreenFeed()
        self._log = log or (lambda _line: None)
        table.log = self._log
        self._journal_failed: str | None = None
        """Why the journal could not be written: the table stops, nothing more is sent."""
        self._closing: asyncio.Task[None] | None = None
        self._random_bytes = random_bytes
        self._links: dict[int, Link] = {}
        self._screens: dict[int, Link] = {}
        """SCREEN links (the table does not know them)."""
        # The table's clock carries on from its journal after a restart.
        self._epoch = time.monotonic() - table.last_now
        self.gate = gate or Gate(self.limits, self.now, self._log)
        self._own_gate = gate is None
        self._listener: Listener | None = None
        self._pace = GuessPace(self.limits, self.now)
        self._screen_pace = GuessPace(self.limits, self.now)
        """Screen codes are guessed at their own pace (a failure there slows no JOIN)."""
        table.guard.max_failures = self.limits.rotate_after
        self.screen_guard = RoomCodeGuard(
            random_bytes,
            max_failures=self.limits.rotate_after,
            code=screen_code or _new_screen_code(random_bytes, table.guard.code),
        )
        """The screen code: pairs a remote shared screen (``lanuno screen``); shown on the
        host's own screen only, never on a shared screen."""
        self._code_epoch = table.guard.epoch
        self._screen_epoch = self.screen_guard.epoch
        self.code_rotations = 0
        """How many times failed codes changed the room code since the server started."""
        self.on_code_rotated: Callable[[str], None] | None = None
        """Called with the new code after each rotation (the shared screen warns)."""
        self.on_screen_code_rotated: Callable[[str], None] | None = None
        """Called with the new screen code after failed pairings rotated it."""
        self.announced = False
        """Whether mDNS announces the table (remote screens say so)."""
        self._screen_info: ScreenInfo | None = None
        self._timer: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()
        self._writers: set[asyncio.StreamWriter] = set()
        self.closed = asyncio.Event()
        self.on_change: Callable[[], None] | None = None
        """Called after each batch of table changes (the announcer updates free seats)."""

    def now(self) -> float:
        return time.monotonic() - self._epoch

    @property
    def _pending(self) -> dict[int, Pending]:
        """The unfinished handshakes at this port (every table's, in a hall)."""
        return self.gate.pending

    @property
    def screen_code(self) -> str:
        return self.screen_guard.code

    @property
    def addresses(self) -> list[str]:
        """Every address players can join at (all LAN interfaces when serving on all)."""
        if self.host in ("0.0.0.0", ""):
            return [f"{address}:{self.port}" for address in discovery_addresses(None)]
        return [f"{self.host}:{self.port}"]

    @property
    def loopback_only(self) -> bool:
        """Only this machine can join: no LAN interface is up (or loopback was asked for)."""
        return all(address.startswith("127.") for address in self.addresses)

    async def start(self, *, listen: bool = True) -> None:
        """Start the table's timer; ``listen``: on a port of its own (alone, not in a hall)."""
        if listen:
            self._listener = Listener(
                lambda number: self if number == self.number else None,
                self.gate,
                host=self.host,
                port=self.port,
                log=self._log,
            )
            await self._listener.start()
            self.port = self._listener.port
        self._timer = asyncio.create_task(self._timer_loop())
        self.workers.warm_up()  # the first join must not wait for a worker to start
        self.pump()

    @property
    def stopped(self) -> str | None:
        """Why the table stopped before its end (its journal could not be written), or None."""
        return self._journal_failed

    async def close(
        self, reason: str = "the host closed the table", code: CloseCode = CloseCode.HOST_SHUTDOWN
    ) -> None:
        if self.closed.is_set():
            return
        self.closed.set()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.durable(), 5.0)  # the group commit's last pass
        for link in [*self._links.values(), *self._screens.values()]:
            self._end_link(link, code, reason)
        if self._listener is not None:
            await self._listener.close()
        if self._timer is not None:
            self._wake.set()
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(self._timer, 2.0)
        for writer in list(self._writers):  # unfinished handshakes too
            self._close_writer(writer)
        if self._tasks:
            # Closed sockets end every handler; cancelling them instead would make asyncio's
            # stream callback log the cancellation as an error.
            _, late = await asyncio.wait(set(self._tasks), timeout=2.0)
            for task in late:
                task.cancel()
        self.screen_feed.close()
        if self.journal is not None:
            self.journal.close()

    # ------------------------------------------------------------------ the pump

    def pump(self, *, wake: bool = True) -> None:
        """Journal first, then send: nothing is acknowledged before it is on disk. The
        records go to the group commit (``net/commit.py``, off the loop); this turn's
        messages wait, in order behind earlier ones, until the pass holding them is durable.
        A peer's frames of one batch go out in one write (one syscall, one read for it)."""
        records = self.table.take_records()
        outbox = self.table.take_outbox()
        if self._journal_failed is None:
            durable = None
            if records and self.journal is not None:
                durable = self.commit.submit(self.journal, records)
                durable.add_done_callback(lambda _f: self._release())
            if durable is not None or self._held or outbox:
                self._held.append((durable, outbox))
                self._release()
        if wake:
            self._wake.set()  # deadlines may have moved: the timer looks again

    def _release(self) -> None:
        """Send the held turns whose records are durable, oldest first (stop at the first
        that is not: a table's messages never overtake each other)."""
        sent = False
        while self._held and self._journal_failed is None:
            durable, outbox = self._held[0]
            if durable is not None:
                if not durable.done():
                    break
                error = None if durable.cancelled() else durable.exception()
                if durable.cancelled() or error is not None:
                    # What is not on disk must not be acknowledged: nothing more leaves.
                    self._held.clear()
                    self._fail(f"the journal cannot be written ({error}); the table stops")
                    return
            self._held.popleft()
            self._send(outbox)
            sent = True
        if sent and self.on_change is not None:
            self.on_change()

    async def durable(self) -> None:
        """Until every turn pumped so far is on disk and sent (or the journal failed)."""
        while self._held and self._journal_failed is None:
            pending = [d for d, _ in self._held if d is not None and not d.done()]
            if not pending:
                self._release()
                continue
            with contextlib.suppress(Exception):
                await asyncio.shield(pending[-1])
            await asyncio.sleep(0)  # the release callbacks run first

    def _send(self, outbox: Sequence[Outgoing | Shut]) -> None:
        batches: dict[int, bytearray] = {}
        if self._screens:
            self._refresh_screen_info(batches)
        for item in outbox:
            if isinstance(item, Send):
                if item.peer == SCREEN:
                    self.screen_feed.publish(item.message)
                    for peer in self._screens:  # the same public message, framed per link
                        self._frame(peer, item.message, batches)
                else:
                    self._frame(item.peer, item.message, batches)
            elif isinstance(item, Close):
                self._flush(batches, item.peer)
                link = self._links.get(item.peer)
                if link is not None:
                    self._end_link(link, item.code, item.reason)
            elif isinstance(item, Shut):
                self._flush(batches, item.link.peer)
                self._shut(item.link, item.code, item.reason)
        for peer in list(batches):
            self._flush(batches, peer)

    def screen_info(self) -> ScreenInfo:
        """What a remote shared screen shows besides the feed (the room code, not the
        screen code)."""
        return ScreenInfo(
            version=SCREEN_VERSION,
            table=self.number,
            name=self.table.config.name[:32],
            code=self.table.room_code,
            addresses=tuple(a for a in self.addresses if len(a) <= 64)[:8],
            announced=self.announced,
        )

    def _refresh_screen_info(self, batches: dict[int, bytearray]) -> None:
        """Every SCREEN link gets the table's info again when it changed (a new room code)."""
        info = self.screen_info()
        if info != self._screen_info:
            self._screen_info = info
            for peer in self._screens:
                self._frame(peer, info, batches)

    def _fail(self, reason: str) -> None:
        """Stop the table: a change that is not journaled must not be played on."""
        self._journal_failed = reason
        self._log(reason)
        # Paused, not over: the clients keep their resume secrets for a --resume.
        self._closing = asyncio.get_running_loop().create_task(
            self.close(reason, CloseCode.TABLE_PAUSED)
        )

    def _link(self, peer: int) -> Link | None:
        return self._links.get(peer) or self._screens.get(peer)

    def _frame(self, peer: int, message: Message, batches: dict[int, bytearray]) -> None:
        link = self._link(peer)
        if link is None or link.shut or link.conn.closed:
            return
        try:
            batches.setdefault(peer, bytearray()).extend(link.conn.send(message))
        except (ProtocolError, OSError, RuntimeError) as error:
            self._log(f"peer {peer}: send failed ({error}); dropping it")
            self._end_link(link, CloseCode.INTERNAL_ERROR, "send failed")

    def _flush(self, batches: dict[int, bytearray], peer: int) -> None:
        data = batches.pop(peer, None)
        link = self._link(peer)
        if not data or link is None or link.shut:
            return
        _write(link.writer, bytes(data))
        if link.writer.transport.get_write_buffer_size() > self.limits.max_write_buffer:
            self._log(f"peer {peer}: not reading its messages; cutting it off")
            self._end_link(link, CloseCode.TIMEOUT, "not reading", abort=True)

    def _end_link(self, link: Link, code: CloseCode, reason: str, *, abort: bool = False) -> None:
        if link.closed:
            return
        link.closed = True
        if code is not CloseCode.TIMEOUT and not link.screen:
            self.table.on_leaving(link.peer)  # the host ends it: not a drop to hold a seat for
        if abort:  # a bye would only queue behind what the peer does not read
            link.shut = True
            _cut_off(link.writer.transport)
            return
        if self._held:  # the bye leaves after the messages still waiting for the disk
            self._held.append((None, [Shut(link, code, reason)]))
            return
        self._shut(link, code, reason)

    def _shut(self, link: Link, code: CloseCode, reason: str) -> None:
        if link.shut:
            return
        link.shut = True
        with contextlib.suppress(Exception):
            _write(link.writer, link.conn.close(code, reason[:200]))
        self._close_writer(link.writer)

    def _close_writer(self, writer: asyncio.StreamWriter) -> None:
        _close_writer(writer, self.limits)

    def _log_now_and_then(self, kind: str, line: str) -> None:
        self.gate.log_now_and_then(kind, line)

    async def _timer_loop(self) -> None:
        while not self.closed.is_set():
            deadline = self.table.next_deadline()
            delay = None if deadline is None else max(0.0, deadline - self.now())
            if delay is None or delay > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), delay)
            else:
                await asyncio.sleep(0)  # let connections run between bursts of bot moves
            self._wake.clear()
            if self.closed.is_set():
                return
            failed = False
            # One bug must not stop the only timer task: log it and go on. (A journal that
            # cannot be written is not one of these: pump stops the table.)
            try:
                self.table.tick(self.now())
            except Exception as error:
                self._log(f"table timer: {type(error).__name__}: {error}")
                failed = True
            try:
                self.pump(wake=False)  # what the tick did before failing is kept
            except Exception as error:
                self._log(f"table timer: sending failed: {type(error).__name__}: {error}")
                failed = True
            if failed:  # no busy loop on a deadline that keeps failing
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), TIMER_RETRY)

    # ------------------------------------------------------------------ connections

    async def serve(
        self,
        pending: Pending,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        first: bytes,
    ) -> None:
        """A connection whose client hello (``first``) names this table, until it ends."""
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        self._writers.add(writer)
        try:
            await self._serve(pending, reader, writer, first)
        except Exception as error:  # one connection's bug must not take the table down
            self._log(f"connection error: {type(error).__name__}: {error}")
        finally:
            self._tasks.discard(task)
            self._writers.discard(writer)
            self.gate.forget(pending)
            self._close_writer(writer)

    def _guard_for(self, mode: Mode) -> RoomCodeGuard:
        return self.screen_guard if mode is Mode.SCREEN else self.table.guard

    def _pace_for(self, mode: Mode) -> GuessPace:
        return self._screen_pace if mode is Mode.SCREEN else self._pace

    async def _serve(
        self,
        pending: Pending,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        first: bytes,
    ) -> None:
        ip, peer, limits = pending.ip, pending.peer, self.limits
        if self.closed.is_set():
            return
        conn = HostConnection(
            self.table.guard,
            self.table.room_id,
            self._random_bytes,
            functools.partial(self.table.resume_lookup, peer=peer),
            table=self.number,
            screen_guard=self.screen_guard,
            offload=True,
        )
        result: list[object] | None = None
        # The handshake deadline counts from the connect, the client hello included.
        left = max(0.0, limits.handshake_timeout - (self.gate.now() - pending.since))
        try:
            result = await asyncio.wait_for(
                self._handshake(pending, conn, reader, writer, first), left
            )
        except TimeoutError:
            self._log(f"{ip}: handshake not finished within {limits.handshake_timeout:g} s")
        except (ProtocolError, OSError) as error:
            with contextlib.suppress(Exception):
                _write(writer, conn.data_to_send())  # e.g. the resume refusal
            if not pending.evicted:
                self._log(f"{ip}: handshake refused ({error})")
            failed_code = isinstance(error, ProtocolError) and error.code is CloseCode.AUTH_FAILED
            if failed_code and conn.mode is not Mode.RESUME:  # a secret is not guessable
                self._note_failure(ip, conn.mode)
                pending.confirming = False  # the connection counted it already
        finally:
            self.gate.forget(pending)
            if pending.had_turn:
                self._pace_for(conn.mode).finished()
            if result is None:
                if pending.confirming:  # hung up (or timed out) after the SPAKE2 reply
                    self._guard_for(conn.mode).record_failure(pending.epoch)
                    self._note_failure(ip, conn.mode)
                self.table.on_closed(peer, self.now())  # forgets the unfinished handshake
                self._after_failure()
        if result is None:
            return
        self._pace_for(conn.mode).forget(ip)
        link = Link(peer, conn, writer, TokenBucket(limits.rate, limits.burst, self.now()))
        if conn.mode is Mode.SCREEN:
            await self._serve_screen(link, reader, result)
            return
        self._links[peer] = link
        try:
            self._dispatch(link, result)
            await self._read_loop(link, reader)
        finally:
            with contextlib.suppress(Exception):  # what is held for it leaves first
                await asyncio.wait_for(self.durable(), self.limits.drain_timeout)
            self._links.pop(peer, None)
            self.table.on_closed(peer, self.now())
            self.pump()
            self._end_link(link, CloseCode.NORMAL, "")

    async def _serve_screen(
        self, link: Link, reader: asyncio.StreamReader, events: list[object]
    ) -> None:
        """A remote shared screen: the table's info, the latest lobby and state, then every
        public message the in-process shared screen gets. It may only ping and say bye."""
        link.screen = True
        self._screens[link.peer] = link
        self._log(f"peer {link.peer}: a shared screen paired")
        try:
            batches: dict[int, bytearray] = {}
            self._screen_info = None  # every screen gets it again (the new one needs it)
            self._refresh_screen_info(batches)
            for message in self.screen_feed.recent():
                self._frame(link.peer, message, batches)
            self._flush(batches, link.peer)
            self._dispatch(link, events)
            await self._read_loop(link, reader)
        finally:
            self._screens.pop(link.peer, None)
            self._end_link(link, CloseCode.NORMAL, "")

    def _after_failure(self) -> None:
        """Journal and announce a room code that failed handshakes rotated (and say so when
        failed pairings rotated the screen code)."""
        self.table.note_room_code()
        guard = self.table.guard
        if guard.epoch != self._code_epoch:
            self._code_epoch = guard.epoch
            self.code_rotations += 1
            self._log(
                f"warning: {self.limits.rotate_after} wrong room codes: the room code is now "
                f"{guard.code[:3]} {guard.code[3:]} (players still joining need the new one)"
            )
            if self.on_code_rotated is not None:
                self.on_code_rotated(guard.code)
        if self.screen_guard.epoch != self._screen_epoch:
            self._screen_epoch = self.screen_guard.epoch
            code = self.screen_guard.code
            self._log(
                f"warning: {self.limits.rotate_after} wrong screen codes: table "
                f"{self.number}'s screen code is now {code[:3]} {code[3:]}"
            )
            if self.on_screen_code_rotated is not None:
                self.on_screen_code_rotated(code)
        self.pump()

    def _note_failure(self, ip: str, mode: Mode) -> None:
        """Count a failed code: against the table's pace for that code, and against its
        address (blocked past the limit)."""
        self._pace_for(mode).note_failure()
        self.gate.note_failure(ip)

    async def _take_turn(self, pending: Pending, first: bytes) -> None:
        """A JOIN (or SCREEN pairing) waits for its turn at its code's guessing pace before
        the host answers with anything."""
        mode = first[MAGIC_LENGTH]
        if mode in (Mode.JOIN, Mode.SCREEN):
            pace = self._pace_for(Mode(mode))
            fresh = self.gate.fresh(pending.ip)
            pending.stage = WAITING_FRESH if fresh else WAITING
            pending.arrival = pace.arrival(pending.ip)
            pending.wake = pace.wake_all
            await pace.turn(pending.ip, fresh, lambda: pending.evicted)
            if pending.evicted:
                raise ConnectionResetError("closed to make room")
            pending.stage = JOINING
            pending.had_turn = True
        else:
            pending.stage = RESUMING

    async def _handshake(
        self,
        pending: Pending,
        conn: HostConnection,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        first: bytes,
    ) -> list[object] | None:
        peer = pending.peer
        await self._take_turn(pending, first)
        data = first
        while True:
            if pending.epoch < 0:
                # The epoch the connection reads with the hello (its code's guard).
                mode = first[MAGIC_LENGTH]
                guard = self.screen_guard if mode == Mode.SCREEN else self.table.guard
                pending.epoch = guard.epoch
            events = conn.receive_data(data)
            while conn.work is not None:  # SPAKE2 in a worker: the loop plays on meanwhile
                events = [*events, *conn.complete_work(await self.workers.spake(conn.work))]
            pending.confirming = (
                conn.mode is not Mode.RESUME and conn.phase is Phase.AWAIT_CLIENT_CONFIRM
            )
            for index, event in enumerate(events):
                if isinstance(event, HandshakeComplete):
                    pending.confirming = False
                    if event.mode is Mode.SCREEN:
                        _write(writer, conn.data_to_send())
                        return list(events[index + 1 :])
                    # The resume secret is journaled before the confirmation leaves.
                    self.table.on_handshake(peer, event, self.now())
                    refused = peer not in self.table.peers
                    self.pump()
                    await self.durable()
                    if self._journal_failed is not None:
                        return None  # the new secret is not on disk: no confirmation
                    _write(writer, conn.data_to_send())
                    if refused:  # the seat changed hands during the handshake
                        self._log(f"peer {peer}: resume of seat {event.seat} refused")
                        _write(writer, conn.close(CloseCode.RESUME_REJECTED, "seat unavailable"))
                        return None
                    return list(events[index + 1 :])
            _write(writer, conn.data_to_send())
            if not data:
                return None
            data = await reader.read(READ_CHUNK)

    async def _read_loop(self, link: Link, reader: asyncio.StreamReader) -> None:
        # The silence limit is per frame: bytes dribbled without completing a frame do not
        # move the deadline (an authenticated slowloris is dropped like a silent peer).
        limit = self.limits.silence_timeout
        deadline = self.now() + limit
        while not link.closed:
            try:
                data = await asyncio.wait_for(
                    reader.read(READ_CHUNK), max(0.0, deadline - self.now())
                )
            except TimeoutError:
                self._end_link(link, CloseCode.TIMEOUT, f"no complete frame for {limit:g} s")
                return
            except OSError:
                return
            try:
                events = link.conn.receive_data(data)
            except ProtocolError as error:
                self._log(f"peer {link.peer}: {error}")
                self._end_link(link, error.code, error.reason)
                return
            if events:
                deadline = self.now() + limit
            self._dispatch(link, events)
            if not data:
                return

    def _dispatch(self, link: Link, events: Sequence[object]) -> None:
        for event in events:
            if link.closed:
                break
            if isinstance(event, ConnectionClosed):
                link.closed = True
                break
            if not isinstance(event, Message):
                continue
            if event.TYPE == "bye":  # not rate-limited; tells a leave from a drop
                if not link.screen:
                    self.table.on_leaving(link.peer)
                continue
            now = self.now()
            left = link.bucket.take(now)
            if left < 0:
                if left < -self.limits.burst:
                    self.pump()  # the refusals so far go out before the bye
                    self._end_link(link, CloseCode.RATE_LIMITED, "too many messages")
                    break
                if not link.screen:
                    self.table.rate_limited(link.peer, event)
                continue
            if link.screen:  # the connection lets a screen send nothing but ping and bye
                if isinstance(event, Ping):
                    batches = {link.peer: bytearray()}
                    self._frame(link.peer, Pong(n=event.n), batches)
                    self._flush(batches, link.peer)
                continue
            self.table.on_message(link.peer, event, now)
        self.pump()


class TableControls:
    """The host's keys (``HostControls``) over a running server."""

    def __init__(self, server: TableServer) -> None:
        self._server = server

    def _run(self, change: Callable[[], object]) -> None:
        try:
            change()
        finally:
            self._server.pump()

    async def add_bot(self, level: str) -> None:
        self._run(lambda: self._server.table.add_bot(level))

    async def remove_seat(self, seat: int) -> None:
        self._run(lambda: self._server.table.remove_seat(seat))

    async def set_preset(self, preset: str) -> None:
        self._run(lambda: self._server.table.set_preset(preset))

    async def set_option(self, key: str, value: str) -> None:
        self._run(lambda: self._server.table.set_option(key, value))

    async def start(self) -> None:
        self._run(lambda: self._server.table.start(self._server.now()))

    async def shutdown(self) -> None:
        await self._server.close()


class TableScreen:
    """The shared screen (``HostScreen``): public messages only."""

    def __init__(self, server: TableServer, *, announced: bool = False) -> None:
        self._server = server
        self._announced = announced

    @property
    def announced(self) -> bool:
        """Whether mDNS announces the table (see ``HostScreen.announced``)."""
        return self._announced or self._server.announced

    @property
    def table_name(self) -> str:
        return self._server.table.config.name

    @property
    def room_code(self) -> str:
        return self._server.table.room_code

    @property
    def addresses(self) -> Sequence[str]:
        return self._server.addresses

    @property
    def loopback_only(self) -> bool:
        """Say so on screen: players on other machines cannot reach this table."""
        return self._server.loopback_only

    @property
    def code_rotations(self) -> int:
        """How often wrong codes changed the room code (each one deserves a warning)."""
        return self._server.code_rotations

    @property
    def phase(self) -> TablePhase:
        return self._server.table.phase

    def updates(self) -> AsyncIterator[Message]:
        return self._server.screen_feed.updates()
