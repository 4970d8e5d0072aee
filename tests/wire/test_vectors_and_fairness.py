"""Replay protocol/vectors byte for byte; S9 fairness checks; the shuffler's contract."""

from __future__ import annotations

import hashlib
import importlib.util
import json
from collections import Counter
from pathlib import Path
from typing import Any

import msgpack
import pytest
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from lanuno.engine.cards import DeckKind, build_deck
from lanuno.engine.rules import PRESETS
from lanuno.wire.crypto import counter_drbg
from lanuno.wire.fairness import (
    CANONICAL_DECKS,
    PRESET_DECKS,
    ClientSeeds,
    FairnessError,
    FairShuffler,
    RoundCheck,
    SeatSeedBook,
    client_seed_commitment,
    combine_seeds,
    deal_purpose,
    host_seed_commitment,
    verify_round,
)
from lanuno.wire.messages import WILD_CODES, HostSeedReveal, SeatSeed

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "protocol" / "vectors"


def load(name: str) -> Any:
    return json.loads((VECTORS / name).read_text())


def gen_vectors() -> Any:
    spec = importlib.util.spec_from_file_location(
        "gen_vectors", ROOT / "scripts" / "gen_vectors.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_vectors_are_reproduced_byte_for_byte() -> None:
    for name, text in gen_vectors().build().items():
        assert (VECTORS / name).read_text() == text, name


def test_frames_open_with_only_the_published_keys() -> None:
    """What a stranger's client does: raw ChaCha20-Poly1305, counter nonces, the AAD."""
    keys = load("handshake.json")["keys"]
    room_id = bytes.fromhex(load("handshake.json")["room_id"])
    client_hello = bytes.fromhex(load("handshake.json")["steps"][0]["hex"])
    assert client_hello[12] == 1  # generation 2: the table number (handshake.md)
    seat_byte = client_hello[13]
    assert seat_byte == 255  # a JOIN names no seat (handshake.md, H-1)
    for frame in load("frames.json")["frames"]:
        raw = bytes.fromhex(frame["frame"])
        direction, key = (1, keys["c2h_key"]) if frame["from"] == "client" else (2, keys["h2c_key"])
        assert int.from_bytes(raw[:2], "big") == len(raw) - 2
        nonce = bytes(4) + frame["counter"].to_bytes(8, "big")
        aad = b"lanuno/v1" + bytes((direction,)) + room_id + bytes((seat_byte,))
        plaintext = ChaCha20Poly1305(bytes.fromhex(key)).decrypt(nonce, raw[2:], aad)
        n = int.from_bytes(plaintext[:2], "big")
        assert plaintext[2 : 2 + n].hex() == frame["msgpack"]
        assert len(plaintext) == frame["padded_plaintext_length"]
        assert len(plaintext) % 256 == 0
        assert set(plaintext[2 + n :]) <= {0}


def test_handshake_vector_commitment_and_transcript() -> None:
    vector = load("handshake.json")
    steps = [bytes.fromhex(s["hex"]) for s in vector["steps"]]
    host_hello, msg_b = steps[1], steps[3]
    assert host_hello[-32:] == hashlib.sha256(b"lanuno/v1 commit" + msg_b).digest()
    assert hashlib.sha256(b"".join(steps[:4])).hexdigest() == vector["transcript_hash"]
    assert [len(s) for s in steps] == [15, 75, 33, 33, 274, 274]


def test_shuffle_vector_and_engine_deck_order() -> None:
    vector = load("shuffle.json")
    assert [c.code for c in build_deck(DeckKind.STANDARD)] == vector["canonical_deck"]
    seeds = {int(s): bytes.fromhex(v) for s, v in vector["client_seeds"].items()}
    room_id = bytes.fromhex(vector["room_id"])
    round_seed = combine_seeds(room_id, 1, bytes.fromhex(vector["host_seed"]), seeds)
    deck = list(vector["canonical_deck"])
    FairShuffler(round_seed).shuffle(deck, vector["deal_purpose"])
    assert deck == vector["dealt_deck"]


def test_frames_vector_lists_wilds_with_their_color() -> None:
    """M-23: ``legal`` names a wild once per color, never bare (the old vector had
    ``play W``, which no host lists)."""
    for frame in load("frames.json")["frames"]:
        message = msgpack.unpackb(bytes.fromhex(frame["msgpack"]))
        for notation in message.get("legal", []):
            verb, *args = notation.split()
            if verb == "play" and args[0] in WILD_CODES:
                assert len(args) == 2, notation


@pytest.mark.parametrize("kind", ["standard", "numbers", "with_blanks"])
def test_canonical_decks_of_the_spec_are_the_engines(kind: str) -> None:
    """fairness.md "The canonical decks": the wire's table is the engine's build_deck."""
    deck = [c.code for c in build_deck(DeckKind(kind))]
    assert list(CANONICAL_DECKS[kind]) == deck
    assert len(deck) == {"standard": 108, "numbers": 76, "with_blanks": 112}[kind]


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_deals_the_deck_the_spec_names(name: str) -> None:
    assert set(PRESET_DECKS) == set(PRESETS)
    assert PRESETS[name]().deck.value == PRESET_DECKS[name]


def test_fairness_md_states_each_canonical_deck_size() -> None:
    text = (ROOT / "protocol" / "fairness.md").read_text(encoding="utf-8")
    for kind, preset in (("standard", "official"), ("numbers", "kids1"), ("with_blanks", "kids2")):
        row = f"| `{kind}` | `{preset}` | {len(CANONICAL_DECKS[kind])} |"
        assert row in text, row


def test_fair_shuffler_drives_the_engine_deck() -> None:
    deck = build_deck(DeckKind.STANDARD)
    shuffled = list(deck)
    FairShuffler(b"\x01" * 32).shuffle(shuffled, "round 1 deal")
    assert Counter(shuffled) == Counter(deck)
    assert shuffled != deck


def test_below_is_in_range_deterministic_and_roughly_uniform() -> None:
    shuffler = FairShuffler(b"\x02" * 32)
    assert shuffler.below(10, "a") == shuffler.below(10, "a")
    values = Counter(FairShuffler(bytes([i]) * 32).below(3, "p") for i in range(240))
    assert set(values) == {0, 1, 2}
    assert min(values.values()) > 50
    with pytest.raises(ValueError):
        shuffler.below(0, "a")


# ---------------------------------------------------------------------------------- S9


ROOM = b"\x09" * 16
CANONICAL = [f"{c}{n}" for c in "RYGB" for n in range(10)]


def honest_round(*, my_reveal_arrives: bool = True) -> tuple[HostSeedReveal, bytes, bytes]:
    me = ClientSeeds(counter_drbg(b"me"))
    other = ClientSeeds(counter_drbg(b"other"))
    book = SeatSeedBook()
    book.commit(0, me.next_commit)
    book.commit(3, other.next_commit)
    host_seed = b"\x42" * 32
    commit = host_seed_commitment(ROOM, 1, host_seed)
    mine = me.reveal(1)
    if my_reveal_arrives:  # else it is lost with the connection: the host deals without it
        book.accept(0, mine)
    book.accept(3, other.reveal(1))
    deck = list(CANONICAL)
    FairShuffler(combine_seeds(ROOM, 1, host_seed, book.seeds(1))).shuffle(deck, deal_purpose(1))
    commits = book.commitments(1)
    reveal = HostSeedReveal(
        round=1,
        host_seed=host_seed,
        seeds=tuple(
            SeatSeed(seat=s, seed=seed, commit=commits[s]) for s, seed in book.seeds(1).items()
        ),
        deck=tuple(deck),
    )
    return reveal, commit, me.revealed[1]


def check(reveal: HostSeedReveal, commit: bytes, my_seed: bytes) -> RoundCheck:
    return verify_round(reveal, room_id=ROOM, host_commit=commit, my_seat=0, my_seed=my_seed,
                        canonical_deck=CANONICAL)  # fmt: skip


def flip(data: bytes, bit: int) -> bytes:
    out = bytearray(data)
    out[bit // 8] ^= 1 << (bit % 8)
    return bytes(out)


def test_s9_honest_round_verifies() -> None:
    result = check(*honest_round())
    assert not result.my_seed_unused
    assert len(result.round_seed) == 32


def test_s9_a_round_dealt_without_my_lost_seed_is_a_notice_not_a_failure() -> None:
    """My reveal never reached the host, which dealt with the seeds it had and listed
    exactly those: not a fairness failure, but reported as my seed going unused."""
    reveal, commit, mine = honest_round(my_reveal_arrives=False)
    assert [s.seat for s in reveal.seeds] == [3]
    result = check(reveal, commit, mine)
    assert result.my_seed_unused
    from dataclasses import replace

    with pytest.raises(FairnessError):  # the deck is still checked against the listed seeds
        check(replace(reveal, deck=(*reveal.deck[1:], reveal.deck[0])), commit, mine)


def test_s9_my_seed_listed_but_changed_still_fails() -> None:
    """A host that lists my seat with another seed (and a commitment that matches it) has
    changed my contribution: that stays a fairness failure."""
    reveal, commit, mine = honest_round(my_reveal_arrives=False)
    substitute = b"\x07" * 32
    seeds = {0: substitute, 3: reveal.seeds[0].seed}
    deck = list(CANONICAL)
    FairShuffler(combine_seeds(ROOM, 1, reveal.host_seed, seeds)).shuffle(deck, deal_purpose(1))
    forged = HostSeedReveal(
        round=1,
        host_seed=reveal.host_seed,
        seeds=(
            SeatSeed(seat=0, seed=substitute, commit=client_seed_commitment(substitute)),
            *reveal.seeds,
        ),
        deck=tuple(deck),
    )
    with pytest.raises(FairnessError, match="changed"):
        check(forged, commit, mine)


def test_client_reveal_is_repeated_for_a_round_already_revealed() -> None:
    """A resume during the deal brings the round's seed_commit again: the client answers
    with the same reveal, which the host (still holding the old commitment) accepts."""
    seeds = ClientSeeds(counter_drbg(b"again"))
    book = SeatSeedBook()
    book.commit(0, seeds.next_commit)
    first = seeds.reveal(1)  # lost with the connection
    resume_commit = seeds.next_commit  # the resume's hello carries this
    second = seeds.reveal(1)
    assert second == first
    assert seeds.next_commit == resume_commit
    assert seeds.revealed == {1: first.seed}
    book.accept(0, second)  # no bad_seed
    assert book.seeds(1) == {0: first.seed}
    third = seeds.reveal(2)
    assert third.seed != first.seed
    assert client_seed_commitment(third.seed) == first.next_commit
    book.accept(0, third)
    assert seeds.reveal(2) == third
    assert seeds.reveal(1) == first


@pytest.mark.parametrize("bit", [0, 7, 100, 255])
def test_s9_any_change_to_a_seed_is_detected(bit: int) -> None:
    reveal, commit, mine = honest_round()
    from dataclasses import replace

    with pytest.raises(FairnessError):
        check(replace(reveal, host_seed=flip(reveal.host_seed, bit)), commit, mine)
    for index in range(len(reveal.seeds)):
        seeds = list(reveal.seeds)
        seeds[index] = replace(seeds[index], seed=flip(seeds[index].seed, bit))
        with pytest.raises(FairnessError):
            check(replace(reveal, seeds=tuple(seeds)), commit, mine)
    with pytest.raises(FairnessError):  # dropping my seed: the deck no longer matches
        check(replace(reveal, seeds=reveal.seeds[1:]), commit, mine)


def test_s9_any_change_to_the_deck_is_detected() -> None:
    reveal, commit, mine = honest_round()
    from dataclasses import replace

    deck = list(reveal.deck)
    for i in range(len(deck) - 1):
        if deck[i] != deck[i + 1]:
            swapped = list(deck)
            swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]
            with pytest.raises(FairnessError):
                check(replace(reveal, deck=tuple(swapped)), commit, mine)
    with pytest.raises(FairnessError):
        check(replace(reveal, deck=("R0", *deck[1:])), commit, mine)


def test_host_refuses_a_seed_that_breaks_its_commitment() -> None:
    book = SeatSeedBook()
    seeds = ClientSeeds(counter_drbg(b"x"))
    book.commit(1, seeds.next_commit)
    reveal = seeds.reveal(1)
    from dataclasses import replace

    with pytest.raises(FairnessError):
        book.accept(1, replace(reveal, seed=flip(reveal.seed, 3)))
    book.accept(1, reveal)
    with pytest.raises(FairnessError):
        book.accept(1, reveal)


def test_S9_a_new_game_gets_a_new_seed_for_its_round_1() -> None:
    """A reveal is repeated for the same host commitment only: a new game starts again at
    round 1 with a new host commitment and must not get the old game's seed (bad_seed)."""
    seeds = ClientSeeds(counter_drbg(b"games"))
    book = SeatSeedBook()
    book.commit(0, seeds.next_commit)
    first = seeds.reveal(1, b"game one")
    book.accept(0, first)
    assert seeds.reveal(1, b"game one") == first  # a resume in the same deal
    second_game = SeatSeedBook()
    second_game.commit(0, first.next_commit)  # the chain goes on across games
    again = seeds.reveal(1, b"game two")
    assert again.seed != first.seed
    second_game.accept(0, again)  # no bad_seed
