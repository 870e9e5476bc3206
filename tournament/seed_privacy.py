"""Hidden seeds for solo leaderboards: a solo league can keep its evaluation seeds (and so
its deals, its replays and its matches) secret until it closes, so that no author tunes a
bot to the seeds or copies a leader's moves.

`League.seed_privacy`:

* ``public`` (the default): every match is shown as soon as it is played;
* ``hidden``: until the league closes, its matches (their seeds, results and replays) are
  shown to staff only; the ladder still ranks the entrants. At the close all are published;
* ``author``: until the close each author sees the matches of their own bots only.

Every list, page, API endpoint and download of matches and replays reads matches through
`selectors.visible_matches` (and `match_list` / `match_get` on top of it), which applies
`hidden_matches_q` here, so none of them can show a hidden seed. A league with hidden seeds
draws its base seed at random instead of from its id and name, so its seeds cannot be
worked out either.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.db.models import Exists, OuterRef, Q

from .models import League, MatchSeat

PUBLIC = "public"
HIDDEN = "hidden"
AUTHOR = "author"
CHOICES = (PUBLIC, HIDDEN, AUTHOR)
SEED_BITS = 62


def seed_privacy_problem(seed_privacy: str, seats: int) -> str | None:
    """Why `seed_privacy` cannot be set on a league of `seats` seats, or None."""
    if seed_privacy not in CHOICES:
        return f"seed_privacy must be one of {', '.join(CHOICES)}."
    if seed_privacy != PUBLIC and seats != 1:
        return ("Hidden seeds are for solo leagues: in a game between bots every entrant "
                "sees the deals it plays.")  # fmt: skip
    return None


def secret_base_seed() -> int:
    return secrets.randbits(SEED_BITS)


def hidden_matches_q(user: Any) -> Q | None:
    """The matches `user` may not see yet because their league hides its seeds until it
    closes (None for staff). Subqueries over the leagues table, not a query of their own,
    so a page's query count does not change; the planner hashes the few secret league ids."""
    if user is not None and user.is_authenticated and (user.is_staff or user.is_superuser):
        return None
    secret = League.objects.exclude(seed_privacy=PUBLIC).exclude(status=League.Status.CLOSED)
    hidden = Q(league_id__in=secret.filter(seed_privacy=HIDDEN).values("pk"))
    per_author = Q(league_id__in=secret.filter(seed_privacy=AUTHOR).values("pk"))
    if user is not None and user.is_authenticated:
        own = Exists(MatchSeat.objects.filter(match=OuterRef("pk"),
                                              bot_version__bot__owner=user))  # fmt: skip
        per_author &= ~own
    return hidden | per_author
