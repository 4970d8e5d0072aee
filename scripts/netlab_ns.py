"""A simulated LAN of network namespaces: one switch, a host and N clients.

Every node is a namespace of its own, wired to a bridge that lives in a separate "switch"
namespace, so no packet ever touches this machine's real network (NETWORK HYGIENE in
DESIGN.md). Names are unique per run and everything is deleted on exit, even on failure
(context manager, atexit and SIGTERM). Netem is not available on the test kernels, so a
dropped link is emulated with ``ip link set ... down/up`` on the switch side.

    with NetLab(clients=3) as lab:
        host = lab.spawn("host", [sys.executable, "-m", "lanuno", "host", ...])
        lab.link_down("c0"); lab.link_up("c0")
"""

from __future__ import annotations

import atexit
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from types import FrameType, TracebackType

REPO = Path(__file__).resolve().parents[1]


def unavailable_reason() -> str | None:
    """Why namespaces cannot be used here (None if they can)."""
    if sys.platform != "linux":
        return "network namespaces need Linux"
    if os.geteuid() != 0:
        return "network namespaces need root (run as root or in CI)"
    if shutil.which("ip") is None:
        return "iproute2 ('ip') is not installed"
    probe = f"lnprobe{secrets.token_hex(3)}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if made.returncode != 0:
        return f"cannot create a network namespace: {made.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return None


def _ip(*args: str) -> None:
    result = subprocess.run(["ip", *args], capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {result.stderr.strip()}")


class NetLab:
    def __init__(self, clients: int = 3, *, multicast_route: bool = True) -> None:
        tag = secrets.token_hex(3)
        self.tag = tag
        self.switch = f"lnsw{tag}"
        self.nodes = {"host": f"lnh{tag}", **{f"c{i}": f"lnc{i}{tag}" for i in range(clients)}}
        self.subnet = f"10.{200 + secrets.randbelow(50)}.{secrets.randbelow(250)}"
        self.addresses = {"host": f"{self.subnet}.1"}
        self.addresses |= {f"c{i}": f"{self.subnet}.{10 + i}" for i in range(clients)}
        self.ports = {name: f"p{index}{tag}" for index, name in enumerate(self.nodes)}
        self.processes: list[subprocess.Popen[bytes]] = []
        self.multicast_route = multicast_route
        """False: no route at all in the nodes (a LAN without a router, nothing set up for
        multicast); the programs must pick the interface themselves."""
        self.scratch = Path(tempfile.mkdtemp(prefix=f"netlab-{tag}-"))
        """A directory for this run's files (journals); removed with the lab."""
        self._up = False

    # -- lifecycle ---------------------------------------------------------------------

    def __enter__(self) -> NetLab:
        atexit.register(self.teardown)
        previous = signal.getsignal(signal.SIGTERM)

        def on_term(signum: int, frame: FrameType | None) -> None:
            self.teardown()
            if callable(previous):
                previous(signum, frame)
            raise SystemExit(143)

        signal.signal(signal.SIGTERM, on_term)
        try:
            self.build()
        except BaseException:
            self.teardown()
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.teardown()

    def build(self) -> None:
        self._up = True
        _ip("netns", "add", self.switch)
        _ip("-n", self.switch, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0")
        _ip("-n", self.switch, "link", "set", "br0", "up")
        for name, namespace in self.nodes.items():
            _ip("netns", "add", namespace)
            port = self.ports[name]
            _ip("-n", self.switch, "link", "add", port, "type", "veth",
                "peer", "name", "eth0", "netns", namespace)  # fmt: skip
            _ip("-n", self.switch, "link", "set", port, "master", "br0", "up")
            _ip("-n", namespace, "addr", "add", f"{self.addresses[name]}/24", "dev", "eth0")
            _ip("-n", namespace, "link", "set", "eth0", "up")
            _ip("-n", namespace, "link", "set", "lo", "up")
            if self.multicast_route:  # a multicast route that only leads to the bridge
                _ip("-n", namespace, "route", "add", "224.0.0.0/4", "dev", "eth0")

    def teardown(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.kill()
                process.wait()
        self.processes.clear()
        shutil.rmtree(self.scratch, ignore_errors=True)
        if not self._up:
            return
        self._up = False
        for namespace in [*self.nodes.values(), self.switch]:
            subprocess.run(["ip", "netns", "del", namespace], capture_output=True)

    # -- using it ----------------------------------------------------------------------

    def command(self, node: str, argv: Sequence[str]) -> list[str]:
        return ["ip", "netns", "exec", self.nodes[node], *argv]

    def spawn(self, node: str, argv: Sequence[str], **popen: object) -> subprocess.Popen[bytes]:
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        process: subprocess.Popen[bytes] = subprocess.Popen(  # type: ignore[call-overload]
            self.command(node, argv), env=env, **popen
        )
        self.processes.append(process)
        return process

    def unplug(self, node: str) -> None:
        """Take the node's network interface away (only loopback is left in it)."""
        _ip("-n", self.nodes[node], "link", "set", "eth0", "down")

    def link_down(self, node: str) -> None:
        _ip("-n", self.switch, "link", "set", self.ports[node], "down")

    def link_up(self, node: str) -> None:
        _ip("-n", self.switch, "link", "set", self.ports[node], "up")

    def readdress(self, node: str, address: str) -> None:
        """Give the node another address on the lab's subnet, as a new DHCP lease does: the
        old one is gone, connections to it die."""
        namespace = self.nodes[node]
        _ip("-n", namespace, "addr", "flush", "dev", "eth0")
        _ip("-n", namespace, "addr", "add", f"{address}/24", "dev", "eth0")
        if self.multicast_route:  # the flush took the route with the address
            _ip("-n", namespace, "route", "replace", "224.0.0.0/4", "dev", "eth0")
        self.addresses[node] = address

    def leftovers(self) -> list[str]:
        """Namespaces of this lab still present (should be none after teardown)."""
        listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
        return [line.split()[0] for line in listed.splitlines() if self.tag in line]
