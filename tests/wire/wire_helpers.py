"""A host and a client joined in memory (h11's ConnectionPair idea), plus sample messages."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from lanuno.wire.connection import (
    ClientConnection,
    Connection,
    ConnectionEvent,
    HandshakeComplete,
    HostConnection,
)
from lanuno.wire.crypto import RoomCodeGuard, counter_drbg
from lanuno.wire.messages import CARD_CODES, Hello, Message, State, UnoFlags

ROOM_ID = bytes(range(16))


@dataclass
class Table:
    """What a host keeps across connections: the guard and each seat's resume secrets."""

    guard: RoomCodeGuard = field(default_factory=lambda: RoomCodeGuard(counter_drbg(b"guard")))
    secrets: dict[tuple[int, int], bytes] = field(default_factory=dict)
    connections: int = 0

    def host(self, seed: bytes = b"host") -> HostConnection:
        self.connections += 1
        return HostConnection(
            self.guard,
            ROOM_ID,
            counter_drbg(seed + self.connections.to_bytes(4, "big")),
            lambda seat, gen: self.secrets.get((seat, gen)),
        )


def pump(
    client: Connection, host: Connection
) -> tuple[list[ConnectionEvent], list[ConnectionEvent]]:
    """Shuttle queued bytes both ways until quiet; (events at client, events at host)."""
    at_client: list[ConnectionEvent] = []
    at_host: list[ConnectionEvent] = []
    while True:
        to_host, to_client = client.data_to_send(), host.data_to_send()
        if not to_host and not to_client:
            return at_client, at_host
        if to_host:
            at_host += host.receive_data(to_host)
        if to_client:
            at_client += client.receive_data(to_client)


@dataclass
class ConnectionPair:
    client: ClientConnection
    host: HostConnection
    client_done: HandshakeComplete
    host_done: HandshakeComplete

    def to_host(self, message: Message) -> list[ConnectionEvent]:
        return self.host.receive_data(self.client.send(message))

    def to_client(self, message: Message) -> list[ConnectionEvent]:
        return self.client.receive_data(self.host.send(message))


def connect(table: Table, client: ClientConnection) -> ConnectionPair:
    host = table.host()
    at_client, at_host = pump(client, host)
    (client_done,) = at_client
    (host_done,) = at_host
    assert isinstance(client_done, HandshakeComplete)
    assert isinstance(host_done, HandshakeComplete)
    return ConnectionPair(client, host, client_done, host_done)


def join(table: Table, seed: bytes = b"client") -> ConnectionPair:
    return connect(table, ClientConnection.join(table.guard.code, counter_drbg(seed)))


def hello(name: str = "Ann") -> Hello:
    return Hello(versions=(1,), name=name, age=None, kid=False, seed_commit=b"\x11" * 32)


SORTED_CODES = sorted(CARD_CODES)


def sample_state(rng: random.Random, hand_size: int = 7, seats: int = 4, sid: int = 1) -> State:
    hand = tuple(rng.choice(SORTED_CODES) for _ in range(hand_size))
    playable = sorted({f"play {c}" for c in hand if rng.random() < 0.4})
    return State(
        sid=sid,
        round=1,
        hand=hand,
        counts=(hand_size, *tuple(rng.randrange(1, 10) for _ in range(seats - 1))),
        top=rng.choice(SORTED_CODES),
        color=rng.choice("RYGB"),
        direction=rng.choice((1, -1)),
        turn=0,
        actor=0,
        phase="turn",
        pending=0,
        legal=(*playable, "draw"),
        uno=tuple(UnoFlags(False, False) for _ in range(seats)),
        scores=(0,) * seats,
        draw_pile=50,
        discard_count=10,
        deadline_ms=None,
        dealer=seats - 1,
    )
