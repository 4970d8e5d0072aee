"""``lanuno join``: find a table (mDNS: every table with seats free, of every host and
hall; or HOST:PORT with ``--table N``), ask the room code, play in the hand app or the
plain line-based client."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import time
from collections.abc import Awaitable, Callable, Sequence

from lanuno.commands.common import (
    CODE_TRIES,
    clean_name,
    complain,
    locator_for,
    read_answer,
    read_code,
    refuse_malformed_code,
    say,
    say_item,
    split_address,
)
from lanuno.commands.terminal import play_in_terminal
from lanuno.net.client import JoinError, NetClientSession
from lanuno.net.discovery import (
    LOOPBACK,
    TableBrowser,
    TableInfo,
    discovery_addresses,
    probe,
)
from lanuno.net.seat_store import SavedSeat, SeatStore
from lanuno.ui.i18n import Translator, translator
from lanuno.ui.reasons import translate_reason
from lanuno.wire.errors import CloseCode


def run(args: argparse.Namespace) -> int:
    if refuse_malformed_code("join", args):
        return 2
    try:
        return asyncio.run(_join(args))
    except KeyboardInterrupt:
        return 0


async def choose_number(
    count: int,
    tr: Translator,
    read_line: Callable[[str], Awaitable[str | None]] = read_answer,
) -> int | None:
    """The number of one of ``count`` tables listed, asked again after anything else (a
    '2' when one table is listed ended lanuno join without a word); None: the end of the
    input leaves, and so does Enter alone among several tables. One table listed is taken
    with Enter (it was "choose 1-1:", and Enter alone left)."""
    if count == 1:
        prompt, again = tr("join.choose_one"), tr("join.choose_one_again")
    else:
        prompt, again = tr("join.choose", count=count), tr("join.choose_again", count=count)
    while (answer := await read_line(prompt)) is not None:
        if count == 1 and answer in ("", "1"):
            return 1
        if not answer:
            return None
        if answer.isdigit() and 1 <= int(answer) <= count:
            return int(answer)
        say(again)
    return None


def describe_table(t: TableInfo, tr: Translator, *, seat_waiting: bool = False) -> str:
    """One line of the list: name, table number and address, seats free, preset; or that
    a game is on there (no seat is free during a game: discovery.md)."""
    if t.free == 0 and not seat_waiting:
        line = tr("join.table_playing", name=t.name, number=t.table, address=t.endpoint)
    else:
        line = tr(
            "join.table",
            name=t.name,
            number=t.table,
            address=t.endpoint,
            free=t.free,
            preset=tr.preset(t.preset),
        )
    return line + (tr("join.stale") if t.stale else "")


def tables_to_list(found: list[TableInfo], mine: set[bytes]) -> list[TableInfo]:
    """The tables a bare join offers: those with seats free (or this user's seat) first,
    then those in a game, where a player who joins watches and plays the next game (it
    said there was no table, and to ask the host for the address of the one it found)."""
    first = [t for t in found if t.free > 0 or _room(t) in mine]
    return first + [t for t in found if t not in first]


async def _choose_table(
    interfaces: list[str],
    mine: set[bytes],
    tr: Translator,
    saved: Sequence[SavedSeat] = (),
) -> TableInfo | None:
    """``mine``: tables where a previous client of this user left a seat (picked at once).
    Lists the tables with seats free (a full table's players resume with their seat).
    ``saved``: those seats, to try at their own address when nothing is announced (a host
    with ``--no-mdns``)."""
    browser = TableBrowser(interfaces)
    await browser.start()
    try:
        say(tr("join.looking"))
        deadline = asyncio.get_running_loop().time() + 3.0
        while (left := deadline - asyncio.get_running_loop().time()) > 0:
            await browser.wait_for_change(left)
        while True:
            found = browser.listed()
            waiting = [t for t in found if _room(t) in mine and not t.stale]
            if len(waiting) == 1:
                say(tr("join.waiting_seat", table=waiting[0].name))
                return waiting[0]
            tables = tables_to_list(found, mine)
            if not tables:
                unannounced = await _answering(saved)
                if unannounced is not None:
                    say(tr("join.waiting_seat", table=unannounced.endpoint))
                    return unannounced
                say(tr("join.none"))
                return None
            for i, t in enumerate(tables, 1):
                say_item(f"  {i}) ", describe_table(t, tr, seat_waiting=_room(t) in mine))
            number = await choose_number(len(tables), tr)
            if number is None:
                return None
            chosen = tables[number - 1]
            if await probe(chosen.address, chosen.port):
                return chosen
            browser.mark_stale(chosen.instance)
            say(tr("join.gone"))
    finally:
        await browser.close()


def _failure(error: JoinError, tr: Translator) -> str:
    return tr("join.failed", address=error.address, reason=translate_reason(error.reason, tr))


def _wrong_code_hint(args: argparse.Namespace, number: int, tr: Translator) -> str | None:
    """What else a wrong room code may be, at a hall: another table's."""
    if args.address and not getattr(args, "table", None):
        # A hall's tables share its address: another table's code is "wrong" at table 1.
        return tr("join.table_hint")
    if number > 1:  # table 1's code typed at table 2 (the guest's table was 1)
        return tr("join.table_code_hint", number=number)
    return None


RECENT_SEAT = 12 * 3600.0
"""A saved seat tried at its own address when no table is announced: one from this evening
(an older one's address may serve another table by now)."""


def _recent_seats(waiting: Sequence[SavedSeat]) -> list[SavedSeat]:
    """The seats among ``waiting`` left within ``RECENT_SEAT``, newest first."""
    now = time.time()
    seats = []
    for seat in waiting:
        with contextlib.suppress(OSError):
            age = now - seat.path.stat().st_mtime
            if age <= RECENT_SEAT:
                seats.append((age, seat))
    return [seat for _, seat in sorted(seats, key=lambda pair: pair[0])]


async def _answering(saved: Sequence[SavedSeat]) -> TableInfo | None:
    """The first saved seat whose host answers at its address, as a table to join."""
    for seat in saved:
        if await probe(seat.host, seat.port):
            return TableInfo(
                instance="",
                name=f"{seat.host}:{seat.port}",
                address=seat.host,
                port=seat.port,
                free=0,
                preset="",
                room=seat.ticket.room_id.hex(),
                table=seat.table,
            )
    return None


def _room(table: TableInfo) -> bytes | None:
    try:
        return bytes.fromhex(table.room)
    except ValueError:
        return None


def _login_name() -> str:
    """The default name: this computer's login name, when it is one the wire takes."""
    with contextlib.suppress(ValueError, KeyError, OSError):
        return clean_name(getpass.getuser())
    return "player"


async def _join(args: argparse.Namespace) -> int:
    tr = translator(args.lang)
    store = SeatStore()
    room: bytes | None = None
    number = getattr(args, "table", None) or 1
    if args.address:
        try:
            host, port = split_address(args.address)
        except ValueError as error:
            complain("join", str(error))
            return 2
    else:
        interfaces = discovery_addresses(getattr(args, "interface", None))
        if interfaces == [LOOPBACK]:
            say(tr("join.loopback"))
        waiting = store.waiting(args.name or None)  # the seat files read once
        mine = {seat.ticket.room_id for seat in waiting}
        table = await _choose_table(interfaces, mine, tr, _recent_seats(waiting))
        if table is None:
            return 1
        host, port, room, number = table.address, table.port, _room(table), table.table
    locate = locator_for(args, host)  # a lost host may be announced at a new address
    name = args.name or _login_name()
    # A seat this user's previous client left at this table (killed, crashed, closed):
    # resume it without asking for the code (issue 10 item 1).
    seat_file, saved = store.claim(
        host, port, name, room_id=room, table=number, named=bool(args.name)
    )
    for path in store.damaged:
        say(tr("join.seat_damaged", path=path))
    if saved is not None:
        say(tr("join.resuming", seat=saved.ticket.seat + 1, address=f"{host}:{port}"))
        session = NetClientSession(
            host,
            port,
            args.code or "",
            name,
            age=args.age,
            kid=args.kid,
            ticket=saved.ticket,
            seat_file=seat_file,
            table=number,
            locate=locate,
        )
        try:
            await session.connect()
        except JoinError as error:
            say(tr("join.resume_failed", reason=_failure(error, tr)))
            if error.code is CloseCode.RESUME_REJECTED:
                # The host there holds no such seat (a new table at the same address): the
                # saved seat is gone for good, so no later join offers it again.
                seat_file.keep(None)
        else:
            return await play_in_terminal(session, args)
    code = args.code or await read_code("join", tr("join.code"), tr)
    for attempt in range(1, CODE_TRIES + 1):
        session = NetClientSession(
            host,
            port,
            code,
            name,
            age=args.age,
            kid=args.kid,
            seat_file=seat_file,
            table=number,
            locate=locate,
        )
        try:
            await session.connect()
        except JoinError as error:
            complain("join", _failure(error, tr))
            hint = _wrong_code_hint(args, number, tr) if error.wrong_code else None
            if hint is not None and attempt == 1:
                complain("join", hint)
            if error.wrong_code and not args.code and attempt < CODE_TRIES:
                code = await read_code("join", tr("join.code"), tr)  # a typo: again
                continue
            if error.no_such_table:
                complain("join", tr("join.hall_hint"))
            return 1
        return await play_in_terminal(session, args)
    return 1  # pragma: no cover - the loop returns
