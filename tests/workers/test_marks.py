"""A bot's `marks` (workers/protocol/marks.py): kept in the action log of a real match, and a reply
that breaks a limit is `bad_output` naming the limit; the schema states the same limits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from competition.faults import FaultKind
from competition.limits import Limits
from workers.protocol.marks import (
    MARK_COLOURS,
    MAX_CELLS,
    MAX_LABEL,
    MAX_MARKS,
    MarksError,
    parse_marks,
)
from workers.runner import MatchSpec, SeatSpec, run_match

pytestmark = pytest.mark.usefixtures("tiny_mode", "worker_guard")


def _bot(tmp_path: Path, marks: object) -> str:
    source = (
        "import json, sys\n"
        f"MARKS = json.loads({json.dumps(json.dumps(marks))})\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'start':\n"
        "        print(json.dumps({'ready': True}), flush=True)\n"
        "    elif m['type'] == 'decide':\n"
        "        print(json.dumps({'index': 0, 'debug': 'hm', 'marks': MARKS}), flush=True)\n"
    )
    path = tmp_path / "marks_bot.py"
    path.write_text(source)
    return str(path)


def _play(path: str):
    limits = Limits(decision_seconds=0.75, bank_seconds=2.5, end_grace_seconds=0.1)
    return run_match(MatchSpec(mode="tiny", seats=(SeatSpec.parse(path),), seed=1,
                               options={"rounds": 2}, limits=limits))


def test_marks_are_kept_in_the_action_log(tmp_path: Path) -> None:
    marks = [{"cells": [[1, 2], [2, 2]], "label": "plan: blue", "colour": "blue"},
             {"cells": [[0, 0]]}]
    outcome = _play(_bot(tmp_path, marks))
    assert not outcome.faults
    assert [a["marks"] for a in outcome.actions] == [
        [marks[0], {"cells": [[0, 0]], "label": "", "colour": "black"}]] * 2


@pytest.mark.parametrize("marks,limit", [
    ([{"cells": [[0, 0]]}] * (MAX_MARKS + 1), f"at most {MAX_MARKS} marks"),
    ([{"cells": [[0, 0]], "label": "x" * (MAX_LABEL + 1)}], f"at most {MAX_LABEL} characters"),
    ([{"cells": [[0, 0]], "colour": "pink"}], "colour must be one of"),
    ([{"cells": [[0, 0]] * (MAX_CELLS + 1)}], f"at most {MAX_CELLS} cells"),
    ([{"cells": [[0, 99]]}], "x and y are 0 to"),
    ({"cells": []}, "marks must be a list"),
])
def test_a_mark_over_a_limit_is_bad_output_naming_it(tmp_path: Path, marks, limit) -> None:
    outcome = _play(_bot(tmp_path, marks))
    (fault,) = outcome.faults
    assert fault.kind == FaultKind.BAD_OUTPUT
    assert limit in fault.message and "marks" in fault.message
    with pytest.raises(MarksError, match=limit.split(" (")[0]):
        parse_marks(marks)


def test_the_schema_states_the_limits() -> None:
    from workers.protocol.schema import protocol_schema

    schema = protocol_schema("standard")
    reply = schema["$defs"]["reply_action_place"]["properties"]["marks"]
    assert reply["maxItems"] == MAX_MARKS
    item = reply["items"]["properties"]
    assert item["label"]["maxLength"] == MAX_LABEL
    assert item["colour"]["enum"] == list(MARK_COLOURS)
    assert item["cells"]["maxItems"] == MAX_CELLS
    index_reply = schema["$defs"]["reply"]["oneOf"][0]["properties"]["marks"]
    assert index_reply["maxItems"] == MAX_MARKS
