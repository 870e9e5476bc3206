"""The pages look finished, in Debian's Chromium at 1280 px and at a 390 px phone.

* Nothing is wider than its box: on a 4-seat league with ratings, a 7-entrant Swiss with its
  head-to-head table, a bot's page, a match's page and a bracket, no element's content is
  cut off by its box and none reaches past its parent's right edge or the window's, except
  inside a box that scrolls sideways on purpose (``.scroll``), which then says so. The 4-seat
  ladder fits at 1280 px without scrolling at all.
* A bot has one colour on a page: its dot in the tables and its line in the rating chart
  agree, and the bots of a page are told apart.
* The viewer: no error in the console, even for a seat the match lacks; the favicon is the
  project's (the embed too); at 1280 x 900 "Score now" shows whole; the home page's featured
  board has its natural size; without JavaScript a summary and the download; the replay-file
  page prompts first and says why a file is refused. Disabled controls look disabled.

One live server, one browser and one set of leagues serve every case (module-scoped fixtures):
the leagues are played once, for real, by the built-in bots.
"""

from __future__ import annotations

import itertools
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command
from django.test.utils import override_settings

from tests.accounts import PASSWORD
from tests.screenshots import shoot

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
    # One match shown as still playing (its replay kept), for the home page's featured board.
    featured = Match.objects.filter(league=four).exclude(pk=match.pk).first()
    Match.objects.filter(pk=featured.pk).update(status=Match.Status.RUNNING)
    return {
        "home": "/",
        "viewer": f"/replays/{match.pk}/",
        "embed": f"/embed/matches/{match.pk}/",
        "file": "/replays/file/",
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


def _open(browser: Any, url: str, viewport: dict[str, int] = DESKTOP, **options: Any) -> Any:
    """A page of its own context at ``url``, loaded; ``page.problems`` collects what its
    console reports as errors, its script errors and every answer of 400 or over."""
    context = browser.new_context(viewport=viewport, **options)
    context.route("**/*", lambda route: route.continue_() if "127.0.0.1" in route.request.url
                  else route.abort())  # fmt: skip
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console: {m.text}")
            if m.type == "error" else None)  # fmt: skip
    page.on("pageerror", lambda exc: problems.append(f"script: {exc}"))
    page.on("response", lambda r: problems.append(f"{r.status} {r.url}")
            if r.status >= 400 else None)  # fmt: skip
    page.problems = problems
    page.goto(url)
    page.wait_for_load_state("load")
    page.emulate_media(reduced_motion="reduce")
    return page


def _viewer_ready(page: Any) -> None:
    page.wait_for_function("window.viewer && document.querySelector('#step-label')"
                           ".textContent.startsWith('Step')", timeout=60_000)  # fmt: skip


# The one case marked for the database, first: the marker tells pytest-django that the session
# needs its test database, and the cases after it (under Playwright's event loop, where Django
# refuses database calls) only read the pages the live server draws from it.
@pytest.mark.django_db
def test_every_page_is_served(site: tuple[str, dict[str, str]]) -> None:
    base, paths = site
    for path in paths.values():
        with urllib.request.urlopen(base + path, timeout=60) as response:
            assert response.status == 200, path


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280px", "390px"])
@pytest.mark.parametrize("which", ["league", "swiss", "bot", "match", "bracket"])
def test_nothing_is_wider_than_its_box(site: tuple[str, dict[str, str]], browser: Any, axe: Any,
                                       which: str, viewport: dict[str, int]) -> None:  # fmt: skip
    base, paths = site
    page = _open(browser, base + paths[which], viewport)
    # two frames: site.js's ResizeObserver has marked the boxes that scroll
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.add_script_tag(path=str(axe))
    violations = page.evaluate("""async () => (await axe.run(document,
        {resultTypes: ['violations']})).violations
        .filter(v => ['serious', 'critical'].includes(v.impact))
        .map(v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', '))""")
    assert violations == []
    try:
        shoot(page, SCREENSHOTS / f"layout-{which}-{viewport['width']}.png", full_page=True)
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


@pytest.mark.parametrize("which", ["viewer", "match", "embed"])
def test_the_viewer_logs_no_error_even_for_a_seat_the_match_lacks(
    site: tuple[str, dict[str, str]], browser: Any, which: str
) -> None:
    """Asked for seat 7 of a 4-seat match, the viewer opens the spectator's view and says why,
    without asking the server for a view it would refuse; the icon is the project's, on the
    embed too, and nothing the pages ask for is missing."""
    base, paths = site
    page = _open(browser, f"{base}{paths[which]}?seat=7")
    try:
        _viewer_ready(page)
        assert page.evaluate("window.viewer.seat") == "spectator"
        assert "no seat “7”" in page.locator("#status").inner_text()
        icon = page.evaluate("document.querySelector('link[rel=icon]').href")
        assert page.request.get(icon).status == 200
        page.goto(f"{base}{paths[which]}?seat=2")
        _viewer_ready(page)
        assert page.evaluate("window.viewer.seat") == "2"
        assert page.problems == []
    finally:
        page.context.close()
    icon = urllib.request.urlopen(f"{base}/favicon.ico", timeout=30)  # noqa: S310 - our server
    assert icon.status == 200 and icon.headers["Content-Type"].startswith("image/svg+xml")


def test_the_viewer_at_1280_by_900_shows_the_whole_score(
    site: tuple[str, dict[str, str]], browser: Any
) -> None:
    """The side column scrolls with the page, never inside itself: "Score now" shows whole
    in the first screen, and says what it counts."""
    base, paths = site
    page = _open(browser, base + paths["viewer"], DESKTOP)
    try:
        _viewer_ready(page)
        shoot(page, SCREENSHOTS / "layout-viewer-1280x900.png")
        assert page.evaluate("getComputedStyle(document.querySelector('.side')).overflowY")\
            == "visible"
        box = page.locator("#scores").bounding_box()
        assert box is not None and box["y"] + box["height"] <= DESKTOP["height"]
        assert page.locator("#scores .scores-count").inner_text() == " · private lessons counted"
        assert page.problems == []
    finally:
        page.context.close()


def test_the_featured_board_has_its_natural_size(
    site: tuple[str, dict[str, str]], browser: Any
) -> None:
    """The home page's featured match spans the page, its frame as tall as the viewer in it
    (nothing scrolls inside), and the viewer's controls sit above the table, not over it."""
    base, paths = site
    page = _open(browser, base + paths["home"], DESKTOP)
    try:
        frame_el = page.locator("iframe.featured-viewer")
        frame_el.scroll_into_view_if_needed()
        frame = frame_el.element_handle().content_frame()
        frame.wait_for_function("window.viewer && document.querySelector('#step-label')"
                                ".textContent.startsWith('Step')", timeout=60_000)  # fmt: skip
        page.wait_for_function("""() => {
            const f = document.querySelector('iframe.featured-viewer');
            return Math.abs(f.clientHeight - f.contentDocument.documentElement.scrollHeight) <= 2;
        }""")
        assert frame_el.bounding_box()["width"] >= 1100
        # "Watch now" names the bots in their seats' colours, the colours of the board below
        dots = page.evaluate("""() => [...document.querySelectorAll('.featured p a.bot .dot')]
            .map(d => getComputedStyle(d).backgroundColor)""")
        seats = frame.evaluate("""() => [0, 1, 2, 3].map(s => {
            const probe = document.createElement('i');
            probe.style.color = `var(--seat-${s})`; document.body.append(probe);
            const c = getComputedStyle(probe).color; probe.remove(); return c; })""")
        assert dots == seats[: len(dots)] and len(dots) == 4
        controls = frame.locator("#viewer .controls").bounding_box()
        table = frame.locator("#table").bounding_box()
        assert controls["y"] + controls["height"] <= table["y"]
        assert page.problems == []
    finally:
        page.context.close()


def test_without_javascript_the_viewer_is_a_summary_and_a_download(
    site: tuple[str, dict[str, str]], browser: Any
) -> None:
    base, paths = site
    page = _open(browser, base + paths["match"], DESKTOP, java_script_enabled=False)
    try:
        summary = page.locator(".viewer-static")
        assert summary.is_visible()
        assert not page.locator("#viewer .controls").is_visible()
        text = summary.inner_text()
        assert "Result" in text and "Place" in text.title()
        assert len(summary.locator("tbody tr").all()) == 4
        download = summary.get_by_role("link", name="Download the replay")
        assert page.request.get(base + download.get_attribute("href")).status == 200
        assert "loading" not in page.locator("#viewer").inner_text()
    finally:
        page.context.close()
    page = _open(browser, base + paths["match"], DESKTOP)
    try:
        _viewer_ready(page)
        assert not page.locator(".viewer-static").is_visible()  # scripts run: the viewer
    finally:
        page.context.close()


def test_the_replay_file_page_prompts_and_says_why_a_file_is_refused(
    site: tuple[str, dict[str, str]], browser: Any, tmp_path: Any
) -> None:
    base, paths = site
    page = _open(browser, base + paths["file"], DESKTOP)
    try:
        assert "Choose a replay file" in page.locator("#status").inner_text()
        assert not page.locator("#viewer .controls").is_visible()
        assert "loading" not in page.locator("#viewer").inner_text()
        doc = page.get_by_role("link", name="the replay format")
        assert page.request.get(base + doc.get_attribute("href")).status == 200
        match = paths["match"].strip("/").split("/")[-1]
        good = tmp_path / "good.replay"
        good.write_bytes(page.request.get(f"{base}/api/v1/matches/{match}/replay").body())
        bad = tmp_path / "bad.replay"
        bad.write_bytes(b"not a replay at all")
        page.set_input_files("#replay-file", str(good))
        page.wait_for_selector("#viewer:not(.is-empty)", timeout=60_000)
        assert page.locator("#file-name").inner_text() == "good.replay"
        assert page.locator("#boats").is_visible()
        page.set_input_files("#replay-file", str(bad))
        page.wait_for_selector("#status.error", timeout=60_000)
        assert page.locator("#file-name").inner_text() == ""  # not the previous file's name
        assert not page.locator("#boats").is_visible()  # nor its replay
        assert "“bad.replay” is not a replay this site can open" in page.locator(
            "#status").inner_text()  # fmt: skip
    finally:
        page.context.close()


def test_disabled_controls_look_disabled(site: tuple[str, dict[str, str]], browser: Any) -> None:
    """A disabled button (the site's and the viewer's) and a link marked aria-disabled fade,
    grey and show no hand cursor, unlike their enabled twins."""
    base, paths = site
    page = _open(browser, base + paths["match"], DESKTOP)
    try:
        looks = page.evaluate("""() => {
            const main = document.querySelector('main');
            const make = (html, where) => {
                const box = document.createElement('div'); box.innerHTML = html;
                (where || main).append(box); return box.firstElementChild; };
            const bar = document.querySelector('#viewer .controls');
            const pairs = [
                [make('<button>Enter</button>'), make('<button disabled>Enter</button>')],
                [make('<a class="button" href="#">Go</a>'),
                 make('<a class="button" aria-disabled="true">Go</a>')],
                [make('<button>▶</button>', bar), make('<button disabled>▶</button>', bar)],
            ];
            return pairs.map(([on, off]) => {
                const a = getComputedStyle(on), b = getComputedStyle(off);
                return {on: [a.opacity, a.cursor], off: [b.opacity, b.cursor]};
            });
        }""")
        for pair in looks:
            assert pair["on"] == ["1", "pointer"], pair
            assert float(pair["off"][0]) <= 0.6 and pair["off"][1] == "not-allowed", pair
    finally:
        page.context.close()
