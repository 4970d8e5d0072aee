"""A player's connection to the host (``ClientSession``), reconnecting by itself.

The first connection JOINs with the room code. When it drops (Wi-Fi, a host restart), the
session RESUMEs with the seat's resume secret, backing off between tries, says hello again,
and resends the actions the host has not acknowledged (the host re-acks duplicates). The
app sees ``connection`` go ``reconnecting`` then ``connected``, then a fresh ``State``.

The session also plays its part in the fair deal: it reveals its seed when the host
commits to a round, and checks the host's reveal at the end of the round.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from lanuno.engine.cards import DeckKind, build_deck
from lanuno.wire.connection import ClientConnection, ConnectionClosed, HandshakeComplete
from lanuno.wire.errors import CloseCode, LocalProtocolError, ProtocolError
from lanuno.wire.fairness import ClientSeeds, FairnessError, check_my_deal, verify_round
from lanuno.wire.messages import (
    SUPPORTED_VERSIONS,
    Ack,
    ActionRequest,
    Bye,
    ErrorReply,
    Event,
    Hello,
    HostSeedReveal,
    Message,
    Ping,
    Ready,
    SeedCommit,
    State,
    Welcome,
)

ConnectionState = Literal["connecting", "connected", "reconnecting", "closed"]
"""The same spelling as ``lanuno.ui.contracts.ConnectionState`` (net and ui do not import
each other; tests/commands/test_wiring.py ties the two)."""

READ_CHUNK = 65536
FINAL_CLOSE_CODES = frozenset(
    {
        CloseCode.NORMAL,
        CloseCode.HOST_SHUTDOWN,
        CloseCode.KICKED,
        CloseCode.TABLE_FULL,
        CloseCode.SEAT_UNAVAILABLE,
        CloseCode.VERSION_MISMATCH,
    }
)
"""A ``bye`` with one of these ends the session; any other end is a drop to recover from."""


MAX_REFUSALS = 6
"""Handshakes refused in a row before a reconnecting session gives up its seat."""


@dataclass(slots=True)
class DealSeen:
    """What this client saw of one round's deal (fairness.md, "Checking the deal")."""

    dealer: int
    hand_size: int
    hand: tuple[str, ...] | None = None
    turned: str | None = None
    returned: bool = False


class JoinError(Exception):
    """The table could not be joined; the message says why, for the player."""


@dataclass(slots=True)
class ResumeTicket:
    seat: int
    generation: int
    secret: bytes
    previous: tuple[int, bytes] | None = None
    """The generation before: the host keeps it in case its confirmation was lost."""


@dataclass(frozen=True, slots=True)
class ClientTiming:
    connect_timeout: float = 3.0
    handshake_timeout: float = 5.0
    ping_interval: float = 5.0
    silence_timeout: float = 15.0
    reconnect_for: float = 300.0
    """Give up reconnecting after this long (the host may be gone for good)."""
    backoff: tuple[float, float] = (0.2, 2.0)
    """First and longest wait between reconnection attempts."""


def _describe(error: BaseException) -> str:
    if isinstance(error, ProtocolError):
        if error.code is CloseCode.AUTH_FAILED:
            return "the room code is wrong (or the host refused this connection)"
        return error.reason
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
    ) -> None:
        self.host, self.port, self.code = host, port, code
        self.name, self.age, self.kid = name, age, kid
        self.timing = timing or ClientTiming()
        self._random_bytes = random_bytes
        self.seeds = ClientSeeds(random_bytes)
        self._seat: int | None = None
        self._check: int | None = None
        self._state: ConnectionState = "connecting"
        self.ticket: ResumeTicket | None = None
        self._pending_secret: tuple[int, bytes] = (0, b"")
        """A JOIN's resume secret, kept until the Welcome names the seat it belongs to."""
        self.last_state: State | None = None
        self.welcome: Welcome | None = None
        self.room_id = b""
        self.fair_rounds: dict[int, bool] = {}
        """Round -> whether its deck checked out (fairness.md)."""
        self._queue: asyncio.Queue[Message | None] = asyncio.Queue()
        self._conn: ClientConnection | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._reader: asyncio.StreamReader | None = None
        self._seq = 0
        self._unacked: dict[int, ActionRequest] = {}
        self._host_commits: dict[int, bytes] = {}
        self._deals: dict[int, DealSeen] = {}
        self._deal_round = 0
        self._runner: asyncio.Task[None] | None = None
        self._closing = False
        self.reconnects = 0

    # ------------------------------------------------------------------ ClientSession

    @property
    def seat(self) -> int | None:
        return self._seat

    @property
    def check_number(self) -> int | None:
        return self._check

    @property
    def connection(self) -> ConnectionState:
        return self._state

    async def updates(self) -> AsyncIterator[Message]:
        while (message := await self._queue.get()) is not None:
            yield message

    async def act(self, notation: str) -> None:
        self._seq += 1
        sid = self.last_state.sid if self.last_state is not None else 0
        try:
            request = ActionRequest(seq=self._seq, sid=sid, a=notation)
        except ValueError as error:
            self._seq -= 1
            raise ValueError(f"not an action: {notation!r} ({error})") from None
        self._unacked[request.seq] = request
        self._send(request)

    async def set_ready(self, ready: bool) -> None:
        self._send(Ready(ready=ready))

    async def close(self) -> None:
        self._closing = True
        if self._conn is not None and self._writer is not None:
            with contextlib.suppress(Exception):
                self._writer.write(self._conn.close(CloseCode.NORMAL, "left"))
        self._drop_socket()
        if self._runner is not None and self._runner is not asyncio.current_task():
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._runner
        self._finish()

    # ------------------------------------------------------------------ connecting

    async def connect(self) -> None:
        """The first JOIN; raises ``JoinError`` with the reason if it fails."""
        try:
            pending = await self._open()
        except (ProtocolError, OSError, TimeoutError) as error:
            self._state = "closed"
            raise JoinError(f"could not join {self.host}:{self.port}: {_describe(error)}") from None
        self._state = "connected"
        self._runner = asyncio.create_task(self._run(pending))

    async def _open(self) -> list[object]:
        timing = self.timing
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(self.host, self.port), timing.connect_timeout
        )
        try:
            return await asyncio.wait_for(self._handshake(reader, writer), timing.handshake_timeout)
        except BaseException:
            writer.close()
            raise

    def _new_connection(self, resume: tuple[int, int, bytes] | None) -> ClientConnection:
        if resume is not None:
            return ClientConnection.resume(*resume, self._random_bytes)
        return ClientConnection.join(self.code, self._random_bytes)  # the host picks the seat

    async def _handshake(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        resume: tuple[int, int, bytes] | None = None,
    ) -> list[object]:
        conn = self._new_connection(resume)
        writer.write(conn.data_to_send())
        while True:
            data = await reader.read(READ_CHUNK)
            events = conn.receive_data(data)
            writer.write(conn.data_to_send())
            for index, event in enumerate(events):
                if isinstance(event, HandshakeComplete):
                    self._on_handshake(event, resume)
                    self._conn, self._reader, self._writer = conn, reader, writer
                    hello = Hello(
                        versions=SUPPORTED_VERSIONS,
                        name=self.name,
                        age=self.age,
                        kid=self.kid,
                        seed_commit=self.seeds.next_commit,
                    )
                    writer.write(conn.send(hello))
                    return list(events[index + 1 :])
            if not data:
                raise ConnectionResetError("the host closed the connection during the handshake")

    def _on_handshake(self, done: HandshakeComplete, resume: tuple[int, int, bytes] | None) -> None:
        self._check = done.check_number
        self.room_id = done.room_id
        if resume is None:
            self.ticket = None
            self._pending_secret = (done.generation, done.resume_secret)
        else:
            seat, generation, secret = resume
            self.ticket = ResumeTicket(
                seat, done.generation, done.resume_secret, (generation, secret)
            )

    async def _resume(self) -> list[object]:
        """One reconnection attempt: RESUME with the newest secret, then the one before."""
        ticket = self.ticket
        if ticket is None:  # never seated (a spectator): join again with the code
            return await self._open()
        tries = [(ticket.seat, ticket.generation, ticket.secret)]
        if ticket.previous is not None:
            tries.append((ticket.seat, *ticket.previous))
        last: BaseException | None = None
        for attempt in tries:
            timing = self.timing
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(self.host, self.port), timing.connect_timeout
            )
            try:
                return await asyncio.wait_for(
                    self._handshake(reader, writer, attempt), timing.handshake_timeout
                )
            except ProtocolError as error:
                writer.close()
                last = error
                if error.code not in (CloseCode.AUTH_FAILED, CloseCode.RESUME_REJECTED):
                    break
            except BaseException:
                writer.close()
                raise
        assert last is not None
        raise last

    # ------------------------------------------------------------------ running

    async def _run(self, pending: Sequence[object]) -> None:
        try:
            while not self._closing:
                final = await self._serve(pending)
                if final or self._closing:
                    break
                resumed = await self._reconnect()
                if resumed is None:
                    break
                pending = resumed
        finally:
            self._finish()

    async def _serve(self, pending: Sequence[object]) -> bool:
        """Read one connection until it ends; True if the session is over for good."""
        pinger = asyncio.create_task(self._pinger())
        try:
            if self._handle(pending):
                return True
            reader, conn = self._reader, self._conn
            assert reader is not None and conn is not None
            while True:
                try:
                    data = await asyncio.wait_for(
                        reader.read(READ_CHUNK), self.timing.silence_timeout
                    )
                except (TimeoutError, OSError):
                    return False
                try:
                    events = conn.receive_data(data)
                except ProtocolError:
                    return False
                if self._handle(events):
                    return True
                if not data:
                    return False
        finally:
            pinger.cancel()
            self._drop_socket()

    async def _pinger(self) -> None:
        number = 0
        while True:
            await asyncio.sleep(self.timing.ping_interval)
            number = (number + 1) % 2**32
            self._send(Ping(n=number))

    async def _reconnect(self) -> list[object] | None:
        self._state = "reconnecting"
        loop = asyncio.get_running_loop()
        give_up = loop.time() + self.timing.reconnect_for
        wait, longest = self.timing.backoff
        refusals = 0
        while not self._closing and loop.time() < give_up:
            try:
                pending = await self._resume()
            except ProtocolError:
                # A host that refuses the secret just hangs up, like a host that crashed
                # mid-handshake: only several refusals in a row mean the seat is gone.
                refusals += 1
                if refusals >= MAX_REFUSALS and self.ticket is not None:
                    # The seat is gone (a lobby seat is freed when its player drops, a
                    # kicked seat is a bot's): join again with the room code instead.
                    self.ticket = None
                    self._queue.put_nowait(
                        ErrorReply(
                            code="not_now",
                            rule=None,
                            text="The host no longer holds this seat; joining the table again.",
                            seq=None,
                        )
                    )
                elif refusals >= 2 * MAX_REFUSALS:
                    return None
            except (OSError, TimeoutError):
                pass
            else:
                self._state = "connected"
                self.reconnects += 1
                for request in sorted(self._unacked.values(), key=lambda r: r.seq):
                    self._send(request)  # the host acks duplicates without applying them
                return pending
            await asyncio.sleep(wait)
            wait = min(longest, wait * 2)
        return None

    def _handle(self, events: Sequence[object]) -> bool:
        for event in events:
            if isinstance(event, ConnectionClosed):
                return event.clean and event.code in FINAL_CLOSE_CODES
            if isinstance(event, Message):
                self._on_message(event)
                if isinstance(event, Bye) and event.code in FINAL_CLOSE_CODES:
                    return True
        return False

    def _on_message(self, message: Message) -> None:
        if isinstance(message, Welcome):
            self.welcome = message
            self._seat = message.seat
            if message.seat is None:  # watching: nothing to resume (a new JOIN watches again)
                pass
            elif self.ticket is None:
                generation, secret = self._pending_secret
                self.ticket = ResumeTicket(message.seat, generation, secret)
            else:
                self.ticket.seat = message.seat
        elif isinstance(message, State):
            self.last_state = message
        elif isinstance(message, Ack):
            self._unacked.pop(message.seq, None)
        elif isinstance(message, ErrorReply) and message.seq is not None:
            self._unacked.pop(message.seq, None)  # refused: never applied, not resent
        elif isinstance(message, SeedCommit):
            self._host_commits[message.round] = message.commit
            if self._seat is not None:
                self._send(self.seeds.reveal(message.round, message.commit))
        elif isinstance(message, HostSeedReveal):
            self._check_round(message)
        elif isinstance(message, Event):
            self._note_deal(message)
        self._queue.put_nowait(message)

    def _note_deal(self, event: Event) -> None:
        """Remember what this seat saw dealt, to check it against the revealed deck."""
        fields = event.fields
        if event.type == "round_started":
            round_no, dealer, size = (fields.get(k) for k in ("round_no", "dealer", "hand_size"))
            if type(round_no) is int and type(dealer) is int and type(size) is int:
                self._deal_round = round_no
                self._deals = {r: d for r, d in self._deals.items() if r >= round_no - 1}
                self._deals[round_no] = DealSeen(dealer, size)
            return
        deal = self._deals.get(self._deal_round)
        if deal is None:
            return
        cards = fields.get("cards")
        if event.type == "hand_dealt" and fields.get("seat") == self._seat:
            if isinstance(cards, tuple) and all(type(c) is str for c in cards):
                deal.hand = tuple(str(c) for c in cards)
        elif event.type == "card_returned":
            deal.returned = True
        elif event.type == "card_turned" and deal.turned is None and not deal.returned:
            card = fields.get("card")
            deal.turned = card if type(card) is str else None

    def _check_round(self, reveal: HostSeedReveal) -> None:
        commit = self._host_commits.get(reveal.round)
        if commit is None or self.welcome is None:
            return  # joined mid-round: nothing to compare with
        deck = str(self.welcome.options.get("deck", "standard"))
        try:
            result = verify_round(
                reveal,
                room_id=self.room_id,
                host_commit=commit,
                my_seat=self._seat,
                my_seed=self.seeds.revealed.get(reveal.round),
                canonical_deck=[card.code for card in build_deck(DeckKind(deck))],
            )
            deal = self._deals.get(reveal.round)
            if deal is not None and self.last_state is not None:
                check_my_deal(
                    reveal.deck,
                    seats=len(self.last_state.counts),
                    dealer=deal.dealer,
                    hand_size=deal.hand_size,
                    seat=self._seat,
                    my_hand=deal.hand,
                    turned=deal.turned,
                )
        except (FairnessError, ValueError) as error:
            self.fair_rounds[reveal.round] = False
            text = f"This round's deck does not check out: {error}"[:200]
            self._queue.put_nowait(ErrorReply(code="fairness", rule=None, text=text, seq=None))
        else:
            self.fair_rounds[reveal.round] = True
            if result.my_seed_unused:  # my reveal never reached the host: a notice, not unfair
                sid = self.last_state.sid if self.last_state is not None else 0
                self._queue.put_nowait(
                    Event(sid=sid, type="my_seed_unused", fields={"round": reveal.round})
                )

    def _send(self, message: Message) -> None:
        conn, writer = self._conn, self._writer
        if conn is None or writer is None or self._state != "connected":
            return  # unacked actions go again after the resume
        try:
            writer.write(conn.send(message))
        except (LocalProtocolError, OSError, RuntimeError):
            self._drop_socket()

    def _drop_socket(self) -> None:
        if self._writer is not None:
            with contextlib.suppress(Exception):
                self._writer.close()
        self._conn = self._writer = self._reader = None

    def _finish(self) -> None:
        if self._state != "closed":
            self._state = "closed"
            self._queue.put_nowait(None)
