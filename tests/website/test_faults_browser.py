"""A version suspended for faulting, in Chromium: its author sees it on the dashboard and the
bot page, everyone sees the badge and the faults column on the league page, axe-core finds no
serious violation on any of them, the pages fit a phone, and the author resumes it with the
keyboard alone."""

from __future__ import annotations

import pytest

from tournament.models import BotVersion, LeagueEntry
from tournament.services import leagues as ls

from .browser import Audit, audited_page
from .conftest import builtin_copy
from .test_journeys_browser import _login

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.django_db(transaction=True)
def test_a_suspended_version_is_shown_and_resumed(
    live_server, chromium_executable, axe, make_user
) -> None:
    from django.utils import timezone

    author = make_user("sam")
    organiser = make_user("ola", organiser=True)
    shaky = builtin_copy(author, "shaky", "random")
    steady = builtin_copy(organiser, "steady", "greedy")
    league = ls.league_create(
        organiser=organiser, name="Faulty ladder", mode="duel", seats=2, format="round_robin"
    )
    for version in (shaky, steady):
        ls.league_entry_add(league=league, user=organiser, bot_version_id=version.pk)
    reason = "faulted in 5 rated matches in a row (the last: crash)"
    BotVersion.objects.filter(pk=shaky.pk).update(
        suspended_at=timezone.now(), suspension_reason=reason, fault_streak=5
    )
    LeagueEntry.objects.filter(bot_version=shaky).update(faults=5, games=6)
    base = live_server.url
    audit = Audit(axe)

    with audited_page(chromium_executable, audit) as page:
        page.goto(f"{base}/leagues/{league.pk}/")
        row = page.locator("table.ladder tbody tr", has_text="shaky")
        assert "suspended" in row.inner_text()
        assert row.locator("td").last.inner_text().strip() == "5"
        assert reason in page.locator("#main, main").first.inner_text()
        audit.check(page, "league-suspended")

        _login(page, base, "sam", "/dashboard/")
        notice = page.locator(".notice", has_text="shaky v1 is suspended")
        assert reason in notice.inner_text()
        audit.check(page, "dashboard-suspended")
        page.goto(f"{base}/bots/{shaky.bot_id}/")
        assert page.get_by_role("button", name="Resume v1").is_visible()
        audit.check(page, "bot-suspended")
        # resume with the keyboard: focus the button, press Enter
        page.get_by_role("button", name="Resume v1").focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("text=is resumed: it is scheduled again")
        assert page.get_by_role("button", name="Resume v1").count() == 0
    shaky.refresh_from_db()
    assert shaky.suspended_at is None and shaky.fault_streak == 0
    assert audit.violations == {}, audit.violations
    assert audit.blocked == [] and audit.errors == [], (audit.blocked, audit.errors)
