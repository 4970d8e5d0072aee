"""Scripted players over real loopback connections."""

from __future__ import annotations

import random

from helpers import until

from lanuno.net.client import ClientTiming, NetClientSession
from lanuno.wire.messages import Ack, ErrorReply, GameEnd, Message, State

FAST = ClientTiming(backoff=(0.05, 0.3), reconnect_for=30.0)


class ScriptedPlayer:
    """Plays random legal actions as soon as it may; records what the host acked."""

    def __init__(self, session: NetClientSession, seed: int, *, out_of_turn: float = 0.2) -> None:
        self.session = session
        self.rng = random.Random(seed)
        self.out_of_turn = out_of_turn
        self.messages: list[Message] = []
        self.acked: set[int] = set()
        self.sent: dict[int, str] = {}
        self.game_end: GameEnd | None = None

    async def play(self) -> GameEnd | None:
        async for message in self.session.updates():
            self.messages.append(message)
            if isinstance(message, Ack):
                self.acked.add(message.seq)
            if isinstance(message, GameEnd):
                self.game_end = message
                return message
            if isinstance(message, State | ErrorReply):
                await self._maybe_act()
        return self.game_end

    async def _maybe_act(self) -> None:
        state = self.session.last_state
        session = self.session
        if state is None or not state.legal or session.connection != "connected":
            return
        if state.actor == session.seat or self.rng.random() < self.out_of_turn:
            notation = self.rng.choice(state.legal)
            await session.act(notation)
            self.sent[session.seq] = notation


async def join(port: int, code: str, name: str, **kwargs: object) -> NetClientSession:
    session = NetClientSession("127.0.0.1", port, code, name, timing=FAST, **kwargs)  # type: ignore[arg-type]
    await session.connect()
    # Seated (or watching: a late joiner gets the table), or turned away by the host.
    await until(
        lambda: (
            session.seat is not None
            or session.last_state is not None
            or session.connection != "connected"
        ),
        f"{name} is seated",
    )
    return session
