"""The league's counts of ended matches (finished, failed, cancelled) kept in its row, filled
from its matches once here; from now on each match is counted as it ends
(services/matches.py, `league_count_ended`)."""

from django.db import migrations, models
from django.db.models import Count, Q


def backfill(apps, schema_editor):
    League = apps.get_model("tournament", "League")
    Match = apps.get_model("tournament", "Match")
    counted = (
        Match.objects.filter(league__isnull=False)
        .order_by()
        .values("league_id")
        .annotate(
            finished=Count("pk", filter=Q(status="finished")),
            failed=Count("pk", filter=Q(status="failed")),
            cancelled=Count("pk", filter=Q(status="cancelled")),
        )
    )
    leagues = []
    for row in counted:
        leagues.append(League(pk=row["league_id"], matches_finished=row["finished"],
                              matches_failed=row["failed"], matches_cancelled=row["cancelled"]))
    League.objects.bulk_update(
        leagues, ["matches_finished", "matches_failed", "matches_cancelled"], batch_size=500
    )


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0021_images_match_analysis"),
    ]

    operations = [
        migrations.AddField(
            model_name="league",
            name="matches_finished",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="league",
            name="matches_failed",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="league",
            name="matches_cancelled",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
