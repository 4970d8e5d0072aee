"""Issue 10 items 5 and 6 for real, in tmux at 80x24 on loopback: the shared screen
(``lanuno host`` full screen) and three ``lanuno join`` clients. A player's laptop dies
(SIGKILL): the shared screen and the other clients show them ``away`` while the room code
stays in the shared screen's top line; a French client reads its turn in French; Q on a
client asks before leaving. Bounded waits; a private tmux server, killed at the end."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_e2e_tmux import Tmux, _decide

ROOT = Path(__file__).resolve().parents[2]
CODE = "246810"

pytestmark = [
    pytest.mark.system,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    server = Tmux(f"lanuno-party-{os.getpid()}")
    try:
        yield server
    finally:
        subprocess.run(
            ["tmux", "-L", server.socket, "kill-server"], capture_output=True, timeout=10
        )


def _wait(tmux: Tmux, target: str, pattern: str, seconds: float = 30.0) -> str:
    end = time.monotonic() + seconds
    screen = ""
    while time.monotonic() < end:
        screen = tmux.screen(target)
        if re.search(pattern, screen):
            return screen
        time.sleep(0.1)
    raise AssertionError(f"{pattern!r} not on {target} within {seconds} s:\n{screen}")


def test_away_player_room_code_french_turn_and_quit_question_at_80x24(
    tmux: Tmux, tmp_path: Path
) -> None:
    port = _free_port()
    tmux.run("new-session", "-d", "-s", "p", "-x", "80", "-y", "24", "-n", "host")
    for name in ("lea", "max", "zoe"):
        tmux.run("new-window", "-t", "p", "-n", name)
    prefix = f"cd {ROOT} && PYTHONPATH={ROOT} LANG=C.UTF-8 {sys.executable} -m lanuno"
    host = (
        f"{prefix} host --no-mdns --interface 127.0.0.1 --port {port} --code {CODE} "
        f"--name Salon --journal {tmp_path / 't.journal'} --option hand_size=3 --bot-delay 0.3"
    )
    tmux.keys("p:host", host, "Enter")
    _wait(tmux, "p:host", "Room code")
    for name, lang in (("Lea", "en"), ("Max", "fr"), ("Zoe", "en")):
        join = f"{prefix} join 127.0.0.1:{port} --code {CODE} --name {name} --lang {lang}"
        tmux.keys(f"p:{name.lower()}", join, "Enter")
        _wait(tmux, f"p:{name.lower()}", "I'm ready|prêt")
        tmux.keys(f"p:{name.lower()}", "r")
    _wait(tmux, "p:host", "press S to start")
    tmux.keys("p:host", "s")

    # Max reads his turn in French, card codes without W.
    end = time.monotonic() + 60
    french = ""
    while time.monotonic() < end and not french:
        if "S next round" in tmux.screen("p:host"):
            # With 3 cards a hand, Lea or Zoe can go out before Max's first turn.
            tmux.keys("p:host", "s")
        for target in ("p:lea", "p:zoe"):
            keys = _decide(tmux.screen(target))
            if keys:
                tmux.keys(target, *keys)
                time.sleep(0.3)
        screen = tmux.screen("p:max")
        if "À vous" in screen or "pour vous" in screen:
            french = screen
        time.sleep(0.2)
    assert french, tmux.screen("p:max")
    # A capture can catch a frame half drawn: read the screen again once it has settled.
    french = _wait(tmux, "p:max", r"Votre main \(\d+\)[\s\S]*\n D piocher")
    lines = french.splitlines()
    title = next(i for i, line in enumerate(lines) if "Votre main" in line)
    hand_row = lines[title + 2]
    assert hand_row.strip(), french
    assert "W" not in hand_row, french

    # Zoe's laptop dies: everyone sees her away; the room code stays on the shared screen.
    pane = tmux.run("display-message", "-p", "-t", "p:zoe", "#{pane_pid}").strip()
    children = subprocess.run(["pgrep", "-P", pane], capture_output=True, text=True).stdout
    for pid in children.split():
        os.kill(int(pid), signal.SIGKILL)
    shared = _wait(tmux, "p:host", r"Zoe[^\n]*\n[^\n]*│\s+away")
    assert "code 246 810" in shared.splitlines()[0]
    assert re.search(r"check \d{3} \d{3}", shared)
    _wait(tmux, "p:lea", r"Zoe[^\n]*\n\s+away")

    # Q during the game asks first; another key keeps the player at the table.
    tmux.keys("p:lea", "q")
    _wait(tmux, "p:lea", "Leave the game\\? Press Y to leave")
    tmux.keys("p:lea", "n")
    _wait(tmux, "p:lea", r"Q quit")
    tmux.keys("p:lea", "?")
    _wait(tmux, "p:lea", "Counter-UNO: catch a player")
