"""Finding tables on the LAN with mDNS / DNS-SD (zeroconf.asyncio), protocol/discovery.md.

``Announcer`` registers ``<table name>._lanuno._tcp.local.`` with the TXT keys of the spec
(never anything derived from the room code), updates ``free`` as seats fill, and sends the
goodbye on shutdown. A hall announces one service per table (``HallAnnouncer``: one
zeroconf instance, one service per table, TXT ``table`` = its number). ``TableBrowser``
keeps a list of tables found (and forgets those that say goodbye); a table whose address
refuses a connection is marked stale, because a crashed host's records linger until their
TTL. Discovery is a hint: the handshake authenticates every connection.

Zeroconf always gets an explicit interface list: by default every IPv4 interface that is
up and multicast-capable (``lan_interfaces``: a LAN without a router has no default route,
so "the default route's interface" would be none), or the one ``--interface`` names. Tests
pass ``127.0.0.1`` or run inside network namespaces they create.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import socket
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import ifaddr
from zeroconf import IPVersion, ServiceStateChange
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from lanuno.wire.messages import SUPPORTED_VERSIONS

SERVICE_TYPE = "_lanuno._tcp.local."
PROTOCOL_GENERATION = "2"
MAX_TXT_VALUE = 64


LOOPBACK = "127.0.0.1"
FOLLOW_INTERVAL = 3.0
"""Seconds between two readings of the host's addresses (``HallAnnouncer`` with follow)."""
IFF_UP, IFF_LOOPBACK, IFF_MULTICAST = 0x1, 0x8, 0x1000
SYS_NET = Path("/sys/class/net")


@dataclass(frozen=True, slots=True)
class LocalInterface:
    """One IPv4 address of a network interface of this machine."""

    name: str
    address: str
    prefix: int

    @property
    def network(self) -> ipaddress.IPv4Network:
        return ipaddress.IPv4Network(f"{self.address}/{self.prefix}", strict=False)


def _flags(name: str) -> int | None:
    """The interface's flags (Linux); None where the system does not say."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return int((SYS_NET / name / "flags").read_text(), 16)
    except (OSError, ValueError):
        return None


def lan_interfaces() -> list[LocalInterface]:
    """Every IPv4 interface that can reach a LAN: up, multicast-capable, not loopback.
    Link-local addresses (169.254/16) count: two laptops on a cable have nothing else."""
    found: list[LocalInterface] = []
    for adapter in ifaddr.get_adapters():
        flags = _flags(adapter.name)
        if flags is not None and (
            not flags & IFF_UP or not flags & IFF_MULTICAST or flags & IFF_LOOPBACK
        ):
            continue
        for ip in adapter.ips:
            if not isinstance(ip.ip, str) or ipaddress.IPv4Address(ip.ip).is_loopback:
                continue
            found.append(LocalInterface(adapter.name, ip.ip, ip.network_prefix))
    return found


def discovery_addresses(interface: str | None) -> list[str]:
    """Where to announce and browse: the address ``--interface`` names, else every LAN
    interface, else loopback alone (only this machine can join: say so)."""
    if interface:
        return [interface]
    return [i.address for i in lan_interfaces()] or [LOOPBACK]


def pick_address(addresses: Sequence[str], local: Sequence[str]) -> str:
    """Of a table's addresses, one on a network this machine is on (the host announces all
    of its interfaces' addresses on each of them), else the first."""
    networks = [i.network for i in lan_interfaces() if i.address in local]
    for address in addresses:
        if any(ipaddress.IPv4Address(address) in net for net in networks):
            return address
    return addresses[0]


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A table seen on the LAN."""

    instance: str
    """The mDNS instance name (unique on the LAN; zeroconf renames on a conflict)."""
    name: str
    address: str
    port: int
    free: int
    preset: str
    room: str
    stale: bool = False
    addresses: tuple[str, ...] = ()
    """Every address the host announced (``address`` is the one picked to connect to)."""
    table: int = 1
    """The table's number at its host (the client hello names it)."""

    @property
    def endpoint(self) -> str:
        return f"{self.address}:{self.port}"


def txt_records(
    name: str, free: int, preset: str, room_id: bytes, table: int = 1
) -> dict[str, str]:
    txt = {
        "v": PROTOCOL_GENERATION,
        "mv": ",".join(str(v) for v in SUPPORTED_VERSIONS),
        "table": str(table),
        "name": name[:32],
        "free": str(max(0, min(10, free))),
        "preset": preset,
        "room": room_id.hex(),
    }
    for key, value in txt.items():
        while len(value.encode()) > MAX_TXT_VALUE:  # a long UTF-8 name: cut by characters
            value = value[:-1]
        txt[key] = value
    return txt


def _instance_label(name: str) -> str:
    label = "".join(ch if ch.isprintable() and ch != "." else "-" for ch in name)[:60]
    return label or "lanuno table"


class Announcer:
    """Announce one table on the given IPv4 interfaces (their addresses), with every one of
    those addresses in its A records."""

    def __init__(
        self,
        name: str,
        addresses: str | Sequence[str],
        port: int,
        *,
        preset: str,
        room_id: bytes,
        free: int,
        table: int = 1,
        zeroconf: AsyncZeroconf | None = None,
    ) -> None:
        """``zeroconf``: a hall's shared instance (this announcer then closes only its
        own service)."""
        self.addresses = [addresses] if isinstance(addresses, str) else list(addresses)
        self.name, self.port, self.table = name, port, table
        self.preset, self.room_id, self.free = preset, room_id, free
        self._shared = zeroconf
        self._zc: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None
        self._pending: set[asyncio.Task[None]] = set()
        self.closed = False

    def _service_info(self) -> AsyncServiceInfo:
        # zeroconf does not always catch a name conflict (python-zeroconf #1356, and two
        # responders on one host), so the instance carries a short piece of the public
        # room id: two tables called "Salon" stay two entries. Browsers show TXT ``table``.
        label = f"{_instance_label(self.name)} [{self.room_id.hex()[:4]}]"
        instance = self._info.name if self._info is not None else f"{label}.{SERVICE_TYPE}"
        return AsyncServiceInfo(
            SERVICE_TYPE,
            instance,
            addresses=[socket.inet_aton(address) for address in self.addresses],
            port=self.port,
            properties=txt_records(self.name, self.free, self.preset, self.room_id, self.table),
            server=f"lanuno-{self.room_id.hex()[:12]}.local.",
        )

    async def start(self) -> None:
        self._zc = self._shared or AsyncZeroconf(
            interfaces=self.addresses, ip_version=IPVersion.V4Only
        )
        info = self._service_info()
        task = await self._zc.async_register_service(info, allow_name_change=True)
        await task
        self._info = info

    @property
    def instance(self) -> str | None:
        return self._info.name if self._info is not None else None

    async def move(self, zeroconf: AsyncZeroconf, addresses: Sequence[str]) -> None:
        """Announce again, on a hall's new zeroconf instance, at the host's new addresses.
        The instance name is kept: browsers see the same table at another address."""
        self._shared, self._zc = zeroconf, None
        self.addresses = list(addresses)
        await self.start()

    def update(self, free: int, preset: str) -> None:
        """Refresh the TXT record when the seats free or the preset change (non-blocking)."""
        if (free, preset) == (self.free, self.preset):
            return
        self.free, self.preset = free, preset  # kept while moving: the next record has it
        if self._zc is None or self._info is None:
            return
        info = self._service_info()
        self._info = info
        zc = self._zc

        async def push() -> None:
            with contextlib.suppress(Exception):
                await (await zc.async_update_service(info))

        task = asyncio.create_task(push())
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def close(self) -> None:
        """Goodbye (TTL 0) so browsers forget the table at once, then close."""
        self.closed = True
        zc, self._zc = self._zc, None
        if zc is None:
            return
        for task in list(self._pending):
            task.cancel()
        if self._shared is not None:  # the hall's instance: only this table says goodbye
            if self._info is not None:
                with contextlib.suppress(Exception):
                    await (await zc.async_unregister_service(self._info))
            return
        with contextlib.suppress(Exception):
            await zc.async_unregister_all_services()
        await zc.async_close()


class HallAnnouncer:
    """One zeroconf instance announcing every table of a hall, one service each.

    With ``follow`` (the host chose no interface), it reads the host's addresses again every
    ``poll`` seconds and, when they change (a new DHCP lease, the laptop moved from Wi-Fi to
    a cable), announces every table again on the new ones: players who lost the host find
    it there (``TableLocator``). The TCP server listens on every address already."""

    def __init__(
        self,
        addresses: Sequence[str],
        *,
        follow: Callable[[], list[str]] | None = None,
        poll: float = FOLLOW_INTERVAL,
    ) -> None:
        self.addresses = list(addresses)
        self._zc: AsyncZeroconf | None = None
        self._announcers: list[Announcer] = []
        self._follow, self._poll = follow, poll
        self._follower: asyncio.Task[None] | None = None
        self.moves = 0
        """How many times the tables were announced again at new addresses."""

    async def add(
        self, table: int, name: str, port: int, *, preset: str, room_id: bytes, free: int
    ) -> Announcer:
        if self._zc is None:
            self._zc = AsyncZeroconf(interfaces=self.addresses, ip_version=IPVersion.V4Only)
        announcer = Announcer(
            name,
            self.addresses,
            port,
            preset=preset,
            room_id=room_id,
            free=free,
            table=table,
            zeroconf=self._zc,
        )
        await announcer.start()
        self._announcers = [a for a in self._announcers if not a.closed] + [announcer]
        if self._follow is not None and self._follower is None:
            self._follower = asyncio.create_task(self._follow_addresses(self._follow))
        return announcer

    async def _follow_addresses(self, current: Callable[[], list[str]]) -> None:
        while True:
            await asyncio.sleep(self._poll)
            try:
                addresses = current()
                if sorted(addresses) != sorted(self.addresses):
                    await self._move(addresses)
            except Exception:  # an interface in flux: try again at the next poll
                self.addresses = []

    async def _move(self, addresses: list[str]) -> None:
        """Say goodbye on the old addresses (where they still work) and announce every
        table on the new ones."""
        new = AsyncZeroconf(interfaces=addresses, ip_version=IPVersion.V4Only)
        old, self._zc, self.addresses = self._zc, new, addresses
        if old is not None:
            with contextlib.suppress(Exception):
                await old.async_unregister_all_services()
            with contextlib.suppress(Exception):
                await old.async_close()
        self._announcers = [a for a in self._announcers if not a.closed]
        for announcer in self._announcers:
            await announcer.move(new, addresses)
        self.moves += 1

    async def close(self) -> None:
        if self._follower is not None:
            self._follower.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._follower
            self._follower = None
        zc, self._zc = self._zc, None
        if zc is None:
            return
        with contextlib.suppress(Exception):
            await zc.async_unregister_all_services()
        await zc.async_close()


class TableBrowser:
    """Tables found on the LAN, kept up to date; ``on_change`` is called on every change."""

    def __init__(
        self,
        interfaces: Sequence[str],
        on_change: Callable[[TableBrowser], None] | None = None,
    ) -> None:
        self.interfaces = list(interfaces)
        self.tables: dict[str, TableInfo] = {}
        self.on_change = on_change
        self._zc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._pending: set[asyncio.Task[None]] = set()
        self._changed = asyncio.Event()

    async def start(self) -> None:
        self._zc = AsyncZeroconf(interfaces=self.interfaces, ip_version=IPVersion.V4Only)
        self._browser = AsyncServiceBrowser(
            self._zc.zeroconf, [SERVICE_TYPE], handlers=[self._on_state_change]
        )

    def _on_state_change(
        self,
        zeroconf: object,  # noqa: ARG002 (zeroconf passes its handler arguments by name)
        service_type: str,
        name: str,
        state_change: ServiceStateChange,
    ) -> None:
        # Called inside zeroconf's loop: never block; keep a reference to the task.
        if state_change is ServiceStateChange.Removed:
            if self.tables.pop(name, None) is not None:
                self._notify()
            return
        task = asyncio.ensure_future(self._resolve(service_type, name))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _resolve(self, service_type: str, name: str) -> None:
        assert self._zc is not None
        info = AsyncServiceInfo(service_type, name)
        if not await info.async_request(self._zc.zeroconf, 3000):
            return
        table = parse_table(name, info, self.interfaces)
        if table is not None:
            self.tables[name] = table
            self._notify()

    def _notify(self) -> None:
        self._changed.set()
        if self.on_change is not None:
            self.on_change(self)

    async def wait_for_change(self, timeout: float) -> bool:
        self._changed.clear()
        try:
            await asyncio.wait_for(self._changed.wait(), timeout)
        except TimeoutError:
            return False
        return True

    def mark_stale(self, instance: str) -> None:
        """A connection to this table failed: show it as stale rather than trust it."""
        table = self.tables.get(instance)
        if table is not None and not table.stale:
            self.tables[instance] = replace(table, stale=True)
            self._notify()

    def listed(self) -> list[TableInfo]:
        """Live tables first, then by name."""
        return sorted(self.tables.values(), key=lambda t: (t.stale, t.name, t.instance))

    async def close(self) -> None:
        for task in list(self._pending):
            task.cancel()
        if self._browser is not None:
            with contextlib.suppress(Exception):
                await self._browser.async_cancel()
        if self._zc is not None:
            await self._zc.async_close()
        self._zc = self._browser = None


class TableLocator:
    """Where a table this client has joined is announced now, for a client whose host stopped
    answering at the address it joined (the host got a new DHCP lease, or moved from Wi-Fi
    to a cable): browses for the table's public room id and number. A hint, as all of
    discovery: the handshake there (a RESUME, a screen's pairing) proves the host."""

    def __init__(self, interfaces: Sequence[str], room_id: bytes, table: int = 1) -> None:
        self.room, self.table = room_id.hex(), table
        self._browser = TableBrowser(interfaces)

    async def start(self) -> None:
        """Start browsing; an interface that is gone leaves it finding nothing."""
        try:
            await self._browser.start()
        except Exception:  # no discovery now: the address it knows is tried on
            await self.close()

    def endpoints(self) -> list[tuple[str, int]]:
        """Every (address, port) the table is announced at, the best address first."""
        found: list[tuple[str, int]] = []
        for info in self._browser.listed():
            if info.room == self.room and info.table == self.table:
                for address in (info.address, *info.addresses):
                    if (address, info.port) not in found:
                        found.append((address, info.port))
        return found

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self._browser.close()


def parse_table(
    instance: str, info: AsyncServiceInfo, local: Sequence[str] = ()
) -> TableInfo | None:
    """A TableInfo from resolved records, or None if they are not a lanuno table we speak."""
    props = {
        (k.decode("ascii", "replace") if isinstance(k, bytes) else str(k)): (
            v.decode("utf-8", "replace") if isinstance(v, bytes) else ""
        )
        for k, v in (info.properties or {}).items()
    }
    if props.get("v") != PROTOCOL_GENERATION:
        return None
    addresses = info.parsed_addresses(IPVersion.V4Only)
    if not addresses or info.port is None:
        return None
    try:
        free = int(props.get("free", "0"))
    except ValueError:
        free = 0
    name = props.get("name") or instance.removesuffix("." + SERVICE_TYPE)
    number = props.get("table", "1")
    table = int(number) if number.isdigit() and 1 <= int(number) <= 32 else 1
    return TableInfo(
        instance,
        name,
        pick_address(addresses, local),
        info.port,
        free,
        props.get("preset", "?"),
        props.get("room", ""),
        addresses=tuple(addresses),
        table=table,
    )


async def probe(address: str, port: int, timeout: float = 1.5) -> bool:
    """Does anything accept a TCP connection there? (A refused table is stale.)"""
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(address, port), timeout)
    except (OSError, TimeoutError):
        return False
    writer.close()
    with contextlib.suppress(Exception):
        await writer.wait_closed()
    return True
