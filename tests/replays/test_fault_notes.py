"""What the viewer's frames say of a fault (replayfile/fault_notes.py): the seat's decision in
words, the default policy's moves, and nothing private."""

from __future__ import annotations

import pytest

from competition.faults import FaultKind
from replayfile.fault_notes import default_say, fault_notes, kind_verbs, ordinal, seat_label

PLAYERS = [{"seat": 0, "bot": "random", "version": "builtin"},
           {"seat": 1, "bot": "cats", "version": "3"}]  # fmt: skip
SEATS = [0, 1, 0, 1, 1, 0, 1, 0]  # the seat of each logged move


@pytest.mark.parametrize(("n", "text"), [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"),
                                         (11, "11th"), (12, "12th"), (13, "13th"),
                                         (21, "21st"), (102, "102nd"), (111, "111th")])  # fmt: skip
def test_ordinal(n, text):
    assert ordinal(n) == text


def test_every_fault_kind_has_words():
    assert set(kind_verbs()) == {k.value for k in FaultKind}


def test_seat_labels():
    assert seat_label(PLAYERS, 1) == "seat 1 (cats v3)"
    assert seat_label(PLAYERS, 0) == "seat 0 (random)"
    assert seat_label(PLAYERS, 5) == "seat 5"
    draft = [{"seat": 0, "bot": "cats", "version": "0"}]  # a snapshot of the workshop draft
    assert seat_label(draft, 0) == "seat 0 (cats (draft))"


def test_a_timeout_at_the_third_decision():
    fault = {"seat": 1, "kind": "timeout", "step": 4, "message": "no reply within 1.000 s",
             "seconds": 1.0, "stderr": ["secret"], "evidence": {"cpu": 1.0}}  # fmt: skip
    [note], default = fault_notes([fault], SEATS, PLAYERS)
    assert note["say"] == ("seat 1 (cats v3) timed out at its 3rd decision; the default policy "
                           "plays for it from here.")  # fmt: skip
    assert note["decision"] == 3 and note["frame"] == 5
    assert "stderr" not in note and "evidence" not in note
    assert note["message"] == "no reply within 1.000 s"
    assert default == {4: 1, 6: 1}


def test_a_bot_that_never_started_and_one_that_crashed_after_its_last_move():
    start = {"seat": 0, "kind": "start_failed", "step": 0, "message": "no interpreter"}
    end = {"seat": 1, "kind": "crash", "step": 8, "message": "exited with status 1"}
    (first, last), default = fault_notes([start, end], SEATS, PLAYERS)
    assert first["say"] == ("seat 0 (random) could not start; the default policy plays for it "
                            "from its first decision.")  # fmt: skip
    assert first["frame"] == 1 and default == {0: 0, 2: 0, 5: 0, 7: 0}
    assert last["say"] == "seat 1 (cats v3) crashed after its last decision."
    assert last["frame"] == len(SEATS)


def test_a_default_move_is_narrated_as_the_default_policys():
    assert default_say("cats (seat 1) takes the blue cat", "cats (seat 1)") == (
        "The default policy, playing for cats (seat 1), takes the blue cat")
    assert default_say("pass", "cats (seat 1)") == (
        "The default policy, playing for cats (seat 1): pass")
    assert default_say("cats (seat 1) spends fish on a treasure", "cats (seat 1)") == (
        "The default policy, playing for cats (seat 1), spends fish on a treasure")


def test_a_public_fault_keeps_listed_keys_only():
    """Fail closed: a key the runner adds to a fault stays out of public replays until it is
    listed as public."""
    from replayfile.public_copy import is_public, public_document

    fault = {"seat": 1, "kind": "crash", "step": 3, "message": "exited", "seconds": 0.1,
             "stderr": ["secret"], "evidence": {"cpu": 1}, "stderr_tail": "new secret"}
    doc = {"faults": [fault], "steps": []}
    assert not is_public(doc)
    public = public_document(doc)
    assert public["faults"] == [{"seat": 1, "kind": "crash", "step": 3, "message": "exited",
                                 "seconds": 0.1}]  # fmt: skip
    assert is_public(public) and doc["faults"][0] is fault  # the input is kept as it was


def test_the_runners_own_decision_count_wins_and_none_is_startup():
    """A runner that counts the bot's own decisions writes `decision` (None: at startup)."""
    own = {"seat": 1, "kind": "timeout", "step": 4, "message": "m", "decision": 7}
    early = {"seat": 0, "kind": "timeout", "step": 0, "message": "m", "decision": None}
    (first, second), _ = fault_notes([own, early], SEATS, PLAYERS)
    assert first["decision"] == 7 and "at its 7th decision" in first["say"]
    assert second["say"] == ("seat 0 (random) timed out at startup; the default policy plays "
                             "for it from its first decision.")  # fmt: skip
