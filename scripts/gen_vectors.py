"""Write protocol/vectors/*.json from fixed inputs (fixed randomness).

    python scripts/gen_vectors.py            # rewrite the vectors
    python scripts/gen_vectors.py --check    # exit 1 if the files differ from a fresh run

tests/wire/test_vectors.py replays every vector byte for byte.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from lanuno.wire.connection import ClientConnection, HandshakeComplete, HostConnection
from lanuno.wire.crypto import RoomCodeGuard, counter_drbg
from lanuno.wire.fairness import (
    FairShuffler,
    client_seed_commitment,
    combine_seeds,
    deal_purpose,
    host_seed_commitment,
)
from lanuno.wire.framing import pad
from lanuno.wire.messages import Ack, Event, Hello, Message, State, UnoFlags, encode

VECTORS = Path(__file__).resolve().parent.parent / "protocol" / "vectors"
ROOM_ID = bytes.fromhex("00112233445566778899aabbccddeeff")
ROOM_CODE = "482915"

CANONICAL_DECK = (
    [c + r for c in "RYGB" for r in ["0"] + [str(n) for n in range(1, 10) for _ in (0, 1)]
     + [a for a in ("S", "R", "+2") for _ in (0, 1)]]
    + ["W"] * 4 + ["W+4"] * 4
)  # fmt: skip
"""lanuno.engine.cards.build_deck(DeckKind.STANDARD) as codes (a test checks they agree)."""


def handshake() -> tuple[dict[str, Any], ClientConnection, HostConnection]:
    guard = RoomCodeGuard(counter_drbg(b"guard"), code=ROOM_CODE)
    host = HostConnection(guard, ROOM_ID, counter_drbg(b"vector host"), lambda s, g: None)
    client = ClientConnection.join(ROOM_CODE, counter_drbg(b"vector client"), seat=2)
    steps: list[dict[str, str]] = []
    done: dict[str, HandshakeComplete] = {}
    for sender, receiver in [(client, host), (host, client), (client, host), (host, client),
                             (client, host), (host, client)]:  # fmt: skip
        data = sender.data_to_send()
        steps.append({"from": sender.role.value, "hex": data.hex()})
        for event in receiver.receive_data(data):
            assert isinstance(event, HandshakeComplete)
            done[receiver.role.value] = event
    transcript = bytes.fromhex("".join(s["hex"] for s in steps[:4]))
    assert client._keys is not None and host._keys is not None
    keys = client._keys
    vector = {
        "description": "JOIN with room code 482915, seat 2; randomness = counter_drbg(seed).",
        "room_code": ROOM_CODE,
        "room_id": ROOM_ID.hex(),
        "host_random_seed": b"vector host".hex(),
        "client_random_seed": b"vector client".hex(),
        "steps": steps,
        "transcript_hash": hashlib.sha256(transcript).hexdigest(),
        "keys": {
            "c2h_key": keys.c2h_key.hex(),
            "h2c_key": keys.h2c_key.hex(),
            "c2h_confirm": keys.c2h_confirm.hex(),
            "h2c_confirm": keys.h2c_confirm.hex(),
            "sas": f"{keys.check_number:06d}",
            "resume_next": keys.resume_next.hex(),
        },
    }
    assert done["client"].check_number == done["host"].check_number == keys.check_number
    return vector, client, host


def frames(client: ClientConnection, host: HostConnection) -> dict[str, Any]:
    messages: list[tuple[str, Message]] = [
        (
            "client",
            Hello(
                versions=(1,),
                name="Ann",
                age=9,
                kid=True,
                seed_commit=client_seed_commitment(b"\x07" * 32),
            ),
        ),
        (
            "host",
            State(
                sid=1,
                round=1,
                hand=("R7", "G+2", "W", "B0", "YS", "W+4", "R1"),
                counts=(7, 7, 7),
                top="R3",
                color="R",
                direction=1,
                turn=2,
                actor=2,
                phase="turn",
                pending=0,
                legal=("play R7", "play W", "play W+4", "play R1", "draw"),
                uno=(UnoFlags(False, False),) * 3,
                scores=(0, 0, 0),
                draw_pile=86,
                discard_count=1,
                deadline_ms=30000,
                dealer=1,
            ),
        ),
        ("host", Event(sid=1, type="played", fields={"seat": 0, "card": "R3"})),
        ("host", Ack(seq=1)),
    ]
    out = []
    for sender_name, message in messages:
        sender = client if sender_name == "client" else host
        assert sender.tx is not None
        counter = sender.tx.counter
        payload, floor = encode(message)
        out.append({
            "from": sender_name, "type": message.TYPE, "counter": counter,
            "msgpack": payload.hex(), "padded_plaintext_length": len(pad(payload, floor)),
            "frame": sender.send(message).hex(),
        })  # fmt: skip
    return {"description": "Frames sent right after the handshake vector, in order.",
            "frames": out}  # fmt: skip


def shuffle() -> dict[str, Any]:
    host_seed = bytes(range(32))
    client_seeds = {0: b"\xaa" * 32, 2: b"\xbb" * 32}
    round_seed = combine_seeds(ROOM_ID, 1, host_seed, client_seeds)
    deck = list(CANONICAL_DECK)
    shuffler = FairShuffler(round_seed)
    shuffler.shuffle(deck, deal_purpose(1))
    return {
        "description": "Round 1 of room_id; the canonical deck is the engine's standard order.",
        "room_id": ROOM_ID.hex(),
        "round": 1,
        "host_seed": host_seed.hex(),
        "host_commit": host_seed_commitment(ROOM_ID, 1, host_seed).hex(),
        "client_seeds": {str(s): v.hex() for s, v in client_seeds.items()},
        "client_commits": {
            str(s): client_seed_commitment(v).hex() for s, v in client_seeds.items()
        },
        "round_seed": round_seed.hex(),
        "canonical_deck": CANONICAL_DECK,
        "deal_purpose": deal_purpose(1),
        "dealt_deck": deck,
        "below": [
            {"n": n, "purpose": p, "value": shuffler.below(n, p)}
            for n, p in [(4, "first dealer"), (108, "round 1 reshuffle 1"), (2**64, "x"), (1, "y")]
        ],
    }


def build() -> dict[str, str]:
    vector, client, host = handshake()
    files = {
        "handshake.json": vector,
        "frames.json": frames(client, host),
        "shuffle.json": shuffle(),
    }
    return {name: json.dumps(body, indent=2) + "\n" for name, body in files.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    stale = []
    for name, text in build().items():
        path = VECTORS / name
        if args.check:
            if not path.exists() or path.read_text() != text:
                stale.append(name)
        else:
            path.write_text(text)
    if stale:
        print("stale vectors:", ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
