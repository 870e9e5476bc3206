"""numpy for Python bots (``python3-numpy``, workers/sandbox/bot_packages.py): a bot in the real
sandbox
imports numpy and loads model weights from its own bundle, sees no other package of the
worker, and a bot that imports a package the sandbox lacks gets an ImportError in its stderr,
which its fault shows."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from competition.faults import FaultKind
from workers.runner import MatchSpec, SeatSpec, run_match
from workers.sandbox.bundles import languages, validate_bundle

from .conftest import FAST
from .starters import zip_bundle

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("worker_guard")]

WEIGHTS = np.arange(12, dtype=np.float32).reshape(3, 4) / 8  # sums to 8.25

# Fails (exits 3 at start) unless numpy is the pinned version, the weights load from the
# bundle and no package of the worker but numpy can be imported; then it plays the first legal
# action with a note that carries what it computed.
NUMPY_BOT = b'''
import json, sys
from pathlib import Path

import numpy as np

weights = np.load(Path(__file__).parent / "model" / "weights.npy")
checks = {
    "numpy": np.__version__ == "2.4.6",
    "shape": weights.shape == (3, 4) and weights.dtype == np.float32,
    "sum": float(weights.sum()) == 8.25,
    "matmul": float((weights @ np.ones(4, dtype=np.float32)).max()) == 4.75,
}
for other in ("django", "jsonschema", "rest_framework"):
    try:
        __import__(other)
        checks["no " + other] = False
    except ImportError:
        checks["no " + other] = True
if not all(checks.values()):
    print("checks failed:", checks, file=sys.stderr, flush=True)
    sys.exit(3)
note = "weights %.2f numpy %s" % (float(weights.sum()), np.__version__)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"ready": True}), flush=True)
    elif message["type"] == "decide":
        print(json.dumps({"index": 0, "debug": note}), flush=True)
    elif message["type"] == "end":
        break
'''

MISSING_PACKAGE_BOT = b'''
import json, sys
import numpy  # plain python3 bots get the standard library only
'''


def numpy_bundle(tmp_path: Path) -> Path:
    buffer = io.BytesIO()
    np.save(buffer, WEIGHTS)
    return zip_bundle(tmp_path / "numpy_bot.zip",
                      {"entrypoint": "main.py", "language": "python3-numpy", "name": "np"},
                      {"main.py": NUMPY_BOT, "model/weights.npy": buffer.getvalue()})


def test_python3_numpy_is_in_the_language_table_and_the_worker_image() -> None:
    spec = languages()["python3-numpy"]
    assert spec["packages"] == ["numpy"] and spec["interpreter"] == "python3"
    root = Path(__file__).resolve().parents[2]
    for requirements in ("requirements.txt", "requirements-env.txt"):
        assert "numpy==2.4.6" in (root / requirements).read_text().split(), requirements
    assert np.__version__ == "2.4.6" and "numpy 2.4.6" in spec["description"]
    dockerfile = (root / "Dockerfile").read_text()
    # the worker's packages in a virtualenv: the python3 that runs bots keeps the stdlib alone
    assert "/opt/venv/bin/pip install -r requirements.txt" in dockerfile
    assert "ENV PATH=/opt/venv/bin:$PATH" in dockerfile


@pytest.mark.parametrize("forkserver", ["1", "0"])
def test_a_numpy_bot_loads_its_weights_from_its_bundle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forkserver: str
) -> None:
    monkeypatch.setenv("ISLE_PYTHON_FORKSERVER", forkserver)
    bundle = numpy_bundle(tmp_path)
    assert validate_bundle(bundle).language == "python3-numpy"
    spec = MatchSpec(mode="duel", seats=(SeatSpec.parse(str(bundle)), SeatSpec.parse("random")),
                     seed=4, limits=FAST, replay=False)  # fmt: skip
    outcome = run_match(spec)
    assert outcome.faults == [], [f.describe() for f in outcome.faults]
    notes = {a.get("note") for a in outcome.actions if a["seat"] == 0}
    assert notes == {"weights 8.25 numpy 2.4.6"}


def test_a_numpy_bot_without_a_jail_sees_numpy_alone(tmp_path: Path) -> None:
    """Without filesystem isolation the bot could read the host, but its path still offers
    numpy alone (a folder of links to it)."""
    from workers.sandbox.isolation import detect_isolation

    iso = detect_isolation().without("filesystem", "pid")
    spec = MatchSpec(mode="duel", seats=(SeatSpec.parse(str(numpy_bundle(tmp_path))),
                                         SeatSpec.parse("random")),
                     seed=5, limits=FAST, replay=False)  # fmt: skip
    outcome = run_match(spec, isolation=iso)
    assert outcome.faults == [], [f.describe() for f in outcome.faults]


def test_a_package_the_sandbox_lacks_is_an_import_error_the_fault_shows(tmp_path: Path) -> None:
    bot = tmp_path / "needs_numpy.py"
    bot.write_bytes(MISSING_PACKAGE_BOT)
    spec = MatchSpec(mode="duel", seats=(SeatSpec.parse(str(bot)), SeatSpec.parse("random")),
                     seed=6, limits=FAST, replay=False)  # fmt: skip
    outcome = run_match(spec)
    assert len(outcome.faults) == 1
    fault = outcome.faults[0]
    assert fault.seat == 0 and fault.kind == FaultKind.CRASH
    assert any("ModuleNotFoundError: No module named 'numpy'" in line for line in fault.stderr)


def test_a_package_the_worker_lacks_is_a_clear_start_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A language offering a package this worker has not installed cannot start its bots: the
    sandbox says which package, and the match records a start_failed fault with it."""
    from workers.sandbox import bot_packages

    spec = {**languages()["python3-numpy"], "packages": ["no_such_package_here"]}
    monkeypatch.setattr(bot_packages, "language_spec", lambda language: spec)
    with pytest.raises(bot_packages.PackagesMissing,
                       match="the package 'no_such_package_here' is not installed"):
        bot_packages.package_site("python3-numpy", tmp_path)
    outcome = run_match(MatchSpec(
        mode="duel", seats=(SeatSpec.parse(str(numpy_bundle(tmp_path))), SeatSpec.parse("random")),
        seed=7, limits=FAST, replay=False))  # fmt: skip
    assert [(f.seat, f.kind) for f in outcome.faults] == [(0, FaultKind.START_FAILED)]
    assert "no_such_package_here" in outcome.faults[0].message


def test_the_bundle_limit_leaves_room_for_16_mib_of_weights(tmp_path: Path) -> None:
    """17 MiB of weights that do not compress, zipped with the bot: the bundle passes the
    default checks and the bot loads them in the sandbox."""
    from workers.sandbox.bundles import MAX_BUNDLE_BYTES

    weights = np.random.default_rng(1).random((17 * 1024 * 1024) // 8)  # float64
    buffer = io.BytesIO()
    np.save(buffer, weights)
    bot = NUMPY_BOT.replace(b'np.load(Path(__file__).parent / "model" / "weights.npy")',
                            b'np.load(Path(__file__).parent / "model" / "small.npy")')
    bot = bot.replace(b"note = ", b'big = np.load(Path(__file__).parent / "big.npy")\nnote = ')
    bot = bot.replace(b'"weights %.2f numpy %s" % (float(weights.sum()), np.__version__)',
                      b'"%d MiB" % (big.nbytes // 2**20)')
    small = io.BytesIO()
    np.save(small, WEIGHTS)
    manifest = {"entrypoint": "main.py", "language": "python3-numpy"}
    bundle = zip_bundle(tmp_path / "big.zip", manifest,
                        {"main.py": bot, "model/small.npy": small.getvalue(),
                         "big.npy": buffer.getvalue()})  # fmt: skip
    size = bundle.stat().st_size
    assert 16 * 2**20 < size <= MAX_BUNDLE_BYTES
    assert validate_bundle(bundle).size == size
    spec = MatchSpec(mode="duel", seats=(SeatSpec.parse(str(bundle)), SeatSpec.parse("random")),
                     seed=9, limits=FAST, replay=False)  # fmt: skip
    outcome = run_match(spec)
    assert outcome.faults == [], [(f.describe(), f.stderr) for f in outcome.faults]
    assert {a.get("note") for a in outcome.actions if a["seat"] == 0} == {"17 MiB"}
