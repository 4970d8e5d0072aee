"""The host's own terminal closed under its full-screen app (SIGHUP: reads end, writes
fail with EIO): the app ends quietly so that the host goes on to save its tables, and the
host's last lines have nobody to reach. Any other failure of the app still shows."""

from __future__ import annotations

import asyncio
import errno
import io
import sys

import pytest

from lanuno.commands.apps import run_app_until_closed
from lanuno.commands.common import say, terminal_gone


async def _fails(error: BaseException) -> None:
    await asyncio.sleep(0)
    raise error


@pytest.mark.parametrize(
    "error", [OSError(errno.EIO, "Input/output error"), EOFError(), BrokenPipeError()]
)
async def test_a_terminal_closed_under_the_app_ends_it_quietly(error: BaseException) -> None:
    assert terminal_gone(error)
    await run_app_until_closed(_fails(error), asyncio.Event())


@pytest.mark.parametrize("error", [OSError(errno.ENOSPC, "No space"), ValueError("a bug")])
async def test_any_other_failure_of_the_app_is_raised(error: BaseException) -> None:
    assert not terminal_gone(error)
    with pytest.raises(type(error)):
        await run_app_until_closed(_fails(error), asyncio.Event())


async def test_the_table_closing_cancels_the_app() -> None:
    cancelled = asyncio.Event()

    async def app() -> None:
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    closed = asyncio.Event()
    closed.set()
    await asyncio.wait_for(run_app_until_closed(app(), closed), 5)
    assert cancelled.is_set()


async def test_an_app_cancelled_while_closing_on_a_dead_terminal_ends_quietly() -> None:
    """Cancelled, the app redraws one last time: on a closed terminal that write fails."""

    async def app() -> None:
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            raise OSError(errno.EIO, "Input/output error") from None

    closed = asyncio.Event()
    closed.set()
    await asyncio.wait_for(run_app_until_closed(app(), closed), 5)


class _DeadTerminal(io.StringIO):
    def write(self, text: str) -> int:
        raise OSError(errno.EIO, "Input/output error")


class _FullDisk(io.StringIO):
    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")


def test_say_to_a_closed_terminal_is_dropped_but_other_errors_are_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "stdout", _DeadTerminal())
    say("the table is saved")  # nobody left to tell: no error
    monkeypatch.setattr(sys, "stdout", _FullDisk())
    with pytest.raises(OSError):
        say("the table is saved")
