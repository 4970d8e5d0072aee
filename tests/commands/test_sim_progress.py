"""Issue 10 item 9: ``lanuno sim`` shows a progress bar with an estimate, and Ctrl-C prints
the results so far without a traceback."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lanuno.bots import make_bot
from lanuno.cli import main
from lanuno.commands.sim import ProgressBar, draws_the_bar, simulate
from lanuno.engine.rules import preset

ROOT = Path(__file__).resolve().parents[2]


def test_the_progress_bar_shows_games_done_and_an_estimate() -> None:
    out = io.StringIO()
    bar = ProgressBar(10, out, every=0.0)
    bots = [make_bot("beginner"), make_bot("beginner")]
    stats = simulate(preset("kids1"), bots, 10, 0, progress=bar)
    bar.close()
    text = out.getvalue()
    assert stats.games == 10
    assert not stats.interrupted
    assert "[############............]  5/10 games" in text
    assert "left" in text
    assert re.search(r"10/10 games  \d+ s, done$", text.rstrip())


def test_a_redirected_standard_error_gets_no_bar(capsys: pytest.CaptureFixture[str]) -> None:
    # ``lanuno sim ... 2> log`` filled the log with a redraw every 0.2 s.
    assert main(["sim", "--games", "3", "--players", "2", "--preset", "kids1"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert "games: 3" in captured.out


def test_progress_always_draws_the_bar_into_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["sim", "--games", "3", "--players", "2", "--preset", "kids1", "--progress", "always"]
    assert main(argv) == 0
    assert re.search(r"3/3 games  \d+ s, done\n$", capsys.readouterr().err)


class _Stream(io.StringIO):
    def __init__(self, terminal: bool) -> None:
        super().__init__()
        self.terminal = terminal

    def isatty(self) -> bool:
        return self.terminal


def test_the_bar_is_drawn_on_a_terminal_unless_asked_otherwise() -> None:
    assert draws_the_bar("auto", _Stream(terminal=True))
    assert not draws_the_bar("auto", _Stream(terminal=False))
    assert draws_the_bar("always", _Stream(terminal=False))
    assert not draws_the_bar("never", _Stream(terminal=True))


def test_ctrl_c_inside_the_loop_keeps_the_games_played() -> None:
    def stop_after_three(done: int, _seconds: float) -> None:
        if done == 3:
            raise KeyboardInterrupt

    bots = [make_bot("beginner"), make_bot("beginner")]
    stats = simulate(preset("kids1"), bots, 50, 0, progress=stop_after_three)
    assert stats.interrupted
    assert stats.games == 3
    assert "games: 3" in stats.report()
    assert "seat 1: wins" in stats.report()


@pytest.mark.system
def test_sim_interrupted_by_ctrl_c_prints_results_without_a_traceback() -> None:
    # A pipe is no terminal: --progress always draws the bar there, to read it.
    command = [
        sys.executable,
        "-m",
        "lanuno",
        "sim",
        "--games",
        "100000",
        "--players",
        "2",
        "--progress",
        "always",
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # As from a terminal: a suite started in the background (``cmd &`` without job
        # control) ignores SIGINT, and an ignored signal stays ignored in the child.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert process.stderr is not None
        seen = ""
        deadline = time.monotonic() + 30
        while "games" not in seen and time.monotonic() < deadline:
            seen += os.read(process.stderr.fileno(), 4096).decode()
        assert "/100000 games" in seen, seen
        assert "left" in seen, seen
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert "Traceback" not in stderr + stdout
    assert "interrupted (Ctrl-C): results of the" in stdout
    assert "seat 1: wins" in stdout
    assert "games per second" in stdout
    assert process.returncode == 130
