"""In-memory players for the table controller: no sockets, a fake clock."""

from __future__ import annotations

from dataclasses import dataclass, field

from lanuno.host.table import SCREEN, Close, Send, Table
from lanuno.wire.connection import HandshakeComplete
from lanuno.wire.crypto import Mode, counter_drbg
from lanuno.wire.fairness import ClientSeeds
from lanuno.wire.messages import (
    ActionRequest,
    ClientSeedReveal,
    Hello,
    Message,
    SeedCommit,
    State,
    Welcome,
)


@dataclass
class FakeClient:
    peer: int
    name: str
    seeds: ClientSeeds
    inbox: list[Message] = field(default_factory=list)
    closed: Close | None = None
    seat: int | None = None
    secret: bytes = b""
    generation: int = 0
    seq: int = 0

    @property
    def state(self) -> State | None:
        for message in reversed(self.inbox):
            if isinstance(message, State):
                return message
        return None

    def of_type(self, kind: type[Message]) -> list[Message]:
        return [m for m in self.inbox if isinstance(m, kind)]


class Harness:
    """Drives a Table with fake clients; ``now`` is a fake clock."""

    def __init__(self, table: Table, *, auto_reveal: bool = True) -> None:
        self.table = table
        self.now = 0.0
        self.clients: dict[int, FakeClient] = {}
        self.screen: list[Message] = []
        self.records: list[dict[str, object]] = list(table.take_records())
        self.next_peer = 1
        self.auto_reveal = auto_reveal
        self.secrets_made = 0
        self.pump()

    def secret(self) -> bytes:
        """A resume secret (deterministic, so Hypothesis can replay a run)."""
        self.secrets_made += 1
        return counter_drbg(f"secret {self.secrets_made}".encode())(32)

    def pump(self) -> None:
        for _ in range(1000):
            self.records.extend(self.table.take_records())
            out = self.table.take_outbox()
            if not out:
                return
            for item in out:
                if isinstance(item, Close):
                    client = self.clients.get(item.peer)
                    if client is not None and client.closed is None:
                        client.closed = item
                        self.table.on_closed(item.peer, self.now)
                    continue
                assert isinstance(item, Send)
                if item.peer == SCREEN:
                    self.screen.append(item.message)
                    continue
                client = self.clients.get(item.peer)
                if client is None or client.closed is not None:
                    continue
                client.inbox.append(item.message)
                if isinstance(item.message, Welcome):
                    client.seat = item.message.seat
                if isinstance(item.message, SeedCommit) and self.auto_reveal:
                    reveal = client.seeds.reveal(item.message.round, item.message.commit)
                    self.table.on_message(client.peer, reveal, self.now)

    def join(self, name: str, *, kid: bool = False, age: int | None = None) -> FakeClient:
        peer = self.next_peer
        self.next_peer += 1
        seeds = ClientSeeds(counter_drbg(f"client {peer}".encode()))
        client = FakeClient(peer, name, seeds, secret=self.secret())
        self.clients[peer] = client
        done = HandshakeComplete(Mode.JOIN, None, 0, client.secret, 123456, self.table.room_id)
        self.table.on_handshake(peer, done, self.now)
        self.table.on_message(
            peer,
            Hello(versions=(1,), name=name, age=age, kid=kid, seed_commit=seeds.next_commit),
            self.now,
        )
        self.pump()
        return client

    def resume(self, old: FakeClient, *, seen_sid: int | None = None) -> FakeClient:
        """``old``'s seat resumed on a new connection; ``seen_sid``: its hello's (the last
        state that client got; None, as a client from before that field)."""
        peer = self.next_peer
        self.next_peer += 1
        assert old.seat is not None
        assert self.table.resume_lookup(old.seat, old.generation, peer) == old.secret
        client = FakeClient(
            peer,
            old.name,
            old.seeds,
            secret=self.secret(),
            seq=old.seq,
            generation=(old.generation + 1) % 256,
        )
        self.clients[peer] = client
        done = HandshakeComplete(
            Mode.RESUME, old.seat, client.generation, client.secret, 654321, self.table.room_id
        )
        self.table.on_handshake(peer, done, self.now)
        self.table.on_message(
            peer,
            Hello(
                versions=(1,),
                name=old.name,
                age=None,
                kid=False,
                seed_commit=old.seeds.next_commit,
                seen_sid=seen_sid,
            ),
            self.now,
        )
        self.pump()
        return client

    def drop(self, client: FakeClient) -> None:
        client.closed = Close(client.peer, 17, "dropped")  # type: ignore[arg-type]
        self.table.on_closed(client.peer, self.now)
        self.pump()

    def send(self, client: FakeClient, message: Message) -> None:
        self.table.on_message(client.peer, message, self.now)
        self.pump()

    def act(self, client: FakeClient, notation: str, sid: int | None = None) -> int:
        client.seq += 1
        state = client.state
        assert state is not None
        self.send(
            client, ActionRequest(seq=client.seq, sid=state.sid if sid is None else sid, a=notation)
        )
        return client.seq

    def advance(self, seconds: float) -> None:
        """Move the fake clock, firing every deadline on the way."""
        end = self.now + seconds
        while True:
            deadline = self.table.next_deadline()
            if deadline is None or deadline > end:
                break
            self.now = max(self.now, deadline)
            self.table.tick(self.now)
            self.pump()
        self.now = end
        self.table.tick(self.now)
        self.pump()

    def reveal(self, client: FakeClient, round_no: int) -> None:
        """Answer the host's latest seed commitment for ``round_no``, as a client does."""
        self.send(client, self.reveal_message(client, round_no))

    def reveal_message(self, client: FakeClient, round_no: int) -> ClientSeedReveal:
        """The reveal a client makes for the latest commitment of ``round_no`` (not sent)."""
        commits = [m for m in client.inbox if isinstance(m, SeedCommit) and m.round == round_no]
        commit = commits[-1].commit if commits else b""
        return client.seeds.reveal(round_no, commit)


__all__ = ["ClientSeedReveal", "FakeClient", "Harness"]


PRIVATE_EVENTS = frozenset({"hand_dealt", "cards_drawn", "cards_received", "hand_revealed"})


def random_moves(
    h: Harness, clients: list[FakeClient], rng: object, max_steps: int = 20000
) -> None:
    """Humans pick random legal actions (out of turn too) until the game is back in the
    lobby; the clock advances when nobody human can act (bots and timers move on)."""
    import random as _random

    assert isinstance(rng, _random.Random)
    for _ in range(max_steps):
        if h.table.phase.value == "lobby":
            return
        acted = False
        for client in clients:
            state = client.state
            live = client.closed is None and state is not None and state.legal
            if live and (state.actor == client.seat or rng.random() < 0.3):
                # Cards before draws, as people play: uniform choices that include drawing
                # make rounds run for thousands of moves.
                plays = [a for a in state.legal if a.startswith("play ")]
                pool = plays if plays and rng.random() < 0.9 else state.legal
                h.act(client, rng.choice(pool))
                acted = True
        if not acted:
            if h.table.phase.value == "between_rounds":
                h.table.start(h.now)
                h.pump()
            else:
                h.advance(0.5)
    raise AssertionError("the game did not end")
