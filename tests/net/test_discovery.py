"""mDNS on 127.0.0.1 only (never the default interfaces): announce, browse, goodbye, stale."""

from __future__ import annotations

import asyncio
import os

import pytest
from helpers import until

from lanuno.net.discovery import (
    Announcer,
    HallAnnouncer,
    TableBrowser,
    TableLocator,
    probe,
    txt_records,
)

pytestmark = pytest.mark.timeout(60)
LOOPBACK = "127.0.0.1"


def test_txt_records_follow_the_spec_and_hold_nothing_about_the_code() -> None:
    room_id = os.urandom(16)
    txt = txt_records("Salon " * 20, 3, "kids2", room_id, table=7)
    assert txt["v"] == "2"  # generation 2: the client hello names the table
    assert txt["mv"] == "1"
    assert txt["free"] == "3"
    assert txt["preset"] == "kids2"
    assert txt["room"] == room_id.hex()
    assert txt["table"] == "7"
    assert len(txt["name"]) <= 32
    assert all(len(v.encode()) <= 64 for v in txt.values())
    assert set(txt) == {"v", "mv", "table", "name", "free", "preset", "room"}


async def test_found_updated_and_lost_on_loopback() -> None:
    room_id = os.urandom(16)
    server = await asyncio.start_server(lambda r, w: w.close(), LOOPBACK, 0)
    port = server.sockets[0].getsockname()[1]
    name = f"lanuno test {room_id.hex()[:6]}"
    announcer = Announcer(name, LOOPBACK, port, preset="official", room_id=room_id, free=4)
    browser = TableBrowser([LOOPBACK])
    await browser.start()
    try:
        await announcer.start()
        await until(lambda: any(t.room == room_id.hex() for t in browser.listed()), "listed")
        table = next(t for t in browser.listed() if t.room == room_id.hex())
        assert (table.name, table.address, table.port, table.free) == (name, LOOPBACK, port, 4)
        assert await probe(table.address, table.port)
        announcer.update(free=2, preset="official")
        await until(
            lambda: any(t.room == room_id.hex() and t.free == 2 for t in browser.listed()),
            "the update to 2 free seats seen",
        )
        await announcer.close()
        await until(lambda: all(t.room != room_id.hex() for t in browser.listed()), "gone")
    finally:
        await announcer.close()
        await browser.close()
        server.close()


async def test_a_table_that_refuses_connections_is_marked_stale() -> None:
    room_id = os.urandom(16)
    server = await asyncio.start_server(lambda r, w: w.close(), LOOPBACK, 0)
    port = server.sockets[0].getsockname()[1]
    server.close()
    await server.wait_closed()  # the port now refuses: a crashed host's lingering record
    announcer = Announcer("stale table", LOOPBACK, port, preset="kids1", room_id=room_id, free=1)
    browser = TableBrowser([LOOPBACK])
    await browser.start()
    try:
        await announcer.start()
        await until(lambda: any(t.room == room_id.hex() for t in browser.listed()), "listed")
        table = next(t for t in browser.listed() if t.room == room_id.hex())
        assert not await probe(table.address, table.port)
        browser.mark_stale(table.instance)
        listed = [t for t in browser.listed() if t.room == room_id.hex()]
        assert listed
        assert listed[0].stale
    finally:
        await announcer.close()
        await browser.close()


async def test_two_tables_with_the_same_name_both_show_up() -> None:
    ids = [os.urandom(16), os.urandom(16)]
    name = f"twin {ids[0].hex()[:6]}"
    announcers = [Announcer(name, LOOPBACK, 40000 + i, preset="official", room_id=r, free=1)
                  for i, r in enumerate(ids)]  # fmt: skip
    browser = TableBrowser([LOOPBACK])
    await browser.start()
    try:
        for announcer in announcers:
            await announcer.start()
        rooms = {r.hex() for r in ids}
        await until(lambda: rooms <= {t.room for t in browser.listed()}, "both listed", timeout=15)
        instances = {t.instance for t in browser.listed() if t.room in rooms}
        assert len(instances) == 2
    finally:
        for announcer in announcers:
            await announcer.close()
        await browser.close()


async def test_a_locator_finds_its_table_by_room_and_number_and_follows_a_move() -> None:
    """The hall reads its addresses again and announces its tables at the new ones; a
    client that lost the host finds the table there (127.0.0.2 stands for the new lease)."""
    room_id, other = os.urandom(16), os.urandom(16)
    addresses = [LOOPBACK]
    hall = HallAnnouncer(addresses, follow=lambda: list(addresses), poll=0.1)
    locator = TableLocator([LOOPBACK], room_id, table=2)
    await locator.start()
    try:
        await hall.add(2, "Salon", 40100, preset="official", room_id=room_id, free=1)
        await hall.add(3, "Salon", 40100, preset="official", room_id=other, free=1)
        await until(lambda: locator.endpoints() == [(LOOPBACK, 40100)], "found", timeout=15)
        addresses[:] = ["127.0.0.2"]  # a new address: the old one is gone
        await until(lambda: hall.moves == 1, "announced again")
        await until(
            lambda: ("127.0.0.2", 40100) in locator.endpoints(), "found at the new address",
            timeout=15,
        )  # fmt: skip
        # Only the table of this room and number: the hall's other table is not offered.
        assert {port for _, port in locator.endpoints()} == {40100}
    finally:
        await locator.close()
        await hall.close()


async def test_a_locator_that_cannot_browse_finds_nothing_and_does_not_fail(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def gone(_browser: TableBrowser) -> None:
        raise OSError(99, "Cannot assign requested address")  # the interface went away

    monkeypatch.setattr(TableBrowser, "start", gone)
    locator = TableLocator([LOOPBACK], os.urandom(16))
    await locator.start()
    assert locator.endpoints() == []
    await locator.close()
