"""The pages fit, in Debian's Chromium at 1280 px and at a 390 px phone: on a 4-seat league
with ratings, a 7-entrant Swiss with its head-to-head table, a bot's page, a match's page and
a bracket, no element is wider than the box that holds it (its content cut off) and none
reaches past its parent's right edge or the window's, except inside a box that scrolls
sideways on purpose (``.scroll``, which says so). The 4-seat ladder fits at 1280 px without
scrolling at all. On the same pages a bot has one colour: its dot in the tables and its line
in the rating chart agree, and the bots of a page are told apart.

One live server, one browser and one set of leagues serve every case (module-scoped fixtures):
the leagues are played once, for real, by the built-in bots.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command
from django.test.utils import override_settings

from tests.accounts import PASSWORD

from .browser import ARGS, DESKTOP, PHONE, SCREENSHOTS
from .conftest import builtin_copy

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Names as long as authors give them, so the tables meet real widths.
FOUR_SEAT_BOTS = ("meadow-greedy", "careful-cartographer", "random-walker", "rat-catcher",
                  "oshax-hunter")  # fmt: skip
SWISS_BOTS = ("alpha-cat", "bravo-boat", "charlie-chart", "delta-dinghy", "echo-explorer",
              "foxtrot-fisher", "golf-gardener")  # fmt: skip

# Elements whose content is wider than their box, or that reach past their parent's right edge
# or the window's, outside a box that scrolls sideways on purpose. Text cut with an ellipsis on
# purpose (text-overflow) and boxes hidden from view are not counted.
OVERFLOW_SCRIPT = """() => {
  const out = [];
  const width = document.documentElement.clientWidth;
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
    + (el.classList.length ? '.' + [...el.classList].join('.') : '');
  const scrolls = (el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
  const inScroller = (el) => {
    for (let p = el.parentElement; p; p = p.parentElement) if (scrolls(p)) return true;
    return false;
  };
  for (const el of document.querySelectorAll('body *')) {
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden' || el.closest('svg, script'))
      continue;
    if (el.getClientRects().length === 0 || el.closest('.visually-hidden, .sr')) continue;
    if (inScroller(el)) continue;
    const rect = el.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) continue;
    const cuts = !scrolls(el) && style.textOverflow !== 'ellipsis'
      && el.scrollWidth - el.clientWidth > 1 && el.clientWidth > 0
      && !['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON'].includes(el.tagName);
    const parent = el.parentElement;
    // a bar fixed to the window (the viewer's controls on a phone) is measured against it
    const parentRight = parent && parent !== document.body && style.position !== 'fixed'
      ? parent.getBoundingClientRect().right : width;
    const past = rect.right - Math.min(parentRight, width);
    if (cuts) out.push(`${name(el)} cuts its content: ${el.scrollWidth} > ${el.clientWidth}`);
    else if (past > 1) out.push(`${name(el)} reaches ${past.toFixed(0)} px past its box`);
  }
  return out.slice(0, 12);
}"""

# Every bot's dot in the tables and line in the chart, by the bot's page link.
COLOURS_SCRIPT = """() => {
  const dots = {};
  for (const a of document.querySelectorAll('a.bot[href*="/bots/"]')) {
    const dot = a.querySelector('.dot');
    if (!dot) continue;
    const id = a.getAttribute('href').match(/bots\\/(\\d+)/)[1];
    (dots[id] = dots[id] || new Set()).add(getComputedStyle(dot).backgroundColor);
  }
  const lines = {};
  for (const line of document.querySelectorAll('svg polyline[data-bot]'))
    (lines[line.dataset.bot] = lines[line.dataset.bot] || new Set())
      .add(getComputedStyle(line).stroke);
  const plain = (m) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, [...v]]));
  return {dots: plain(dots), lines: plain(lines)};
}"""


def _play_leagues() -> dict[str, str]:
    """The leagues of the pages under test, played for real; the paths of their pages."""
    from django.contrib.auth import get_user_model

    from tournament.models import League, Match
    from tournament.services import brackets as bracket_services
    from tournament.services import leagues as league_services
    from tournament.services.accounts import organiser_grant
    from tournament.services.bots import builtin_bots_register

    users = get_user_model().objects
    olga = users.create_user("olga", "olga@example.com", PASSWORD)
    organiser_grant(user=olga)
    ann = users.create_user("ann", "ann@example.com", PASSWORD)
    builtin_bots_register()

    def league(name: str, bots: tuple[str, ...], **fields: Any) -> League:
        make = (bracket_services.bracket_league_create if "best_of" in fields
                else league_services.league_create)  # fmt: skip
        made = make(organiser=olga, name=name, **fields)
        for i, bot in enumerate(bots):
            version = builtin_copy(ann, bot, "greedy" if i % 2 == 0 else "random")
            league_services.league_entry_add(league=made, user=ann, bot_id=version.bot_id)
        league_services.league_start(league=made, user=olga)  # eager tasks: played here
        return made

    four = league("Four-seat cup", FOUR_SEAT_BOTS, mode="standard", seats=4, format="round_robin")
    swiss = league("Seven-bot Swiss", SWISS_BOTS, mode="duel", seats=2, format="swiss",
                   rounds=3)  # fmt: skip
    bracket = league("Duel bracket", tuple(f"{b}-b" for b in SWISS_BOTS[:4]), mode="duel",
                     seats=2, format="single_elim", best_of=1)  # fmt: skip
    match = Match.objects.filter(league=four, status=Match.Status.FINISHED).first()
    bot = four.entries.order_by("pk").first().bot_version.bot_id
    assert match is not None
    return {
        "league": f"/leagues/{four.pk}/",
        "swiss": f"/leagues/{swiss.pk}/",
        "bot": f"/bots/{bot}/",
        "match": f"/matches/{match.pk}/",
        "bracket": f"/leagues/{bracket.pk}/bracket/",
    }


@pytest.fixture(autouse=True)
def _site_settings() -> None:
    """The module's own storages (`site`), not a folder per case (tests/website/conftest.py)."""


@pytest.fixture(scope="module")
def site(
    django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, dict[str, str]]]:
    """A live server with the leagues played, for the whole module; the database is emptied
    after it, as a transactional test leaves it."""
    from pytest_django.live_server_helper import LiveServer

    tmp = tmp_path_factory.mktemp("layout")
    from django.conf import settings

    storages = override_settings(
        STORAGES={
            **settings.STORAGES,
            "replays": {"BACKEND": "django.core.files.storage.FileSystemStorage",
                        "OPTIONS": {"location": str(tmp / "replays")}},
            "bots": {"BACKEND": "django.core.files.storage.FileSystemStorage",
                     "OPTIONS": {"location": str(tmp / "bots")}},
        },
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
    )  # fmt: skip
    with django_db_blocker.unblock(), storages:
        from django.core.cache import cache

        cache.clear()
        try:
            paths = _play_leagues()
            server = LiveServer("127.0.0.1")
            server._live_server_modified_settings.enable()
            try:
                yield server.url, paths
            finally:
                server._live_server_modified_settings.disable()
                server.stop()
        finally:
            call_command("flush", interactive=False, verbosity=0)
            cache.clear()


@pytest.fixture(scope="module")
def browser(chromium_executable_path: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=chromium_executable_path, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def chromium_executable_path() -> str:
    from tests.conftest import chromium_path

    path = chromium_path()
    if path is None:
        pytest.skip("Chromium is not installed")
    return path


def _open(browser: Any, url: str, viewport: dict[str, int]) -> Any:
    context = browser.new_context(viewport=viewport)
    context.route("**/*", lambda route: route.continue_() if "127.0.0.1" in route.request.url
                  else route.abort())  # fmt: skip
    page = context.new_page()
    page.goto(url)
    page.wait_for_load_state("load")
    page.emulate_media(reduced_motion="reduce")
    return page


# The one case marked for the database, first: the marker tells pytest-django that the session
# needs its test database, and the cases after it (under Playwright's event loop, where Django
# refuses database calls) only read the pages the live server draws from it.
@pytest.mark.django_db
def test_every_page_is_served(site: tuple[str, dict[str, str]]) -> None:
    import urllib.request

    base, paths = site
    for path in paths.values():
        with urllib.request.urlopen(base + path, timeout=60) as response:
            assert response.status == 200, path


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280px", "390px"])
@pytest.mark.parametrize("which", ["league", "swiss", "bot", "match", "bracket"])
def test_nothing_is_wider_than_its_box(site: tuple[str, dict[str, str]], browser: Any,
                                       which: str, viewport: dict[str, int]) -> None:  # fmt: skip
    base, paths = site
    page = _open(browser, base + paths[which], viewport)
    try:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"layout-{which}-{viewport['width']}.png"),
                        full_page=True)  # fmt: skip
        assert page.evaluate(OVERFLOW_SCRIPT) == []
        wide = page.evaluate("""() => [...document.querySelectorAll('.scroll')]
            .filter(el => el.scrollWidth - el.clientWidth > 1)
            .map(el => el.querySelector('table')?.className || el.className)""")
        if viewport == DESKTOP and which == "league":
            assert wide == []  # the 4-seat ladder and its head to head fit whole
        # a table that must scroll sideways says so where it is cut
        hinted = page.evaluate("""() => [...document.querySelectorAll('.scroll')]
            .filter(el => el.scrollWidth - el.clientWidth > 1)
            .every(el => el.classList.contains('scrolls')
                   && getComputedStyle(el, '::after').content.includes('scroll'))""")
        assert hinted, wide
    finally:
        page.context.close()


@pytest.mark.parametrize("which", ["league", "swiss", "bot"])
def test_a_bot_has_one_colour_on_a_page(site: tuple[str, dict[str, str]], browser: Any,
                                        which: str) -> None:  # fmt: skip
    base, paths = site
    page = _open(browser, base + paths[which], DESKTOP)
    try:
        seen = page.evaluate(COLOURS_SCRIPT)
    finally:
        page.context.close()
    dots, lines = seen["dots"], seen["lines"]
    assert dots and all(len(colours) == 1 for colours in dots.values()), dots
    if which != "bot":  # a bot's page draws its versions' lines, not other bots'
        assert lines and set(lines) <= set(dots), (lines, dots)
        for bot, colours in lines.items():
            assert colours == dots[bot], (bot, colours, dots[bot])
    colours = [_rgb(c[0]) for c in dots.values()]
    for a, b in itertools.combinations(colours, 2):
        assert _delta_e(a, b) >= 20, (a, b)  # told apart at a glance


def _rgb(css: str) -> tuple[int, int, int]:
    r, g, b = (int(float(v)) for v in css[css.index("(") + 1:css.index(")")].split(",")[:3])
    return r, g, b


def _delta_e(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    from website.colours import lab

    return sum((p - q) ** 2 for p, q in zip(lab(a), lab(b), strict=True)) ** 0.5
