"""Regression tests for the host/net review findings (net adapters and commands)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from lanuno.host.journal import JournalWriter
from lanuno.host.table import Table, TableConfig
from lanuno.wire.crypto import counter_drbg

pytestmark = pytest.mark.timeout(60)


def test_resume_from_a_journal_that_does_not_replay_is_a_one_line_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.journal"
    table = Table(TableConfig(), counter_drbg(b"t"))
    writer = JournalWriter(path)
    writer.append(table.take_records())
    writer.append([{"k": "act", "a": "0 draw", "now": 1.0, "auto": False, "seq": 1}])
    writer.close()
    command = [
        sys.executable, "-m", "lanuno", "host", "--headless", "--no-mdns",
        "--interface", "127.0.0.1", "--port", "0", "--resume", str(path),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=30)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("lanuno host: cannot restore"), done.stderr
