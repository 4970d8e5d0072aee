"""R7: the host killed with SIGKILL at random points and restarted with --resume; every
client comes back by itself, and no acknowledged action is lost or applied twice."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import note_seed
from net_helpers import ScriptedPlayer, join

from lanuno.host.table import Table, TableConfig
from lanuno.net.journal_files import read_journal
from lanuno.wire.messages import GameEnd

pytestmark = [pytest.mark.system, pytest.mark.timeout(120)]
CODE = "246810"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def start_host(port: int, journal: Path, log: Path, resume: bool) -> subprocess.Popen[bytes]:
    where = ["--resume", str(journal)] if resume else ["--journal", str(journal)]
    command = [
        sys.executable, "-m", "lanuno", "host", "--headless", "--no-mdns",
        "--interface", "127.0.0.1", "--port", str(port), "--code", CODE,
        "--bots", "1", "--level", "beginner",
        "--bot-delay", "0.03", "--round-pause", "0.1", "--option", "target=250", *where,
    ]  # fmt: skip
    with open(log, "ab") as out:
        return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)


async def wait_listening(port: int) -> None:
    for _ in range(200):
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.05)
            continue
        writer.close()
        return
    raise AssertionError("the host did not start")


async def test_kill_minus_nine_and_resume(tmp_path: Path) -> None:
    port, journal, log = free_port(), tmp_path / "table.journal", tmp_path / "host.log"
    seed = int.from_bytes(os.urandom(4), "big")  # a fresh crash schedule each run
    note_seed(seed)
    rng = random.Random(seed)
    host = start_host(port, journal, log, resume=False)
    try:
        await wait_listening(port)
        sessions = [await join(port, CODE, name) for name in ("Ann", "Bob")]
        players = [ScriptedPlayer(s, i, out_of_turn=0.1) for i, s in enumerate(sessions)]
        tasks = [asyncio.create_task(p.play()) for p in players]
        for session in sessions:
            await session.set_ready(True)
        kills = 0
        while kills < 4 and not any(t.done() for t in tasks):
            await asyncio.sleep(rng.uniform(0.2, 0.7))
            host.send_signal(signal.SIGKILL)
            host.wait()
            kills += 1
            await asyncio.sleep(rng.uniform(0.0, 0.3))
            host = start_host(port, journal, log, resume=True)
        ends = await asyncio.wait_for(asyncio.gather(*tasks), 90)
        seats = [s.seat for s in sessions]  # before leaving: the lobby renumbers seats
        assert all(isinstance(e, GameEnd) for e in ends), (
            [p.messages[-5:] for p in players],
            [s.connection for s in sessions],
            log.read_text()[-1500:],
        )
        assert ends[0] == ends[1]
        assert all(s.reconnects >= 1 for s in sessions), log.read_text()[-2000:]
        for session in sessions:
            await session.close()
    finally:
        host.send_signal(signal.SIGTERM)
        try:
            host.wait(5)
        except subprocess.TimeoutExpired:
            host.kill()
    recovery = read_journal(journal)
    acts = [r for r in recovery.records if r["k"] == "act"]
    for seat, player in zip(seats, players, strict=True):
        seqs = [r["seq"] for r in acts if r["seq"] and r["a"].split()[0] == str(seat)]
        assert len(seqs) == len(set(seqs)), "an action was applied twice"
        assert player.acked <= set(seqs), "an acknowledged action was lost"
    replayed = Table.restore(recovery.records, TableConfig(), os.urandom, now=0.0)
    assert replayed.game is not None and replayed.game.over
    assert tuple(replayed.game.scores) == ends[0].scores
