"""Issue 10 item 1, end to end on loopback: ``lanuno join`` killed mid-game and started again
gets the same seat and hand back, without the room code."""

from __future__ import annotations

import collections
import os
import random
import signal
import stat
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from helpers import NeverHappened, free_port, stop, until

from lanuno.host.table import Table, TableConfig
from lanuno.net.seat_store import STATE_ENV
from lanuno.net.server import ServerLimits, TableControls, TableServer

pytestmark = [pytest.mark.system, pytest.mark.timeout(60)]
ROOT = Path(__file__).resolve().parents[2]


def start_join(port: int, state: Path, out: Path, *extra: str) -> subprocess.Popen[bytes]:
    env = dict(os.environ, **{STATE_ENV: str(state)}, PYTHONPATH=str(ROOT))
    command = [
        sys.executable, "-m", "lanuno", "join", f"127.0.0.1:{port}",
        "--plain", "--name", "Ann", *extra,
    ]  # fmt: skip
    with open(out, "ab") as log:
        return subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT, env=env
        )


async def act_on_turn(
    client: subprocess.Popen[bytes],
    table: Table,
    seat: int,
    out: Path,
    *,
    tries: int = 3,
    host_log: Sequence[str] = (),
) -> None:
    """On the seat's next turn, type an action its client sends; wait until it is applied.

    The host's turn can come before the client has read it (a loaded machine): the line
    then goes with the state before, and the host refuses it as stale ("! ..."). A refused
    action is not applied, so the test types it again on the state now shown."""
    applied = table.slots[seat].last_seq

    def my_turn() -> bool:
        return table.game is not None and table.game.round.actor == seat

    try:
        await until(my_turn, "the seat's turn", timeout=30)
    except NeverHappened as error:  # a rare CI failure: say what the table was doing
        raise AssertionError(
            f"{error}\n{describe(table, host_log)}\n{_said(out)[-1500:]}"
        ) from None
    assert table.game is not None
    # The seat's first legal move, as the player types it ("0 play R7": "play R7").
    moves = [str(a).split(" ", 1)[1] for a in table.game.seat_view(seat).legal]
    move = next(m for m in moves if m.split()[0] in ("play", "draw", "pass", "accept", "color"))
    assert client.stdin is not None
    for _ in range(tries):
        said = _said(out)
        client.stdin.write(f"{move}\n".encode())
        client.stdin.flush()
        await until(
            lambda: table.slots[seat].last_seq > applied or "\n! " in _said(out)[len(said) :],  # noqa: B023 - read at once, in this try
            "the action applied or refused",
        )
        if table.slots[seat].last_seq > applied:
            return
    raise AssertionError(f"{move!r} refused {tries} times: " + _said(out)[-1500:])


def describe(table: Table, host_log: Sequence[str]) -> str:
    """The host's side of a wait that never ended: phase, turn, bot plan, seats, log."""
    game = table.game
    turn = "no game"
    if game is not None:
        rnd = game.round
        turn = (
            f"{rnd.phase} actor {rnd.actor} winner {rnd.winner} hands {list(map(len, rnd.hands))}"
        )
    seats = [(s.name, s.kind, s.peer, s.dropped_at, s.taken_over) for s in table.slots]
    # last_now stops moving when the host's timer no longer ticks.
    clock = f"last_now {table.last_now:.2f} next deadline {table.next_deadline()}"
    log = "\n".join(host_log[-20:])
    return f"{table.phase} {turn} plan {table._bot_plan} {clock} seats {seats}\nhost log:\n{log}"


def _said(out: Path) -> str:
    return out.read_text(errors="replace")


async def test_a_killed_client_started_again_gets_its_seat_and_hand_back(tmp_path: Path) -> None:
    # A long grace: the bot must not take the seat over while the client is away.
    config = TableConfig(next_round_after=None, drop_grace=60.0)
    table = Table(config, os.urandom, rng=random.Random(5))
    lines: list[str] = []
    server = TableServer(table, host="127.0.0.1", port=0, limits=ServerLimits(), log=lines.append)
    await server.start()
    state, out = tmp_path / "state", tmp_path / "client.log"
    first = start_join(server.port, state, out, "--code", table.room_code)
    second: subprocess.Popen[bytes] | None = None
    try:
        await until(lambda: any(s.peer is not None for s in table.slots), "the first join")
        seat = next(i for i, s in enumerate(table.slots) if s.name == "Ann")
        controls = TableControls(server)
        await controls.add_bot("beginner")
        await controls.start()
        saved = state / "lanuno"
        await until(
            lambda: table.game is not None and list(saved.glob("seat-*.json")), "a saved seat"
        )
        [path] = saved.glob("seat-*.json")
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        game = table.game
        assert game is not None
        # Action 1, which the next client never knew.
        await act_on_turn(first, table, seat, out, host_log=lines)
        hand = collections.Counter(c.code for c in game.seat_view(seat).hand)

        first.send_signal(signal.SIGKILL)  # a closed terminal, a crashed laptop
        first.wait(5)
        await until(lambda: table.slots[seat].peer is None, "the host to see the drop")
        slots = [s.name for s in table.slots]

        second = start_join(server.port, state, out)  # no --code: nothing is asked
        await until(lambda: table.slots[seat].peer is not None, "the resume", timeout=20)
        assert [s.name for s in table.slots] == slots  # the same seat, nobody new
        assert not table.slots[seat].taken_over
        now = collections.Counter(c.code for c in game.seat_view(seat).hand)
        assert now & hand == hand  # the same hand (plus any card a bot made it draw)
        text = out.read_text()
        assert "room code" not in text.lower(), text[-2000:]
        assert f"resuming your seat {seat + 1}" in text, text[-2000:]
        # Typed at once (type-ahead), then applied: not taken for a resend of action 1.
        await act_on_turn(second, table, seat, out, host_log=lines)
    finally:
        for process in (first, second):
            if process is not None:
                stop(process)
        await server.close()


def start_host(port: int, journal: Path, out: Path, *where: str) -> subprocess.Popen[bytes]:
    command = [
        sys.executable, "-m", "lanuno", "host", "--headless", "--no-mdns",
        "--interface", "127.0.0.1", "--port", str(port), "--code", "135790",
        "--bots", "1", "--level", "beginner", "--bot-delay", "0.2", *where,
    ]  # fmt: skip
    with open(out, "ab") as log:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)


def last_hand(text: str) -> collections.Counter[str]:
    return collections.Counter(text.rsplit("Your hand: ", 1)[1].split("\n", 1)[0].split())


async def test_a_table_the_host_closed_and_resumed_gives_the_seat_back(tmp_path: Path) -> None:
    """The host quits in the middle of a game (Q, or SIGTERM): the game is saved, and its
    players stop waiting but keep their seats. ``lanuno host --resume`` carries it on, and
    ``lanuno join`` (no code) takes the same seat and hand back, not a new "Ann (2)"."""
    port, journal = free_port(), tmp_path / "t.journal"
    state, host_log, out = tmp_path / "state", tmp_path / "host.log", tmp_path / "client.log"
    host = start_host(port, journal, host_log, "--journal", str(journal))
    processes = [host]
    try:
        await until(lambda: "players join with" in host_log.read_text(), "the host")
        first = start_join(port, state, out, "--code", "135790")
        processes.append(first)
        assert first.stdin is not None
        await until(lambda: "Type 'ready'" in out.read_text(), "the lobby")
        first.stdin.write(b"ready\n")
        first.stdin.flush()
        await until(lambda: "Your hand:" in out.read_text(), "the first deal")

        host.send_signal(signal.SIGTERM)
        assert host.wait(10) == 0
        hand = last_hand(out.read_text())
        assert f"lanuno host --resume {journal}" in host_log.read_text().splitlines()[-1]
        assert first.wait(10) == 0, "the client stops waiting for a host that said goodbye"
        said = out.read_text()
        assert "The host saved the table and closed it." in said, said[-1000:]
        assert list((state / "lanuno").glob("seat-*.json")), "the seat was forgotten"

        host = start_host(port, journal, host_log, "--resume", str(journal))
        processes.append(host)
        await until(lambda: host_log.read_text().count("players join with") == 2, "the resume")
        start = len(out.read_text())
        second = start_join(port, state, out)  # no --code: nothing is asked
        processes.append(second)
        await until(lambda: "Your hand:" in out.read_text()[start:], "the seat back", timeout=20)
        again = out.read_text()[start:]
        assert "resuming your seat 2" in again, again
        back = collections.Counter(again.split("Your hand: ", 1)[1].split("\n", 1)[0].split())
        assert back & hand == hand  # the same hand (plus any penalty the bot gave meanwhile)
        assert "Ann (2)" not in host_log.read_text()
    finally:
        for process in processes:
            stop(process)
