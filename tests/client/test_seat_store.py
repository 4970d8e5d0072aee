"""Resume credentials on disk (issue 10 item 1): what a restarted ``lanuno join`` finds."""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

import pytest

from lanuno.client import ResumeTicket
from lanuno.net.seat_store import (
    FORMAT,
    STALE_AFTER,
    STATE_ENV,
    SavedSeat,
    SeatFile,
    SeatStore,
    state_dir,
)

ROOM = bytes(range(16))
TICKET = ResumeTicket(2, 5, b"s" * 32, (4, b"p" * 32), ROOM)


def test_the_state_directory_follows_xdg_state_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(STATE_ENV, str(tmp_path))
    assert state_dir() == tmp_path / "lanuno"
    monkeypatch.delenv(STATE_ENV)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert state_dir() == tmp_path / "home" / ".local" / "state" / "lanuno"


def test_a_kept_seat_is_a_private_file_that_round_trips(tmp_path: Path) -> None:
    store = SeatStore(tmp_path / "lanuno")
    file, saved = store.claim("192.168.1.5", 4000, "Ann")
    assert saved is None
    file.keep(TICKET)
    assert file.path is not None
    assert stat.S_IMODE(file.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(file.path.parent.stat().st_mode) == 0o700
    [again] = store.saved()
    assert again == SavedSeat("192.168.1.5", 4000, "Ann", TICKET, file.path)
    assert not list(file.path.parent.glob("*.tmp"))  # written through a temp file, renamed
    assert "secret" not in repr(TICKET)
    assert "s" * 32 not in repr(TICKET)


def test_a_seat_held_by_a_live_client_is_not_offered_to_another(tmp_path: Path) -> None:
    store = SeatStore(tmp_path)
    first, _ = store.claim("h", 1, "Ann")
    first.keep(TICKET)
    _, saved = store.claim("h", 1, "Ann")
    assert saved is None  # the first client still runs: no seat stealing on one machine
    first.release()  # the first client is gone
    second, saved = store.claim("h", 1, "Ann")
    assert saved is not None
    assert saved.ticket == TICKET
    _, third = store.claim("h", 1, "Ann")
    assert third is None
    second.release()


def test_a_seat_is_found_by_table_when_discovery_names_it(tmp_path: Path) -> None:
    store = SeatStore(tmp_path)
    file, _ = store.claim("10.0.0.2", 4000, "Ann")
    file.keep(TICKET)
    file.release()
    assert store.rooms() == {ROOM}
    _, elsewhere = store.claim("10.0.0.2", 4001, "Ann")  # another port, no room known
    assert elsewhere is None
    _, moved = store.claim("10.0.0.2", 4001, "Ann", room_id=ROOM)  # restarted host
    assert moved is not None
    assert moved.ticket == TICKET


def test_a_seat_saved_under_another_name_is_left_to_its_player(tmp_path: Path) -> None:
    # Bob closed his terminal; Cat, on the same laptop, joins under her own name.
    store = SeatStore(tmp_path)
    bob, _ = store.claim("h", 1, "Bob")
    bob.keep(TICKET)
    bob.release()
    _, for_cat = store.claim("h", 1, "Cat", named=True)
    assert for_cat is None  # Cat joins as herself: Bob's seat stays his
    bob_again, for_bob = store.claim("h", 1, "Bob", named=True)
    assert for_bob is not None  # Bob, back under his name, resumes it
    assert for_bob.ticket == TICKET
    bob_again.release()
    _, unnamed = store.claim("h", 1, "someuser")  # no --name: the seat left here resumes
    assert unnamed is not None


def test_a_table_is_said_to_hold_a_seat_only_for_whoever_may_take_it(tmp_path: Path) -> None:
    """Seen on one laptop: Chloe's client still playing, Eloise ran a bare lanuno join
    under her own name and read 'your seat at Table 2 is waiting for you'; the table list
    was skipped, and she was asked for Table 2's room code."""
    store = SeatStore(tmp_path)
    chloe, _ = store.claim("h", 1, "Chloe")
    chloe.keep(TICKET)
    assert store.rooms() == set()  # her client runs: no seat waits for anyone
    chloe.release()  # her client is gone
    assert store.rooms() == {ROOM}
    assert store.rooms("Chloe") == {ROOM}
    assert store.rooms("Eloise") == set()  # another name: Chloe's seat is left to her


def test_forgetting_removes_the_file_and_a_new_seat_replaces_the_old(tmp_path: Path) -> None:
    store = SeatStore(tmp_path)
    file, _ = store.claim("h", 1, "Ann")
    file.keep(TICKET)
    old = file.path
    file.keep(ResumeTicket(1, 0, b"n" * 32, None, ROOM))  # the lobby renumbered the seat
    assert old is not None
    assert not old.exists()
    assert not old.with_suffix(".lock").exists()  # nothing of the old number is left
    assert [s.ticket.seat for s in store.saved()] == [1]
    file.keep(None)  # the game ended, or the host forgot the seat
    assert store.saved() == []


def test_a_damaged_file_is_set_aside_once_and_a_foreign_one_left_alone(tmp_path: Path) -> None:
    """A seat file that cannot be read is renamed ``*.damaged`` (kept for a look, and
    ``lanuno join`` says so, once); another version's format is not ours to judge."""
    (tmp_path / "seat-x-0.json").write_text("{not json")
    (tmp_path / "seat-w-0.json").write_text(json.dumps({"format": FORMAT, "seat": 1}))
    (tmp_path / "seat-y-0.json").write_text('{"format": 99}')
    store = SeatStore(tmp_path)
    assert store.saved() == []
    assert store.damaged == [tmp_path / "seat-w-0.json.damaged", tmp_path / "seat-x-0.json.damaged"]
    assert (tmp_path / "seat-x-0.json.damaged").read_text() == "{not json"
    assert (tmp_path / "seat-y-0.json").exists()
    assert store.saved() == []
    assert len(store.damaged) == 2  # told once


def test_a_seat_nobody_took_back_for_a_month_is_removed_unless_held(tmp_path: Path) -> None:
    """A table its host saved and never resumed must not leave its seat file for ever."""
    store = SeatStore(tmp_path)
    kept, _ = store.claim("h", 1, "Ann")
    kept.keep(TICKET)
    held, _ = store.claim("h", 2, "Bob")
    held.keep(ResumeTicket(1, 0, b"n" * 32, None, ROOM))
    kept.release()  # Ann's client is gone; Bob's still runs
    assert kept.path is not None
    assert held.path is not None
    month_ago = time.time() - STALE_AFTER - 60
    for path in (kept.path, held.path):
        os.utime(path, (month_ago, month_ago))
    assert len(store.saved(now=month_ago + 60)) == 2  # a minute old: both still offered
    assert store.saved() == []
    assert not kept.path.exists()
    assert not kept.path.with_suffix(".lock").exists()
    assert held.path.exists(), "a live client's seat was removed"


def test_lock_files_whose_seat_is_gone_are_removed_unless_held(tmp_path: Path) -> None:
    """Left by a client killed as its seat moved, or by 0.3.12 (which left the old number's
    lock behind): they piled up, one per seat ever moved."""
    (tmp_path / "seat-aa-3.lock").write_bytes(b"")
    store = SeatStore(tmp_path)
    live, _ = store.claim("h", 1, "Ann")
    live.keep(TICKET)
    held = SeatFile(tmp_path, "h", 1, "Bob")
    assert held.claim(tmp_path / "seat-bb-1.json")  # a live client, its seat not written yet
    assert [s.ticket for s in store.saved()] == [TICKET]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        f"seat-{ROOM.hex()}-2.json", f"seat-{ROOM.hex()}-2.lock", "seat-bb-1.lock",
    ]  # fmt: skip
    held.release()
    store.saved()
    assert not (tmp_path / "seat-bb-1.lock").exists()
