"""The table's journal on disk, and snapshots beside it, for crash recovery.

Journal: a file of records, each ``u32be length ‖ msgpack ‖ u32be CRC-32(msgpack)``. The
writer appends a batch, flushes and fsyncs it before the table's messages are sent, so an
acknowledged action is on disk. Every record carries its number ``n`` (0, 1, 2, ...).

Snapshot: ``<journal>.snap``, one msgpack map ``{"upto": n, "records": [...]}`` holding every
record up to ``n``, written atomically (temp file in the same directory, fsync, rename,
fsync the directory). After a snapshot the journal starts again empty, so recovery reads
the snapshot, then the journal's records numbered above ``upto``.

Both files hold hands' worth of secrets (resume secrets, seeds): mode 0600.

A damaged or truncated journal is recovered up to its last whole record; ``Recovery``
says what was dropped, in words, for the host to print.
"""

from __future__ import annotations

import os
import struct
import tempfile
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack

Record = dict[str, Any]
HEADER = struct.Struct(">I")
MAX_RECORD = 1 << 20
"""No record comes near 1 MiB; a larger length means the file is damaged."""
SNAPSHOT_EVERY = 500
FILE_MODE = 0o600


class JournalError(Exception):
    """The journal cannot be used (missing, unreadable, or its snapshot does not fit)."""


def snapshot_path(journal: Path) -> Path:
    return journal.with_name(journal.name + ".snap")


def _pack(record: Record) -> bytes:
    payload: bytes = msgpack.packb(record, use_bin_type=True)
    return HEADER.pack(len(payload)) + payload + HEADER.pack(zlib.crc32(payload))


def _unpack(payload: bytes) -> Record:
    record = msgpack.unpackb(payload, raw=False, strict_map_key=False)
    if not isinstance(record, dict) or "k" not in record or "n" not in record:
        raise ValueError("not a journal record")
    return record


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


@dataclass(frozen=True, slots=True)
class Recovery:
    records: list[Record]
    """Every whole record, snapshot first, in order."""
    message: str
    """What was found, for the host's log (mentions any damage and what was dropped)."""
    good_bytes: int
    """Length of the journal's whole-record prefix (the rest is cut off on reopening)."""
    damaged: bool


def read_journal(path: Path) -> Recovery:
    """Read the snapshot and the journal, keeping every whole record."""
    path = Path(path)
    records: list[Record] = []
    upto = -1
    snap = snapshot_path(path)
    if snap.exists():
        try:
            data = msgpack.unpackb(snap.read_bytes(), raw=False, strict_map_key=False)
            records = list(data["records"])
            upto = int(data["upto"])
        except Exception as error:
            raise JournalError(f"snapshot {snap} is unreadable: {error}") from None
    if not path.exists():
        if records:
            return Recovery(records, f"{len(records)} records from the snapshot", 0, False)
        raise JournalError(f"no journal at {path}")
    blob = path.read_bytes()
    offset, damage = 0, ""
    while offset < len(blob):
        if offset + HEADER.size > len(blob):
            damage = "a record header is cut short"
            break
        (length,) = HEADER.unpack_from(blob, offset)
        end = offset + HEADER.size + length + HEADER.size
        if length > MAX_RECORD:
            damage = f"a record claims {length} bytes"
            break
        if end > len(blob):
            damage = "the last record is cut short"
            break
        payload = blob[offset + HEADER.size : end - HEADER.size]
        (crc,) = HEADER.unpack_from(blob, end - HEADER.size)
        if zlib.crc32(payload) != crc:
            damage = "a record fails its checksum"
            break
        try:
            record = _unpack(payload)
        except Exception:
            damage = "a record is not valid msgpack"
            break
        if record["n"] > upto:
            if record["n"] != upto + 1:
                raise JournalError(
                    f"journal {path} skips from record {upto} to {record['n']}: "
                    "the snapshot and the journal do not belong together"
                )
            records.append(record)
            upto = record["n"]
        offset = end
    message = f"recovered {len(records)} records from {path}"
    if damage:
        message += (
            f"; {damage} at byte {offset}: kept every whole record before it and dropped "
            f"the last {len(blob) - offset} bytes"
        )
    return Recovery(records, message, offset, bool(damage))


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
        self.records: list[Record] = list(existing.records) if existing else []
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

    def append(self, batch: Iterable[Record]) -> None:
        """Write, flush and fsync; returns once the batch is on disk."""
        data = bytearray()
        for record in batch:
            numbered = {**record, "n": len(self.records)}
            self.records.append(numbered)
            data += _pack(numbered)
            self._since_snapshot += 1
        if not data:
            return
        write_all(self._fd, data)
        _sync_data(self._fd)
        if self._since_snapshot >= self.snapshot_every:
            self.snapshot()

    def snapshot(self) -> None:
        """Every record so far into the snapshot (atomically), then an empty journal."""
        upto = len(self.records) - 1
        blob = msgpack.packb({"upto": upto, "records": self.records}, use_bin_type=True)
        write_atomically(snapshot_path(self.path), blob)
        os.ftruncate(self._fd, 0)
        os.lseek(self._fd, 0, os.SEEK_SET)
        os.fsync(self._fd)
        self._since_snapshot = 0

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
