"""How a bot version is named: a submitted version by its number, counted from 1 ("cats v3"),
and a snapshot of its author's workshop draft, which takes no number of theirs (number 0,
"cats (draft)"; it only plays in its author's test games).

Pure, so the site, the API's clients (the command line) and the replay's notes name versions
by the one rule.
"""

from __future__ import annotations

DRAFT_NUMBER = 0  # a draft snapshot's number: submitted versions count from 1


def version_label(bot_name: str, number: int) -> str:
    """ "cats v3", or "cats (draft)" for a snapshot of the workshop draft."""
    return f"{bot_name} (draft)" if number == DRAFT_NUMBER else f"{bot_name} v{number}"
