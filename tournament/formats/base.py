"""The interface of a tournament format, and what most formats share.

A format answers every question the league services would otherwise branch on: which settings
it takes and whether they are sound, how it starts, what it schedules now and after each
match, whether it is over, its standings and its final places. `services/leagues.py` runs a
league's life (create, enter, start, pause, close) and asks its format at each step; the
formats are found by key in `formats/registry.py`.

Every method that changes a league runs under the caller's row lock of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, NamedTuple

from ..errors import Conflict, Faults
from ..field_labels import label
from ..models import League, LeagueEntry, Match
from ..selectors import league_ladder
from ..selectors.entries import active_entries
from ..services.matches import match_create_internal

OPEN = (Match.Status.QUEUED, Match.Status.RUNNING)


class Place(NamedTuple):
    """One entrant's final place (ties share one), what earned it in words, and its figures."""

    entry_id: int
    place: int
    result: str
    figures: dict[str, Any]


class Format:
    """A tournament format. Subclass it, set the class attributes, override what differs, and
    `formats.registry.register` an instance."""

    key: ClassVar[str]  # what League.format stores (at most 16 characters)
    label: ClassVar[str]  # its name, as the model's choices show it
    description: ClassVar[str] = ""  # a line for the site's form: what it plays
    menu_order: ClassVar[int] = 100  # its place in the site's list of formats
    continuous: ClassVar[bool] = False  # runs without an end, taking entries while it runs
    has_bracket: ClassVar[bool] = False  # keeps a Bracket: settings, a bracket page, playoffs
    settings_fields: ClassVar[tuple[str, ...]] = ()  # its own settings, beside the league's
    league_fields: ClassVar[frozenset[str]] = frozenset()  # the format-only League fields it uses
    # its places come from the rating ladder: the league page shows the Elo ladder and the
    # organiser chooses what orders it (a bracket's come from its series instead)
    rated_ladder: ClassVar[bool] = True
    # an entrant may be withdrawn while it runs (its results stay); a bracket's may not
    withdraws_while_running: ClassVar[bool] = True

    # --- settings ---------------------------------------------------------------------------

    def settings_problems(
        self, *, organiser: Any, mode: str, seats: int, settings: dict[str, Any]
    ) -> Faults:
        """Every fault of the format's own settings (`settings_fields`) for a new league; by
        default, any setting given (not None) that it does not take."""
        faults = Faults()
        given = {name for name, value in settings.items() if value is not None}
        for name in sorted(given - set(self.settings_fields)):
            faults.add(name, f"{label(name)} is not a setting of a {self.label} league.",
                       f"not for {self.key}")  # fmt: skip
        return faults

    def form_fields(self) -> frozenset[str]:
        """The fields of the site's league form that matter to the format (it hides the
        others)."""
        return self.league_fields | frozenset(self.settings_fields)

    def created(self, league: League, settings: dict[str, Any]) -> None:
        """Store the format's own settings of a league just created (in its transaction)."""

    # --- entries ----------------------------------------------------------------------------

    def filled_by(self, league: League) -> League | None:
        """The league that will fill this one's entries and start it when it closes (a
        playoff waiting on its season's league), while it has not; None for most."""
        return None

    def takes_entries(self, league: League) -> bool:
        """Whether entrants may be added now: a draft not filled by another league, or a
        continuous format (a ladder) while it runs."""
        if league.status == League.Status.DRAFT:
            return self.filled_by(league) is None
        return self.continuous and league.status in (League.Status.RUNNING,
                                                     League.Status.PAUSED)  # fmt: skip

    def takes_withdrawals(self, league: League) -> bool:
        """Whether the organiser may remove an entrant now (one that played is withdrawn)."""
        if league.status == League.Status.DRAFT:
            return self.filled_by(league) is None
        return self.withdraws_while_running and league.status != League.Status.CLOSED

    # --- running ----------------------------------------------------------------------------

    def least_entrants(self, league: League) -> int:
        return 1 if league.seats == 1 else league.seats

    def start(self, league: League) -> None:
        """Start a draft: refuse too few entrants, then run it and schedule what is due."""
        least = self.least_entrants(league)
        if active_entries(league).count() < least:
            raise Conflict(
                f"{Conflict.TOO_FEW_ENTRANTS} (at least {least})", fields={"entries": ["too few"]}
            )
        league.status = League.Status.RUNNING
        league.save(update_fields=["status"])
        self.schedule(league)

    def schedule(self, league: League) -> list[Match]:
        """Queue the matches due now in a running league; the new ones (none when nothing is
        due)."""
        return []

    def after_match(self, league: League) -> None:
        """One of the running league's matches ended: schedule what follows it."""

    def is_over(self, league: League) -> bool:
        """Whether the running league has ended (asked after each match): by default, once no
        match of it is open."""
        return not open_matches(league).exists()

    # --- results ----------------------------------------------------------------------------

    def standings(self, league: League) -> list[Any] | None:
        """Standings by points, for the formats that keep them (None: its ladder is its
        order)."""
        return None

    def places(self, league: League) -> list[Place]:
        """The final places of a closed league: by default its ladder order (Elo or the
        conservative rating, as the league ranks)."""
        return [
            Place(entry.pk, entry.rank,
                  f"Elo {entry.rating:.0f}, {entry.wins}-{entry.draws}-{entry.losses} (W-D-L)",
                  {"rating": round(entry.rating, 1), "games": entry.games, "wins": entry.wins,
                   "draws": entry.draws, "losses": entry.losses})
            for entry in league_ladder(league=league)
        ]  # fmt: skip

    def plan_summary(self, league: League, entrants: int) -> str | None:
        """What the league plays, in words true for it (the league page), if the format says."""
        return None


def open_matches(league: League) -> Any:
    return league.matches.filter(status__in=OPEN)


def create_league_match(
    league: League, order: Sequence[LeagueEntry], seed: int, rnd: int, *, ahead: bool = False
) -> Match:
    """Queue a match of the league seating `order`. `ahead`: on the lane workers serve ahead of
    the backlog (services/matches.py, match_enqueue)."""
    return match_create_internal(
        kind=Match.Kind.LEAGUE, mode=league.mode, options=league.options,
        bot_versions=[e.bot_version for e in order], league=league, requested_by=None,
        round=rnd, seed=seed, ahead=ahead,
    )  # fmt: skip
