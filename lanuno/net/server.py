"""The host's asyncio adapter: TCP connections in, the pure ``Table`` in the middle.

Admission (lanuno.net.admission) owns the port: a ``Listener`` reads each client hello and
hands the connection to its table's ``TableServer``; one listener serves one table
(``TableServer.start()``) or every table of a hall (lanuno.net.hall), and one ``Gate``
admits connections for all of them.

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
import os
import socket
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass

from lanuno.host.table import SCREEN, Close, Outgoing, Send, Table, TablePhase
from lanuno.net.admission import (
    JOINING,
    RESUMING,
    WAITING,
    WAITING_FRESH,
    Gate,
    GuessPace,
    Listener,
    Pending,
    ServerLimits,
    close_writer,
    cut_off,
    write_if_open,
)
from lanuno.net.commit import GroupCommit, shared_commit
from lanuno.net.discovery import discovery_addresses
from lanuno.net.journal_files import JournalWriter
from lanuno.net.workers import Workers, shared_workers
from lanuno.wire.connection import (
    ConnectionClosed,
    HandshakeComplete,
    HostConnection,
    Phase,
)
from lanuno.wire.crypto import (
    MAGIC_LENGTH,
    Mode,
    RoomCodeGuard,
)
from lanuno.wire.errors import CloseCode, ProtocolError
from lanuno.wire.messages import SCREEN_VERSION, Message, Ping, Pong, ScreenInfo, State

__all__ = [
    "Gate",
    "Listener",
    "ScreenFeed",
    "ServerLimits",
    "TableControls",
    "TableScreen",
    "TableServer",
    "lan_address",
]
"""The admission names (lanuno.net.admission) stay importable from here: the server's face."""

READ_CHUNK = 65536
CLOSED_REASON = "the host closed the table"
SAVED_REASON = "the host closed the table and saved it"
TIMER_RETRY = 0.5
"""Seconds the timer waits before trying again after the table's tick failed."""


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


_SEATS_KEPT = frozenset({CloseCode.TIMEOUT, CloseCode.TABLE_SAVED, CloseCode.TABLE_PAUSED})
"""The host's goodbyes that keep the player's seat: a silent peer's (held like a drop), and
a saved or paused table's (its players come back after ``--resume``)."""


class ScreenFeed:
    """The shared screen's messages (public only), fanned out to every ``updates()``."""

    def __init__(self) -> None:
        self._queues: list[asyncio.Queue[Message | None]] = []
        self._recent: dict[str, Message] = {}
        self._results: list[Message] = []
        """The last round's (and game's) results, until the next round is in play."""
        self._closed = False

    def publish(self, message: Message) -> None:
        kind = message.TYPE
        if kind in ("lobby", "state"):
            self._recent[kind] = message
            if isinstance(message, State) and message.phase not in ("round_over", "game_over"):
                self._results.clear()
        elif kind == "round_end":
            self._results = [message]
        elif kind == "game_end":
            self._results.append(message)
        for queue in self._queues:
            queue.put_nowait(message)

    def recent(self) -> list[Message]:
        """What a late viewer starts from: the latest lobby and state, and between rounds
        or after the game the results (a screen paired then shows them, not a lobby)."""
        recent = list(self._recent.values())
        if self._results and "lobby" in self._recent:
            # The lobby again after the results: who is getting ready for the next game.
            return [*recent, *self._results, self._recent["lobby"]]
        return [*recent, *self._results]

    def close(self) -> None:
        self._closed = True
        for queue in self._queues:
            queue.put_nowait(None)

    async def updates(self) -> AsyncIterator[Message]:
        queue: asyncio.Queue[Message | None] = asyncio.Queue()
        for message in self.recent():  # a late viewer starts from the latest
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


def _gave_up(error: ProtocolError | OSError, pending: Pending) -> bool:
    """Whether a handshake ended because its client hung up before the key exchange was
    done (end of stream, a reset): no refusal, and no failure of the code (a hang-up after
    the host's SPAKE2 reply is one: ``pending.confirming``)."""
    if pending.confirming:
        return False
    if isinstance(error, ProtocolError):
        return error.code is CloseCode.TRUNCATED
    return isinstance(error, ConnectionError)


def _read_error(future: asyncio.Future[None]) -> None:
    """Mark a failed journal pass's error as read (the first failure already said it)."""
    if not future.cancelled():
        future.exception()


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
        mdns: bool = False,
    ) -> None:
        self.table = table
        self.host = host
        self.port = port
        self.mdns = mdns
        """Whether its host announces it (a ``--resume`` of its journal keeps that)."""
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
        if self.port:
            self._note_served()  # journaled in the first pump, below
        self._timer = asyncio.create_task(self._timer_loop())
        self.workers.warm_up()  # the first join must not wait for a worker to start
        self.pump()

    @property
    def stopped(self) -> str | None:
        """Why the table stopped before its end (its journal could not be written), or None."""
        return self._journal_failed

    @property
    def resumable(self) -> bool:
        """The journal holds the table to its last action: ``--resume`` carries it on."""
        return self.journal is not None and self._journal_failed is None

    def _note_served(self) -> None:
        """Journal where and how the table is served (port, interface, mDNS, screen code)."""
        interface = None if self.host in ("0.0.0.0", "") else self.host
        self.table.served_on(self.port, interface, self.mdns, self.screen_guard.code)

    async def close(self, reason: str | None = None, code: CloseCode | None = None) -> None:
        """Say goodbye to every peer and stop. By default a journaled table is saved
        (TABLE_SAVED: its players keep their resume secrets, for a ``--resume``), any other
        closed (HOST_SHUTDOWN)."""
        if self.closed.is_set():
            return
        if code is None:
            code = CloseCode.TABLE_SAVED if self.resumable else CloseCode.HOST_SHUTDOWN
        if reason is None:
            reason = SAVED_REASON if code is CloseCode.TABLE_SAVED else CLOSED_REASON
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
            self.close_writer(writer)
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
                    # The later turns' futures (often of the same failed pass) carry the
                    # same error: read, so asyncio does not print each one as "never
                    # retrieved" over the host's screen.
                    for later, _ in self._held:
                        if later is not None:
                            later.add_done_callback(_read_error)
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
        write_if_open(link.writer, bytes(data))
        if link.writer.transport.get_write_buffer_size() > self.limits.max_write_buffer:
            self._log(f"peer {peer}: not reading its messages; cutting it off")
            self._end_link(link, CloseCode.TIMEOUT, "not reading", abort=True)

    def _end_link(self, link: Link, code: CloseCode, reason: str, *, abort: bool = False) -> None:
        if link.closed:
            return
        link.closed = True
        if code not in _SEATS_KEPT and not link.screen:
            self.table.on_leaving(link.peer)  # the host ends it: not a drop to hold a seat for
        if abort:  # a bye would only queue behind what the peer does not read
            link.shut = True
            cut_off(link.writer.transport)
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
            write_if_open(link.writer, link.conn.close(code, reason[:200]))
        self.close_writer(link.writer)

    def close_writer(self, writer: asyncio.StreamWriter) -> None:
        close_writer(writer, self.limits)

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
            self.close_writer(writer)

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
                write_if_open(writer, conn.data_to_send())  # e.g. the resume refusal
            if pending.evicted:
                pass
            elif _gave_up(error, pending):
                # Nothing was refused: e.g. a host stopped for minutes (kill -STOP, a laptop
                # asleep) finds its players' timed-out attempts queued, one per retry.
                self.gate.log_now_and_then(
                    "gave_up", f"{ip}: a client gave up before its handshake was done"
                )
            else:
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
            # The table's info for this screen alone: a frame sealed for another screen
            # and never sent would move that link's counter on and break its next frame.
            self._frame(link.peer, self.screen_info(), batches)
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
            if self.port:
                self._note_served()  # a --resume pairs screens with the new code
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
                        write_if_open(writer, conn.data_to_send())
                        return list(events[index + 1 :])
                    # The resume secret is journaled before the confirmation leaves.
                    self.table.on_handshake(peer, event, self.now())
                    refused = peer not in self.table.peers
                    self.pump()
                    await self.durable()
                    if self._journal_failed is not None:
                        return None  # the new secret is not on disk: no confirmation
                    write_if_open(writer, conn.data_to_send())
                    if refused:  # the seat changed hands during the handshake
                        self._log(f"peer {peer}: resume of seat {event.seat} refused")
                        write_if_open(
                            writer, conn.close(CloseCode.RESUME_REJECTED, "seat unavailable")
                        )
                        return None
                    return list(events[index + 1 :])
            write_if_open(writer, conn.data_to_send())
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
    def end_reason(self) -> str:
        return ""  # the host's own screen: it is the host closing

    @property
    def linked(self) -> bool:
        return True  # the host's own screen has no link to lose

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
