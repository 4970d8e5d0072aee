"""One address that keeps failing the room code is refused for a while (S2, robustness).

Each wrong code is a clear error to the one who typed it; past the limit the host stops
answering that address, so a single laptop cannot keep forcing the room code to rotate."""

from __future__ import annotations

import asyncio
import os
import random

import pytest
from net_helpers import join

from lanuno.engine.rules import preset
from lanuno.host.table import Table, TableConfig
from lanuno.net.client import JoinError
from lanuno.net.server import ServerLimits, TableServer

pytestmark = pytest.mark.timeout(60)


async def test_S2_an_address_that_keeps_guessing_is_refused_then_let_back() -> None:
    table = Table(TableConfig(rules=preset("official")), os.urandom, rng=random.Random(2))
    limits = ServerLimits(max_failures_per_ip=3, failure_window=30.0, failure_cooldown=1.0)
    server = TableServer(table, limits=limits)
    await server.start()
    try:
        wrong = "000000" if table.room_code != "000000" else "111111"
        for _ in range(3):
            with pytest.raises(JoinError, match="room code is wrong"):
                await join(server.port, wrong, "Eve")
        code_before = table.room_code
        with pytest.raises(JoinError):  # even the right code: this address cools down
            await join(server.port, table.room_code, "Eve")
        assert table.room_code == code_before  # no rotation was forced
        await asyncio.sleep(1.1)
        session = await join(server.port, table.room_code, "Ann")
        assert session.seat is not None
        await session.close()
    finally:
        await server.close()
