"""In-memory stand-ins for the network layer, and sample messages for the UI tests."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence

from lanuno.ui.contracts import ConnectionState
from lanuno.wire.messages import (
    Event,
    Lobby,
    LobbySeat,
    Message,
    State,
    UnoFlags,
    Welcome,
)

NAMES = ("Lea", "Max", "Ana", "Bot Bob")


class FakeSession:
    """A ClientSession fed by the test: ``feed`` messages in, ``acted`` records what was sent."""

    def __init__(self, seat: int = 2, check: int = 123456) -> None:
        self._seat = seat
        self._check = check
        self.connection_state: ConnectionState = "connected"
        self.queue: asyncio.Queue[Message | None] = asyncio.Queue()
        self.acted: list[str] = []
        self.ready_calls: list[bool] = []
        self.closed = False
        self.sent = asyncio.Event()
        self.end_reason = ""

    @property
    def seat(self) -> int | None:
        return self._seat

    @property
    def check_number(self) -> int | None:
        return self._check

    @property
    def connection(self) -> ConnectionState:
        return self.connection_state

    def feed(self, *messages: Message) -> None:
        for message in messages:
            self.queue.put_nowait(message)

    def end(self, reason: str = "") -> None:
        self.end_reason = reason
        self.queue.put_nowait(None)

    async def updates(self) -> AsyncIterator[Message]:
        while True:
            message = await self.queue.get()
            if message is None:
                return
            yield message

    async def act(self, notation: str) -> None:
        self.acted.append(notation)
        self.sent.set()

    async def set_ready(self, ready: bool) -> None:
        self.ready_calls.append(ready)
        self.sent.set()

    async def close(self) -> None:
        self.closed = True


class FakeScreen:
    def __init__(self) -> None:
        self.queue: asyncio.Queue[Message | None] = asyncio.Queue()
        self.room = "482913"
        self.linked = True
        self.announced = True
        self.address_list: tuple[str, ...] = ("192.168.1.20:41234",)
        self.end_reason = ""

    @property
    def table_name(self) -> str:
        return "Kitchen"

    @property
    def room_code(self) -> str:
        return self.room

    @property
    def addresses(self) -> Sequence[str]:
        return self.address_list

    def feed(self, *messages: Message) -> None:
        for message in messages:
            self.queue.put_nowait(message)

    def end(self, reason: str = "") -> None:
        self.end_reason = reason
        self.queue.put_nowait(None)

    async def updates(self) -> AsyncIterator[Message]:
        while True:
            message = await self.queue.get()
            if message is None:
                return
            yield message


class FakeControls:
    """Records every request; ``refuse`` makes the next one raise ValueError."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, ...]] = []
        self.refuse: str | None = None
        self.called = asyncio.Event()

    def _record(self, *call: str) -> None:
        self.called.set()
        if self.refuse is not None:
            reason, self.refuse = self.refuse, None
            raise ValueError(reason)
        self.calls.append(call)

    async def add_bot(self, level: str) -> None:
        self._record("add_bot", level)

    async def remove_seat(self, seat: int) -> None:
        self._record("remove_seat", str(seat))

    async def set_preset(self, preset: str) -> None:
        self._record("set_preset", preset)

    async def set_option(self, key: str, value: str) -> None:
        self._record("set_option", key, value)

    async def start(self) -> None:
        self._record("start")

    async def shutdown(self) -> None:
        self._record("shutdown")


def welcome(seat: int = 2) -> Welcome:
    return Welcome(
        version=1,
        seat=seat,
        table="Kitchen",
        preset="official",
        options={"target": 500, "stacking": False},
    )


def lobby(ready: bool = True, can_start: bool = True) -> Lobby:
    seats = (
        LobbySeat(name="Lea", kind="human", kid=False, connected=True, ready=ready, check=314159),
        LobbySeat(name="Max", kind="human", kid=True, connected=True, ready=ready, check=271828),
        LobbySeat(name="Ana", kind="human", kid=False, connected=True, ready=ready, check=123456),
        LobbySeat(name="Bot Bob", kind="bot", kid=False, connected=True, ready=True, check=None),
    )
    return Lobby(
        seats=seats,
        preset="official",
        options={"target": 500, "stacking": False},
        can_start=can_start,
    )


def state(
    *,
    hand: tuple[str, ...] = ("B7", "R2", "W+4", "G+2", "R7", "YS", "W", "BR"),
    legal: tuple[str, ...] = ("play R2", "play R7", "play B7", "play W", "play W+4", "draw"),
    phase: str = "turn",
    turn: int = 2,
    actor: int | None = 2,
    top: str = "R9",
    color: str = "R",
    pending: int = 0,
    counts: tuple[int, ...] = (5, 1, 8, 3),
    uno: tuple[UnoFlags, ...] = (
        UnoFlags(False, False),
        UnoFlags(True, False),
        UnoFlags(False, False),
        UnoFlags(False, False),
    ),
    deadline_ms: int | None = 23_000,
    sid: int = 7,
    round_no: int = 1,
    scores: tuple[int, ...] | None = None,
) -> State:
    return State(
        sid=sid,
        round=round_no,
        hand=hand,
        counts=counts,
        top=top,
        color=color,
        direction=1,
        turn=turn,
        actor=actor,
        phase=phase,
        pending=pending,
        legal=legal,
        uno=uno,
        scores=scores
        if scores is not None
        else (120, 0, 40, 65)[: len(counts)] + (0,) * (len(counts) - 4),
        draw_pile=54,
        discard_count=9,
        deadline_ms=deadline_ms,
        dealer=1,
    )


def event(kind: str, **fields: object) -> Event:
    return Event(sid=7, type=kind, fields=fields)  # type: ignore[arg-type]


def opening_events() -> list[Event]:
    return [
        event("round_started", round_no=1, dealer=1, hand_size=7),
        event("card_turned", card="R9"),
        event("played", seat=0, card="W+4", jump_in=False),
        event("color_chosen", seat=0, color="B"),
        event("challenged", challenger=1, target=0, bluff=True),
        event("drew", seat=0, count=4, cause="challenge"),
        event("played", seat=1, card="B9", jump_in=False),
        event("uno_declared", seat=1),
        event("played", seat=1, card="R9", jump_in=False),
    ]
