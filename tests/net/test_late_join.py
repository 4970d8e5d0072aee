"""Late joiners, duplicate names and the auto-start wait, over loopback sockets (issue 10
item 3, issue 11 item 12)."""

from __future__ import annotations

import asyncio
import os
import random

import pytest
from net_helpers import join

from lanuno.engine.rules import preset
from lanuno.host.table import Table, TableConfig, TablePhase
from lanuno.net.client import NetClientSession
from lanuno.net.server import ServerLimits, TableControls, TableServer

pytestmark = pytest.mark.timeout(60)


async def serve(**config: object) -> tuple[Table, TableServer]:
    cfg = TableConfig(rules=preset("official"), **config)  # type: ignore[arg-type]
    table = Table(cfg, os.urandom, rng=random.Random(1))
    server = TableServer(table, limits=ServerLimits(rate=5000, burst=5000))
    await server.start()
    return table, server


async def until(condition: object, seconds: float = 5.0) -> bool:
    for _ in range(int(seconds / 0.02)):
        if condition():  # type: ignore[operator]
            return True
        await asyncio.sleep(0.02)
    return False


async def test_a_player_joining_during_a_round_is_welcomed_at_once_as_a_spectator() -> None:
    table, server = await serve()
    sessions: list[NetClientSession] = []
    try:
        sessions += [await join(server.port, table.room_code, n) for n in ("Ann", "Bob")]
        await TableControls(server).start()
        assert await until(lambda: sessions[0].last_state is not None)
        cat = await join(server.port, table.room_code, "Cat")
        sessions.append(cat)
        assert await until(lambda: cat.welcome is not None), "no welcome for a late joiner"
        assert cat.welcome is not None
        assert cat.welcome.seat is None
        assert cat.seat is None
        assert cat.ticket is None  # nothing to resume while watching
        assert cat.last_state is not None
        assert cat.last_state.hand == ()
    finally:
        for session in sessions:
            await session.close()
        await server.close()


async def test_a_name_already_at_the_table_gets_a_number() -> None:
    table, server = await serve()
    sessions: list[NetClientSession] = []
    try:
        for _ in range(3):
            sessions.append(await join(server.port, table.room_code, "Lea"))
        assert [s.name for s in table.slots] == ["Lea", "Lea (2)", "Lea (3)"]
        long = "L" * 32
        sessions += [await join(server.port, table.room_code, long) for _ in range(2)]
        assert [s.name for s in table.slots][3:] == [long, "L" * 28 + " (2)"]
    finally:
        for session in sessions:
            await session.close()
        await server.close()


async def test_an_idle_seat_does_not_hold_auto_start_forever() -> None:
    table, server = await serve(auto_start=True, ready_wait=0.3)
    sessions: list[NetClientSession] = []
    try:
        await TableControls(server).add_bot("beginner")
        ann = await join(server.port, table.room_code, "Ann")
        idle = await join(server.port, table.room_code, "Idle")  # pings, never readies
        sessions += [ann, idle]
        await ann.set_ready(True)
        assert await until(lambda: table.phase is not TablePhase.LOBBY), "auto-start waits"
        assert [s.name for s in table.slots] == ["Bot 1 (beginner)", "Ann"]
        assert await until(lambda: idle.seat is None and idle.last_state is not None)
    finally:
        for session in sessions:
            await session.close()
        await server.close()


async def test_auto_start_goes_ahead_when_the_one_not_ready_leaves() -> None:
    table, server = await serve(auto_start=True)
    sessions: list[NetClientSession] = []
    try:
        await TableControls(server).add_bot("beginner")
        ann = await join(server.port, table.room_code, "Ann")
        gone = await join(server.port, table.room_code, "Gone")
        sessions.append(ann)
        await ann.set_ready(True)
        await asyncio.sleep(0.1)
        assert table.phase is TablePhase.LOBBY
        await gone.close()
        assert await until(lambda: table.phase is not TablePhase.LOBBY), "auto-start waits"
    finally:
        for session in sessions:
            await session.close()
        await server.close()
