"""The conformance kit (scripts/conformance.py) against our own host, and the spec facts it
relies on that are not on the wire."""

from __future__ import annotations

import os
import random

from lanuno.host.table import Table, TableConfig
from lanuno.net.discovery import txt_records


def test_discovery_free_does_not_count_bots_as_free_seats() -> None:
    """discovery.md: ``free`` is the seats nobody sits in; a bot's seat is not free."""
    table = Table(TableConfig(), os.urandom, rng=random.Random(1))
    assert table.free_seats == 10
    table.add_bot("beginner")
    table.add_bot("beginner")
    assert table.free_seats == 8
    txt = txt_records("t", table.free_seats, "official", bytes(16))
    assert txt["free"] == "8"
