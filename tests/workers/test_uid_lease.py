"""The uid pool's lock files: a uid released clean is leased again without a sweep; a uid
whose holder died (or a new lock file) is swept of leftover processes first."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

import workers.sandbox.isolation as isolation
from workers.sandbox.isolation import UID_BASE, UID_SLOTS, kill_uid, lease_uid, uid_processes

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="bot uids need root")

SLOT = UID_SLOTS - 7  # away from the slots the sandbox tests lease from their pid


def _count_sweeps(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    swept: list[int] = []

    def counting(uid: int) -> bool:
        swept.append(uid)
        return kill_uid(uid)

    monkeypatch.setattr(isolation, "kill_uid", counting)
    return swept


def test_a_clean_release_spares_the_next_sweep(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    swept = _count_sweeps(monkeypatch)
    lease = lease_uid(tmp_path, start=SLOT)
    assert swept == [lease.uid]  # a new lock file: swept
    assert (tmp_path / "uids" / str(lease.uid)).read_text().strip() == str(os.getpid())
    lease.release(clean=True)
    again = lease_uid(tmp_path, start=SLOT)
    assert again.uid == lease.uid and swept == [lease.uid]  # clean: no sweep
    again.release()  # not clean: the next holder sweeps
    third = lease_uid(tmp_path, start=SLOT)
    assert swept == [lease.uid, lease.uid]
    third.release(clean=True)


def test_a_holder_that_never_released_clean_leaves_no_process_behind(tmp_path: Path) -> None:
    """A process of the uid left by a dead holder is killed by the next lease."""
    lease = lease_uid(tmp_path, start=SLOT)
    uid = lease.uid
    assert UID_BASE <= uid < UID_BASE + UID_SLOTS
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the leftover: sleeps as the bot uid
        try:
            os.close(lease._fd)  # a bot never holds the lock (it is exec'd without our fds)
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            time.sleep(20)
        finally:
            os._exit(0)
    try:
        deadline = time.monotonic() + 10
        while pid not in uid_processes(uid):  # wait until the child runs as the uid
            assert time.monotonic() < deadline, "the leftover never became the bot uid"
            time.sleep(0.01)
        lease.release()  # as if its worker died: the file still names the holder
        again = lease_uid(tmp_path, start=SLOT)
        assert again.uid == uid
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == -signal.SIGKILL
        again.release(clean=True)
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
