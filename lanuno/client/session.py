"""One player's session with the host, sans-I/O: the mirror of the host's ``Table``.

Theory of operation
-------------------
``ClientCore`` holds everything a player's session knows across TCP connections: the resume
ticket, action numbers (``seq``) not yet acknowledged, the seeds and deals of the fair deck,
and when to ping, give up on a silent host, or try again. It never touches a socket, a
clock or a file: the adapter (``lanuno.net.client``) passes bytes and ``now`` in, and

1. opens a TCP connection when ``wants_connection(now)`` says so, then calls
   ``connection_made(now)`` (or ``connection_failed(now, reason)`` if it could not);
2. feeds every read to ``receive_data(data, now)`` (``b""`` is the end of the stream);
3. after every call writes ``data_to_send()``, and closes the socket when
   ``socket_wanted`` turns False;
4. calls ``handle_timer(now)`` at ``get_timer()`` (aioquic style: the core names its next
   deadline, the adapter owns the clock);
5. takes ``next_event()`` until it returns None: the host's messages for the app, in order,
   and local notices (``lanuno.client.notices``), never invented wire messages.

Phases (asserted by ``_advance``)::

    WAITING --connection_made--> HANDSHAKE --handshake complete--> OPEN
       ^                            |                               |
       +------ failed / refused ----+------------- dropped ---------+
    any phase --(final bye, gave up, close())--> FINISHED

The first JOIN is special: if it fails, the session ends at once (the app reports why).
Later connections RESUME with the ticket (the newest secret, then the one before); a host
that is only busy (it hangs up before its hello, a timeout, a refused TCP connection) never
costs the ticket: only explicit refusals do (``RESUME_REJECTED``, or a failed key
confirmation, repeatedly), and then the core joins again with the room code.
"""

from __future__ import annotations

import contextlib
import enum
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from lanuno.client.deal import DealBook, DealContext
from lanuno.client.notices import (
    Connected,
    Credentials,
    HostStillLost,
    Notice,
    Reconnecting,
    ResumeTicket,
    SeatLost,
    SessionEnded,
)
from lanuno.engine.cards import DeckKind, build_deck
from lanuno.wire.connection import ClientConnection, ConnectionClosed, HandshakeComplete, Phase
from lanuno.wire.errors import CloseCode, LocalProtocolError, ProtocolError
from lanuno.wire.fairness import ClientSeeds
from lanuno.wire.messages import (
    SUPPORTED_VERSIONS,
    Ack,
    ActionRequest,
    ErrorReply,
    Event,
    GameEnd,
    Hello,
    HostSeedReveal,
    Message,
    Ping,
    Ready,
    RoundEnd,
    SeedCommit,
    State,
    Welcome,
)

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

REFUSALS = frozenset({CloseCode.RESUME_REJECTED, CloseCode.AUTH_FAILED})
"""Handshake failures that mean "this secret does not open this seat" (as opposed to a
host that is busy, restarting or unreachable)."""

WRONG_CODE = "the room code is wrong (or the host refused this connection)"
"""Why a JOIN failed key confirmation (the host cannot tell a wrong code from a forgery)."""
MAX_REFUSALS = 6
"""Refused resumes in a row before the core gives the seat up and joins with the code."""

Credential = tuple[int, int, bytes]
"""(seat, generation, secret) offered in one RESUME handshake."""


@dataclass(frozen=True, slots=True)
class ClientTiming:
    connect_timeout: float = 3.0
    handshake_timeout: float = 5.0
    ping_interval: float = 5.0
    silence_timeout: float = 15.0
    """A connection with no authenticated frame for this long is dropped."""
    quiet_after: float = 7.5
    """No authenticated frame for this long (the answer to a ping is overdue): the link
    may be down, and a player is told so before the drop."""
    reconnect_for: float | None = None
    """Give up reconnecting after this long. None: never, while the person is there (a
    host asleep for a break, or restarted from its journal, takes them back whenever it
    is up; they leave with Q). Scripts and tests set a bound."""
    still_lost_after: float = 300.0
    """Reconnecting for this long, say so once (``HostStillLost``): the host may be gone."""
    backoff: tuple[float, float] = (0.2, 2.0)
    """First and longest wait between reconnection attempts."""


@dataclass(frozen=True, slots=True)
class Player:
    """Who joins: what goes into the JOIN handshake and ``hello``."""

    code: str
    name: str
    age: int | None = None
    kid: bool = False
    table: int = 1
    """The table number at the host (a hall serves several on one port)."""


class SessionPhase(enum.Enum):
    WAITING = "waiting"
    """No connection: the next attempt is due at ``retry_at``."""
    HANDSHAKE = "handshake"
    OPEN = "open"
    FINISHED = "finished"


TRANSITIONS: dict[SessionPhase, frozenset[SessionPhase]] = {
    SessionPhase.WAITING: frozenset({SessionPhase.HANDSHAKE, SessionPhase.FINISHED}),
    SessionPhase.HANDSHAKE: frozenset(
        {SessionPhase.OPEN, SessionPhase.WAITING, SessionPhase.FINISHED}
    ),
    SessionPhase.OPEN: frozenset({SessionPhase.WAITING, SessionPhase.FINISHED}),
    SessionPhase.FINISHED: frozenset(),
}

ClientEvent = Message | Notice


class ClientCore:
    """A player's session, from the first JOIN to the last ``bye``."""

    def __init__(
        self,
        player: Player,
        random_bytes: Callable[[int], bytes],
        *,
        timing: ClientTiming | None = None,
        ticket: ResumeTicket | None = None,
    ) -> None:
        """``ticket``: a saved seat to RESUME at once instead of joining with the code."""
        self.player = player
        self.timing = timing or ClientTiming()
        self._random_bytes = random_bytes
        self.seeds = ClientSeeds(random_bytes)
        self.deals = DealBook()
        self.phase = SessionPhase.WAITING
        self.ticket = ticket
        self._pending_secret: tuple[int, bytes] = (0, b"")
        """A JOIN's resume secret, kept until the Welcome names the seat it belongs to."""
        self.seat: int | None = None
        self.check_number: int | None = None
        self.room_id = ticket.room_id if ticket is not None else b""
        self.welcome: Welcome | None = None
        self.last_state: State | None = None
        self.seq = 0
        self.unacked: dict[int, ActionRequest] = {}
        self.reconnects = 0
        self.ever_open = False
        self.end_reason = ""
        self.end_code: CloseCode | None = None
        """Why the last connection attempt failed, when the handshake said (the reason is
        for people; callers branch on this)."""
        self._events: deque[ClientEvent] = deque()
        self._out = bytearray()
        self._conn: ClientConnection | None = None
        self._tries: list[Credential] = []
        """RESUME credentials still to offer in this attempt (newest secret first)."""
        self._offered: Credential | None = None
        self._refusals = 0
        self._retry_at = float("-inf")
        self._wait = self.timing.backoff[0]
        self._give_up_at: float | None = None
        self._say_lost_at: float | None = None
        self._handshake_deadline = float("inf")
        self._next_ping = float("inf")
        self._silent_after = float("inf")
        self._game_over = False
        self._results: list[Message] = []
        """The last round's results as they came (its end, seed reveal, game end)."""
        self._pings = 0
        self._now = 0.0
        self._unproven = False

    # ------------------------------------------------------------------ adapter surface

    @property
    def socket_wanted(self) -> bool:
        """False once the current connection is over: the adapter closes its socket."""
        return self.phase in (SessionPhase.HANDSHAKE, SessionPhase.OPEN)

    @property
    def finished(self) -> bool:
        return self.phase is SessionPhase.FINISHED

    def wants_connection(self, now: float) -> bool:
        return self.phase is SessionPhase.WAITING and now >= self._retry_at

    def data_to_send(self) -> bytes:
        out = bytes(self._out)
        self._out.clear()
        return out

    def next_event(self) -> ClientEvent | None:
        return self._events.popleft() if self._events else None

    def get_timer(self) -> float | None:
        """When ``handle_timer`` is next due (None: nothing to wait for)."""
        if self.phase is SessionPhase.WAITING:
            return self._retry_at
        if self.phase is SessionPhase.HANDSHAKE:
            return self._handshake_deadline
        if self.phase is SessionPhase.OPEN:
            return min(self._next_ping, self._silent_after)
        return None

    def host_quiet(self, now: float) -> bool:
        """The connection is open but the host has said nothing for ``quiet_after``: a
        pulled link or a host that stopped sends no reset, so only the silence tells."""
        heard_at = self._silent_after - self.timing.silence_timeout
        return self.phase is SessionPhase.OPEN and now >= heard_at + self.timing.quiet_after

    def handle_timer(self, now: float) -> None:
        self._now = now
        if self.phase is SessionPhase.HANDSHAKE and now >= self._handshake_deadline:
            self._attempt_failed(now, "the host did not answer in time", refused=False)
        elif self.phase is SessionPhase.OPEN:
            if now >= self._silent_after:
                self._dropped(now, "no word from the host")
                return
            if now >= self._next_ping:
                self._next_ping = now + self.timing.ping_interval
                self._pings = (self._pings + 1) % 2**32
                self._send(Ping(n=self._pings))

    def connection_made(self, now: float, *, unproven: bool = False) -> None:
        """A TCP connection is up: start a JOIN, or a RESUME with the ticket.

        ``unproven``: the address came from an announcement, not from a host this client
        has had a channel with (the host is lost and announced elsewhere). Anyone can
        announce a room id, so what that connection says before the channel opens (a
        refusal, another table) costs this attempt only: never the seat's credentials."""
        assert self.phase is SessionPhase.WAITING
        self._now = now
        self._unproven = unproven
        self.end_code = None  # a new attempt: an earlier one's code no longer says why
        if self._give_up_at is not None and now >= self._give_up_at:
            self._finish("the host did not come back")
            return
        if not self._tries and self.ticket is not None:
            ticket = self.ticket
            self._tries = [(ticket.seat, ticket.generation, ticket.secret)]
            if ticket.previous is not None:
                self._tries.append((ticket.seat, *ticket.previous))
        try:
            if self._tries:
                self._offered = self._tries.pop(0)
                self._conn = ClientConnection.resume(
                    *self._offered, self._random_bytes, self.player.table
                )
            else:
                self._offered = None
                player = self.player
                self._conn = ClientConnection.join(player.code, self._random_bytes, player.table)
        except LocalProtocolError as error:  # a bad room code or ticket: nothing to retry
            self._advance(SessionPhase.HANDSHAKE)
            self._attempt_failed(now, _describe(error), refused=True)
            return
        self._advance(SessionPhase.HANDSHAKE)
        self._handshake_deadline = now + self.timing.handshake_timeout
        self._out += self._conn.data_to_send()

    def connection_failed(self, now: float, reason: str) -> None:
        """The TCP connection could not be opened (nobody listening, a timeout)."""
        assert self.phase is SessionPhase.WAITING
        self._now = now
        self._advance(SessionPhase.HANDSHAKE)
        self._attempt_failed(now, reason, refused=False)

    def receive_data(self, data: bytes, now: float) -> None:
        self._now = now
        conn = self._conn
        if conn is None or not self.socket_wanted:
            return
        try:
            events = conn.receive_data(data)
        except ProtocolError as error:
            self._lost(now, error)
            return
        if self._wrong_table(conn):
            self._table_changed(now)
            return
        self._out += conn.data_to_send()
        self._handle(events, now)

    def close(self) -> None:
        """The player leaves: a ``bye`` if a connection is open, then the end."""
        if self.phase is SessionPhase.OPEN and self._conn is not None:
            with contextlib.suppress(LocalProtocolError):
                self._out += self._conn.close(CloseCode.NORMAL, "left")
        if self.phase is not SessionPhase.FINISHED:
            self._finish("left")

    # ------------------------------------------------------------------ the app's requests

    def act(self, notation: str) -> ActionRequest:
        """Number and send an action (again after a resume until the host acks it)."""
        if self.welcome is None:
            # Not seated yet; and a client started again on a saved seat learns from the
            # welcome where its action numbers carry on (M-30).
            raise ValueError(f"not at the table yet: {notation!r} waits for the welcome")
        sid = self.last_state.sid if self.last_state is not None else 0
        try:
            request = ActionRequest(seq=self.seq + 1, sid=sid, a=notation)
        except ValueError as error:
            raise ValueError(f"not an action: {notation!r} ({error})") from None
        self.seq = request.seq
        self.unacked[request.seq] = request
        self._send(request)
        return request

    def set_ready(self, ready: bool) -> None:
        self._send(Ready(ready=ready))

    # ------------------------------------------------------------------ connection lifecycle

    def _advance(self, phase: SessionPhase) -> None:
        assert phase in TRANSITIONS[self.phase], f"{self.phase} -> {phase}"
        self.phase = phase

    def _wrong_table(self, conn: ClientConnection) -> bool:
        """A RESUME reached a host whose hello names another table (a new host on the same
        address): stop before proving anything with the secret."""
        return (
            self._offered is not None
            and bool(self.room_id)
            and bool(conn.room_id)
            and conn.room_id != self.room_id
        )

    def _table_changed(self, now: float) -> None:
        self._conn = None
        self._out.clear()  # msgA is not sent
        if not self._unproven:
            self._drop_ticket()
        self._attempt_failed(now, "another table answers at this address", refused=False)

    def _lost(self, now: float, error: ProtocolError) -> None:
        self._conn = None
        if self.phase is SessionPhase.OPEN:
            self._dropped(now, error.reason)
        else:
            self.end_code = error.code
            refused = error.code in REFUSALS and not self._unproven
            self._attempt_failed(now, _describe(error), refused=refused)

    def _attempt_failed(self, now: float, reason: str, *, refused: bool) -> None:
        """A connection attempt ended before the channel opened."""
        self._conn = None
        self.end_reason = reason
        if refused and self._tries:  # the secret before may still open the seat
            self._advance(SessionPhase.WAITING)
            self._retry_at = now
            return
        if not self.ever_open:
            self._finish(reason, joined=False)  # the very first connection: no retries
            return
        self._advance(SessionPhase.WAITING)
        self._tries = []
        if refused:
            self._refusals += 1
            if self._refusals >= MAX_REFUSALS and self.ticket is not None:
                self._drop_ticket()
                self._events.append(SeatLost())
            elif self._refusals >= 2 * MAX_REFUSALS:
                self._finish(reason)
                return
        self._retry_at = now + self._wait
        self._wait = min(self.timing.backoff[1], self._wait * 2)
        if self._give_up_at is not None and self._retry_at >= self._give_up_at:
            self._finish("the host did not come back")
        elif self._say_lost_at is not None and now >= self._say_lost_at:
            self._say_lost_at = None
            self._events.append(HostStillLost(self.timing.still_lost_after))

    def _opened(self, done: HandshakeComplete, now: float) -> None:
        assert self._conn is not None
        resumed = self._offered is not None
        self.check_number = done.check_number
        self.room_id = done.room_id
        if self._offered is None:
            self.ticket = None
            self._pending_secret = (done.generation, done.resume_secret)
        else:
            seat, generation, secret = self._offered
            self.ticket = ResumeTicket(
                seat, done.generation, done.resume_secret, (generation, secret), done.room_id
            )
            self._events.append(Credentials(self._kept_ticket()))
        self._advance(SessionPhase.OPEN)
        self._tries, self._offered, self._refusals = [], None, 0
        self._wait, self._give_up_at, self._say_lost_at = self.timing.backoff[0], None, None
        self._next_ping = now + self.timing.ping_interval
        self._silent_after = now + self.timing.silence_timeout
        player = self.player
        self._send(
            Hello(
                versions=SUPPORTED_VERSIONS,
                name=player.name,
                age=player.age,
                kid=player.kid,
                seed_commit=self.seeds.next_commit,
                seen_sid=self._seen_sid(resumed),
            )
        )
        if self.ever_open:
            self.reconnects += 1
            for request in sorted(self.unacked.values(), key=lambda r: r.seq):
                self._send(request)  # the host acks duplicates without applying them
        self.ever_open = True
        self._events.append(Connected(done.check_number, resumed))

    def _seen_sid(self, resumed: bool) -> int | None:
        """What a RESUME's hello says this client saw last: the host first sends the
        round's events after it (0, a client started again on a saved seat: the round's
        story from its start). A JOIN has seen nothing of this table: None."""
        if not resumed:
            return None
        return self.last_state.sid if self.last_state is not None else 0

    def _dropped(self, now: float, reason: str) -> None:
        """An open connection ended without a final goodbye: try to get the seat back."""
        self._conn = None
        self._advance(SessionPhase.WAITING)
        self.end_reason = reason
        self._retry_at = now
        timing = self.timing
        self._give_up_at = None if timing.reconnect_for is None else now + timing.reconnect_for
        self._say_lost_at = now + timing.still_lost_after
        self._next_ping = self._silent_after = float("inf")
        self._events.append(Reconnecting(reason))

    def _finish(self, reason: str, *, joined: bool = True) -> None:
        if self.phase is SessionPhase.FINISHED:
            return
        self._advance(SessionPhase.FINISHED)
        self._conn = None
        self.end_reason = reason
        self._events.append(SessionEnded(reason, joined and self.ever_open))

    def _drop_ticket(self) -> None:
        self.ticket = None
        self._tries = []
        self._events.append(Credentials(None))

    def _kept_ticket(self) -> ResumeTicket | None:
        """What a restarted client may use: nothing once the game is over."""
        return None if self._game_over else self.ticket

    # ------------------------------------------------------------------ messages

    def _handle(self, events: Sequence[object], now: float) -> None:
        for event in events:
            if not self.socket_wanted:
                return
            if isinstance(event, HandshakeComplete):
                self._opened(event, now)
            elif isinstance(event, ConnectionClosed):
                self._closed(event, now)
            elif isinstance(event, Message):
                # Only an authenticated frame proves the host is there (forged bytes do not).
                self._silent_after = now + self.timing.silence_timeout
                self._on_message(event)

    def _closed(self, closed: ConnectionClosed, now: float) -> None:
        self._conn = None
        if self.phase is not SessionPhase.OPEN:
            self._attempt_failed(now, closed.reason, refused=False)
        elif closed.clean and closed.code == CloseCode.RESUME_REJECTED:
            # An authenticated refusal: this seat is not ours any more; join with the code.
            self._drop_ticket()
            self._events.append(SeatLost())
            self._dropped(now, closed.reason)
        elif closed.clean and closed.code == CloseCode.TABLE_SAVED:
            # The host stopped for now: the ticket stays on disk for a later lanuno join.
            # Saved between games, the seat is held in the lobby too: back on disk with it.
            if self._game_over and self.ticket is not None:
                self._events.append(Credentials(self.ticket))
            self._finish(closed.reason or CloseCode.TABLE_SAVED.name)
        elif closed.clean and closed.code in FINAL_CLOSE_CODES:
            self._events.append(Credentials(None))
            self._finish(closed.reason or CloseCode(closed.code).name)
        else:
            self._dropped(now, closed.reason)

    def _on_message(self, message: Message) -> None:
        if isinstance(message, RoundEnd | HostSeedReveal | GameEnd):
            # A host sends a round's results again to a seat that resumes before the next
            # deal (it may have missed them). Those this session passed on already are not
            # passed on twice: the player's screen went back to the winner they had left,
            # and the line client told the game's end again after its lobby.
            if message in self._results:
                return
            self._results.append(message)
        elif isinstance(message, SeedCommit):
            self._results.clear()  # a new deal: the next results are another round's
        if isinstance(message, Welcome):
            self._on_welcome(message)
        elif isinstance(message, State):
            self.last_state = message
            self.deals.on_state(message)
            if self._game_over and message.round and message.phase != "game_over":
                self._game_over = False  # a new game: worth keeping on disk again
                self._events.append(Credentials(self._kept_ticket()))
        elif isinstance(message, Ack):
            self.unacked.pop(message.seq, None)
        elif isinstance(message, ErrorReply) and message.seq is not None:
            self.unacked.pop(message.seq, None)  # refused: never applied, not resent
        elif isinstance(message, SeedCommit):
            self.deals.on_commit(message)
            if self.seat is not None:
                reveal = self.seeds.reveal(message.round, message.commit)
                self.deals.on_my_reveal(message.round, reveal.seed)
                self._send(reveal)
        elif isinstance(message, Event):
            self.deals.on_event(message, self.seat)
        elif isinstance(message, GameEnd):
            self.deals.on_game_end(message)
            self._game_over = True
            self._events.append(Credentials(None))
        elif isinstance(message, HostSeedReveal):
            self._judge(message)  # the verdict first, then the reveal itself
        self._events.append(message)

    def _on_welcome(self, welcome: Welcome) -> None:
        self.welcome = welcome
        self.seat = welcome.seat
        # Started again on a saved seat, this client would number its actions from 1 and
        # the host would take them for resends of actions it had applied (never again).
        self.seq = max(self.seq, welcome.last_seq)
        if welcome.seat is None:  # watching: nothing to resume (a new JOIN watches again)
            return
        if self.ticket is None:
            generation, secret = self._pending_secret
            self.ticket = ResumeTicket(welcome.seat, generation, secret, None, self.room_id)
        else:
            self.ticket = replace(self.ticket, seat=welcome.seat)
        self._events.append(Credentials(self._kept_ticket()))

    def _judge(self, reveal: HostSeedReveal) -> None:
        if self.welcome is None:
            return  # never welcomed: nothing to compare with
        deck = str(self.welcome.options.get("deck", "standard"))
        context = DealContext(
            room_id=self.room_id,
            seat=self.seat,
            seats=len(self.last_state.counts) if self.last_state is not None else None,
            canonical_deck=[card.code for card in build_deck(DeckKind(deck))],
        )
        notice = self.deals.on_reveal(reveal, context)
        if notice is not None:
            self._events.append(notice)

    def _send(self, message: Message) -> None:
        conn = self._conn
        if conn is None or self.phase is not SessionPhase.OPEN or conn.phase is not Phase.OPEN:
            return  # unacked actions go again after the resume
        try:
            self._out += conn.send(message)
        except LocalProtocolError:
            self._dropped(self._now, "could not send")


def _describe(error: ProtocolError) -> str:
    if error.code is CloseCode.AUTH_FAILED:
        return WRONG_CODE
    return error.reason


__all__ = [
    "FINAL_CLOSE_CODES",
    "MAX_REFUSALS",
    "WRONG_CODE",
    "ClientCore",
    "ClientEvent",
    "ClientTiming",
    "Player",
    "SessionPhase",
]
