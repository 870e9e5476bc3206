"""The site's forms. They check shapes and explain each field; the rules live in the services,
whose errors `add_service_error` puts back on the form next to the field at fault."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.template.defaultfilters import pluralize

import engine
from competition.elo import SISTER_RATINGS
from tournament import formats
from tournament.bundle_formats import bundle_kinds as kinds
from tournament.errors import ArenaError
from tournament.field_labels import LABELS
from tournament.models import BotVersion, League
from tournament.services.game_config import fixed_seats, seat_spans, solo_difficulty_message

from . import play_games

MODE_HELP = {
    "standard": "the full game, 2-4 players",
    "family": "the family rules (no cards), 2-4 players",
    "duel": "the two-player Duel rules on their own island",
    "solo": "one bot against the rulebook's sister player",
}


def mode_choices() -> list[tuple[str, str]]:
    """Every mode of the engine, labelled with what it is."""
    out = []
    for mode in engine.MODES:
        game_type = engine.mode_class(mode).game_type
        lo, hi = game_type.min_seats, game_type.max_seats
        seats = f"{lo} seat{pluralize(lo)}" if lo == hi else f"{lo}-{hi} seats"
        out.append((mode, f"{mode} — {MODE_HELP.get(mode, 'a game mode')} ({seats})"))
    return out


def format_choices() -> list[tuple[str, str]]:
    """Every registered format, described, in the order of the site's menu."""
    found = sorted((formats.get(key) for key, _ in formats.choices()), key=lambda f: f.menu_order)
    return [(f.key, f.description or f.label) for f in found]


def add_service_error(form: forms.Form, exc: ArenaError) -> None:
    """Attach a service's error to the field it names (when the form has it), else the form."""
    for name in exc.fields:
        if name in form.fields:
            form.add_error(name, exc.message)
            return
    form.add_error(None, exc.message)


class SignupForm(UserCreationForm):
    email = forms.EmailField(help_text="Used only to reset a forgotten password.")

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_username(self) -> str:
        name = self.cleaned_data["username"]
        if get_user_model().objects.filter(username__iexact=name).exists():
            raise forms.ValidationError("This username is taken.")
        return name


class BotForm(forms.Form):
    label_suffix = ""
    name = forms.RegexField(
        regex=r"^[\w .+-]{1,64}$", max_length=64,
        help_text="Unique on the arena; letters, digits, spaces and . + - _ only.",
        error_messages={"invalid": "Use letters, digits, spaces and . + - _ only."},
    )  # fmt: skip
    description = forms.CharField(
        required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Optional: what it does, shown on its page.",
    )  # fmt: skip


class WorkshopStartForm(BotForm):
    """A new bot in the workshop: its name, and the starter kit its draft begins as."""

    description = None
    kit = forms.ChoiceField(choices=(), label="Start from", widget=forms.RadioSelect)

    def __init__(self, *args: Any, kits: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["kit"].choices = kits
        if kits:
            self.fields["kit"].initial = kits[0][0]


class DraftForm(forms.Form):
    """The workshop's editor without script: the text area the editor takes over."""

    label_suffix = ""
    source = forms.CharField(required=False, strip=False, widget=forms.Textarea)


class PlayForm(forms.Form):
    """The workshop's Play: a test game of the draft, its game (website/play_games.py) and its
    opponent, who takes every other seat."""

    label_suffix = ""
    opponent = forms.ChoiceField(choices=(), label="Opponent", initial="random")
    game = forms.ChoiceField(choices=(), label="Game", initial="duel")

    def __init__(self, *args: Any, opponents: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["opponent"].choices = opponents
        self.fields["game"].choices = [(g.key, g.label) for g in play_games.games()]

    def test_game(self) -> dict[str, Any]:
        """The chosen game as `test_game_of_draft`'s keywords (solo seats no opponent)."""
        game = play_games.game(self.cleaned_data["game"])
        if game.seats == 1:
            return {"mode": game.mode, "options": dict(game.options), "opponents": []}
        return {"mode": game.mode, "options": dict(game.options), "seats": game.seats,
                "opponents": [self.cleaned_data["opponent"]]}  # fmt: skip


def bundle_kinds() -> str:
    """".py, .js, ..., .zip": the file endings an upload may have (the languages table)."""
    return ", ".join(f".{k}" for k in kinds())


class UploadForm(forms.Form):
    file = forms.FileField(
        allow_empty_file=True,  # the service says "The file is empty.", as the API does
        label="Bundle",
        help_text="A single source file, or a .zip with a bot.json manifest (see the bot "
        "protocol).",
        widget=forms.ClearableFileInput(),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["file"].widget.attrs["accept"] = bundle_kinds().replace(" ", "")


class EnterForm(forms.Form):
    league = forms.ModelChoiceField(queryset=League.objects.none(), empty_label=None)

    def __init__(self, *args: Any, leagues: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if leagues is not None:
            self.fields["league"].queryset = leagues


def utc_time_field(label: str, help_text: str) -> forms.DateTimeField:
    """An optional time in UTC, entered with the browser's date and time picker."""
    minute = "%Y-%m-%dT%H:%M"  # what a datetime-local input sends
    return forms.DateTimeField(
        required=False, label=label, help_text=help_text, input_formats=[minute],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=minute),
    )  # fmt: skip


class SoloDifficulty(forms.Form):
    """A solo game needs the sister's difficulty: said next to that field, in plain words,
    before the service is asked (`solo_what` names what is being made).

    The fields follow the mode: the page's script (site.js, `data-mode-seats`) fixes or
    bounds the seats as the mode is chosen, and without the script the form itself takes the
    seats a mode fixes (the Duel 2, solo 1) whatever was sent, so it never refuses a value
    the mode decides."""

    solo_what = "games"

    def mode_seats(self) -> str:
        """Each mode's (fewest, most) seats, as JSON for the page's script."""
        return json.dumps(seat_spans())

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("mode") == "solo" and not data.get("difficulty"):
            self.add_error("difficulty", solo_difficulty_message(self.solo_what))
        if "seats" in self.fields:
            fixed = fixed_seats(data.get("mode"))
            if fixed is not None:
                self.errors.pop("seats", None)
                data["seats"] = fixed
            elif data.get("seats") is None and "seats" not in self.errors:
                lo, hi = seat_spans().get(data.get("mode") or "", (2, 4))
                self.add_error("seats", f"Choose how many seats: {lo} to {hi} in this mode.")
        return data


class LeagueForm(SoloDifficulty):
    """Every field says what it does: the organiser should not need the API docs."""

    solo_what = "leagues"

    label_suffix = ""

    name = forms.CharField(max_length=100, help_text="Unique; shown on the league's page.")
    mode = forms.ChoiceField(
        choices=(), help_text="The rules every match of the league is played by."
    )
    seats = forms.IntegerField(
        min_value=1, max_value=4, initial=2, required=False,
        help_text="Bots per match. Standard and family: 2-4; the Duel is always 2 and solo 1.",
    )  # fmt: skip
    difficulty = forms.ChoiceField(
        choices=[("", "—")] + [(k, k.replace("_", " ")) for k in SISTER_RATINGS],
        required=False,
        help_text="Solo only: how strong the sister player is (she is rated as an opponent).",
    )
    format = forms.ChoiceField(
        choices=(),  # every registered format (__init__)
        help_text="How tables are drawn. Only a ladder takes new entries after the start. "
        "The last three crown a champion on a bracket page.",
    )  # fmt: skip
    rounds = forms.IntegerField(
        min_value=1, max_value=100, initial=3, help_text="Swiss only: how many rounds are played."
    )
    seeds = forms.IntegerField(
        min_value=1, max_value=100, initial=1,
        help_text="Round robin only: how many deals each table plays (each in every seat).",
    )  # fmt: skip
    all_seat_orders = forms.BooleanField(
        required=False, label="Every seat order",
        help_text="Round robin only: play each deal in every order of the table's seats (2 "
        "at two seats, 6 at three, 24 at four) instead of one rotation per seat (2, 3, 4).",
    )  # fmt: skip
    points_table = forms.CharField(
        required=False, max_length=200, label="Points by place",
        help_text="Swiss only: the points of 1st, 2nd, ... separated by commas, one per seat. "
        "Empty: 1, 0 at two seats; 2, 1, 0 at three; 6, 5, 3, 1 at four (Board Game Arena's).",
    )  # fmt: skip
    bye_points = forms.FloatField(
        required=False, min_value=0, max_value=1000, label="Points for a bye",
        help_text="Swiss only: what sitting out a round is worth. Empty: a win at two seats, "
        "the mean of the points table at three or four.",
    )  # fmt: skip
    starts_at = utc_time_field(
        "Start time (UTC)", "Optional: the league starts by itself at this time (if it has "
        "enough entrants). Empty: you start it from its page.",
    )
    entry_deadline = utc_time_field(
        "Entry deadline (UTC)", "Optional: no entries after this time. Only a ladder takes "
        "entries after its start, so for the other formats entries close at the start anyway.",
    )
    seed_privacy = forms.ChoiceField(
        choices=[("public", "Public — every match and replay is shown once played"),
                 ("hidden", "Hidden until the close — matches, seeds and replays are "
                            "published when the league closes"),
                 ("author", "Each author's own — until the close an author sees only the "
                            "matches of their bots")],
        initial="public", required=False, label="Seeds and replays",
        help_text="Solo only: keep the evaluation seeds secret so no bot is tuned to them "
        "and no one copies a leader's moves; the ladder is always public.",
    )  # fmt: skip
    division_size = forms.IntegerField(
        required=False, min_value=0, max_value=1000, initial=0, label="Division size",
        help_text="Ladder only: split a large ladder into divisions of about this many "
        "entrants by rating; most matches are played inside a division, new entrants play "
        "placement matches first. Empty or 0: one ladder.",
    )  # fmt: skip
    division_every = forms.IntegerField(
        required=False, min_value=1, max_value=1000, initial=10, label="Promotion every",
        help_text="Ladder with divisions only: promotion and relegation every this many "
        "scheduling rounds.",
    )  # fmt: skip
    max_entrants = forms.IntegerField(
        required=False, min_value=1, max_value=10_000, label="Cap on entrants",
        help_text="Optional: the most entrants the league takes.",
    )  # fmt: skip
    best_of = forms.IntegerField(
        required=False, label=LABELS["best_of"],
        help_text="Elimination: games of each series, an odd number (3: first to 2 wins), each "
        "on its own deal with the seats swapped. Knockout: games each table plays, the seats "
        "rotating. Empty: 3 for a series, one per seat for a table.",
    )  # fmt: skip
    seeding = forms.ChoiceField(
        choices=[
            ("", "Default — a playoff by the final order of the league it follows, else "
                 "by ratings"),
            ("standings", "Standings — the final order of the league it follows (a season)"),
            ("ratings", "Ratings — each bot's best Elo in its other leagues"),
            ("random", "Random — drawn by the league's seed"),
        ],
        initial="", required=False, label=LABELS["seeding"],
        help_text="Brackets only: who is seed 1, 2, … The byes go to the top seeds.",
    )  # fmt: skip
    advance = forms.IntegerField(
        required=False, initial=2, label=LABELS["advance"],
        help_text="Knockout only: how many of each table go on to the next round (fewer than "
        "the seats; more go on when needed to fill the next round's tables).",
    )  # fmt: skip
    playoff_of = forms.ModelChoiceField(
        queryset=League.objects.none(), required=False, label=LABELS["playoff_of"],
        help_text="Brackets only, for a season: when this league of yours closes, its top "
        "entrants enter this bracket and it starts by itself.",
    )  # fmt: skip
    playoff_top = forms.IntegerField(
        required=False, label=LABELS["playoff_top"],
        help_text="With “Playoff of”: the top N of that league's final order (e.g. 8).",
    )  # fmt: skip
    decision_time_limit = forms.FloatField(
        min_value=0.01, max_value=60, initial=1.0, label="Time per decision (s)",
        help_text="Seconds a bot may think per move before it draws on its time bank.",
    )  # fmt: skip
    time_bank = forms.FloatField(
        min_value=0, max_value=600, initial=30.0, label="Time bank (s)",
        help_text="Extra seconds per match for slow moves; a bot that exhausts it faults.",
    )  # fmt: skip
    ladder_order = forms.ChoiceField(
        choices=[
            (League.LadderOrder.ELO, "Elo — the classic rating, moves with every result"),
            (League.LadderOrder.CONSERVATIVE,
             "Conservative — OpenSkill μ − 3σ: new or erratic bots rank low until proven"),
        ],
        initial=League.LadderOrder.ELO, label="Ladder order",
        help_text="Which rating ranks the ladder; both are always shown. You can change it later.",
    )  # fmt: skip
    public = forms.BooleanField(
        required=False, initial=True, label="Public",
        help_text="Public: everyone sees it and any author may enter. Private: only the users "
        "you invite (from the league's page after creating it) see it and may enter.",
    )

    marks_public = forms.BooleanField(
        required=False, initial=False, label="Bots' marks are public",
        help_text="The marks a bot draws on its boat (see the bot protocol) are shown to its "
        "author only; ticked, the replay viewer shows them to everyone.",
    )

    BRACKET_FIELDS = ("best_of", "seeding", "advance", "playoff_of", "playoff_top")

    def __init__(self, *args: Any, playoff_sources: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["mode"].choices = mode_choices()
        self.fields["format"].choices = format_choices()
        if playoff_sources is not None:
            self.fields["playoff_of"].queryset = playoff_sources
        self.fields["playoff_of"].empty_label = "— none: entries by hand —"

    def format_fields(self) -> str:
        """Each format's fields, as JSON for the page: the others are hidden (site.js)."""
        return json.dumps({key: sorted(formats.get(key).form_fields())
                           for key, _ in formats.choices()})  # fmt: skip

    def format_settings(self) -> tuple[str, ...]:
        """The settings the chosen format takes of this form's (a bracket's)."""
        fmt = formats.find(self.cleaned_data.get("format"))
        return tuple(k for k in self.BRACKET_FIELDS if fmt is not None and k in fmt.settings_fields)

    def service_kwargs(self) -> dict[str, Any]:
        d = self.cleaned_data
        options = {"difficulty": d["difficulty"]} if d["mode"] == "solo" else {}
        kwargs = {
            "name": d["name"], "mode": d["mode"], "seats": d["seats"], "format": d["format"],
            "options": options, "public": d["public"],
            "decision_time_limit": d["decision_time_limit"], "time_bank": d["time_bank"],
            "seeds": d["seeds"], "rounds": d["rounds"], "ladder_order": d["ladder_order"],
            "marks_public": d["marks_public"],
            "points_table": d["points_table"], "bye_points": d["bye_points"],
            "starts_at": d["starts_at"], "entry_deadline": d["entry_deadline"],
            "max_entrants": d["max_entrants"], "all_seat_orders": d["all_seat_orders"],
            "seed_privacy": (d["seed_privacy"] or "public") if d["mode"] == "solo" else "public",
            "division_size": (d["division_size"] or 0)
            if "division_size" in formats.get(d["format"]).league_fields else 0,
            "division_every": d["division_every"] or 10,
        }  # fmt: skip
        own = {  # the formats that do not take them ignore these fields (they are hidden)
            "best_of": d["best_of"], "seeding": d["seeding"] or None, "advance": d["advance"],
            "playoff_of": d["playoff_of"].pk if d["playoff_of"] else None,
            "playoff_top": d["playoff_top"],
        }  # fmt: skip
        kwargs["format_settings"] = {k: own[k] for k in self.format_settings()}
        return kwargs

    def clean_points_table(self) -> list[float]:
        """"6, 5, 3, 1" as numbers; whether they fit the seats is the service's to say."""
        raw = self.cleaned_data.get("points_table") or ""
        try:
            return [float(p) for p in raw.replace(";", ",").split(",") if p.strip()]
        except ValueError:
            raise forms.ValidationError(
                "Write the points as numbers separated by commas, such as 6, 5, 3, 1."
            ) from None


class InviteForm(forms.Form):
    username = forms.CharField(max_length=150, help_text="The user sees the league and may enter.")


class ChallengeForm(SoloDifficulty):
    """A challenge seats 1-4 ready bot versions; empty seats at the end are left out."""

    label_suffix = ""

    mode = forms.ChoiceField(choices=(), help_text="The rules of the match.")
    difficulty = forms.ChoiceField(
        choices=[("", "—")] + [(k, k.replace("_", " ")) for k in SISTER_RATINGS],
        required=False, help_text="Solo only: the sister player's strength.",
    )  # fmt: skip
    seat_0 = forms.ModelChoiceField(queryset=BotVersion.objects.none(), label="Seat 0")
    seat_1 = forms.ModelChoiceField(queryset=BotVersion.objects.none(), required=False,
                                    label="Seat 1")  # fmt: skip
    seat_2 = forms.ModelChoiceField(queryset=BotVersion.objects.none(), required=False,
                                    label="Seat 2")  # fmt: skip
    seat_3 = forms.ModelChoiceField(queryset=BotVersion.objects.none(), required=False,
                                    label="Seat 3")  # fmt: skip
    SEATS = ("seat_0", "seat_1", "seat_2", "seat_3")

    def __init__(self, *args: Any, versions: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["mode"].choices = mode_choices()
        for name in self.SEATS:
            field = self.fields[name]
            field.queryset = versions if versions is not None else BotVersion.objects.none()
            field.label_from_instance = lambda v: f"{v.bot.name} v{v.number}"
            field.empty_label = "— empty seat —"

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        chosen = [data.get(n) for n in self.SEATS]
        while chosen and chosen[-1] is None:
            chosen.pop()
        if None in chosen:
            raise forms.ValidationError("Fill the seats in order, without gaps.")
        most = seat_spans().get(data.get("mode") or "", (1, len(self.SEATS)))[1]
        if len(chosen) > most:
            self.add_error(self.SEATS[most], f"A {data['mode']} game seats {most} "
                           f"bot{pluralize(most)}: leave Seat {most} and after empty.")  # fmt: skip
        data["versions"] = chosen
        return data

    def service_kwargs(self) -> dict[str, Any]:
        d = self.cleaned_data
        options = {"difficulty": d["difficulty"]} if d["mode"] == "solo" else {}
        return {"mode": d["mode"], "options": options,
                "bot_version_ids": [v.pk for v in d["versions"]]}  # fmt: skip


class PairedForm(SoloDifficulty):
    """Compare version A with version B in the duplicate format (tournament/services/paired.py)."""

    label_suffix = ""

    version_a = forms.ModelChoiceField(
        queryset=BotVersion.objects.none(), label="Version A",
        help_text="The reference, usually the version you have now.",
    )  # fmt: skip
    version_b = forms.ModelChoiceField(
        queryset=BotVersion.objects.none(), label="Version B",
        help_text="The challenger: is it better than A?",
    )  # fmt: skip
    mode = forms.ChoiceField(choices=(), help_text="The rules of every game.")
    difficulty = forms.ChoiceField(
        choices=[("", "—")] + [(k, k.replace("_", " ")) for k in SISTER_RATINGS],
        required=False, help_text="Solo only: the sister player's strength.",
    )  # fmt: skip
    seats = forms.IntegerField(
        min_value=1, max_value=4, initial=2, required=False,
        help_text="Players per game (the Duel is always 2, solo 1).",
    )  # fmt: skip
    seeds = forms.IntegerField(
        min_value=1, max_value=1000, initial=200, label="Seeds at most",
        help_text="The cap, in deals. Each is played by A and by B in every seat (seeds x "
        "seats x 2 games); the test usually stops long before.",
    )  # fmt: skip
    elo0 = forms.FloatField(initial=0, label="H0: Elo", help_text="B - A under H0 (default 0).")
    elo1 = forms.FloatField(initial=40, label="H1: Elo",
                            help_text="B - A under H1 (default 40); above H0.")  # fmt: skip
    alpha = forms.FloatField(initial=0.05, label="α",
                             help_text="False-positive rate, in (0, 0.5).")  # fmt: skip
    beta = forms.FloatField(initial=0.05, label="β",
                            help_text="False-negative rate, in (0, 0.5).")  # fmt: skip
    opponent = forms.ModelChoiceField(
        queryset=BotVersion.objects.none(), required=False,
        help_text="Who plays the other seats (default: the built-in random bot).",
    )  # fmt: skip

    def __init__(self, *args: Any, versions: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["mode"].choices = mode_choices()
        for name in ("version_a", "version_b", "opponent"):
            field = self.fields[name]
            field.queryset = versions if versions is not None else BotVersion.objects.none()
            field.label_from_instance = lambda v: f"{v.bot.name} v{v.number}"
        self.fields["opponent"].empty_label = "— the built-in random bot —"

    def clean(self) -> dict[str, Any]:
        """The SPRT's settings said as the form labels them (the service's words name the
        API's fields, elo0 and elo1)."""
        data = super().clean()
        elo0, elo1 = data.get("elo0"), data.get("elo1")
        if elo0 is not None and elo1 is not None and not elo0 < elo1:
            self.add_error("elo1", f"H1: Elo ({elo1:g}) must be above H0: Elo ({elo0:g}).")
        for name, label in (("alpha", "α"), ("beta", "β")):
            value = data.get(name)
            if value is not None and not 0 < value < 0.5:
                self.add_error(name, f"{label} must be between 0 and 0.5.")
        return data

    def service_kwargs(self) -> dict[str, Any]:
        d = self.cleaned_data
        options = {"difficulty": d["difficulty"]} if d["mode"] == "solo" else {}
        return {
            "version_a_id": d["version_a"].pk, "version_b_id": d["version_b"].pk,
            "mode": d["mode"], "seats": d["seats"], "seeds": d["seeds"], "options": options,
            "opponent_ids": [d["opponent"].pk] if d["opponent"] else None,
            "elo0": d["elo0"], "elo1": d["elo1"], "alpha": d["alpha"], "beta": d["beta"],
        }  # fmt: skip
