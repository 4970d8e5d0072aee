"""R7: the host killed with SIGKILL at random points and restarted with --resume; every
client comes back by itself, and no acknowledged action is lost or applied twice."""

from __future__ import annotations

import asyncio
import os
import random
import resource
import signal
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import free_port, note_seed, stop, until
from net_helpers import ScriptedPlayer, join

from lanuno.host.table import Table, TableConfig
from lanuno.net.journal_files import JournalWriter, read_journal
from lanuno.wire.connection import ClientConnection, HandshakeComplete
from lanuno.wire.crypto import counter_drbg
from lanuno.wire.errors import CloseCode
from lanuno.wire.messages import Bye, GameEnd, Hello

pytestmark = [pytest.mark.system, pytest.mark.timeout(120)]
CODE = "246810"


def start_host(port: int, journal: Path, log: Path, resume: bool) -> subprocess.Popen[bytes]:
    where = ["--resume", str(journal)] if resume else ["--journal", str(journal)]
    command = [
        sys.executable, "-m", "lanuno", "host", "--headless", "--no-mdns",
        "--interface", "127.0.0.1", "--port", str(port), "--code", CODE,
        "--bots", "1", "--level", "beginner",
        "--bot-delay", "0.03", "--round-pause", "0.1", "--option", "target=500", *where,
    ]  # fmt: skip
    with open(log, "ab") as out:
        return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)


async def wait_listening(port: int) -> None:
    for _ in range(200):
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.05)
            continue
        writer.close()
        return
    raise AssertionError("the host did not start")


async def test_kill_minus_nine_and_resume(tmp_path: Path) -> None:
    port, journal, log = free_port(), tmp_path / "table.journal", tmp_path / "host.log"
    seed = int.from_bytes(os.urandom(4), "big")  # a fresh crash schedule each run
    note_seed(seed)
    rng = random.Random(seed)
    host = start_host(port, journal, log, resume=False)
    try:
        await wait_listening(port)
        sessions = [await join(port, CODE, name) for name in ("Ann", "Bob")]
        players = [ScriptedPlayer(s, i, out_of_turn=0.1) for i, s in enumerate(sessions)]
        tasks = [asyncio.create_task(p.play()) for p in players]
        for session in sessions:
            await session.set_ready(True)
        kills = 0
        while kills < 4:
            await asyncio.sleep(rng.uniform(0.2, 0.7))
            if any(t.done() for t in tasks):
                break  # a kill after the game end would test nothing
            host.send_signal(signal.SIGKILL)
            host.wait()
            kills += 1
            await asyncio.sleep(rng.uniform(0.0, 0.3))
            host = start_host(port, journal, log, resume=True)
        ends = await asyncio.wait_for(asyncio.gather(*tasks), 90)
        seats = [s.seat for s in sessions]  # before leaving: the lobby renumbers seats
        assert all(isinstance(e, GameEnd) for e in ends), (
            [p.messages[-5:] for p in players],
            [s.connection for s in sessions],
            log.read_text()[-1500:],
        )
        assert ends[0] == ends[1]
        assert kills >= 1, "the game ended before the first kill"
        # A kill just as the game ended: the clients still come back, a moment later.
        await until(lambda: all(s.reconnects >= 1 for s in sessions), "every client back")
        for session in sessions:
            await session.close()
    finally:
        stop(host)
    recovery = read_journal(journal)
    acts = [r for r in recovery.records if r["k"] == "act"]
    for seat, player in zip(seats, players, strict=True):
        seqs = [r["seq"] for r in acts if r["seq"] and r["a"].split()[0] == str(seat)]
        assert len(seqs) == len(set(seqs)), "an action was applied twice"
        assert player.acked <= set(seqs), "an acknowledged action was lost"
    replayed = Table.restore(recovery.records, TableConfig(), os.urandom, now=0.0)
    assert replayed.game is not None
    assert replayed.game.over
    assert tuple(replayed.game.scores) == ends[0].scores


def _listening_port(log: Path, nth: int) -> int:
    """The port in the ``nth`` "players join with" line of the host's log."""
    lines = [line for line in log.read_text().splitlines() if "players join with" in line]
    return int(lines[nth].split("127.0.0.1:")[1].split()[0])


async def test_a_host_resumed_without_port_listens_where_it_was(tmp_path: Path) -> None:
    """The port is journaled: ``lanuno host --resume FILE`` (the restart line the host
    prints) serves on the crashed host's port, where the clients try to reconnect."""
    journal, log = tmp_path / "table.journal", tmp_path / "host.log"
    command = [
        sys.executable, "-m", "lanuno", "host", "--headless", "--no-mdns",
        "--interface", "127.0.0.1", "--code", CODE, "--bots", "1", "--level", "beginner",
    ]  # fmt: skip

    def start(*where: str) -> subprocess.Popen[bytes]:
        with open(log, "ab") as out:
            return subprocess.Popen([*command, *where], stdout=out, stderr=subprocess.STDOUT)

    host = start("--journal", str(journal))
    try:
        await until(lambda: "players join with" in log.read_text(), "the host")
        port = _listening_port(log, 0)
        ann = await join(port, CODE, "Ann")
        await ann.set_ready(True)
        await until(lambda: ann.last_state is not None and bool(ann.last_state.hand), "a deal")
        host.send_signal(signal.SIGKILL)
        host.wait()
        await until(lambda: ann.connection == "reconnecting", "Ann sees the drop")
        host = start("--resume", str(journal))
        await until(lambda: log.read_text().count("players join with") == 2, "the resume")
        assert _listening_port(log, 1) == port
        await until(lambda: ann.connection == "connected", "Ann is back by herself", timeout=20)
        assert ann.reconnects == 1
        await ann.close()
    finally:
        stop(host)


def test_a_resumed_table_whose_port_is_taken_is_served_elsewhere_and_says_so(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "t.journal"
    with socket.socket() as squatter:
        squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        taken = squatter.getsockname()[1]
        table = Table(TableConfig(), counter_drbg(b"a taken port"))
        table.served_on(taken)
        writer = JournalWriter(journal)
        writer.append(table.take_records())
        writer.close()
        host = subprocess.Popen(
            _host_command("--resume", str(journal)),  # --port 0: the journal's port
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            assert host.stdout is not None
            said = []
            for line in host.stdout:
                said.append(line)
                if "players join with" in line:
                    break
            assert any(f"port {taken}, where the table was, is taken" in s for s in said), said
            assert f"127.0.0.1:{taken} " not in said[-1]
        finally:
            stop(host, 10)


# ---------------------------------------------------------------------- damaged journal


def _host_command(*args: str, port: int = 0) -> list[str]:
    return [
        sys.executable, "-m", "lanuno", "host", "--headless", "--no-mdns",
        "--interface", "127.0.0.1", "--port", str(port), *args,
    ]  # fmt: skip


def _played_journal(path: Path) -> None:
    """A journal of a few dozen records, as a table writes it, all in the journal file.

    A fixed deal, and no snapshot: a long round of bots can write 500 records, and the
    snapshot then taken empties the journal file (once in CI, with a random deal)."""
    table = Table(TableConfig(), counter_drbg(b"a damaged journal"))
    table.add_bot("beginner")
    table.add_bot("beginner")
    writer = JournalWriter(path, snapshot_every=1_000_000)
    writer.append(table.take_records())
    table.start(0.0)
    now = 0.0
    for _ in range(40):
        writer.append(table.take_records())
        deadline = table.next_deadline()
        if deadline is None:
            break
        now = max(now, deadline)
        table.tick(now)
    writer.append(table.take_records())
    writer.close()
    assert len(read_journal(path).records) >= 20


def test_resume_refuses_a_journal_damaged_in_the_middle_and_writes_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.journal"
    _played_journal(path)
    blob = bytearray(path.read_bytes())
    blob[len(blob) // 2] ^= 0x20
    path.write_bytes(bytes(blob))
    done = subprocess.run(
        _host_command("--resume", str(path)), capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "damaged at byte" in lines[0]
    assert "--salvage" in lines[0]
    assert path.read_bytes() == bytes(blob), "the journal was written to"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.journal"]


def test_salvage_keeps_a_copy_and_resumes_from_the_records_before_the_damage(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.journal"
    _played_journal(path)
    blob = bytearray(path.read_bytes())
    blob[len(blob) // 2] ^= 0x20
    path.write_bytes(bytes(blob))
    before = read_journal(path)
    host = subprocess.Popen(
        _host_command("--resume", str(path), "--salvage"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert host.stdout is not None
        for line in host.stdout:
            if "players join with" in line:
                break
        copy = tmp_path / "t.journal.damaged"
        assert copy.read_bytes() == bytes(blob)
        assert stat.S_IMODE(copy.stat().st_mode) == 0o600
        assert path.read_bytes()[: before.good_bytes] == bytes(blob)[: before.good_bytes]
        assert read_journal(path).records[: len(before.records)] == before.records
    finally:
        host.send_signal(signal.SIGTERM)
        host.wait(timeout=10)


# ---------------------------------------------------------------------- a full disk


def test_a_table_whose_journal_cannot_be_written_pauses_and_exits_non_zero(
    tmp_path: Path,
) -> None:
    """The disk fills up (RLIMIT_FSIZE) when a player joins: the host exits with status 1
    and its goodbye says the table is paused, so clients keep their resume secrets."""
    port = free_port()
    journal = tmp_path / "t.journal"

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (600, 600))  # the first record fits

    host = subprocess.Popen(
        _host_command("--journal", str(journal), "--code", CODE, port=port),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=small_files,
    )
    try:
        assert host.stdout is not None
        for line in host.stdout:
            if "players join with" in line:
                break

        async def join_and_listen() -> Bye | None:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            conn = ClientConnection.join(CODE, os.urandom)
            writer.write(conn.data_to_send())
            seen: list[object] = []
            hello = Hello(versions=(1,), name="Ann", age=None, kid=False, seed_commit=b"c" * 32)
            while chunk := await asyncio.wait_for(reader.read(65536), 10):
                events = conn.receive_data(chunk)
                writer.write(conn.data_to_send())
                if any(isinstance(e, HandshakeComplete) for e in events):
                    writer.write(conn.send(hello))
                seen.extend(events)
            writer.close()
            byes = [e for e in seen if isinstance(e, Bye)]
            return byes[-1] if byes else None

        bye = asyncio.run(join_and_listen())
        assert bye is not None
        assert bye.code == CloseCode.TABLE_PAUSED
        assert host.wait(timeout=10) == 1
        assert host.stderr is not None
        assert "--resume" in host.stderr.read()
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
