"""Resume credentials on disk, so a restarted ``lanuno join`` gets its seat back.

A client killed mid-game (a closed terminal, a crashed laptop) would otherwise come back as
a stranger while a bot plays its hand: the resume secret lived only in memory. The client
core says what to keep (``lanuno.client.Credentials``: a ticket, or nothing once the game
is over or the seat gone); this module keeps it in the user's state directory,
``$XDG_STATE_HOME/lanuno`` (default ``~/.local/state/lanuno``), one file per seat:

- written atomically (a fresh 0600 temp file, fsync, rename: a crash leaves the old file
  or the new one, never half of one), in a 0700 directory;
- locked while its session runs (``flock`` on a ``.lock`` file beside it, released when
  the process ends, even by SIGKILL): two clients on one machine at the same table never
  take each other's seat; a file nobody holds belongs to a client that is gone.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from lanuno.client import ResumeTicket
from lanuno.net.journal_files import write_atomically

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no locking, files still work
    fcntl = None  # type: ignore[assignment]

STATE_ENV = "XDG_STATE_HOME"
FORMAT = 1
STALE_AFTER = 30 * 24 * 3600.0
"""Seconds after which a saved seat nobody took back is removed: a table its host saved
(``TABLE_SAVED``) and never resumed would otherwise leave its file for ever."""


def state_dir() -> Path:
    """Where lanuno keeps per-user state ($XDG_STATE_HOME/lanuno or ~/.local/state/lanuno)."""
    base = os.environ.get(STATE_ENV) or str(Path.home() / ".local" / "state")
    return Path(base) / "lanuno"


class OtherFormat(ValueError):
    """A saved seat written in another format (another version of lanuno)."""


@dataclass(frozen=True, slots=True)
class SavedSeat:
    """A seat a previous client held: where the table was and the ticket to resume it."""

    host: str
    port: int
    name: str
    ticket: ResumeTicket
    path: Path
    table: int = 1
    """The table's number at that address (a hall serves several on one port)."""

    def encode(self) -> bytes:
        ticket = self.ticket
        previous = (
            [ticket.previous[0], ticket.previous[1].hex()] if ticket.previous is not None else None
        )
        body = {
            "format": FORMAT,
            "host": self.host,
            "port": self.port,
            "table": self.table,
            "name": self.name,
            "room_id": ticket.room_id.hex(),
            "seat": ticket.seat,
            "generation": ticket.generation,
            "secret": ticket.secret.hex(),
            "previous": previous,
        }
        return json.dumps(body, indent=1).encode() + b"\n"

    @classmethod
    def decode(cls, data: bytes, path: Path) -> SavedSeat:
        """Raises ValueError (or KeyError/TypeError) for anything but a saved seat."""
        body = json.loads(data)
        if not isinstance(body, dict):
            raise ValueError("not a saved seat")
        if body.get("format") != FORMAT:
            raise OtherFormat(body.get("format"))
        previous = body["previous"]
        ticket = ResumeTicket(
            seat=int(body["seat"]),
            generation=int(body["generation"]),
            secret=bytes.fromhex(body["secret"]),
            previous=(int(previous[0]), bytes.fromhex(previous[1])) if previous else None,
            room_id=bytes.fromhex(body["room_id"]),
        )
        table = int(body.get("table", 1))  # saved before halls: table 1
        return cls(str(body["host"]), int(body["port"]), str(body["name"]), ticket, path, table)


class SeatFile:
    """One session's saved seat: kept up to date by ``keep``, locked until ``release``."""

    def __init__(self, directory: Path, host: str, port: int, name: str, table: int = 1) -> None:
        self.directory = directory
        self.host, self.port, self.name, self.table = host, port, name, table
        self.path: Path | None = None
        self._lock: IO[bytes] | None = None

    def claim(self, path: Path) -> bool:
        """Take the lock of ``path``'s seat; False if another live client holds it."""
        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        lock = open(_lock_path(path), "ab")  # noqa: SIM115 - held for the session
        if fcntl is not None:
            try:
                fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                lock.close()
                return False
        self.release()
        self._lock, self.path = lock, path
        return True

    def keep(self, ticket: ResumeTicket | None) -> None:
        """Save ``ticket`` (atomically, 0600), or remove the file when it is None."""
        if ticket is None:
            if self.path is not None:
                self.path.unlink(missing_ok=True)
                _lock_path(self.path).unlink(missing_ok=True)
            return
        path = self.directory / f"seat-{ticket.room_id.hex()}-{ticket.seat}.json"
        if path != self.path:
            old = self.path
            if not self.claim(path):
                return  # another live client saves this seat: leave its file alone
            if old is not None:  # the seat moved (the lobby renumbered it)
                _remove_unless_held(old)  # another client here may hold that number now
        saved = SavedSeat(self.host, self.port, self.name, ticket, path, self.table)
        write_atomically(path, saved.encode())

    def release(self) -> None:
        """Let a later client take this seat's file (it stays on disk unless removed)."""
        if self._lock is not None:
            with contextlib.suppress(OSError):
                self._lock.close()  # closing the file drops its flock
            self._lock = None


def _lock_path(path: Path) -> Path:
    return path.with_suffix(".lock")


def _remove_unless_held(path: Path) -> None:
    """Remove a saved seat and its lock file, unless a live client holds its lock."""
    probe = SeatFile(path.parent, "", 0, "")
    if probe.claim(path):
        probe.keep(None)
        probe.release()


def _held(path: Path) -> bool:
    """Whether a live client holds the saved seat at ``path``."""
    probe = SeatFile(path.parent, "", 0, "")
    if probe.claim(path):
        probe.release()
        return False
    return True


def _remove_orphan_locks(directory: Path) -> None:
    """Lock files whose seat is gone (left by a client killed as its seat moved, or by an
    older version) and that no live client holds."""
    for lock in directory.glob("seat-*.lock"):
        if not lock.with_suffix(".json").exists():
            with contextlib.suppress(OSError):
                _remove_unless_held(lock.with_suffix(".json"))


class SeatStore:
    """The saved seats of this user (``state_dir()`` unless told otherwise)."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory if directory is not None else state_dir()
        self.damaged: list[Path] = []
        """Saved seats that could not be read, set aside (renamed ``*.damaged``), so that
        the player is told once and the file is kept for a look."""

    def saved(self, now: float | None = None) -> list[SavedSeat]:
        """The saved seats; those older than ``STALE_AFTER`` that no live client holds are
        removed instead, and those that cannot be read are set aside (``damaged``)."""
        seats: list[SavedSeat] = []
        now = time.time() if now is None else now
        with contextlib.suppress(OSError):
            for path in sorted(self.directory.glob("seat-*.json")):
                with contextlib.suppress(OSError):
                    if now - path.stat().st_mtime > STALE_AFTER:
                        _remove_unless_held(path)
                        continue
                    data = path.read_bytes()
                    try:
                        seats.append(SavedSeat.decode(data, path))
                    except OtherFormat:
                        continue  # another version's seat: its own to read
                    except (ValueError, KeyError, TypeError):
                        # Written atomically, so never half-written by a live client: damaged.
                        aside = path.with_name(path.name + ".damaged")
                        path.rename(aside)
                        _lock_path(path).unlink(missing_ok=True)
                        self.damaged.append(aside)
            _remove_orphan_locks(self.directory)
        return seats

    def claim(
        self,
        host: str,
        port: int,
        name: str,
        *,
        room_id: bytes | None = None,
        table: int = 1,
        named: bool = False,
    ) -> tuple[SeatFile, SavedSeat | None]:
        """A file for a new session at table ``table`` of ``host:port``, and the saved seat
        it resumes, if one matches (the table's ``room_id`` when discovery gave it, else the
        address and table number) and no live client holds it. ``named``: the player gave
        ``name`` (``--name``), so a seat saved under another name is someone else's (two
        people taking turns on one laptop) and is left for them."""
        file = SeatFile(self.directory, host, port, name, table)
        for seat in self.saved():
            same = (
                seat.ticket.room_id == room_id
                if room_id is not None
                else (seat.host, seat.port, seat.table) == (host, port, table)
            )
            if named and seat.name != name:
                continue
            if same and file.claim(seat.path):
                return file, seat
        return file, None

    def waiting(self, name: str | None = None) -> list[SavedSeat]:
        """The saved seats no live client holds and, with ``name`` (the player gave
        ``--name``), saved under that name, as ``claim`` takes them."""
        return [
            seat
            for seat in self.saved()
            if (name is None or seat.name == name) and not _held(seat.path)
        ]

    def rooms(self, name: str | None = None) -> set[bytes]:
        """The tables (``room_id``) where a saved seat waits (``waiting``). A bare join
        picks such a table at once, saying the seat waits there."""
        return {seat.ticket.room_id for seat in self.waiting(name)}


__all__ = ["STATE_ENV", "SavedSeat", "SeatFile", "SeatStore", "state_dir"]
