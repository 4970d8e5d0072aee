"""S1 over a real game: a sniffer on the wire sees no card and no hand.

Every byte between two players and the host passes through a tee proxy on 127.0.0.1
while a whole game is played (scripted players plus bots). The capture must hold none of
what a plaintext msgpack frame would carry: card codes as msgpack strings (two in a row,
as in a hand or a deck), action notations, or field names of the state message. Short
patterns are paired or prefixed so that a chance match in ciphertext is out of the
question (a 6-byte pattern is expected once per 2^48 bytes).
(The frame-length half of S1 is tests/wire/test_security.py.)
"""

from __future__ import annotations

import asyncio
import os
import random
import re

import pytest
from net_helpers import ScriptedPlayer, join

from lanuno.engine.cards import ALL_FACES
from lanuno.engine.rules import preset as rules_preset
from lanuno.engine.rules import with_options
from lanuno.host.table import Table, TableConfig
from lanuno.net.server import ServerLimits, TableControls, TableServer
from lanuno.wire.messages import GameEnd

pytestmark = pytest.mark.timeout(90)


def _fixstr(text: str) -> bytes:
    data = text.encode()
    return bytes([0xA0 | len(data)]) + data


CARD = b"(?:" + b"|".join(re.escape(_fixstr(card.code)) for card in ALL_FACES) + b")"
TWO_CARDS = re.compile(CARD + CARD)
"""Two msgpack card codes back to back: the shape of a hand, a deal or a deck."""
PLAINTEXT_MARKERS = [
    _fixstr(word) for word in ("hand", "legal", "counts", "draw_pile", "hand_dealt", "cards_drawn")
] + [_fixstr(f"play {card.code}") for card in ALL_FACES if len(f"play {card.code}") >= 6]


class TeeProxy:
    """Forwards 127.0.0.1:port <-> the server and records both directions."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.captured = bytearray()
        self.server: asyncio.Server | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        port: int = self.server.sockets[0].getsockname()[1]
        return port

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)

        async def pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    self.captured += data
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, asyncio.CancelledError):
                pass
            finally:
                dst.close()

        await asyncio.gather(pump(reader, up_writer), pump(up_reader, writer))

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()


async def test_S1_no_card_or_hand_in_cleartext_over_a_whole_game() -> None:
    rules = with_options(rules_preset("official"), ["target=none", "stacking", "jump_in"])
    config = TableConfig(rules=rules, next_round_after=0.0)
    table = Table(config, os.urandom, rng=random.Random(7))
    server = TableServer(table, limits=ServerLimits(rate=5000, burst=5000))
    await server.start()
    proxy = TeeProxy(server.port)
    port = await proxy.start()
    try:
        sessions = [await join(port, table.room_code, name) for name in ("Ann", "Bob")]
        controls = TableControls(server)
        await controls.add_bot("beginner")
        players = [ScriptedPlayer(s, i) for i, s in enumerate(sessions)]
        tasks = [asyncio.create_task(p.play()) for p in players]
        await controls.start()
        ends = await asyncio.wait_for(asyncio.gather(*tasks), 60)
        assert all(isinstance(end, GameEnd) for end in ends)
        # The players did see their cards: the capture is of a game with real hands.
        assert any(p.messages for p in players)
        for session in sessions:
            await session.close()
    finally:
        await proxy.close()
        await server.close()
    capture = bytes(proxy.captured)
    assert len(capture) > 10_000, "the proxy captured too little to mean anything"
    assert TWO_CARDS.search(capture) is None
    for marker in PLAINTEXT_MARKERS:
        assert marker not in capture, f"{marker!r} appears in cleartext"


def test_S1_the_detector_finds_a_hand_in_plaintext() -> None:
    """The same patterns do match an unencrypted state message, so the test above can fail."""
    from lanuno.wire.messages import State, UnoFlags, encode

    state = State(
        sid=1, round=1, hand=("R7", "G+2", "W"), counts=(3, 7), top="R3", color="R",
        direction=1, turn=0, actor=0, phase="turn", pending=0, legal=("play R7", "draw"),
        uno=(UnoFlags(False, False),) * 2, scores=(0, 0), draw_pile=80, discard_count=1,
        deadline_ms=None, dealer=1,
    )  # fmt: skip
    payload, _ = encode(state)
    assert TWO_CARDS.search(payload) is not None
    assert sum(marker in payload for marker in PLAINTEXT_MARKERS) >= 3
