"""A test game's page in Chromium, as its author sees it: the label, the replay, and beside it
each seat's fault, stderr and decision times; axe-core finds no serious violation, the page
fits a phone, and the stderr can be reached with the keyboard."""

from __future__ import annotations

import pytest

from tournament.models import Match, MatchSeat
from tournament.services import test_games

from .browser import Audit, audited_page
from .conftest import builtin_copy
from .test_journeys_browser import _login

pytestmark = [pytest.mark.browser, pytest.mark.slow]

STDERR = "thinking about the blue cat\nchose the lesson"


@pytest.mark.django_db(transaction=True)
def test_the_author_reads_a_test_game_beside_its_replay(
    live_server, chromium_executable, axe, make_user
) -> None:
    from tournament.services.bots import builtin_bots_register

    author = make_user("sam")
    builtin_bots_register()
    mine = builtin_copy(author, "tinker", "random")
    # The embedded setup plays it when the request's transaction commits.
    match = test_games.test_game_create(user=author, bot_version_id=mine.pk,
                                        opponents=["greedy"], mode="duel", seed=5)  # fmt: skip
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.replay_name
    MatchSeat.objects.filter(match=match, seat=0).update(log=STDERR)
    base = live_server.url
    audit = Audit(axe)
    with audited_page(chromium_executable, audit) as page:
        _login(page, base, "sam", f"/matches/{match.pk}/")
        assert "Test game (private, unrated)" in page.locator("#match-title").inner_text()
        panel = page.locator("#test-game")
        assert "Decision times:" in panel.locator("[data-test-times='0']").inner_text()
        assert panel.locator("[data-test-fault='0']").inner_text() == "Fault: none"
        stderr = panel.locator("[data-test-stderr='0']")
        assert stderr.inner_text() == STDERR
        stderr.focus()
        assert page.evaluate("document.activeElement.dataset.testStderr") == "0"
        audit.check(page, "test-game")
    assert audit.violations == {}, audit.violations
    assert audit.blocked == [] and audit.errors == [], (audit.blocked, audit.errors)
