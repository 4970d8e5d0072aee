"""The shared screen of a served table: the full-screen table app, or with ``--headless``
a plain log of the same public messages. Only public information reaches it
(``TableScreen`` is a spectator's view); a future ``lanuno screen`` reuses it."""

from __future__ import annotations

import asyncio
import contextlib

from lanuno.commands.common import say
from lanuno.net.discovery import LOOPBACK_ONLY
from lanuno.net.server import TableControls, TableScreen, TableServer
from lanuno.ui.plain import log_screen
from lanuno.ui.table_app import run_table_app
from lanuno.wire.crypto import format_check_number


async def log_until_closed(
    server: TableServer, screen: TableScreen, lang: str | None = None
) -> None:
    """Headless: how to join, then every public message as a line, until the server closes."""
    table = server.table
    addresses = ", ".join(server.addresses)
    say(
        f"table {screen.table_name!r} at {addresses}  room code "
        f"{format_check_number(int(table.room_code))}"
    )
    say(f"players join with: lanuno join {server.addresses[0]} --code {table.room_code}")
    if screen.loopback_only:
        say(LOOPBACK_ONLY)
    logger = asyncio.create_task(log_screen(screen, say, lang))
    await server.closed.wait()
    logger.cancel()


async def show_until_closed(
    server: TableServer, screen: TableScreen, controls: TableControls, lang: str | None
) -> None:
    """The table app until the host quits it (Q) or the server closes (SIGTERM)."""
    app = asyncio.create_task(run_table_app(screen, controls, lang=lang))
    closed = asyncio.create_task(server.closed.wait())
    await asyncio.wait({app, closed}, return_when=asyncio.FIRST_COMPLETED)
    closed.cancel()
    if not app.done():
        app.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await app
