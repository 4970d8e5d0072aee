"""The wire's refusals at its limits: frames that lie about their length, counters at
their end, seeds of the wrong size, a deck too small for its deal, a seed revealed twice.
Each is a clear error the connection turns into a close, never a crash or a wrong result."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from typing import Any

import msgpack
import pytest
from wire_helpers import hello, sample_state

from lanuno.wire import framing
from lanuno.wire.crypto import RoomCodeGuard, SessionKeys
from lanuno.wire.errors import CloseCode, LocalProtocolError, RemoteProtocolError
from lanuno.wire.fairness import (
    FairnessError,
    FairShuffler,
    SeatSeedBook,
    check_my_deal,
    client_seed_commitment,
    combine_seeds,
)
from lanuno.wire.messages import (
    ClientSeedReveal,
    Event,
    HostSeedReveal,
    Lobby,
    LobbySeat,
    MessageError,
    Ready,
    Role,
    ScreenInfo,
    SeatSeed,
    decode,
)
from lanuno.wire.spake_work import SpakeFinish, SpakeStart, run_spake

KEY, AAD = bytes(32), b"aad"


def test_a_payload_too_large_for_one_frame_is_refused_before_sending() -> None:
    with pytest.raises(LocalProtocolError) as caught:
        framing.pad(bytes(framing.MAX_PAYLOAD + 1))
    assert caught.value.code is CloseCode.FRAME_TOO_LARGE
    assert len(framing.pad(bytes(framing.MAX_PAYLOAD))) == framing.MAX_PLAINTEXT


@pytest.mark.parametrize(
    ("plaintext", "why"),
    [
        (b"\x00", "shorter than its header"),
        (b"\x00\x05abc", "length beyond the frame"),
        (b"\x00\x01a\x00\x01", "not all zeros"),
    ],
)
def test_a_plaintext_that_lies_about_its_payload_is_a_protocol_error(
    plaintext: bytes, why: str
) -> None:
    with pytest.raises(RemoteProtocolError, match=why) as caught:
        framing.unpad(plaintext)
    assert caught.value.code is CloseCode.PROTOCOL_ERROR


def test_counters_at_their_end_refuse_to_seal_or_open() -> None:
    sealer, opener = framing.FrameSealer(KEY, AAD), framing.FrameOpener(KEY, AAD)
    frame = bytearray(sealer.seal(b"hello"))
    assert opener.open_next(bytearray(frame)) == b"hello"
    sealer.counter = framing.COUNTER_LIMIT
    with pytest.raises(LocalProtocolError) as sent:
        sealer.seal(b"one too many")
    assert sent.value.code is CloseCode.COUNTER_EXHAUSTED
    opener.counter = framing.COUNTER_LIMIT
    with pytest.raises(RemoteProtocolError) as received:
        opener.open_next(frame)
    assert received.value.code is CloseCode.COUNTER_EXHAUSTED


def test_seeds_of_the_wrong_size_are_refused() -> None:
    with pytest.raises(FairnessError, match="32 bytes"):
        combine_seeds(bytes(16), 1, bytes(32), {0: bytes(31)})
    with pytest.raises(FairnessError, match="32 bytes"):
        combine_seeds(bytes(16), 1, bytes(33), {})
    with pytest.raises(ValueError, match="32 bytes"):
        FairShuffler(bytes(16))


def test_a_deck_too_small_for_the_deal_it_claims_is_caught() -> None:
    with pytest.raises(FairnessError, match="too small"):
        check_my_deal(
            ("R1",) * 14, seats=2, dealer=0, hand_size=7, seat=0, my_hand=None, turned=None
        )


def test_a_seat_cannot_reveal_two_seeds_for_one_round() -> None:
    book = SeatSeedBook()
    first, second, third = bytes(32), bytes([1]) * 32, bytes([2]) * 32
    book.commit(3, client_seed_commitment(first))
    book.accept(
        3, ClientSeedReveal(round=1, seed=first, next_commit=client_seed_commitment(second))
    )
    with pytest.raises(FairnessError, match="second seed for round 1"):
        book.accept(
            3, ClientSeedReveal(round=1, seed=second, next_commit=client_seed_commitment(third))
        )


def test_secrets_never_reach_a_log_line() -> None:
    """A ``repr`` ends up in tracebacks and logs: it names no password, key or state."""
    start = SpakeStart(password=b"482915", id_a=b"a", id_b=b"b", entropy=bytes(64))
    finish = SpakeFinish(state=b"secret state", msg_a=b"A" + bytes(32))
    assert "482915" not in repr(start)
    assert "secret" not in repr(finish)
    keys = SessionKeys(
        c2h_key=b"k" * 32,
        h2c_key=b"h" * 32,
        c2h_confirm=b"c" * 32,
        h2c_confirm=b"f" * 32,
        check_number=123456,
        resume_next=b"r" * 32,
    )
    assert repr(keys) == "SessionKeys(check_number=123 456)"


def test_spake_work_refuses_entropy_of_the_wrong_size() -> None:
    with pytest.raises(ValueError, match="bytes of entropy"):
        run_spake(SpakeStart(password=b"482915", id_a=b"a", id_b=b"b", entropy=bytes(10)))


def test_a_room_code_guard_needs_at_least_one_failure_to_rotate() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        RoomCodeGuard(lambda n: bytes(n), max_failures=0)


def _seat(**changes: Any) -> LobbySeat:
    seat = LobbySeat(name="Ann", kind="human", kid=False, connected=True, ready=False, check=1)
    return replace(seat, **changes)


def _reveal(seeds: tuple[Any, ...]) -> HostSeedReveal:
    return HostSeedReveal(round=1, host_seed=bytes(32), seeds=seeds, deck=("R1",))


def _screen(code: str) -> ScreenInfo:
    return ScreenInfo(version=2, table=1, name="Kitchen", code=code, addresses=(), announced=False)


def _lobby() -> Lobby:
    return Lobby(seats=(_seat(), _seat()), preset="official", options={}, can_start=False)


STATE = sample_state(random.Random(7))
SEED = SeatSeed(seat=0, seed=bytes(32), commit=bytes(32))


@pytest.mark.parametrize(
    ("factory", "named"),
    [
        (lambda: Ready(ready="yes"), "ready.ready"),
        (lambda: replace(hello(), name="   "), "hello.name"),
        (lambda: replace(_lobby(), preset="no spaces!"), "lobby.preset"),
        (lambda: replace(STATE, hand=(["R7"],)), "state.hand"),
        (lambda: replace(STATE, legal=({"a": 1},)), "state.legal"),
        (lambda: replace(STATE, scores=(0, -1, 0, 0)), "state.scores"),
        (lambda: replace(STATE, uno=((True, "no"),) * 4), "state.uno"),
        (lambda: replace(_lobby(), options={f"o{i}": 1 for i in range(99)}), "lobby.options"),
        (lambda: replace(_lobby(), seats=({"name": "Ann"}, _seat())), "lobby.seats"),
        (lambda: Event(sid=1, type="x", fields={f"f{i}": 1 for i in range(99)}), "event.fields"),
        (lambda: _reveal(({"seat": 0},)), "seed_reveal.seeds"),
        (lambda: _reveal((SEED, SEED)), "one seed per seat"),
        (lambda: _screen("12345x"), "screen.code"),
    ],
)
def test_each_field_check_names_the_field_it_refuses(factory: Any, named: str) -> None:
    with pytest.raises(MessageError, match=re.escape(named)):
        factory()


def test_uno_flags_given_as_a_list_are_kept_as_a_tuple() -> None:
    state = replace(STATE, uno=list(STATE.uno))
    assert state.uno == STATE.uno
    assert isinstance(state.uno, tuple)


def test_msgpack_extensions_and_odd_shapes_are_malformed_messages() -> None:
    with pytest.raises(MessageError, match="extension type 5"):
        decode(b"\xc7\x00\x05", Role.HOST)  # an ext 8 of length 0, type 5
    odd = msgpack.packb({"t": "ack", "seq": {"not": "an int"}})
    with pytest.raises(MessageError, match="ack"):
        decode(odd, Role.HOST)
