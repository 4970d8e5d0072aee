"""mDNS on 127.0.0.1 only (never the default interfaces): announce, browse, goodbye, stale."""

from __future__ import annotations

import asyncio
import os

import pytest
from helpers import until

from lanuno.net.discovery import Announcer, TableBrowser, probe, txt_records

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
