"""Fixtures of the tests that run ``lanuno join`` (and ``screen``) in this process."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from lanuno.host.table import Table, TableConfig
from lanuno.net.seat_store import STATE_ENV
from lanuno.net.server import TableServer


@pytest.fixture
def own_seat_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No saved seat of this machine's user: the command's seats live in ``tmp_path``."""
    monkeypatch.setenv(STATE_ENV, str(tmp_path))


@pytest.fixture
async def server(request: pytest.FixtureRequest) -> AsyncIterator[TableServer]:
    """A table served on loopback, its room code the test module's ``CODE``."""
    code = request.module.CODE
    served = TableServer(Table(TableConfig(), os.urandom, room_code=code), host="127.0.0.1")
    await served.start()
    yield served
    await served.close()
