"""The engine PRNG: a golden sequence, an independent re-implementation of the published
algorithms (SplitMix64 seeding xoshiro256**), named streams, shuffles and unbiased bounds."""

from __future__ import annotations

import hashlib
from collections import Counter
from itertools import permutations

import pytest

from engine.rng import Rng, derive_seed

M64 = (1 << 64) - 1

# The first outputs of Rng(7, "bag"): replays and golden games depend on these never changing.
GOLDEN_7_BAG = [0x09E996D7D7BEC145, 0xBF2FC0335AE860AF, 0x659AE44D6C00FAC6,
                0x62B26CC73B032D6B, 0x77D4AA63D707C5E3, 0xA5D8869A60507932]
GOLDEN_7_BAG_RANDBELOW_100 = [69, 39, 6, 87, 31, 46, 67, 1, 25, 78]


# --- an independent implementation, from the reference C code (Vigna, prng.di.unimi.it) ----


def rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & M64


class SplitMix64:
    def __init__(self, seed: int) -> None:
        self.x = seed & M64

    def next(self) -> int:
        self.x = (self.x + 0x9E3779B97F4A7C15) & M64
        z = self.x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)


class Xoshiro256StarStar:
    def __init__(self, state: list[int]) -> None:
        self.s = list(state)

    def next(self) -> int:
        s = self.s
        result = (rotl((s[1] * 5) & M64, 7) * 9) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result


def reference_stream(seed: int, stream: str) -> Xoshiro256StarStar:
    """The engine's documented seeding: sha256("seed:stream")[:8] little-endian, then four
    SplitMix64 outputs as the xoshiro state."""
    start = int.from_bytes(hashlib.sha256(f"{seed}:{stream}".encode()).digest()[:8], "little")
    mix = SplitMix64(start)
    return Xoshiro256StarStar([mix.next() for _ in range(4)])


def test_reference_implementations_match_published_vectors() -> None:
    mix = SplitMix64(0)
    assert [mix.next() for _ in range(3)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    xo = Xoshiro256StarStar([1, 2, 3, 4])
    assert [xo.next() for _ in range(6)] == [
        11520, 0, 1509978240, 1215971899390074240, 1216172134540287360, 607988272756665600]


def test_golden_sequence() -> None:
    rng = Rng(7, "bag")
    assert [rng.next_u64() for _ in range(6)] == GOLDEN_7_BAG
    rng = Rng(7, "bag")
    assert [rng.randbelow(100) for _ in range(10)] == GOLDEN_7_BAG_RANDBELOW_100


@pytest.mark.parametrize(("seed", "stream"), [(7, "bag"), (0, ""), (2**64 - 1, "deck"),
                                              (123456789, "boats"), (42, "seating")])
def test_engine_agrees_with_the_reference(seed: int, stream: str) -> None:
    assert derive_seed(seed, stream) == int.from_bytes(
        hashlib.sha256(f"{seed}:{stream}".encode()).digest()[:8], "little")
    ours, ref = Rng(seed, stream), reference_stream(seed, stream)
    assert [ours.next_u64() for _ in range(200)] == [ref.next() for _ in range(200)]


def test_engine_matches_published_xoshiro_vector_from_a_set_state() -> None:
    rng = Rng(0)
    rng.setstate([1, 2, 3, 4])
    assert [rng.next_u64() for _ in range(4)] == [11520, 0, 1509978240, 1215971899390074240]


# --- streams ------------------------------------------------------------------------------


def test_streams_are_independent() -> None:
    bag, deck = Rng(7, "bag"), Rng(7, "deck")
    a = [bag.next_u64() for _ in range(1000)]
    b = [deck.next_u64() for _ in range(1000)]
    assert not set(a) & set(b)
    agreeing_bits = sum(64 - (x ^ y).bit_count() for x, y in zip(a, b, strict=True))
    assert abs(agreeing_bits / 64000 - 0.5) < 0.02  # uncorrelated: about half the bits agree
    # drawing from one stream never shifts another
    fresh = Rng(7, "deck")
    assert [fresh.next_u64() for _ in range(1000)] == b


def test_seeds_give_different_streams() -> None:
    firsts = {Rng(seed, "bag").next_u64() for seed in range(200)}
    assert len(firsts) == 200


def test_state_copy_and_restore() -> None:
    rng = Rng(9, "x")
    rng.next_u64()
    twin = rng.copy()
    saved = rng.getstate()
    ahead = [rng.next_u64() for _ in range(5)]
    assert [twin.next_u64() for _ in range(5)] == ahead
    rng.setstate(saved)
    assert [rng.next_u64() for _ in range(5)] == ahead


# --- draws --------------------------------------------------------------------------------


def test_shuffle_is_a_deterministic_permutation() -> None:
    items = list(range(110))  # the bag: 85 cats + 25 rare treasures
    a, b = list(items), list(items)
    Rng(3, "bag").shuffle(a)
    Rng(3, "bag").shuffle(b)
    assert a == b
    assert sorted(a) == items
    assert a != items


def test_shuffle_is_uniform_over_permutations() -> None:
    rng = Rng(11, "shuffle")
    counts: Counter[tuple[int, ...]] = Counter()
    trials = 6000
    for _ in range(trials):
        deck = [0, 1, 2]
        rng.shuffle(deck)
        counts[tuple(deck)] += 1
    assert set(counts) == set(permutations(range(3)))
    expected = trials / 6
    chi2 = sum((n - expected) ** 2 / expected for n in counts.values())
    assert chi2 < 20.5  # chi-square, 5 degrees of freedom, p = 0.001


def test_randbelow_is_roughly_uniform() -> None:
    rng = Rng(5, "dice")
    trials, buckets = 20000, 10
    counts = Counter(rng.randbelow(buckets) for _ in range(trials))
    assert set(counts) == set(range(buckets))
    expected = trials / buckets
    chi2 = sum((counts[i] - expected) ** 2 / expected for i in range(buckets))
    assert chi2 < 27.9  # chi-square, 9 degrees of freedom, p = 0.001


def test_randbelow_has_no_modulo_bias_for_huge_bounds() -> None:
    """With n = 3 * 2**62 a plain ``r % n`` would put half the draws in the first third."""
    n = 3 << 62
    rng = Rng(5, "huge")
    draws = [rng.randbelow(n) for _ in range(3000)]
    assert all(0 <= d < n for d in draws)
    low = sum(1 for d in draws if d < n // 3) / len(draws)
    assert abs(low - 1 / 3) < 0.04


def test_randbelow_bounds() -> None:
    rng = Rng(1)
    assert rng.randbelow(1) == 0
    with pytest.raises(ValueError):
        rng.randbelow(0)
    with pytest.raises(ValueError):
        rng.randbelow(-3)


def test_random_and_choice() -> None:
    rng = Rng(2, "f")
    floats = [rng.random() for _ in range(1000)]
    assert all(0.0 <= f < 1.0 for f in floats)
    assert 0.45 < sum(floats) / len(floats) < 0.55
    assert {rng.choice("abc") for _ in range(100)} == set("abc")
