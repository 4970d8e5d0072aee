"""End to end: ``lanuno host --headless`` and two ``lanuno join`` hand apps in tmux play a
whole game of one short round, driven only by keys read off the screens.

127.0.0.1 only (``--no-mdns`` binds the host to loopback; the clients join by address).
Bounded: every wait has a deadline and the test stops its own processes and its private
tmux server. Skips with the reason when tmux is missing.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import stop

ROOT = Path(__file__).resolve().parents[2]
CODE = "246810"
GAME_DEADLINE_S = 60.0


pytestmark = [
    pytest.mark.system,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


class Tmux:
    """A private tmux server (its own socket), killed at the end."""

    def __init__(self, socket: str) -> None:
        self.socket = socket

    def run(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, "-f", "/dev/null", *args],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
        return done.stdout

    def screen(self, target: str) -> str:
        return self.run("capture-pane", "-p", "-t", target)

    def keys(self, target: str, *keys: str) -> None:
        self.run("send-keys", "-t", target, *keys)


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    server = Tmux(f"lanuno-e2e-{os.getpid()}")
    try:
        yield server
    finally:
        subprocess.run(
            ["tmux", "-L", server.socket, "kill-server"], capture_output=True, timeout=10
        )


@pytest.fixture
def host(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    log = tmp_path / "host.log"
    command = [
        sys.executable, "-m", "lanuno", "host", "--headless", "--no-mdns",
        "--interface", "127.0.0.1", "--port", "0",
        "--code", CODE, "--name", "e2e", "--journal", str(tmp_path / "table.journal"),
        "--preset", "kids1", "--option", "hand_size=3",
    ]  # fmt: skip
    with log.open("w") as out:
        process = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 15
        port = None
        while port is None and time.monotonic() < deadline and process.poll() is None:
            found = re.search(r"lanuno join 127\.0\.0\.1:(\d+)", log.read_text())
            port = int(found.group(1)) if found else None
            time.sleep(0.05)
        if port is None:
            pytest.fail(f"the host did not start:\n{log.read_text()}")
        yield port, log
    finally:
        stop(process, 10)


def _decide(screen: str) -> list[str]:
    """The keys a simple player presses for what this screen shows ([] = nothing to do)."""
    if "Game over" in screen or "Round 1 is over" in screen:
        return []
    if "Press R when you are ready" in screen and re.search(r"^ R I'm ready ", screen, re.M):
        return ["r"]  # the keys bar offers "R I'm ready" until then
    if "Choose a color" in screen or "Color for" in screen:
        return ["r"]
    mine = (
        "Your turn" in screen
        or "You drew a card" in screen
        or "Too many cards" in screen
        or "coming your way" in screen
    )
    if not mine:
        return []
    if "coming your way" in screen:
        return ["a"]
    playable = _first_playable(screen)
    if playable is not None:
        return [*_select(playable), "Enter"]
    return ["p"] if "or pass" in screen else ["d"]


def _first_playable(screen: str) -> int | None:
    lines = screen.splitlines()
    for row, line in enumerate(lines):
        if not re.fullmatch(r"\s*(\d\s+)*\d\s*", line) or row + 1 >= len(lines):
            continue
        first_index = int(line.split()[0]) - 1
        chip = re.search(r"\[[^\]]{3}\]", lines[row + 1])
        if chip is not None:
            return first_index + (chip.start() - 1) // 6
    return None


def _select(index: int) -> list[str]:
    if index < 9:
        return [str(index + 1)]
    return ["1", *["Right"] * index]


def test_two_players_finish_a_game_in_tmux(tmux: Tmux, host: tuple[int, Path]) -> None:
    port, log = host
    tmux.run("new-session", "-d", "-s", "e2e", "-x", "100", "-y", "30", "-n", "lea")
    tmux.run("new-window", "-t", "e2e", "-n", "max")
    players = {"e2e:lea": "Lea", "e2e:max": "Max"}
    for target, name in players.items():
        join = (
            f"cd {ROOT} && LANG=C.UTF-8 {sys.executable} -m lanuno join 127.0.0.1:{port} "
            f"--code {CODE} --name {name} --lang en"
        )
        tmux.keys(target, join, "Enter")

    deadline = time.monotonic() + GAME_DEADLINE_S
    screens: dict[str, str] = {}
    finished: set[str] = set()
    moves = 0
    while finished != set(players):
        assert time.monotonic() < deadline, (
            f"no game end within {GAME_DEADLINE_S} s after {moves} moves; screens:\n"
            + "\n".join(screens.values())
            + "\nhost log:\n"
            + log.read_text()[-3000:]
        )
        for target in players:
            screen = tmux.screen(target)
            screens[target] = screen
            if "Game over" in screen:
                finished.add(target)
                continue
            keys = _decide(screen)
            if keys:
                tmux.keys(target, *keys)
                moves += 1
                _wait_for_change(tmux, target, screen)
        time.sleep(0.05)

    host_log = log.read_text()
    for target, name in players.items():
        screen = screens[target]
        # The check number on the player's screen is the one the host shows for that name.
        check = re.search(r"check (\d{3} \d{3})", screen)
        assert check is not None, screen
        assert re.search(rf"{name} \[[^\]]*check {check.group(1)}\]", host_log), host_log
        # The winner reads it in the second person, the other player by name.
        assert "wins the game!" in screen or "You win the game!" in screen
        assert f"{name} wins" not in screen
        assert "Player" in screen
        assert "Score" in screen
        # The end screen, not the table: the player's own row, marked, with its score.
        assert re.search(rf"^ [★ ] {name} \(you\) +\d+ +│", screen, re.M), screen
        tmux.keys(target, "q")
    assert sum("You win the game!" in screen for screen in screens.values()) == 1
    assert "Game over" in host_log


def _wait_for_change(tmux: Tmux, target: str, before: str) -> None:
    until = time.monotonic() + 2.0
    while time.monotonic() < until:
        if tmux.screen(target) != before:
            return
        time.sleep(0.03)
