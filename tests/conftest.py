"""Suite-wide pytest setup (pytest-django reads DJANGO_SETTINGS_MODULE from pyproject.toml).

Unit tests run Celery tasks eagerly, inside the test (`pytest_configure` below), so starting a
league plays its matches before the call returns; the product's embedded default is a background
worker instead, which tests/foundation/test_embedded_worker.py runs for real in a subprocess.
Tests that need real services are marked and skipped, with the reason, when those services are not
configured:

* `integration`: PostgreSQL via DATABASE_URL and Redis via TEST_REDIS_URL (.ci/run sets both
  when it finds them on 127.0.0.1).
* `browser`: Debian's Chromium at /usr/bin/chromium (or CHROMIUM_PATH) for Playwright, and
  axe-core from tests/browser-deps (npm).

Under CI=true (.ci/run) such a skip is a failure, as is the skip of a containment test of the
sandbox (`CONTAINMENT`, where a missing isolation layer would make it skip): CI proves the
sandbox and the services, it never reports them untested.

The S3-compatible server is not configured but started: `s3_server` runs moto in server mode
(requirements-dev.txt) as its own process on 127.0.0.1, once per session, and `s3_storages`
points the file storages at a fresh bucket of it for one test.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.ports import free_port as next_free_port

REPO = Path(__file__).resolve().parent.parent
# Users in each role and a test's file storages, for the tests of the site and the API.
pytest_plugins = ["tests.accounts"]


def chromium_path() -> str | None:
    """The Chromium binary Playwright should launch (`executable_path`), if installed."""
    candidate = os.environ.get("CHROMIUM_PATH") or "/usr/bin/chromium"
    return candidate if os.access(candidate, os.X_OK) else shutil.which("chromium")


def _integration_skip_reason() -> str | None:
    if not os.environ.get("TEST_REDIS_URL"):
        return "integration: TEST_REDIS_URL is not set (Redis)"
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        return "integration: DATABASE_URL does not point at PostgreSQL"
    return None


def pytest_configure(config: pytest.Config) -> None:
    """Eager Celery for the whole suite: tests see a task's effect as soon as it is queued."""
    from django.conf import settings

    from workers.queueing.celery_app import app

    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.BOSS_LEAGUES = False  # no promotion runs behind every upload; tests turn them on
    app.conf.update(task_always_eager=True, task_eager_propagates=True)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Every test starts with the product's Celery app current. Celery's task proxies resolve
    through the *thread's* current app: a test module that made another app current
    (``Celery(...)`` does so unless ``set_as_current=False``) once let a task patched in the
    test's thread run unpatched in a helper thread, on the product's app."""
    from celery import current_app

    from workers.queueing.celery_app import app

    if current_app._get_current_object() is not app:  # noqa: SLF001 - celery's own accessor
        pytest.fail(
            f"the current Celery app is {current_app.main!r}, not the product's: a test or module "
            "made another app current (give it set_as_current=False)",
            pytrace=False,
        )


# Under CI=true these may not skip: a skip there would hide a missing service, browser or
# isolation layer (.ci/check refuses to start without them; this catches what it cannot see).
STRICT_MARKERS = ("integration", "browser", "ci_required")
CONTAINMENT = {  # the sandbox's containment tests, which skip where a layer is missing
    "tests/workers/test_hostile.py", "tests/workers/test_orphans.py",
    "tests/workers/test_credentials.py", "tests/workers/test_fair_time.py",
    "tests/workers/test_uid_lease.py", "tests/workers/test_unpacked_cache.py",
    "tests/workers/test_sandbox.py", "tests/workers/test_forkserver.py",
    "tests/workers/test_limits.py", "tests/workers/test_languages.py",
    "tests/tournament/test_fail_closed.py", "tests/workers/test_fail_closed.py",
    "tests/foundation/test_proxy.py",  # the reverse proxy: skips where nginx is missing
}  # fmt: skip


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() == "true"


def must_not_skip(item: pytest.Item) -> str | None:
    """Why this test may not skip under CI=true (its marker or module), or None."""
    for marker in STRICT_MARKERS:
        if marker in item.keywords:
            return f"an {marker} test" if marker[0] in "aeiou" else f"a {marker} test"
    if Path(str(item.fspath)).resolve().relative_to(REPO).as_posix() in CONTAINMENT:
        return "a containment test"
    return None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    """Under CI=true a skip of an integration, browser or containment test is a failure."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if not (report.skipped and in_ci()) or hasattr(report, "wasxfail"):
        return
    kind = must_not_skip(item)
    if kind is None:
        return
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    report.outcome = "failed"
    report.longrepr = f"CI=true: {kind} may not skip, and this one did: {reason}"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    integration_reason = _integration_skip_reason()
    browser_reason = None if chromium_path() else "browser: /usr/bin/chromium is not installed"
    for item in items:
        if integration_reason and "integration" in item.keywords:
            item.add_marker(pytest.mark.skip(reason=integration_reason))
        if browser_reason and "browser" in item.keywords:
            item.add_marker(pytest.mark.skip(reason=browser_reason))


@pytest.fixture(scope="session")
def django_db_modify_db_settings_xdist_suffix(request: pytest.FixtureRequest) -> None:
    """The test databases' suffix of an xdist worker (``_gw0``...), as pytest-django gives it,
    and also of a single process run with ``PYTEST_XDIST_WORKER=gwN`` set by hand, which
    tests/worker_env.py already gives its own data folder, Redis database and ports: so two
    developers' (or checkouts') runs on one PostgreSQL never share a test database."""
    from pytest_django.fixtures import _set_suffix_to_test_databases, skip_if_no_django

    skip_if_no_django()
    worker = getattr(request.config, "workerinput", {}).get("workerid") or os.environ.get(
        "PYTEST_XDIST_WORKER"
    )
    if worker:
        _set_suffix_to_test_databases(suffix=worker)


@pytest.fixture
def repo_root() -> Path:
    return REPO


@pytest.fixture
def chromium_executable() -> str:
    """Path for Playwright's `chromium.launch(executable_path=...)` (browser tests only)."""
    path = chromium_path()
    if path is None:
        pytest.skip("browser: /usr/bin/chromium is not installed")
    return path


@pytest.fixture(scope="session")
def axe() -> Path:
    """axe.min.js for browser tests, pinned in tests/browser-deps/package-lock.json."""
    from tests.website.browser import axe_script

    script = axe_script()
    if script is None:
        pytest.skip("browser: npm is not installed, so axe-core (tests/browser-deps) is not")
    return script


@pytest.fixture
def free_port() -> int:
    """A TCP port on 127.0.0.1 for a server the test starts, never handed to another test
    (tests/ports.py)."""
    return next_free_port()


@pytest.fixture
def stack_env(transactional_db: None) -> dict[str, str]:
    """The environment of stack processes (scripts/stack.py) on the test database and
    TEST_REDIS_URL. They see what the test commits (transactional_db), so a test can create
    rows, enqueue work through the API and watch a worker finish it. Integration tests only."""
    from django.db import connection

    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    host = f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    return {
        "DATABASE_URL": f"postgres://{auth}@{host}/{db['NAME']}",
        "CELERY_BROKER_URL": os.environ["TEST_REDIS_URL"],
        # no boss-league promotion runs behind each upload: their paired games would share
        # the workers with what the test counts (tests/tournament/test_boss_leagues.py has them)
        "BOSS_LEAGUES": "0",
    }


@pytest.fixture
def live_stack(stack_env: dict[str, str], tmp_path: Path) -> Iterator[object]:
    """A running web + one Celery worker + beat on the test database and TEST_REDIS_URL."""
    from scripts.stack import Stack

    env = {**stack_env, "DATA_DIR": str(tmp_path / "data"), "DEBUG": "1"}
    with Stack(workers=1, port=next_free_port(), env=env, state_dir=tmp_path / "stack") as stack:
        yield stack


@pytest.fixture(scope="session")
def s3_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """moto in server mode, its own process on 127.0.0.1 (scripts/s3server.py)."""
    from scripts.s3server import S3Server

    log = tmp_path_factory.mktemp("s3server") / "moto.log"
    with S3Server(port=next_free_port(), log_path=log) as server:
        yield server


@pytest.fixture
def s3_bucket(s3_server: object) -> str:
    """A new, empty bucket on the session's S3 server."""
    import uuid

    name = f"t-{uuid.uuid4().hex[:20]}"
    s3_server.create_bucket(name)  # type: ignore[attr-defined]
    return name


@pytest.fixture
def s3_storages(settings: object, s3_server: object, s3_bucket: str) -> str:
    """The ``bots`` and ``replays`` storages on a fresh bucket of the S3 server, configured
    by STORAGE_URL exactly as a deployment would be. Returns the bucket's name."""
    from tournament.storage_config import file_storages

    url = s3_server.storage_url(s3_bucket)  # type: ignore[attr-defined]
    settings.STORAGE_URL = url  # type: ignore[attr-defined]
    settings.STORAGES = {  # type: ignore[attr-defined]
        **settings.STORAGES,  # type: ignore[attr-defined]
        **file_storages(storage_url=url, aws_bucket="", roots={"bots": Path(), "replays": Path()}),
    }
    return s3_bucket
