"""S1, S3, S4, S5: what a sniffer sees, tampering, replay, and nonce uniqueness."""

from __future__ import annotations

import random

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from wire_helpers import SORTED_CODES, ConnectionPair, Table, hello, join, sample_state

from lanuno.wire.connection import ClientConnection, ConnectionClosed
from lanuno.wire.crypto import counter_drbg
from lanuno.wire.errors import CloseCode, RemoteProtocolError
from lanuno.wire.framing import FrameOpener, frame_aad
from lanuno.wire.messages import ActionRequest, Event, Message, Ping, State, UnoFlags

# ---------------------------------------------------------------------------------- S1


def scripted_game(hand_seed: int, seats: int = 4, turns: int = 60) -> tuple[list[list[int]], bytes]:
    """Frame lengths per seat and every byte on the wire for a synthetic game.

    The public play (hand sizes, cards played, phases, whose turn) comes from a fixed rng;
    the hands, the drawn cards and which cards are playable come from ``hand_seed``.
    """
    public = random.Random(7)
    private = random.Random(hand_seed)
    table = Table()
    pairs: list[ConnectionPair] = [join(table, b"seat%d" % s) for s in range(seats)]
    wire = bytearray()
    lengths: list[list[int]] = [[] for _ in range(seats)]
    counts = [7] * seats
    hands = [[private.choice(SORTED_CODES) for _ in range(7)] for _ in range(seats)]

    def to_seat(seat: int, message: Message) -> None:
        frame = pairs[seat].host.send(message)
        wire.extend(frame)
        lengths[seat].append(len(frame))
        assert pairs[seat].client.receive_data(frame) == [message]

    for seat, pair in enumerate(pairs):
        frame = pair.client.send(hello(f"P{seat}"))
        wire.extend(frame)
        pair.host.receive_data(frame)
    for turn in range(turns):
        actor = turn % seats
        sid = turn + 1
        for seat in range(seats):
            hand = hands[seat]
            playable = sorted({f"play {c}" for c in hand if private.random() < 0.5})
            legal = (*playable, "draw", *(["uno"] if len(hand) == 2 else []))
            state = State(
                sid=sid, round=1, hand=tuple(hand), counts=tuple(counts), top="R5", color="R",
                direction=1, turn=actor, actor=actor, phase="turn", pending=0,
                legal=legal if seat == actor else (), uno=(UnoFlags(False, False),) * seats,
                scores=(0,) * seats, draw_pile=40, discard_count=turn, deadline_ms=None,
                dealer=0,
            )  # fmt: skip
            to_seat(seat, state)
        if public.random() < 0.5 and counts[actor] > 1:  # a public play: same card both games
            card = public.choice(SORTED_CODES)
            hands[actor].pop()
            counts[actor] -= 1
            for seat in range(seats):
                to_seat(seat, Event(sid, "played", {"seat": actor, "card": card}))
        else:  # a draw: only the drawer learns the card
            drawn = private.choice(SORTED_CODES)
            hands[actor].append(drawn)
            counts[actor] += 1
            for seat in range(seats):
                fields = (
                    {"seat": actor, "cards": (drawn,)}
                    if seat == actor
                    else {"seat": actor, "count": 1}
                )
                to_seat(seat, Event(sid, "drew", fields))
        frame = pairs[actor].client.send(ActionRequest(sid, sid, "draw"))
        wire.extend(frame)
        pairs[actor].host.receive_data(frame)
    return lengths, bytes(wire)


def test_s1_same_public_play_gives_same_frame_lengths() -> None:
    lengths_a, _ = scripted_game(hand_seed=1)
    lengths_b, _ = scripted_game(hand_seed=2)
    assert lengths_a == lengths_b


def test_s1_no_card_or_hand_data_in_cleartext() -> None:
    _, wire = scripted_game(hand_seed=3)
    needles = [msgpack.packb(key) for key in ("hand", "legal", "cards", "played", "drew")]
    needles += [msgpack.packb(code) for code in SORTED_CODES if len(code) == 3]
    needles += [b"play ", b"W+4", b"G+2"]
    for needle in needles:
        assert needle not in wire, needle


# ---------------------------------------------------------------------------------- S3


def recorded_frame() -> tuple[ConnectionPair, bytes]:
    pair = join(Table())
    pair.to_host(hello())
    return pair, pair.host.send(sample_state(random.Random(1)))


def test_s3_every_bit_flip_is_rejected_by_the_frame_layer() -> None:
    pair, frame = recorded_frame()
    assert pair.client.rx is not None
    key, counter = pair.client.rx.key, pair.client.rx.counter
    aad = frame_aad(2, pair.client.room_id, 255)
    opener = FrameOpener(key, aad)
    opener.counter = counter
    assert opener.open_next(bytearray(frame)) is not None  # the untouched frame opens
    for bit in range(len(frame) * 8):
        flipped = bytearray(frame)
        flipped[bit // 8] ^= 1 << (bit % 8)
        opener = FrameOpener(key, aad)
        opener.counter = counter
        try:
            result = opener.open_next(flipped)
        except RemoteProtocolError:
            continue
        # A longer (still well-formed) length waits for bytes that never authenticate.
        assert result is None and bit < 8, bit


@pytest.mark.parametrize("bit", [*range(16), 16, 100, 1000, 4000, -1])
def test_s3_bit_flip_closes_the_connection(bit: int) -> None:
    pair, frame = recorded_frame()
    flipped = bytearray(frame)
    bit %= len(frame) * 8
    flipped[bit // 8] ^= 1 << (bit % 8)
    with pytest.raises(RemoteProtocolError):
        pair.client.receive_data(bytes(flipped))
        pair.client.receive_data(b"")  # a header that now claims more bytes: truncated
    assert pair.client.closed


# ---------------------------------------------------------------------------------- S4


def test_s4_replayed_frame_is_rejected() -> None:
    pair, frame = recorded_frame()
    pair.client.receive_data(frame)
    with pytest.raises(RemoteProtocolError) as raised:
        pair.client.receive_data(frame)
    assert raised.value.code is CloseCode.DECRYPT_FAILED


def test_s4_reordered_and_dropped_frames_are_rejected() -> None:
    pair, first = recorded_frame()
    second = pair.host.send(sample_state(random.Random(2), sid=2))
    with pytest.raises(RemoteProtocolError):
        pair.client.receive_data(second + first)
    pair, first = recorded_frame()
    second = pair.host.send(sample_state(random.Random(2), sid=2))
    with pytest.raises(RemoteProtocolError):
        pair.client.receive_data(second)  # first never arrived


def test_s4_reflected_frame_is_rejected() -> None:
    pair = join(Table())
    frame = pair.client.send(hello())
    with pytest.raises(RemoteProtocolError) as raised:
        pair.client.receive_data(frame)
    assert raised.value.code is CloseCode.DECRYPT_FAILED


def test_s4_frame_from_another_connection_is_rejected() -> None:
    table = Table()
    one, two = join(table, b"one"), join(table, b"two")
    one.to_host(hello())
    two.to_host(hello())
    with pytest.raises(RemoteProtocolError):
        two.client.receive_data(one.host.send(sample_state(random.Random(3))))


def test_s4_truncation_is_detected() -> None:
    pair, frame = recorded_frame()
    pair.client.receive_data(frame[:-1])
    with pytest.raises(RemoteProtocolError) as raised:
        pair.client.receive_data(b"")
    assert raised.value.code is CloseCode.TRUNCATED
    pair, frame = recorded_frame()
    pair.client.receive_data(frame)
    (closed,) = pair.client.receive_data(b"")  # between frames but without bye: a drop
    assert isinstance(closed, ConnectionClosed) and not closed.clean


# ---------------------------------------------------------------------------------- S5


@settings(max_examples=12, deadline=None)
@given(st.lists(st.sampled_from(["c2h", "h2c", "reconnect"]), min_size=1, max_size=25))
def test_s5_no_key_nonce_pair_repeats_and_every_connection_has_fresh_keys(
    script: list[str],
) -> None:
    table = Table()
    used: set[tuple[bytes, int]] = set()
    keys_seen: set[bytes] = set()
    pair = join(table)
    secret = pair.client_done.resume_secret
    generation = pair.client_done.generation

    def new_keys(p: ConnectionPair) -> None:
        for conn in (p.client, p.host):
            assert conn.tx is not None and conn.tx.key not in keys_seen
            keys_seen.add(conn.tx.key)
            used.add((conn.tx.key, 0))  # the confirmation frame used counter 0
            assert conn.tx.counter == 1
        assert p.client.tx.key == p.host.rx.key  # type: ignore[union-attr]

    new_keys(pair)
    pair.to_host(hello())
    used.add((pair.client.tx.key, 1))  # type: ignore[union-attr]
    n = 0
    for op in script:
        n += 1
        if op == "reconnect":
            table.secrets[(0, generation)] = secret
            pair.client.close()
            from wire_helpers import connect

            pair = connect(
                table, ClientConnection.resume(0, generation, secret, counter_drbg(b"r%d" % n))
            )
            secret, generation = pair.client_done.resume_secret, pair.client_done.generation
            new_keys(pair)
            pair.to_host(hello())
            used.add((pair.client.tx.key, 1))  # type: ignore[union-attr]
            continue
        sender = pair.client if op == "c2h" else pair.host
        assert sender.tx is not None
        before = (sender.tx.key, sender.tx.counter)
        assert before not in used
        used.add(before)
        if op == "c2h":
            pair.to_host(Ping(n))
        else:
            pair.to_client(Event(n, "tick"))
        assert sender.tx.counter == before[1] + 1
