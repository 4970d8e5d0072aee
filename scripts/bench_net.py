"""Network benchmark: a 10-seat table, every seat a real client connection on loopback.

Measures, in one run:
  * action latency: from a seat sending an action to the moment the last of the 10 seats
    has the resulting ``state`` (host in its own process: engine, redaction, msgpack,
    padding, AEAD per seat, journal; clients decrypt and validate);
  * the reference: a bare asyncio fan-out echo with the same shape (a server process, 10
    loopback connections, one sends 300 bytes, the server writes them to all 10), timed
    until the last connection has them;
  * the disk's floor under the journal (with the journal on): a 300-byte write and
    fdatasync, timed alone in the journal's folder; no action can be acknowledged faster,
    and its p99 bounds the action's p99 from below on this disk;
  * the host's resident memory with the 10 clients connected;
  * discovery: a browser started after the host, in the simulated LAN (scripts/netlab;
    skipped without root).

Everything is bounded (a fixed number of actions and a time limit) and stays on 127.0.0.1
or inside namespaces netlab creates. Last lines:
    action_latency_vs_echo_median: X      (target <= 2)
    action_latency_p99_ms: Y              (target <= 3)
    host_rss_mb: Z                        (target <= 60)
    discovery_ms: D | skipped             (target <= 500)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from lanuno.engine.rules import preset, with_options  # noqa: E402
from lanuno.host.table import Table, TableConfig  # noqa: E402
from lanuno.net.client import NetClientSession  # noqa: E402
from lanuno.net.journal_files import JournalWriter  # noqa: E402
from lanuno.net.server import ServerLimits, TableServer  # noqa: E402
from lanuno.wire.messages import GameEnd, Lobby, State  # noqa: E402

SEATS = 10
CODE = "135791"
ECHO_SIZE = 300


# ---------------------------------------------------------------------- server processes


async def serve_table(port_file: Path, journal: Path | None) -> None:
    rules = with_options(preset("official"), ["target=none"])
    config = TableConfig(rules=rules, auto_start=True, next_round_after=0.0)
    table = Table(config, os.urandom, room_code=CODE)
    writer = JournalWriter(journal) if journal else None
    server = TableServer(table, journal=writer, limits=ServerLimits(rate=1e6, burst=1e6))
    await server.start()
    port_file.write_text(str(server.port))
    await server.closed.wait()


async def serve_echo(port_file: Path) -> None:
    writers: list[asyncio.StreamWriter] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writers.append(writer)
        writer.write(b"!")  # registered: the fan-out reaches this connection from now on
        while data := await reader.read(65536):
            for other in writers:
                other.write(data)
        writers.remove(writer)

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port_file.write_text(str(server.sockets[0].getsockname()[1]))
    await asyncio.Event().wait()


def start_process(mode: str, *extra: str) -> tuple[subprocess.Popen[bytes], int]:
    port_file = Path(tempfile.mkstemp(prefix="bench-port-")[1])
    port_file.write_text("")
    process = subprocess.Popen(
        [sys.executable, __file__, mode, str(port_file), *extra],
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    for _ in range(400):
        text = port_file.read_text()
        if text:
            port_file.unlink()
            return process, int(text)
        time.sleep(0.025)
    process.kill()
    raise RuntimeError(f"{mode} server did not start")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


# ---------------------------------------------------------------------- measurements


async def measure_echo(port: int, rounds: int) -> list[float]:
    connections = [await asyncio.open_connection("127.0.0.1", port) for _ in range(SEATS)]
    # Every connection registered before the first send: one the server had not taken in
    # yet missed the payload, and the run waited for it for ever.
    for reader, _ in connections:
        await reader.readexactly(1)
    payload = os.urandom(ECHO_SIZE)
    samples: list[float] = []
    for _ in range(rounds):
        start = time.perf_counter()
        connections[0][1].write(payload)

        async def take(reader: asyncio.StreamReader) -> None:
            await reader.readexactly(ECHO_SIZE)

        await asyncio.gather(*(take(reader) for reader, _ in connections))
        samples.append(time.perf_counter() - start)
    for _, writer in connections:
        writer.close()
    return samples


async def measure_table(port: int, actions: int, time_limit: float) -> tuple[list[float], float]:
    sessions = [NetClientSession("127.0.0.1", port, CODE, f"seat {i}") for i in range(SEATS)]
    for session in sessions:
        await session.connect()
    sent_at: dict[int, float] = {}
    arrivals: dict[int, list[float]] = defaultdict(list)
    done = asyncio.Event()
    rng = random.Random(1)
    deadline = time.perf_counter() + time_limit
    seated = asyncio.Event()

    async def seat_loop(session: NetClientSession) -> None:
        ready = False
        async for message in session.updates():
            now = time.perf_counter()
            if isinstance(message, Lobby):
                humans = sum(1 for s in message.seats if s.kind == "human")
                if humans == SEATS and not ready:
                    ready = True
                    seated.set()
                    await session.set_ready(True)
            elif isinstance(message, GameEnd):
                ready = False
            elif isinstance(message, State):
                arrivals[message.sid].append(now)
                if len(sent_at) >= actions or now > deadline:
                    done.set()
                    continue
                if message.actor == session.seat and message.legal:
                    sent_at.setdefault(message.sid + 1, time.perf_counter())
                    await session.act(rng.choice(message.legal))

    tasks = [asyncio.create_task(seat_loop(s)) for s in sessions]
    await asyncio.wait_for(seated.wait(), 20)
    rss_sample = 0.0
    try:
        await asyncio.wait_for(done.wait(), time_limit + 10)
        await asyncio.sleep(0.2)
    finally:
        for task in tasks:
            task.cancel()
        rss_sample = -1.0
    samples = [
        max(arrivals[sid]) - start
        for sid, start in sent_at.items()
        if len(arrivals.get(sid, ())) == SEATS
    ]
    for session in sessions:
        await session.close()
    return samples, rss_sample


def discovery_ms() -> str:
    netlab = REPO / "scripts" / "netlab"
    result = subprocess.run(
        [sys.executable, str(netlab), "discovery"], capture_output=True, text=True, timeout=120
    )
    if result.returncode == 77:
        return "skipped"
    for line in result.stdout.splitlines():
        if "discovery_ms" in line:
            return f"{json.loads(line)['discovery_ms']:.0f}"
    return "skipped"


def measure_disk(directory: Path, rounds: int) -> list[float]:
    """The disk's own floor under the journal: a record-sized write and fdatasync, as the
    journal makes per action (no asyncio, no thread, no encryption), in the same folder."""
    path = directory / "disk-reference"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    samples = []
    try:
        for _ in range(rounds):
            started = time.perf_counter()
            os.write(fd, b"r" * ECHO_SIZE)
            os.fdatasync(fd)
            samples.append(time.perf_counter() - started)
    finally:
        os.close(fd)
        path.unlink()
    return samples


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def bench(args: argparse.Namespace) -> None:
    echo_process, echo_port = start_process("--echo-server")
    try:
        echo = await measure_echo(echo_port, args.actions)
    finally:
        echo_process.kill()
        echo_process.wait()
    journal_dir = Path(tempfile.mkdtemp(prefix="bench-net-"))
    disk = measure_disk(journal_dir, args.actions) if args.journal else []
    extra = ["--journal", str(journal_dir / "bench.journal")] if args.journal else []
    host, port = start_process("--table-server", *extra)
    try:
        table_samples, _ = await measure_table(port, args.actions, args.seconds)
        host_rss = rss_mb(host.pid)
    finally:
        host.terminate()
        host.wait(10)
        for path in journal_dir.iterdir():
            path.unlink()
        journal_dir.rmdir()
    if not table_samples:
        raise SystemExit("no complete action sample")
    echo_median = statistics.median(echo)
    action_median = statistics.median(table_samples)
    print(f"echo fan-out to {SEATS}: median {echo_median * 1e3:.3f} ms, "
          f"p99 {percentile(echo, 0.99) * 1e3:.3f} ms ({len(echo)} rounds)")  # fmt: skip
    print(f"action to last of {SEATS} seats: median {action_median * 1e3:.3f} ms, "
          f"p99 {percentile(table_samples, 0.99) * 1e3:.3f} ms ({len(table_samples)} actions, "
          f"journal {'fsync on' if args.journal else 'off'})")  # fmt: skip
    if disk:
        print(f"disk write + fdatasync: median {statistics.median(disk) * 1e3:.3f} ms, "
              f"p99 {percentile(disk, 0.99) * 1e3:.3f} ms ({len(disk)} records, the "
              "journal's floor)")  # fmt: skip
    print(f"action_latency_vs_echo_median: {action_median / echo_median:.2f}")
    print(f"action_latency_p99_ms: {percentile(table_samples, 0.99) * 1e3:.2f}")
    print(f"host_rss_mb: {host_rss:.1f}")
    print(f"discovery_ms: {discovery_ms() if args.discovery else 'skipped'}")


def main() -> None:
    if len(sys.argv) >= 3 and sys.argv[1] == "--table-server":
        journal = Path(sys.argv[4]) if len(sys.argv) >= 5 and sys.argv[3] == "--journal" else None
        asyncio.run(serve_table(Path(sys.argv[2]), journal))
        return
    if len(sys.argv) >= 3 and sys.argv[1] == "--echo-server":
        asyncio.run(serve_echo(Path(sys.argv[2])))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=600)
    parser.add_argument("--seconds", type=float, default=30.0, help="time limit for the table")
    parser.add_argument("--no-journal", dest="journal", action="store_false",
                        help="measure without the fsynced journal")  # fmt: skip
    parser.add_argument("--no-discovery", dest="discovery", action="store_false")
    asyncio.run(bench(parser.parse_args()))


if __name__ == "__main__":
    main()
