"""Journal records on disk: fsynced batches, snapshots, and recovery from damage."""

from __future__ import annotations

import os
import random
import stat
from pathlib import Path

import pytest
from table_harness import Harness

from lanuno.engine.rules import preset
from lanuno.host.journal import JournalError
from lanuno.host.table import Table, TableConfig
from lanuno.net.journal_files import JournalWriter, read_journal, snapshot_path


def records(n: int) -> list[dict[str, object]]:
    return [{"k": "act", "a": f"0 draw {i}", "blob": os.urandom(8)} for i in range(n)]


def test_round_trip_and_private_file_mode(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    writer = JournalWriter(path)
    batch = records(5)
    writer.append(batch)
    writer.close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    got = read_journal(path)
    assert not got.damaged
    assert [r["a"] for r in got.records] == [r["a"] for r in batch]
    assert [r["n"] for r in got.records] == list(range(5))


@pytest.mark.parametrize("cut", [1, 3, 7])
def test_torn_tail_is_dropped_with_a_clear_message(tmp_path: Path, cut: int) -> None:
    path = tmp_path / "t.journal"
    writer = JournalWriter(path)
    writer.append(records(4))
    writer.close()
    size = path.stat().st_size
    with open(path, "r+b") as file:
        file.truncate(size - cut)
    got = read_journal(path)
    assert got.damaged
    assert len(got.records) == 3
    assert "cut short" in got.message
    assert "dropped" in got.message
    # Reopening cuts the torn tail off and carries on numbering after the last whole record.
    writer = JournalWriter(path, existing=got)
    writer.append(records(1))
    writer.close()
    again = read_journal(path)
    assert not again.damaged
    assert [r["n"] for r in again.records] == [0, 1, 2, 3]


def test_flipped_byte_stops_recovery_at_the_last_good_record(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    writer = JournalWriter(path)
    writer.append(records(3))
    writer.close()
    blob = bytearray(path.read_bytes())
    blob[-6] ^= 0x40  # inside the last record's payload
    path.write_bytes(bytes(blob))
    got = read_journal(path)
    assert got.damaged
    assert len(got.records) == 2
    assert "checksum" in got.message


def test_snapshot_is_atomic_private_and_rotates_the_journal(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    writer = JournalWriter(path, snapshot_every=10)
    for _ in range(5):
        writer.append(records(4))
    writer.close()
    snap = snapshot_path(path)
    assert snap.exists()
    assert stat.S_IMODE(snap.stat().st_mode) == 0o600
    assert not list(tmp_path.glob(".*.tmp"))
    got = read_journal(path)
    assert [r["n"] for r in got.records] == list(range(20))


def test_journal_that_does_not_fit_its_snapshot_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    writer = JournalWriter(path, snapshot_every=3)
    writer.append(records(3))
    writer.close()
    other = tmp_path / "other.journal"
    w2 = JournalWriter(other)
    w2.append(records(6))
    w2.close()
    path.write_bytes(other.read_bytes()[:0])
    assert len(read_journal(path).records) == 3
    missing = tmp_path / "nothing.journal"
    with pytest.raises(JournalError):
        read_journal(missing)


def test_a_table_rebuilt_from_disk_matches_the_live_one(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    table = Table(TableConfig(rules=preset("official")), os.urandom, rng=random.Random(2))
    writer = JournalWriter(path, snapshot_every=25)
    h = Harness(table)
    writer.append(h.records)
    ann, bob = h.join("Ann"), h.join("Bob")
    h.table.start(h.now)
    h.pump()
    rng = random.Random(4)
    for _ in range(80):
        for p in (ann, bob):
            if p.state and p.state.actor == p.seat and p.state.legal:
                h.act(p, rng.choice(p.state.legal))
        writer.append(table.take_records())
        h.advance(0.2)
    writer.append(h.records[len(writer.records) :])
    writer.close()
    restored = Table.restore(read_journal(path).records, table.config, os.urandom, now=h.now)
    assert restored.game.round.fingerprint() == table.game.round.fingerprint()
    assert restored.sid == table.sid


# ---------------------------------------------------------------------- damage (issue 11.3)


def test_damage_in_the_middle_is_not_a_torn_tail(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    writer = JournalWriter(path)
    for _ in range(10):
        writer.append(records(3))
    writer.close()
    blob = bytearray(path.read_bytes())
    middle = len(blob) // 2
    blob[middle] ^= 0x40
    path.write_bytes(bytes(blob))
    got = read_journal(path)
    assert got.damaged
    assert not got.torn_tail
    assert 0 < len(got.records) < 30
    assert got.records_after > 0
    assert len(got.records) + got.records_after == 29  # only the damaged record is lost
    line = got.refusal()
    assert "\n" not in line
    assert f"byte {got.good_bytes}" in line
    assert "--salvage" in line


@pytest.mark.parametrize("cut", [1, 5, 9])
def test_a_torn_tail_has_nothing_whole_after_it(tmp_path: Path, cut: int) -> None:
    path = tmp_path / "t.journal"
    writer = JournalWriter(path)
    writer.append(records(6))
    writer.close()
    with open(path, "r+b") as file:
        file.truncate(path.stat().st_size - cut)
    got = read_journal(path)
    assert got.torn_tail
    assert got.records_after == 0
    assert len(got.records) == 5


def test_a_snapshot_carries_a_checksum(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    writer = JournalWriter(path, snapshot_every=5)
    batch = [{"k": "secret", "seat": 0, "gen": 1, "secret": bytes(range(32))}, *records(4)]
    writer.append(batch)
    writer.close()
    snap = snapshot_path(path)
    blob = bytearray(snap.read_bytes())
    at = bytes(blob).index(bytes(range(32))) + 7  # one byte inside the resume secret
    blob[at] ^= 0x01
    snap.write_bytes(bytes(blob))
    with pytest.raises(JournalError, match="checksum"):
        read_journal(path)


def test_a_snapshot_written_before_checksums_is_still_read(tmp_path: Path) -> None:
    import msgpack

    path = tmp_path / "t.journal"
    old = [{**r, "n": i} for i, r in enumerate(records(3))]
    snapshot_path(path).write_bytes(msgpack.packb({"upto": 2, "records": old}))
    got = read_journal(path)
    assert [r["a"] for r in got.records] == [r["a"] for r in old]
