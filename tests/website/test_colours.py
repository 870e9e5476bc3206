"""Bot colours (website/colours.py): readable on white, told apart, the board's seat colours
first, and one colour per bot on a page."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

from website.colours import (
    MIN_CONTRAST,
    PALETTE,
    SEATS,
    PageColours,
    contrast_on_white,
    delta_e,
    new_page,
    page_colours,
)

SITE_CSS = Path(__file__).resolve().parents[2] / "website" / "static" / "website" / "site.css"


def test_the_palette_is_readable_and_told_apart():
    assert all(contrast_on_white(c) >= MIN_CONTRAST for c in PALETTE)
    for a, b in itertools.combinations(PALETTE, 2):
        assert delta_e(a, b) >= 25, (a, b)


def test_the_first_colours_are_the_boards_seats():
    css = SITE_CSS.read_text()
    seats = [re.search(rf"--seat-{s}: (#[0-9a-f]{{6}})", css).group(1) for s in range(SEATS)]
    assert list(PALETTE[:SEATS]) == seats


def test_a_page_gives_each_key_one_colour_far_from_the_others():
    colours = PageColours()
    given = [colours(key) for key in range(14)]
    assert [colours(key) for key in range(14)] == given  # asked again: the same
    assert given[: len(PALETTE)] == list(PALETTE)
    for a, b in itertools.combinations(given, 2):
        assert delta_e(a, b) >= 20, (a, b)
    assert all(contrast_on_white(c) >= MIN_CONTRAST for c in given)


def test_a_matchs_bots_take_their_seats_colours():
    colours = PageColours().prime_seats([40, 7, 40, 12])  # bot 40 sits twice
    assert [colours(40), colours(7), colours(12)] == [PALETTE[0], PALETTE[1], PALETTE[3]]
    assert colours(99) == PALETTE[2]  # the next free colour, not one of a seat's bots


def test_each_page_starts_afresh():
    with new_page():
        first = page_colours()(5)
        assert page_colours()(6) != first
    with new_page():
        assert page_colours()(6) == first  # a new page: 6 is its first bot
