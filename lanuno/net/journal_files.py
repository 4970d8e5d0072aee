"""The journal's files on disk: append with fsync, atomic snapshots, recovery.

The format (records, snapshots, recovery from bytes) is :mod:`lanuno.host.journal`; this
module is the I/O around it. Both files hold secrets (resume secrets, seeds, hands):
mode 0600. Snapshot: ``<journal>.snap``, written atomically (temp file in the same
directory, fsync, rename, fsync the directory).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from lanuno.host.journal import (
    JournalError,
    Recovery,
    pack_record,
    pack_snapshot,
    recover,
    unpack_snapshot,
)
from lanuno.host.records import RecordMap

SNAPSHOT_EVERY = 500
FILE_MODE = 0o600


def snapshot_path(journal: Path) -> Path:
    return journal.with_name(journal.name + ".snap")


def _sync_data(fd: int) -> None:
    """fdatasync where there is one: the data and the file size, without the timestamps."""
    sync = getattr(os, "fdatasync", os.fsync)
    sync(fd)


def fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes | bytearray) -> None:
    """``os.write`` until every byte is written (a write may be short)."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:
            raise OSError(f"write to the journal wrote {written} bytes")
        view = view[written:]


def write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` by ``data`` so a crash leaves the old file or the new one, whole."""
    # A fresh, unpredictable name opened with O_EXCL (mode 0600): nothing planted at a
    # guessable temp name (a symlink, say) is ever followed or overwritten.
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    tmp = Path(name)
    try:
        with os.fdopen(fd, "wb") as file:
            os.fchmod(file.fileno(), FILE_MODE)
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)


def keep_copy(path: Path) -> Path:
    """Copy ``path`` beside itself (``<name>.damaged``, numbered if taken), mode 0600, before
    a salvage cuts it; returns the copy's path."""
    copy = path.with_name(path.name + ".damaged")
    number = 1
    while copy.exists():
        number += 1
        copy = path.with_name(f"{path.name}.damaged.{number}")
    fd = os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    try:
        write_all(fd, path.read_bytes())
        os.fsync(fd)
    finally:
        os.close(fd)
    fsync_dir(copy.parent)
    return copy


def read_journal(path: Path) -> Recovery:
    """Read the snapshot and the journal, keeping every whole record."""
    path = Path(path)
    records: list[RecordMap] = []
    upto = -1
    snap = snapshot_path(path)
    if snap.exists():
        records, upto = unpack_snapshot(snap.read_bytes(), str(snap))
    if not path.exists():
        if records:
            return Recovery(records, f"{len(records)} records from the snapshot", 0, False)
        raise JournalError(f"no journal at {path}")
    return recover(records, upto, path.read_bytes(), str(path))


class JournalWriter:
    """Appends records (numbered here) and takes a snapshot every ``snapshot_every``."""

    def __init__(
        self,
        path: Path,
        *,
        existing: Recovery | None = None,
        snapshot_every: int = SNAPSHOT_EVERY,
    ) -> None:
        self.path = Path(path)
        self.snapshot_every = snapshot_every
        self.records: list[RecordMap] = list(existing.records) if existing else []
        flags = os.O_WRONLY | os.O_CREAT
        if existing is None:
            flags |= os.O_TRUNC
            snapshot_path(self.path).unlink(missing_ok=True)
        self._fd = os.open(self.path, flags, FILE_MODE)
        os.fchmod(self._fd, FILE_MODE)
        if existing is not None:
            os.ftruncate(self._fd, existing.good_bytes)  # cut a torn tail off
        os.lseek(self._fd, 0, os.SEEK_END)
        self._since_snapshot = 0
        if existing is None:
            fsync_dir(self.path.parent)

    @property
    def next_number(self) -> int:
        return len(self.records)

    def append(self, batch: Iterable[RecordMap]) -> None:
        """Write, flush and fsync; returns once the batch is on disk."""
        data = bytearray()
        for record in batch:
            numbered = {**record, "n": len(self.records)}
            self.records.append(numbered)
            data += pack_record(numbered)
            self._since_snapshot += 1
        if not data:
            return
        write_all(self._fd, data)
        _sync_data(self._fd)
        if self._since_snapshot >= self.snapshot_every:
            self.snapshot()

    def snapshot(self) -> None:
        """Every record so far into the snapshot (atomically), then an empty journal."""
        write_atomically(snapshot_path(self.path), pack_snapshot(self.records))
        os.ftruncate(self._fd, 0)
        os.lseek(self._fd, 0, os.SEEK_SET)
        os.fsync(self._fd)
        self._since_snapshot = 0

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
