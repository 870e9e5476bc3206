"""Where a seat lost (replayfile/decision_review.py) and win chances worth reading
(replayfile/win_chances.py): intervals that hold across seeds, a planted worst move found
first, and who may ask for a seat's review through the API."""

from __future__ import annotations

import copy
import functools

import pytest

from engine import new_game
from engine.bots.greedy import greedy_bot
from engine.rng import Rng
from replayfile.decision_review import BLUNDER, MISTAKE, judge_decision, mark_of, review_seat
from replayfile.format import decode, document_from_game, encode
from replayfile.recording import header_for_bots
from replayfile.win_chances import METHOD, POLICY, analyse, interval, outcome


def _chances(game, seat, playouts=40):
    """Each legal action of ``seat`` with its chance by playouts of the full state."""
    found = []
    for action in game.legal_actions(seat):
        total = 0.0
        for k in range(playouts):
            world = game.clone()
            world.apply_unchecked(seat, action)
            world.playout(Rng(k, "plant"))
            total += outcome(world)[0][seat]
        found.append((total / playouts, action))
    return found


def _play(plant_at: int | None):
    """A Duel where seat 1 is greedy and seat 0 plays the legal action with the best chance
    by playouts (greedy where it has more than 16), except its worst at step ``plant_at``:
    the replay document, and the step with the largest fall seat 0 could have planted. The
    games are deterministic and take seconds of playouts, so each is played once per run
    (``_played``) and every caller gets a copy of its own."""
    doc, spread = _played(plant_at)
    return copy.deepcopy(doc), spread


@functools.cache
def _played(plant_at: int | None):
    game = new_game("duel", 2, 11)
    bots = [greedy_bot("duel", s, 11) for s in range(2)]
    steps, spread = [], (0.0, None)
    while not game.is_over():
        seat = game.pending()[0]
        legal = game.legal_actions(seat)
        action = legal[0] if len(legal) == 1 else bots[seat].act(game, seat)
        if seat == 0 and 1 < len(legal) <= 16:
            chances = _chances(game, seat)
            worst, best = min(chances, key=lambda c: c[0]), max(chances, key=lambda c: c[0])
            if best[0] - worst[0] > spread[0]:
                spread = (best[0] - worst[0], len(steps))
            action = worst[1] if plant_at == len(steps) else best[1]
        steps.append({"seat": seat, "action": game.encode_action(action), "seconds": 0.0,
                      "note": None})
        game.apply(seat, action)
    doc = decode(encode(document_from_game(game, steps, header_for_bots(2))))
    doc["result"] = game.result()
    return doc, spread[1]


def _planted_duel():
    """The same Duel with seat 0's worst action planted at the decision where the worst
    and the best legal action are furthest apart: the document and the planted step."""
    _, planted = _play(None)
    doc, _ = _play(planted)
    return doc, planted


def test_the_planted_worst_move_is_the_costliest_decision():
    """Reviewed with 6 worlds of 8 playouts a decision, a smaller budget than the Duel's own
    (``BUDGET`` of replayfile/decision_review.py): the planted move is still the only decision
    with a loss, and its intervals are apart."""
    doc, planted = _planted_duel()
    review = review_seat(doc, 0, seed=5, budget=(6, 8))
    costliest = review["costliest"]
    assert costliest and costliest[0]["step"] == planted, costliest
    first = costliest[0]
    assert all(first["loss"] > d["loss"] for d in review["decisions"] if d["step"] != planted)
    assert first["best"]["low"] > first["taken"]["high"]  # counted: the intervals separate
    assert first["mark"] == mark_of(first["loss"])
    assert first["taken"]["text"] != first["best"]["text"]
    assert review["method"] == METHOD and review["policy"] == POLICY
    assert review["playouts"] == first["taken"]["playouts"] > 0
    # forced decisions are skipped: every judged decision had a choice
    assert all(d["legal"] > 1 for d in review["decisions"])


def test_a_decision_is_judged_from_the_seats_information_only():
    """The same decision judged from the seat's observation with two different hidden
    truths (the full games differ in what the seat cannot see) gives the same answer."""
    doc, _ = _play(None)
    game = new_game("duel", 2, 11)
    from replayfile.frames import replay_apply

    catalogue = doc["header"]["actions"]
    for i, row in enumerate(doc["steps"][:20]):
        replay_apply(game, i, row, catalogue)
    seat = game.pending()[0]
    taken = game.legal_actions(seat)[0]
    other = game.clone()
    other.rng = Rng(999, "bag")  # another future of the bag, unseen by the seat
    a = judge_decision(game, seat, taken, worlds=2, playouts=3, seed=1)
    b = judge_decision(other, seat, taken, worlds=2, playouts=3, seed=1)
    assert a == b


def test_the_marks_follow_the_stated_thresholds():
    assert (MISTAKE, BLUNDER) == (0.10, 0.15)
    assert [mark_of(x) for x in (0.0, 0.099, 0.10, 0.149, 0.15, 0.6)] == \
        ["", "", "?", "?", "??", "??"]


def test_wilson_interval():
    low, high = interval(0.5, 400)
    assert low < 0.5 < high and high - low == pytest.approx(0.098, abs=0.002)
    assert interval(0.0, 400)[0] == 0.0 and interval(0.0, 400)[1] > 0


@pytest.mark.parametrize("mode,seats", [("duel", 2), ("standard", 4)])
def test_two_runs_with_different_seeds_agree_within_their_intervals(mode, seats):
    from replayfile.recording import play_recorded

    game, steps = play_recorded(mode, seats, 4)
    doc = decode(encode(document_from_game(game, steps, header_for_bots(seats))))
    doc["result"] = game.result()
    playouts = 200
    first, second = analyse(doc, playouts, seed=1), analyse(doc, playouts, seed=7777)
    assert first["method"] == METHOD and first["policy"] == POLICY
    assert first["playouts"] == playouts
    differ = 0
    for a, b in zip(first["points"], second["points"], strict=True):
        for s in range(seats):
            assert a["low"][s] <= a["chances"][s] <= a["high"][s]
            # the two intervals overlap: the estimates agree within their uncertainty
            assert a["low"][s] <= b["high"][s] and b["low"][s] <= a["high"][s], (a, b)
            differ += a["chances"][s] != b["chances"][s]
    assert differ  # the seeds did change the playouts
