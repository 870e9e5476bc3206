"""Faults count: a version's fault streak and suspension, an entrant's faults, and the fault
rate counted over rated (league) matches only, each filled from history."""

from django.db import migrations, models


def count_from_history(apps, schema_editor):
    """Seats and faulted seats per version over finished league matches, and faults per
    league entry (the matches of its league in which its version faulted)."""
    from django.db.models import Count, Q

    BotVersion = apps.get_model("tournament", "BotVersion")
    LeagueEntry = apps.get_model("tournament", "LeagueEntry")
    MatchSeat = apps.get_model("tournament", "MatchSeat")
    rated = MatchSeat.objects.filter(match__status="finished", match__kind="league")
    totals = (
        rated.values("bot_version_id")
        .annotate(seats=Count("pk"), faults=Count("pk", filter=~Q(fault=""))).order_by()
    )
    by_version = {t["bot_version_id"]: (t["seats"], t["faults"]) for t in totals}
    versions = list(BotVersion.objects.all())
    for version in versions:
        version.seats_finished, version.seats_faulted = by_version.get(version.pk, (0, 0))
    BotVersion.objects.bulk_update(versions, ["seats_finished", "seats_faulted"], batch_size=1000)
    per_entry = (
        rated.exclude(fault="").values("match__league_id", "bot_version_id")
        .annotate(n=Count("match_id", distinct=True)).order_by()
    )
    faults = {(t["match__league_id"], t["bot_version_id"]): t["n"] for t in per_entry}
    entries = list(LeagueEntry.objects.all())
    for entry in entries:
        entry.faults = faults.get((entry.league_id, entry.bot_version_id), 0)
    LeagueEntry.objects.bulk_update(entries, ["faults"], batch_size=1000)


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0013_pages_without_history'),
    ]

    operations = [
        migrations.AddField(
            model_name='botversion',
            name='fault_streak',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name='botversion',
            name='suspended_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='botversion',
            name='suspension_reason',
            field=models.TextField(blank=True),
        ),
        migrations.AddField(
            model_name='leagueentry',
            name='faults',
            field=models.PositiveIntegerField(default=0, help_text='rated matches it faulted in'),
        ),
        migrations.RunPython(count_from_history, migrations.RunPython.noop),
    ]
