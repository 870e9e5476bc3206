"""Colours of bots: on one page a bot has one colour, its dot in every table, its line in every
chart and, on a match's page, its seat on the board; and the bots of one page are told apart at
a glance.

A colour derived from the bot's id alone landed two bots of one league on neighbouring hues
(two greens in one Swiss), and a chart that chose its own colours disagreed with the dots
beside the names. So colours are handed out per page (`PageColours`): the view primes the
page's bots in a stable order (a league's entrants by entry, a match's bots by seat), and any
other bot met while the page renders takes the next free colour. The palette's first four are
the seats' colours of the board (``--seat-0`` … ``--seat-3`` in site.css); all are readable on
white (4.5:1) and at least ΔE 25 (CIE76) apart. Past the palette, each new colour is the
readable one farthest from every colour already given.
"""

from __future__ import annotations

import colorsys
from collections.abc import Hashable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

# Seats 0-3 first (the board's colours, site.css), then hand-picked hues far from them
# (tests/website/test_colours.py measures both rules).
PALETTE = (
    "#1f5f99",  # blue (seat 0)
    "#c0392b",  # red (seat 1)
    "#1e8449",  # green (seat 2)
    "#a8650a",  # ochre (seat 3)
    "#7b3fa0",  # purple
    "#00727d",  # teal
    "#b0186e",  # magenta
    "#3d4852",  # slate
    "#5d6b00",  # olive
)
SEATS = 4  # the board colours its first four seats with the palette's first four
MIN_CONTRAST = 4.5  # on white, for text (WCAG AA)


def _linear(channel: float) -> float:
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def _rgb(colour: str | tuple[int, int, int]) -> tuple[int, int, int]:
    if isinstance(colour, str):
        return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)
    return colour


def lab(colour: str | tuple[int, int, int]) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of ``#rrggbb`` or an (r, g, b) triple: distances in it match how far
    apart two colours look (CIE76 ΔE: about 2 is just noticed, 25 is told apart at a glance)."""
    r, g, b = (_linear(c / 255) for c in _rgb(colour))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a: str, b: str) -> float:
    return sum((p - q) ** 2 for p, q in zip(lab(a), lab(b), strict=True)) ** 0.5


def contrast_on_white(colour: str) -> float:
    r, g, b = (_linear(c / 255) for c in _rgb(colour))
    return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05)


def _candidates() -> tuple[str, ...]:
    """Readable colours to pick from past the palette: every 10° of hue at a few lightnesses."""
    out = []
    for hue in range(0, 360, 10):
        for lightness in (0.24, 0.30, 0.36):
            r, g, b = colorsys.hls_to_rgb(hue / 360, lightness, 0.7)
            colour = f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"
            if contrast_on_white(colour) >= MIN_CONTRAST:
                out.append(colour)
    return tuple(out)


CANDIDATES = _candidates()
_CANDIDATE_LAB = {c: lab(c) for c in CANDIDATES}


class PageColours:
    """The colours of one page, by key (a bot's id, or a key of the page's own such as a
    version's line): the palette in the order keys are first met, then the farthest readable
    colour from all given."""

    def __init__(self) -> None:
        self._given: dict[Hashable, str] = {}
        self._free = list(PALETTE)
        # each candidate's distance to the nearest colour given so far
        self._nearest = dict.fromkeys(CANDIDATES, float("inf"))

    def __call__(self, key: Hashable) -> str:
        colour = self._given.get(key)
        if colour is None:
            colour = self._free.pop(0) if self._free else self._farthest()
            self._give(key, colour)
        return colour

    def prime(self, keys: Iterable[Hashable]) -> PageColours:
        """Give the page's main bots their colours first, in a stable order, so the same page
        (and a fragment of it fetched later) colours them alike."""
        for key in keys:
            self(key)
        return self

    def prime_seats(self, keys_by_seat: Iterable[Hashable]) -> PageColours:
        """A match's bots in seat order: each takes its seat's colour, as the board draws it
        (a bot in two seats keeps its first)."""
        for seat, key in enumerate(keys_by_seat):
            colour = PALETTE[seat] if seat < SEATS else None
            if key in self._given:
                continue
            if colour in self._free:
                self._free.remove(colour)
                self._give(key, colour)
            else:
                self(key)
        return self

    def _give(self, key: Hashable, colour: str) -> None:
        self._given[key] = colour
        mine = lab(colour)
        for candidate, nearest in self._nearest.items():
            far = sum((p - q) ** 2 for p, q in zip(mine, _CANDIDATE_LAB[candidate], strict=True))
            if far**0.5 < nearest:
                self._nearest[candidate] = far**0.5

    def _farthest(self) -> str:
        return max(CANDIDATES, key=self._nearest.__getitem__)


_page: ContextVar[PageColours | None] = ContextVar("page_colours", default=None)


def page_colours() -> PageColours:
    """The colours of the page being drawn (a fresh set per request, `PageColoursMiddleware`);
    outside a request, one set for the calling context."""
    colours = _page.get()
    if colours is None:
        colours = PageColours()
        _page.set(colours)
    return colours


@contextmanager
def new_page() -> Iterator[PageColours]:
    """A fresh set of colours for one page, in force inside the block."""
    token = _page.set(PageColours())
    try:
        yield _page.get()  # type: ignore[misc]
    finally:
        _page.reset(token)


def bot_colour(bot_id: int) -> str:
    """The bot's colour on the page being drawn."""
    return page_colours()(bot_id)


class PageColoursMiddleware:
    """Gives every request its own `PageColours`: a bot's colour is chosen once per page."""

    def __init__(self, get_response: object) -> None:
        self.get_response = get_response

    def __call__(self, request: object) -> object:
        with new_page():
            return self.get_response(request)  # type: ignore[operator]
