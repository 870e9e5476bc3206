"""Seasons: a bracket league may follow another league (`Bracket.playoff_of`, a ladder, a
Swiss or a round robin of the same seats and mode); when that league closes, its top
`playoff_top` final places enter the bracket, which starts by itself."""

from __future__ import annotations

from typing import Any

from ..errors import Faults
from ..models import Bracket, League, LeagueEntry, LeaguePlace
from . import registry


def playoff_problems(
    faults: Faults,
    *,
    entrants: tuple[int, int],
    organiser: Any,
    mode: str,
    seats: int,
    seeding: str,
    playoff_of: int | None,
    playoff_top: int | None,
) -> None:
    """Add the faults of a bracket's season settings to `faults` (`entrants`: the fewest and
    the most entrants the bracket takes)."""
    if playoff_of is None:
        if seeding == Bracket.Seeding.STANDINGS:
            faults.add("seeding", "Seeding by standings needs a league to follow: choose one "
                       "under “Playoff of”, or seed by ratings or at random.",
                       "needs playoff_of")  # fmt: skip
        elif playoff_top:
            faults.add("playoff_top", "“How many enter the playoff” needs a league to follow: "
                       "choose the league whose top entrants enter under “Playoff of”.",
                       "needs playoff_of")  # fmt: skip
        return
    source = League.objects.filter(pk=playoff_of).first()
    _source_problems(faults, source, playoff_of, organiser, seats)
    least, most = entrants
    if playoff_top is None or not least <= playoff_top <= most:
        faults.add("playoff_top", f"“How many enter the playoff” must be from {least} to "
                   f"{most}.", f"{least}..{most}")  # fmt: skip
    if source is not None and source.mode != mode:
        faults.add("playoff_of", "A playoff plays the same mode as the league it follows.",
                   "other mode")  # fmt: skip


def _source_problems(
    faults: Faults, source: League | None, playoff_of: int, organiser: Any, seats: int
) -> None:
    if source is None:
        faults.add("playoff_of", f"League {playoff_of} does not exist.", "no such league")
    elif source.organiser_id != organiser.pk and not organiser.is_superuser:
        faults.add("playoff_of", "A playoff can only follow a league you organise.", "not yours")
    elif source.status == League.Status.CLOSED:
        faults.add("playoff_of", "That league is already closed.", "closed")
    elif registry.get(source.format).has_bracket:
        faults.add("playoff_of", "A playoff follows a ladder, a Swiss or a round robin, not "
                   "another bracket.", "a bracket")  # fmt: skip
    elif source.seats != seats:
        faults.add("playoff_of", "A playoff has the same number of seats as the league it "
                   "follows.", "other seats")  # fmt: skip


def playoffs_start(*, source: League) -> None:
    """`source` just closed (its places recorded): fill and start the draft playoffs that
    follow it (a season runs on with no further action)."""
    for bracket in Bracket.objects.select_related("league").filter(
        playoff_of=source, league__status=League.Status.DRAFT
    ):
        playoff_fill_and_start(playoff=bracket.league, source=source, top=bracket.playoff_top)


def playoff_fill_and_start(*, playoff: League, source: League, top: int) -> None:
    """Enter the top `top` of `source`'s final places into the playoff and start it. Too few
    entrants: the playoff stays a draft, for the organiser to fill by hand."""
    playoff = League.objects.select_for_update().get(pk=playoff.pk)
    places = (
        LeaguePlace.objects.filter(league=source)
        .select_related("entry")
        .order_by("place", "id")[:top]
    )
    have = set(playoff.entries.values_list("bot_version_id", flat=True))
    LeagueEntry.objects.bulk_create(
        [
            LeagueEntry(league=playoff, bot_version_id=p.entry.bot_version_id)
            for p in places
            if p.entry.bot_version_id not in have
        ]  # fmt: skip
    )
    fmt = registry.get(playoff.format)
    if playoff.entries.count() < fmt.least_entrants(playoff):
        return
    fmt.start(playoff)
