"""The conformance kit (scripts/conformance.py) against our own host, and the spec facts it
relies on that are not on the wire."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import load_script

from lanuno.host.table import Table, TableConfig
from lanuno.net.discovery import txt_records

ROOT = Path(__file__).resolve().parents[1]


def test_discovery_free_does_not_count_bots_as_free_seats() -> None:
    """discovery.md: ``free`` is the seats nobody sits in; a bot's seat is not free."""
    table = Table(TableConfig(), os.urandom, rng=random.Random(1))
    assert table.free_seats == 10
    table.add_bot("beginner")
    table.add_bot("beginner")
    assert table.free_seats == 8
    txt = txt_records("t", table.free_seats, "official", bytes(16))
    assert txt["free"] == "8"


def load_kit() -> Any:
    return load_script("conformance")


def test_the_kit_checks_every_numbered_requirement_of_the_spec() -> None:
    """The spec's [X-n] numbers and the kit's list are the same set, so a requirement added
    to protocol/ without a check (or the other way round) fails here."""
    text = "".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "protocol").glob("*.md")))
    in_spec = set(re.findall(r"\[([GHFMR]-\d+)\]", text))
    kit = load_kit()
    assert set(kit.REQUIREMENTS) == in_spec
    assert set(kit.OUTSIDE_THE_KIT) < in_spec
    assert len(in_spec) - len(kit.OUTSIDE_THE_KIT) >= 40


@pytest.mark.system
def test_our_host_passes_the_conformance_kit() -> None:
    """``python scripts/conformance.py --self``: our own host on 127.0.0.1, every check."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "conformance.py"), "--self"],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
        cwd=ROOT,
        check=False,
    )
    last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    kit = load_kit()
    total = len(kit.REQUIREMENTS) - len(kit.OUTSIDE_THE_KIT)
    assert last == f"conformance: {total}/{total} requirements passed"
