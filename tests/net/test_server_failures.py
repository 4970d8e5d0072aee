"""What the server does when something fails: a journal that does not replay (one clear
line), a tick that raises (logged, the timer goes on), a journal that cannot be written
(the table closes with the reason; nothing unjournaled reaches anyone)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import subprocess
import sys
import threading
from collections.abc import Iterable
from pathlib import Path

import pytest
from helpers import until
from net_helpers import join

from lanuno.host.pace import FixedPace
from lanuno.host.records import RecordMap
from lanuno.host.table import Table, TableConfig
from lanuno.net.commit import GroupCommit
from lanuno.net.journal_files import JournalWriter
from lanuno.net.server import TableControls, TableScreen, TableServer
from lanuno.wire.connection import ClientConnection, HandshakeComplete
from lanuno.wire.crypto import counter_drbg
from lanuno.wire.errors import ProtocolError
from lanuno.wire.messages import Message, State

pytestmark = pytest.mark.timeout(60)


def _host(*args: str) -> list[str]:
    return [
        sys.executable, "-m", "lanuno", "host", "--headless", "--no-mdns",
        "--interface", "127.0.0.1", "--port", "0", *args,
    ]  # fmt: skip


@pytest.mark.system
def test_resume_from_a_journal_that_does_not_replay_is_a_one_line_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.journal"
    table = Table(TableConfig(), counter_drbg(b"t"))
    writer = JournalWriter(path)
    writer.append(table.take_records())
    writer.append([{"k": "act", "a": "0 draw", "now": 1.0, "auto": False, "seq": 1}])
    writer.close()
    done = subprocess.run(_host("--resume", str(path)), capture_output=True, text=True, timeout=30)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("lanuno host: cannot restore"), done.stderr


@pytest.mark.system
def test_resume_from_a_file_that_is_no_journal_says_so(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(b"shopping list\x00\x01")
    done = subprocess.run(_host("--resume", str(path)), capture_output=True, text=True, timeout=30)
    assert done.returncode == 1
    assert done.stdout == ""  # not even "recovered 0 records"
    assert done.stderr == (
        f"lanuno host: cannot resume from {path}: it holds no table "
        "(not a lanuno journal, or empty)\n"
    )
    assert path.read_bytes() == b"shopping list\x00\x01"  # left as it was


@pytest.mark.system
def test_a_hall_with_one_bad_journal_resumes_nothing_and_loses_no_table(tmp_path: Path) -> None:
    hall = tmp_path / "hall"
    opened = subprocess.Popen(
        _host("--tables", "2", "--bots", "1", "--journal", str(hall)),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert opened.stdout is not None
    for line in opened.stdout:
        if line.startswith("journal: "):  # both tables are open and journaled
            break
    opened.terminate()
    assert opened.wait(30) == 0
    index = (hall / "hall.json").read_bytes()
    second = hall / "table-2.journal"
    good = second.read_bytes()
    second.write_bytes(b"not a journal")
    done = subprocess.run(_host("--resume", str(hall)), capture_output=True, text=True, timeout=30)
    assert done.returncode == 1
    assert (hall / "hall.json").read_bytes() == index  # table 2 is still the hall's
    assert done.stderr.startswith(f"lanuno host: cannot resume from {second}: it holds no table")
    assert "No table was opened, and hall.json still lists every table" in done.stderr
    second.write_bytes(good)  # mended: the whole hall comes back
    again = subprocess.Popen(
        _host("--resume", str(hall)), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    assert again.stdout is not None
    tables = []
    for line in again.stdout:
        if line.startswith("table "):  # table 1 'Table 1'  room code ...
            tables.append(line.split("'")[1])
            if len(tables) == 2:
                break
    again.terminate()
    assert again.wait(30) == 0
    assert tables == ["Table 1", "Table 2"]


# ---------------------------------------------------------------------- 4: the timer loop


async def _bots_only_server(
    journal: JournalWriter | None = None,
) -> tuple[Table, TableServer, list[str]]:
    table = Table(TableConfig(pace=FixedPace(0.01)), counter_drbg(b"t"))
    lines: list[str] = []
    server = TableServer(table, journal=journal, log=lines.append)
    await server.start()
    controls = TableControls(server)
    await controls.add_bot("beginner")
    await controls.add_bot("beginner")
    return table, server, lines


async def test_an_exception_in_a_tick_is_logged_and_the_timer_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table, server, lines = await _bots_only_server()
    try:
        real_tick = table.tick
        calls = 0

        def flaky_tick(now: float) -> None:
            nonlocal calls
            calls += 1
            if calls == 1:
                raise RuntimeError("a bug in one tick")
            real_tick(now)

        monkeypatch.setattr(table, "tick", flaky_tick)
        await TableControls(server).start()
        sid = table.sid
        for _ in range(300):
            if table.sid > sid + 5:
                break
            await asyncio.sleep(0.01)
        assert table.sid > sid + 5, "the timer task died with the first exception"
        assert any("a bug in one tick" in line for line in lines)
    finally:
        await server.close()


class FailingJournal(JournalWriter):
    def append(self, batch: Iterable[RecordMap]) -> None:
        if any(record["k"] == "act" for record in batch):
            raise OSError(28, "No space left on device")
        super().append(batch)


async def test_a_journal_write_failure_closes_the_table_with_a_clear_reason(
    tmp_path: Path,
) -> None:
    journal = FailingJournal(tmp_path / "t.journal")
    _, server, lines = await _bots_only_server(journal)
    seen: list[Message] = []

    async def watch() -> None:
        async for message in TableScreen(server).updates():
            seen.append(message)

    watcher = asyncio.create_task(watch())
    try:
        await TableControls(server).start()
        await asyncio.wait_for(server.closed.wait(), 5)
        assert any("journal cannot be written" in line for line in lines)
        await asyncio.sleep(0.05)
        # The screen saw the deal if it was on disk before the failing pass, and nothing of
        # the action that was not. (A slow disk pass before the deal makes the group commit
        # write the deal and the first bot action in one pass: that pass fails whole, and
        # the deal, never on disk, is never shown.)
        dealt = any(record["k"] == "deal" for record in journal.records)
        states = [m for m in seen if isinstance(m, State)]
        assert len({s.sid for s in states}) == (1 if dealt else 0)
    finally:
        watcher.cancel()
        await server.close()


class StuckJournal(JournalWriter):
    """Another table's journal on a disk that hangs until ``release`` is set: its pass keeps
    the group commit's worker busy, so the passes queued meanwhile are written as one."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.entered = threading.Event()
        self.release = threading.Event()

    def append(self, batch: Iterable[RecordMap]) -> None:
        self.entered.set()
        self.release.wait(10)
        super().append(batch)


async def test_a_deal_written_in_the_same_pass_as_the_failing_action_is_never_shown(
    tmp_path: Path,
) -> None:
    """Under load the group commit writes the deal and the first bot action in one pass;
    when that pass fails, the deal was never on disk, so no one ever sees it. Nor does the
    host's terminal get asyncio's "Future exception was never retrieved" for the other
    turns of that pass (it printed an OSError traceback over the host's screen)."""
    unretrieved: list[str] = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _loop, context: unretrieved.append(context["message"]))
    commit = GroupCommit()
    stuck = StuckJournal(tmp_path / "other.journal")
    journal = FailingJournal(tmp_path / "t.journal")
    table = Table(TableConfig(pace=FixedPace(0.01)), counter_drbg(b"t"))
    lines: list[str] = []
    server = TableServer(table, journal=journal, commit=commit, log=lines.append)
    seen: list[Message] = []

    async def watch() -> None:
        async for message in TableScreen(server).updates():
            seen.append(message)

    watcher = asyncio.create_task(watch())
    try:
        await server.start()
        controls = TableControls(server)
        await controls.add_bot("beginner")
        await controls.add_bot("beginner")
        await server.durable()
        commit.submit(stuck, [{"k": "open"}])
        await until(stuck.entered.is_set, "the other table's pass holds the worker")
        await controls.start()
        dealt_sid = table.sid
        await until(lambda: table.sid > dealt_sid, "a bot acts while the deal waits")
        await asyncio.sleep(0)  # that turn's pass is sealed behind the deal's
        stuck.release.set()
        await asyncio.wait_for(server.closed.wait(), 5)
        assert any("journal cannot be written" in line for line in lines)
        await asyncio.sleep(0.05)
        assert not [r for r in journal.records if r["k"] in ("deal", "act")]
        assert not [m for m in seen if isinstance(m, State)]
    finally:
        stuck.release.set()
        watcher.cancel()
        await server.close()
        commit.close()
        stuck.close()
    try:
        gc.collect()  # a future whose error nobody read says so when it is collected
        await asyncio.sleep(0)
        assert unretrieved == []
    finally:
        loop.set_exception_handler(None)


class SecretFailingJournal(JournalWriter):
    """The disk fills up just when a resumed seat's new secret is written."""

    def append(self, batch: Iterable[RecordMap]) -> None:
        batch = list(batch)
        if any(record["k"] == "secret" and record["gen"] >= 1 for record in batch):
            raise OSError(28, "No space left on device")
        super().append(batch)


async def test_a_resume_whose_new_secret_cannot_be_journaled_gets_no_confirmation(
    tmp_path: Path,
) -> None:
    table = Table(TableConfig(), counter_drbg(b"t"))
    lines: list[str] = []
    server = TableServer(table, journal=SecretFailingJournal(tmp_path / "t.j"), log=lines.append)
    await server.start()
    try:
        ann = await join(server.port, table.room_code, "Ann")
        ticket = ann.ticket
        assert ticket is not None
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        conn = ClientConnection.resume(ticket.seat, ticket.generation, ticket.secret, os.urandom)
        writer.write(conn.data_to_send())
        confirmed = False
        with contextlib.suppress(ProtocolError, ConnectionError):
            while data := await asyncio.wait_for(reader.read(65536), 5):
                events = conn.receive_data(data)
                writer.write(conn.data_to_send())
                confirmed |= any(isinstance(e, HandshakeComplete) for e in events)
        assert not confirmed
        await asyncio.wait_for(server.closed.wait(), 5)
        assert any("journal cannot be written" in line for line in lines)
        writer.close()
        await ann.close()
    finally:
        await server.close()
