"""Group commit (``net/commit.py``): the journal records of every table of one loop turn
are made durable off the loop, one append (write + fdatasync) per file per pass, and a
table's messages leave only once the pass holding its records is durable, in order."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from helpers import note_seed, stop
from net_helpers import ScriptedPlayer, join

from lanuno.host.records import RecordMap
from lanuno.host.table import Table, TableConfig
from lanuno.net.commit import GroupCommit
from lanuno.net.journal_files import JournalWriter, read_journal
from lanuno.net.server import TableControls, TableServer
from lanuno.wire.messages import GameEnd, Lobby

HERE = Path(__file__).resolve().parent


class CountingJournal(JournalWriter):
    """Counts appends (each one write and one fdatasync); may be held back by ``gate``."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.appends: list[int] = []
        self.gate = threading.Event()
        self.gate.set()

    def append(self, batch: list[RecordMap]) -> None:  # type: ignore[override]
        self.gate.wait(10)
        self.appends.append(len(batch))
        super().append(batch)


async def test_records_of_one_turn_share_one_append_per_file(tmp_path: Path) -> None:
    commit = GroupCommit()
    first, second = CountingJournal(tmp_path / "a"), CountingJournal(tmp_path / "b")
    try:
        futures = [
            commit.submit(first, [{"k": "x", "i": 1}]),
            commit.submit(second, [{"k": "x", "i": 2}]),
            commit.submit(first, [{"k": "x", "i": 3}]),
        ]
        await asyncio.wait_for(asyncio.gather(*futures), 5)
        assert first.appends == [2]
        assert second.appends == [1]
        assert [r["i"] for r in read_journal(tmp_path / "a").records] == [1, 3]
        assert [r["n"] for r in read_journal(tmp_path / "a").records] == [0, 1]
    finally:
        commit.close()
        first.close()
        second.close()


class BrokenJournal(JournalWriter):
    def append(self, batch: list[RecordMap]) -> None:  # type: ignore[override]
        raise OSError(28, "No space left on device")


async def test_a_file_that_cannot_be_written_fails_only_its_own_records(tmp_path: Path) -> None:
    commit = GroupCommit()
    good, bad = JournalWriter(tmp_path / "good"), BrokenJournal(tmp_path / "bad")
    try:
        ok = commit.submit(good, [{"k": "x"}])
        broken = commit.submit(bad, [{"k": "x"}])
        await asyncio.wait_for(ok, 5)
        with pytest.raises(OSError, match="No space"):
            await asyncio.wait_for(broken, 5)
        assert len(read_journal(tmp_path / "good").records) == 1
    finally:
        commit.close()
        good.close()
        bad.close()


async def test_messages_wait_for_their_records_and_keep_their_order(tmp_path: Path) -> None:
    """A seat's lobby update is not sent while the pass holding its record is on its way to
    the disk; once durable, the held turns go out in the order they were made."""
    table = Table(TableConfig(), os.urandom)
    journal = CountingJournal(tmp_path / "t.journal")
    server = TableServer(table, journal=journal, commit=GroupCommit())
    await server.start()
    try:
        ann = await join(server.port, table.room_code, "Ann")
        await server.durable()
        lobbies: list[Lobby] = []

        async def watch() -> None:
            async for message in ann.updates():
                if isinstance(message, Lobby):
                    lobbies.append(message)

        watcher = asyncio.create_task(watch())
        await asyncio.sleep(0.1)
        lobbies.clear()
        journal.gate.clear()  # the disk is slow now
        controls = TableControls(server)
        await controls.add_bot("beginner")
        await controls.add_bot("beginner")
        await asyncio.sleep(0.2)
        assert lobbies == [], "a lobby change left before its record was durable"
        journal.gate.set()
        await server.durable()
        for _ in range(100):
            if len(lobbies) >= 2:
                break
            await asyncio.sleep(0.01)
        bots = [sum(1 for s in lobby.seats if s.kind == "bot") for lobby in lobbies]
        assert bots[:2] == [1, 2], bots
        watcher.cancel()
        await ann.close()
    finally:
        journal.gate.set()
        await server.close()


# ---------------------------------------------------------------------- SIGKILL


def free_ports(count: int) -> list[int]:
    probes = [socket.socket() for _ in range(count)]
    try:
        for probe in probes:
            probe.bind(("127.0.0.1", 0))
        return [probe.getsockname()[1] for probe in probes]
    finally:
        for probe in probes:
            probe.close()


def start_tables(
    directory: Path, ports: list[int], resume: bool, log: Path
) -> subprocess.Popen[bytes]:
    command = [sys.executable, str(HERE / "multi_table_host.py"), str(directory)]
    command += [str(p) for p in ports] + (["--resume"] if resume else [])
    with open(log, "ab") as out:
        return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)


async def wait_listening(ports: list[int]) -> None:
    for port in ports:
        for _ in range(200):
            try:
                _, writer = await asyncio.open_connection("127.0.0.1", port)
            except OSError:
                await asyncio.sleep(0.05)
                continue
            writer.close()
            break
        else:
            raise AssertionError("the tables did not start")


@pytest.mark.system
@pytest.mark.timeout(150)
async def test_sigkill_at_random_points_loses_no_acknowledged_action_of_any_table(
    tmp_path: Path,
) -> None:
    """Three tables in one process share the group commit; the process is killed (-9) at
    random points and restarted with every journal; every acknowledged action of every
    table is in its journal, once."""
    seed = int.from_bytes(os.urandom(4), "big")
    note_seed(seed)
    rng = random.Random(seed)
    ports, log = free_ports(3), tmp_path / "host.log"
    host = start_tables(tmp_path, ports, False, log)
    try:
        await wait_listening(ports)
        sessions = [
            [await join(port, "246810", f"{name}{t}") for name in ("Ann", "Bob")]
            for t, port in enumerate(ports)
        ]
        players = [
            [ScriptedPlayer(s, 10 * t + i, out_of_turn=0.1) for i, s in enumerate(table)]
            for t, table in enumerate(sessions)
        ]
        tasks = [asyncio.create_task(p.play()) for table in players for p in table]
        for table in sessions:
            for session in table:
                await session.set_ready(True)
        kills = 0
        while kills < 4 and not all(t.done() for t in tasks):
            await asyncio.sleep(rng.uniform(0.2, 0.7))
            host.send_signal(signal.SIGKILL)
            host.wait()
            kills += 1
            await asyncio.sleep(rng.uniform(0.0, 0.3))
            host = start_tables(tmp_path, ports, True, log)
        ends = await asyncio.wait_for(asyncio.gather(*tasks), 120)
        assert all(isinstance(e, GameEnd) for e in ends), log.read_text()[-2000:]
        seats = [[s.seat for s in table] for table in sessions]
        for table in sessions:
            for session in table:
                await session.close()
    finally:
        stop(host)
    assert kills >= 1
    for number, table_players in enumerate(players):
        recovery = read_journal(tmp_path / f"table-{number}.journal")
        acts = [r for r in recovery.records if r["k"] == "act"]
        assert acts, f"table {number} journaled no action"
        for seat, player in zip(seats[number], table_players, strict=True):
            seqs = [r["seq"] for r in acts if r["seq"] and r["a"].split()[0] == str(seat)]
            assert len(seqs) == len(set(seqs)), f"table {number}: an action applied twice"
            assert player.acked, f"table {number}: nothing acknowledged"
            assert player.acked <= set(seqs), f"table {number}: an acknowledged action was lost"
        replayed = Table.restore(recovery.records, TableConfig(), os.urandom, now=0.0)
        assert replayed.game is not None
        assert replayed.game.over
