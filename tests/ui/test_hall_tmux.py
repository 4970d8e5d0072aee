"""Issue 12 item 2 for real, in tmux at 80x24 on loopback: ``lanuno host --tables 3``
shows the hall (three tables with their room and screen codes); a player joins table 2
and the hall lists them; Enter shows table 2's full shared screen, Esc comes back; N opens
a fourth table from the form (a bad bot count refused first); Q then Y closes the hall
and the command exits 0. Bounded waits; a private tmux server, killed at the end."""

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
from test_e2e_tmux import Tmux

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.system,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    server = Tmux(f"lanuno-hall-{os.getpid()}")
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


def test_the_hall_at_80x24_shows_opens_and_closes_tables(tmux: Tmux, tmp_path: Path) -> None:
    tmux.run("new-session", "-d", "-s", "h", "-x", "80", "-y", "24", "-n", "host")
    tmux.run("new-window", "-t", "h:", "-n", "lea")
    prefix = (
        f"cd {ROOT} && PYTHONPATH={ROOT} LANG=C.UTF-8 XDG_STATE_HOME={tmp_path / 'state'} "
        f"{sys.executable} -m lanuno"
    )
    host = (
        f"{prefix} host --tables 3 --bots 1 --no-mdns --interface 127.0.0.1 --port 0 "
        f"--journal {tmp_path / 'party'}; echo host-exit=$?"
    )
    tmux.keys("h:host", host, "Enter")
    screen = _wait(tmux, "h:host", r"3  Table 3")
    assert "the hall" in screen.splitlines()[0]
    port = re.search(r"lanuno join\|screen 127\.0\.0\.1:(\d+) --table N", screen)
    assert port is not None, screen
    code = re.search(r"2  Table 2 +room (\d{3}) (\d{3})  screen \d{3} \d{3}", screen)
    assert code is not None, screen
    assert all(len(line) <= 80 for line in screen.splitlines())

    join = (
        f"{prefix} join 127.0.0.1:{port.group(1)} --table 2 --code {''.join(code.groups())} "
        "--name Lea"
    )
    tmux.keys("h:lea", join, "Enter")
    _wait(tmux, "h:lea", "Lobby: Table 2")
    _wait(tmux, "h:host", r"Bot 1 \(intermediate\) · Lea")

    tmux.keys("h:host", "2", "Enter")
    screen = _wait(tmux, "h:host", r"lanuno · Table 2 · Preset")
    assert "Esc hall" in screen
    assert re.search(r"\d{3} \d{3}", screen)  # Lea's check number, as on a table's screen
    tmux.keys("h:host", "Escape")
    _wait(tmux, "h:host", "Enter show")

    tmux.keys("h:host", "n")
    _wait(tmux, "h:host", "New table")
    tmux.keys("h:host", "C-u", "Attic", "Down", "Down", "Down", "C-u", "11", "Enter")
    _wait(tmux, "h:host", "Bots: a number from 0 to 10")
    tmux.keys("h:host", "C-u", "3", "Enter")
    _wait(tmux, "h:host", "Table 4 is open.")
    screen = _wait(tmux, "h:host", "4  Attic")
    assert "1  Table 1" in screen  # four tables fit 80x24

    tmux.keys("h:host", "q")
    _wait(tmux, "h:host", "Close every table and quit?")
    tmux.keys("h:host", "y")
    _wait(tmux, "h:host", "host-exit=0")
    _wait(tmux, "h:lea", "disconnected|closed|host")
