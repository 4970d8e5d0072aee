"""Where the engine's randomness comes from: an injected shuffler, never the global random.

The default is seeded and fast. The wire layer supplies a commit-reveal shuffler with the
same interface, so a deck can be audited after the round (protocol/fairness.md).
"""

from __future__ import annotations

import random
from typing import Protocol

from lanuno.engine.cards import Card


class Shuffler(Protocol):
    def shuffle(self, cards: list[Card], purpose: str) -> None:
        """Shuffle ``cards`` in place; the same purpose always gives the same permutation."""

    def below(self, n: int, purpose: str) -> int:
        """A uniform integer in ``[0, n)``."""


class SeededShuffler:
    """Deterministic from (seed, purpose): each purpose gets its own generator, so a round's
    shuffles never depend on how many random numbers anything else consumed."""

    __slots__ = ("seed",)

    def __init__(self, seed: int | str) -> None:
        self.seed = seed

    def _rng(self, purpose: str) -> random.Random:
        return random.Random(f"{self.seed}/{purpose}")

    def shuffle(self, cards: list[Card], purpose: str) -> None:
        # random.Random.shuffle written out (Fisher-Yates, each index drawn by rejection on
        # getrandbits, exactly as CPython does it): the same permutation for the same
        # generator, without two Python-level calls per card.
        getrandbits = self._rng(purpose).getrandbits
        for i in range(len(cards) - 1, 0, -1):
            n = i + 1
            k = n.bit_length()
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            cards[i], cards[j] = cards[j], cards[i]

    def below(self, n: int, purpose: str) -> int:
        return self._rng(purpose).randrange(n)
