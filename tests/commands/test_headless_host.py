"""``lanuno host --headless`` run in this process on loopback, its printed lines captured:
wrong room codes rotate the code, and the log says the new one once (the host's own
warning), not twice (once more from the shared screen's log)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from helpers import wrong_code_join

from lanuno.cli import build_parser
from lanuno.commands import host as host_command
from lanuno.commands.common import rules_from_args
from lanuno.host.table import TableConfig
from lanuno.net.hall import Hall
from lanuno.net.server import ServerLimits

pytestmark = pytest.mark.timeout(60)

CODE = "482913"
LIMITS = ServerLimits(
    rate=5000, burst=5000, rotate_after=3, max_failures_per_ip=1000, pace_free_failures=1000
)


@pytest.mark.parametrize("hall_flags", [[], ["--tables", "2"]], ids=["one table", "a hall"])
async def test_a_rotated_room_code_is_printed_once(
    hall_flags: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    halls: list[Hall] = []

    class RecordedHall(Hall):
        def __init__(self, **kwargs: object) -> None:
            super().__init__(**{**kwargs, "limits": LIMITS})  # type: ignore[arg-type]
            halls.append(self)

    monkeypatch.setattr(host_command, "Hall", RecordedHall)
    argv = ["host", "--headless", "--no-mdns", "--interface", "127.0.0.1", "--port", "0"]
    argv += ["--code", CODE, "--journal", str(tmp_path / "j"), "--lang", "fr", *hall_flags]
    args = build_parser().parse_args(argv)
    config = TableConfig(name="t", rules=rules_from_args(args), auto_start=True)
    hosting = asyncio.create_task(host_command._host(args, config))
    printed: list[str] = []
    try:
        for _ in range(500):
            if halls and halls[0].tables and halls[0].port:
                break
            await asyncio.sleep(0.01)
        hall = halls[0]
        await asyncio.sleep(0.2)  # the log tasks start
        for _ in range(3):
            await wrong_code_join(hall.port, CODE, 1)
        new = hall.tables[0].server.table.room_code
        assert new != CODE
        spaced = f"{new[:3]} {new[3:]}"
        for _ in range(100):  # the screen's log looks at the code every half second
            printed += capsys.readouterr().out.splitlines()
            await asyncio.sleep(0.02)
        said = [line for line in printed if spaced in line]
        assert len(said) == 1, printed
        assert "room code is now" in said[0]
    finally:
        if halls:
            await halls[0].close()
        await asyncio.wait_for(hosting, 10)
