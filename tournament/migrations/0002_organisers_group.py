"""Creates the "organisers" group holding the permission to create and run leagues.

An admin makes a user an organiser by adding them to this group. The permission row is created
here (not left to post_migrate) so the group can reference it in the same migrate run.
"""

from django.db import migrations

GROUP = "organisers"
CODENAME = "organise_leagues"


def create_group(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    content_type, _ = ContentType.objects.get_or_create(app_label="tournament", model="league")
    permission, _ = Permission.objects.get_or_create(
        codename=CODENAME,
        content_type=content_type,
        defaults={"name": "Can create and run leagues"},
    )
    group, _ = Group.objects.get_or_create(name=GROUP)
    group.permissions.add(permission)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
