"""Settings read from the environment: safe defaults, production hardening, Celery safety.

Each case runs in a fresh interpreter because settings are read once per process, and the
pytest process itself must keep the embedded defaults. A value of the settings module is read
without loading the apps (a tenth of the time of `django.setup()`); the Celery app's
configuration and Django's checks are read as their processes see them, after it.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
READ_BY_SETTINGS = {
    "DEBUG", "SECRET_KEY", "DATABASE_URL", "DATABASE_CONN_MAX_AGE", "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS", "DATA_DIR", "REPLAY_ROOT", "BOT_ROOT", "STATIC_ROOT", "LOG_LEVEL",
    "BEHIND_TLS_PROXY", "TRUSTED_PROXIES",
}  # fmt: skip
PRODUCTION = {
    "DJANGO_ENV": "production",
    "SECRET_KEY": "k3Yq9-pR7vX2mN8tL4wZ6bH1cJ5dF0gS-aE3uI7oP9yT2rW4xQ6vB8nM1",
    "ALLOWED_HOSTS": "arena.example.com",
    "DATABASE_URL": "postgres://arena:secret@db.invalid:5432/arena",
}


def clean_env(tmp_path: Path, **overrides: str) -> dict[str, str]:
    """The caller's environment minus everything settings read, so defaults are what we test."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in READ_BY_SETTINGS and not key.startswith(("DJANGO_", "CELERY_", "SECURE_"))
    }
    env.update(DATA_DIR=str(tmp_path / "data"), DJANGO_SETTINGS_MODULE="tournament.settings")
    env.update(overrides)
    return env


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )


def read_settings(env: dict[str, str], expression: str, *, setup: bool = False) -> object:
    """``expression`` evaluated in a fresh process on ``env``, with ``settings`` in scope
    (the apps loaded first with ``setup``)."""
    code = "import django, json\n" + ("django.setup()\n" if setup else "")
    code += f"from django.conf import settings\nprint(json.dumps({expression}, default=str))"
    done = run(["-c", code], env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_deploy_check_passes_with_production_env(tmp_path: Path) -> None:
    done = run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        clean_env(tmp_path, **PRODUCTION),
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_production_without_secret_key_fails_clearly(tmp_path: Path) -> None:
    for overrides in ({"DJANGO_ENV": "production"}, {"DJANGO_ENV": "production", "DEBUG": "1"}):
        done = run(["manage.py", "check"], clean_env(tmp_path, **overrides))
        assert done.returncode != 0
        assert "ImproperlyConfigured" in done.stderr
        assert "SECRET_KEY must be set in production" in done.stderr


def test_debug_is_on_only_when_asked(tmp_path: Path) -> None:
    """A fresh clone (the demo, runserver) runs with DEBUG off, on this machine's host names,
    with no production hardening (plain HTTP works) and static files served without
    collectstatic; DEBUG=1 turns Django's debug pages on."""
    expression = (
        '{"debug": settings.DEBUG, "hosts": settings.ALLOWED_HOSTS,'
        ' "ssl": getattr(settings, "SECURE_SSL_REDIRECT", False),'
        ' "static": settings.STORAGES["staticfiles"]["BACKEND"],'
        ' "finders": settings.WHITENOISE_USE_FINDERS}'
    )
    got = read_settings(clean_env(tmp_path), expression)
    assert got["debug"] is False
    assert "127.0.0.1" in got["hosts"] and "localhost" in got["hosts"]
    assert got["ssl"] is False
    assert got["static"] == "django.contrib.staticfiles.storage.StaticFilesStorage"
    assert got["finders"] is True
    assert read_settings(clean_env(tmp_path, DEBUG="1"), "settings.DEBUG") is True
    production = read_settings(clean_env(tmp_path, **PRODUCTION), expression)
    assert production["debug"] is False and production["ssl"] is True
    assert production["static"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"


def test_trusted_proxies_are_parsed_or_refused(tmp_path: Path) -> None:
    got = read_settings(clean_env(tmp_path, TRUSTED_PROXIES="127.0.0.1,172.16.0.0/12"),
                        "[str(n) for n in settings.TRUSTED_PROXY_NETWORKS]")  # fmt: skip
    assert got == ["127.0.0.1/32", "172.16.0.0/12"]
    done = run(["manage.py", "check"], clean_env(tmp_path, TRUSTED_PROXIES="nginx"))
    assert done.returncode != 0 and "TRUSTED_PROXIES: 'nginx' is not an address" in done.stderr
    # A whole private range is accepted, with a warning: anyone inside could forge addresses.
    done = run(["manage.py", "check"],
               clean_env(tmp_path, TRUSTED_PROXIES="172.29.80.10,172.16.0.0/12"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "tournament.W001" in done.stderr and "172.16.0.0/12 (1048576 addresses)" in done.stderr
    assert "172.29.80.10" not in done.stderr
    done = run(["manage.py", "check"], clean_env(tmp_path, TRUSTED_PROXIES="172.29.80.10"))
    assert done.returncode == 0 and "W001" not in done.stderr + done.stdout


def test_unknown_django_env_fails_clearly(tmp_path: Path) -> None:
    done = run(["manage.py", "check"], clean_env(tmp_path, DJANGO_ENV="prod"))
    assert done.returncode != 0 and "DJANGO_ENV='prod': use development or production" in (
        done.stderr
    )


def test_a_soft_time_limit_not_below_the_hard_one_fails_clearly(tmp_path: Path) -> None:
    """Celery refuses to send a task whose soft limit is not below its hard one: every match
    and every scheduled job would fail to be sent, so the settings refuse it first."""
    env = clean_env(tmp_path, CELERY_TASK_TIME_LIMIT="600", CELERY_TASK_SOFT_TIME_LIMIT="900")
    done = run(["manage.py", "check"], env)
    assert done.returncode != 0
    assert "CELERY_TASK_SOFT_TIME_LIMIT=900 must be below CELERY_TASK_TIME_LIMIT=600" in (
        done.stderr
    )


def test_a_workshop_gate_without_a_slot_fails_clearly(tmp_path: Path) -> None:
    """With no workshop slot, no test game or promotion game would ever be sent."""
    done = run(["manage.py", "check"], clean_env(tmp_path, WORKSHOP_SLOTS="0"))
    assert done.returncode != 0 and "WORKSHOP_SLOTS=0: use 1 or more" in done.stderr
    assert read_settings(clean_env(tmp_path), "settings.WORKSHOP_SLOTS") == 1


def test_defaults_are_embedded_sqlite_under_data_dir(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    got = read_settings(
        env,
        '{"debug": settings.DEBUG, "engine": settings.DATABASES["default"]["ENGINE"],'
        ' "name": str(settings.DATABASES["default"]["NAME"]),'
        ' "replays": settings.STORAGES["replays"]["OPTIONS"]["location"],'
        ' "bots": settings.STORAGES["bots"]["OPTIONS"]["location"],'
        ' "static": str(settings.STATIC_ROOT)}',
    )
    data = Path(env["DATA_DIR"]).resolve()
    assert got["debug"] is False
    assert got["engine"] == "django.db.backends.sqlite3"
    assert Path(got["name"]).parent == data
    assert got["replays"] == str(data / "replays")
    assert got["bots"] == str(data / "bots")
    assert got["static"] == str(data / "static")


def test_database_url_selects_postgres_with_pooling(tmp_path: Path) -> None:
    got = read_settings(
        clean_env(tmp_path, DATABASE_URL="postgres://postgres@127.0.0.1:5432/test"),
        'settings.DATABASES["default"]',
    )
    assert got["ENGINE"] == "django.db.backends.postgresql"
    assert got["NAME"] == "test" and got["USER"] == "postgres"
    assert got["CONN_MAX_AGE"] > 0 and got["CONN_HEALTH_CHECKS"] is True


CELERY_CONF = (
    "(lambda c: {k: c[k] for k in ("
    "'task_always_eager', 'task_eager_propagates', 'broker_url', 'result_backend',"
    " 'accept_content', 'task_serializer', 'result_serializer', 'task_acks_late',"
    " 'task_reject_on_worker_lost', 'worker_prefetch_multiplier', 'task_time_limit',"
    " 'task_soft_time_limit', 'broker_connection_retry_on_startup')})"
    "(__import__('workers.queueing.celery_app', fromlist=['app']).app.conf)"
)


def test_celery_embedded_mode_without_broker(tmp_path: Path) -> None:
    """No broker: tasks are queued in an SQLite file under DATA_DIR for the embedded workers
    (workers/queueing/broker.py), not run inside the request (eager mode is an explicit opt-in)."""
    conf = read_settings(clean_env(tmp_path), CELERY_CONF, setup=True)
    assert conf["task_always_eager"] is False
    assert conf["broker_url"].startswith("sqlite:///")
    assert Path(conf["broker_url"].removeprefix("sqlite:///")).is_relative_to(tmp_path)
    transport = read_settings(clean_env(tmp_path), "settings.CELERY_BROKER_TRANSPORT")
    assert transport == "workers.queueing.broker:Transport"
    assert_safe_celery(conf)


def test_periodic_jobs_have_a_queue_of_their_own(tmp_path: Path) -> None:
    """The reaper and the ladders never wait behind matches; a plain `celery worker`
    consumes every queue, matches sent again included."""
    routes = read_settings(clean_env(tmp_path), "settings.CELERY_TASK_ROUTES")
    assert {task for task, route in routes.items() if route["queue"] == "periodic"} == {
        "arena.ladders_schedule", "arena.matches_reap_stale", "arena.bot_builds_resend_lost"
    }  # fmt: skip
    queues = read_settings(clean_env(tmp_path), "[q.name for q in settings.CELERY_TASK_QUEUES]")
    assert queues == [  # highest lane first: a worker without -Q consumes them in this order
        "matches.interactive", "matches.workshop", "celery", "matches.retry",
        "matches.background", "periodic",
    ]


def test_celery_eager_is_an_opt_in(tmp_path: Path) -> None:
    conf = read_settings(clean_env(tmp_path, CELERY_TASK_ALWAYS_EAGER="1"), CELERY_CONF, setup=True)
    assert conf["task_always_eager"] is True and conf["task_eager_propagates"] is True


def test_celery_real_broker(tmp_path: Path) -> None:
    broker = "redis://127.0.0.1:6379/0"
    conf = read_settings(
        clean_env(tmp_path, CELERY_BROKER_URL=broker, CELERY_TASK_TIME_LIMIT="600"),
        CELERY_CONF,
        setup=True,
    )
    assert conf["task_always_eager"] is False
    assert conf["broker_url"] == broker and conf["result_backend"] == broker
    assert conf["task_time_limit"] == 600 and conf["task_soft_time_limit"] == 500
    assert_safe_celery(conf)


def assert_safe_celery(conf: dict) -> None:
    """No pickle anywhere; a task lost with its worker is redelivered, one task per slot."""
    assert conf["accept_content"] == ["json"]
    assert conf["task_serializer"] == conf["result_serializer"] == "json"
    assert conf["task_acks_late"] is True and conf["task_reject_on_worker_lost"] is True
    assert conf["worker_prefetch_multiplier"] == 1
    assert conf["task_time_limit"] > conf["task_soft_time_limit"] > 0
    assert conf["broker_connection_retry_on_startup"] is True


def test_sandbox_limits_from_env(tmp_path: Path) -> None:
    defaults = {
        "BOT_DECISION_TIME_LIMIT": 1.0,
        "BOT_TIME_BANK": 30.0,
        "BOT_MEMORY_LIMIT_MB": 512,
        "BOT_UPLOAD_MAX_BYTES": 32 * 1024 * 1024,
    }
    expression = "{" + ", ".join(f"{n!r}: settings.{n}" for n in defaults) + "}"
    assert read_settings(clean_env(tmp_path), expression) == defaults
    overridden = read_settings(clean_env(tmp_path, BOT_MEMORY_LIMIT_MB="256"), expression)
    assert overridden["BOT_MEMORY_LIMIT_MB"] == 256
