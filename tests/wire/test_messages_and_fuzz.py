"""Message validation, the codec's limits, and fuzzing every connection phase (R1, R2)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import msgpack
import pytest
from helpers import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wire_helpers import ConnectionPair, Table, hello, join, pump, sample_state

from lanuno.engine.actions import parse_action
from lanuno.engine.cards import ALL_FACES
from lanuno.wire.connection import ClientConnection, ConnectionClosed, HostConnection
from lanuno.wire.crypto import MAGIC_CLIENT, counter_drbg
from lanuno.wire.errors import CloseCode, ProtocolError, RemoteProtocolError
from lanuno.wire.framing import FrameSealer, pad, unpad
from lanuno.wire.messages import (
    ACTION_NOTATIONS,
    CARD_CODES,
    Ack,
    ActionRequest,
    Bye,
    ClientSeedReveal,
    ErrorReply,
    Event,
    GameEnd,
    HostSeedReveal,
    Lobby,
    LobbySeat,
    Message,
    MessageError,
    Ping,
    Pong,
    Ready,
    Role,
    RoundEnd,
    SeatSeed,
    SeedCommit,
    State,
    Welcome,
    decode,
    encode,
    field_names,
)

HOST_SAMPLES: list[Message] = [
    Welcome(
        version=1,
        seat=0,
        table="Kitchen table",
        preset="official",
        options={"stacking": True, "target": 500, "x": None},
        last_seq=41,
    ),
    Lobby(
        seats=(
            LobbySeat(
                name="Ann", kind="human", kid=False, connected=True, ready=True, check=123456
            ),
            LobbySeat(name=None, kind="empty", kid=False, connected=False, ready=False, check=None),
            LobbySeat(name="Bot 1", kind="bot", kid=False, connected=True, ready=True, check=None),
        ),
        preset="kids1",
        options={},
        can_start=False,
    ),
    sample_state(random.Random(5)),
    Event(sid=9, type="played", fields={"seat": 1, "card": "W+4", "color": "G"}),
    ErrorReply(code="illegal", rule="O12", text="That card does not match the red 7.", seq=4),
    Ack(seq=4),
    SeedCommit(round=1, commit=b"\x01" * 32),
    HostSeedReveal(
        round=1,
        host_seed=b"\x02" * 32,
        seeds=(SeatSeed(seat=0, seed=b"\x03" * 32, commit=b"\x04" * 32),),
        deck=("R1", "W"),
    ),
    RoundEnd(round=1, winner=0, points=87, scores=(87, 0)),
    GameEnd(winner=None, scores=(500, 20)),
    Pong(n=7),
    Bye(code=0, reason="thanks"),
]
CLIENT_SAMPLES: list[Message] = [
    hello(),
    Ready(ready=True),
    ActionRequest(seq=1, sid=2, a="give 0 3"),
    ClientSeedReveal(round=1, seed=b"\x05" * 32, next_commit=b"\x06" * 32),
    Ping(n=0),
    Bye(code=5, reason=""),
]


@pytest.mark.parametrize("message", HOST_SAMPLES, ids=lambda m: m.TYPE)
def test_host_messages_round_trip(message: Message) -> None:
    payload, _ = encode(message)
    assert decode(payload, Role.HOST) == message


@pytest.mark.parametrize("message", CLIENT_SAMPLES, ids=lambda m: m.TYPE)
def test_client_messages_round_trip(message: Message) -> None:
    payload, _ = encode(message)
    assert decode(payload, Role.CLIENT) == message


def test_unknown_keys_are_ignored_unknown_types_are_not() -> None:
    wire = Ack(seq=3).to_wire() | {"future": [1, 2, 3]}
    assert decode(msgpack.packb(wire), Role.HOST) == Ack(seq=3)
    with pytest.raises(MessageError):
        decode(msgpack.packb({"t": "teleport"}), Role.HOST)
    with pytest.raises(MessageError):  # a client may not send host messages
        decode(encode(Ack(seq=3))[0], Role.CLIENT)


@pytest.mark.parametrize(
    ("factory", "why"),
    [
        (lambda: ActionRequest(seq=0, sid=1, a="draw"), "seq"),
        (lambda: ActionRequest(seq=1, sid=1, a="0 play R7"), "seat prefix"),
        (lambda: ActionRequest(seq=1, sid=1, a="timeout"), "host-only verb"),
        (lambda: ActionRequest(seq=1, sid=-1, a="draw"), "sid"),
        (lambda: ActionRequest(seq=True, sid=1, a="draw"), "bool as int"),
        (lambda: replace(hello(), name=""), "empty name"),
        (lambda: replace(hello(), name="x" * 33), "long name"),
        (lambda: replace(hello(), name="Ann\u202e"), "bidi override"),
        (lambda: replace(hello(), age=121), "age"),
        (lambda: replace(hello(), seed_commit=b"\x00" * 31), "commit length"),
        (lambda: replace(sample_state(random.Random(1)), hand=("R7", "Q9")), "card"),
        (lambda: replace(sample_state(random.Random(1)), turn=4), "turn"),
        (lambda: replace(sample_state(random.Random(1)), direction=0), "direction"),
        (lambda: replace(sample_state(random.Random(1)), phase="nap"), "phase"),
        (lambda: replace(sample_state(random.Random(1)), scores=(0, 0)), "scores length"),
        (lambda: Event(sid=1, type="x", fields={"k": [[1]]}), "nested list"),
        (lambda: Welcome(version=1, seat=10, table="T", preset="official", options={}), "seat"),
        (
            lambda: Welcome(
                version=1, seat=0, table="T", preset="official", options={}, last_seq=-1
            ),
            "last_seq",
        ),
    ],
)
def test_validation_rejects_out_of_bounds(factory: Any, why: str) -> None:
    with pytest.raises(MessageError):
        factory()


def test_a_welcome_from_an_older_host_has_no_applied_action() -> None:
    """``welcome.last_seq`` came after version 1 shipped: a host without it sends none."""
    wire = HOST_SAMPLES[0].to_wire()
    assert wire.pop("last_seq") == 41
    welcome = Welcome.from_wire(wire)
    assert welcome.last_seq == 0


def test_every_client_action_parses_in_the_engine() -> None:
    assert {c.code for c in ALL_FACES} == CARD_CODES
    for notation in ACTION_NOTATIONS:
        assert str(parse_action(f"3 {notation}")) == f"3 {notation}"


STATE_FIELD_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 2**64 + 3), st.text(max_size=5),
    st.sampled_from(["R7", "W+4", "play R7", "turn", "G"]),
    st.lists(st.integers(0, 12), max_size=11),
    st.lists(st.sampled_from(["R7", "draw", "Q"]), max_size=3),
)  # fmt: skip


@settings(max_examples=examples(300), suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(field_names(State)), STATE_FIELD_VALUES)
def test_state_fast_check_agrees_with_the_detailed_one(name: str, value: Any) -> None:
    base = sample_state(random.Random(9))
    wire = base.to_wire() | {name: value}
    try:
        message = State.from_wire(wire)
    except (MessageError, TypeError):
        return
    # Accepted by the fast path: the field-by-field explanation must find nothing wrong.
    with pytest.raises(MessageError, match="state: invalid"):
        message._explain_invalid()


def test_padding_hides_hand_and_playable_cards() -> None:
    short = replace(sample_state(random.Random(1)), hand=("R1",) * 7, legal=("draw",))
    long = replace(
        short,
        hand=("W+4",) * 7,
        legal=(*tuple(f"play {c}" for c in ("W+4", "G+2", "B+2", "R+2", "Y+2", "W", "RS")), "draw"),
    )
    assert len(pad(*encode(short))) == len(pad(*encode(long)))


def test_pad_round_trip_and_zero_padding_required() -> None:
    assert unpad(pad(b"abc")) == b"abc"
    assert len(pad(b"x" * 254)) == 256
    assert len(pad(b"x" * 255)) == 512
    with pytest.raises(RemoteProtocolError):
        unpad(pad(b"abc")[:-1] + b"\x01")


# ---------------------------------------------------------------------------------- fuzzing


def fresh_open_pair() -> ConnectionPair:
    pair = join(Table())
    pair.to_host(hello())
    return pair


PAIR = None


def open_pair() -> ConnectionPair:
    """One handshake per test run: each example restores the receiving counters."""
    global PAIR
    if PAIR is None:
        PAIR = fresh_open_pair()
    return PAIR


def feed_authenticated(pair: ConnectionPair, to_host: bool, payload: bytes) -> None:
    """Seal ``payload`` with the real sender key and counter, feed it to a fresh receiver
    state, and require a clean protocol error or a valid message."""
    sender, receiver = (pair.client, pair.host) if to_host else (pair.host, pair.client)
    assert sender.tx is not None
    assert receiver.rx is not None
    sealer = FrameSealer(sender.tx.key, sender.tx._aad)
    sealer.counter = receiver.rx.counter
    counter = receiver.rx.counter
    phase, hello_seen, last_seq = receiver.phase, receiver._hello_seen, receiver._last_seq
    try:
        events = receiver.receive_data(sealer.seal(payload))
        assert all(isinstance(e, Message) or hasattr(e, "clean") for e in events)
    except ProtocolError as error:
        assert error.code in (CloseCode.PROTOCOL_ERROR,)
        assert_closed_for_good(receiver)
    finally:  # rewind the receiver for the next example
        receiver.rx.counter = counter
        receiver.phase, receiver._hello_seen, receiver._last_seq = phase, hello_seen, last_seq
        receiver._buffer.clear()


def assert_closed_for_good(connection: HostConnection | ClientConnection) -> None:
    """After a protocol error the connection is closed: whatever its close left to send
    (a refusal line) goes out once, then it accepts and sends nothing more."""
    assert connection.closed
    connection.data_to_send()
    assert connection.receive_data(b"\x00" * 64) == []
    assert connection.data_to_send() == b""


def nested(depth: int) -> bytes:
    return b"\x91" * depth + b"\xc0"


MALFORMED = st.one_of(
    st.binary(max_size=600),
    st.builds(
        lambda v: msgpack.packb(v),
        st.recursive(
            st.none()
            | st.booleans()
            | st.integers(-(2**63), 2**64 - 1)
            | st.floats()
            | st.text(max_size=8)
            | st.binary(max_size=8),
            lambda inner: (
                st.lists(inner, max_size=4)
                | st.dictionaries(st.text(max_size=6), inner, max_size=4)
            ),
            max_leaves=20,
        ),
    ),
    st.builds(
        lambda t, k, v: msgpack.packb({"t": t, k: v}),
        st.sampled_from(
            ["hello", "action", "state", "lobby", "event", "seed_reveal", "bye", "welcome"]
        ),
        st.sampled_from(["seq", "sid", "a", "hand", "seats", "fields", "name", "versions", "uno"]),
        st.one_of(
            st.integers(-(2**63), 2**64 - 1),
            st.text(max_size=40),
            st.lists(st.integers(-(2**63), 2**64 - 1), max_size=300),
        ),
    ),
    st.sampled_from(
        [
            nested(5000),
            b"\xdd\xff\xff\xff\xff",
            b"\xdf\xff\xff\xff\xff",
            b"\xd4\x05\x00",
            b"\xd6\xff\x00\x00\x00\x01",
            msgpack.packb({"t": "state"}),
            msgpack.packb([1] * 300),
            msgpack.packb({str(i): i for i in range(100)}),
            b"\xc1",
        ]
    ),
)


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.booleans(), MALFORMED)
def test_fuzz_authenticated_malformed_payloads(to_host: bool, payload: bytes) -> None:
    feed_authenticated(open_pair(), to_host, payload)


@settings(max_examples=examples(300), deadline=None)
@given(st.binary(max_size=200))
def test_fuzz_arbitrary_bytes_into_a_fresh_host(data: bytes) -> None:
    host = Table().host()
    try:
        host.receive_data(data)
        host.receive_data(b"")
    except ProtocolError:
        assert_closed_for_good(host)


@settings(max_examples=examples(300), deadline=None)
@given(st.binary(max_size=200))
def test_fuzz_arbitrary_bytes_into_a_waiting_client(data: bytes) -> None:
    client = ClientConnection.join("123456", counter_drbg(b"c"))
    try:
        client.receive_data(data)
        client.receive_data(b"")
    except ProtocolError:
        assert_closed_for_good(client)


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(0, 3), st.binary(max_size=120))
def test_fuzz_arbitrary_bytes_after_each_handshake_step(steps: int, data: bytes) -> None:
    table = Table()
    host: HostConnection = table.host()
    client = ClientConnection.join(table.guard.code, counter_drbg(b"c"))
    target: Any = host
    for step in range(steps):  # advance the handshake, then inject garbage at that point
        if step % 2 == 0:
            host.receive_data(client.data_to_send())
            target = client
        else:
            client.receive_data(host.data_to_send())
            target = host
    try:
        target.receive_data(data)
        target.receive_data(b"")
    except ProtocolError:
        assert_closed_for_good(target)


def test_oversized_length_header_closes_at_once() -> None:
    pair = fresh_open_pair()
    with pytest.raises(RemoteProtocolError) as raised:
        pair.host.receive_data(b"\xff\xff")
    assert raised.value.code is CloseCode.FRAME_TOO_LARGE


def test_client_must_say_hello_first_and_keep_seq_increasing() -> None:
    table = Table()
    pair = join(table)
    with pytest.raises(RemoteProtocolError):
        pair.host.receive_data(pair.client._tx.seal(encode(Ping(n=1))[0]))  # type: ignore[union-attr]
    pair = join(table, b"again")
    pair.to_host(hello())
    pair.to_host(ActionRequest(seq=5, sid=1, a="draw"))
    with pytest.raises(RemoteProtocolError):
        pair.host.receive_data(
            pair.client._tx.seal(encode(ActionRequest(seq=5, sid=1, a="draw"))[0])
        )  # type: ignore[union-attr]
    pump(pair.client, pair.host)
    assert MAGIC_CLIENT.startswith(b"LANUNO/2")


# ------------------------------------------------------------------- protocol errors (M-1..8)


def bye_after(pair: ConnectionPair, payload: bytes) -> Bye:
    """Feed the host one authenticated payload that must be refused; the ``bye`` it queues."""
    assert pair.client.tx is not None
    with pytest.raises(RemoteProtocolError) as raised:
        pair.host.receive_data(pair.client.tx.seal(payload))
    assert raised.value.code is CloseCode.PROTOCOL_ERROR
    assert pair.host.closed
    events = pair.client.receive_data(pair.host.data_to_send())
    assert len(events) == 2
    assert pair.client.closed
    bye, closed = events
    assert isinstance(bye, Bye)
    assert bye.code == CloseCode.PROTOCOL_ERROR
    assert closed == ConnectionClosed(code=2, reason=bye.reason, clean=True)
    return bye


@pytest.mark.parametrize(
    ("payload", "named"),
    [
        (msgpack.packb({"t": "teleport"}), "message.t"),
        (msgpack.packb({"t": "ping", "n": -1}), "ping.n"),
        (msgpack.packb({"t": "ping", "n": True}), "ping.n"),
        (msgpack.packb({"t": "ack", "seq": 1}), "message.t"),
        (b"\xc1", "msgpack"),
        (msgpack.packb({"t": "ping", "n": msgpack.ExtType(1, b"x")}), "msgpack"),
    ],
)
def test_a_malformed_message_is_answered_with_a_bye_naming_it(payload: bytes, named: str) -> None:
    pair = fresh_open_pair()
    assert named in bye_after(pair, payload).reason


def test_messages_out_of_order_are_answered_with_a_bye() -> None:
    pair = join(Table())  # no hello yet
    assert "before hello" in bye_after(pair, msgpack.packb({"t": "ping", "n": 1})).reason
    pair = fresh_open_pair()
    assert "hello twice" in bye_after(pair, encode(hello())[0]).reason
    pair = fresh_open_pair()
    pair.to_host(ActionRequest(seq=5, sid=1, a="draw"))
    assert "seq" in bye_after(pair, encode(ActionRequest(seq=5, sid=1, a="draw"))[0]).reason


def test_a_frame_failure_closes_without_a_bye() -> None:
    pair = fresh_open_pair()
    frame = bytearray(pair.client.send(Ping(n=1)))
    frame[-1] ^= 1
    with pytest.raises(RemoteProtocolError) as raised:
        pair.host.receive_data(bytes(frame))
    assert raised.value.code is CloseCode.DECRYPT_FAILED
    assert pair.host.data_to_send() == b""
