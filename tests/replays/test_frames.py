"""Viewer frames: patches rebuild every view exactly, for the spectator and each seat."""

from __future__ import annotations

import pytest

from engine import new_game
from replayfile.format import decode
from replayfile.frames import InvalidSeat, apply_patch, build_frames, diff, parse_seat
from tests.replays.conftest import mode_views, scoring_modes


def _views(payload):
    view = payload["views"]["base"]
    out = [view]
    for patch in payload["views"]["patches"]:
        view = apply_patch(view, patch)
        out.append(view)
    return out


@pytest.mark.parametrize(("any_mode", "seat"), mode_views(), indirect=["any_mode"])
def test_patches_rebuild_every_view(any_mode, record, seat):
    game, steps, data = record(any_mode, seed=13)
    doc = decode(data)
    payload = build_frames(doc, seat)
    views = _views(payload)
    assert len(views) == len(steps) + 1 == len(payload["events"])
    replay = new_game(any_mode, game.seats, game.seed, game.options)
    expected = [replay.spectator_view() if seat is None else replay.observation(seat)]
    for step in steps:
        replay.apply(step["seat"], step["action"])
        expected.append(replay.spectator_view() if seat is None else replay.observation(seat))
    assert views == expected
    assert [s["seat"] for s in payload["steps"]] == [s["seat"] for s in steps]
    assert sum(len(e) for e in payload["events"]) == len(replay.events)
    for name in {b["boat"] for b in game.result()["boats"]}:
        assert payload["layouts"][name]["cells"], name


def test_diff_round_trips_nested_values():
    old = {"a": [1, 2, {"b": 3}], "c": {"d": 1, "e": 2}, "gone": True}
    new = {"a": [1, 2, {"b": 4}, 5], "c": {"d": 1}, "f": None}
    assert apply_patch(old, diff(old, new)) == new
    assert diff(new, new) is None
    assert apply_patch([1, 2, 3], diff([1, 2, 3], [1])) == [1]
    assert apply_patch(1, diff(1, True)) is True


def test_parse_seat():
    assert parse_seat("spectator", 4) is None and parse_seat(None, 4) is None
    assert parse_seat("3", 4) == 3
    for bad in ("4", "-1", "x"):
        with pytest.raises(InvalidSeat, match="seat must be 0..3 or 'spectator'"):
            parse_seat(bad, 4)


@pytest.mark.parametrize("any_mode", scoring_modes(), indirect=True)
def test_running_scores_end_at_the_result(any_mode, record):
    game, steps, data = record(any_mode, seed=17)
    payload = build_frames(decode(data))
    assert len(payload["scores"]) == len(steps) + 1
    assert payload["scores"][-1] == game.result()["scores"]
    me = game.seats - 1
    own = build_frames(decode(data), me)["scores"][-1]
    assert own[me] == game.result()["scores"][me]
    assert all(v is None for s, v in enumerate(own) if s != me)


def test_bad_files_are_frames_errors(record, toy_mode):
    from replayfile.frames import MAX_STEPS, FramesError

    _, _, data = record(toy_mode, seats=2)
    doc = decode(data)
    doc["header"]["mode"] = "chess"
    with pytest.raises(FramesError, match="configuration is rejected: unknown mode 'chess'"):
        build_frames(doc)
    doc = decode(data)
    doc["steps"] = doc["steps"] * (MAX_STEPS // len(doc["steps"]) + 1)
    with pytest.raises(FramesError, match="a game has at most"):
        build_frames(doc)
    doc = decode(data)
    doc["steps"][3][1] = ["place", [0]]
    with pytest.raises(FramesError, match="step 3 cannot be replayed"):
        build_frames(doc)


def test_chart_marks_days_and_faults_and_every_step_is_told(record):
    from replayfile.frames import marks_of

    assert marks_of([1, 1, 2, 2, 3], [{"step": 2, "seat": 1, "kind": "timeout"}]) == {
        "days": [{"frame": 2, "day": 2}, {"frame": 4, "day": 3}],
        "faults": [{"frame": 3, "seat": 1, "kind": "timeout"}]}
    _game, _steps, data = record("standard", 5, 2)
    payload = build_frames(decode(data))
    days = [d["day"] for d in payload["marks"]["days"]]
    assert days == list(range(2, len(days) + 2))  # every day after the first starts once
    assert all(step["say"] and step["say"] != step["text"] for step in payload["steps"])
    assert payload["names"] == ["random (seat 0)", "random (seat 1)"]


def test_scores_kept_from_the_step_before_equal_scores_computed_again(any_mode, record,
                                                                       monkeypatch):
    """Frames skip scoring a step that changed no boat, lesson or fish; that never changes
    what the chart shows."""
    from replayfile import frames

    _game, _steps, data = record(any_mode, seed=6)
    doc = decode(data)
    fast = build_frames(doc)["scores"]
    monkeypatch.setattr(frames, "_touches", lambda patch, keys: True)
    assert build_frames(doc)["scores"] == fast
