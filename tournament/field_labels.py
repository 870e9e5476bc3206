"""The names people read for a league's fields: the site's form labels them so, and every
error of the services, the API and the command line names a field by the same words (the API's
`fields` keys keep the names the API takes)."""

from __future__ import annotations

LABELS = {
    "name": "Name",
    "mode": "Mode",
    "seats": "Seats",
    "format": "Format",
    "rounds": "Rounds",
    "seeds": "Seeds",
    "decision_time_limit": "Time per decision",
    "time_bank": "Time bank",
    "ladder_order": "Ladder order",
    "best_of": "Best of",
    "seeding": "Seeding",
    "advance": "Advance per table",
    "playoff_of": "Playoff of",
    "playoff_top": "How many enter the playoff",
}


def label(field: str) -> str:
    """The words for `field` (its own name, spaced, for one not in the table)."""
    return LABELS.get(field, field.replace("_", " ").capitalize())


def labels(fields: list[str]) -> str:
    """"Best of and Seeding": several fields as a sentence names them."""
    words = [label(f) for f in fields]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
