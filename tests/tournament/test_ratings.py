"""Elo as pure functions, checked against values computed by hand (K = 32)."""

from __future__ import annotations

import pytest

from competition import elo


def test_two_seats_equal_ratings_win():
    # E = 1 / (1 + 10^0) = 0.5; winner 1500 + 32 * (1 - 0.5) = 1516, loser 1500 - 16 = 1484.
    assert elo.multiplayer_update([1500, 1500], [1, 2]) == pytest.approx([1516, 1484])


def test_two_seats_draw_moves_toward_each_other():
    # E(1600 vs 1400) = 1 / (1 + 10^(-200/400)) = 1 / 1.316228 = 0.759747.
    # Draw: 1600 + 32 * (0.5 - 0.759747) = 1600 - 8.3119 = 1591.6881; 1400 + 8.3119.
    assert elo.multiplayer_update([1600, 1400], [1, 1]) == pytest.approx(
        [1591.6881, 1408.3119], abs=1e-3
    )


def test_two_seats_upset():
    # Lower seat wins: 1400 + 32 * (1 - 0.240253) = 1400 + 24.3119 = 1424.3119; 1575.6881.
    assert elo.multiplayer_update([1600, 1400], [2, 1]) == pytest.approx(
        [1575.6881, 1424.3119], abs=1e-3
    )


def test_three_seats_pairwise_k_halved():
    # K per pair = 32 / (3 - 1) = 16, every E = 0.5.
    # Seat 0 beats 1 and 2: +8 +8 = 1516. Seat 1 loses to 0, beats 2: -8 +8 = 1500. Seat 2: -16.
    assert elo.multiplayer_update([1500, 1500, 1500], [1, 2, 3]) == pytest.approx(
        [1516, 1500, 1484]
    )


def test_four_seats_with_shared_rank():
    # K per pair = 32 / 3 = 10.6667, every E = 0.5; ranks 1, 2, 2, 4.
    # Seat 0: three wins, 3 * 10.6667 * 0.5 = +16. Seats 1 and 2: loss (-5.3333), draw (0),
    # win (+5.3333) = 0. Seat 3: three losses = -16.
    assert elo.multiplayer_update([1500] * 4, [1, 2, 2, 4]) == pytest.approx(
        [1516, 1500, 1500, 1484]
    )


def test_four_seats_unequal_ratings():
    # E(1600 vs 1500) = 1 / (1 + 10^(-0.25)) = 0.640065; E(1600 vs 1400) = 0.759747;
    # E(1500 vs 1400) = 0.640065; E(1500 vs 1500) = 0.5. K per pair = 32 / 3. Ranks 1, 2, 3, 4.
    # Seat 0: (1 - .640065) + (1 - .640065) + (1 - .759747) = 0.960123 -> +10.2413 = 1610.2413
    # Seat 1: -0.359935 + 0.5 + 0.359935 = 0.5 -> +5.3333 = 1505.3333
    # Seat 2: -0.359935 - 0.5 + 0.359935 = -0.5 -> -5.3333 = 1494.6667
    # Seat 3: -0.240253 - 0.359935 - 0.359935 = -0.960123 -> -10.2413 = 1389.7587
    after = elo.multiplayer_update([1600, 1500, 1500, 1400], [1, 2, 3, 4])
    assert after == pytest.approx([1610.2413, 1505.3333, 1494.6667, 1389.7587], abs=1e-3)
    assert sum(after) == pytest.approx(6000)  # pairwise Elo is zero-sum


def test_solo_against_fixed_sister():
    # hard sister = 1500: E = 0.5, a win gives 1500 + 16 = 1516.
    assert elo.solo_update(1500, "hard", margin=3) == pytest.approx(1516)
    # expert sister = 1800: E = 1 / (1 + 10^0.75) = 1 / 6.623413 = 0.150979;
    # a loss gives 1500 - 32 * 0.150979 = 1495.1687.
    assert elo.solo_update(1500, "expert", margin=-12) == pytest.approx(1495.1687, abs=1e-3)
    # easy sister = 1200: E = 0.849021; a win gives 1500 + 32 * 0.150979 = 1504.8313;
    # a tie (margin 0) is a draw: 1500 + 32 * (0.5 - 0.849021) = 1488.8313.
    assert elo.solo_update(1500, "easy", margin=1) == pytest.approx(1504.8313, abs=1e-3)
    assert elo.solo_update(1500, "easy", margin=0) == pytest.approx(1488.8313, abs=1e-3)


def test_match_update_dispatches_and_checks_input():
    assert elo.match_update([1500], [1], solo_difficulty="hard", margin=1) == [1516]
    assert elo.match_update([1500, 1500], [1, 2], k=16) == pytest.approx([1508, 1492])
    with pytest.raises(ValueError, match="difficulty"):
        elo.solo_update(1500, "impossible", margin=1)
    with pytest.raises(ValueError, match="one entry per seat"):
        elo.multiplayer_update([1500, 1500], [1])
    with pytest.raises(ValueError, match="at least two"):
        elo.multiplayer_update([1500], [1])


def test_ratings_module_imports_no_django():
    import ast
    from pathlib import Path

    tree = ast.parse(Path(elo.__file__).read_text())
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not any(name.startswith("django") for name in imported)
