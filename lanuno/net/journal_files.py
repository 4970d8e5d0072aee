"""The journal's files on disk: append with fsync, atomic snapshots, recovery.

The format (records, snapshots, recovery from bytes) is :mod:`lanuno.host.journal`; this
module is the I/O around it. Both files hold secrets (resume secrets, seeds, hands):
mode 0600. Snapshot: ``<journal>.snap``, written atomically (temp file in the same
directory, fsync, rename, fsync the directory).

One host at a time: a ``JournalWriter`` holds an exclusive lock (``flock``) on its file, and
a hall its directory's, for as long as the host runs; the kernel lets go of them when the
process ends, even by ``kill -9``. A second ``lanuno host --resume`` of a table still
served (its host was not the process killed) is refused, where it served the same table
on another port and both hosts wrote the one journal over each other.
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

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no locking, journals still work
    fcntl = None  # type: ignore[assignment]

SNAPSHOT_EVERY = 500
FILE_MODE = 0o600


def snapshot_path(journal: Path) -> Path:
    return journal.with_name(journal.name + ".snap")


def _sync_data(fd: int) -> None:
    """fdatasync where there is one: the data and the file size, without the timestamps."""
    sync = getattr(os, "fdatasync", os.fsync)
    sync(fd)


class JournalInUse(JournalError):
    """Another running host holds this journal (or hall directory)."""

    def __init__(self, path: Path) -> None:
        super().__init__(
            f"{path} is in use by another lanuno host that is still running: quit that host "
            "first (Q, or Ctrl-C in its terminal), or use another journal"
        )
        self.path = path


def _lock(fd: int, path: Path) -> None:
    """Take the exclusive lock of the open file ``fd`` (``path``), or raise JournalInUse."""
    if fcntl is None:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise JournalInUse(path) from None


def hold_directory(directory: Path) -> int:
    """Lock a hall's journal directory for this process (the lock lasts as long as the
    returned descriptor is open, or the process lives); JournalInUse if another holds it."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        _lock(fd, directory)
    except BaseException:
        os.close(fd)
        raise
    return fd


def check_not_in_use(path: Path) -> None:
    """Raise JournalInUse if a running host writes ``path`` (a missing file is free). The
    writer takes the lock itself: this only says so before anything else is done."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return
    try:
        _lock(fd, path)
    finally:
        os.close(fd)  # lets go of the lock if it was taken


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
        # Locked before anything is cut: another host's live journal is never truncated.
        self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, FILE_MODE)
        try:
            _lock(self._fd, self.path)
        except BaseException:
            os.close(self._fd)
            raise
        os.fchmod(self._fd, FILE_MODE)
        if existing is None:
            os.ftruncate(self._fd, 0)
            snapshot_path(self.path).unlink(missing_ok=True)
        else:
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
