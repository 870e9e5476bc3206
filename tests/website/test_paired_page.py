"""Paired comparisons on the site: the bot page's panel (finished with the SPRT's verdict and
Elo interval, running with its progress, failed), the comparison's own page with the LLR's
course as a server-drawn SVG chart, and both in Chromium (axe-core, phone width, screenshots)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.screenshots import shoot
from tournament.models import PairedComparison
from tournament.services import bots as bot_services
from tournament.services import paired as paired_services

from .browser import ARGS, DESKTOP, SCREENSHOTS, Audit


def _comparisons(organiser: Any, django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    builtins = bot_services.builtin_bots_register()
    random_v, greedy_v = builtins["random"], builtins["greedy"]
    with django_capture_on_commit_callbacks(execute=True):  # played by the engine, in-process
        finished = paired_services.paired_create(
            user=organiser, version_a_id=random_v.pk, version_b_id=greedy_v.pk, mode="duel",
            seats=2, seeds=30, elo1=200,
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
    finished = made["finished"]
    finished.refresh_from_db()
    verdict = "H1 accepted: B is stronger than A (Elo above +0)"
    assert finished.result["verdict"] == verdict
    page = client.get(f"/bots/{made['bot'].pk}/")
    assert [c.pk for c in page.context["paired"]] == [made["failed"].pk, made["finished"].pk]
    html = page.content.decode()
    assert "Paired comparisons" in html and f"<b>{verdict}</b>" in html
    assert f'href="/paired/{finished.pk}/"' in html
    assert "LLR 3." in html and "(-2.94 .. 2.94)" in html
    assert "no seed has all its games played" in html
    random_page = client.get(f"/bots/{made['running'].version_a.bot_id}/").content.decode()
    assert "0 / 12 games" in random_page  # the running one (its first window of 3 seeds)


@pytest.mark.django_db
def test_the_comparison_page_draws_the_llr_course_with_its_bounds(
    client, organiser, django_capture_on_commit_callbacks
):
    made = _comparisons(organiser, django_capture_on_commit_callbacks)
    finished = made["finished"]
    finished.refresh_from_db()
    result = finished.result
    page = client.get(f"/paired/{finished.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "<b>H1 accepted: B is stronger than A (Elo above +0)</b>" in html
    assert f"after {result['games']} games ({result['seeds']} seeds)" in html
    assert "(90% interval +" in html and " .. +∞)" in html  # greedy won every pair
    chart = page.context["chart"]
    assert chart is not None and [s.label for s in chart.series] == [
        "H1 accepted at LLR +2.94", "H0 accepted at LLR -2.94", "LLR"]
    llr_points = chart.series[2].points.split()
    assert len(llr_points) == result["seeds"] + 1  # the start, then every seed
    # The LLR ends on or above the H1 line (smaller y is higher on the page).
    h1_y = float(chart.series[0].points.split()[0].split(",")[1])
    assert float(llr_points[-1].split(",")[1]) <= h1_y
    assert "<svg" in html and 'stroke-dasharray="6 4"' in html and "Games played" in html
    assert "Pentanomial (pairs by points 0, ½, 1, 1½, 2)" in html
    assert f"0 · 0 · 0 · 0 · {result['seeds']}" in html
    running = client.get(f"/paired/{made['running'].pk}/").content.decode()
    assert "No seed has all its games played yet" in running
    failed = client.get(f"/paired/{made['failed'].pk}/").content.decode()
    assert "no seed has all its games played" in failed
    assert client.get("/paired/999999/").status_code == 404



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
        assert page.locator("text=H1 accepted: B is stronger than A").count() == 1
        audit.check(page, "bot-paired")
        page.locator("text=H1 accepted: B is stronger than A").click()
        page.wait_for_url(f"**/paired/{made['finished'].pk}/")
        assert page.locator("figure.chart svg polyline").count() == 3
        assert page.locator("#course-title").is_visible()
        audit.check(page, "paired-llr-chart")
        shoot(page, SCREENSHOTS / "paired-desktop.png", full_page=True)
        context.close()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        phone = browser.new_context(viewport={"width": 360, "height": 740})
        audit.guard(phone)
        small = phone.new_page()
        audit.watch(small)
        small.goto(f"{live_server.url}/paired/{made['finished'].pk}/")
        assert small.locator("figure.chart svg").is_visible()
        # the page itself never scrolls sideways at phone width (the chart scrolls in its box)
        assert small.evaluate("document.documentElement.scrollWidth") <= 360
        small.keyboard.press("Tab")
        audit.check(small, "paired-phone")
        shoot(small, SCREENSHOTS / "paired-phone.png", full_page=True)
        phone.close()
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
    data = {"version_a": v1.pk, "version_b": v2.pk, "mode": "duel", "seats": 2, "seeds": 3,
            "elo0": -5, "elo1": 10, "alpha": 0.05, "beta": 0.1}  # fmt: skip
    response = client.post("/paired/new/", data)
    comparison = PairedComparison.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/paired/{comparison.pk}/"
    assert (comparison.version_a, comparison.version_b, comparison.seeds) == (v1, v2, 3)
    assert (comparison.elo0, comparison.elo1, comparison.alpha, comparison.beta) == (
        -5, 10, 0.05, 0.1)
    assert comparison.games.count() == 12
    # Bounds the wrong way round: one plain message, naming the fields as the form does.
    wrong = client.post("/paired/new/", {**data, "elo0": 10, "elo1": 2})
    assert wrong.status_code == 200
    assert wrong.context["form"].errors["elo1"] == ["H1: Elo (2) must be above H0: Elo (10)."]
    assert PairedComparison.objects.count() == 1
    # The service's rules come back on the form: too many games, not the owner. (The Duel's
    # seats are its own: a stale 3 is taken as 2, never refused.)
    bad = client.post("/paired/new/", {**data, "mode": "standard", "seats": 4, "seeds": 1000})
    assert bad.status_code == 200 and "seeds" in bad.context["form"].errors
    client.force_login(stranger)
    refused = client.post("/paired/new/", data)
    assert "Only the owner of bot A or B" in " ".join(refused.context["form"].non_field_errors())
    assert PairedComparison.objects.count() == 1
    client.logout()
    assert client.get("/paired/new/").status_code == 302  # to the log-in page
