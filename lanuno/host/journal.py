"""The table's journal format: records, their framing, snapshots, and recovery from bytes.

Pure (no file, clock or fsync here): :mod:`lanuno.net.journal_files` writes and reads the
files and hands the bytes to these functions.

Journal: a file of records (their kinds and fields: :mod:`lanuno.host.records`), each
``u32be length ‖ msgpack ‖ u32be CRC-32(msgpack)``. The writer appends a batch, flushes and
fsyncs it before the table's messages are sent, so an acknowledged action is on disk. Every
record carries its number ``n`` (0, 1, 2, ...).

Snapshot: ``SNAPSHOT_MAGIC`` then one framed msgpack map ``{"upto": n, "records": [...]}``
(the same ``length ‖ msgpack ‖ CRC-32`` as a record) holding every record up to ``n``. After
a snapshot the journal starts again empty, so recovery reads the snapshot, then the
journal's records numbered above ``upto``. A snapshot that fails its checksum is refused;
one written before snapshots had a checksum (a bare msgpack map) is still read.

Damage. A *torn tail* (the last record partly written when the host died: nothing whole
follows it) is cut off on reopening; everything acknowledged is before it. Damage with
whole records after it (a flipped byte in the middle) is different: those later records
were acknowledged, so ``Recovery.records_after`` counts them and the host refuses to go on
(writing nothing) until the user chooses to salvage the records before the damage.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

import msgpack

from lanuno.host.records import RecordMap

HEADER = struct.Struct(">I")
MAX_RECORD = 1 << 20
"""No record comes near 1 MiB; a larger length means the file is damaged."""
SNAPSHOT_MAGIC = b"lanuno snapshot 1\n"
_MAP_MARKERS = frozenset(range(0x80, 0x90)) | {0xDE, 0xDF}
"""First byte of a msgpack map: a record's payload always starts with one."""


class JournalError(Exception):
    """The journal cannot be used (missing, unreadable, or its snapshot does not fit)."""


def pack_record(record: RecordMap) -> bytes:
    payload: bytes = msgpack.packb(record, use_bin_type=True)
    return HEADER.pack(len(payload)) + payload + HEADER.pack(zlib.crc32(payload))


def _unpack(payload: bytes) -> RecordMap:
    record = msgpack.unpackb(payload, raw=False, strict_map_key=False)
    if not isinstance(record, dict) or "k" not in record or "n" not in record:
        raise ValueError("not a journal record")
    return record


def pack_snapshot(records: list[RecordMap]) -> bytes:
    payload: bytes = msgpack.packb(
        {"upto": len(records) - 1, "records": records}, use_bin_type=True
    )
    return SNAPSHOT_MAGIC + HEADER.pack(len(payload)) + payload + HEADER.pack(zlib.crc32(payload))


def unpack_snapshot(blob: bytes, source: str) -> tuple[list[RecordMap], int]:
    """(records, number of the last one); JournalError if the snapshot is damaged or
    unreadable."""
    payload = blob
    if blob.startswith(SNAPSHOT_MAGIC):
        framed = blob[len(SNAPSHOT_MAGIC) :]
        length = HEADER.unpack_from(framed)[0] if len(framed) >= HEADER.size else -1
        if length != len(framed) - 2 * HEADER.size:
            raise JournalError(f"snapshot {source} is damaged: its length does not match the file")
        payload = framed[HEADER.size : -HEADER.size]
        if zlib.crc32(payload) != HEADER.unpack_from(framed, len(framed) - HEADER.size)[0]:
            raise JournalError(f"snapshot {source} is damaged: it fails its checksum")
    try:
        data = msgpack.unpackb(payload, raw=False, strict_map_key=False)
        return list(data["records"]), int(data["upto"])
    except Exception as error:
        raise JournalError(f"snapshot {source} is unreadable: {error}") from None


@dataclass(frozen=True, slots=True)
class Recovery:
    records: list[RecordMap]
    """Every whole record, snapshot first, in order."""
    message: str
    """What was found, for the host's log (mentions any damage and what was dropped)."""
    good_bytes: int
    """Length of the journal's whole-record prefix (the rest is cut off on reopening)."""
    damaged: bool
    records_after: int = 0
    """Whole records found after the damage: not a torn tail but damage in the middle. Those
    records were acknowledged; cutting the file at the damage would lose them."""

    @property
    def torn_tail(self) -> bool:
        return self.damaged and not self.records_after

    def refusal(self) -> str:
        """One line for a journal damaged in the middle: where, and what can be kept."""
        return (
            f"the journal is damaged at byte {self.good_bytes}, with {self.records_after} "
            f"whole records after the damage that cannot be applied without it; nothing "
            f"was written. The {len(self.records)} records before it can be restored "
            f"(the game as it was then) with --salvage, which keeps a copy of the file"
        )


def recover(records: list[RecordMap], upto: int, blob: bytes, source: str) -> Recovery:
    """Append the journal's whole records numbered above ``upto`` (from a snapshot, or -1)
    to ``records``, stopping at the first damaged one."""
    records = list(records)
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
                    f"journal {source} skips from record {upto} to {record['n']}: "
                    "the snapshot and the journal do not belong together"
                )
            records.append(record)
            upto = record["n"]
        offset = end
    message = f"recovered {len(records)} records from {source}"
    after = _whole_records_after(blob, offset + 1) if damage else 0
    if after:
        message += (
            f"; {damage} at byte {offset}, and {after} whole records follow it: salvaging "
            f"keeps the records before it and drops the last {len(blob) - offset} bytes"
        )
    elif damage:
        message += (
            f"; {damage} at byte {offset}: kept every whole record before it and dropped "
            f"the last {len(blob) - offset} bytes"
        )
    return Recovery(records, message, offset, bool(damage), after)


def _whole_record_end(blob: bytes, offset: int) -> int | None:
    """Where the whole, valid record at ``offset`` ends, or None if there is none there."""
    if offset + 2 * HEADER.size > len(blob):
        return None
    length = int(HEADER.unpack_from(blob, offset)[0])
    end = offset + HEADER.size + length + HEADER.size
    if length == 0 or length > MAX_RECORD or end > len(blob):
        return None
    if blob[offset + HEADER.size] not in _MAP_MARKERS:  # cheap test before the checksum
        return None
    payload = blob[offset + HEADER.size : end - HEADER.size]
    if zlib.crc32(payload) != HEADER.unpack_from(blob, end - HEADER.size)[0]:
        return None
    try:
        _unpack(payload)
    except Exception:
        return None
    return end


def _whole_records_after(blob: bytes, start: int) -> int:
    """How many whole records follow the first one found at or after ``start`` (0: the
    damage was a torn tail, nothing whole comes after it)."""
    for offset in range(start, len(blob)):
        end = _whole_record_end(blob, offset)
        if end is None:
            continue
        count = 1
        while (end := _whole_record_end(blob, end) or 0) > 0:
            count += 1
        return count
    return 0
