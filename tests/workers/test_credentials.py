"""The credentials a bot runs with under uid isolation, whichever way the pid namespace
wrapper drops to the uid (``unshare --setuid`` or ``setpriv``): its own uid and gid, no
supplementary groups, no capabilities, ``no_new_privs``, and pid 1 of its own namespace."""

from __future__ import annotations

import json

import pytest

import workers.sandbox.isolation as isolation
from workers.sandbox.bot_process import BotSandbox
from workers.sandbox.isolation import UID_BASE, UID_SLOTS, detect_isolation

from .conftest import FAST

pytestmark = pytest.mark.usefixtures("worker_guard")

STATUS = b"""
import json, os, sys
sys.stdin.readline()
fields = dict(line.split(":", 1) for line in open("/proc/self/status").read().splitlines())
print(json.dumps({k: fields[k].split() for k in ("Uid", "Gid", "Groups", "CapEff", "CapPrm",
                                                 "NoNewPrivs")} | {"pid": os.getpid()}),
      flush=True)
"""


@pytest.mark.parametrize("unshare_sets_ids", [True, False])
def test_a_bot_with_a_uid_has_no_privilege_left(
    unshare_sets_ids: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    iso = detect_isolation()
    if not iso.uid:
        pytest.skip("uid isolation needs root")
    if unshare_sets_ids and not isolation._unshare_sets_ids():
        pytest.skip("this util-linux unshare has no --setuid")
    monkeypatch.setattr(isolation, "_unshare_sets_ids", lambda: unshare_sets_ids)
    with BotSandbox(STATUS, "status.py", limits=FAST, isolation=iso) as box:
        line, _ = box.start().exchange(b"{}\n", 5.0)
        uid = box.uid
    view = json.loads(line)
    assert uid is not None and UID_BASE <= uid < UID_BASE + UID_SLOTS
    assert view["Uid"] == [str(uid)] * 4 and view["Gid"] == [str(uid)] * 4
    assert view["Groups"] == []
    assert int(view["CapEff"][0], 16) == 0 and int(view["CapPrm"][0], 16) == 0
    assert view["NoNewPrivs"] == ["1"]
    if iso.pid:
        assert view["pid"] == 1
