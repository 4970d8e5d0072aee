"""The connection state machine: handshake, key confirmation, then encrypted messages.

Theory of operation
-------------------
A ``Connection`` is sans-I/O (h11-style): the adapter feeds it received bytes with
``receive_data(data)`` (``b""`` means end of stream) and gets back a list of events; it
writes whatever ``data_to_send()`` returns after every call, and ``send(message)`` returns
the bytes of one message (with anything still queued in front, so order is kept). No
clock, socket or global random is touched: randomness comes in as ``random_bytes``, and the
5 s handshake deadline and ping timeouts are the adapter's job.

The handshake has fixed-length raw steps, then one AEAD frame each way (protocol/handshake.md):

    client                                              host
    CLIENT_HELLO  magic ‖ mode ‖ table ‖         -->    (picks the password: room code,
                  seat ‖ gen                             the seat's resume secret, or the
                                                         table's screen code)
                                                 <--    magic ‖ room_id ‖ nonce ‖ SHA256(msgB)
    msgA                                         -->
                                                 <--    msgB            (host has keys)
    (checks msgB against the commitment, derives keys)
    confirm frame (c2h counter 0)                -->    wrong key or tag: a failed
                                                        confirmation (counts toward lockout)
                                                 <--    confirm frame (h2c counter 0)
    OPEN                                                OPEN

The host confirms second on purpose: a client holding a wrong guess learns nothing until
the host has seen (and counted) its failed confirmation, so every online guess costs one
lockout step. Any protocol error raises ``RemoteProtocolError``/``LocalProtocolError`` and
moves to ``CLOSED``; a closed connection never sends or accepts anything again.
"""

from __future__ import annotations

import abc
import enum
from collections.abc import Callable
from dataclasses import dataclass
from hashlib import sha256
from typing import Any, TypeAlias

from spake2 import SPAKE2_A

from lanuno.wire.crypto import (
    ANY_SEAT,
    COMMIT_LENGTH,
    GENERATION,
    MAGIC_CLIENT,
    MAGIC_HOST,
    MAGIC_LENGTH,
    MAGIC_PREFIX,
    MAGIC_RESUME_REFUSED,
    MAGIC_TABLE_REFUSED,
    MAGIC_VERSION_REFUSED,
    MAX_SEATS,
    MAX_TABLES,
    NONCE_LENGTH,
    ROOM_ID_LENGTH,
    SPAKE2_MESSAGE_LENGTH,
    Mode,
    RandomBytes,
    RoomCodeGuard,
    SessionKeys,
    commit_to_host_message,
    constant_time_equal,
    derive_session_keys,
    normalize_room_code,
    spake2_identities,
)
from lanuno.wire.errors import CloseCode, LocalProtocolError, RemoteProtocolError
from lanuno.wire.framing import Direction, FrameOpener, FrameSealer, frame_aad
from lanuno.wire.messages import (
    ActionRequest,
    Bye,
    Hello,
    Message,
    MessageError,
    Ping,
    Role,
    decode,
    encode,
    may_send,
)
from lanuno.wire.spake_work import (
    SPAKE2_ENTROPY_LENGTH,
    SpakeFinish,
    SpakeResult,
    SpakeStart,
    SpakeWork,
    run_spake,
)

CLIENT_HELLO_LENGTH = MAGIC_LENGTH + 4
TABLE_BYTE = MAGIC_LENGTH + 1
"""Offset of the table number in the client hello (the hall routes on it)."""
HOST_HELLO_LENGTH = MAGIC_LENGTH + ROOM_ID_LENGTH + NONCE_LENGTH + COMMIT_LENGTH

ResumeLookup = Callable[[int, int], bytes | None]
"""``lookup(seat, generation)``: that seat's resume secret of that generation, or None."""


class Phase(enum.Enum):
    # client side
    AWAIT_HOST_HELLO = "await host hello"
    AWAIT_MSG_B = "await msgB"
    AWAIT_HOST_CONFIRM = "await host confirmation"
    # host side
    AWAIT_CLIENT_HELLO = "await client hello"
    AWAIT_MSG_A = "await msgA"
    AWAIT_CLIENT_CONFIRM = "await client confirmation"
    # both
    OPEN = "open"
    CLOSED = "closed"


TRANSITIONS: dict[Phase, frozenset[Phase]] = {
    Phase.AWAIT_HOST_HELLO: frozenset({Phase.AWAIT_MSG_B, Phase.CLOSED}),
    Phase.AWAIT_MSG_B: frozenset({Phase.AWAIT_HOST_CONFIRM, Phase.CLOSED}),
    Phase.AWAIT_HOST_CONFIRM: frozenset({Phase.OPEN, Phase.CLOSED}),
    Phase.AWAIT_CLIENT_HELLO: frozenset({Phase.AWAIT_MSG_A, Phase.CLOSED}),
    Phase.AWAIT_MSG_A: frozenset({Phase.AWAIT_CLIENT_CONFIRM, Phase.CLOSED}),
    Phase.AWAIT_CLIENT_CONFIRM: frozenset({Phase.OPEN, Phase.CLOSED}),
    Phase.OPEN: frozenset({Phase.CLOSED}),
    Phase.CLOSED: frozenset(),
}
"""Every allowed phase change; anything else is a bug (``_advance`` asserts it)."""

HANDSHAKE_PHASES = frozenset(TRANSITIONS) - {Phase.OPEN, Phase.CLOSED}


@dataclass(frozen=True, slots=True, repr=False)
class HandshakeComplete:
    """Both sides proved they hold the same key. Show ``check_number`` on screen; store
    ``resume_secret`` as generation ``generation`` of this seat (host: before acking)."""

    mode: Mode
    seat: int | None
    """The seat a RESUME names; None for a JOIN (the host chooses the seat) or a SCREEN."""
    generation: int
    resume_secret: bytes
    check_number: int
    room_id: bytes
    table: int = 1
    """The table number the client hello named."""

    def __repr__(self) -> str:
        return (
            f"HandshakeComplete(mode={self.mode.name}, table={self.table}, seat={self.seat}, "
            f"generation={self.generation}, check_number={self.check_number:06d})"
        )


@dataclass(frozen=True, slots=True)
class ConnectionClosed:
    """The peer said ``bye`` (clean) or the stream ended between frames (a drop)."""

    code: int
    reason: str
    clean: bool


ConnectionEvent: TypeAlias = Message | HandshakeComplete | ConnectionClosed


class Connection(abc.ABC):
    """One end of one TCP connection. Use ``HostConnection`` or ``ClientConnection``."""

    role: Role

    def __init__(self, role: Role, random_bytes: RandomBytes, first_phase: Phase) -> None:
        self.role = role
        self.phase = first_phase
        self._random_bytes = random_bytes
        self._buffer = bytearray()
        self._outbox = bytearray()
        self._transcript = sha256()
        self._keys: SessionKeys | None = None
        self._tx: FrameSealer | None = None
        self._rx: FrameOpener | None = None
        self._mode = Mode.JOIN
        self._table = 1
        self._seat_byte = ANY_SEAT
        self._generation = 0
        self._room_id = b""
        self._hello_seen = False
        self._last_seq = 0

    # -- public surface --------------------------------------------------------------------

    @property
    def mode(self) -> Mode:
        """JOIN (room code) or RESUME (seat secret), as the client's first message said."""
        return self._mode

    @property
    def table(self) -> int:
        """The table number of the client hello (1..64)."""
        return self._table

    @property
    def tx(self) -> FrameSealer | None:
        """The sending direction's key and counter (inspection only: S5 tests)."""
        return self._tx

    @property
    def rx(self) -> FrameOpener | None:
        return self._rx

    @property
    def closed(self) -> bool:
        return self.phase is Phase.CLOSED

    @property
    def room_id(self) -> bytes:
        return self._room_id

    def data_to_send(self) -> bytes:
        """Bytes the adapter must write now (handshake steps, confirmations)."""
        out = bytes(self._outbox)
        self._outbox.clear()
        return out

    def receive_data(self, data: bytes) -> list[ConnectionEvent]:
        """Feed bytes from the peer; ``b""`` is end of stream. Raises on any violation."""
        if self.phase is Phase.CLOSED:
            return []
        try:
            if not data:
                return self._end_of_stream()
            self._buffer += data
            return self._run()
        except RemoteProtocolError:
            self._die()
            raise

    def _run(self) -> list[ConnectionEvent]:
        events: list[ConnectionEvent] = []
        while not self.closed:
            step = self._step()
            if step is None:
                break
            events.extend(step)
        return events

    def send(self, message: Message) -> bytes:
        """Queued bytes plus one encrypted frame carrying ``message``."""
        if self.phase is not Phase.OPEN or self._tx is None:
            raise LocalProtocolError(
                CloseCode.PROTOCOL_ERROR, f"cannot send in phase {self.phase.value}"
            )
        if not may_send(self.role, message):
            raise LocalProtocolError(
                CloseCode.PROTOCOL_ERROR, f"a {self.role.value} does not send {message.TYPE}"
            )
        if self.role is Role.CLIENT:
            self._check_client_order(message, LocalProtocolError)
        payload, floor = encode(message)
        frame = self._tx.seal(payload, floor)
        if isinstance(message, Bye):
            self._advance(Phase.CLOSED)
        return self.data_to_send() + frame

    def close(self, code: CloseCode = CloseCode.NORMAL, reason: str = "") -> bytes:
        """A ``bye`` frame if the channel is open (empty otherwise); the connection ends."""
        if self.phase is Phase.OPEN:
            return self.send(Bye(code=int(code), reason=reason))
        self._die()
        return self.data_to_send()

    # -- shared machinery ------------------------------------------------------------------

    def _advance(self, phase: Phase) -> None:
        assert phase in TRANSITIONS[self.phase], f"{self.phase} -> {phase}"
        self.phase = phase

    def _die(self) -> None:
        self.phase = Phase.CLOSED
        self._buffer.clear()

    def _take(self, n: int) -> bytes | None:
        """Consume ``n`` raw handshake bytes (and hash them into the transcript)."""
        if len(self._buffer) < n:
            return None
        chunk = bytes(self._buffer[:n])
        del self._buffer[:n]
        self._transcript.update(chunk)
        return chunk

    def _put(self, chunk: bytes) -> None:
        self._transcript.update(chunk)
        self._outbox += chunk

    def _install_keys(self, shared_key: bytes) -> SessionKeys:
        keys = derive_session_keys(shared_key, self._transcript.digest())
        mine, theirs = (
            (Direction.HOST_TO_CLIENT, Direction.CLIENT_TO_HOST)
            if self.role is Role.HOST
            else (Direction.CLIENT_TO_HOST, Direction.HOST_TO_CLIENT)
        )
        key_for = {Direction.CLIENT_TO_HOST: keys.c2h_key, Direction.HOST_TO_CLIENT: keys.h2c_key}
        self._tx = FrameSealer(key_for[mine], frame_aad(mine, self._room_id, self._seat_byte))
        self._rx = FrameOpener(key_for[theirs], frame_aad(theirs, self._room_id, self._seat_byte))
        self._keys = keys
        return keys

    def _open_confirmation(self, expected: bytes) -> bool | None:
        """The peer's confirmation frame: True if it matches, False if not, None if partial."""
        assert self._rx is not None
        try:
            payload = self._rx.open_next(self._buffer)
        except RemoteProtocolError as error:
            if error.code is CloseCode.DECRYPT_FAILED:
                return False
            raise
        if payload is None:
            return None
        return constant_time_equal(payload, expected)

    def _handshake_complete(self) -> HandshakeComplete:
        assert self._keys is not None
        self._advance(Phase.OPEN)
        return HandshakeComplete(
            mode=self._mode,
            seat=None if self._seat_byte == ANY_SEAT else self._seat_byte,
            generation=0 if self._mode is not Mode.RESUME else (self._generation + 1) % 256,
            resume_secret=self._keys.resume_next,
            check_number=self._keys.check_number,
            room_id=self._room_id,
            table=self._table,
        )

    @abc.abstractmethod
    def _step(self) -> list[ConnectionEvent] | None:
        """Handle what the buffer holds for the current phase; None when it needs more."""

    def _end_of_stream(self) -> list[ConnectionEvent]:
        phase, partial = self.phase, bool(self._buffer)
        self._die()
        if phase is Phase.OPEN and not partial:
            return [ConnectionClosed(int(CloseCode.TRUNCATED), "dropped without bye", False)]
        if phase is Phase.AWAIT_HOST_CONFIRM:
            raise RemoteProtocolError(
                CloseCode.AUTH_FAILED,
                "the host hung up during key confirmation: the room code is probably wrong",
            )
        raise RemoteProtocolError(CloseCode.TRUNCATED, f"stream ended in phase {phase.value}")

    def _open_messages(self) -> list[ConnectionEvent] | None:
        assert self._rx is not None
        payload = self._rx.open_next(self._buffer)
        if payload is None:
            return None
        sender = Role.CLIENT if self.role is Role.HOST else Role.HOST
        try:
            message = decode(payload, sender)
            if sender is Role.CLIENT:
                self._check_client_order(message, RemoteProtocolError)
        except MessageError as error:
            self._say_goodbye(str(error))
            raise RemoteProtocolError(CloseCode.PROTOCOL_ERROR, str(error)) from None
        except RemoteProtocolError as error:
            self._say_goodbye(error.reason)
            raise
        if isinstance(message, Bye):
            self._advance(Phase.CLOSED)
            return [message, ConnectionClosed(message.code, message.reason, True)]
        return [message]

    def _say_goodbye(self, reason: str) -> None:
        """A message the peer should not have sent (malformed, unexpected or out of order):
        the channel itself is sound, so queue a ``bye`` that names the problem
        (messages.md, "Decoding" step 4). Frame-level failures never get one (framing.md)."""
        assert self._tx is not None
        payload, floor = encode(Bye(code=int(CloseCode.PROTOCOL_ERROR), reason=_clip(reason)))
        self._outbox += self._tx.seal(payload, floor)

    def _check_client_order(
        self, message: Message, error: type[LocalProtocolError] | type[RemoteProtocolError]
    ) -> None:
        """``hello`` first and once; ``action.seq`` strictly increasing on a connection. A
        SCREEN link sends nothing but ``ping`` and ``bye`` (no hello)."""
        if self._mode is Mode.SCREEN:
            if not isinstance(message, (Ping, Bye)):
                raise error(CloseCode.PROTOCOL_ERROR, f"a screen does not send {message.TYPE}")
            return
        is_hello = isinstance(message, Hello)
        if is_hello == self._hello_seen and not isinstance(message, Bye):
            why = "hello twice" if is_hello else f"{message.TYPE} before hello"
            raise error(CloseCode.PROTOCOL_ERROR, why)
        self._hello_seen = True
        if isinstance(message, ActionRequest):
            if message.seq <= self._last_seq:
                raise error(
                    CloseCode.PROTOCOL_ERROR,
                    f"action seq {message.seq} not above {self._last_seq}",
                )
            self._last_seq = message.seq


def magic_refusal(magic: bytes) -> bytes:
    """What a host answers to first bytes that are not this generation's client magic:
    ``LANUNO/g V`` to a client of generation g (the refusal that generation's clients know:
    a generation-1 client reports "the host speaks another protocol generation"; README,
    G-1), nothing to anything else (G-2)."""
    if magic != MAGIC_CLIENT and magic.startswith(MAGIC_PREFIX) and magic.endswith(b" C\n"):
        return magic[: -len(b"C\n")] + b"V\n"
    return b""


def _code_password(code: str) -> bytes:
    """A typed room or screen code -> its SPAKE2 password (6 ASCII digits)."""
    try:
        return normalize_room_code(code).encode()
    except ValueError as error:
        raise LocalProtocolError(CloseCode.AUTH_FAILED, str(error)) from None


def _clip(text: str, limit: int = 200) -> str:
    """A reason that fits ``bye.reason``: printable, at most ``limit`` characters."""
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class HostConnection(Connection):
    """The host's end, for table number ``table``. ``guard`` supplies the room code and
    counts failed confirmations; ``resume_lookup`` answers RESUME requests; ``room_id`` is
    the table's random id; ``screen_guard`` holds the table's screen code (None: this host
    takes no SCREEN links). ``offload``: the SPAKE2 steps are left to the adapter
    (``work``, ``complete_work``; see ``wire/spake_work.py``) instead of computed inline."""

    def __init__(
        self,
        guard: RoomCodeGuard,
        room_id: bytes,
        random_bytes: RandomBytes,
        resume_lookup: ResumeLookup,
        *,
        table: int = 1,
        screen_guard: RoomCodeGuard | None = None,
        offload: bool = False,
    ) -> None:
        if len(room_id) != ROOM_ID_LENGTH:
            raise ValueError(f"room_id must be {ROOM_ID_LENGTH} bytes")
        if not 1 <= table <= MAX_TABLES:
            raise ValueError(f"table numbers are 1..{MAX_TABLES}")
        super().__init__(Role.HOST, random_bytes, Phase.AWAIT_CLIENT_HELLO)
        self._guard = guard
        self._screen_guard = screen_guard
        self._serves = table
        self._room_id = room_id
        self._resume_lookup = resume_lookup
        self._epoch = -1
        self._offload = offload
        self.work: SpakeWork | None = None
        """A SPAKE2 step the adapter must run (``run_spake``) and hand to ``complete_work``;
        nothing more is read until then."""
        self._spake_state = b""
        self._nonce = b""
        self._msg_b = b""

    def complete_work(self, result: SpakeResult) -> list[ConnectionEvent]:
        """The result of ``run_spake(self.work)``; returns the events that follow."""
        work, self.work = self.work, None
        if work is None or self.closed:
            return []
        try:
            events = self._work_done(work, result)
            return events + self._run()
        except RemoteProtocolError:
            self._die()
            raise

    def _submit(self, work: SpakeWork) -> list[ConnectionEvent] | None:
        if self._offload:
            self.work = work
            return None  # wait for complete_work
        return self._work_done(work, run_spake(work))

    def _work_done(self, work: SpakeWork, result: SpakeResult) -> list[ConnectionEvent]:
        if isinstance(work, SpakeStart):
            assert isinstance(result, tuple)
            self._msg_b, self._spake_state = result
            self._put(
                MAGIC_HOST + self._room_id + self._nonce + commit_to_host_message(self._msg_b)
            )
            self._advance(Phase.AWAIT_MSG_A)
            return []
        if not isinstance(result, bytes):  # a malformed element
            raise RemoteProtocolError(CloseCode.PROTOCOL_ERROR, "bad SPAKE2 message")
        self._spake_state = b""
        self._put(self._msg_b)
        self._install_keys(result)
        self._advance(Phase.AWAIT_CLIENT_CONFIRM)
        return []

    def _step(self) -> list[ConnectionEvent] | None:
        if self.work is not None:
            return None
        if self.phase is Phase.AWAIT_CLIENT_HELLO:
            return self._on_client_hello()
        if self.phase is Phase.AWAIT_MSG_A:
            return self._on_msg_a()
        if self.phase is Phase.AWAIT_CLIENT_CONFIRM:
            return self._on_client_confirm()
        return self._open_messages()

    def _on_client_hello(self) -> list[ConnectionEvent] | None:
        if len(self._buffer) >= MAGIC_LENGTH and self._buffer[:MAGIC_LENGTH] != MAGIC_CLIENT:
            magic = bytes(self._buffer[:MAGIC_LENGTH])
            refusal = magic_refusal(magic)
            if refusal:
                self._outbox += refusal
                raise RemoteProtocolError(
                    CloseCode.VERSION_MISMATCH,
                    f"client speaks {magic!r}, we speak {MAGIC_CLIENT!r}",
                )
            raise RemoteProtocolError(CloseCode.BAD_MAGIC, "not a lanuno client")
        if len(self._buffer) > TABLE_BYTE and self._buffer[TABLE_BYTE] != self._serves:
            # Before anything else of the hello: the answer must not depend on the rest.
            self._outbox += MAGIC_TABLE_REFUSED
            raise RemoteProtocolError(
                CloseCode.NO_SUCH_TABLE, f"no table {self._buffer[TABLE_BYTE]} here"
            )
        hello = self._take(CLIENT_HELLO_LENGTH)
        if hello is None:
            return None
        mode_byte, table, seat, generation = hello[MAGIC_LENGTH:]
        self._table = table
        # JOIN names no seat (255): the host chooses; version 1 has no seat wishes.
        if mode_byte == Mode.JOIN and seat == ANY_SEAT and generation == 0:
            self._epoch = self._guard.epoch
            password = normalize_room_code(self._guard.code).encode("ascii")
        elif (
            mode_byte == Mode.SCREEN
            and seat == ANY_SEAT
            and generation == 0
            and self._screen_guard is not None
        ):
            self._guard = self._screen_guard  # failures count against the screen code
            self._epoch = self._guard.epoch
            password = normalize_room_code(self._guard.code).encode("ascii")
        elif mode_byte == Mode.RESUME and seat < MAX_SEATS:
            secret = self._resume_lookup(seat, generation)
            if secret is None:
                self._outbox += MAGIC_RESUME_REFUSED  # an answer, unlike a busy host's hang-up
                raise RemoteProtocolError(
                    CloseCode.RESUME_REJECTED, f"no resume secret for seat {seat} gen {generation}"
                )
            password = secret
        else:
            raise RemoteProtocolError(
                CloseCode.PROTOCOL_ERROR, f"bad mode/seat/gen {mode_byte}/{seat}/{generation}"
            )
        self._mode, self._seat_byte, self._generation = Mode(mode_byte), seat, generation
        id_a, id_b = spake2_identities(self._mode, seat, generation, self._room_id, table)
        # Entropy first, then the nonce: the order the inline computation always drew them.
        entropy = self._random_bytes(SPAKE2_ENTROPY_LENGTH)
        self._nonce = self._random_bytes(NONCE_LENGTH)
        return self._submit(SpakeStart(password, id_a, id_b, entropy))

    def _on_msg_a(self) -> list[ConnectionEvent] | None:
        msg_a = self._take(SPAKE2_MESSAGE_LENGTH)
        if msg_a is None:
            return None
        return self._submit(SpakeFinish(self._spake_state, msg_a))

    def _on_client_confirm(self) -> list[ConnectionEvent] | None:
        assert self._keys is not None
        assert self._tx is not None
        matched = self._open_confirmation(self._keys.c2h_confirm)
        if matched is None:
            return None
        if not matched:
            if self._mode is not Mode.RESUME:
                self._guard.record_failure(self._epoch)
                what = "room code" if self._mode is Mode.JOIN else "screen code"
                raise RemoteProtocolError(
                    CloseCode.AUTH_FAILED, f"key confirmation failed: wrong {what}"
                )
            raise RemoteProtocolError(
                CloseCode.AUTH_FAILED, "key confirmation failed: stale resume"
            )
        if self._mode is not Mode.RESUME and not self._guard.is_current(self._epoch):
            raise RemoteProtocolError(
                CloseCode.ROOM_CODE_ROTATED, "the room code changed during the handshake"
            )
        self._outbox += self._tx.seal(self._keys.h2c_confirm)
        return [self._handshake_complete()]


class ClientConnection(Connection):
    """The client's end. Build it with ``join`` or ``resume``; the first bytes to write
    are already queued in ``data_to_send()``."""

    def __init__(
        self,
        mode: Mode,
        seat: int,
        generation: int,
        password: bytes,
        random_bytes: RandomBytes,
        table: int = 1,
    ) -> None:
        if not 1 <= table <= MAX_TABLES:
            raise LocalProtocolError(CloseCode.PROTOCOL_ERROR, f"table numbers are 1..{MAX_TABLES}")
        super().__init__(Role.CLIENT, random_bytes, Phase.AWAIT_HOST_HELLO)
        self._mode, self._seat_byte, self._generation = mode, seat, generation
        self._table = table
        self._password = password
        self._commit = b""
        self._spake: Any = None
        self._put(MAGIC_CLIENT + bytes((mode, table, seat, generation)))

    @classmethod
    def join(cls, room_code: str, random_bytes: RandomBytes, table: int = 1) -> ClientConnection:
        """A new player at table ``table``: the host chooses the seat (a JOIN names none)."""
        return cls(Mode.JOIN, ANY_SEAT, 0, _code_password(room_code), random_bytes, table)

    @classmethod
    def screen(
        cls, screen_code: str, random_bytes: RandomBytes, table: int = 1
    ) -> ClientConnection:
        """A shared screen of table ``table``, paired with its screen code."""
        return cls(Mode.SCREEN, ANY_SEAT, 0, _code_password(screen_code), random_bytes, table)

    @classmethod
    def resume(
        cls, seat: int, generation: int, secret: bytes, random_bytes: RandomBytes, table: int = 1
    ) -> ClientConnection:
        if not 0 <= seat < MAX_SEATS or not 0 <= generation < 256 or len(secret) != 32:
            raise LocalProtocolError(CloseCode.PROTOCOL_ERROR, "bad resume parameters")
        return cls(Mode.RESUME, seat, generation, secret, random_bytes, table)

    def _step(self) -> list[ConnectionEvent] | None:
        if self.phase is Phase.AWAIT_HOST_HELLO:
            return self._on_host_hello()
        if self.phase is Phase.AWAIT_MSG_B:
            return self._on_msg_b()
        if self.phase is Phase.AWAIT_HOST_CONFIRM:
            return self._on_host_confirm()
        return self._open_messages()

    def _on_host_hello(self) -> list[ConnectionEvent] | None:
        if len(self._buffer) >= MAGIC_LENGTH and self._buffer[:MAGIC_LENGTH] != MAGIC_HOST:
            magic = bytes(self._buffer[:MAGIC_LENGTH])
            if magic == MAGIC_VERSION_REFUSED:
                raise RemoteProtocolError(
                    CloseCode.VERSION_MISMATCH,
                    f"the host speaks another protocol generation (not {GENERATION})",
                )
            if magic.startswith(MAGIC_PREFIX) and magic.endswith(b" V\n"):
                # A host that names its own generation in the refusal (generation 1 did).
                generation = magic[len(MAGIC_PREFIX) : -3].decode("ascii", "replace")
                raise RemoteProtocolError(
                    CloseCode.VERSION_MISMATCH,
                    f"the host speaks protocol generation {generation}",
                )
            if magic == MAGIC_RESUME_REFUSED:
                raise RemoteProtocolError(
                    CloseCode.RESUME_REJECTED, "the host holds no such seat for this ticket"
                )
            if magic == MAGIC_TABLE_REFUSED:
                raise RemoteProtocolError(
                    CloseCode.NO_SUCH_TABLE, f"the host has no table {self._table}"
                )
            raise RemoteProtocolError(CloseCode.BAD_MAGIC, "not a lanuno host")
        hello = self._take(HOST_HELLO_LENGTH)
        if hello is None:
            return None
        start = MAGIC_LENGTH
        self._room_id = hello[start : start + ROOM_ID_LENGTH]
        self._commit = hello[-COMMIT_LENGTH:]
        id_a, id_b = spake2_identities(
            self._mode, self._seat_byte, self._generation, self._room_id, self._table
        )
        self._spake = SPAKE2_A(self._password, idA=id_a, idB=id_b, entropy_f=self._random_bytes)
        self._put(self._spake.start())
        self._advance(Phase.AWAIT_MSG_B)
        return []

    def _on_msg_b(self) -> list[ConnectionEvent] | None:
        msg_b = self._take(SPAKE2_MESSAGE_LENGTH)
        if msg_b is None:
            return None
        if not constant_time_equal(commit_to_host_message(msg_b), self._commit):
            raise RemoteProtocolError(
                CloseCode.COMMIT_MISMATCH, "the host's SPAKE2 message does not match its commitment"
            )
        try:
            shared_key: bytes = self._spake.finish(msg_b)
        except Exception:  # spake2 raises assorted errors for a malformed element
            raise RemoteProtocolError(CloseCode.PROTOCOL_ERROR, "bad SPAKE2 message") from None
        self._spake = None
        keys = self._install_keys(shared_key)
        assert self._tx is not None
        self._outbox += self._tx.seal(keys.c2h_confirm)
        self._advance(Phase.AWAIT_HOST_CONFIRM)
        return []

    def _on_host_confirm(self) -> list[ConnectionEvent] | None:
        assert self._keys is not None
        matched = self._open_confirmation(self._keys.h2c_confirm)
        if matched is None:
            return None
        if not matched:
            raise RemoteProtocolError(
                CloseCode.AUTH_FAILED, "the host could not prove it knows the room code"
            )
        return [self._handshake_complete()]
