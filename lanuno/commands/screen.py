"""The shared screen of a table: the full-screen table app, or with ``--headless`` a plain
log of the same public messages. Only public information reaches it (``TableScreen`` is a
spectator's view). ``lanuno screen`` (``run``) shows a table of another machine's host the
same way, over a SCREEN link paired with the table's screen code (``RemoteScreen``)."""

from __future__ import annotations

import argparse
import asyncio

from lanuno.commands.apps import run_app_until_closed
from lanuno.commands.common import (
    CODE_TRIES,
    complain,
    locator_for,
    read_code,
    refuse_malformed_code,
    say,
    say_item,
    split_address,
)
from lanuno.commands.join import choose_number
from lanuno.net.discovery import (
    LOOPBACK,
    TableBrowser,
    TableInfo,
    discovery_addresses,
)
from lanuno.net.screen_client import RemoteScreen, ScreenControls, ScreenError
from lanuno.net.server import TableControls, TableScreen, TableServer
from lanuno.ui.contracts import HostControls
from lanuno.ui.i18n import Translator, translator
from lanuno.ui.plain import log_screen
from lanuno.ui.reasons import screen_end_line, translate_reason
from lanuno.ui.table_app import run_table_app
from lanuno.wire.crypto import format_check_number


async def log_until_closed(
    server: TableServer, screen: TableScreen, lang: str | None = None
) -> None:
    """Headless: how to join, then every public message as a line, until the server closes."""
    table, tr = server.table, translator(lang)
    addresses = ", ".join(server.addresses)
    code = format_check_number(int(table.room_code))
    say(tr("host.log.table", name=repr(screen.table_name), addresses=addresses, code=code))
    command = f"lanuno join {server.addresses[0]} --code {table.room_code}"
    say(tr("host.log.join_with", command=command))
    if screen.loopback_only:
        say(tr("host.log.loopback"))
    # The host's own log (``say``) warns of a rotated room code the moment it happens: the
    # screen's log must not say it a second time.
    logger = asyncio.create_task(log_screen(screen, say, lang, watch_room_code=False))
    await server.closed.wait()
    logger.cancel()


async def show_until_closed(
    server: TableServer, screen: TableScreen, controls: TableControls, lang: str | None
) -> None:
    """The table app until the host quits it (Q) or the server closes (SIGTERM). A plain
    host has no hall screen to show the screen code: its help (?) does."""
    app = run_table_app(
        screen,
        controls,
        lang=lang,
        bot_level=server.table.config.bot_level,
        screen_code=lambda: server.screen_code,
    )
    await run_app_until_closed(app, server.closed)


# ---------------------------------------------------------------------------- lanuno screen


def run(args: argparse.Namespace) -> int:
    if refuse_malformed_code("screen", args):
        return 2
    try:
        return asyncio.run(_screen(args))
    except KeyboardInterrupt:
        return 0


async def _choose(interfaces: list[str], tr: Translator) -> TableInfo | None:
    """Every table on the LAN (full ones too: a screen takes no seat)."""
    browser = TableBrowser(interfaces)
    await browser.start()
    try:
        say(tr("join.looking"))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 3.0
        while (left := deadline - loop.time()) > 0:
            await browser.wait_for_change(left)
        tables = browser.listed()
        if not tables:
            say(tr("screen.none"))
            return None
        for i, t in enumerate(tables, 1):
            say_item(
                f"  {i}) ", tr("screen.table", name=t.name, number=t.table, address=t.endpoint)
            )
        number = await choose_number(len(tables), tr)
        return None if number is None else tables[number - 1]
    finally:
        await browser.close()


async def _screen(args: argparse.Namespace) -> int:
    tr = translator(args.lang)
    number = args.table or 1
    if args.address:
        try:
            host, port = split_address(args.address)
        except ValueError as error:
            complain("screen", str(error))
            return 2
    else:
        interfaces = discovery_addresses(getattr(args, "interface", None))
        if interfaces == [LOOPBACK]:
            say(tr("join.loopback"))
        table = await _choose(interfaces, tr)
        if table is None:
            return 1
        host, port, number = table.address, table.port, table.table
    code = args.code or await read_code("screen", tr("screen.code"), tr)
    locate = locator_for(args, host)  # as a player's client: a lost host is looked for
    for attempt in range(1, CODE_TRIES + 1):
        remote = RemoteScreen(host, port, code, table=number, locate=locate)
        try:
            await remote.connect()
        except ScreenError as error:
            reason = translate_reason(error.reason, tr)
            complain("screen", tr("screen.failed", address=error.address, reason=reason))
            if error.wrong_code and not args.code and attempt < CODE_TRIES:
                code = await read_code("screen", tr("screen.code"), tr)  # a typo: again
                continue
            return 1
        break
    try:
        if args.headless:
            say(tr("screen.paired", number=number, address=f"{host}:{port}"))
            await log_screen(remote, say, args.lang)
            say(screen_end_line(remote.end_reason, tr))
        else:
            controls: HostControls = ScreenControls(remote)
            await run_table_app(remote, controls, lang=args.lang, remote=True)
    finally:
        await remote.close()
    return 0
