"""`manage.py storage_init`: create the object store's bucket when STORAGE_URL (or
AWS_STORAGE_BUCKET_NAME) points at one that does not exist yet. Harmless to run again."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tournament.services.object_store import object_store_prepare


class Command(BaseCommand):
    help = "Create the object store's bucket for bot bundles and replays if it is missing."

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            lines = object_store_prepare()
        except Exception as exc:  # botocore's connection and permission errors alike
            raise CommandError(f"the object store is not usable: {exc}") from exc
        for line in lines or ["files are kept on the local disk (no STORAGE_URL)"]:
            self.stdout.write(line)
