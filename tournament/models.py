"""Tournament models: bots and their versions, leagues with their entries and invitations,
matches and their seats, rating changes. Generic in the number of seats (a match has 1-4
`MatchSeat` rows).

Models hold data and constraints only; every change goes through `tournament/services/`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from competition.versions import DRAFT_NUMBER, version_label

from .formats.registry import choices as format_choices


class Bot(models.Model):
    """A named bot owned by an author; built-in bots are owned by the system user."""

    name = models.CharField(max_length=64, unique=True)
    description = models.TextField(blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="bots"
    )
    is_system = models.BooleanField(default=False)
    retired = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class SubmittedVersions(models.Manager["BotVersion"]):
    """`BotVersion.objects` (and so ``bot.versions``): every version but the snapshots of
    workshop drafts. Every list, count, number, entry, challenge, comparison and sweep reads
    versions through it, so a draft snapshot appears in none of them;
    `BotVersion.with_drafts` reads the snapshots too (the test games that play them, and
    their owner's pages)."""

    def get_queryset(self) -> models.QuerySet[BotVersion]:
        return super().get_queryset().exclude(status=BotVersion.Status.DRAFT)


class BotVersion(models.Model):
    """One uploaded bundle (or a built-in bot), validated by a match against the random bot;
    or a snapshot of the workshop draft (status ``draft``, number 0), played only in its
    author's test games: never validated, entered or listed (`SubmittedVersions`)."""

    class Status(models.TextChoices):
        PENDING = "pending"
        READY = "ready"
        FAILED = "failed"
        DRAFT = "draft"  # a snapshot of the workshop draft, played only in its author's test games

    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    builtin = models.CharField(max_length=32, blank=True, help_text="built-in bot name, or ''")
    bundle_name = models.CharField(max_length=255, blank=True, help_text="name in storage 'bots'")
    bundle_kind = models.CharField(max_length=8, blank=True)  # "py", "js" or "zip"
    sha256 = models.CharField(max_length=64, blank=True)
    size = models.PositiveIntegerField(default=0)
    manifest = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    failure_reason = models.TextField(blank=True)
    log = models.TextField(blank=True, help_text="stderr tail of the validation match")
    # Compiled languages (C++): the compiler's output, shown to the owner, and the built
    # bundle that matches run (stored content-addressed under built/<sha256>.zip).
    build_log = models.TextField(blank=True, help_text="compiler output of the upload's build")
    built_bundle_name = models.CharField(
        max_length=255, blank=True, help_text="built bundle in storage 'bots', or ''"
    )
    built_sha256 = models.CharField(max_length=64, blank=True)
    # A build task lost by the broker is sent again (`bot_builds_resend_lost`); a worker claims
    # the build when it starts, so a duplicate delivery does not compile it a second time.
    build_queued_at = models.DateTimeField(
        null=True, blank=True, help_text="when its build task was last sent; null: no build"
    )
    build_started_at = models.DateTimeField(
        null=True, blank=True, help_text="when a worker last began compiling it"
    )
    # seats in finished rated (league) matches and how many of them faulted: the bot page's
    # fault rate, counted with each result (services/bots.py); validations, challenges and
    # paired runs are not counted
    seats_finished = models.PositiveIntegerField(default=0)
    seats_faulted = models.PositiveIntegerField(default=0)
    # rated matches in a row in which it faulted; FAULT_SUSPEND_AFTER of them suspend it from
    # scheduling until its author resumes it or a new version of the bot passes validation
    fault_streak = models.PositiveIntegerField(default=0)
    suspended_at = models.DateTimeField(null=True, blank=True)
    suspension_reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = SubmittedVersions()
    with_drafts = models.Manager()

    class Meta:
        ordering = ["bot_id", "number"]
        base_manager_name = "with_drafts"
        constraints = [
            models.UniqueConstraint(
                fields=["bot", "number"], condition=~Q(status="draft"),
                name="botversion_unique_number",
            ),
            # one snapshot per text: playing the same draft again reuses it
            models.UniqueConstraint(
                fields=["bot", "sha256"], condition=Q(status="draft"),
                name="botversion_unique_draft",
            ),
            models.CheckConstraint(
                condition=Q(status="draft", number=DRAFT_NUMBER)
                | (~Q(status="draft") & Q(number__gt=DRAFT_NUMBER)),
                name="botversion_draft_number",
            ),
        ]  # fmt: skip

    def __str__(self) -> str:
        return self.label

    @property
    def is_draft(self) -> bool:
        return self.status == self.Status.DRAFT

    @property
    def label(self) -> str:
        return version_label(self.bot.name, self.number)


class BotDraft(models.Model):
    """The workshop's unsubmitted source of a single-file bot: one per bot, so per author (a
    bot has one owner), kept on the server so a reload or another browser loses nothing.
    Submitting it uploads the text as that one file (services/drafts.py)."""

    bot = models.OneToOneField(Bot, on_delete=models.CASCADE, related_name="draft")
    language = models.CharField(max_length=16, help_text="languages table key: python3, node")
    filename = models.CharField(max_length=100, help_text="the file it is submitted as")
    source = models.TextField(blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"draft of {self.bot.name}: {self.filename}"


class League(models.Model):
    class Format(models.TextChoices):
        """The keys of the built-in formats (tournament/formats/builtin.py)."""

        LADDER = "ladder"
        ROUND_ROBIN = "round_robin"
        SWISS = "swiss"
        SINGLE_ELIMINATION = "single_elim"
        DOUBLE_ELIMINATION = "double_elim"
        KNOCKOUT = "knockout"  # multi-table, 3-4 seats

    class LadderOrder(models.TextChoices):
        ELO = "elo"
        CONSERVATIVE = "conservative"

    class Status(models.TextChoices):
        DRAFT = "draft"
        RUNNING = "running"
        PAUSED = "paused"
        CLOSED = "closed"

    name = models.CharField(max_length=100, unique=True)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="leagues"
    )
    mode = models.CharField(max_length=16)
    seats = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict, blank=True)
    # the built-in formats are League.Format; every registered one is a choice
    format = models.CharField(max_length=16, choices=format_choices)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    public = models.BooleanField(default=True)
    decision_time_limit = models.FloatField(default=1.0)
    time_bank = models.FloatField(default=30.0)
    seeds = models.PositiveIntegerField(default=1, help_text="round robin: seeds per table")
    rounds = models.PositiveIntegerField(default=3, help_text="swiss: number of rounds")
    current_round = models.PositiveIntegerField(default=0)
    rated_matches = models.PositiveIntegerField(
        default=0, help_text="rated matches applied so far: the x axis of the rating chart"
    )
    # Its matches that ended, by how: each is counted as it ends (services/matches.py,
    # `league_count_ended`), so the league page reads three numbers instead of counting a
    # history of any length; its queued and running matches, a few at a time, are counted
    matches_finished = models.PositiveIntegerField(default=0)
    matches_failed = models.PositiveIntegerField(default=0)
    matches_cancelled = models.PositiveIntegerField(default=0)
    base_seed = models.BigIntegerField(default=0)
    ladder_order = models.CharField(
        max_length=16, choices=LadderOrder.choices, default=LadderOrder.ELO,
        help_text="what ranks the ladder: Elo, or the conservative OpenSkill rating mu - 3 sigma",
    )  # fmt: skip
    marks_public = models.BooleanField(
        default=False, help_text="everyone sees the bots' marks on their boats (else their owners)"
    )
    # Swiss with points (competition/swiss.py): the points of each place, 1st first (empty:
    # the default for the seats), and what a bye is worth (null: the default for the table)
    points_table = models.JSONField(default=list, blank=True)
    bye_points = models.FloatField(null=True, blank=True)
    # Running an event (services/event_rules.py): it starts by itself at starts_at, takes entries
    # until entry_deadline, and at most max_entrants of them
    starts_at = models.DateTimeField(null=True, blank=True)
    entry_deadline = models.DateTimeField(null=True, blank=True)
    max_entrants = models.PositiveIntegerField(null=True, blank=True)
    all_seat_orders = models.BooleanField(
        default=False, help_text="round robin: every seat order of a table, not its rotations"
    )
    # Solo leagues: "hidden" keeps every match, seed and replay from everyone but staff until
    # the league closes; "author" shows each author their own; "public" shows all at once
    # (tournament/seed_privacy.py)
    seed_privacy = models.CharField(max_length=8, default="public")
    # Ladders of many entrants (competition/division_plan.py): divisions of about this many
    # entrants by rating (0: one ladder), promotion and relegation every division_every rounds
    division_size = models.PositiveIntegerField(default=0)
    division_every = models.PositiveIntegerField(default=10)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "id"]
        permissions = [("organise_leagues", "Can create and run leagues")]

    def __str__(self) -> str:
        return self.name


class LeagueEntry(models.Model):
    """An entrant (a bot version in a league) and its running standing."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="entries")
    bot_version = models.ForeignKey(BotVersion, on_delete=models.PROTECT, related_name="entries")
    rating = models.FloatField(default=1500.0)
    openskill_mu = models.FloatField(default=25.0)
    openskill_sigma = models.FloatField(default=25.0 / 3.0)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    score_sum = models.FloatField(default=0.0)
    margin_sum = models.FloatField(default=0.0)
    last_change = models.FloatField(default=0.0)
    byes = models.PositiveIntegerField(default=0, help_text="swiss: rounds sat out")
    faults = models.PositiveIntegerField(default=0, help_text="rated matches it faulted in")
    placements = models.JSONField(
        default=list, blank=True,
        help_text="times finished 1st, 2nd, ... in rated matches (index 0 is 1st)",
    )  # fmt: skip
    chart = models.JSONField(
        default=dict, blank=True,
        help_text="rating history for the charts, a few hundred points at most "
        "(competition/rating_history.py)",
    )  # fmt: skip
    division = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="ladder divisions: 0 is the top; null: unplaced"
    )
    withdrawn_at = models.DateTimeField(
        null=True, blank=True,
        help_text="removed by the organiser after it played: kept for its results, never "
        "scheduled again (services/events.py)",
    )  # fmt: skip
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league_id", "-rating", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "bot_version"], name="leagueentry_unique_version"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.bot_version} in {self.league}"

    # Means of the counts kept with each rated result (services.ratings); None before a game.
    @property
    def mean_score(self) -> float | None:
        return self.score_sum / self.games if self.games else None

    @property
    def mean_margin(self) -> float | None:
        """Solo: the mean of the score minus the sister's."""
        return self.margin_sum / self.games if self.games else None

    @property
    def mean_rank(self) -> float | None:
        """The mean finishing place (1 is best), from the placement counts."""
        counts = self.placements or []
        played = sum(counts)
        return sum(r * n for r, n in enumerate(counts, start=1)) / played if played else None


class LeagueInvitation(models.Model):
    """A user invited into a (private) league by its organiser: they see it and may enter."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_invitations"
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="leagueinvitation_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} invited to {self.league}"


class Match(models.Model):
    class Kind(models.TextChoices):
        LEAGUE = "league"
        CHALLENGE = "challenge"
        VALIDATION = "validation"
        PAIRED = "paired"  # one game of a paired comparison (unrated)
        TEST = "test"  # an author's test game: private to them and staff, unrated
        # one game of a boss league's promotion run (a paired comparison, unrated): workshop
        # work like a test game, let through the workshop gate (services/workshop_gate.py)
        BOSS = "boss"

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        FINISHED = "finished"
        FAILED = "failed"
        CANCELLED = "cancelled"

    kind = models.CharField(max_length=16, choices=Kind.choices)
    league = models.ForeignKey(
        League, null=True, blank=True, on_delete=models.CASCADE, related_name="matches"
    )
    round = models.PositiveIntegerField(null=True, blank=True)
    mode = models.CharField(max_length=16)
    options = models.JSONField(default=dict, blank=True)
    seed = models.BigIntegerField()
    engine_version = models.CharField(max_length=32, blank=True)
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.QUEUED, db_index=True
    )
    decision_time_limit = models.FloatField(default=1.0)
    time_bank = models.FloatField(default=30.0)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="requested_matches",
    )
    attempts = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    result = models.JSONField(default=dict, blank=True)
    replay_name = models.CharField(max_length=255, blank=True)
    replay_sha256 = models.CharField(max_length=64, blank=True)
    replay_size = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    queued_at = models.DateTimeField(
        default=timezone.now, help_text="when its play task was last sent to the broker"
    )
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(
        null=True, blank=True, help_text="last sign of life of the worker playing it"
    )
    held = models.BooleanField(
        default=False,
        help_text="queued but not sent to the broker: workshop work waiting for the workshop"
        " gate to release it (tournament/services/workshop_gate.py)",
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        # Lists read newest first, whole or by one filter (keyset pages walk these too).
        indexes = [
            models.Index(fields=["league", "status"]),
            # league beside the key: the visible-matches filter of a page read by offset is
            # then answered from the index alone (tournament/paging.py)
            models.Index(fields=["-created_at", "-id"], name="match_newest", include=["league"]),
            models.Index(fields=["league", "-created_at", "-id"], name="match_league_newest"),
            models.Index(fields=["status", "-created_at", "-id"], name="match_status_newest"),
            models.Index(fields=["kind", "-created_at", "-id"], name="match_kind_newest"),
            models.Index(fields=["mode", "-created_at", "-id"], name="match_mode_newest"),
            models.Index(fields=["league", "round"], name="match_league_round"),
        ]

    def __str__(self) -> str:
        return f"match {self.pk} ({self.mode}, {self.status})"


class WorkshopGate(models.Model):
    """The row that every release of workshop work locks (tournament/services/workshop_gate.py),
    so that two releases at once never both see the same free slot; it holds nothing else."""

    def __str__(self) -> str:
        return "the workshop gate"


class MatchSeat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    bot_version = models.ForeignKey(
        BotVersion, on_delete=models.PROTECT, related_name="match_seats"
    )
    bot_sha256 = models.CharField(max_length=64, blank=True)
    score = models.FloatField(null=True, blank=True)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    fault = models.CharField(max_length=32, blank=True)
    fault_detail = models.TextField(blank=True)
    # a timeout's evidence {"cpu", "wall", "wait", "load"}: shown to the bot's owner only, like log
    fault_evidence = models.JSONField(null=True, blank=True)
    bot_seed = models.BigIntegerField(
        null=True, blank=True, help_text="a built-in bot's own seed when not the match seed"
    )
    time_used = models.FloatField(null=True, blank=True)
    log = models.TextField(blank=True)

    class Meta:
        ordering = ["match_id", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="matchseat_unique_seat"),
        ]
        # The bot and bot_version filters of the match lists, and a bot's recent matches.
        indexes = [
            models.Index(fields=["bot_version", "match"], name="matchseat_version_match"),
            # the league page's faults by kind: faulted seats are few, so a partial index
            # finds them without reading every seat of a league (tournament/selectors/events.py)
            models.Index(fields=["match"], name="matchseat_faulted", condition=~models.Q(fault="")),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat} of match {self.match_id}"


class RatingChange(models.Model):
    """One rating update of one entrant by one match; the ladder history is drawn from these."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="rating_changes")
    entry = models.ForeignKey(LeagueEntry, on_delete=models.CASCADE, related_name="rating_changes")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes")
    bot_version = models.ForeignKey(
        BotVersion, on_delete=models.PROTECT, related_name="rating_changes"
    )
    before = models.FloatField()
    after = models.FloatField()
    # OpenSkill beside Elo; null only on changes recorded before OpenSkill (filled by migration)
    mu_before = models.FloatField(null=True, blank=True)
    mu_after = models.FloatField(null=True, blank=True)
    sigma_before = models.FloatField(null=True, blank=True)
    sigma_after = models.FloatField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "bot_version"], name="ratingchange_unique_match_version"
            ),
        ]
        # A league's history in order, and a bot version's (the bot page's charts).
        indexes = [
            models.Index(fields=["league", "id"], name="ratingchange_league_order"),
            models.Index(fields=["bot_version", "id"], name="ratingchange_version_order"),
        ]


class HeadToHead(models.Model):
    """Bot version `subject` against `opponent`: their record over the finished matches of
    one league (league null: over challenge matches), each pair of seats of a match one game
    by rank (competition/head_to_head_tally.py). Counted with each result
    (services/head_to_head.py), so the league and bot pages read a few rows instead of every
    seat of the history; both directions are stored."""

    league = models.ForeignKey(League, null=True, blank=True, on_delete=models.CASCADE,
                               related_name="+")  # fmt: skip
    subject = models.ForeignKey(BotVersion, on_delete=models.CASCADE, related_name="+")
    opponent = models.ForeignKey(BotVersion, on_delete=models.CASCADE, related_name="+")
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    score_diff_sum = models.FloatField(default=0.0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["league", "subject", "opponent"], condition=models.Q(league__isnull=False),
                name="headtohead_unique_league_pair",
            ),
            models.UniqueConstraint(
                fields=["subject", "opponent"], condition=models.Q(league__isnull=True),
                name="headtohead_unique_challenge_pair",
            ),
        ]  # fmt: skip

    def __str__(self) -> str:
        return f"{self.subject_id} vs {self.opponent_id} in league {self.league_id}"


class PairedComparison(models.Model):
    """Is version B stronger than version A? Both play the same deals against the same
    opponents in every seat rotation (the duplicate format), a few seeds at a time, until the
    SPRT on its games (`PairedGame`) decides or the cap is reached; `result` holds the running
    figures. Unrated: it never touches a ladder."""

    class Status(models.TextChoices):
        RUNNING = "running"
        FINISHED = "finished"
        FAILED = "failed"

    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    version_a = models.ForeignKey(BotVersion, on_delete=models.PROTECT, related_name="+")
    version_b = models.ForeignKey(BotVersion, on_delete=models.PROTECT, related_name="+")
    opponents = models.JSONField(default=list, help_text="bot version ids, in seat order")
    mode = models.CharField(max_length=16)
    seats = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict, blank=True)
    seeds = models.PositiveIntegerField(help_text="the cap: seeds the SPRT may play at most")
    # the SPRT (competition/sprt.py): H0 Elo = elo0, H1 Elo = elo1, error rates alpha and beta
    elo0 = models.FloatField(default=0.0)
    elo1 = models.FloatField(default=40.0)
    alpha = models.FloatField(default=0.05)
    beta = models.FloatField(default=0.05)
    scheduled = models.PositiveIntegerField(default=0, help_text="seeds whose games are queued")
    game_kind = models.CharField(
        max_length=16, default=Match.Kind.PAIRED,
        choices=[(kind.value, kind.label) for kind in (Match.Kind.PAIRED, Match.Kind.BOSS)],
        help_text="the kind of its games' matches: paired, or boss for a boss league's"
        " promotion run (workshop work, let through the workshop gate)",
    )  # fmt: skip
    base_seed = models.BigIntegerField(default=0)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.RUNNING)
    result = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"paired comparison {self.pk} ({self.version_a} vs {self.version_b})"


class PairedGame(models.Model):
    """One planned game of a comparison: which seed, which rotation, which arm (A or B)."""

    comparison = models.ForeignKey(PairedComparison, on_delete=models.CASCADE, related_name="games")
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="paired_game")
    seed_index = models.PositiveIntegerField()
    rotation = models.PositiveSmallIntegerField()
    arm = models.CharField(max_length=1)

    class Meta:
        ordering = ["comparison_id", "seed_index", "rotation", "arm"]
        constraints = [
            models.UniqueConstraint(
                fields=["comparison", "seed_index", "rotation", "arm"],
                name="pairedgame_unique_cell",
            ),
        ]


class WorkerHeartbeat(models.Model):
    """A Celery worker's last sign of life, stamped every WORKER_HEARTBEAT_SECONDS by a thread
    of its main process (tournament/worker_heartbeat.py). In the database, because that is the one
    store every process shares on every setup (the embedded default's cache is per process);
    /status, /metrics and the site's banner read it."""

    name = models.CharField(max_length=255, unique=True, help_text="Celery's node name")
    pid = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField()
    beat_at = models.DateTimeField(db_index=True)
    # what it is for (workers.queueing.worker_queues): "match", "periodic", "other"; "" when
    # it never said (then it is not counted as a match worker)
    role = models.CharField(max_length=16, blank=True, default="")
    queues = models.JSONField(default=list, blank=True, help_text="the queues it consumes")
    refused_queues = models.JSONField(
        default=list, blank=True, help_text="queues of bot work it left to others"
    )
    isolation_missing = models.JSONField(
        default=list, blank=True, help_text="required isolation layers its sandbox lacks"
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return f"worker {self.name} (beat {self.beat_at:%H:%M:%S})"


class MatchAnalysis(models.Model):
    """Who was winning a finished match: each seat's chance of winning (with its interval) and
    expected final score at each day's end, by random playouts (replayfile/win_chances.py),
    computed once on request by a worker and kept with the match (``points``, ``blunders``). A
    second request reads this row; only a failed run, or one of an older method
    (``result["version"]``), is computed again."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="analysis")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    playouts = models.PositiveSmallIntegerField(help_text="playouts per point")
    engine_version = models.CharField(max_length=32, blank=True)
    result = models.JSONField(default=dict, blank=True,
                              help_text="replayfile.win_chances.analyse's output")
    seconds = models.FloatField(null=True, blank=True, help_text="wall-clock time of the run")
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["requested_by", "created_at"],
                                name="analysis_requester_time")]

    def __str__(self) -> str:
        return f"analysis of match {self.match_id} ({self.status})"


class SeatReview(models.Model):
    """Where one seat of a finished match lost: each of its decisions judged from its own
    information by playouts (replayfile/decision_review.py), computed once on request by a
    worker and kept per (match, seat, version of the review): a new version of the method
    computes a new row, an old row is shown as it was until then."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seat_reviews")
    seat = models.PositiveSmallIntegerField()
    version = models.PositiveSmallIntegerField(help_text="decision_review.REVIEW_VERSION")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    result = models.JSONField(default=dict, blank=True,
                              help_text="replayfile.decision_review.review_seat's output")
    seconds = models.FloatField(null=True, blank=True, help_text="wall-clock time of the run")
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["match", "seat", "version"],
                                               name="seat_review_once")]
        indexes = [models.Index(fields=["requested_by", "created_at"],
                                name="review_requester_time")]

    def __str__(self) -> str:
        return f"review of seat {self.seat} of match {self.match_id} ({self.status})"


class SeatMarks(models.Model):
    """A seat's annotations of its boat in one match (`marks` in its replies,
    workers/protocol/marks.py): ``steps`` is ``[[step, [mark, ...]], ...]`` with the step's index
    in the
    match's action log. Kept beside the replay, not in it: the replay file is public, and a
    bot's marks are its owner's unless its league makes them public (``League.marks_public``)."""

    seat = models.OneToOneField(MatchSeat, on_delete=models.CASCADE, related_name="bot_marks")
    steps = models.JSONField(default=list)

    def __str__(self) -> str:
        return f"marks of {self.seat}"


# Brackets, seasons and podiums (bracket_models.py) and boss leagues (boss_models.py).
from .boss_models import BossLeagueStanding  # noqa: E402, F401
from .bracket_models import Bracket, BracketGame, BracketSeries, LeaguePlace  # noqa: E402, F401
