"""``python manage.py verify_replays``: prove the stored matches by re-simulating their replays.

Each stored replay is read (its sha256 checked against the match), re-simulated with the
engine, and its scores and ranks (faulted seats last) compared with the ones recorded on the
match. Mismatches are listed
one per line; the command fails (non-zero exit) if there is any.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from replayfile.format import ReplayError, decode
from replayfile.verify import verify_document
from replays.storage import ReplayCorrupt, ReplayNotFound, open_replay
from tournament.models import Match


def verify_match(match: Match) -> str | None:
    """None when the match's replay proves its recorded result, else why not (one line)."""
    try:
        data = open_replay(match.replay_name, sha256=match.replay_sha256 or None)
        doc = decode(data)
    except (ReplayNotFound, ReplayCorrupt, ReplayError, OSError) as exc:
        return f"unreadable replay: {exc}"
    verdict = verify_document(doc)
    if not verdict.ok:
        return verdict.message
    recorded = (match.result or {}).get("scores")
    replayed = (doc.get("result") or {}).get("scores")
    if recorded is not None and replayed is not None and list(recorded) != list(replayed):
        return f"the match records scores {recorded} but its replay gives {replayed}"
    # the standing the ratings were given (faulted seats last) is the one the replay proves
    ranks = list(match.seats.order_by("seat").values_list("rank", flat=True))
    replayed_ranks = (doc.get("result") or {}).get("ranks")
    if replayed_ranks is not None and None not in ranks and ranks != list(replayed_ranks):
        return f"the match ranks its seats {ranks} but its replay gives {replayed_ranks}"
    return None


class Command(BaseCommand):
    help = "Re-simulate stored replays and report any that do not prove their match's result."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_ids", nargs="*", type=int, help="only these matches")
        parser.add_argument("--league", type=int, help="only matches of this league")
        parser.add_argument("--limit", type=int, help="at most this many (newest first)")

    def handle(self, *args: Any, **options: Any) -> None:
        matches = Match.objects.exclude(replay_name="").order_by("-id")
        if options["match_ids"]:
            matches = matches.filter(pk__in=options["match_ids"])
        if options["league"] is not None:
            matches = matches.filter(league_id=options["league"])
        if options["limit"]:
            matches = matches[: options["limit"]]
        checked = failed = 0
        for match in matches.iterator():
            checked += 1
            problem = verify_match(match)
            if problem is not None:
                failed += 1
                self.stdout.write(f"match {match.pk}: {problem}")
        summary = f"{checked} replay(s) checked, {failed} mismatch(es)"
        if failed:
            raise CommandError(summary)
        self.stdout.write(self.style.SUCCESS(summary))
