"""Hostile-network figures on loopback (no pass/fail: figures only; issue 11, items 6, 10).

    python scripts/bench_hostile.py [--seconds 20] [--addresses 40]

Two bounded runs against one in-process host on 127.0.0.1, the attackers using several
127.0.x.y source addresses (all of 127/8 is loopback on Linux; nothing leaves the machine):

  * guessing: ``--addresses`` addresses run wrong-code JOINs back to back for ``--seconds``;
    an honest player reads the code and joins every 2 s. Printed: failed JOINs per minute,
    code rotations, honest joins that got in and their median time, and the reference: the
    same honest join time with nobody guessing, measured in the same run.
  * idle flood: 200 idle sockets from 50 addresses, then 20 honest joins one after another.
    Printed: how many got in, median join time vs the quiet reference.

Last lines:
    guesses_per_minute: X
    honest_join_vs_quiet_ratio: Y     (join time under guessing / quiet join time)
    idle_flood_joins: N/20
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lanuno.engine.rules import preset
from lanuno.host.table import Table, TableConfig
from lanuno.net.client import ClientTiming, NetClientSession
from lanuno.net.server import ServerLimits, TableServer
from lanuno.wire.connection import ClientConnection, HandshakeComplete
from lanuno.wire.errors import ProtocolError

TIMING = ClientTiming(backoff=(0.05, 0.3), reconnect_for=5.0)


async def serve() -> tuple[Table, TableServer]:
    table = Table(TableConfig(rules=preset("official")), os.urandom, rng=random.Random(1))
    server = TableServer(table, limits=ServerLimits(rate=5000, burst=5000))
    await server.start()
    return table, server


async def honest_join(server: TableServer, code: str, name: str) -> float | None:
    """Seconds until seated, or None if refused."""
    start = time.perf_counter()
    session = NetClientSession("127.0.0.1", server.port, code, name, timing=TIMING)
    try:
        await session.connect()
        for _ in range(500):
            if session.seat is not None:
                break
            await asyncio.sleep(0.005)
    except Exception as error:
        print("honest:", repr(error)[:200])
        return None
    finally:
        await session.close()
    return time.perf_counter() - start if session.seat is not None else None


async def guess(port: int, code: str, ip: str) -> bool:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(ip, 0))
    conn = ClientConnection.join(code, os.urandom)
    writer.write(conn.data_to_send())
    try:
        while data := await reader.read(65536):
            events = conn.receive_data(data)
            writer.write(conn.data_to_send())
            if any(isinstance(e, HandshakeComplete) for e in events):
                return True
        conn.receive_data(b"")
    except ProtocolError:
        pass
    finally:
        writer.close()
    return False


async def guessing(seconds: float, addresses: int) -> tuple[float, float, float]:
    table, server = await serve()
    quiet = [await honest_join(server, table.room_code, f"Q{i}") for i in range(5)]
    for _ in range(len(table.slots)):
        table.remove_seat(0)
    server.pump()
    # The guessers run in their own process, as they would on other machines.
    attack = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--attack", str(server.port), table.room_code,
        str(addresses), str(seconds + 5), stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    start_failures = table.guard.total_failures
    begin = time.perf_counter()
    times: list[float | None] = []
    await asyncio.sleep(1.0)  # the guessing is under way
    while time.perf_counter() - begin < seconds:
        await asyncio.sleep(1.0)
        seat_count = len(table.slots)
        times.append(await honest_join(server, table.room_code, f"H{len(times)}"))
        if len(table.slots) > seat_count:
            table.remove_seat(len(table.slots) - 1)
            server.pump()
    elapsed = time.perf_counter() - begin
    out, _ = await attack.communicate()
    successes = int(out.decode().split()[-1])
    failures = table.guard.total_failures - start_failures
    rotations = server.code_rotations
    await server.close()
    got_in = [t for t in times if t is not None]
    quiet_ok = [t for t in quiet if t is not None]
    quiet_ms = statistics.median(quiet_ok) * 1000
    under_ms = statistics.median(got_in) * 1000 if got_in else float("nan")
    per_minute = failures / elapsed * 60
    print(f"guessing: {addresses} addresses for {elapsed:.1f} s: {failures} failed JOINs "
          f"({per_minute:.0f}/min), {successes} successes, {rotations} code rotations")  # fmt: skip
    print(f"honest joins under guessing: {len(got_in)}/{len(times)} in, median {under_ms:.0f} ms "
          f"(quiet reference: median {quiet_ms:.1f} ms)")  # fmt: skip
    return per_minute, under_ms / quiet_ms, len(got_in) / max(1, len(times))


async def idle_flood() -> int:
    table, server = await serve()
    idle = []
    for host in range(2, 52):
        for _ in range(4):
            idle.append((await asyncio.open_connection(
                "127.0.0.1", server.port, local_addr=(f"127.0.0.{host}", 0)))[1])  # fmt: skip
    ok = 0
    for i in range(20):
        if await honest_join(server, table.room_code, f"P{i}") is not None:
            ok += 1
        if len(table.slots) >= 9:
            table.remove_seat(0)
            server.pump()
    for writer in idle:
        writer.close()
    await server.close()
    print(f"idle flood: 200 idle sockets from 50 addresses; {ok}/20 honest joins got in")
    return ok


async def attack(port: int, code: str, addresses: int, seconds: float) -> None:
    """The guessers (a separate process): wrong codes back to back until ``seconds``."""
    end = time.perf_counter() + seconds
    successes = 0

    async def attacker(ip: str, k: int) -> None:
        nonlocal successes
        while time.perf_counter() < end:
            wrong = f"{(int(code) + 1 + k) % 10**6:06d}"
            try:
                successes += await guess(port, wrong, ip)
            except OSError:
                await asyncio.sleep(0.01)

    ips = [f"127.0.{1 + i // 200}.{2 + i % 200}" for i in range(addresses)]
    await asyncio.gather(*(attacker(ip, k) for k, ip in enumerate(ips)))
    print(successes, flush=True)


async def main(args: argparse.Namespace) -> None:
    per_minute, ratio, _ = await guessing(args.seconds, args.addresses)
    joined = await idle_flood()
    print(f"guesses_per_minute: {per_minute:.0f}")
    print(f"honest_join_vs_quiet_ratio: {ratio:.1f}")
    print(f"idle_flood_joins: {joined}/20")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--attack"]:
        port, code, count, seconds = sys.argv[2:6]
        asyncio.run(attack(int(port), code, int(count), float(seconds)))
        sys.exit(0)
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--addresses", type=int, default=40)
    asyncio.run(main(parser.parse_args()))
