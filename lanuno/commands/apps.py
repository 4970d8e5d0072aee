"""A full-screen app on the host's own terminal, run until it ends or its table (or hall)
closes: shared by the table screen and the hall screen."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from lanuno.commands.common import terminal_gone


async def run_app_until_closed(app: Coroutine[Any, Any, object], closed: asyncio.Event) -> None:
    """Run ``app`` until it returns or ``closed`` is set (then it is cancelled). A terminal
    closed under it ends it quietly: the host goes on to close, and save, its tables."""
    task = asyncio.create_task(app)
    waiter = asyncio.create_task(closed.wait())
    await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
    waiter.cancel()
    if not task.done():
        task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        if not task.cancelled():
            raise  # we were cancelled ourselves, not the app
    except (OSError, EOFError) as error:
        if not terminal_gone(error):
            raise
