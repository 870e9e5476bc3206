"""A trained policy's bundle (examples/training/train_duel.py --export) uploads with the CLI
and passes its validation match on a real server; the same bundle padded past the upload
limit is refused with the limit stated, in one line."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.arena.test_server_commands import cli, login, server  # noqa: F401 (a fixture)

TRAIN = Path(__file__).resolve().parents[2] / "examples" / "training" / "train_duel.py"
pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_a_trained_policy_uploads_and_an_oversized_one_is_refused(server, capsys,  # noqa: ANN001, F811
                                                                  tmp_path) -> None:
    bundle = tmp_path / "policy.zip"
    subprocess.run([sys.executable, str(TRAIN), "--iterations", "1", "--population", "2",
                    "--games", "1", "--eval-games", "1", "--export", str(bundle), "--json"],
                   capture_output=True, text=True, timeout=600, check=True)
    login(capsys, server)
    assert cli(capsys, "create", "policy")[0] == 0
    code, out, err = cli(capsys, "submit", str(bundle), "--bot", "policy")
    assert code == 0, err
    assert "uploaded policy v1" in out and "ready: policy v1" in out

    big = tmp_path / "big_policy.zip"
    big.write_bytes(bundle.read_bytes())
    with zipfile.ZipFile(big, "a", zipfile.ZIP_STORED) as archive:  # weights that do not shrink
        archive.writestr("model/extra_weights.npy", os.urandom(33 * 1024 * 1024))
    code, out, err = cli(capsys, "submit", str(big), "--bot", "policy")
    assert code == 3, (out, err)
    assert "the limit is 32 MiB" in err and err.count("\n") == 1
