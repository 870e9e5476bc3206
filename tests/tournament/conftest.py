"""Fixtures of the tournament tests: API clients, storages (and the workers' bundle cache) under
tmp_path and a scripted runner standing in for workers/runner.py (tests of the real runner live
with it). Users and roles (`make_user`, `author`, `other_author`, `organiser`) come from
tests/accounts.py."""

from __future__ import annotations

import hashlib
import sys
import types
from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import storages
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from competition.standing import fault_adjusted_result
from tests.accounts import use_tmp_storages
from tournament.models import Bot, BotVersion
from tournament.tasks import match_play_task


@pytest.fixture(autouse=True)
def _tmp_storages(settings: Any, tmp_path: Any) -> None:
    use_tmp_storages(settings, tmp_path)
    settings.BUNDLE_CACHE_DIR = tmp_path / "bundle-cache"
    settings.ELO_K = 32.0


@pytest.fixture(autouse=True)
def _no_throttle_cache() -> None:
    from django.core.cache import cache

    cache.clear()


class ScriptedRunner:
    """Plays no game: seat scores come from `scores` (seat -> score, default 50 - 10 * seat),
    a bundle whose name contains "crash" faults, and the replay is a few fixed bytes."""

    def __init__(self) -> None:
        self.scores: Callable[[dict[str, Any]], list[float]] | None = None
        self.specs: list[dict[str, Any]] = []
        self.raise_error: Exception | None = None
        # which seats crash at their first decision (default: a bot named "...crash...")
        self.faulty: Callable[[dict[str, Any]], bool] = lambda seat: "crash" in (
            seat["name"] or ""
        )

    def run_match(self, spec: dict[str, Any], **hooks: Any) -> dict[str, Any]:
        """`hooks` (the live publisher's `on_step`, ...) see no steps: nothing is played."""
        self.specs.append(spec)
        if self.raise_error is not None:
            raise self.raise_error
        n = len(spec["seats"])
        scores = self.scores(spec) if self.scores else [50.0 - 10 * i for i in range(n)]
        ranks = [1 + sum(1 for other in scores if other > s) for s in scores]
        seats, faults = [], []
        for i, seat in enumerate(spec["seats"]):
            crash = self.faulty(seat)
            if crash:  # at its first decision, as examples of a bot that exits at once
                faults.append({"seat": i, "step": i, "kind": "crash"})
            seats.append({
                "seat": i, "fault": "crash" if crash else "",
                "fault_detail": "exited with status 1" if crash else "",
                "time_used": 0.01 * (i + 1), "log": "Traceback: boom" if crash else "",
            })  # fmt: skip
        winners = [i for i, r in enumerate(ranks) if r == 1]
        result = {"mode": spec["mode"], "seats": n, "seed": spec["seed"], "scores": scores,
                  "ranks": ranks, "winners": winners}  # fmt: skip
        if spec["mode"] == "solo":
            result["margin"] = scores[0] - 40.0
            result["won"] = result["margin"] > 0
        result = fault_adjusted_result(result, faults)  # the runner's own rule
        for row, rank in zip(seats, result["ranks"], strict=True):
            row["rank"], row["score"] = rank, result["scores"][row["seat"]]
        return {"seats": seats, "result": result, "replay": b"replay-of-%d" % spec["match_id"]}


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch) -> ScriptedRunner:
    scripted = ScriptedRunner()
    module = types.ModuleType("workers.runner")
    module.run_match = scripted.run_match  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "workers.runner", module)
    return scripted


def client_for(user: Any | None) -> APIClient:
    client = APIClient()
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def ready_version(db: None) -> Callable[..., BotVersion]:
    """A ready uploaded-looking version of a new bot owned by `owner`."""

    def _make(owner: Any, name: str) -> BotVersion:
        bot = Bot.objects.create(name=name, owner=owner)
        data = f"# the bot {name}\n".encode()
        stored = storages["bots"].save(f"{name}.py", ContentFile(data))
        return BotVersion.objects.create(
            bot=bot, number=1, bundle_name=stored, bundle_kind="py",
            sha256=hashlib.sha256(data).hexdigest(), size=len(data),
            status=BotVersion.Status.READY,
        )  # fmt: skip

    return _make


@pytest.fixture
def sent(monkeypatch) -> list[tuple[tuple, str | None]]:
    """The play tasks sent, with their queue (nothing is played)."""
    out: list[tuple[tuple, str | None]] = []
    monkeypatch.setattr(
        match_play_task, "apply_async", lambda args, queue=None, **kw: out.append((args, queue))
    )
    return out
