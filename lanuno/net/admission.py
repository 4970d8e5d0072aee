"""Admission: the port, the client hello and who may take a turn to handshake.

A ``Listener`` owns the port: it reads each connection's client hello (its first 15 bytes
within 2 s), answers another generation's client (``LANUNO/g V``, g its generation) or a
table it does not serve (``LANUNO/2 T``) with fixed bytes, and hands the connection to its
table's ``TableServer`` (lanuno.net.server). The ``Gate`` admits connections for every
table of the process: unauthenticated connections are capped in total and per address;
when the cap is reached the oldest idle one makes room, so idle sockets can never lock a
player out (a resume under way is the last to go); an address that keeps failing codes is
turned away for a while. ``GuessPace`` spaces a table's JOIN handshakes by the rate of its
failed ones (handshake.md, "Lockout").
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import socket
import struct
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lanuno.net.streams import settle_quietly
from lanuno.wire.connection import (
    CLIENT_HELLO_LENGTH,
    TABLE_BYTE,
    magic_refusal,
)
from lanuno.wire.crypto import (
    MAGIC_CLIENT,
    MAGIC_LENGTH,
    MAGIC_TABLE_REFUSED,
)

if TYPE_CHECKING:
    from lanuno.net.server import TableServer


@dataclass(frozen=True, slots=True)
class ServerLimits:
    """Robustness numbers from security-anchors.md section 3.2."""

    handshake_timeout: float = 5.0
    first_bytes_timeout: float = 2.0
    """The client hello (the first 15 bytes) must arrive this soon after the connect."""
    silence_timeout: float = 15.0
    """A connection must complete a frame this often (per frame, not per byte)."""
    max_unauthenticated: int = 32
    unauthenticated_per_extra_table: int = 4
    """A hall admits this many more unfinished handshakes per table past its first, so the
    arrivals of 50 tables at once do not push each other out."""
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
        self.tables = 1
        """How many tables this port serves (a hall sets it as tables open and close)."""

    @property
    def capacity(self) -> int:
        """Unfinished handshakes admitted at once, for every table behind this port."""
        extra = max(0, self.tables - 1) * self.limits.unauthenticated_per_extra_table
        return self.limits.max_unauthenticated + extra

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
        if len(self.pending) >= self.capacity:
            pool = candidates(list(self.pending.values()))
            if not pool:
                return False
            self.evict(min(pool, key=lambda p: _eviction_rank(p, now)))
        return True

    def evict(self, pending: Pending) -> None:
        self.pending.pop(pending.peer, None)
        pending.evicted = True
        close_writer(pending.writer, self.limits)
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
        self.opening: asyncio.Event | None = None
        """Set while the host opens the tables it starts with, after it listens (a resumed
        hall, one table after the other): a hello naming a table not open yet waits for
        this event (within its handshake time) before it is told there is no such table.
        A remote screen told so stops for good."""

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
            close_writer(writer, self.gate.limits)
        if self._tasks:
            _, late = await asyncio.wait(set(self._tasks), timeout=2.0)
            for task in late:
                task.cancel()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        self._writers.add(writer)
        settle_quietly(writer)
        handed = False
        try:
            handed = await self._route(reader, writer)
        except Exception as error:  # one connection's bug must not take the host down
            self._log(f"connection error: {type(error).__name__}: {error}")
        finally:
            self._tasks.discard(task)
            self._writers.discard(writer)
            if not handed:
                close_writer(writer, self.gate.limits)

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
            write_if_open(writer, magic_refusal(first[:MAGIC_LENGTH]))  # another generation: V
            if first:
                self._log(f"{ip}: handshake refused (not this generation's client hello)")
            return False
        server = self.route(first[TABLE_BYTE])
        opening = self.opening
        if server is None and opening is not None:
            left = gate.limits.handshake_timeout - (gate.now() - pending.since)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(opening.wait(), max(0.0, left))
            server = self.route(first[TABLE_BYTE])
        if server is None or server.closed.is_set():
            gate.forget(pending)
            write_if_open(writer, MAGIC_TABLE_REFUSED)
            self._log(f"{ip}: no table {first[TABLE_BYTE]} here; refused")
            return False
        await server.serve(pending, reader, writer, first)
        return True


def cut_off(transport: asyncio.BaseTransport) -> None:
    """Drop the connection now: a reset (linger 0), so neither asyncio's buffer nor the
    kernel's send queue waits for a peer that does not read."""
    sock = transport.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    assert isinstance(transport, asyncio.WriteTransport)
    transport.abort()


def write_if_open(writer: asyncio.StreamWriter, data: bytes) -> bool:
    """Write unless the transport is already closing or lost: writing to a lost socket
    only makes asyncio log ``socket.send() raised exception`` (once per write)."""
    if not data or writer.transport.is_closing():
        return False
    writer.write(data)
    return True


def close_writer(writer: asyncio.StreamWriter, limits: ServerLimits) -> None:
    """Close after the queued bytes are sent, but never wait on a peer that does not
    read: past ``drain_timeout`` (or ``max_write_buffer``) the socket is aborted."""
    transport = writer.transport
    with contextlib.suppress(Exception):
        if transport.get_write_buffer_size() > limits.max_write_buffer:
            cut_off(transport)
            return
        writer.close()
        if transport.get_write_buffer_size():
            asyncio.get_running_loop().call_later(limits.drain_timeout, cut_off, transport)
