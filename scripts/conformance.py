"""Black-box conformance checks of a lanuno host against protocol/ (h2spec-style).

    python scripts/conformance.py HOST:PORT --code 123456 [--screen-code 654321] [--table N]
    python scripts/conformance.py --self        # our own headless host on 127.0.0.1

Every numbered requirement of the spec ([G-n] README, [H-n] handshake, [F-n] framing,
[M-n] messages, [R-n] fairness) has a check here. The kit talks to the host over TCP like
any client (it uses lanuno.wire as its client library, and the engine's event list for the
event table, as the spec does), seats two players in an empty lobby, opens a few more
connections to break rules on purpose, plays one round to its end with random legal moves,
and checks the seed reveal. It prints one line per requirement by section and ends with
``conformance: N/M requirements passed``; the exit status is 0 only when all pass.

Loopback only: the kit refuses an address outside 127.0.0.0/8 (and --self serves on
127.0.0.1). One wrong room code is tried once; the kit never makes more than one failed
JOIN, so it does not trip the host's lockout or guessing pace.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import hashlib
import ipaddress
import math
import os
import random
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack

from lanuno.engine import events as engine_events
from lanuno.wire.connection import ClientConnection, ConnectionClosed, HandshakeComplete
from lanuno.wire.crypto import MAGIC_CLIENT, MAGIC_HOST, MAGIC_TABLE_REFUSED
from lanuno.wire.errors import CloseCode, ProtocolError
from lanuno.wire.fairness import (
    CANONICAL_DECKS,
    PRESET_DECKS,
    ClientSeeds,
    FairShuffler,
    client_seed_commitment,
    combine_seeds,
    deal_purpose,
    dealt_cards,
    first_turned_card,
    host_seed_commitment,
)
from lanuno.wire.messages import (
    WILD_CODES,
    Ack,
    ActionRequest,
    Bye,
    ClientSeedReveal,
    ErrorReply,
    Event,
    Hello,
    HostSeedReveal,
    Lobby,
    Message,
    Ping,
    Pong,
    Ready,
    RoundEnd,
    ScreenInfo,
    SeedCommit,
    State,
    Welcome,
    encode,
)

REQUIREMENTS: dict[str, str] = {
    "G-1": "a generation-1 client hello is answered 'LANUNO/1 V\\n', then closed",
    "G-2": "bytes that are not the magic are closed silently",
    "G-3": "welcome names the highest common message version",
    "G-4": "no common message version: error 'version', then bye VERSION_MISMATCH (4)",
    "G-5": "unknown map keys are ignored",
    "H-1": "a malformed client hello (JOIN naming a seat, bad mode) is closed unanswered",
    "H-2": "a client hello is answered by the 75-byte host hello",
    "H-3": "a RESUME of an unknown seat/generation is closed unanswered",
    "H-4": "host hello commits to msgB: SHA256('lanuno/v1 commit' || msgB)",
    "H-5": "host_nonce differs per connection, room_id stays",
    "H-6": "with the right code the host's confirmation opens and matches",
    "H-7": "after a wrong code the host sends nothing more and closes",
    "H-8": "the lobby's check number for a seat is its client's",
    "H-9": "a RESUME with the last secret gets the same seat back",
    "H-10": "each resume rolls the secret: generation g+1 works next",
    "H-11": "a seat dropped during a game is held for its resume",
    "H-12": "a connection that does not finish the handshake in 5 s is closed",
    "H-13": "a JOIN abandoned after msgB counts as a failed JOIN",
    "H-14": "100 failed JOINs rotate the room code",
    "H-15": "the guessing pace spaces JOINs once failures pile up",
    "H-16": "an honest JOIN gets in while others guess",
    "H-17": "a client hello naming a table not served is answered 'LANUNO/2 T\\n', then closed",
    "H-18": "a SCREEN with the screen code pairs; with a wrong one nothing more, then closed",
    "F-1": "every host frame opens with k_h2c, counters in order, the spec's aad",
    "F-2": "every host plaintext: multiple of 256, at least 2 + n, zero padding",
    "F-3": "a state's plaintext has the size of its padding floor",
    "F-4": "an event's plaintext has the size of its padding floor",
    "F-5": "every host frame's length L satisfies 272 <= L <= 16400, (L - 16) % 256 == 0",
    "F-6": "a bad length header closes the connection without a bye",
    "F-7": "a frame failing authentication closes without a bye",
    "F-8": "a replayed frame closes without a bye",
    "F-9": "15 s without a frame: bye TIMEOUT (14)",
    "F-10": "the silence limit is per frame: a frame sent byte by byte times out",
    "F-11": "a connection that sends no client hello within 2 s is closed unanswered",
    "F-12": "a peer not reading past 1 MiB is reset",
    "F-13": "idle connections from many addresses never keep a JOIN out",
    "M-1": "a message before hello: bye PROTOCOL_ERROR (2)",
    "M-2": "a second hello: bye PROTOCOL_ERROR",
    "M-3": "an unknown type: bye PROTOCOL_ERROR naming message.t",
    "M-4": "a field out of bounds: bye PROTOCOL_ERROR naming the field",
    "M-5": "an integer field given a boolean: bye PROTOCOL_ERROR",
    "M-6": "a msgpack extension type: bye PROTOCOL_ERROR",
    "M-7": "a host message type from a client: bye PROTOCOL_ERROR",
    "M-8": "a payload that is not msgpack: bye PROTOCOL_ERROR",
    "M-9": "ping is answered by pong with the same n",
    "M-10": "an action.seq not above the last: bye PROTOCOL_ERROR",
    "M-11": "an action with no round in play: error not_now with its seq",
    "M-12": "an action with a stale sid: error stale_state with its seq",
    "M-13": "an illegal action: error illegal/not_your_turn with a rule and its seq",
    "M-14": "a legal action: ack with its seq and a state with a new sid",
    "M-15": "after a resume, an applied seq sent again is acked again",
    "M-16": "after a resume, a refused seq sent again gets error bad_seq",
    "M-17": "after a resume: welcome, lobby, state before answers to resent actions",
    "M-18": "past the rate limit: error rate_limited per message",
    "M-19": "40 messages past the limit: bye RATE_LIMITED (13)",
    "M-20": "hello in the lobby is answered by welcome, then lobby",
    "M-21": "round_end at round end: round, winner, points, scores per seat",
    "M-22": "the welcome seat is listed as human, named, connected, ready as sent",
    "M-23": "state.legal lists a wild once per color, never bare",
    "M-24": "every state is consistent (hand = counts[seat], seats < N)",
    "M-25": "every event has a type of the table with exactly its fields",
    "M-26": "a seat-only event reaches only that seat",
    "M-27": "at most 16 spectators: one more is closed TABLE_FULL",
    "M-28": "a name already at the table is shown with a number",
    "M-29": "a SCREEN link gets screen (table, room code) first, then the public feed only",
    "M-30": "after a resume, welcome.last_seq is the seat's last applied seq",
    "M-31": "a resume's hello.seen_sid gets the round's events after it, then the state",
    "R-1": "seed_commit for round r before any event of round r",
    "R-2": "a reveal with a wrong seed: error bad_seed",
    "R-3": "a correct reveal gets no answer",
    "R-4": "the deal comes at most 5 s after seed_commit",
    "R-5": "seed_reveal.host_seed matches the round's commitment",
    "R-6": "listed seeds match commitments; exactly the contributing seats",
    "R-7": "deck = shuffle(canonical deck, 'round r deal') under seed_r",
    "R-8": "the dealt hand and the first turned card come from deck",
    "R-9": "official preset: round 1's dealer is below(n, 'first dealer')",
}
"""Every numbered requirement of protocol/*.md (tests/test_conformance.py compares)."""

OUTSIDE_THE_KIT: dict[str, str] = {
    "F-12": "a peer must stop reading while the host queues 1 MiB for it",
    "H-13": "failures are counted inside the host; only H-14's rotation shows them",
    "H-14": "100 failed JOINs take minutes under the pace, and the new code is not sent",
    "H-15": "needs 5+ failed JOINs from several addresses, slowing every later check",
    "H-16": "needs guessers running while an honest player joins (see tests/net)",
}
"""Requirements the kit does not check from outside (reported, not counted: tests/net
covers them against our host)."""
SCREEN_UNCHECKED = {
    "H-18": "give --screen-code (shown on the host) to check SCREEN links",
    "M-29": "give --screen-code (shown on the host) to check SCREEN links",
}

SECTIONS = {
    "G": "README (versions)",
    "H": "handshake.md",
    "F": "framing.md",
    "M": "messages.md",
    "R": "fairness.md",
}
PRIVATE_EVENTS = {
    cls.kind: [f.name for f in dataclasses.fields(cls)]
    for cls in vars(engine_events).values()
    if isinstance(cls, type) and issubclass(cls, engine_events.PrivateEvent)
    and cls is not engine_events.PrivateEvent
}  # fmt: skip
EVENT_FIELDS = {
    cls.kind: {f.name for f in dataclasses.fields(cls)}
    for cls in vars(engine_events).values()
    if isinstance(cls, type) and issubclass(cls, engine_events.Event)
    and cls not in (engine_events.Event, engine_events.PrivateEvent)
}  # fmt: skip
DEBUG = bool(os.environ.get("LANUNO_CONFORMANCE_DEBUG"))
PACE = 0.08
"""Seconds between a player's actions: 12 a second, well under the 20 a second allowed."""


class CheckFailed(Exception):
    pass


def need(condition: object, why: str) -> None:
    if not condition:
        raise CheckFailed(why)


@dataclass
class Report:
    results: dict[str, tuple[bool, str]] = field(default_factory=dict)

    def record(self, req: str, ok: bool, detail: str = "") -> None:
        assert req in REQUIREMENTS, req
        if req in self.results and not self.results[req][0]:
            return  # a failure sticks
        self.results[req] = (ok, detail)

    def passed(self, *reqs: str, detail: str = "") -> None:
        for req in reqs:
            self.record(req, True, detail)

    def failed(self, req: str, detail: str) -> None:
        self.results.pop(req, None)
        self.record(req, False, detail)

    def check(self, req: str, condition: object, why: str) -> bool:
        if condition:
            self.passed(req)
        else:
            self.failed(req, why)
        return bool(condition)

    def print(
        self, out: Callable[[str], None] = print, skipped: dict[str, str] | None = None
    ) -> int:
        passed = 0
        outside = OUTSIDE_THE_KIT | (skipped or {})
        counted = [r for r in REQUIREMENTS if r not in outside]
        for letter, title in SECTIONS.items():
            out(f"== {title}")
            for req, text in REQUIREMENTS.items():
                if not req.startswith(letter + "-"):
                    continue
                if req in outside:
                    out(f"  ---- [{req}] {text}\n         not checked: {outside[req]}")
                    continue
                ok, detail = self.results.get(req, (False, "not checked (not reached)"))
                passed += ok
                line = f"  {'PASS' if ok else 'FAIL'} [{req}] {text}"
                out(line if ok or not detail else f"{line}\n         {detail}")
        out(f"not checked from outside: {', '.join(outside)}")
        out(f"conformance: {passed}/{len(counted)} requirements passed")
        return passed == len(counted)


# ----------------------------------------------------------------------------- raw sockets


async def raw_exchange(
    host: str, port: int, data: bytes, *, wait: float = 3.0
) -> tuple[bytes, bool]:
    """Send ``data`` on a fresh connection; (bytes received, closed by the host in time)."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(data)
        await writer.drain()
        got = b""
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                chunk = await asyncio.wait_for(reader.read(4096), deadline - time.monotonic())
            except TimeoutError:
                return got, False
            except OSError:
                return got, True
            if not chunk:
                return got, True
            got += chunk
        return got, False
    finally:
        writer.close()


# ----------------------------------------------------------------------------- a client


@dataclass
class Received:
    message: Message | None
    frame_length: int
    payload_length: int
    at: float


class Peer:
    """One client connection that keeps every frame it receives, for the framing checks."""

    def __init__(self, kit: Kit, name: str) -> None:
        self.kit, self.name = kit, name
        self.conn: ClientConnection | None = None
        self.done: HandshakeComplete | None = None
        self.host_hello = b""
        self.msg_b = b""
        self.inbox: asyncio.Queue[Received | ConnectionClosed | None] = asyncio.Queue()
        self.history: list[Received] = []
        self.closed: ConnectionClosed | None = None
        self.eof = False
        self.seeds = ClientSeeds(os.urandom)
        self.seq = 0
        self.kit_seat: int | None = None
        """The seat the host gave this connection (None: none, or not yet)."""
        self.sent_frames: list[bytes] = []
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._task: asyncio.Task[None] | None = None
        self._pinger: asyncio.Task[None] | None = None

    async def handshake(
        self, conn: ClientConnection, local: str | None = None
    ) -> HandshakeComplete | None:
        """Run the handshake (from the loopback address ``local``, if given); the
        completion, or None if the host closed (self.eof)."""
        self.conn = conn
        self._reader, self._writer = await asyncio.open_connection(
            self.kit.host, self.kit.port, local_addr=(local, 0) if local else None
        )
        raw = b""
        self._writer.write(conn.data_to_send())
        while True:
            try:
                data = await asyncio.wait_for(self._reader.read(65536), 6.0)
            except TimeoutError:
                raise CheckFailed(f"{self.name}: the handshake stalled") from None
            raw += data
            try:
                events = conn.receive_data(data)
            except ProtocolError:
                self.eof = not data
                self._capture(raw)
                self.close()
                return None
            self._capture(raw)
            self._writer.write(conn.data_to_send())
            for index, event in enumerate(events):
                if isinstance(event, HandshakeComplete):
                    self.done = event
                    self._task = asyncio.create_task(self._read_loop(raw, events[index + 1 :]))
                    return event
            if not data:
                self.eof = True
                self.close()
                return None

    def _capture(self, raw: bytes) -> None:
        hello_end = len(MAGIC_HOST) + 16 + 16 + 32
        if len(raw) >= hello_end and not self.host_hello:
            self.host_hello = raw[:hello_end]
        if len(raw) >= hello_end + 33 and not self.msg_b:
            self.msg_b = raw[hello_end : hello_end + 33]

    async def join(self, code: str) -> HandshakeComplete:
        done = await self.handshake(ClientConnection.join(code, os.urandom, self.kit.table))
        need(done is not None, f"{self.name}: JOIN refused")
        assert done is not None
        return done

    async def _read_loop(self, raw: bytes, early: Iterable[object]) -> None:
        """Split the stream into frames so each message is seen with its frame length."""
        assert self._reader is not None
        assert self.conn is not None
        skip = 0
        for event in early:
            self._deliver(event, 0, 0)
            skip += isinstance(event, Message)
        # Bytes after the host's confirmation frame: 75 + 33 + 2 + 272 bytes of handshake.
        # Frames that came with it were opened already (a SCREEN link's first messages);
        # the connection is given each remaining frame whole, from this buffer only.
        buffer = bytearray(raw[len(self.host_hello) + 33 + 274 :])
        for _ in range(skip):
            del buffer[: 2 + int.from_bytes(buffer[:2], "big")]
        self.conn._buffer.clear()  # the partial frame is in ``buffer``
        while True:
            while len(buffer) >= 2:
                length = int.from_bytes(buffer[:2], "big")
                if len(buffer) < 2 + length:
                    break
                frame = bytes(buffer[: 2 + length])
                del buffer[: 2 + length]
                try:
                    events = self.conn.receive_data(frame)
                except ProtocolError as error:
                    self.kit.report.failed("F-1", f"{self.name}: host frame refused ({error})")
                    self.inbox.put_nowait(None)
                    return
                for event in events:
                    self._deliver(event, 2 + length, -1)
            try:
                data = await self._reader.read(65536)
            except OSError:
                data = b""
            if not data:
                self.eof = True
                self.inbox.put_nowait(None)
                return
            buffer += data

    def _deliver(self, event: object, frame_length: int, _: int) -> None:
        if isinstance(event, ConnectionClosed):
            self.closed = event
            self.inbox.put_nowait(event)
            return
        if isinstance(event, Message):
            payload, _floor = encode(event)
            item = Received(event, frame_length, len(payload), time.monotonic())
            self.history.append(item)
            self.kit.note_frame(self, item)
            self.inbox.put_nowait(item)

    def send(self, message: Message) -> None:
        self.sent_frames.append(self.send_payload(*encode(message)))

    def send_payload(self, payload: bytes, floor: int = 0) -> bytes:
        """Seal any payload with this connection's key and counter. The kit's own order
        checks are bypassed on purpose: breaking the rules is its job."""
        assert self.conn is not None
        assert self.conn.tx is not None
        assert self._writer is not None
        frame = self.conn.tx.seal(payload, floor)
        self._writer.write(frame)
        return frame

    def keep_alive(self) -> None:
        """Ping every 4 s, as clients do (messages.md: every 5 s when idle)."""

        async def pinger() -> None:
            n = 0
            while self.closed is None and not self.eof:
                await asyncio.sleep(4)
                n += 1
                with contextlib.suppress(Exception):
                    self.send(Ping(n=n))

        self._pinger = asyncio.create_task(pinger())

    def send_bytes(self, data: bytes) -> None:
        assert self._writer is not None
        self._writer.write(data)

    def action(self, sid: int, notation: str, seq: int | None = None) -> ActionRequest:
        self.seq = self.seq + 1 if seq is None else seq
        request = ActionRequest(seq=self.seq, sid=sid, a=notation)
        self.send(request)
        return request

    async def next(self, timeout: float = 5.0) -> Received | ConnectionClosed | None:
        try:
            return await asyncio.wait_for(self.inbox.get(), timeout)
        except TimeoutError:
            return None

    async def wait_for(
        self, predicate: Callable[[Message], bool], what: str, timeout: float = 8.0
    ) -> Message:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            item = await self.next(max(0.0, left)) if left > 0 else None
            if item is None or isinstance(item, ConnectionClosed):
                raise CheckFailed(f"{self.name}: no {what} (got {item})")
            if item.message is not None and predicate(item.message):
                return item.message

    async def closing_bye(self, timeout: float = 4.0) -> tuple[Bye | None, bool]:
        """(the bye received, if any; whether the host closed the connection)."""
        bye: Bye | None = None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            item = await self.next(deadline - time.monotonic())
            if item is None:
                return bye, self.eof or self.closed is not None
            if isinstance(item, ConnectionClosed):
                continue
            if isinstance(item.message, Bye):
                bye = item.message
        return bye, False

    def close(self) -> None:
        if self._writer is not None:
            with contextlib.suppress(Exception):
                self._writer.close()
        if self._task is not None:
            self._task.cancel()
        if self._pinger is not None:
            self._pinger.cancel()

    def hello(self, **changes: Any) -> Hello:
        fields: dict[str, Any] = {
            "versions": (1,),
            "name": self.name,
            "age": None,
            "kid": False,
            "seed_commit": self.seeds.next_commit,
        }
        fields.update(changes)
        return Hello(**fields)


@dataclass
class _PlayedRound:
    """What the kit's two players saw and did in the round they play (by peer name)."""

    states: dict[str, State | None]
    pending: dict[str, ActionRequest | None]
    """The action each peer waits to hear about (an ack or a refusal)."""
    acted: dict[str, list[int]]
    last_sid: dict[str, int | None]
    """The table each peer acted on last (it waits for a new one)."""
    round_end: RoundEnd | None = None
    reveal: HostSeedReveal | None = None
    resumed: bool = False
    checked_stale: bool = False
    checked_turn: bool = False

    @classmethod
    def of(cls, players: list[Peer]) -> _PlayedRound:
        names = [p.name for p in players]
        return cls(
            states=dict.fromkeys(names),
            pending=dict.fromkeys(names),
            acted={name: [] for name in names},
            last_sid=dict.fromkeys(names),
        )


def _said(event: Event) -> tuple[int, str, tuple[tuple[str, Any], ...]]:
    """An event as compared between two deliveries."""
    return event.sid, event.type, tuple(sorted(event.fields.items()))


async def _pump(
    peer: Peer, queue: asyncio.Queue[tuple[Peer, Received | ConnectionClosed | None]]
) -> None:
    """Forward what ``peer`` receives to the one queue the kit reads (None: it ended)."""
    while True:
        item = await peer.inbox.get()
        await queue.put((peer, item))
        if item is None:
            return


# ----------------------------------------------------------------------------- the kit


@dataclass
class Deal:
    commit: SeedCommit | None = None
    commit_at: float = 0.0
    dealt_at: float = 0.0
    revealed: dict[str, bytes] = field(default_factory=dict)
    round_started: dict[str, Any] | None = None
    hands: dict[str, tuple[str, ...]] = field(default_factory=dict)
    turned: str | None = None
    returned_first: bool = False


class Kit:
    def __init__(
        self, host: str, port: int, code: str, table: int = 1, screen_code: str | None = None
    ) -> None:
        self.host, self.port, self.code = host, port, code
        self.table, self.screen_code = table, screen_code
        self.screen: Peer | None = None
        self.report = Report()
        self.rng = random.Random()
        self.frames_ok = True
        self.peers: list[Peer] = []

    # -- frames seen by every peer: F-1..F-5, M-24..M-26 ------------------------------------

    def note_frame(self, peer: Peer, item: Received) -> None:
        report, message, length = self.report, item.message, item.frame_length
        if length:
            plain = length - 2 - 16
            ok = 272 <= length - 2 <= 16400 and (length - 2 - 16) % 256 == 0
            report.check("F-5", ok, f"{peer.name}: frame length {length - 2}")
            report.check("F-2", plain >= item.payload_length + 2, f"{peer.name}: plaintext short")
            if isinstance(message, State | Event):
                floor = message.size_floor(item.payload_length)
                want = math.ceil((max(item.payload_length, floor) + 2) / 256) * 256
                req = "F-3" if isinstance(message, State) else "F-4"
                report.check(req, plain == want, f"{message.TYPE}: plaintext {plain}, want {want}")
        if isinstance(message, State):
            self._check_state(peer, message)
        if isinstance(message, Event):
            self._check_event(peer, message)

    def _check_state(self, peer: Peer, state: State) -> None:
        n, seat = len(state.counts), peer.kit_seat
        consistent = all(x < n for x in (state.turn, state.dealer)) and (
            state.actor is None or state.actor < n
        )
        if seat is not None and seat < n:
            consistent = consistent and len(state.hand) == state.counts[seat]
        else:  # a spectator sees no hand and may do nothing
            consistent = consistent and not state.hand and not state.legal
        self.report.check("M-24", consistent, f"{peer.name}: inconsistent state {state.sid}")
        bare = [a for a in state.legal if a.split()[:2][-1] in WILD_CODES and len(a.split()) == 2]
        self.report.check("M-23", not bare, f"{peer.name}: bare wild in legal: {bare}")

    def _check_event(self, peer: Peer, event: Event) -> None:
        expected = EVENT_FIELDS.get(event.type)
        # A resumed seat's missed event may say that a bot made its move (M-31).
        marked = event.fields.get("bot", True) is True
        self.report.check(
            "M-25",
            expected is not None and set(event.fields) - {"bot"} == expected and marked,
            f"event {event.type} with fields {sorted(event.fields)}",
        )
        if event.type in PRIVATE_EVENTS:
            seat = peer.kit_seat
            self.report.check(
                "M-26",
                seat is not None and event.fields.get("seat") == seat,
                f"{peer.name} (seat {seat}) got {event.type} of seat {event.fields.get('seat')}",
            )

    # -- helpers ----------------------------------------------------------------------------

    def peer(self, name: str) -> Peer:
        peer = Peer(self, name)
        self.peers.append(peer)
        return peer

    async def attempt(self, reqs: Iterable[str], check: Callable[[], Any]) -> None:
        """Run one check; an exception fails every requirement it was to show."""
        reqs = list(reqs)
        try:
            await check()
        except CheckFailed as error:
            for req in reqs:
                if req not in self.report.results:  # what was shown before still stands
                    self.report.failed(req, str(error))
        except (OSError, ProtocolError) as error:
            for req in reqs:
                if req not in self.report.results:
                    self.report.failed(req, f"{type(error).__name__}: {error}")

    # -- the run ---------------------------------------------------------------------------

    async def run(self) -> Report:
        timers = [
            asyncio.create_task(self.attempt(["H-12"], self.check_handshake_deadline)),
            asyncio.create_task(self.attempt(["F-11"], self.check_client_hello_deadline)),
        ]
        await self.attempt(["G-1"], self.check_other_generation)
        await self.attempt(["G-2"], self.check_not_the_magic)
        await self.attempt(["H-17"], self.check_unknown_table)
        await self.attempt(["H-1"], self.check_malformed_client_hello)
        if self.screen_code is not None:
            await self.attempt(["H-18", "M-29"], self.check_screen_pairing)
        await self.attempt(["H-3"], self.check_unknown_resume)
        await self.attempt(["H-7"], self.check_wrong_code)
        await self.attempt(["M-1", "M-3", "M-4", "M-5", "M-6", "M-7", "M-8"], self.check_errors)
        await self.attempt(["G-4"], self.check_version_mismatch)
        await self.attempt(["F-6", "F-7", "F-8"], self.check_frame_failures)
        await self.attempt(["F-13"], self.check_idle_crowd)
        game = [
            "G-3", "G-5", "H-2", "H-4", "H-5", "H-6", "H-8", "H-9", "H-10", "H-11",
            "M-2", "M-9", "M-10", "M-11", "M-12", "M-13", "M-14", "M-15", "M-16", "M-17",
            "M-18", "M-19", "M-20", "M-21", "M-22", "M-27", "M-28", "M-30", "M-31", "F-9",
            "F-10",
            "R-1", "R-2", "R-3", "R-4", "R-5", "R-6", "R-7", "R-8", "R-9",
        ]  # fmt: skip
        await self.attempt(game, self.play_a_round)
        if self.screen is not None:
            await self.attempt(["M-29"], self.check_screen_feed)
        for timer in timers:
            await timer
        for peer in self.peers:
            peer.close()
        if "F-1" not in self.report.results:
            self.report.passed("F-1")  # every frame of every peer opened
        return self.report

    # -- before any seat ---------------------------------------------------------------------

    async def check_handshake_deadline(self) -> None:
        start = time.monotonic()
        got, closed = await raw_exchange(self.host, self.port, MAGIC_CLIENT[:5], wait=7.0)
        took = time.monotonic() - start
        need(closed and not got, f"half a client hello: closed={closed}, got {got!r}")
        need(took <= 5.0 + 1.0, f"closed after {took:.1f} s")
        self.report.passed("H-12", detail=f"closed after {took:.1f} s")

    async def check_client_hello_deadline(self) -> None:
        start = time.monotonic()
        got, closed = await raw_exchange(self.host, self.port, b"", wait=5.0)
        took = time.monotonic() - start
        need(closed and not got, f"no client hello: closed={closed}, got {got!r}")
        need(took <= 2.0 + 1.0, f"closed after {took:.1f} s")
        self.report.passed("F-11", detail=f"closed after {took:.1f} s")

    async def check_idle_crowd(self) -> None:
        """F-13: 32 idle connections from 8 addresses (4 each, the caps), then a JOIN."""
        idle: list[asyncio.StreamWriter] = []
        try:
            for address in range(2, 10):
                for _ in range(4):
                    _, writer = await asyncio.open_connection(
                        self.host, self.port, local_addr=(f"127.0.0.{address}", 0)
                    )
                    idle.append(writer)
            peer = self.peer("after the crowd")
            done = await peer.handshake(ClientConnection.join(self.code, os.urandom, self.table))
            peer.close()
            self.report.check("F-13", done is not None, "the JOIN was kept out")
        finally:
            for writer in idle:
                writer.close()

    async def check_other_generation(self) -> None:
        # A generation-1 client hello is 14 bytes: mode, seat, gen (no table).
        got, closed = await raw_exchange(self.host, self.port, b"LANUNO/1 C\n\x01\xff\x00")
        need(got == b"LANUNO/1 V\n" and closed, f"got {got!r}, closed={closed}")
        self.report.passed("G-1")

    async def check_unknown_table(self) -> None:
        for table in (0, 65, 255):  # never served: tables are numbered 1..64
            hello = MAGIC_CLIENT + bytes((1, table, 255, 0))
            got, closed = await raw_exchange(self.host, self.port, hello)
            need(got == MAGIC_TABLE_REFUSED and closed, f"table {table}: got {got!r}")
        self.report.passed("H-17")

    async def check_screen_pairing(self) -> None:
        """H-18 and the start of M-29: a wrong screen code is refused like a wrong room code;
        the right one pairs, and the link's first message is ``screen``. The link stays
        open through the round (M-29 then checks it saw the public feed and no hand)."""
        assert self.screen_code is not None
        wrong = f"{(int(self.screen_code) + 1) % 1_000_000:06d}"
        peer = self.peer("wrong screen code")
        # From an address of its own: the kit's one wrong room code (H-7) stays the only
        # failed code of its main address, which keeps that address "new" for F-13.
        local = "127.0.0.10" if loopback(self.host) else None
        done = await peer.handshake(
            ClientConnection.screen(wrong, os.urandom, self.table), local=local
        )
        need(done is None and peer.eof, "a wrong screen code was confirmed")
        screen = self.peer("screen")
        done = await screen.handshake(
            ClientConnection.screen(self.screen_code, os.urandom, self.table)
        )
        need(done is not None, "the screen code was refused")
        self.report.passed("H-18")
        screen.keep_alive()
        first = await screen.next()
        need(
            isinstance(first, Received) and isinstance(first.message, ScreenInfo),
            f"first message on a SCREEN link: {first}",
        )
        assert isinstance(first, Received)
        assert isinstance(first.message, ScreenInfo)
        info = first.message
        need(info.table == self.table, f"screen.table {info.table}")
        need(info.code == self.code, "screen.code is not the room code")
        self.screen = screen

    async def check_screen_feed(self) -> None:
        """M-29: the screen saw the round (lobby, public states, events, round_end) and
        never a card of a hand (its states are checked by M-24 like a spectator's)."""
        screen = self.screen
        assert screen is not None
        wanted = {"lobby", "state", "event", "round_end"}
        # The screen's link is a connection of its own: under load its end of the round
        # may arrive after the players' (the host queues each link's frames on its own).
        deadline = time.monotonic() + 5.0
        while True:
            kinds = {item.message.TYPE for item in screen.history if item.message is not None}
            if wanted <= kinds or time.monotonic() > deadline or screen.eof:
                break
            await asyncio.sleep(0.05)
        need(wanted <= kinds, f"the screen saw {kinds}")
        hands = [
            item.message.hand
            for item in screen.history
            if isinstance(item.message, State) and item.message.hand
        ]
        need(not hands, f"the screen received a hand: {hands[:1]}")
        screen.send(Ping(n=77))
        pong = await screen.wait_for(lambda m: isinstance(m, Pong) and m.n == 77, "pong")
        need(isinstance(pong, Pong), "no pong on the SCREEN link")
        self.report.passed("M-29")

    async def check_not_the_magic(self) -> None:
        got, closed = await raw_exchange(self.host, self.port, b"GET / HTTP/1.1\r\n\r\n")
        need(got == b"" and closed, f"got {got!r}, closed={closed}")
        self.report.passed("G-2")

    async def check_malformed_client_hello(self) -> None:
        table = self.table
        for mode, seat, gen in ((1, 2, 0), (1, 255, 1), (4, 255, 0), (3, 2, 0), (3, 255, 1)):
            tail = bytes((mode, table, seat, gen))
            got, closed = await raw_exchange(self.host, self.port, MAGIC_CLIENT + tail)
            need(got == b"" and closed, f"client hello ...{tail.hex()}: got {len(got)} bytes")
        self.report.passed("H-1")

    async def check_unknown_resume(self) -> None:
        peer = self.peer("resume?")
        done = await peer.handshake(
            ClientConnection.resume(9, 200, os.urandom(32), os.urandom, self.table)
        )
        need(done is None and not peer.host_hello, "an unknown RESUME was answered")
        self.report.passed("H-3")

    async def check_wrong_code(self) -> None:
        wrong = f"{(int(self.code) + 1) % 1_000_000:06d}"
        peer = self.peer("wrong code")
        done = await peer.handshake(ClientConnection.join(wrong, os.urandom, self.table))
        need(done is None and peer.eof, "a wrong code was confirmed")
        self.report.passed("H-7")

    async def _refused(self, payloads: list[bytes], *, hello_first: bool = False) -> Bye:
        peer = self.peer("rule breaker")
        await peer.join(self.code)
        if hello_first:
            peer.send(peer.hello())
        for payload in payloads:
            peer.send_payload(payload)
        bye, closed = await peer.closing_bye()
        peer.close()
        need(bye is not None, "closed without a bye" if closed else "not closed")
        assert bye is not None
        need(bye.code == CloseCode.PROTOCOL_ERROR, f"bye code {bye.code}")
        need(closed, "a bye but the connection stayed open")
        return bye

    async def check_errors(self) -> None:
        cases: list[tuple[str, bytes, str]] = [
            ("M-1", msgpack.packb({"t": "ping", "n": 1}), "hello"),
            ("M-3", msgpack.packb({"t": "teleport"}), "message.t"),
            ("M-4", msgpack.packb({"t": "ping", "n": -1}), "ping.n"),
            ("M-5", msgpack.packb({"t": "ping", "n": True}), "ping.n"),
            ("M-6", msgpack.packb({"t": "ping", "n": msgpack.ExtType(1, b"x")}), ""),
            ("M-7", msgpack.packb({"t": "ack", "seq": 1}), ""),
            ("M-8", b"\xc1\xc1", ""),
        ]
        for req, payload, named in cases:
            try:
                bye = await self._refused([payload])
                need(named in bye.reason, f"the reason {bye.reason!r} does not name {named}")
            except CheckFailed as error:
                self.report.failed(req, str(error))
            else:
                self.report.passed(req)

    async def check_version_mismatch(self) -> None:
        peer = self.peer("version 7")
        await peer.join(self.code)
        peer.send(peer.hello(versions=(7,)))
        error = await peer.wait_for(lambda m: isinstance(m, ErrorReply), "error")
        need(isinstance(error, ErrorReply) and error.code == "version", f"got {error}")
        bye, closed = await peer.closing_bye()
        peer.close()
        need(bye is not None and bye.code == CloseCode.VERSION_MISMATCH and closed, f"bye {bye}")
        self.report.passed("G-4")

    async def check_frame_failures(self) -> None:
        for req in ("F-6", "F-7", "F-8"):
            peer = self.peer(req)
            await peer.join(self.code)
            assert peer.conn is not None
            if req == "F-6":  # L = 17: not 16 + a multiple of 256
                peer.send_bytes(b"\x00\x11" + bytes(17))
            elif req == "F-7":  # one flipped bit in the tag
                assert peer.conn.tx is not None
                frame = peer.conn.tx.seal(*encode(peer.hello()))
                peer.send_bytes(frame[:-1] + bytes((frame[-1] ^ 1,)))
            else:  # a valid hello, then the very same frame again
                peer.send(peer.hello())
                peer.send_bytes(peer.sent_frames[-1])
            bye, closed = await peer.closing_bye()
            peer.close()
            self.report.check(req, closed and bye is None, f"closed={closed}, bye={bye}")

    # -- the game ---------------------------------------------------------------------------

    async def seat(self, name: str) -> Peer:
        peer = self.peer(name)
        await peer.join(self.code)
        peer.keep_alive()
        return peer

    async def play_a_round(self) -> None:
        report = self.report
        a, b = await self.seat("Conf A"), await self.seat("Conf B")
        assert a.done is not None
        assert b.done is not None
        # H-2, H-4, H-5, H-6: both handshakes completed against the spec's key schedule.
        report.check("H-2", len(a.host_hello) == 75 and a.host_hello[:11] == MAGIC_HOST, "hello")
        commit = hashlib.sha256(b"lanuno/v1 commit" + a.msg_b).digest()
        report.check("H-4", a.host_hello[-32:] == commit, "commitment")
        report.check(
            "H-5",
            a.host_hello[11:27] == b.host_hello[11:27]
            and a.host_hello[27:43] != b.host_hello[27:43],
            "room_id/nonce",
        )
        report.passed("H-6")
        room_id = a.done.room_id
        # G-5: A's hello carries an unknown key; G-3: it lists a version the host lacks.
        wire = a.hello(versions=(1, 999)).to_wire() | {"future_key": [1, {"x": 2}]}
        a.send_payload(msgpack.packb(wire, use_bin_type=True))
        assert a.conn is not None
        welcome = await a.wait_for(lambda m: isinstance(m, Welcome | Lobby), "welcome")
        need(isinstance(welcome, Welcome), f"hello answered by {welcome.TYPE}, not welcome")
        assert isinstance(welcome, Welcome)
        report.check("G-3", welcome.version == 1, f"welcome.version {welcome.version}")
        report.passed("G-5")
        b.send(b.hello())
        welcome_b = await b.wait_for(lambda m: isinstance(m, Welcome), "welcome")
        assert isinstance(welcome_b, Welcome)
        need(welcome.seat is not None and welcome_b.seat is not None, "no seat in the lobby")
        a.kit_seat, b.kit_seat = welcome.seat, welcome_b.seat
        lobby = await a.wait_for(lambda m: isinstance(m, Lobby), "lobby after welcome")
        report.passed("M-20")
        # M-9, M-11 in the lobby.
        a.send(Ping(n=4242))
        pong = await a.wait_for(lambda m: isinstance(m, Pong) and m.n == 4242, "pong")
        report.check("M-9", isinstance(pong, Pong) and pong.n == 4242, f"pong {pong}")
        a.action(0, "draw")
        refusal = await a.wait_for(lambda m: isinstance(m, ErrorReply), "error")
        assert isinstance(refusal, ErrorReply)
        report.check("M-11", refusal.code == "not_now" and refusal.seq == a.seq, f"{refusal}")
        refused_seqs = {a.seq}
        # M-22 and H-8: the lobby lists both seats with their check numbers, ready as sent.
        a.send(Ready(ready=True))
        seat = welcome.seat
        need(seat is not None, "the welcome gave A no seat")
        assert seat is not None
        lobby = await a.wait_for(
            lambda m: isinstance(m, Lobby) and m.seats[seat].ready, "lobby with A ready"
        )
        assert isinstance(lobby, Lobby)
        seat_a = lobby.seats[seat]
        report.check(
            "M-22",
            seat_a.kind == "human" and seat_a.name == "Conf A" and seat_a.connected,
            f"{seat_a}",
        )
        report.check("H-8", seat_a.check == a.done.check_number, "check number differs")
        # M-28: a third player with A's name is listed with a number, then leaves.
        twin = self.peer("twin")
        await twin.join(self.code)
        twin.send(twin.hello(name="Conf A"))
        listed = await twin.wait_for(lambda m: isinstance(m, Lobby), "lobby")
        assert isinstance(listed, Lobby)
        names = [s.name for s in listed.seats]
        report.check("M-28", "Conf A (2)" in names, f"names {names}")
        twin.send(Bye(code=0, reason="left"))  # a goodbye frees its lobby seat (a drop holds it)
        twin.close()
        # Spectator-free checks that need hello: M-2, M-10 on their own connections.
        await self.attempt(["M-2"], self.check_second_hello)
        await self.attempt(["M-10"], self.check_seq_order)
        await self.attempt(["M-18", "M-19"], self.check_rate_limit)
        # The game: B ready; the host deals after the seed exchange.
        deals = {a.name: Deal(), b.name: Deal()}
        b.send(Ready(ready=True))
        for peer, bad in ((a, False), (b, True)):
            commit_msg = await peer.wait_for(lambda m: isinstance(m, SeedCommit), "seed_commit")
            assert isinstance(commit_msg, SeedCommit)
            deal = deals[peer.name]
            deal.commit, deal.commit_at = commit_msg, time.monotonic()
            early = [
                h.message.type for h in peer.history if isinstance(h.message, Event)
            ]  # events of the round before its commitment
            report.check("R-1", not early and commit_msg.round == 1, f"events first: {early}")
            if bad:  # B reveals a seed that does not match its commitment
                peer.send(
                    ClientSeedReveal(round=1, seed=os.urandom(32), next_commit=os.urandom(32))
                )
            else:
                reveal = peer.seeds.reveal(1, commit_msg.commit)
                deal.revealed["seed"] = reveal.seed
                deal.revealed["commit"] = client_seed_commitment(reveal.seed)
                peer.send(reveal)
        # Spectators from now on (a silent seat in the lobby would hold the start).
        silent = asyncio.create_task(self.attempt(["F-9"], self.check_silence))
        trickle = asyncio.create_task(self.attempt(["F-10"], self.check_trickle))
        await self.attempt(["M-27"], self.check_spectator_cap)
        refusal = await b.wait_for(lambda m: isinstance(m, ErrorReply), "bad_seed")
        assert isinstance(refusal, ErrorReply)
        report.check("R-2", refusal.code == "bad_seed", f"{refusal}")
        await self._play(a, b, deals, room_id, refused_seqs)
        await silent
        await trickle

    async def check_second_hello(self) -> None:
        peer = self.peer("hello twice")
        await peer.join(self.code)
        peer.send(peer.hello())
        await peer.wait_for(lambda m: isinstance(m, Lobby), "lobby")
        bye = await self._after_payloads(peer, [encode(peer.hello())[0]])
        self.report.check("M-2", "hello" in bye.reason, bye.reason)

    async def check_seq_order(self) -> None:
        peer = self.peer("seq")
        await peer.join(self.code)
        peer.send(peer.hello())
        await peer.wait_for(lambda m: isinstance(m, Lobby), "lobby")
        peer.action(0, "draw", seq=5)
        again = encode(ActionRequest(seq=5, sid=0, a="draw"))[0]
        bye = await self._after_payloads(peer, [again])
        self.report.check("M-10", "seq" in bye.reason, bye.reason)

    async def _after_payloads(self, peer: Peer, payloads: list[bytes]) -> Bye:
        for payload in payloads:
            peer.send_payload(payload)
        bye, closed = await peer.closing_bye()
        peer.close()
        need(bye is not None and bye.code == CloseCode.PROTOCOL_ERROR, f"bye {bye}")
        need(closed, "not closed")
        assert bye is not None
        return bye

    async def check_rate_limit(self) -> None:
        peer = self.peer("flood")
        await peer.join(self.code)
        assert peer.conn is not None
        assert peer.conn.tx is not None
        burst = peer.conn.tx.seal(*encode(peer.hello())) + b"".join(
            peer.conn.tx.seal(*encode(Ping(n=i))) for i in range(100)
        )
        peer.send_bytes(burst)
        pongs = limited = 0
        bye: Bye | None = None
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and bye is None:
            item = await peer.next(deadline - time.monotonic())
            if item is None:
                break
            if isinstance(item, ConnectionClosed):
                continue
            message = item.message
            if isinstance(message, Pong):
                pongs += 1
            elif isinstance(message, ErrorReply) and message.code == "rate_limited":
                limited += 1
            elif isinstance(message, Bye):
                bye = message
        peer.close()
        self.report.check(
            "M-18", 38 <= pongs <= 50 and limited >= 1, f"{pongs} pongs, {limited} refusals"
        )
        self.report.check(
            "M-19",
            bye is not None and bye.code == CloseCode.RATE_LIMITED and pongs + limited <= 100,
            f"bye {bye} after {pongs} pongs and {limited} refusals",
        )

    async def check_silence(self) -> None:
        peer = self.peer("silent")
        await peer.join(self.code)
        peer.send(peer.hello())
        start = time.monotonic()
        bye: Bye | None = None
        while time.monotonic() - start < 19:
            item = await peer.next(19 - (time.monotonic() - start))
            if item is None:
                break
            if isinstance(item, Received) and isinstance(item.message, Bye):
                bye = item.message
        took = time.monotonic() - start
        peer.close()
        ok = bye is not None and bye.code == CloseCode.TIMEOUT and 14.0 <= took <= 18.0
        self.report.check("F-9", ok, f"bye {bye} after {took:.1f} s")

    async def check_trickle(self) -> None:
        peer = self.peer("trickle")
        await peer.join(self.code)
        peer.send(peer.hello())
        assert peer.conn is not None
        assert peer.conn.tx is not None
        frame = peer.conn.tx.seal(*encode(Ping(n=1)))
        start = time.monotonic()
        bye: Bye | None = None
        for byte in frame[:19]:  # one byte a second: never a whole frame
            peer.send_bytes(bytes((byte,)))
            await asyncio.sleep(1.0)
            while not peer.inbox.empty():
                item = peer.inbox.get_nowait()
                if isinstance(item, Received) and isinstance(item.message, Bye):
                    bye = item.message
            if bye is not None or peer.eof or peer.closed:
                break
        took = time.monotonic() - start
        peer.close()
        ok = bye is not None and bye.code == CloseCode.TIMEOUT and 14.0 <= took <= 18.0
        self.report.check(
            "F-10", ok, f"bye {bye} after {took:.1f} s of trickling ({peer.closed}, {peer.eof})"
        )

    async def check_spectator_cap(self) -> None:
        watchers: list[Peer] = []
        refusal: Bye | None = None
        try:
            for _ in range(20):
                peer = self.peer("watcher")
                watchers.append(peer)
                await peer.join(self.code)
                peer.send(peer.hello())
                item = await peer.next(3.0)
                while isinstance(item, Received) and not isinstance(item.message, Welcome | Bye):
                    item = await peer.next(3.0)
                if isinstance(item, Received) and isinstance(item.message, Bye):
                    refusal = item.message
                    break
                need(isinstance(item, Received), "a spectator got no welcome")
        finally:
            for peer in watchers:
                peer.close()
        self.report.check(
            "M-27",
            refusal is not None
            and refusal.code == CloseCode.TABLE_FULL
            and "too many spectators (16)" in refusal.reason,
            f"refusal {refusal} after {len(watchers)} spectators",
        )

    async def _play(
        self,
        a: Peer,
        b: Peer,
        deals: dict[str, Deal],
        room_id: bytes,
        refused_seqs: set[int],
    ) -> None:
        report = self.report
        players = [a, b]
        rnd = _PlayedRound.of(players)
        deadline = time.monotonic() + 90
        queue: asyncio.Queue[tuple[Peer, Received | ConnectionClosed | None]] = asyncio.Queue()
        tasks = {p.name: asyncio.create_task(_pump(p, queue)) for p in players}
        try:
            while rnd.reveal is None or rnd.round_end is None:
                need(time.monotonic() < deadline, "the round did not end within 90 s")
                try:
                    peer, item = await asyncio.wait_for(queue.get(), 20)
                except TimeoutError:
                    raise CheckFailed("the table went quiet for 20 s") from None
                if peer not in players:
                    continue  # what a connection left behind by a resume still held
                if item is None or isinstance(item, ConnectionClosed):
                    raise CheckFailed(f"{peer.name} was disconnected: {peer.closed}")
                message = item.message
                assert message is not None  # not a close (above)
                if DEBUG:
                    print(f"  {peer.name} <- {message}", file=sys.stderr)
                deal = deals.get(peer.name)
                if isinstance(message, Event) and deal is not None:
                    self._note_deal(deal, message)
                if not self._take_reply(rnd, peer, a, message, refused_seqs):
                    continue
                state = rnd.states[peer.name]
                if state is None or not self._may_act(rnd, peer, a, state):
                    continue
                if not rnd.resumed and peer is a and len(rnd.acted[a.name]) >= 2:
                    rnd.resumed = True
                    tasks[a.name].cancel()
                    a = await self._resume_twice(a, refused_seqs, rnd.acted[a.name], report)
                    players[0] = a  # same name: its deal, seqs and actions carry on
                    rnd.states[a.name], rnd.pending[a.name], rnd.last_sid[a.name] = None, None, None
                    tasks[a.name] = asyncio.create_task(_pump(a, queue))
                    continue
                rnd.last_sid[peer.name] = state.sid
                await asyncio.sleep(PACE)  # a fast game must stay under the rate limit
                rnd.pending[peer.name] = peer.action(state.sid, self._choose(state.legal))
        finally:
            for task in tasks.values():
                task.cancel()
        for req in ("M-12", "M-13", "H-9", "H-10", "H-11", "M-15", "M-16", "M-17", "M-30", "M-31"):
            if req not in report.results:
                report.failed(req, "the round ended before the kit could check this")
        if "R-3" not in report.results:
            report.passed("R-3")
        assert rnd.reveal is not None
        self._check_reveal(rnd.reveal, deals, room_id, a, b)

    def _take_reply(
        self, rnd: _PlayedRound, peer: Peer, a: Peer, message: Message, refused_seqs: set[int]
    ) -> bool:
        """Note what ``message`` answers or tells (M-12 to M-14, M-21, R-3); False when
        the peer has nothing to decide on it (a refused seed reveal)."""
        report = self.report
        if isinstance(message, ErrorReply):
            if message.seq is not None:
                rnd.pending[peer.name] = None
                refused_seqs.add(message.seq)
            if peer is a and message.code == "stale_state":
                report.check("M-12", message.seq == a.seq, f"{message}")
            elif peer is a and message.code in ("illegal", "not_your_turn"):
                report.check(
                    "M-13", message.rule is not None and message.seq == a.seq, str(message)
                )
            elif message.code == "bad_seed":
                return False
            elif message.code not in ("stale_state", "illegal", "not_your_turn"):
                report.failed("R-3", f"{peer.name} got {message}")
            rnd.last_sid[peer.name] = None  # look at the table again
        elif isinstance(message, Ack):
            request = rnd.pending[peer.name]
            report.check("M-14", request is not None and message.seq == request.seq, str(message))
            if request is not None:
                rnd.acted[peer.name].append(request.seq)
            rnd.pending[peer.name] = None
        elif isinstance(message, RoundEnd):
            rnd.round_end = message
            state = rnd.states[peer.name]
            seats_n = len(state.counts) if state else 2
            report.check(
                "M-21", message.round == 1 and len(message.scores) == seats_n, str(message)
            )
        elif isinstance(message, HostSeedReveal) and peer is a:
            rnd.reveal = message
        elif isinstance(message, State):
            rnd.states[peer.name] = message
        return True

    def _may_act(self, rnd: _PlayedRound, peer: Peer, a: Peer, state: State) -> bool:
        """Whether ``peer`` acts on ``state`` now; A's two probes (an action out of turn,
        one on a stale state: M-13, M-12) are sent here instead, once each."""
        if rnd.round_end is not None or rnd.pending[peer.name] is not None:
            return False
        if state.phase in ("round_over", "game_over"):
            return False
        if not rnd.checked_turn and peer is a and state.actor not in (None, peer.kit_seat):
            rnd.checked_turn = True
            rnd.pending[a.name] = a.action(state.sid, "draw")  # not A's turn
            return False
        if state.actor != peer.kit_seat or not state.legal:
            return False
        if rnd.last_sid[peer.name] == state.sid:
            return False
        if not rnd.checked_stale and peer is a:
            rnd.checked_stale = True
            rnd.pending[a.name] = a.action(state.sid + 1_000_000, state.legal[0])
            return False
        return True

    @staticmethod
    def _note_deal(deal: Deal, event: Event) -> None:
        fields = event.fields
        if deal.dealt_at == 0.0 and event.type == "round_started":
            deal.dealt_at = time.monotonic()
            deal.round_started = dict(fields)
        elif event.type == "hand_dealt":
            cards = fields.get("cards")
            deal.hands["mine"] = tuple(map(str, cards)) if isinstance(cards, tuple) else ()
        elif event.type == "card_returned" and deal.turned is None:
            deal.returned_first = True
        elif event.type == "card_turned" and deal.turned is None and not deal.returned_first:
            card = fields.get("card")
            deal.turned = card if isinstance(card, str) else None

    def _choose(self, legal: tuple[str, ...]) -> str:
        plays = [a for a in legal if a.startswith("play")]
        return self.rng.choice(plays or list(legal))

    async def _resume_twice(
        self, a: Peer, refused: set[int], applied: list[int], report: Report
    ) -> Peer:
        """Drop A mid-game, resume it (H-9, H-11, M-15..M-17, M-31), then resume once more
        (H-10)."""
        assert a.done is not None
        assert a.kit_seat is not None
        seat = a.kit_seat
        # M-31: A says it saw the deal's state only; every event it got after that, up to
        # the last state it got (a state comes after its events), must come again.
        got = [item.message for item in a.history]
        bound = max((m.sid for m in got if isinstance(m, State)), default=0)
        seen_by_a = [m for m in got if isinstance(m, Event) and m.sid <= bound]
        seen_sid = min((m.sid for m in seen_by_a), default=0)
        missed = [_said(m) for m in seen_by_a if m.sid > seen_sid]
        secret, generation = a.done.resume_secret, a.done.generation
        a.close()  # end of stream between frames: a drop, no bye
        await asyncio.sleep(0.3)
        back = self.peer("Conf A")
        back.seeds, back.seq = a.seeds, a.seq
        done = await back.handshake(
            ClientConnection.resume(seat, generation, secret, os.urandom, self.table)
        )
        report.check("H-11", done is not None, "the dropped seat was not held")
        back.keep_alive()
        need(done is not None, "resume refused")
        assert done is not None
        back.kit_seat = seat
        back.send(back.hello(seen_sid=seen_sid))
        stale = min(s for s in refused if s > 1) if any(s > 1 for s in refused) else None
        resent = [s for s in (stale, applied[-1]) if s is not None]
        resent.sort()
        for seq in resent:
            back.send_payload(encode(ActionRequest(seq=seq, sid=0, a="draw"))[0])
        order: list[str] = []
        answers: dict[int, Message] = {}
        caught: list[Event] = []
        first_state: State | None = None
        deadline = time.monotonic() + 6
        while len(answers) < len(resent) and time.monotonic() < deadline:
            item = await back.next(deadline - time.monotonic())
            if item is None or isinstance(item, ConnectionClosed):
                break
            message = item.message
            assert message is not None
            order.append(message.TYPE)
            if isinstance(message, Event) and first_state is None:
                caught.append(message)
            if isinstance(message, State) and first_state is None:
                first_state = message
            if isinstance(message, Ack | ErrorReply) and message.seq in resent:
                answers[message.seq] = message
            if isinstance(message, Welcome):
                report.check("H-9", message.seat == seat, f"resumed into seat {message.seat}")
                # Every acked seq is applied; an action in flight at the drop may be too.
                report.check(
                    "M-30",
                    max(applied) <= message.last_seq <= a.seq,
                    f"last_seq {message.last_seq}, acked {applied}, last sent {a.seq}",
                )
        first_answer = min(
            (i for i, t in enumerate(order) if t in ("ack", "error")), default=len(order)
        )
        head = order[:first_answer]
        report.check(
            "M-17",
            head[:2] == ["welcome", "lobby"] and "state" in head,
            f"order after the resume: {order[:8]}",
        )
        last = first_state.sid if first_state is not None else -1
        report.check(
            "M-31",
            first_state is not None
            and all(seen_sid < m.sid <= last for m in caught)
            and [_said(m) for m in caught if m.sid <= bound] == missed,
            f"seen_sid {seen_sid}: got {[_said(m)[:2] for m in caught][:6]}, "
            f"want {[m[:2] for m in missed][:6]}",
        )
        applied_answer = answers.get(applied[-1])
        report.check("M-15", isinstance(applied_answer, Ack), f"applied seq: {applied_answer}")
        if stale is not None:
            stale_answer = answers.get(stale)
            report.check(
                "M-16",
                isinstance(stale_answer, ErrorReply) and stale_answer.code == "bad_seq",
                f"refused seq {stale}: {stale_answer}",
            )
        # H-10: the secret rolled; the new generation resumes again.
        back.close()
        await asyncio.sleep(0.3)
        again = self.peer("Conf A")
        again.seeds, again.seq = back.seeds, back.seq
        done2 = await again.handshake(
            ClientConnection.resume(
                seat, done.generation, done.resume_secret, os.urandom, self.table
            )
        )
        report.check("H-10", done2 is not None, "generation g+1 refused")
        need(done2 is not None, "second resume refused")
        again.kit_seat = seat
        again.keep_alive()
        again.send(again.hello())
        again.seq = max(again.seq, *applied, *refused)
        return again

    def _check_reveal(
        self, reveal: HostSeedReveal, deals: dict[str, Deal], room_id: bytes, a: Peer, b: Peer
    ) -> None:
        report = self.report
        deal_a = deals[a.name]
        commit = deal_a.commit
        assert commit is not None
        report.check(
            "R-4",
            0 < deal_a.dealt_at - deal_a.commit_at <= 5.0 + 1.0,
            f"dealt {deal_a.dealt_at - deal_a.commit_at:.1f} s after the commitment",
        )
        report.check(
            "R-5",
            host_seed_commitment(room_id, reveal.round, reveal.host_seed) == commit.commit,
            "host seed does not match its commitment",
        )
        seat_a, seat_b = a.kit_seat, b.kit_seat
        listed = {s.seat: s for s in reveal.seeds}
        mine = listed.get(seat_a) if seat_a is not None else None
        ok = (
            all(client_seed_commitment(s.seed) == s.commit for s in reveal.seeds)
            and mine is not None
            and mine.seed == deal_a.revealed.get("seed")
            and mine.commit == deal_a.revealed.get("commit")
            and seat_b not in listed
        )
        report.check("R-6", ok, f"seeds listed for seats {sorted(listed)}")
        welcome = next(
            (h.message for h in a.history if isinstance(h.message, Welcome)), None
        ) or next(
            (h.message for p in self.peers for h in p.history if isinstance(h.message, Welcome)),
            None,
        )
        assert isinstance(welcome, Welcome)
        kind = str(welcome.options.get("deck", PRESET_DECKS.get(welcome.preset, "standard")))
        canonical = list(CANONICAL_DECKS[kind])
        seed_r = combine_seeds(
            room_id, reveal.round, reveal.host_seed, {s.seat: s.seed for s in reveal.seeds}
        )
        deck = list(canonical)
        shuffler = FairShuffler(seed_r)
        shuffler.shuffle(deck, deal_purpose(reveal.round))
        report.check("R-7", tuple(deck) == reveal.deck, "the deck is not the seeds' shuffle")
        started = deal_a.round_started or {}
        dealer, hand_size = started.get("dealer"), started.get("hand_size")
        ok = isinstance(dealer, int) and isinstance(hand_size, int)
        if ok:
            assert isinstance(dealer, int)
            assert isinstance(hand_size, int)
            n = len(next(h.message for h in a.history if isinstance(h.message, State)).counts)
            for peer in (a, b):
                assert peer.kit_seat is not None
                hand = deals[peer.name].hands.get("mine")
                want = dealt_cards(
                    reveal.deck, seats=n, dealer=dealer, hand_size=hand_size, seat=peer.kit_seat
                )
                ok = ok and hand == want
            turned = deal_a.turned
            if turned is not None:
                ok = ok and turned == first_turned_card(reveal.deck, seats=n, hand_size=hand_size)
        report.check("R-8", ok, "the dealt cards are not the deck's")
        if welcome.preset == "official":
            seats_n = len(next(h.message for h in a.history if isinstance(h.message, State)).counts)
            first = FairShuffler(seed_r).below(seats_n, "first dealer")
            report.check("R-9", dealer == first, f"dealer {dealer}, below gives {first}")
        else:
            report.passed("R-9", detail=f"preset {welcome.preset}: youngest first")


# ----------------------------------------------------------------------------- entry points


def loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(socket.gethostbyname(host)).is_loopback
    except (OSError, ValueError):
        return False


def start_own_host(tmp: Path) -> tuple[subprocess.Popen[str], str, int, str, str | None]:
    code = f"{random.randrange(1_000_000):06d}"
    command = [
        sys.executable, "-m", "lanuno", "host", "--headless", "--no-mdns",
        "--interface", "127.0.0.1", "--port", "0", "--code", code,
        "--journal", str(tmp / "conformance.journal"), "--name", "conformance",
    ]  # fmt: skip
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1
    )
    assert process.stdout is not None
    deadline = time.monotonic() + 20
    screen_code: str | None = None
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        shown = re.search(r"screen code (\d{3}) (\d{3})", line)
        if shown:
            screen_code = shown.group(1) + shown.group(2)
        found = re.search(r"lanuno join (127\.0\.0\.1):(\d+) --code (\d{6})", line)
        if found:
            return process, found.group(1), int(found.group(2)), found.group(3), screen_code
    process.kill()
    raise SystemExit("conformance: our host did not start")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("address", nargs="?", metavar="HOST:PORT")
    parser.add_argument("--code", help="the table's room code")
    parser.add_argument("--self", dest="own", action="store_true", help="test our own host")
    parser.add_argument("--table", type=int, default=1, help="the table number (a hall)")
    parser.add_argument(
        "--screen-code", help="the table's screen code (checks SCREEN links: H-18, M-29)"
    )
    args = parser.parse_args(argv)
    process: subprocess.Popen[str] | None = None
    if args.own:
        import tempfile

        tmp = Path(tempfile.mkdtemp(prefix="lanuno-conformance-"))
        process, host, port, code, screen_code = start_own_host(tmp)
    else:
        if not args.address or not args.code:
            parser.error("give HOST:PORT and --code, or --self")
        host, _, port_text = args.address.rpartition(":")
        port, code, screen_code = int(port_text), args.code, args.screen_code
        if not loopback(host):
            parser.error("the kit only talks to loopback addresses (127.0.0.0/8)")
    try:
        report = asyncio.run(Kit(host, port, code, args.table, screen_code).run())
    finally:
        if process is not None:
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
    skipped = {} if screen_code else SCREEN_UNCHECKED
    return 0 if report.print(skipped=skipped) else 1


if __name__ == "__main__":
    sys.exit(main())
