"""The journal on disk (``net/journal_files.py``): a short write is continued until the
whole batch is there; a snapshot never follows a link planted at its temporary name."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from lanuno.net import journal_files as journal_module
from lanuno.net.journal_files import JournalInUse, JournalWriter, read_journal


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


def test_a_journal_a_running_host_writes_is_refused_to_a_second_writer(
    tmp_path: Path,
) -> None:
    """A ``--resume`` while the host it resumes still runs (the process killed was not the
    host) opened the same journal and wrote over it; a new table's writer truncated it."""
    path = tmp_path / "t.journal"
    first = JournalWriter(path)
    first.append([{"k": "act", "a": "0 draw"}])
    for existing in (None, read_journal(path)):
        with pytest.raises(JournalInUse, match="in use by another lanuno host"):
            JournalWriter(path, existing=existing)
        with pytest.raises(JournalInUse):
            journal_module.check_not_in_use(path)
    assert [r["a"] for r in read_journal(path).records] == ["0 draw"]  # not truncated
    first.append([{"k": "act", "a": "1 draw"}])
    first.close()  # the host is gone (a kill -9 lets go of the lock too)
    journal_module.check_not_in_use(path)
    again = JournalWriter(path, existing=read_journal(path))
    again.close()
    journal_module.check_not_in_use(tmp_path / "none.journal")  # nothing there: free


def test_a_hall_directory_is_held_by_one_host_at_a_time(tmp_path: Path) -> None:
    held = journal_module.hold_directory(tmp_path)
    with pytest.raises(JournalInUse, match=str(tmp_path)):
        journal_module.hold_directory(tmp_path)
    os.close(held)
    os.close(journal_module.hold_directory(tmp_path))
