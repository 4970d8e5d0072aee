"""The table's journal format: records, their framing, snapshots, and recovery from bytes.

Pure (no file, clock or fsync here): :mod:`lanuno.net.journal_files` writes and reads the
files and hands the bytes to these functions.

Journal: a file of records (their kinds and fields: :mod:`lanuno.host.records`), each
``u32be length ‖ msgpack ‖ u32be CRC-32(msgpack)``. The
writer appends a batch, flushes and fsyncs it before the table's messages are sent, so an
acknowledged action is on disk. Every record carries its number ``n`` (0, 1, 2, ...).

Snapshot: one msgpack map ``{"upto": n, "records": [...]}`` holding every record up to
``n``. After a snapshot the journal starts again empty, so recovery reads the snapshot, then
the journal's records numbered above ``upto``.

A damaged or truncated journal is recovered up to its last whole record; ``Recovery``
says what was dropped, in words, for the host to print.
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
    blob: bytes = msgpack.packb({"upto": len(records) - 1, "records": records}, use_bin_type=True)
    return blob


def unpack_snapshot(blob: bytes, source: str) -> tuple[list[RecordMap], int]:
    """(records, number of the last one); JournalError if the snapshot is unreadable."""
    try:
        data = msgpack.unpackb(blob, raw=False, strict_map_key=False)
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
    if damage:
        message += (
            f"; {damage} at byte {offset}: kept every whole record before it and dropped "
            f"the last {len(blob) - offset} bytes"
        )
    return Recovery(records, message, offset, bool(damage))
