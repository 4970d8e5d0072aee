"""The host's worker pool (``net/workers.py``): SPAKE2 steps and expert searches off the
event loop; the pool's processes never outlive the host (SIGTERM, Ctrl-C, a closed
terminal, SIGKILL)."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import free_port, until
from net_helpers import join

from lanuno.bots.base import BotThinking
from lanuno.engine.game import Game
from lanuno.engine.observation import observe
from lanuno.engine.rules import preset
from lanuno.host.pace import FixedPace
from lanuno.host.table import Table, TableConfig, TablePhase
from lanuno.net.server import TableControls, TableServer
from lanuno.net.workers import PooledBot, Workers

CODE = "246810"


def test_an_expert_thinks_in_the_pool_and_answers_when_asked_again() -> None:
    workers = Workers(1)
    try:
        game = Game(preset("official"), 3, 7)
        observation = observe(game.seat_view(game.round.actor))
        bot = workers.bot_factory()("expert")
        assert isinstance(bot, PooledBot)
        assert not isinstance(workers.bot_factory()("beginner"), PooledBot)
        rng = random.Random(1)
        with pytest.raises(BotThinking):
            bot.choose(observation, rng)
        for _ in range(600):
            try:
                action = bot.choose(observation, rng)
                break
            except BotThinking:
                time.sleep(0.01)
        else:
            raise AssertionError("no answer from the pool")
        assert action in observation.legal
        assert workers.pids()
    finally:
        workers.close()
    assert not workers.started


async def test_a_table_of_experts_plays_with_their_searches_in_the_pool() -> None:
    workers = Workers(2)
    config = TableConfig(pace=FixedPace(0.0), auto_start=True)
    table = Table(config, os.urandom)
    server = TableServer(table, workers=workers)
    await server.start()
    try:
        controls = TableControls(server)
        await controls.add_bot("expert")
        await controls.add_bot("expert")
        await controls.start()
        # A dozen states, or the round won first (rare: a short round): the experts played.
        # The bound is generous: spawning the pool's workers is slow on a loaded machine.
        game = await until(lambda: table.game, "the game", timeout=60)
        await until(
            lambda: table.sid > 12 or game.round.winner is not None,
            "the experts' moves",
            timeout=60,
        )
        assert table.phase is not TablePhase.LOBBY
        assert workers.pids(), "the experts did not think in the pool"
    finally:
        await server.close()
        workers.close()


# ---------------------------------------------------------------------- no orphans


def children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text()
        found |= {int(p) for p in text.split()}
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


REPO = Path(__file__).resolve().parents[2]


def start(command: list[str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        start_new_session=True,  # Ctrl-C reaches the whole group: so does our SIGINT
    )


@pytest.mark.system
@pytest.mark.timeout(120)
@pytest.mark.parametrize("how", ["SIGTERM", "SIGINT", "SIGHUP", "SIGKILL", "kill -9 PID"])
async def test_the_pool_does_not_outlive_the_host(tmp_path: Path, how: str) -> None:
    """``kill -9 PID`` kills the host alone: multiprocessing's resource tracker outlives it,
    cleans up the pool's semaphores and must not say "leaked" on the host's terminal."""
    port = free_port()
    command = [
        sys.executable, "-m", "lanuno", "host", "--headless", "--no-mdns",
        "--interface", "127.0.0.1", "--port", str(port), "--code", CODE,
        "--journal", str(tmp_path / "t.journal"), "--bots", "1", "--level", "expert",
    ]  # fmt: skip
    host = start(command)
    try:
        for _ in range(200):
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            await asyncio.sleep(0.05)
        session = await join(port, CODE, "Ann")  # its handshake starts the pool
        assert session.seat is not None
        workers: set[int] = set()
        for _ in range(200):
            workers = children(host.pid)
            if workers:
                break
            await asyncio.sleep(0.05)
        assert workers, "the host started no worker"
        await session.close()
        if how == "kill -9 PID":
            os.kill(host.pid, signal.SIGKILL)
        else:  # as a terminal's Ctrl-C does (SIGHUP: the terminal closed), to the group
            os.killpg(host.pid, getattr(signal, how))
        code = host.wait(30)
        if not how.startswith(("SIGKILL", "kill")):
            assert code == 0, f"the host did not close its table cleanly on {how}"
        for _ in range(200):
            if not any(alive(pid) for pid in workers):
                break
            await asyncio.sleep(0.05)
        assert not any(alive(pid) for pid in workers), f"orphans after {how}"
        assert host.stderr is not None
        errors = host.stderr.read().decode()
        assert "Traceback" not in errors, errors
        assert "leaked" not in errors, errors  # the pool was shut down, not torn down
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
