"""A hall in its own process: ``lanuno host --tables 2`` killed with SIGKILL and restarted
with ``--resume DIR``; the players of both tables come back by themselves to their own
table, a remote screen of table 2 pairs again by itself (the hall keeps its screen codes),
and both games end."""

from __future__ import annotations

import asyncio
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import free_port, stop
from net_helpers import ScriptedPlayer, join
from test_crash import wait_listening

from lanuno.net.hall import load_hall
from lanuno.net.screen_client import RemoteScreen
from lanuno.wire.messages import GameEnd

pytestmark = [pytest.mark.system, pytest.mark.timeout(120)]


def start_hall(port: int, journal: Path, log: Path, resume: bool) -> subprocess.Popen[bytes]:
    where = ["--resume", str(journal)] if resume else ["--tables", "2", "--journal", str(journal)]
    command = [
        sys.executable, "-m", "lanuno", "host", "--headless", "--no-mdns",
        "--interface", "127.0.0.1", "--port", str(port), "--bots", "1", "--level", "beginner",
        "--bot-delay", "0.03", "--round-pause", "0.1", "--option", "target=200", *where,
    ]  # fmt: skip
    with open(log, "ab") as out:
        return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)


def read_log(log: Path) -> str:
    return log.read_text()


async def room_codes(log: Path, tables: int) -> dict[int, str]:
    """The codes the headless hall prints, table by table."""
    pattern = re.compile(r"lanuno join \S+ --table (\d+) --code (\d{6})")
    for _ in range(200):
        found = pattern.findall(read_log(log))
        if len(found) >= tables:
            return {int(n): code for n, code in found[:tables]}
        await asyncio.sleep(0.05)
    raise AssertionError(f"no room codes in the log:\n{read_log(log)}")


async def test_a_hall_killed_and_resumed_keeps_every_table(tmp_path: Path) -> None:
    port, journal, log = free_port(), tmp_path / "hall", tmp_path / "host.log"
    host = start_hall(port, journal, log, resume=False)
    try:
        await wait_listening(port)
        codes = await room_codes(log, 2)
        screen_code = re.search(r"lanuno screen \S+ --table 2 --code (\d{6})", read_log(log))
        assert screen_code is not None
        screen = RemoteScreen("127.0.0.1", port, screen_code.group(1), table=2, retry_every=0.2)
        await screen.connect()
        ann = await join(port, codes[2], "Ann", table=2)
        bob = await join(port, codes[1], "Bob", table=1)
        assert ann.welcome is not None
        assert ann.welcome.table == "Table 2"
        assert bob.welcome is not None
        assert bob.welcome.table == "Table 1"
        players = [ScriptedPlayer(ann, 1), ScriptedPlayer(bob, 2)]
        tasks = [asyncio.create_task(p.play()) for p in players]
        for session in (ann, bob):
            await session.set_ready(True)
        for _ in range(2):
            await asyncio.sleep(0.5)
            host.send_signal(signal.SIGKILL)
            host.wait()
            assert [(e.number, e.name) for e in load_hall(journal)] == [
                (1, "Table 1"),
                (2, "Table 2"),
            ]
            host = start_hall(port, journal, log, resume=True)
            await wait_listening(port)
        ends = await asyncio.wait_for(asyncio.gather(*tasks), 90)
        assert all(isinstance(end, GameEnd) for end in ends)
        assert ann.reconnects >= 1
        assert bob.reconnects >= 1
        assert screen.reconnects >= 1  # the same screen code after each restart
        assert screen.end_reason == ""
        await screen.close()
        # Each came back to its own table: the names at the game's end are that table's.
        assert ann.welcome is not None
        assert ann.welcome.table == "Table 2"
        assert bob.welcome is not None
        assert bob.welcome.table == "Table 1"
        for session in (ann, bob):
            await session.close()
    finally:
        stop(host, 10)
