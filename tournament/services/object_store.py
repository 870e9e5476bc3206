"""Make the object store ready: create the bucket of each S3 file storage if it is missing.

Run once per deployment before the web and workers start (`manage.py storage_init`, which the
compose web service runs before migrating). A folder storage needs nothing: it is created on
first write.
"""

from __future__ import annotations

from django.conf import settings
from django.core.files.storage import storages

from ..storage_config import uses_object_store


def object_store_prepare() -> list[str]:
    """Create missing buckets; returns a line per S3 storage saying what was done."""
    from botocore.exceptions import ClientError  # noqa: PLC0415 - boto only with S3 storage

    lines = []
    for alias in settings.FILE_STORAGES:
        if not uses_object_store(settings.STORAGES, alias):
            continue
        storage = storages[alias]
        client = storage.connection.meta.client
        bucket = storage.bucket_name
        try:
            client.head_bucket(Bucket=bucket)
            lines.append(f"{alias}: bucket {bucket} is there (prefix {storage.location}/)")
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") not in {"404", "NoSuchBucket"}:
                raise
            client.create_bucket(Bucket=bucket)
            lines.append(f"{alias}: bucket {bucket} created (prefix {storage.location}/)")
    return lines
