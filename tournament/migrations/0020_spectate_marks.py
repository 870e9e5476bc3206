import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0019_events_swiss_points_schedule"),
    ]

    operations = [
        migrations.AddField(
            model_name="league",
            name="marks_public",
            field=models.BooleanField(
                default=False,
                help_text="everyone sees the bots' marks on their boats (else their owners)",
            ),
        ),
        migrations.CreateModel(
            name="SeatMarks",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                                           verbose_name="ID")),
                ("steps", models.JSONField(default=list)),
                ("seat", models.OneToOneField(
                    on_delete=django.db.models.deletion.CASCADE, related_name="bot_marks",
                    to="tournament.matchseat")),
            ],
        ),
    ]
