"""The viewer shows a fault where it happened:
in real headless Chromium, a 4-player replay whose seat 2 crashed at its 12th decision says so
at that step, in words and on the seek bar, narrates that seat's later moves as the default
policy's, and shows nothing of the bot's stderr."""

from __future__ import annotations

import pytest

from tests.replays.test_viewer_browser import ARGS, SCREENSHOT
from tests.screenshots import shoot

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SEAT, DECISION = 2, 12
STDERR = "SECRET-STDERR-b7e2 Traceback: boom"
SAY = "seat 2 (cats v3) crashed at its 12th decision; the default policy plays for it from here."


@pytest.fixture
def crashed_match(db, replay_storage):
    """A finished standard match whose seat 2 ("cats" v3) crashed at its 12th decision, stored
    as an older build stored it (its fault's stderr still in the file)."""
    from django.contrib.auth import get_user_model

    from replayfile.format import document_from_game, encode
    from replayfile.recording import header_for_bots, play_recorded
    from replays.storage import save_replay
    from tournament.models import Bot, BotVersion, Match, MatchSeat

    game, steps = play_recorded("standard", 4, 21)
    mine = [i for i, step in enumerate(steps) if step["seat"] == SEAT]
    header = header_for_bots(4)
    header["players"][SEAT].update(bot="cats", version="3")
    fault = {"seat": SEAT, "kind": "crash", "step": mine[DECISION - 1],
             "message": "exited with status 1", "seconds": 0.02, "stderr": [STDERR]}  # fmt: skip
    data = encode(document_from_game(game, steps, header, faults=[fault]))
    result = game.result()
    owner = get_user_model().objects.create_user("alice")
    version = BotVersion.objects.create(
        bot=Bot.objects.create(name="cats", owner=owner), number=3,
        builtin="random", status=BotVersion.Status.READY,
    )  # fmt: skip
    match = Match.objects.create(kind=Match.Kind.CHALLENGE, mode="standard", seed=21,
                                 status=Match.Status.FINISHED, result=result)  # fmt: skip
    name, sha, size = save_replay(match_id=match.pk, data=data)
    Match.objects.filter(pk=match.pk).update(replay_name=name, replay_sha256=sha,
                                             replay_size=size)  # fmt: skip
    for s in range(4):
        MatchSeat.objects.create(match=match, seat=s, bot_version=version,
                                 score=result["scores"][s], rank=result["ranks"][s],
                                 fault="crash" if s == SEAT else "")  # fmt: skip
    return match.pk, mine


@pytest.mark.django_db(transaction=True)
def test_the_viewer_marks_the_fault_and_narrates_the_default_policy(
    live_server, chromium_executable, crashed_match
):
    from playwright.sync_api import sync_playwright

    from tests.website.browser import axe_script

    axe = axe_script()
    assert axe is not None, "npm is needed to install axe-core"
    match_id, mine = crashed_match
    fault_frame = mine[DECISION - 1] + 1  # the frame that shows the seat's first default move
    errors: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_executable, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            for url in (f"/replays/{match_id}/", f"/matches/{match_id}/"):
                page.goto(f"{live_server.url}{url}")
                page.wait_for_function("window.viewer && window.viewer.renders > 0")
                assert STDERR.split()[0] not in page.content(), url

                # the seek bar marks the fault; its mark goes to that step
                mark = page.locator("#seek-marks .seek-fault")
                assert mark.count() == 1
                assert mark.get_attribute("aria-label") == f"Go to the fault: {SAY}"
                mark.click()
                assert page.evaluate("window.viewer.step") == fault_frame

                note = page.locator("#step-info .fault-note")
                assert note.count() == 1
                assert SAY in note.inner_text() and "exited with status 1" in note.inner_text()
                say = page.locator("#step-info p.say")
                assert say.inner_text().startswith("The default policy, playing for cats (seat 2)")
                assert page.locator("#step-info p.say .default-tag").count() == 1
                boat = page.locator(f'.boat[data-seat="{SEAT}"]')
                assert "faulted" in boat.get_attribute("class")
                assert boat.locator(".default-tag").count() == 1
                SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
                shoot(page, SCREENSHOT.with_name("viewer-fault.png"))
                # what this adds to the page passes axe-core (the fault's mark, note and tags)
                page.add_script_tag(path=str(axe))
                found = page.evaluate("""() => axe.run({include: [['#seek-marks'],
                    ['#step-info'], ['.boat.faulted figcaption']]}).then(r => r.violations
                    .filter(v => ['serious', 'critical'].includes(v.impact))
                    .map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', ')))""")
                assert found == [], found

                # its next move: still the default policy's, and no fault note any more
                page.evaluate(f"window.viewer.show({mine[DECISION] + 1})")
                assert page.locator("#step-info .fault-note").count() == 0
                assert page.locator("#step-info p.say").inner_text().startswith(
                    "The default policy, playing for cats (seat 2)")
                # the move before the fault was the bot's own
                page.evaluate(f"window.viewer.show({mine[DECISION - 2] + 1})")
                own = page.locator("#step-info p.say").inner_text()
                assert own.startswith("cats (seat 2)") and "default policy" not in own
                assert "faulted" not in boat.get_attribute("class")

                # on a phone the mark stays on the seek bar, at the fault's place along it
                page.set_viewport_size({"width": 390, "height": 844})
                bar, dot = page.locator(".seek-wrap").bounding_box(), mark.bounding_box()
                centre = dot["x"] + dot["width"] / 2
                assert bar["x"] <= centre <= bar["x"] + bar["width"]
                last = page.evaluate("window.viewer.views.length") - 1
                assert abs((centre - bar["x"]) / bar["width"] - fault_frame / last) < 0.05
                shoot(page, SCREENSHOT.with_name("viewer-fault-phone.png"))
                page.set_viewport_size({"width": 1400, "height": 1000})

                # the result names the fault the same way
                page.keyboard.press("End")
                assert SAY in page.locator("#final .faults").inner_text()
                assert STDERR.split()[0] not in page.content(), url
        finally:
            browser.close()
    assert not errors, errors
