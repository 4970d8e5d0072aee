"""The journal on disk (``net/journal_files.py``): a short write is continued until the
whole batch is there; a snapshot never follows a link planted at its temporary name."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from lanuno.net import journal_files as journal_module
from lanuno.net.journal_files import JournalWriter, read_journal


def test_a_short_os_write_is_continued_until_the_whole_batch_is_on_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_write = os.write

    def short_write(fd: int, data: bytes) -> int:
        return real_write(fd, bytes(data[:5]))  # the kernel may write less than asked

    path = tmp_path / "t.journal"
    writer = JournalWriter(path)
    batch = [{"k": "act", "a": f"0 draw {i}", "blob": b"x" * 40} for i in range(6)]
    monkeypatch.setattr(journal_module.os, "write", short_write)
    writer.append(batch)
    monkeypatch.undo()
    writer.close()
    got = read_journal(path)
    assert not got.damaged
    assert [r["a"] for r in got.records] == [r["a"] for r in batch]


def test_a_snapshot_never_follows_a_link_planted_at_a_guessable_temp_name(
    tmp_path: Path,
) -> None:
    target = tmp_path / "t.journal.snap"
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    planted = target.with_name(f".{target.name}.{os.getpid()}.tmp")  # the old fixed name
    planted.symlink_to(victim)
    journal_module.write_atomically(target, b"snapshot data")
    assert victim.read_bytes() == b"precious"
    assert target.read_bytes() == b"snapshot data"
    assert not target.is_symlink()
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp") and p != planted]
