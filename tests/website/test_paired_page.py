"""The bot page's paired comparisons panel: finished (verdict and interval), running (progress)
and failed comparisons; and the page in Chromium (axe-core, phone width, screenshots)."""

from __future__ import annotations

from typing import Any

import pytest

from tournament.models import PairedComparison
from tournament.services import bots as bot_services
from tournament.services import paired as paired_services

from .browser import ARGS, DESKTOP, Audit


def _comparisons(organiser: Any, django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    builtins = bot_services.builtin_bots_register()
    random_v, greedy_v = builtins["random"], builtins["greedy"]
    with django_capture_on_commit_callbacks(execute=True):  # played by the engine, in-process
        finished = paired_services.paired_create(
            user=organiser, version_a_id=random_v.pk, version_b_id=greedy_v.pk, mode="duel",
            seats=2, seeds=6,
        )  # fmt: skip
    running = paired_services.paired_create(
        user=organiser, version_a_id=random_v.pk, version_b_id=random_v.pk, mode="duel",
        seats=2, seeds=3,
    )  # fmt: skip
    failed = PairedComparison.objects.create(
        requested_by=organiser, version_a=greedy_v, version_b=random_v, mode="duel", seats=2,
        seeds=1, status=PairedComparison.Status.FAILED, error="no seed has all its games played",
    )  # fmt: skip
    return {"finished": finished, "running": running, "failed": failed, "bot": greedy_v.bot}


@pytest.mark.django_db
def test_bot_page_shows_paired_comparisons(client, organiser, django_capture_on_commit_callbacks):
    made = _comparisons(organiser, django_capture_on_commit_callbacks)
    made["finished"].refresh_from_db()
    assert made["finished"].result["verdict"] == "B is better"
    page = client.get(f"/bots/{made['bot'].pk}/")
    assert [c.pk for c in page.context["paired"]] == [made["failed"].pk, made["finished"].pk]
    html = page.content.decode()
    assert "Paired comparisons" in html and "<b>B is better</b>" in html
    assert "6 seeds; sign test p = 0.031" in html
    assert "no seed has all its games played" in html
    random_page = client.get(f"/bots/{made['running'].version_a.bot_id}/").content.decode()
    assert "0 / 12 games" in random_page  # the running one, on the random bot's page



@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_paired_panel_in_the_browser(
    live_server, chromium_executable, axe, organiser, django_capture_on_commit_callbacks
) -> None:
    made = _comparisons(organiser, django_capture_on_commit_callbacks)
    from playwright.sync_api import sync_playwright

    audit = Audit(axe)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_executable, args=ARGS)
        context = browser.new_context(viewport=DESKTOP)
        audit.guard(context)
        page = context.new_page()
        audit.watch(page)
        page.goto(f"{live_server.url}/bots/{made['bot'].pk}/")
        assert page.locator("#paired-title").is_visible()
        assert page.locator("text=B is better").count() == 1
        audit.check(page, "bot-paired")
        context.close()
        browser.close()
    assert audit.violations == {}, audit.violations
    assert audit.blocked == [] and audit.errors == []


@pytest.mark.django_db
def test_compare_form_starts_a_comparison_and_explains_refusals(client, make_user):
    from tournament.models import Bot, BotVersion

    owner, stranger = make_user("ann"), make_user("sid")
    bot = Bot.objects.create(name="whiskers", owner=owner)
    v1, v2 = (
        BotVersion.objects.create(bot=bot, number=n, builtin="random", status="ready")
        for n in (1, 2)
    )
    bot_services.builtin_bots_register()
    client.force_login(owner)
    page = client.get(f"/bots/{bot.pk}/").content.decode()
    assert f"/paired/new/?bot_version={v2.pk}" in page  # the owner's link, B = newest
    form = client.get(f"/paired/new/?bot_version={v2.pk}").context["form"]
    assert form.initial["version_b"] == v2.pk and form.initial["version_a"] == v1.pk
    data = {"version_a": v1.pk, "version_b": v2.pk, "mode": "duel", "seats": 2, "seeds": 3}
    response = client.post("/paired/new/", data)
    assert response.status_code == 302 and response["Location"] == f"/bots/{bot.pk}/#paired-title"
    comparison = PairedComparison.objects.get()
    assert (comparison.version_a, comparison.version_b, comparison.seeds) == (v1, v2, 3)
    assert comparison.games.count() == 12
    # The service's rules come back on the form: too many seats for the Duel, not the owner.
    bad = client.post("/paired/new/", {**data, "seats": 3})
    assert bad.status_code == 200 and "seats" in bad.context["form"].errors
    client.force_login(stranger)
    refused = client.post("/paired/new/", data)
    assert "Only the owner of bot A or B" in " ".join(refused.context["form"].non_field_errors())
    assert PairedComparison.objects.count() == 1
    client.logout()
    assert client.get("/paired/new/").status_code == 302  # to the log-in page
