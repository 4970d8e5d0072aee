"""What tests across the tree share: one bounded wait instead of sleep-then-assert, and
the random seed a failing test was using, how many examples the test profile asks for, and
a join with a wrong room code, a free loopback port, stopping a started process, and
loading one of the scripts/ as a module.

``await until(lambda: table.slots[0].ready, "Ann is ready")`` checks the condition, lets
the event loop run for a few milliseconds, and checks again, until it holds or the time
is up; then it fails saying what never happened. The bound is generous (a loaded CI
machine is slow, never wrong) and is not a timing assertion: a test that needs a figure
belongs in scripts/bench_*.py.

Two profiles (``HYPOTHESIS_PROFILE``, set up in conftest.py): ``dev``, the default, runs a
fifth of the examples and seeded games, for a fast inner loop; ``ci`` (``.ci/run``) runs
them all. A test that sets its own count writes ``max_examples=examples(300)`` (or loops
``range(examples(300))``), so both profiles scale it and the CI figure stays written down.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from lanuno.wire.connection import ClientConnection

T = TypeVar("T")

seeds_in_use: list[object] = []
"""The seeds the running test noted (the conftest clears it before each test and prints
the last one in the report of a failure)."""


def note_seed(seed: object) -> None:
    """Call with the seed of each random game or position a test loops over; a failure then
    reports ``random seed: <seed>``, enough to replay that one case."""
    seeds_in_use.append(seed)


PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")
"""``ci``: every example; ``dev`` (the default): a fifth of them."""
DEV_SHARE = 5


def examples(full: int) -> int:
    """``full`` examples (or seeded games) under the ``ci`` profile, a fifth (at least 5)
    under ``dev``."""
    return full if PROFILE == "ci" else max(5, full // DEV_SHARE)


DEFAULT_TIMEOUT = 10.0
"""Seconds before a wait gives up: far above what any condition here needs."""
POLL = 0.005


class NeverHappened(AssertionError):
    """The condition a test waited for did not hold within the bound."""


def _fail(what: str, timeout: float, last: object) -> NeverHappened:
    return NeverHappened(f"never happened within {timeout:g} s: {what} (last value: {last!r})")


async def until(condition: Callable[[], T], what: str, *, timeout: float = DEFAULT_TIMEOUT) -> T:
    """Let the event loop run until ``condition()`` is truthy; returns that value."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not (value := condition()):
        if loop.time() >= deadline:
            raise _fail(what, timeout, value)
        await asyncio.sleep(POLL)
    return value


def until_sync(
    condition: Callable[[], T], what: str, *, timeout: float = DEFAULT_TIMEOUT, poll: float = 0.05
) -> T:
    """The same for tests without an event loop (processes, tmux, namespaces)."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() >= deadline:
            raise _fail(what, timeout, value)
        time.sleep(poll)
    return value


async def wrong_code_join(port: int, code: str, table: int, *, screen: bool = False) -> None:
    """A JOIN (or a SCREEN pairing) to ``table`` on 127.0.0.1:``port`` with the code after
    ``code``: one failed attempt for the host to count."""
    wrong = f"{(int(code) + 1) % 1_000_000:06d}"
    conn = (
        ClientConnection.screen(wrong, os.urandom, table)
        if screen
        else ClientConnection.join(wrong, os.urandom, table)
    )
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(conn.data_to_send())
    try:
        while data := await asyncio.wait_for(reader.read(65536), 5):
            conn.receive_data(data)
            writer.write(conn.data_to_send())
    except Exception:
        pass  # refused and closed, as expected
    finally:
        writer.close()


def free_port() -> int:
    """A loopback TCP port nobody listens on now (for a process told ``--port``)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def stop(process: subprocess.Popen[Any], grace: float = 5.0) -> None:
    """End a started process: SIGTERM (a lanuno command's clean close), then SIGKILL if it
    is still there after ``grace`` seconds."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def load_script(name: str) -> Any:
    """``scripts/NAME.py`` as a module (the scripts are not a package)."""
    path = Path(__file__).resolve().parents[1] / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module
