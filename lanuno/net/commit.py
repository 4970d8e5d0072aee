"""Group commit: every table's journal records of one event-loop turn, made durable in one
pass of one worker thread, off the event loop.

Theory of operation
-------------------
A table's pump hands its records to :meth:`GroupCommit.submit` and gets a future back; it
holds that turn's outgoing messages until the future is done (``net/server.py``), so no
action is acknowledged before it is on disk, and a table's messages leave in order.

Records submitted during one loop turn (by any table on that loop) are collected; at the
end of the turn (``call_soon``) the collection is sealed into a *pass* and queued for the
worker. The worker takes every pass queued at that moment, merges them per journal file
(keeping each file's order), and for each file makes one ``JournalWriter.append`` call:
one write and one fdatasync per file touched (a snapshot too when one is due). The
appends of different files run side by side on a few I/O threads (fdatasync releases the
GIL, and the disk takes parallel flushes for about the price of one: 20 files synced one
after the other took 68 ms here, side by side 8-12 ms), so a pass costs its slowest file,
not the sum. Then the worker resolves the futures of those passes on their loops, with
the error for a file that could not be written (that table pauses; the others go on).
While the worker syncs, the next turns collect: under load one fdatasync covers many
actions.

One worker thread serves the whole process (every loop, every table): a journal file is
only ever written by it once its table is served, so a ``JournalWriter`` needs no lock.
fdatasync releases the GIL, so the loop keeps running while the disk works.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

from lanuno.host.records import RecordMap
from lanuno.net.journal_files import JournalWriter

SYNC_THREADS = 8
"""Files appended (and fdatasync'ed) side by side in one pass."""


@dataclass(slots=True)
class _FileBatch:
    journal: JournalWriter
    records: list[RecordMap] = field(default_factory=list)
    futures: list[asyncio.Future[None]] = field(default_factory=list)


@dataclass(slots=True)
class _Pass:
    loop: asyncio.AbstractEventLoop
    files: dict[int, _FileBatch] = field(default_factory=dict)
    """By ``id(journal)``, in the order the files were first touched this turn."""


class GroupCommit:
    """The process's journal writer thread. ``submit`` from the loop; ``close`` at exit
    (optional: the thread is a daemon and idles on a condition)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._ready = threading.Condition(self._lock)
        self._queue: list[_Pass] = []
        self._collecting: dict[asyncio.AbstractEventLoop, _Pass] = {}
        self._thread: threading.Thread | None = None
        self._io: concurrent.futures.ThreadPoolExecutor | None = None
        self._closed = False
        self.passes = 0
        """Passes written so far (each: one write and one fdatasync per file touched)."""
        self.syncs = 0
        """fdatasync calls (journal appends) so far."""

    def submit(self, journal: JournalWriter, records: Sequence[RecordMap]) -> asyncio.Future[None]:
        """Queue ``records`` for ``journal``; the future is done once they are durable (or
        carries the error that kept them off the disk). Call from the event loop."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        batch_pass = self._collecting.get(loop)
        if batch_pass is None:
            batch_pass = self._collecting[loop] = _Pass(loop)
            loop.call_soon(self._seal, loop)  # end of this turn: everything submitted so far
        batch = batch_pass.files.get(id(journal))
        if batch is None:
            batch = batch_pass.files[id(journal)] = _FileBatch(journal)
        batch.records.extend(records)
        batch.futures.append(future)
        return future

    def _seal(self, loop: asyncio.AbstractEventLoop) -> None:
        batch_pass = self._collecting.pop(loop, None)
        if batch_pass is None:
            return
        with self._ready:
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._work, name="lanuno-group-commit", daemon=True
                )
                self._thread.start()
            self._queue.append(batch_pass)
            self._ready.notify()

    def _work(self) -> None:
        while True:
            with self._ready:
                while not self._queue and not self._closed:
                    self._ready.wait()
                if not self._queue:
                    return  # closed and drained
                passes, self._queue = self._queue, []
            self._write(passes)
            del passes  # not kept (with its futures) while the thread waits for the next

    def _write(self, passes: list[_Pass]) -> None:
        # Merge every queued pass per file, in order: one append (write + fdatasync) each.
        merged: dict[int, _FileBatch] = {}
        owners: dict[int, list[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]]] = {}
        for batch_pass in passes:
            for key, batch in batch_pass.files.items():
                into = merged.get(key)
                if into is None:
                    into = merged[key] = _FileBatch(batch.journal)
                    owners[key] = []
                into.records.extend(batch.records)
                owners[key].extend((batch_pass.loop, f) for f in batch.futures)
        errors = self._append_all(list(merged.values()))
        for key, error in zip(merged, errors, strict=True):
            for loop, future in owners[key]:
                # A closed loop raises RuntimeError: nobody waits for that future any more.
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(_resolve, future, error)
        self.passes += 1

    def _append_all(self, batches: list[_FileBatch]) -> list[BaseException | None]:
        """Append each file's records (write + fdatasync), files side by side; the error
        of each file (None: durable)."""

        def append(batch: _FileBatch) -> BaseException | None:
            try:
                batch.journal.append(batch.records)
            except Exception as failure:  # OSError mostly: that table pauses, not the others
                return failure
            return None

        if len(batches) == 1:
            errors = [append(batches[0])]
        else:
            if self._io is None:
                self._io = concurrent.futures.ThreadPoolExecutor(
                    SYNC_THREADS, thread_name_prefix="lanuno-journal-sync"
                )
            errors = list(self._io.map(append, batches))
        self.syncs += len(batches)
        return errors

    def close(self) -> None:
        """Write what is queued, then stop the thread (a later ``submit`` starts it again)."""
        with self._ready:
            self._closed = True
            self._ready.notify()
            thread, self._thread = self._thread, None
        if thread is not None:
            thread.join()
        if self._io is not None:
            self._io.shutdown(wait=True)
            self._io = None
        with self._ready:
            self._closed = False


def _resolve(future: asyncio.Future[None], error: BaseException | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)


_shared: GroupCommit | None = None
_shared_lock = threading.Lock()


def shared_commit() -> GroupCommit:
    """The one group commit of this process (every table of every loop uses it)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = GroupCommit()
        return _shared
