"""Commit-reveal seeds and the deterministic shuffle derived from them (protocol/fairness.md).

Per round: the host commits to a fresh 32-byte seed; each human client reveals the seed it
committed to earlier (in ``hello`` or its previous reveal) together with a commitment to
its next one; the deal and every reshuffle come from all seeds through ``FairShuffler``;
at round end the host reveals its seed, every client seed and the deck, and each client
checks them with ``verify_round``. This detects a stacked deck; it cannot stop a host from
peeking at hands (the host runs the engine).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from lanuno.wire.crypto import LABEL, RandomBytes, constant_time_equal
from lanuno.wire.messages import ClientSeedReveal, HostSeedReveal

SEED_LENGTH = 32
_T = TypeVar("_T")


class FairnessError(Exception):
    """A commitment, seed or deck does not check out: the round was not dealt fairly."""


def _canonical_deck(numbers_only: bool, blanks: bool) -> tuple[str, ...]:
    deck: list[str] = []
    for color in "RYGB":
        deck.append(f"{color}0")
        deck += [f"{color}{n}" for n in range(1, 10) for _ in (0, 1)]
        if not numbers_only:
            deck += [f"{color}{rank}" for rank in ("S", "R", "+2") for _ in (0, 1)]
    if not numbers_only:
        deck += ["W"] * 4 + ["W+4"] * 4
    if blanks:
        deck += ["X"] * 4
    return tuple(deck)


CANONICAL_DECKS: dict[str, tuple[str, ...]] = {
    "standard": _canonical_deck(numbers_only=False, blanks=False),
    "numbers": _canonical_deck(numbers_only=True, blanks=False),
    "with_blanks": _canonical_deck(numbers_only=False, blanks=True),
}
"""The unshuffled deck of each ``deck`` option value (fairness.md, "The canonical decks");
tests/wire/test_vectors_and_fairness.py ties it to the engine's ``build_deck``."""

PRESET_DECKS = {"official": "standard", "kids1": "numbers", "kids2": "with_blanks"}
"""The ``deck`` each preset plays with unless ``welcome.options`` says otherwise."""


def host_seed_commitment(room_id: bytes, round_no: int, host_seed: bytes) -> bytes:
    return hashlib.sha256(
        LABEL + b"host seed" + room_id + round_no.to_bytes(2, "big") + host_seed
    ).digest()


def client_seed_commitment(seed: bytes) -> bytes:
    return hashlib.sha256(LABEL + b"client seed" + seed).digest()


def combine_seeds(
    room_id: bytes, round_no: int, host_seed: bytes, client_seeds: Mapping[int, bytes]
) -> bytes:
    """HKDF-SHA256(ikm = host_seed ‖ (seat ‖ seed) in seat order, salt = room_id,
    info = "lanuno/v1 round seed" ‖ u16 round)."""
    if len(host_seed) != SEED_LENGTH or any(len(s) != SEED_LENGTH for s in client_seeds.values()):
        raise FairnessError("every seed is 32 bytes")
    ikm = host_seed + b"".join(bytes((seat,)) + seed for seat, seed in sorted(client_seeds.items()))
    info = LABEL + b"round seed" + round_no.to_bytes(2, "big")
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=room_id, info=info).derive(ikm)


class FairShuffler:
    """The engine's ``Shuffler`` driven by a round seed.

    Each call draws from its own stream: ``k = HMAC(seed, "lanuno/v1 purpose " ‖ purpose)``,
    blocks ``HMAC(k, u64be i)`` for i = 0, 1, ..., each cut into four u64be draws. A draw
    below ``n`` rejects values >= 2^64 - (2^64 mod n) (no modulo bias). Fisher-Yates runs
    from the last index down: swap ``i`` with ``below(i + 1)``. Calls are independent, so
    the same purpose always gives the same result.
    """

    __slots__ = ("_seed",)

    def __init__(self, seed: bytes) -> None:
        if len(seed) != SEED_LENGTH:
            raise ValueError("a round seed is 32 bytes")
        self._seed = seed

    def _draws(self, purpose: str) -> Iterator[int]:
        key = hmac.digest(self._seed, LABEL + b"purpose " + purpose.encode("utf-8"), "sha256")
        counter = 0
        while True:
            block = hmac.digest(key, counter.to_bytes(8, "big"), "sha256")
            counter += 1
            for offset in range(0, 32, 8):
                yield int.from_bytes(block[offset : offset + 8], "big")

    @staticmethod
    def _below(draws: Iterator[int], n: int) -> int:
        limit = 2**64 - 2**64 % n
        for value in draws:
            if value < limit:
                return value % n
        raise AssertionError("the draw stream is endless")

    def below(self, n: int, purpose: str) -> int:
        if not 1 <= n <= 2**64:
            raise ValueError(f"below() needs 1 <= n <= 2**64, got {n}")
        return self._below(self._draws(purpose), n)

    def shuffle(self, cards: list[_T], purpose: str) -> None:
        draws = self._draws(purpose)
        for i in range(len(cards) - 1, 0, -1):
            j = self._below(draws, i + 1)
            cards[i], cards[j] = cards[j], cards[i]


def deal_purpose(round_no: int) -> str:
    return f"round {round_no} deal"


FIRST_DEALER_PURPOSE = "first dealer"


def dealt_cards(
    deck: Sequence[str], *, seats: int, dealer: int, hand_size: int, seat: int
) -> tuple[str, ...]:
    """The cards ``seat`` must have been dealt from a revealed deck, in the order dealt.

    The deal takes cards from the END of the shuffled deck, one at a time, starting with the
    seat after the dealer (fairness.md, "Dealing from the deck")."""
    offset = (seat - dealer - 1) % seats
    return tuple(deck[len(deck) - 1 - (k * seats + offset)] for k in range(hand_size))


def first_turned_card(deck: Sequence[str], *, seats: int, hand_size: int) -> str:
    """The card turned over to start the discard pile, when no card had to be returned."""
    return deck[len(deck) - 1 - seats * hand_size]


def check_my_deal(
    deck: Sequence[str],
    *,
    seats: int,
    dealer: int,
    hand_size: int,
    seat: int | None,
    my_hand: Sequence[str] | None,
    turned: str | None,
) -> None:
    """A client's check that what it saw dealt comes from the revealed deck: its own hand
    (if it was seated for the deal) and the first card turned over (if none was returned).
    Raises FairnessError naming the mismatch."""
    if seats * hand_size >= len(deck):
        raise FairnessError("the deck is too small for the deal it claims")
    if seat is not None and my_hand is not None:
        expected = dealt_cards(deck, seats=seats, dealer=dealer, hand_size=hand_size, seat=seat)
        if tuple(my_hand) != expected:
            raise FairnessError("the cards I was dealt are not the ones the deck holds")
    if turned is not None and turned != first_turned_card(deck, seats=seats, hand_size=hand_size):
        raise FairnessError("the first card turned over is not the one the deck holds")


class ClientSeeds:
    """A client's side: a fresh seed per round, each committed one step ahead."""

    __slots__ = ("_next", "_random_bytes", "_reveals", "revealed")

    def __init__(self, random_bytes: RandomBytes) -> None:
        self._random_bytes = random_bytes
        self._next = random_bytes(SEED_LENGTH)
        self._reveals: dict[tuple[int, bytes], ClientSeedReveal] = {}
        self.revealed: dict[int, bytes] = {}
        """round -> the seed this client revealed for it (for ``verify_round``)."""

    @property
    def next_commit(self) -> bytes:
        """Goes into ``hello.seed_commit`` (and, after a resume, into the new hello)."""
        return client_seed_commitment(self._next)

    def reveal(self, round_no: int, host_commit: bytes = b"") -> ClientSeedReveal:
        """The reveal answering the host's ``seed_commit`` (round, commitment); the same one
        again if that very commitment was answered before.

        The host sends the same ``seed_commit`` again when a seat resumes during the deal
        (the first reveal may have been lost with the connection): a new seed would not
        match the commitment the host holds for the seat (``bad_seed``), so the reveal is
        repeated as is. A new game starts again at round 1 with a new host commitment, and
        gets a new seed.
        """
        key = (round_no, host_commit)
        again = self._reveals.get(key)
        if again is not None:
            return again
        seed = self._next
        self._next = self._random_bytes(SEED_LENGTH)
        reveal = ClientSeedReveal(
            round=round_no, seed=seed, next_commit=client_seed_commitment(self._next)
        )
        self._reveals[key] = reveal
        if len(self._reveals) > 8:  # only the latest rounds can be asked again
            del self._reveals[next(iter(self._reveals))]
        self.revealed[round_no] = seed
        return reveal


class SeatSeedBook:
    """The host's side: each seat's current commitment and the seeds revealed per round."""

    __slots__ = ("_commits", "_rounds")

    def __init__(self) -> None:
        self._commits: dict[int, bytes] = {}
        self._rounds: dict[int, dict[int, tuple[bytes, bytes]]] = {}

    def commit(self, seat: int, commitment: bytes) -> None:
        """From ``hello``: the seat's next seed must match this."""
        self._commits[seat] = commitment

    def accept(self, seat: int, reveal: ClientSeedReveal) -> None:
        """A client's reveal; raises FairnessError (reply ``error bad_seed``) if it lies."""
        expected = self._commits.get(seat)
        if expected is None or not constant_time_equal(
            client_seed_commitment(reveal.seed), expected
        ):
            raise FairnessError(f"seat {seat}: seed does not match its commitment")
        seeds = self._rounds.setdefault(reveal.round, {})
        if seat in seeds:
            raise FairnessError(f"seat {seat}: a second seed for round {reveal.round}")
        seeds[seat] = (reveal.seed, expected)
        self._commits[seat] = reveal.next_commit

    def seeds(self, round_no: int) -> dict[int, bytes]:
        return {seat: seed for seat, (seed, _) in self._rounds.get(round_no, {}).items()}

    def commitments(self, round_no: int) -> dict[int, bytes]:
        return {seat: c for seat, (_, c) in self._rounds.get(round_no, {}).items()}


@dataclass(frozen=True, slots=True)
class RoundCheck:
    """What ``verify_round`` found when the round checks out."""

    round_seed: bytes
    my_seed_unused: bool
    """This client revealed a seed for the round but the host dealt without it (its seat is
    not in the revealed list): the reveal never reached the host in time, or was refused.
    The deck is still the fair shuffle of the seeds listed; show a notice, not a failure."""


def verify_round(
    reveal: HostSeedReveal,
    *,
    room_id: bytes,
    host_commit: bytes,
    my_seat: int | None,
    my_seed: bytes | None,
    canonical_deck: Sequence[str],
) -> RoundCheck:
    """A client's end-of-round check; returns the round seed and whether this client's seed
    went unused, raises FairnessError.

    The host lists exactly the seeds it dealt with. Checks: the host seed matches the
    commitment received at round start; every listed seed matches its listed commitment;
    this client's own seed, if listed under its seat, is unchanged (a changed seed fails;
    a missing one is only reported as ``my_seed_unused``); and the revealed deck is exactly
    the fair shuffle of the canonical deck under the listed seeds.
    """
    if not constant_time_equal(
        host_seed_commitment(room_id, reveal.round, reveal.host_seed), host_commit
    ):
        raise FairnessError("the host's seed does not match its commitment")
    seeds = {s.seat: s.seed for s in reveal.seeds}
    for entry in reveal.seeds:
        if client_seed_commitment(entry.seed) != entry.commit:
            raise FairnessError(f"seat {entry.seat}: seed does not match its commitment")
    listed = seeds.get(my_seat) if my_seat is not None else None
    if my_seed is not None and listed is not None and not constant_time_equal(listed, my_seed):
        raise FairnessError("my own seed was changed")
    round_seed = combine_seeds(room_id, reveal.round, reveal.host_seed, seeds)
    deck = list(canonical_deck)
    FairShuffler(round_seed).shuffle(deck, deal_purpose(reveal.round))
    if tuple(deck) != reveal.deck:
        raise FairnessError("the revealed deck is not the fair shuffle of the seeds")
    return RoundCheck(round_seed, my_seed is not None and listed is None)
