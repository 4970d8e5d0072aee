"""S1, S3, S4, S5: what a sniffer sees, tampering, replay, and nonce uniqueness."""

from __future__ import annotations

import random

import msgpack
import pytest
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from wire_helpers import SORTED_CODES, ConnectionPair, Table, hello, join, sample_state

from lanuno.wire.connection import ClientConnection, ConnectionClosed
from lanuno.wire.crypto import counter_drbg
from lanuno.wire.errors import CloseCode, RemoteProtocolError
from lanuno.wire.framing import FrameOpener, frame_aad
from lanuno.wire.messages import ActionRequest, Event, Message, Ping, State, UnoFlags

# ---------------------------------------------------------------------------------- S1


WILDS = ("W", "W+4", "X")


def private_card(private: random.Random) -> str:
    """A card for a hand: wilds are frequent, so that legal lists often pass 15 entries."""
    return private.choice(WILDS) if private.random() < 0.3 else private.choice(SORTED_CODES)


def legal_for(hand: list[str], private: random.Random) -> tuple[str, ...]:
    """The actor's legal list, shaped like the engine's: a playable wild adds one play per
    color, so a hand with a few wilds gives 16 or more entries (a 3-byte msgpack header)."""
    legal: list[str] = []
    for card in sorted(set(hand)):
        if card in WILDS:
            if private.random() < 0.8:
                legal += [f"play {card} {color}" for color in "RGBY"]
        elif private.random() < 0.5:
            legal.append(f"play {card}")
    return (*legal, "draw", *(["uno"] if len(hand) <= 2 else []))


def scripted_game(
    hand_seed: int, public_seed: int = 7, seats: int = 4, turns: int = 120
) -> tuple[list[list[int]], bytes, list[int]]:
    """Frame lengths per seat, every byte on the wire, and the length of each legal list
    sent, for a synthetic game.

    The public play (hand sizes, cards played, whose turn, scores, deadlines) comes from
    ``public_seed``; the hands (with many wilds), the drawn cards and which cards are playable come
    from ``hand_seed``. Hands grow past 15 cards, and legal lists pass 15 entries in some
    games and not others at the same step.
    """
    public = random.Random(public_seed)
    private = random.Random(hand_seed)
    table = Table()
    pairs: list[ConnectionPair] = [join(table, b"seat%d" % s) for s in range(seats)]
    wire = bytearray()
    lengths: list[list[int]] = [[] for _ in range(seats)]
    legal_lengths: list[int] = []
    counts = [12] * seats
    hands = [[private_card(private) for _ in range(12)] for _ in range(seats)]

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
        # Public values of varying packed size move the payload across bucket boundaries.
        deadline = public.choice((None, 5, 200, 70_000, public.randrange(3_600_000)))
        scores = tuple(public.choice((0, 5, 200, 70_000)) for _ in range(seats))
        for seat in range(seats):
            hand = hands[seat]
            legal = legal_for(hand, private) if seat == actor else ()
            if seat == actor:
                legal_lengths.append(len(legal))
            state = State(
                sid=sid, round=1, hand=tuple(hand), counts=tuple(counts), top="R5", color="R",
                direction=1, turn=actor, actor=actor, phase="turn", pending=0,
                legal=legal, uno=(UnoFlags(False, False),) * seats,
                scores=scores, draw_pile=40, discard_count=turn % 100, deadline_ms=deadline,
                dealer=0,
            )  # fmt: skip
            to_seat(seat, state)
        if public.random() < 0.5 and counts[actor] > 1:  # a public play: same card both games
            card = public.choice(SORTED_CODES)
            hands[actor].pop()
            counts[actor] -= 1
            for seat in range(seats):
                to_seat(seat, Event(sid=sid, type="played", fields={"seat": actor, "card": card}))
        else:  # a draw: only the drawer learns the card
            drawn = private_card(private)
            hands[actor].append(drawn)
            counts[actor] += 1
            for seat in range(seats):
                fields = (
                    {"seat": actor, "cards": (drawn,)}
                    if seat == actor
                    else {"seat": actor, "count": 1}
                )
                to_seat(seat, Event(sid=sid, type="drew", fields=fields))
        frame = pairs[actor].client.send(ActionRequest(seq=sid, sid=sid, a="draw"))
        wire.extend(frame)
        pairs[actor].host.receive_data(frame)
    return lengths, bytes(wire), legal_lengths


# Public seeds 10, 23 and 25 put some turn's padded size right at a bucket edge where the
# two hands' legal lists straddle 15 entries: without the legal header in the floor, the
# frame lengths there differed by a whole bucket.
@pytest.mark.parametrize(
    ("public_seed", "seeds"), [(7, (1, 2)), (10, (3, 4)), (10, (5, 6)), (23, (3, 4)), (25, (1, 2))]
)
def test_s1_same_public_play_gives_same_frame_lengths(
    public_seed: int, seeds: tuple[int, int]
) -> None:
    lengths_a, _, legal_a = scripted_game(seeds[0], public_seed)
    lengths_b, _, legal_b = scripted_game(seeds[1], public_seed)
    # The two games really differ where the msgpack array header does (1 vs 3 bytes).
    assert any((a <= 15) != (b <= 15) for a, b in zip(legal_a, legal_b, strict=True))
    assert max(legal_a + legal_b) >= 20
    assert lengths_a == lengths_b


def worst_legal(hand: tuple[str, ...]) -> tuple[str, ...]:
    """The longest legal list the engine can give for a hand: every card playable, each
    wild in every color, and every argument-less private verb."""
    plays: list[str] = []
    for card in sorted(set(hand)):
        plays += [f"play {card} {c}" for c in "RYGB"] if card in WILDS else [f"play {card}"]
    return (*plays, "draw", "pass", "uno", "accept", "challenge")


@pytest.mark.parametrize("seats", [2, 4, 7, 10])
def test_s1_padded_state_size_ignores_the_number_of_legal_actions(seats: int) -> None:
    """Same hand size and public fields: the legal list's length (and so its 1- or 3-byte
    msgpack array header) must not change the padded size. The public variation (hand
    size, scores, deadline, seats) puts the payload at many positions relative to a bucket
    edge; before the header was counted, several of them differed by a bucket."""
    from lanuno.wire.framing import padded_length
    from lanuno.wire.messages import encode

    def padded(
        hand: tuple[str, ...], legal: tuple[str, ...], score: int, deadline: int | None
    ) -> int:
        state = State(
            sid=5, round=1, hand=hand, counts=(len(hand),) + (7,) * (seats - 1), top="R5",
            color="R", direction=1, turn=0, actor=0, phase="turn", pending=0, legal=legal,
            uno=(UnoFlags(False, False),) * seats, scores=(score,) * seats, draw_pile=50,
            discard_count=3, deadline_ms=deadline, dealer=1,
        )  # fmt: skip
        payload, floor = encode(state)
        return padded_length(len(payload), floor)

    for extra in range(30):
        wild_hand = ("R1", "R2", "R3", "R4", "W", "W+4", "X", *["G5"] * extra)
        plain_hand = ("R1", *["G5"] * (len(wild_hand) - 1))
        for score in (0, 5, 200, 70_000):
            for deadline in (None, 5, 200, 70_000):
                sizes = {
                    padded(plain_hand, (), score, deadline),
                    padded(plain_hand, ("draw",), score, deadline),
                    padded(plain_hand, ("play R1", "draw"), score, deadline),
                    padded(wild_hand, ("draw",), score, deadline),
                    padded(wild_hand, worst_legal(wild_hand), score, deadline),
                    padded(wild_hand, worst_legal(wild_hand)[:15], score, deadline),
                    padded(wild_hand, worst_legal(wild_hand)[:16], score, deadline),
                }
                assert len(worst_legal(wild_hand)) >= 16
                assert len(sizes) == 1, (len(wild_hand), score, deadline, sizes)


def test_s1_no_card_or_hand_data_in_cleartext() -> None:
    _, wire, _ = scripted_game(hand_seed=3)
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
        assert result is None, bit
        assert bit < 8, bit


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
    assert isinstance(closed, ConnectionClosed)
    assert not closed.clean


# ---------------------------------------------------------------------------------- S5


@settings(max_examples=examples(12), deadline=None)
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
            assert conn.tx is not None
            assert conn.tx.key not in keys_seen
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
            pair.to_host(Ping(n=n))
        else:
            pair.to_client(Event(sid=n, type="tick"))
        assert sender.tx.counter == before[1] + 1
