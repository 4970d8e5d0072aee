"""A scripted player for netlab: find the table (mDNS on the interface named, or on every
LAN interface without --interface; or an address), join, play random legal actions to the
end of the game, print one JSON line of results.

    python scripts/netlab_client.py --interface 10.1.2.10 --code 123456 --name Ann
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time

from lanuno.net.client import ClientTiming, NetClientSession
from lanuno.net.discovery import TableBrowser, TableLocator, discovery_addresses
from lanuno.wire.messages import Ack, ErrorReply, GameEnd, Lobby, State


async def discover(interface: str | None, timeout: float) -> tuple[str, int, float, int]:
    start = time.perf_counter()
    browser = TableBrowser(discovery_addresses(interface))
    await browser.start()
    try:
        end = asyncio.get_running_loop().time() + timeout
        while not browser.listed():
            left = end - asyncio.get_running_loop().time()
            if left <= 0:
                raise SystemExit("no table found")
            await browser.wait_for_change(left)
        table = browser.listed()[0]
        return table.address, table.port, (time.perf_counter() - start) * 1000, table.table
    finally:
        await browser.close()


async def main(args: argparse.Namespace) -> int:
    locate = None
    number = 1
    if args.address:
        host, _, port_text = args.address.rpartition(":")
        port, found_ms = int(port_text), None
    else:
        host, port, found_ms, number = await discover(args.interface, args.discover_timeout)

        def locate(room_id: bytes, table: int) -> TableLocator:
            # The host may have moved: look for the table where it is announced now.
            return TableLocator(discovery_addresses(args.interface), room_id, table)

    if args.discover_only:
        print(json.dumps({"discovery_ms": found_ms, "address": host, "port": port}), flush=True)
        return 0
    timing = ClientTiming(ping_interval=args.ping, silence_timeout=args.silence,
                          backoff=(0.1, 0.5), reconnect_for=60)  # fmt: skip
    session = NetClientSession(
        host, port, args.code, args.name, timing=timing, table=number, locate=locate
    )
    await session.connect()
    rng = random.Random(args.name)
    acked: set[int] = set()
    end: GameEnd | None = None
    seat = None
    print(json.dumps({"event": "joined", "discovery_ms": found_ms}), flush=True)
    ready = False
    async for message in session.updates():
        if isinstance(message, Lobby) and not ready:
            humans = sum(1 for s in message.seats if s.kind == "human")
            if humans >= args.wait_for:  # everyone is seated before anyone is ready
                ready = True
                await session.set_ready(True)
        if isinstance(message, Ack):
            acked.add(message.seq)
        if isinstance(message, GameEnd):
            end = message
            break
        if isinstance(message, State | ErrorReply):
            state = session.last_state
            if state is not None and state.actor == session.seat and state.legal:
                await asyncio.sleep(args.think)
                state = session.last_state
                if state is not None and state.actor == session.seat and state.legal:
                    await session.act(rng.choice(state.legal))
        seat = session.seat
    result = {
        "event": "done",
        "seat": seat,
        "scores": list(end.scores) if end else None,
        "reconnects": session.reconnects,
        "address": f"{session.host}:{session.port}",
        "acked": sorted(acked),
        "fair": {f"{game}.{rnd}": ok for (game, rnd), ok in session.fair_rounds.items()},
    }
    print(json.dumps(result, default=str), flush=True)
    await session.close()
    return 0 if end else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--interface")
    parser.add_argument("--address")
    parser.add_argument("--code", default="000000")
    parser.add_argument("--name", default="player")
    parser.add_argument("--think", type=float, default=0.0)
    parser.add_argument("--ping", type=float, default=5.0)
    parser.add_argument("--silence", type=float, default=15.0)
    parser.add_argument("--discover-timeout", type=float, default=10.0)
    parser.add_argument("--discover-only", action="store_true")
    parser.add_argument("--wait-for", type=int, default=1, help="players seated before ready")
    sys.exit(asyncio.run(main(parser.parse_args())))
