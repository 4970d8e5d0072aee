"""Handshake, key confirmation, resume, and the S2 / S6 security properties."""

from __future__ import annotations

import pytest
from wire_helpers import ROOM_ID, Table, hello, join, pump

from lanuno.wire.connection import ClientConnection, HostConnection, Phase
from lanuno.wire.crypto import (
    MAGIC_CLIENT,
    MAGIC_VERSION_REFUSED,
    Mode,
    RoomCodeGuard,
    counter_drbg,
    normalize_room_code,
)
from lanuno.wire.errors import CloseCode, LocalProtocolError, RemoteProtocolError
from lanuno.wire.messages import Welcome


def test_join_agrees_on_check_number_and_resume_secret() -> None:
    pair = join(Table())
    assert pair.client.phase is pair.host.phase is Phase.OPEN
    assert pair.client_done.check_number == pair.host_done.check_number
    assert pair.client_done.resume_secret == pair.host_done.resume_secret
    assert pair.client_done.generation == pair.host_done.generation == 0
    assert pair.client_done.seat is None
    assert pair.to_host(hello()) == [hello()]
    welcome = Welcome(
        version=1, seat=2, table="Kitchen", preset="official", options={"stacking": False}
    )
    assert pair.to_client(welcome) == [welcome]


def test_grouped_and_full_width_room_codes_normalise() -> None:
    assert normalize_room_code("123 456") == normalize_room_code("１２３-４５６") == "123456"
    for bad in ("12345", "1234567", "12a456", ""):
        with pytest.raises(ValueError):
            normalize_room_code(bad)


def wrong_code(code: str, k: int) -> str:
    return f"{(int(code) + 1 + k) % 10**6:06d}"


def test_s2_wrong_codes_never_connect_and_code_rotates_after_ten() -> None:
    table = Table()
    first_code = table.guard.code
    outcomes = []
    for attempt in range(25):
        host = table.host()
        client = ClientConnection.join(
            wrong_code(table.guard.code, attempt), counter_drbg(b"mallory%d" % attempt)
        )
        with pytest.raises(RemoteProtocolError) as raised:
            pump(client, host)
        outcomes.append(raised.value.code)
        assert host.phase is Phase.CLOSED
        assert client.phase is not Phase.OPEN
        if attempt == 9:
            assert table.guard.code != first_code
            assert table.guard.epoch == 1
        if attempt < 9:
            assert table.guard.code == first_code
    assert outcomes == [CloseCode.AUTH_FAILED] * 25
    assert table.guard.total_failures == 25
    assert table.guard.epoch == 2
    # The right code still works after all that.
    assert join(table).host.phase is Phase.OPEN


def test_client_sees_hangup_during_confirmation_as_wrong_code() -> None:
    table = Table()
    host = table.host()
    client = ClientConnection.join(wrong_code(table.guard.code, 0), counter_drbg(b"c"))
    with pytest.raises(RemoteProtocolError):
        pump(client, host)
    with pytest.raises(RemoteProtocolError) as raised:
        client.receive_data(b"")
    assert raised.value.code is CloseCode.AUTH_FAILED


def test_a_handshake_from_before_a_rotation_is_refused() -> None:
    table = Table()
    host = table.host()
    client = ClientConnection.join(table.guard.code, counter_drbg(b"c"))
    host.receive_data(client.data_to_send())
    table.guard.rotate()
    with pytest.raises(RemoteProtocolError) as raised:
        pump(client, host)
    assert raised.value.code is CloseCode.ROOM_CODE_ROTATED


def test_guard_counts_failures_per_epoch_only() -> None:
    guard = RoomCodeGuard(counter_drbg(b"g"), max_failures=2)
    assert not guard.record_failure(0)
    assert guard.record_failure(0)
    assert not guard.record_failure(0)  # a late failure against the old code
    assert guard.failures == 0
    assert guard.epoch == 1


def test_s6_host_whose_msg_b_differs_from_its_commitment_is_refused() -> None:
    table = Table()
    host = table.host()
    client = ClientConnection.join(table.guard.code, counter_drbg(b"c"))
    host.receive_data(client.data_to_send())
    client.receive_data(host.data_to_send())
    host.receive_data(client.data_to_send())
    msg_b = bytearray(host.data_to_send())
    msg_b[5] ^= 0x01  # any other SPAKE2 message, e.g. one ground for a matching SAS
    with pytest.raises(RemoteProtocolError) as raised:
        client.receive_data(bytes(msg_b))
    assert raised.value.code is CloseCode.COMMIT_MISMATCH
    assert client.data_to_send() == b""  # no confirmation leaves the client


def test_resume_rotates_secret_and_accepts_previous_generation() -> None:
    table = Table()
    first = join(table)
    table.secrets[(3, 0)] = first.host_done.resume_secret
    resumed = connect_resume(table, 3, 0, first.client_done.resume_secret)
    assert resumed.host_done.generation == resumed.client_done.generation == 1
    assert resumed.client_done.resume_secret != first.client_done.resume_secret
    assert resumed.client_done.check_number == resumed.host_done.check_number
    table.secrets[(3, 1)] = resumed.host_done.resume_secret
    # The client lost the host's confirmation and retries with generation 0: still fine.
    again = connect_resume(table, 3, 0, first.client_done.resume_secret)
    assert again.host_done.mode is Mode.RESUME
    assert again.host_done.seat == 3


def connect_resume(table: Table, seat: int, gen: int, secret: bytes):  # type: ignore[no-untyped-def]
    from wire_helpers import connect

    return connect(table, ClientConnection.resume(seat, gen, secret, counter_drbg(b"r%d" % gen)))


def test_resume_with_wrong_secret_or_unknown_generation_fails() -> None:
    table = Table()
    table.secrets[(1, 0)] = b"\x01" * 32
    with pytest.raises(RemoteProtocolError) as raised:
        pump(ClientConnection.resume(1, 0, b"\x02" * 32, counter_drbg(b"x")), table.host())
    assert raised.value.code is CloseCode.AUTH_FAILED
    assert table.guard.total_failures == 0  # a resume failure is not a room-code guess
    with pytest.raises(RemoteProtocolError) as raised:
        pump(ClientConnection.resume(1, 7, b"\x01" * 32, counter_drbg(b"x")), table.host())
    assert raised.value.code is CloseCode.RESUME_REJECTED


def test_bad_magic_and_other_generation() -> None:
    host = Table().host()
    with pytest.raises(RemoteProtocolError) as raised:
        host.receive_data(b"GET / HTTP/1.1\r\n")
    assert raised.value.code is CloseCode.BAD_MAGIC
    host = Table().host()
    with pytest.raises(RemoteProtocolError) as raised:
        host.receive_data(b"LANUNO/1 C\n\x01\xff\x00")  # generation 1: 14 bytes
    assert raised.value.code is CloseCode.VERSION_MISMATCH
    # The refusal generation-1 clients know (their own digit): "another generation".
    assert host.data_to_send() == b"LANUNO/1 V\n"
    client = ClientConnection.join("123456", counter_drbg(b"c"))
    with pytest.raises(RemoteProtocolError) as raised:
        client.receive_data(MAGIC_VERSION_REFUSED)
    assert raised.value.code is CloseCode.VERSION_MISMATCH


@pytest.mark.parametrize(
    "tail",
    [
        b"\x04\x01\xff\x00",
        b"\x03\x01\xff\x00",  # SCREEN at a host that takes no screens
        b"\x01\x01\x0a\x00",
        b"\x01\x01\xff\x01",
        b"\x02\x01\xff\x00",
    ],
)
def test_bad_mode_seat_or_generation(tail: bytes) -> None:
    with pytest.raises(RemoteProtocolError):
        Table().host().receive_data(MAGIC_CLIENT + tail)


@pytest.mark.parametrize("seat", [0, 2, 9])
def test_a_join_naming_a_seat_is_refused_without_an_answer(seat: int) -> None:
    """H-1: version 1 has no seat wishes; a JOIN names no seat (255)."""
    host = Table().host()
    with pytest.raises(RemoteProtocolError) as raised:
        host.receive_data(MAGIC_CLIENT + bytes((1, 1, seat, 0)))
    assert raised.value.code is CloseCode.PROTOCOL_ERROR
    assert host.data_to_send() == b""


def test_send_before_open_and_after_close_is_a_local_error() -> None:
    client = ClientConnection.join("123456", counter_drbg(b"c"))
    with pytest.raises(LocalProtocolError):
        client.send(hello())
    pair = join(Table())
    bye = pair.client.close(CloseCode.NORMAL, "bed time")
    events = pair.host.receive_data(bye)
    assert events[-1].clean
    assert events[-1].reason == "bed time"
    assert pair.host.phase is Phase.CLOSED
    with pytest.raises(LocalProtocolError):
        pair.client.send(hello())


def test_host_constructor_checks_room_id() -> None:
    with pytest.raises(ValueError):
        HostConnection(RoomCodeGuard(counter_drbg(b"g")), ROOM_ID[:8], counter_drbg(b"h"), {}.get)  # type: ignore[arg-type]
