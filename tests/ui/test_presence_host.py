"""Issue 10 item 5 on the host side: every screen learns that a dropped player's seat is
held (``connected`` false), then played by a bot (``bot_playing``), then back."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))

from table_harness import Harness

from lanuno.engine.rules import preset
from lanuno.host.table import Table, TableConfig
from lanuno.wire.messages import Lobby


def test_the_other_player_sees_away_then_bot_playing_then_back() -> None:
    h = Harness(Table(TableConfig(rules=preset("official")), os.urandom, rng=random.Random(7)))
    ann, bob = h.join("Ann"), h.join("Bob")
    h.table.start(h.now)
    h.pump()

    def bob_as_ann_sees() -> tuple[bool, bool]:
        lobby = [m for m in ann.inbox if isinstance(m, Lobby)][-1]
        seat = lobby.seats[bob.seat]
        return seat.connected, seat.bot_playing

    assert bob_as_ann_sees() == (True, False)
    h.drop(bob)
    assert bob_as_ann_sees() == (False, False)  # away: the seat is held
    h.advance(31.0)
    assert h.table.bot_controlled(bob.seat)
    assert bob_as_ann_sees() == (False, True)  # the bot stepped in, and everyone knows
    back = h.resume(bob)
    assert back.seat == bob.seat
    assert bob_as_ann_sees() == (True, False)


def test_a_lobby_seat_from_an_older_host_reads_as_not_bot_playing() -> None:
    from lanuno.wire.messages import LobbySeat

    old = {"name": "Max", "kind": "human", "kid": False, "connected": False, "ready": True}
    seat = LobbySeat.from_wire({**old, "check": None})
    assert seat.bot_playing is False
    assert LobbySeat.from_wire({**old, "check": None, "bot_playing": True}).bot_playing


def test_the_lobby_tells_whether_the_table_starts_itself() -> None:
    """A headless host (``auto_start``) says so; a lobby from an older host reads as not."""
    for auto in (False, True):
        config = TableConfig(rules=preset("official"), auto_start=auto)
        h = Harness(Table(config, os.urandom, rng=random.Random(7)))
        ann = h.join("Ann")
        h.pump()
        sent = [m for m in ann.inbox if isinstance(m, Lobby)][-1]
        assert sent.auto_start is auto
    wire = sent.to_wire()
    wire.pop("auto_start")
    assert Lobby.from_wire(wire).auto_start is False
