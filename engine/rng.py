"""The engine's own deterministic PRNG.

Python's ``random`` module may change its algorithms between versions, so the
engine uses xoshiro256** seeded through SplitMix64, written out here in plain
integer arithmetic. Every game derives independent named streams ("bag",
"deck", "boats", "seating", ...) from one 64-bit seed, so adding a draw to one
stream never shifts the outcomes of another.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1


def _splitmix64(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def derive_seed(seed: int, stream: str) -> int:
    """A 64-bit seed for the named stream of a game seeded with ``seed``."""
    digest = hashlib.sha256(f"{seed & MASK64}:{stream}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


_LIMITS: dict[int, int] = {}  # randbelow's rejection limit per bound


class Rng:
    """xoshiro256** with helpers for the draws a board game needs.

    >>> a, b = Rng(7, "bag"), Rng(7, "bag")
    >>> [a.randbelow(100) for _ in range(3)] == [b.randbelow(100) for _ in range(3)]
    True
    """

    __slots__ = ("_s",)

    def __init__(self, seed: int, stream: str = "") -> None:
        state = derive_seed(seed, stream)
        words = []
        for _ in range(4):
            state, word = _splitmix64(state)
            words.append(word)
        self._s = words

    def next_u64(self) -> int:
        s = self._s
        s0, s1, s2, s3 = s
        m = (s1 * 5) & MASK64
        result = (((m << 7) | (m >> 57)) * 9) & MASK64
        s2 ^= s0
        s3 ^= s1
        s[0] = s0 ^ s3
        s[1] = s1 ^ s2
        s[2] = s2 ^ ((s1 << 17) & MASK64)
        s[3] = ((s3 << 45) | (s3 >> 19)) & MASK64
        return result

    def randbelow(self, n: int) -> int:
        """Uniform integer in [0, n) without modulo bias (rejection sampling)."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        if n == 1:
            return 0
        limit = _LIMITS.get(n)
        if limit is None:
            limit = _LIMITS[n] = (1 << 64) - ((1 << 64) % n)
        s = self._s
        while True:  # next_u64, inlined: the random bot's and the playouts' inner loop
            s0, s1, s2, s3 = s
            m = (s1 * 5) & MASK64
            r = (((m << 7) | (m >> 57)) * 9) & MASK64
            s2 ^= s0
            s3 ^= s1
            s[0] = s0 ^ s3
            s[1] = s1 ^ s2
            s[2] = s2 ^ ((s1 << 17) & MASK64)
            s[3] = ((s3 << 45) | (s3 >> 19)) & MASK64
            if r < limit:
                return r % n

    def random(self) -> float:
        """A float in [0, 1) from the top 53 bits."""
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.randbelow(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(seq) - 1, 0, -1):
            j = self.randbelow(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def getstate(self) -> tuple[int, int, int, int]:
        return tuple(self._s)  # type: ignore[return-value]

    def setstate(self, state: Sequence[int]) -> None:
        self._s = [int(w) & MASK64 for w in state]

    def copy(self) -> Rng:
        twin = Rng.__new__(Rng)
        twin._s = list(self._s)
        return twin
