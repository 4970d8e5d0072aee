"""Hostile peers against a real server on loopback (issue 11, items 5 to 10).

Several 127.0.0.x source addresses stand for several machines (Linux routes all of
127.0.0.0/8 to the loopback interface); nothing leaves this machine."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import socket

import pytest
from helpers import until
from net_helpers import join

from lanuno.engine.rules import preset
from lanuno.host.table import Table, TableConfig
from lanuno.net.server import ServerLimits, TableControls, TableServer
from lanuno.wire.connection import ClientConnection, ConnectionClosed, HandshakeComplete, Phase
from lanuno.wire.errors import ProtocolError
from lanuno.wire.messages import Hello, Ping

pytestmark = pytest.mark.timeout(60)

GENEROUS = {"rate": 5000.0, "burst": 5000.0}


async def serve(limits: ServerLimits, log: list[str] | None = None, **config: object):
    cfg = TableConfig(rules=preset("official"), next_round_after=0.0, **config)  # type: ignore[arg-type]
    table = Table(cfg, os.urandom, rng=random.Random(1))
    server = TableServer(table, limits=limits, log=None if log is None else log.append)
    await server.start()
    return table, server


async def connect_from(ip: str, port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(ip, 0))


async def handshake(
    port: int,
    code: str,
    *,
    ip: str = "127.0.0.1",
    name: str | None = "Eve",
    sock: socket.socket | None = None,
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, ClientConnection]:
    """A raw JOIN (and ``hello`` if ``name``); raises ProtocolError/OSError on refusal."""
    if sock is None:
        reader, writer = await connect_from(ip, port)
    else:
        reader, writer = await asyncio.open_connection(sock=sock)
    conn = ClientConnection.join(code, os.urandom)
    writer.write(conn.data_to_send())
    while True:
        data = await reader.read(65536)
        try:
            events = conn.receive_data(data)
        except ProtocolError:
            writer.close()
            raise
        writer.write(conn.data_to_send())
        if any(isinstance(e, HandshakeComplete) for e in events):
            break
    if name is not None:
        writer.write(
            conn.send(Hello(versions=(1,), name=name, age=None, kid=False, seed_commit=bytes(32)))
        )
    return reader, writer, conn


def wrong(code: str, k: int = 0) -> str:
    return f"{(int(code) + 1 + k) % 10**6:06d}"


# ---------------------------------------------------------------------------- 11.5


async def test_clients_closing_at_once_leave_no_send_exception_flood(
    caplog: pytest.LogCaptureFixture,
) -> None:
    table, server = await serve(ServerLimits(**GENEROUS, max_unauthenticated_per_ip=10))
    try:
        sessions = [await join(server.port, table.room_code, f"P{i}") for i in range(10)]
        assert len(table.slots) == 10
        await asyncio.sleep(0.1)
        with caplog.at_level(logging.WARNING, logger="asyncio"):
            for session in sessions:  # every laptop lid closes at once: resets, no bye
                assert session._writer is not None
                assert session._runner is not None
                session._runner.cancel()  # and stays closed: no resume
                session._writer.transport.abort()
            for _ in range(100):
                if all(slot.peer is None for slot in table.slots):
                    break
                await asyncio.sleep(0.02)
        # Every seat is away (held for a resume, lobby or not).
        assert all(slot.peer is None for slot in table.slots)
        floods = [r for r in caplog.records if "socket.send() raised" in r.getMessage()]
        assert floods == []
    finally:
        await server.close()


# ---------------------------------------------------------------------------- 11.6


async def test_idle_connections_from_many_addresses_do_not_lock_out_joins_or_resumes() -> None:
    # Long deadlines on purpose: only making room, not a timeout, can let players in.
    limits = ServerLimits(**GENEROUS, handshake_timeout=30.0, first_bytes_timeout=30.0)
    table, server = await serve(limits)
    idle: list[asyncio.StreamWriter] = []
    try:
        ann = await join(server.port, table.room_code, "Ann")
        assert ann.seat == 0
        assert ann.ticket is not None
        for host in range(2, 52):  # 50 addresses, 4 idle sockets each
            for _ in range(4):
                idle.append((await connect_from(f"127.0.0.{host}", server.port))[1])
        await asyncio.sleep(0.1)
        joined = [await join(server.port, table.room_code, f"P{i}") for i in range(5)]
        assert [s.seat for s in joined] == [1, 2, 3, 4, 5]
        await TableControls(server).start()
        for _ in range(100):
            if ann.last_state is not None:
                break
            await asyncio.sleep(0.02)
        # A dropped player resumes (RESUME handshake) through the crowd of idle sockets.
        for host in range(52, 60):
            for _ in range(4):
                idle.append((await connect_from(f"127.0.0.{host}", server.port))[1])
        assert ann._writer is not None
        ann._writer.transport.abort()
        for _ in range(300):
            if ann.reconnects and ann.connection == "connected":
                break
            await asyncio.sleep(0.02)
        assert ann.reconnects == 1
        assert ann.connection == "connected"
        assert ann.seat == 0
        assert len(server._pending) <= limits.max_unauthenticated
        for session in [ann, *joined]:
            await session.close()
    finally:
        for writer in idle:
            writer.close()
        await server.close()


async def test_a_connection_that_sends_nothing_is_closed_after_the_first_bytes_deadline() -> None:
    limits = ServerLimits(**GENEROUS, handshake_timeout=30.0, first_bytes_timeout=0.2)
    _table, server = await serve(limits)
    try:
        reader, writer = await connect_from("127.0.0.2", server.port)
        assert await asyncio.wait_for(reader.read(), 5) == b""  # well before the 30 s
        writer.close()
    finally:
        await server.close()


# ---------------------------------------------------------------------------- 11.7


async def test_a_client_that_never_reads_is_cut_off_not_left_open() -> None:
    limits = ServerLimits(**GENEROUS, max_write_buffer=16 * 1024)
    log: list[str] = []
    table, server = await serve(limits, log)
    try:
        # A raw socket with a tiny receive buffer that never reads.
        raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        raw.setblocking(False)
        await asyncio.get_running_loop().sock_connect(raw, ("127.0.0.1", server.port))
        reader, writer, _conn = await handshake(server.port, table.room_code, name="Mute", sock=raw)
        writer.transport.pause_reading()  # from now on nothing is read
        # Small kernel buffers on both ends, so the host's own queue fills quickly.
        (link,) = server._links.values()
        link.writer.transport.get_extra_info("socket").setsockopt(
            socket.SOL_SOCKET, socket.SO_SNDBUF, 4096
        )
        controls = TableControls(server)
        for _ in range(200):  # lobby updates pile up for the seat that does not read
            await controls.set_option("target", random.choice(["100", "200", "300"]))
            if any("not reading" in line for line in log):
                break
            await asyncio.sleep(0)
        assert any("not reading" in line for line in log)
        await asyncio.sleep(0.2)
        # The host aborted its end: the reset reaches the client (a graceful close would
        # wait for the queued megabytes to be read, keeping the socket established).
        writer.transport.resume_reading()
        with pytest.raises(ConnectionResetError):
            while await asyncio.wait_for(reader.read(65536), 5):
                pass
        writer.close()
    finally:
        await server.close()


async def test_spectators_are_capped_with_a_clear_refusal() -> None:
    table, server = await serve(
        ServerLimits(**GENEROUS, max_unauthenticated_per_ip=64), max_spectators=3
    )
    try:
        players = [await join(server.port, table.room_code, n) for n in ("Ann", "Bob")]
        await TableControls(server).start()  # nobody plays: the game stays on
        watchers = [await join(server.port, table.room_code, f"W{i}") for i in range(3)]
        assert all(w.connection == "connected" for w in watchers)
        reader, _writer, conn = await handshake(server.port, table.room_code, name="W4")
        refused = []
        while data := await asyncio.wait_for(reader.read(65536), 5):
            try:
                refused += conn.receive_data(data)
            except ProtocolError:
                break
        byes = [m for m in refused if getattr(m, "TYPE", "") == "bye"]
        assert byes
        assert "spectators" in byes[0].reason
        for session in [*watchers, *players]:
            await session.close()
    finally:
        await server.close()


# ---------------------------------------------------------------------------- 11.8


async def test_a_frame_dribbled_byte_by_byte_does_not_reset_the_silence_limit() -> None:
    limits = ServerLimits(**GENEROUS, silence_timeout=1.0)
    table, server = await serve(limits)
    try:
        reader, writer, conn = await handshake(server.port, table.room_code)
        frame = conn.send(Ping(n=7))
        closed = False
        for byte in frame[:-1]:  # one byte every 0.1 s: the frame never completes
            writer.write(bytes([byte]))
            try:
                data = await asyncio.wait_for(reader.read(65536), 0.1)
            except TimeoutError:
                continue
            try:  # welcome and lobby first; the host's goodbye or the end of the stream
                events = conn.receive_data(data)
            except ProtocolError:
                events = [ConnectionClosed(0, "", False)]
            if any(isinstance(e, ConnectionClosed) for e in events):
                closed = True
                break
        assert closed, "the host kept a connection that completes no frame"
        writer.close()
    finally:
        await server.close()


# ---------------------------------------------------------------------------- 11.9


async def abandon_after_spake2_reply(port: int, code: str, ip: str) -> None:
    reader, writer = await connect_from(ip, port)
    conn = ClientConnection.join(code, os.urandom)
    writer.write(conn.data_to_send())
    while True:
        conn.receive_data(await reader.read(65536))
        if conn.phase is Phase.AWAIT_HOST_CONFIRM:
            break  # the host's msgB is in: the check number is known
        writer.write(conn.data_to_send())
    writer.transport.abort()  # hang up without sending the confirmation


async def test_handshakes_abandoned_after_the_spake2_reply_count_against_the_code() -> None:
    limits = ServerLimits(**GENEROUS, pace_free_failures=99, rotate_after=5)
    table, server = await serve(limits)
    try:
        first = table.room_code
        for k in range(5):  # an insider who knows the code, grinding check numbers
            await abandon_after_spake2_reply(server.port, first, f"127.0.0.{10 + k}")
        for _ in range(100):
            if table.guard.epoch:
                break
            await asyncio.sleep(0.02)
        assert table.guard.total_failures == 5
        assert table.room_code != first
        assert server.code_rotations == 1
    finally:
        await server.close()


async def give_up_before_the_exchange(port: int, ip: str) -> None:
    """A client hello, the host's answer, then a hang-up: as a client does whose connect
    attempt timed out while the host was stopped (the kernel had accepted it)."""
    reader, writer = await connect_from(ip, port)
    writer.write(ClientConnection.join("000000", os.urandom).data_to_send())
    assert await reader.read(65536), "the host did not answer the client hello"
    writer.close()


async def test_clients_that_gave_up_before_the_exchange_are_not_refusals_in_the_log() -> None:
    """A host stopped for minutes (kill -STOP) finds its players' abandoned attempts queued
    when it runs again: one quiet line, not a "handshake refused (TRUNCATED ...)" each."""
    lines: list[str] = []
    table, server = await serve(ServerLimits(**GENEROUS), lines)
    try:
        for k in range(6):
            await give_up_before_the_exchange(server.port, f"127.0.0.{20 + k % 3}")
        await until(lambda: not server.gate.pending, "the abandoned handshakes ended")
        assert not [line for line in lines if "refused" in line], lines
        assert len([line for line in lines if "gave up" in line]) == 1, lines
        assert table.guard.total_failures == 0
    finally:
        await server.close()


# ---------------------------------------------------------------------------- 11.10


async def test_guessing_from_many_addresses_is_paced_and_an_honest_player_gets_in() -> None:
    log: list[str] = []
    table, server = await serve(ServerLimits(**GENEROUS), log)
    stop = asyncio.Event()
    guesses = [0]
    successes = [0]

    async def guesser(ip: str, k: int) -> None:
        while not stop.is_set():
            try:
                await handshake(server.port, wrong(table.room_code, k), ip=ip, name=None)
                successes[0] += 1
            except (ProtocolError, OSError, asyncio.IncompleteReadError):
                pass
            guesses[0] += 1
            await asyncio.sleep(0)

    guessers = [
        asyncio.create_task(guesser(f"127.0.{h}.{i}", h * 10 + i))
        for h in (1, 2)
        for i in range(2, 22)
    ]
    try:
        await asyncio.sleep(1.0)  # 40 addresses guess for a while
        code = table.room_code  # an honest player reads the code off the screen
        attempts = 0
        session = None
        while session is None and attempts < 3:
            attempts += 1
            try:
                session = await join(server.port, code, "Honest")
            except Exception as error:
                log.append(f"honest: {error!r}")
                code = table.room_code
        await asyncio.sleep(1.0)
        stop.set()
        await asyncio.wait_for(asyncio.gather(*guessers), 10)
        assert session is not None, [x for x in log if "honest" in x]
        assert session.seat == 0, [x for x in log if "honest" in x]
        assert successes[0] == 0
        # Paced: ~2 s of guessing from 40 addresses is a few dozen failures, not hundreds,
        # and the code did not rotate (it rotates after 100 failures).
        assert table.guard.total_failures <= 40, table.guard.total_failures
        assert server.code_rotations == 0
        assert table.room_code == code
        await session.close()
    finally:
        stop.set()
        for task in guessers:
            task.cancel()
        await server.close()


async def test_every_rotation_is_a_warning_with_the_new_code() -> None:
    log: list[str] = []
    seen: list[str] = []
    limits = ServerLimits(**GENEROUS, pace_free_failures=99, max_failures_per_ip=99, rotate_after=3)
    table, server = await serve(limits, log)
    server.on_code_rotated = seen.append
    try:
        for round_ in range(2):
            for k in range(3):
                with pytest.raises(ProtocolError):
                    await handshake(server.port, wrong(table.room_code, k), name=None)
            assert server.code_rotations == round_ + 1
        assert seen == [table.room_code] or (len(seen) == 2 and seen[-1] == table.room_code)
        assert len(seen) == 2
        warnings = [line for line in log if line.startswith("warning:")]
        assert len(warnings) == 2
        code = table.room_code
        assert f"{code[:3]} {code[3:]}" in warnings[-1]
    finally:
        await server.close()


async def test_first_guesses_from_many_new_addresses_do_not_queue_ahead_of_a_player() -> None:
    # The pace is on from the first failure (1 s between JOINs): 20 new addresses each
    # start a guess at once, then a player types the code. Served newest first, the player
    # is next in line; in arrival order the player would wait 20 s and time out.
    limits = ServerLimits(**GENEROUS, pace_free_failures=0, pace_step=1.0, pace_max=1.0)
    table, server = await serve(limits)
    guesses = []
    try:
        with pytest.raises(ProtocolError):  # one failure: the pace starts
            await handshake(server.port, wrong(table.room_code), ip="127.0.3.1", name=None)
        guesses = [
            asyncio.create_task(
                handshake(server.port, wrong(table.room_code, k), ip=f"127.0.4.{k}", name=None)
            )
            for k in range(1, 21)
        ]
        await asyncio.sleep(0.3)  # they are all waiting for their turn
        session = await join(server.port, table.room_code, "Lea")
        assert session.seat == 0
        # Served before the guessers that were queued first: most still wait their turn.
        assert sum(not task.done() for task in guesses) >= 15
        await session.close()
    finally:
        for task in guesses:
            task.cancel()
        await server.close()
