"""The host's SPAKE2 steps run elsewhere (``HostConnection(offload=True)``, ``run_spake``
in a worker process): the handshake is byte for byte the published vector."""

from __future__ import annotations

import concurrent.futures
import json
import multiprocessing
from pathlib import Path

import pytest

from lanuno.wire.connection import ClientConnection, HandshakeComplete, HostConnection, Phase
from lanuno.wire.crypto import RoomCodeGuard, counter_drbg
from lanuno.wire.errors import RemoteProtocolError
from lanuno.wire.spake_work import SpakeFinish, SpakeStart, run_spake

VECTOR = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "handshake.json"


def offloaded_host(vector: dict[str, str]) -> HostConnection:
    guard = RoomCodeGuard(counter_drbg(b"guard"), code=vector["room_code"])
    return HostConnection(
        guard,
        bytes.fromhex(vector["room_id"]),
        counter_drbg(bytes.fromhex(vector["host_random_seed"])),
        lambda _s, _g: None,
        offload=True,
    )


def test_an_offloaded_host_in_a_worker_process_reproduces_the_handshake_vector() -> None:
    vector = json.loads(VECTOR.read_text())
    host = offloaded_host(vector)
    context = multiprocessing.get_context("spawn")
    done = []
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as pool:
        for step in vector["steps"]:
            data = bytes.fromhex(step["hex"])
            if step["from"] == "client":
                events = host.receive_data(data)
                while host.work is not None:
                    events += host.complete_work(pool.submit(run_spake, host.work).result(30))
                done += [e for e in events if isinstance(e, HandshakeComplete)]
            else:
                assert host.data_to_send() == data
    assert host.phase is Phase.OPEN
    assert len(done) == 1
    assert f"{done[0].check_number:06d}" == vector["keys"]["sas"]


def test_nothing_is_read_while_a_step_is_out_and_a_bad_element_is_refused() -> None:
    vector = json.loads(VECTOR.read_text())
    host = offloaded_host(vector)
    client = ClientConnection.join(vector["room_code"], counter_drbg(b"another client"))
    assert host.receive_data(client.data_to_send()) == []
    assert isinstance(host.work, SpakeStart)
    assert host.data_to_send() == b""  # the host hello waits for msgB's commitment
    # msgA arrives before the start is done: buffered, not read.
    assert host.receive_data(b"\x41" + b"\xff" * 32) == []
    assert isinstance(host.work, SpakeStart)
    assert host.complete_work(run_spake(host.work)) == []
    assert isinstance(host.work, SpakeFinish)  # then read at once
    with pytest.raises(RemoteProtocolError, match="bad SPAKE2 message"):
        host.complete_work(run_spake(host.work))
    assert host.phase is Phase.CLOSED
