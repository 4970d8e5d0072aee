"""Client cores talking to a real host ``Table`` through real wire connections, in memory:
no sockets, no event loop, a fake clock. Every byte goes through ``ClientConnection`` and
``HostConnection`` (handshake, AEAD frames), so what the core sees is what a socket gives."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from lanuno.client import ClientCore, ClientTiming, Notice, Player, ResumeTicket
from lanuno.host.table import SCREEN, Close, Send, Table
from lanuno.wire.connection import HandshakeComplete, HostConnection
from lanuno.wire.crypto import RandomBytes, counter_drbg
from lanuno.wire.errors import CloseCode, ProtocolError
from lanuno.wire.messages import Message

TIMING = ClientTiming(backoff=(0.1, 0.5), reconnect_for=30.0)


@dataclass
class Player_:
    """One client core, everything it reported, and its current link to the host."""

    core: ClientCore
    events: list[Message | Notice] = field(default_factory=list)
    conn: HostConnection | None = None
    peer: int | None = None

    def of_type(self, kind: type[object]) -> list[object]:
        return [e for e in self.events if isinstance(e, kind)]


class Room:
    """A host table and the players connected to it, moved along by ``settle()``."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.now = 0.0
        self.players: list[Player_] = []
        self._next_peer = 1
        self._made = 0
        self.table.take_records()

    def _random(self, label: str) -> RandomBytes:
        self._made += 1
        return counter_drbg(f"{label} {self._made}".encode())

    def add(
        self, name: str, *, ticket: ResumeTicket | None = None, code: str | None = None
    ) -> Player_:
        core = ClientCore(
            Player(self.table.room_code if code is None else code, name),
            self._random(f"client {name}"),
            timing=TIMING,
            ticket=ticket,
        )
        player = Player_(core)
        self.players.append(player)
        self.connect(player)
        return player

    def connect(self, player: Player_) -> None:
        """The adapter's job: open a 'socket' when the core wants one."""
        assert player.core.wants_connection(self.now)
        peer = self._next_peer
        self._next_peer += 1
        player.peer = peer
        player.conn = HostConnection(
            self.table.guard,
            self.table.room_id,
            self._random("host"),
            functools.partial(self.table.resume_lookup, peer=peer),
        )
        player.core.connection_made(self.now)
        self.settle()

    def drop(self, player: Player_) -> None:
        """The network drops the connection (no bye either way)."""
        if player.peer is not None:
            self.table.on_closed(player.peer, self.now)
        player.conn, player.peer = None, None
        player.core.receive_data(b"", self.now)
        self._collect(player)
        self.settle()

    def say_bye(self, player: Player_, code: CloseCode, reason: str) -> None:
        """The host ends the player's connection with a ``bye`` (``code``, ``reason``)."""
        assert player.conn is not None
        bye = player.conn.close(code, reason)
        player.conn = None
        player.core.receive_data(bye, self.now)
        self._collect(player)

    def advance(self, seconds: float) -> None:
        """Let time pass: host ticks, client timers, reconnections."""
        self.now += seconds
        self.table.tick(self.now)
        for player in self.players:
            timer = player.core.get_timer()
            if timer is not None and timer <= self.now:
                player.core.handle_timer(self.now)
            if player.core.wants_connection(self.now):
                self.connect(player)
        self.settle()

    def settle(self) -> None:
        for _ in range(10_000):
            if not self._step():
                return
        raise AssertionError("the room never settles")

    def _step(self) -> bool:
        moved = False
        for player in self.players:
            out = player.core.data_to_send()
            if out and player.conn is not None:
                moved = True
                self._host_receives(player, out)
            elif player.conn is not None and not player.core.socket_wanted:
                self._host_hangs_up(player)  # the client closed its socket
            self._collect(player)
        for item in self.table.take_outbox():
            moved = True
            self._deliver(item)
        self.table.take_records()
        return moved

    def _host_receives(self, player: Player_, data: bytes) -> None:
        conn, peer = player.conn, player.peer
        assert conn is not None
        assert peer is not None
        try:
            events = conn.receive_data(data)
        except ProtocolError:
            self._to_client(player, conn.data_to_send())
            self._host_hangs_up(player)
            return
        for event in events:
            if isinstance(event, HandshakeComplete):
                self.table.on_handshake(peer, event, self.now)
                if peer not in self.table.peers:
                    break
            elif isinstance(event, Message) and event.TYPE == "bye":
                self.table.on_leaving(peer)  # what the server adapter does with a bye
            elif isinstance(event, Message):
                self.table.on_message(peer, event, self.now)
        self._to_client(player, conn.data_to_send())

    def _host_hangs_up(self, player: Player_) -> None:
        if player.peer is not None:
            self.table.on_closed(player.peer, self.now)
        player.conn, player.peer = None, None
        if player.core.socket_wanted:
            player.core.receive_data(b"", self.now)

    def _to_client(self, player: Player_, data: bytes) -> None:
        if data and player.core.socket_wanted:
            player.core.receive_data(data, self.now)

    def _deliver(self, item: Send | Close) -> None:
        if isinstance(item, Send) and item.peer == SCREEN:
            return
        player = next((p for p in self.players if p.peer == item.peer), None)
        if player is None or player.conn is None:
            return
        if isinstance(item, Send):
            self._to_client(player, player.conn.send(item.message))
        else:
            self._to_client(player, player.conn.close(item.code, item.reason))
            self._host_hangs_up(player)

    def _collect(self, player: Player_) -> None:
        while (event := player.core.next_event()) is not None:
            player.events.append(event)
