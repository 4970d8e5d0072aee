"""A client that lost its host looks for where the table is announced now (a new DHCP
lease, the host moved from Wi-Fi to a cable) and resumes its seat there.

The host "moves" by a relay: the client joins through one relay on 127.0.0.1; that relay
is cut (nothing answers at the old address any more) and a second one, on another port,
is where a fake locator says the table is now."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses

import pytest
from helpers import until
from net_helpers import FAST
from test_loopback import serve

from lanuno.client import SeatLost
from lanuno.net import client as client_module
from lanuno.net.client import NetClientSession
from lanuno.net.screen_client import RemoteScreen
from lanuno.net.server import TableControls

pytestmark = pytest.mark.timeout(60)


class Relay:
    """Forwards every connection to the table server's port."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = 0
        self._server: asyncio.Server | None = None
        self._links: list[asyncio.StreamWriter] = []

    async def start(self) -> Relay:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        self._links += [writer, up_writer]

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError):
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            sink.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def freeze(self) -> None:
        """The connections so far carry nothing more, and are not closed either (a pulled
        link: no reset comes); new ones are relayed."""
        for link in self._links:
            link.transport.pause_reading()

    def thaw(self) -> None:
        """The link is plugged back in: what waited goes on."""
        for link in self._links:
            link.transport.resume_reading()

    async def cut(self) -> None:
        """The address is gone: no connection goes on, none is accepted."""
        assert self._server is not None
        self._server.close()
        for link in self._links:
            link.transport.abort()
        await self._server.wait_closed()


class FakeLocator:
    """Says the table is announced at ``where`` (a list the test changes)."""

    def __init__(self, where: list[tuple[str, int]], log: list[str]) -> None:
        self.where, self.log = where, log

    async def start(self) -> None:
        self.log.append("start")

    def endpoints(self) -> list[tuple[str, int]]:
        return list(self.where)

    async def close(self) -> None:
        self.log.append("close")


async def test_a_host_announced_at_a_new_address_is_found_and_the_seat_resumed() -> None:
    table, server = await serve()
    old = await Relay(server.port).start()
    new = await Relay(server.port).start()
    where: list[tuple[str, int]] = []
    log: list[str] = []
    asked: list[tuple[bytes, int]] = []

    def locate(room_id: bytes, number: int) -> FakeLocator:
        asked.append((room_id, number))
        return FakeLocator(where, log)

    ann = NetClientSession(
        "127.0.0.1", old.port, table.room_code, "Ann", timing=FAST, locate=locate
    )
    bob = NetClientSession("127.0.0.1", server.port, table.room_code, "Bob", timing=FAST)
    try:
        await ann.connect()
        await bob.connect()
        await until(lambda: ann.seat is not None and bob.seat is not None, "both seated")
        await TableControls(server).start()
        await until(lambda: ann.last_state is not None, "Ann sees the table")
        seat = ann.seat
        assert seat is not None
        hand = list(table.game.seat_view(seat).hand)
        assert log == []  # nothing is looked for while the host answers
        await old.cut()
        await until(lambda: log == ["start"], "Ann looks for the table")
        assert asked == [(table.room_id, 1)]  # by its public room id and number
        await asyncio.sleep(0.5)
        assert ann.connection == "reconnecting"  # the old address is dead, nothing else known
        where.append(("127.0.0.1", new.port))
        await until(lambda: ann.connection == "connected", "Ann is back", timeout=10)
        assert (ann.host, ann.port) == ("127.0.0.1", new.port)
        assert ann.reconnects == 1
        assert ann.seat == seat
        await until(lambda: log == ["start", "close"], "Ann stops looking")
        await until(lambda: table.slots[seat].peer is not None, "the host sees Ann back")
        assert list(table.game.seat_view(seat).hand) == hand
    finally:
        await ann.close()
        await bob.close()
        await new.cut()
        await server.close()


async def test_the_address_it_knows_is_kept_when_an_announced_one_does_not_answer() -> None:
    """A host that came back at the same address wins over a stale announcement."""
    table, server = await serve()
    dead = await Relay(server.port).start()
    await dead.cut()  # announced, but nothing answers there
    log: list[str] = []

    def locate(_room_id: bytes, _number: int) -> FakeLocator:
        return FakeLocator([("127.0.0.1", dead.port)], log)

    ann = NetClientSession("127.0.0.1", server.port, table.room_code, "Ann", timing=FAST,
                           locate=locate)  # fmt: skip
    try:
        await ann.connect()
        await until(lambda: ann.seat is not None, "Ann seated")
        writer = ann._writer
        assert writer is not None
        writer.transport.abort()  # the Wi-Fi drops; the host stays where it was
        await until(lambda: ann.reconnects == 1, "Ann reconnects")
        assert (ann.host, ann.port) == ("127.0.0.1", server.port)
        await until(lambda: log == ["start", "close"], "Ann stops looking")
    finally:
        await ann.close()
        await server.close()


async def test_a_client_given_no_locator_keeps_to_its_address() -> None:
    table, server = await serve()
    relay = await Relay(server.port).start()
    ann = NetClientSession("127.0.0.1", relay.port, table.room_code, "Ann", timing=FAST)
    try:
        await ann.connect()
        await until(lambda: ann.seat is not None, "Ann seated")
        await relay.cut()
        await until(lambda: ann.connection == "reconnecting", "Ann lost the host")
        await asyncio.sleep(0.5)
        assert ann.connection == "reconnecting"
        assert (ann.host, ann.port) == ("127.0.0.1", relay.port)
    finally:
        await ann.close()
        await server.close()


async def test_a_remote_screen_finds_its_table_at_the_new_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past a forged announcement first: another table, where the screen code fails."""
    table, server = await serve()
    _, other_server = await serve()
    old = await Relay(server.port).start()
    new = await Relay(server.port).start()
    where = [("127.0.0.1", other_server.port)]
    monkeypatch.setattr(client_module, "SHUN_FOR", 0.0)  # the forger is tried every time
    log: list[str] = []
    asked: list[tuple[bytes, int]] = []

    def locate(room_id: bytes, number: int) -> FakeLocator:
        asked.append((room_id, number))
        return FakeLocator(where, log)

    remote = RemoteScreen("127.0.0.1", old.port, server.screen_code, retry_every=0.05,
                          locate=locate)  # fmt: skip
    try:
        await remote.connect()
        await old.cut()
        await until(lambda: log == ["start"], "the screen looks for its table")
        assert asked == [(table.room_id, 1)]
        await asyncio.sleep(1.0)  # a pairing every 0.05 s, each failing at the forger
        assert remote.reconnects == 0
        assert not remote._ended  # its code was not refused by its own host
        where.append(("127.0.0.1", new.port))
        await until(lambda: remote.reconnects == 1, "paired again", timeout=10)
        assert (remote.host, remote.port) == ("127.0.0.1", new.port)
        await until(lambda: log == ["start", "close"], "the screen stops looking")
    finally:
        await remote.close()
        await new.cut()
        await server.close()
        await other_server.close()


async def test_a_forged_announcement_costs_attempts_never_the_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Anyone can announce a table's room id. Here a host that does not hold Ann's seat
    (another table, and one that even answers with her table's room id) is announced
    while her host is lost: its refusals and its other room id are not counted against
    her seat, and she resumes it when her host is announced again."""
    table, server = await serve()
    _, other_server = await serve()
    same_id, same_id_server = await serve()
    same_id.room_id = table.room_id  # a forger that knows the public room id
    old = await Relay(server.port).start()
    new = await Relay(server.port).start()
    forged = [("127.0.0.1", other_server.port), ("127.0.0.1", same_id_server.port)]
    where = list(forged)
    monkeypatch.setattr(client_module, "SHUN_FOR", 0.0)  # the forgers are tried every time
    ann = NetClientSession("127.0.0.1", old.port, table.room_code, "Ann", timing=FAST,
                           locate=lambda _room, _number: FakeLocator(where, []))  # fmt: skip
    try:
        await ann.connect()
        await until(lambda: ann.seat is not None, "Ann seated")
        seat, ticket = ann.seat, ann.ticket
        await old.cut()
        await until(lambda: ann.connection == "reconnecting", "Ann lost the host")
        await asyncio.sleep(3.0)  # dozens of attempts, each at a forger that answers first
        assert ann.ticket == ticket
        assert (ann.host, ann.port) == ("127.0.0.1", old.port)
        assert not any(isinstance(m, SeatLost) for m in ann._queue._queue)  # type: ignore[attr-defined]
        monkeypatch.setattr(client_module, "SHUN_FOR", 60.0)  # each forger fails once more
        where.append(("127.0.0.1", new.port))
        await until(lambda: ann.connection == "connected", "Ann is back", timeout=10)
        assert (ann.host, ann.port) == ("127.0.0.1", new.port)
        assert ann.seat == seat
    finally:
        await ann.close()
        await new.cut()
        for served in (server, other_server, same_id_server):
            await served.close()


async def test_a_remote_screen_whose_link_goes_silent_pairs_again() -> None:
    """A pulled link sends no reset: a screen that hears nothing, pongs included, for its
    silence limit takes the link for dead and pairs again (it stayed frozen for good)."""
    _, server = await serve()
    relay = await Relay(server.port).start()
    remote = RemoteScreen("127.0.0.1", relay.port, server.screen_code, ping_every=0.1,
                          retry_every=0.05, silence=0.5)  # fmt: skip
    try:
        await remote.connect()
        await asyncio.sleep(0.3)  # pings answered: the link is live
        assert remote.reconnects == 0
        assert remote.linked
        relay.freeze()
        await until(lambda: not remote.linked, "the link taken for dead", timeout=10)
        await until(lambda: remote.reconnects == 1, "paired again", timeout=10)
        assert remote.linked  # its screen says so: the header's "reconnecting..." goes
        assert not remote._ended
    finally:
        await remote.close()
        await relay.cut()
        await server.close()


async def test_a_player_whose_link_goes_silent_is_told_before_the_drop() -> None:
    """A pulled link: the header says the host is not answering once a ping's answer is
    overdue, well before the drop, and says connected again when the link comes back."""
    table, server = await serve()
    relay = await Relay(server.port).start()
    timing = dataclasses.replace(FAST, ping_interval=0.2, quiet_after=0.6, silence_timeout=30.0)
    ann = NetClientSession("127.0.0.1", relay.port, table.room_code, "Ann", timing=timing)
    try:
        await ann.connect()
        await until(lambda: ann.seat is not None, "seated")
        await asyncio.sleep(0.8)  # pings answered: never quiet on a live link
        assert ann.connection == "connected"
        relay.freeze()
        await until(lambda: ann.connection == "quiet", "told the host is quiet", timeout=10)
        relay.thaw()
        await until(lambda: ann.connection == "connected", "heard again", timeout=10)
        assert ann.reconnects == 0  # the same link all along: no drop
    finally:
        await ann.close()
        await relay.cut()
        await server.close()
