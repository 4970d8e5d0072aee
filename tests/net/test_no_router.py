"""A LAN without a router (issue 10 item 4): no default route and no multicast route, yet
the host announces on every LAN interface and a joiner's browser finds it; a machine with
only loopback says so. Runs in network namespaces (scripts/netlab); the unit tests of the
interface choice touch no network at all."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import ifaddr
import pytest

from lanuno.net import discovery
from lanuno.net.discovery import (
    LOOPBACK,
    LocalInterface,
    discovery_addresses,
    lan_interfaces,
    pick_address,
)
from lanuno.ui.i18n import EN, FR

LOOPBACK_ONLY = EN["host.log.loopback"]
"""What a host with only loopback says in its log (English: the tests' language)."""
SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
sys.path.insert(0, str(SCRIPTS))
from netlab_ns import NetLab, unavailable_reason  # noqa: E402

REASON = unavailable_reason()
CODE = "161803"


def fake_adapters(monkeypatch: pytest.MonkeyPatch, adapters: dict[str, tuple[int, list]]) -> None:
    monkeypatch.setattr(
        ifaddr,
        "get_adapters",
        lambda: [
            ifaddr.Adapter(name, name, [ifaddr.IP(ip, prefix, name) for ip, prefix in ips])
            for name, (_, ips) in adapters.items()
        ],
    )
    monkeypatch.setattr(discovery, "_flags", lambda name: adapters[name][0])


UP_MULTICAST = 0x1003


def test_every_up_multicast_ipv4_interface_is_chosen_loopback_and_down_ones_never(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake_adapters(
        monkeypatch,
        {
            "lo": (0x9, [("127.0.0.1", 8)]),
            "wlan0": (UP_MULTICAST, [("192.168.1.20", 24), (("fe80::1", 0, 3), 64)]),
            "eth0": (UP_MULTICAST, [("169.254.7.9", 16)]),  # a cable, no DHCP
            "eth1": (0x1002, [("10.9.0.2", 24)]),  # down
            "tun0": (0x11, [("10.8.0.1", 24)]),  # no multicast
        },
    )
    assert lan_interfaces() == [
        LocalInterface("wlan0", "192.168.1.20", 24),
        LocalInterface("eth0", "169.254.7.9", 16),
    ]
    assert discovery_addresses(None) == ["192.168.1.20", "169.254.7.9"]
    assert discovery_addresses("10.9.0.2") == ["10.9.0.2"]  # --interface wins
    # A table announcing both of its networks: the joiner connects on the one it shares.
    assert pick_address(["10.0.0.5", "169.254.1.1"], ["169.254.7.9"]) == "169.254.1.1"
    assert pick_address(["10.0.0.5", "169.254.1.1"], [LOOPBACK]) == "10.0.0.5"


def test_only_loopback_is_said_plainly(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_adapters(monkeypatch, {"lo": (0x9, [("127.0.0.1", 8)])})
    assert discovery_addresses(None) == [LOOPBACK]
    assert "Only loopback" in LOOPBACK_ONLY
    assert "--interface" in LOOPBACK_ONLY
    assert "--interface" in FR["host.log.loopback"]


def host_command(lab: NetLab, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "lanuno",
        "host",
        "--headless",
        "--name",
        "no router",
        "--port",
        "7777",
        "--code",
        CODE,
        "--journal",
        str(lab.scratch / "table.journal"),
        *extra,
    ]


def wait_for_log(path: Path, needle: str, timeout: float) -> str:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        text = path.read_text(errors="replace") if path.exists() else ""
        if needle in text:
            return text
        time.sleep(0.05)
    raise AssertionError(f"no {needle!r} in the host's log:\n{text}")


@pytest.mark.system
@pytest.mark.skipif(REASON is not None, reason=f"netlab: {REASON}")
@pytest.mark.timeout(90)
def test_without_a_router_the_host_announces_on_the_lan_and_a_bare_join_finds_it() -> None:
    with NetLab(clients=1, multicast_route=False) as lab:
        routes = subprocess.run(
            lab.command("host", ["ip", "route", "show", "default"]),
            capture_output=True,
            text=True,
        ).stdout
        assert routes.strip() == ""  # no router: no default route
        log_path = lab.scratch / "host.log"
        log = open(log_path, "wb")  # noqa: SIM115 (closed with the lab's files)
        lab.spawn("host", host_command(lab), stdout=log, stderr=subprocess.STDOUT)
        text = wait_for_log(log_path, "players join with", 20)
        host_address = lab.addresses["host"]
        assert f"{host_address}:7777" in text
        assert "127.0.0.1:7777" not in text
        assert "Only loopback" not in text
        browser = lab.spawn(
            "c0",
            [sys.executable, str(SCRIPTS / "netlab_client.py"), "--discover-only"],
            stdout=subprocess.PIPE,
        )
        out, _ = browser.communicate(timeout=30)
        found = json.loads(out.decode().strip().splitlines()[-1])
        assert (found["address"], found["port"]) == (host_address, 7777)


@pytest.mark.system
@pytest.mark.skipif(REASON is not None, reason=f"netlab: {REASON}")
@pytest.mark.timeout(90)
def test_a_host_with_only_loopback_says_so() -> None:
    with NetLab(clients=0) as lab:
        lab.unplug("host")
        log_path = lab.scratch / "host.log"
        log = open(log_path, "wb")  # noqa: SIM115
        lab.spawn("host", host_command(lab), stdout=log, stderr=subprocess.STDOUT)
        # The warning is the line after the address: wait for it, not only the address.
        text = wait_for_log(log_path, LOOPBACK_ONLY, 30)
        assert "players join with: lanuno join 127.0.0.1:7777" in text
