"""Wire cost against bare msgpack, measured in the same run (no pass/fail: figures only).

    python scripts/bench_wire.py [--rounds N]

Pipeline timed: a typical per-seat ``state`` message through encode (to_wire + packb +
padding floor), pad, encrypt, decrypt, unpad, decode (limited unpackb) and validate into a
``State``. Reference: ``msgpack.unpackb(msgpack.packb(d))`` of the same dict. The last two
lines are ``wire_vs_msgpack_ratio: X`` (target <= 3) and ``handshake_host_ms: Y``
(target <= 20, the host's share of a JOIN: both SPAKE2 steps, key schedule, confirmation).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

import msgpack

from lanuno.wire.connection import ClientConnection, HostConnection
from lanuno.wire.crypto import RoomCodeGuard
from lanuno.wire.framing import FrameOpener, FrameSealer
from lanuno.wire.messages import Role, State, UnoFlags, decode, encode

STATE = State(
    sid=4711, round=2, hand=("R7", "G+2", "BS", "W", "W+4", "Y0", "B9"), counts=(7, 5, 6, 3),
    top="R3", color="R", direction=1, turn=0, actor=0, phase="turn", pending=0,
    legal=("play R7", "play W", "play W+4", "draw"), uno=(UnoFlags(False, False),) * 4,
    scores=(0, 120, 40, 0), draw_pile=60, discard_count=20, deadline_ms=25000, dealer=3,
)  # fmt: skip


def best_of(repeats: int, rounds: int, fn: Callable[[], object]) -> float:
    """Best mean seconds per call over ``repeats`` batches (least disturbed by the machine)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(rounds):
            fn()
        times.append((time.perf_counter() - start) / rounds)
    return min(times)


def handshake_host_seconds() -> float:
    guard = RoomCodeGuard(os.urandom)
    host = HostConnection(guard, os.urandom(16), os.urandom, lambda _s, _g: None)
    client = ClientConnection.join(guard.code, os.urandom)
    spent = 0.0
    while not (host.closed or client.closed) and (host.phase.value != "open"):
        data = client.data_to_send()
        start = time.perf_counter()
        host.receive_data(data)
        reply = host.data_to_send()
        spent += time.perf_counter() - start
        client.receive_data(reply)
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5000)
    args = parser.parse_args()
    key = os.urandom(32)
    sealer, opener = FrameSealer(key, b"aad"), FrameOpener(key, b"aad")
    wire = STATE.to_wire()

    def reference() -> object:
        return msgpack.unpackb(msgpack.packb(wire))

    def pipeline() -> object:
        payload, floor = encode(STATE)
        buffer = bytearray(sealer.seal(payload, floor))
        received = opener.open_next(buffer)
        assert received is not None
        return decode(received, Role.HOST)

    assert pipeline() == STATE
    ref = best_of(5, args.rounds, reference)
    ours = best_of(5, args.rounds, pipeline)
    payload, floor = encode(STATE)
    frame_len = len(sealer.seal(payload, floor))
    hs = statistics.median(handshake_host_seconds() for _ in range(15))
    print(f"state msgpack bytes:      {len(payload)}")
    print(f"state frame bytes:        {frame_len}")
    print(f"msgpack round trip:       {ref * 1e6:8.2f} us")
    print(f"wire round trip:          {ours * 1e6:8.2f} us")
    print(f"wire_vs_msgpack_ratio: {ours / ref:.2f}")
    print(f"handshake_host_ms: {hs * 1e3:.2f}")


if __name__ == "__main__":
    main()
