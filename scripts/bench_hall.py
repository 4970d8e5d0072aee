"""Hall benchmark: K tables of 10 seats in one host process, against K single-table hosts.

Every seat is a real client connection (``NetClientSession``: SPAKE2 join, AEAD frames,
the full client core) on 127.0.0.1; the clients run in several processes (a table's ten
seats share one, so one clock times them) so they are not the bottleneck. Per K and pace
it measures, in the same run:

  * action-to-all-seats latency: from a seat sending its action to the moment the last of
    the table's 10 seats has the resulting ``state`` (host: engine, redaction, journal
    group commit with fdatasync, AEAD per seat; clients: decrypt, validate);
  * host RSS (the one hall process; the K processes summed; worker processes included)
    and host CPU per action (user + system seconds of the host process(es) and their
    workers over the window / actions in it);
  * for ``hall`` one process serves the K tables (``lanuno host --tables K`` once it
    exists, else this script's stand-in: K ``TableServer`` on one event loop, built as
    ``lanuno host --headless`` builds its one); for ``procs`` K separate ``lanuno host
    --headless`` processes.

Paces: ``human`` (each seat acts 0.5 s after its turn starts) and ``full`` (at once, but
never past the host's per-connection rate limit of 20 messages a second: the clients keep
to 18). Also a flood figure: two tables in one hall, a misbehaving client flooding table
1 (handshakes with wrong codes, and a spectator that sends pings as fast as it can and
never reads, reconnecting when cut off) while table 2 plays at human pace: table 2's p99,
next to its p99 without the flood measured in the same run.

Bounded: a fixed window per measurement, every process killed at the end; loopback only.
``LANUNO_BENCH_PROFILE=DIR`` runs the hall host under cProfile (stats in DIR).
Last lines:
    hall_50_p99_ms: X      (target <= 20, human pace, 2 cores)
    hall_50_rss_mb: Y      (target <= 300)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import contextvars
import functools
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lanuno.wire.messages import State

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

SEATS = 10
CODE = "135791"
HUMAN_PACE = 0.5
SEAT_RATE = 18.0
"""Messages a second a seat sends at most at full speed (the host allows 20)."""
CLIENT_PROCESSES = 4
HOST_ARGS = [
    "--headless", "--no-mdns", "--interface", "127.0.0.1", "--code", CODE,
    "--option", "target=none", "--round-pause", "0.2",
]  # fmt: skip


# ---------------------------------------------------------------------- host processes


@functools.cache
def hall_available() -> bool:
    """Whether ``lanuno host`` serves several tables (the hall has landed)."""
    try:
        from lanuno.net import hall  # noqa: F401
    except ImportError:
        return False
    out = subprocess.run(
        [sys.executable, "-m", "lanuno", "host", "--help"],
        capture_output=True,
        text=True,
        env=_env(),
        check=False,
    ).stdout
    return "--tables" in out


def _env(probes: Path | None = None) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "XDG_STATE_HOME": tempfile.gettempdir()}
    if probes is not None:
        env["LANUNO_BENCH_PROBES"] = str(probes)
    return env


async def serve_stand_in(count: int, port_file: Path, journal_dir: Path) -> None:
    """The hall's stand-in: ``count`` tables on one loop, one port each, each built as
    ``lanuno host --headless`` builds its table (journal, default limits, auto start)."""
    from lanuno.engine.rules import preset, with_options
    from lanuno.host.table import Table, TableConfig
    from lanuno.net.journal_files import JournalWriter
    from lanuno.net.server import TableServer

    rules = with_options(preset("official"), ["target=none"])
    servers = []
    for number in range(count):
        config = TableConfig(
            name=f"table {number + 1}", rules=rules, auto_start=True, next_round_after=0.2
        )
        table = Table(config, os.urandom, room_code=CODE)
        journal = JournalWriter(journal_dir / f"table-{number + 1}.journal")
        server = TableServer(table, journal=journal)
        await server.start()
        servers.append(server)
    port_file.write_text(json.dumps([s.port for s in servers]))
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    for server in servers:
        await server.close()


def install_probes(out: Path) -> None:
    """Inside a host process: how late its event loop wakes (a 10 ms sleeper) and how long
    each group-commit pass keeps a table's messages waiting (submit to durable); written
    to ``out`` as JSON at exit. Tells the loop's own stalls from the disk's and from the
    machine's (clients, other processes)."""
    import atexit

    from lanuno.net import commit

    lags: list[tuple[float, float]] = []
    waits: list[tuple[float, float]] = []
    started: list[asyncio.AbstractEventLoop] = []
    tasks: list[asyncio.Task[None]] = []
    submit = commit.GroupCommit.submit

    async def sleeper() -> None:
        while True:
            before = time.monotonic()
            await asyncio.sleep(0.01)
            lags.append((before, time.monotonic() - before - 0.01))

    def timed_submit(self: Any, journal: Any, records: Any) -> Any:
        loop = asyncio.get_running_loop()
        if loop not in started:
            started.append(loop)
            tasks.append(loop.create_task(sleeper()))
        future = submit(self, journal, records)
        begun = time.monotonic()
        future.add_done_callback(lambda _f: waits.append((begun, time.monotonic() - begun)))
        return future

    commit.GroupCommit.submit = timed_submit  # type: ignore[method-assign]

    def dump() -> None:
        out.write_text(json.dumps({"lags": lags, "waits": waits}))

    atexit.register(dump)


def probe_line(path: Path, window: tuple[float, float]) -> str:
    """Host-side figures from ``install_probes`` within the measured window (empty if the
    host wrote none)."""
    if not path.exists():
        return ""
    data = json.loads(path.read_text())
    parts = []
    for name, key in (("loop lag", "lags"), ("commit wait", "waits")):
        values = [v for t, v in data[key] if window[0] <= t <= window[1]]
        if values:
            parts.append(
                f"{name} p50 {percentile(values, 0.5) * 1e3:.1f} / p99 "
                f"{percentile(values, 0.99) * 1e3:.1f} / max {max(values) * 1e3:.1f} ms"
            )
    return "host: " + "; ".join(parts)


def profiled(target: Any, *args: Any) -> None:
    """Run ``target(*args)`` under cProfile when LANUNO_BENCH_PROFILE names a directory."""
    probes = os.environ.get("LANUNO_BENCH_PROBES")
    if probes:
        install_probes(Path(probes))
    directory = os.environ.get("LANUNO_BENCH_PROFILE")
    if not directory:
        target(*args)
        return
    import cProfile

    profile = cProfile.Profile()

    def dump(*_: object) -> None:
        profile.disable()
        profile.dump_stats(str(Path(directory) / f"host-{os.getpid()}.prof"))
        os._exit(0)

    signal.signal(signal.SIGUSR1, dump)
    profile.enable()
    try:
        target(*args)
    finally:
        dump()


@dataclass
class Hosts:
    processes: list[subprocess.Popen[bytes]]
    endpoints: list[tuple[int, int | None, str]]
    """(port, table number or None, room code) per table."""
    scratch: Path
    probe: str = ""
    """The host's own figures (``install_probes``) in the window, once stopped."""
    window: tuple[float, float] = (0.0, float("inf"))

    def pids(self) -> list[int]:
        return [p.pid for p in self.processes]

    def stop(self) -> None:
        for process in self.processes:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGUSR1 if _profiling() else signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.probe = probe_line(self.scratch / "probes.json", self.window)
        shutil.rmtree(self.scratch, ignore_errors=True)


def _profiling() -> bool:
    return bool(os.environ.get("LANUNO_BENCH_PROFILE"))


def _free_ports(count: int) -> list[int]:
    import socket

    probes = [socket.socket() for _ in range(count)]
    try:
        for probe in probes:
            probe.bind(("127.0.0.1", 0))
        return [probe.getsockname()[1] for probe in probes]
    finally:
        for probe in probes:
            probe.close()


def _wait_listening(port: int, process: subprocess.Popen[bytes], timeout: float) -> None:
    import socket

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if process.poll() is not None:
            raise RuntimeError(f"host exited with {process.returncode}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"host on port {port} did not start")


def hall_kind(count: int) -> str:
    """What serves ``count`` tables in one process: the hall (up to its 32 tables, the
    protocol's limit) or the stand-in (K TableServers on one loop, one port each)."""
    from lanuno.wire.crypto import MAX_TABLES

    return "hall" if hall_available() and count <= MAX_TABLES else "stand-in"


def start_hall(count: int) -> Hosts:
    scratch = Path(tempfile.mkdtemp(prefix="bench-hall-"))
    if hall_kind(count) == "hall":
        (port,) = _free_ports(1)
        command = [
            sys.executable, __file__, "--run-lanuno", "host", *HOST_ARGS, "--tables",
            str(count), "--port", str(port), "--journal", str(scratch / "hall"),
        ]  # fmt: skip
        # Its log goes to a file: a pipe read by this busy process would block its prints.
        log = scratch / "host.log"
        with open(log, "w") as out:
            process = subprocess.Popen(command, env=_env(scratch / "probes.json"), stdout=out)
        codes: dict[int, str] = {}
        end = time.monotonic() + 60
        while len(codes) < count:
            if time.monotonic() > end or process.poll() is not None:
                process.kill()
                raise RuntimeError("the hall did not open its tables")
            time.sleep(0.05)
            # "... lanuno join ADDR --table N --code CODE" for each table
            for line in log.read_text().splitlines():
                words = line.split()
                if "join" in words and "--table" in words and "--code" in words:
                    table = int(words[words.index("--table") + 1])
                    codes[table] = words[words.index("--code") + 1]
        _wait_listening(port, process, 60)
        endpoints: list[tuple[int, int | None, str]] = [
            (port, n, codes[n]) for n in range(1, count + 1)
        ]
        return Hosts([process], endpoints, scratch)
    port_file = scratch / "ports"
    command = [sys.executable, __file__, "--stand-in", str(count), str(port_file), str(scratch)]
    process = subprocess.Popen(command, env=_env(scratch / "probes.json"))
    end = time.monotonic() + 60
    while not (port_file.exists() and port_file.read_text()):
        if time.monotonic() > end or process.poll() is not None:
            process.kill()
            raise RuntimeError("the hall stand-in did not start")
        time.sleep(0.05)
    ports = json.loads(port_file.read_text())
    return Hosts([process], [(p, None, CODE) for p in ports], scratch)


def start_processes(count: int) -> Hosts:
    scratch = Path(tempfile.mkdtemp(prefix="bench-procs-"))
    ports = _free_ports(count)
    processes = []
    for number, port in enumerate(ports):
        command = [
            sys.executable, "-m", "lanuno", "host", *HOST_ARGS, "--port", str(port),
            "--journal", str(scratch / f"table-{number + 1}.journal"),
        ]  # fmt: skip
        processes.append(subprocess.Popen(command, env=_env(), stdout=subprocess.DEVNULL))
    for port, process in zip(ports, processes, strict=True):
        _wait_listening(port, process, 120)
    return Hosts(processes, [(p, None, CODE) for p in ports], scratch)


def with_children(pids: list[int]) -> list[int]:
    """The processes and all their live descendants (the hall's worker pool counts)."""
    found, todo = [], list(pids)
    while todo:
        pid = todo.pop()
        found.append(pid)
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{pid}/task").iterdir():
                todo += [int(p) for p in (task / "children").read_text().split()]
    return found


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in with_children(pids):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total / 1024


def cpu_seconds(pids: list[int]) -> float:
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in with_children(pids):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


# ---------------------------------------------------------------------- client processes


def make_session(port: int, table: int | None, code: str, name: str) -> Any:
    from lanuno.client.session import ClientTiming
    from lanuno.net.client import NetClientSession

    timing = ClientTiming(backoff=(0.1, 0.5), reconnect_for=60.0)
    return NetClientSession("127.0.0.1", port, code, name, timing=timing, table=table or 1)


async def connected(port: int, table: int | None, code: str, name: str) -> Any:
    """A joined session; a host still starting (or spawning its worker) may be slow."""
    for attempt in range(5):
        session = make_session(port, table, code, name)
        try:
            await session.connect()
            return session
        except Exception:
            if attempt == 4:
                raise
            await asyncio.sleep(1.0)
    raise AssertionError("unreachable")


def connect_from_own_addresses() -> contextvars.ContextVar[str | None]:
    """Each seat connects from its own loopback address (set in the returned variable
    before connecting), as each player from their laptop: the host's per-address caps on
    handshakes are for one machine, not a whole party."""
    source: contextvars.ContextVar[str | None] = contextvars.ContextVar("source", default=None)
    plain_open = asyncio.open_connection

    async def open_from(host: str, port: int, **options: Any) -> Any:
        address = source.get()
        if address is not None and "local_addr" not in options:
            options["local_addr"] = (address, 0)
        return await plain_open(host, port, **options)

    asyncio.open_connection = open_from  # type: ignore[assignment]
    return source


async def join_seats(
    source: contextvars.ContextVar[str | None],
    subnet: int,
    table_name: str,
    endpoint: tuple[int, int | None, str],
) -> list[Any]:
    """A table's ten seats joined one after the other, each from its own address
    (127.1.``subnet``.seat)."""
    port, number, code = endpoint
    sessions = []
    for seat in range(SEATS):
        source.set(f"127.1.{subnet}.{seat + 1}")
        sessions.append(await connected(port, number, code, f"{table_name}s{seat}"))
    return sessions


@dataclass
class TableActions:
    """A table's actions, each timed from its seat sending it to the last of the ten seats
    having the state it makes (known by that state's ``sid``)."""

    pace: float
    rng: random.Random  # the client process's: one seeded sequence of choices
    sent_at: dict[int, float] = field(default_factory=dict)
    arrivals: defaultdict[int, list[float]] = field(default_factory=lambda: defaultdict(list))

    async def act(self, session: Any, state: State, not_before: float) -> None:
        """A random legal action on ``state`` after the pace (and not before ``not_before``,
        the seat's rate), unless the game moved on or the seat lost its connection."""
        wait = max(self.pace, not_before - time.monotonic())
        if wait > 0:
            await asyncio.sleep(wait)
        last = session.last_state
        if last is None or last.sid != state.sid or session.connection != "connected":
            return
        self.sent_at.setdefault(state.sid + 1, time.monotonic())
        await session.act(self.rng.choice(state.legal))

    def arrived(
        self, sid: int, now: float, window: list[float], samples: list[tuple[float, float]]
    ) -> None:
        """A seat has state ``sid``: with the last of them, the action that made it is a
        sample if it was sent in the window (``go`` read, ``stop`` not yet)."""
        got = self.arrivals[sid]
        got.append(now)
        start = self.sent_at.get(sid)
        if start is not None and len(got) == SEATS and len(window) == 1 and window[0] <= start:
            samples.append((start, max(got)))


async def run_clients(spec: dict[str, Any]) -> None:
    """One client process: the seats of its tables play until told to stop; prints one
    JSON line of samples (action sent at, last seat had it at) for actions sent in the
    window between ``go`` and ``stop`` (read from stdin)."""
    from lanuno.wire.messages import GameEnd, Lobby, State

    source = connect_from_own_addresses()
    pace: float = spec["pace"]
    rng = random.Random(spec["seed"])
    window: list[float] = []  # [go] then [go, stop]
    samples: list[tuple[float, float]] = []
    tables_started: set[int] = set()
    all_started = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    count = len(spec["tables"])

    async def play_table(index: int, port: int, number: int | None, code: str) -> None:
        endpoint = (port, number, code)
        sessions = await join_seats(source, spec["first"] + index, f"t{index}", endpoint)
        actions = TableActions(pace, rng)

        async def seat_loop(session: Any) -> None:
            ready = False
            next_ok = 0.0
            async for message in session.updates():
                now = time.monotonic()
                if isinstance(message, Lobby):
                    humans = sum(1 for s in message.seats if s.kind == "human")
                    if humans == SEATS and not ready:
                        ready = True
                        await session.set_ready(True)
                elif isinstance(message, GameEnd):
                    ready = False
                elif isinstance(message, State):
                    if index not in tables_started:
                        tables_started.add(index)
                        if len(tables_started) == count:
                            all_started.set()
                    actions.arrived(message.sid, now, window, samples)
                    if message.actor == session.seat and message.legal:
                        act = actions.act(session, message, next_ok)
                        asyncio.get_running_loop().create_task(act)
                        next_ok = max(now, next_ok) + 1.0 / SEAT_RATE

        await asyncio.gather(*(seat_loop(s) for s in sessions))

    for index, (port, number, code) in enumerate(spec["tables"]):
        tasks.append(asyncio.create_task(play_table(index, port, number, code)))
        await asyncio.sleep(0.02)  # joins spread a little, as people arrive
    await asyncio.wait_for(all_started.wait(), spec["start_timeout"])
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    await reader.readline()  # go
    window.append(time.monotonic())
    await reader.readline()  # stop
    window.append(time.monotonic())
    print(json.dumps({"samples": samples}), flush=True)
    for task in tasks:
        task.cancel()
    os._exit(0)  # the sessions' goodbyes do not matter here


@dataclass
class Figures:
    p50_ms: float = float("nan")
    p99_ms: float = float("nan")
    rss_mb: float = float("nan")
    cpu_ms_per_action: float = float("nan")
    actions: int = 0
    note: str = ""
    latencies: list[float] = field(default_factory=list, repr=False)

    def line(self) -> str:
        if self.note and not self.actions:
            return self.note
        return (
            f"p50 {self.p50_ms:7.2f} ms  p99 {self.p99_ms:7.2f} ms  rss {self.rss_mb:7.1f} MB  "
            f"cpu/action {self.cpu_ms_per_action:6.3f} ms  ({self.actions} actions){self.note}"
        )


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def measure(
    hosts: Hosts, pace: float, seconds: float, *, tables: list[int] | None = None
) -> Figures:
    """Clients for every table (or those listed), a window of ``seconds``, the figures."""
    chosen = tables if tables is not None else list(range(len(hosts.endpoints)))
    groups = [chosen[i::CLIENT_PROCESSES] for i in range(min(CLIENT_PROCESSES, len(chosen)))]
    clients = []
    for number, group in enumerate(groups):
        spec = {
            "tables": [hosts.endpoints[t] for t in group],
            "first": number * 64,
            "pace": pace,
            "seed": number,
            "start_timeout": 60 + 3 * len(chosen),
        }
        clients.append(
            subprocess.Popen(
                [sys.executable, __file__, "--clients", json.dumps(spec)],
                env=_env(),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
        )
    try:
        for client in clients:
            assert client.stdout is not None
            if client.stdout.readline().strip() != "ready":
                raise RuntimeError("a client process did not get its tables playing")
        time.sleep(min(2.0, seconds / 4))  # past the first deal
        cpu0 = cpu_seconds(hosts.pids())
        for client in clients:
            assert client.stdin is not None
            client.stdin.write("go\n")
            client.stdin.flush()
        start = time.monotonic()
        time.sleep(seconds)
        hosts.window = (start, time.monotonic())
        cpu1 = cpu_seconds(hosts.pids())
        rss = rss_mb(hosts.pids())
        latencies: list[float] = []
        for client in clients:
            assert client.stdin is not None
            assert client.stdout is not None
            client.stdin.write("stop\n")
            client.stdin.flush()
            result = json.loads(client.stdout.readline())
            latencies += [end - start for start, end in result["samples"]]
    finally:
        for client in clients:
            with contextlib.suppress(ProcessLookupError):
                client.kill()
            client.wait()
    if not latencies:
        return Figures(rss_mb=rss, note="no complete action in the window")
    return Figures(
        p50_ms=percentile(latencies, 0.5) * 1e3,
        p99_ms=percentile(latencies, 0.99) * 1e3,
        rss_mb=rss,
        cpu_ms_per_action=(cpu1 - cpu0) * 1e3 / len(latencies),
        actions=len(latencies),
        latencies=latencies,
    )


# ---------------------------------------------------------------------- the flood


FLOODER = ("127.0.0.66", 0)
"""The misbehaving client's address: another machine (failed codes block an address)."""


async def flood(port: int, table: int | None, code: str, stop: threading.Event) -> dict[str, int]:
    """A misbehaving client of one table: wrong-code handshakes, and a spectator that
    floods pings without reading (cut off, it comes back), until ``stop`` is set."""
    from lanuno.wire.connection import ClientConnection, HandshakeComplete
    from lanuno.wire.messages import Hello, Ping, encode

    counts = {"wrong_codes": 0, "flood_connections": 0, "pings": 0}

    async def wrong_codes() -> None:
        while not stop.is_set():
            with contextlib.suppress(Exception):
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=FLOODER
                )
                wrong = f"{(int(code) + 1) % 1_000_000:06d}"
                conn = ClientConnection.join(wrong, os.urandom, table or 1)
                writer.write(conn.data_to_send())
                with contextlib.suppress(Exception):
                    while data := await asyncio.wait_for(reader.read(65536), 2):
                        conn.receive_data(data)
                        writer.write(conn.data_to_send())
                writer.close()
                counts["wrong_codes"] += 1
            await asyncio.sleep(0.01)

    async def pinger() -> None:
        while not stop.is_set():
            with contextlib.suppress(Exception):
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=FLOODER
                )
                conn = ClientConnection.join(code, os.urandom, table or 1)
                writer.write(conn.data_to_send())
                done = False
                while not done:
                    data = await asyncio.wait_for(reader.read(65536), 10)
                    if not data:
                        break
                    events = conn.receive_data(data)
                    writer.write(conn.data_to_send())
                    done = any(isinstance(e, HandshakeComplete) for e in events)
                if done:
                    counts["flood_connections"] += 1
                    hello = Hello(versions=(1,), name="flood", age=None, kid=False,
                                  seed_commit=os.urandom(32))  # fmt: skip
                    writer.write(conn.send(hello))
                    assert conn.tx is not None
                    n = 0
                    while not stop.is_set() and not writer.transport.is_closing():
                        writer.write(
                            b"".join(conn.tx.seal(*encode(Ping(n=n + i))) for i in range(50))
                        )
                        n += 50
                        counts["pings"] += 50
                        await asyncio.sleep(0.005)  # never reads what comes back
                writer.close()
            await asyncio.sleep(0.05)

    await asyncio.gather(wrong_codes(), wrong_codes(), pinger(), pinger())
    return counts


def flood_figures(seconds: float) -> tuple[Figures, Figures, dict[str, int]]:
    """Table 2 of a two-table hall at human pace: its figures in a quiet hall, then in a
    fresh hall whose table 1 is flooded by a misbehaving client (the seats of the first
    run are held for their players, hence a fresh hall)."""
    hosts = start_hall(2)
    try:
        quiet = measure(hosts, HUMAN_PACE, seconds, tables=[1])
    finally:
        hosts.stop()
    hosts = start_hall(2)
    counts: dict[str, int] = {}
    try:
        port, number, code = hosts.endpoints[0]
        stop = threading.Event()

        def run_flood() -> None:
            counts.update(asyncio.run(flood(port, number, code, stop)))

        flooder = threading.Thread(target=run_flood, daemon=True)
        flooder.start()
        time.sleep(1.0)
        flooded = measure(hosts, HUMAN_PACE, seconds, tables=[1])
    finally:
        stop.set()
        hosts.stop()
    flooder.join(30)
    return quiet, flooded, counts


# ---------------------------------------------------------------------- the join storm

STORM_TABLES = 10
STORM_JOINS = 100


async def storm(
    endpoints: list[tuple[int, int | None, str]], stop: threading.Event
) -> dict[str, int]:
    """Every 2 s, 100 JOIN handshakes at once (10 per table, each from its own loopback
    address, so the per-address cap does not turn them away) until ``stop`` is set."""
    from lanuno.wire.connection import ClientConnection, HandshakeComplete

    counts = {"joins_started": 0, "joins_done": 0}

    async def one(index: int, port: int, table: int | None, code: str) -> None:
        counts["joins_started"] += 1
        writer = None
        with contextlib.suppress(Exception):
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(f"127.0.{index // 200}.{2 + index % 200}", 0)
            )
            conn = ClientConnection.join(code, os.urandom, table or 1)
            writer.write(conn.data_to_send())
            while data := await asyncio.wait_for(reader.read(65536), 10):
                events = conn.receive_data(data)
                writer.write(conn.data_to_send())
                if any(isinstance(e, HandshakeComplete) for e in events):
                    counts["joins_done"] += 1
                    break
        if writer is not None:
            writer.close()

    burst = 0
    while not stop.is_set():
        await asyncio.gather(
            *(
                one(burst * STORM_JOINS + i, *endpoints[i % len(endpoints)])
                for i in range(STORM_JOINS)
            )
        )
        burst += 1
        for _ in range(20):
            if stop.is_set():
                break
            await asyncio.sleep(0.1)
    return counts


def storm_figures(seconds: float, kinds: list[str]) -> list[tuple[str, Figures, dict[str, int]]]:
    """Table 1 of an 11-table hall at human pace, quiet, then while 100 joins arrive at
    once every 2 s at the 10 others, with the host's SPAKE2 in each kind of worker."""
    found = []
    for kind in ["quiet", *kinds]:
        if kind != "quiet":
            os.environ["LANUNO_WORKERS"] = kind
        hosts = start_hall(1 + STORM_TABLES)
        os.environ.pop("LANUNO_WORKERS", None)
        counts: dict[str, int] = {}
        stop = threading.Event()
        stormer = None
        try:
            if kind != "quiet":

                def run_storm(
                    endpoints: list[tuple[int, int | None, str]],
                    stop: threading.Event,
                    counts: dict[str, int],
                ) -> None:
                    counts.update(asyncio.run(storm(endpoints, stop)))

                stormer = threading.Thread(
                    target=run_storm, args=(hosts.endpoints[1:], stop, counts), daemon=True
                )
                stormer.start()
            figures = measure(hosts, HUMAN_PACE, seconds, tables=[0])
        finally:
            stop.set()
            if stormer is not None:
                stormer.join(30)
            hosts.stop()
        found.append((kind, figures, counts))
    return found


# ---------------------------------------------------------------------- main


def main() -> None:
    if len(sys.argv) >= 2 and sys.argv[1] == "--clients":
        asyncio.run(run_clients(json.loads(sys.argv[2])))
        return
    if len(sys.argv) >= 2 and sys.argv[1] == "--stand-in":
        count, port_file, journal_dir = int(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4])
        profiled(asyncio.run, serve_stand_in(count, port_file, journal_dir))
        return
    if len(sys.argv) >= 2 and sys.argv[1] == "--run-lanuno":
        from lanuno.cli import main as lanuno_main

        profiled(lanuno_main, sys.argv[2:])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--ks", default="1,10,25,32,50", help="table counts (default 1,10,25,32,50)"
    )
    parser.add_argument("--quick", action="store_true", help="K = 1,10, short windows")
    parser.add_argument("--seconds", type=float, default=15.0, help="window per measurement")
    parser.add_argument("--paces", default="human,full")
    parser.add_argument(
        "--procs-max", type=int, default=50, help="largest K measured as K separate processes"
    )
    parser.add_argument("--no-procs", action="store_true", help="skip the K-processes side")
    parser.add_argument("--no-flood", action="store_true")
    parser.add_argument(
        "--storm",
        default="process",
        help="join-storm figure with these SPAKE2 worker kinds (process,thread,inline; "
        "'none' to skip)",
    )
    args = parser.parse_args()
    ks = [int(k) for k in args.ks.split(",")]
    seconds = args.seconds
    if args.quick:
        ks, seconds = [k for k in ks if k <= 10] or [1], min(seconds, 6.0)
    paces = {"human": HUMAN_PACE, "full": 0.0}
    from lanuno.wire.crypto import MAX_TABLES

    print(f"hall: lanuno host --tables K (K <= {MAX_TABLES}; above: the stand-in, K "
          f"TableServers on one loop); procs: K x lanuno host --headless; window {seconds:g} s; "
          f"{os.cpu_count()} cores; clients in up to {CLIENT_PROCESSES} processes")  # fmt: skip
    results: dict[tuple[str, int, str], Figures] = {}
    for k in ks:
        for pace_name in args.paces.split(","):
            pace = paces[pace_name]
            hosts = start_hall(k)
            try:
                hall = measure(hosts, pace, seconds)
            finally:
                hosts.stop()
            results[("hall", k, pace_name)] = hall
            print(f"K={k:<3} {pace_name:5} {hall_kind(k):8}: {hall.line()}", flush=True)
            if hosts.probe:
                print(f"      {hosts.probe}", flush=True)
            if args.no_procs or k > args.procs_max:
                why = "skipped (--no-procs)" if args.no_procs else f"skipped (K > {args.procs_max})"
                print(f"K={k:<3} {pace_name:5} procs   : {why}", flush=True)
                continue
            hosts = start_processes(k)
            try:
                procs = measure(hosts, pace, seconds)
            finally:
                hosts.stop()
            results[("procs", k, pace_name)] = procs
            print(f"K={k:<3} {pace_name:5} procs   : {procs.line()}", flush=True)
    if not args.no_flood:
        quiet, flooded, counts = flood_figures(seconds)
        print(f"flood: table 2 without flood: {quiet.line()}")
        print(f"flood: table 2 while table 1 is flooded: {flooded.line()}")
        print(f"flood: {counts}")
        print(f"flood_other_table_p99_ms: {flooded.p99_ms:.2f} (quiet {quiet.p99_ms:.2f})")
    if args.storm != "none":
        for kind, figures, counts in storm_figures(seconds, args.storm.split(",")):
            print(f"storm: table 1 ({kind:7}): {figures.line()} {counts or ''}", flush=True)
    top = max(ks)
    headline = results.get(("hall", 50, "human")) or results.get(("hall", top, "human"))
    label = 50 if ("hall", 50, "human") in results else top
    if label != 50:
        print(f"(K=50 not measured: the last lines give K={label})")
    p99 = headline.p99_ms if headline else float("nan")
    rss = headline.rss_mb if headline else float("nan")
    print(f"hall_50_p99_ms: {p99:.2f}")
    print(f"hall_50_rss_mb: {rss:.1f}")


if __name__ == "__main__":
    main()
