"""Which backend the named file storages use: the local disk, or an S3-compatible object store.

Bot bundles, replays and other stored files are reached only through Django's storages API,
under the names in ``FILE_STORAGES``. On one machine they live under folders of DATA_DIR.
Across hosts they must live in an object store that every web and worker process reaches:

* ``STORAGE_URL=s3://BUCKET?endpoint_url=http://minio:9000&region_name=us-east-1`` (keys in the
  URL's user part, ``s3://KEY:SECRET@BUCKET?...``, or in AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY);
* or, without STORAGE_URL, the usual ``AWS_STORAGE_BUCKET_NAME`` (with ``AWS_S3_ENDPOINT_URL``,
  ``AWS_S3_REGION_NAME`` ...), which django-storages reads itself.

Each named storage keeps its files under its own prefix of the bucket (``bots/``,
``replays/``), so one bucket serves them all. Pure functions: settings.py calls them.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

S3_BACKEND = "storages.backends.s3.S3Storage"
DISK_BACKEND = "django.core.files.storage.FileSystemStorage"

# Query parameters of STORAGE_URL passed to the S3 backend as they are (django-storages'
# option names); anything else is a configuration error rather than silently ignored.
S3_URL_OPTIONS = {
    "endpoint_url": str,
    "region_name": str,
    "addressing_style": str,
    "signature_version": str,
    "custom_domain": str,
    "url_protocol": str,
    "default_acl": str,
    "use_ssl": "bool",
    "verify": "bool",
    "querystring_auth": "bool",
    "location": str,  # a prefix inside the bucket above the per-storage prefixes
}


class StorageConfigError(ValueError):
    """STORAGE_URL cannot be understood; the message says why."""


def _bool(name: str, raw: str) -> bool:
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise StorageConfigError(f"STORAGE_URL: {name}={raw!r} is not a boolean (use 1 or 0)")


def s3_options_from_url(url: str) -> dict[str, Any]:
    """django-storages S3 options from ``s3://[KEY:SECRET@]BUCKET[/PREFIX]?option=value``."""
    parts = urlsplit(url)
    if parts.scheme != "s3":
        raise StorageConfigError(f"STORAGE_URL must start with s3:// (got {url!r})")
    bucket = parts.hostname
    if not bucket:
        raise StorageConfigError("STORAGE_URL names no bucket: use s3://BUCKET?endpoint_url=...")
    options: dict[str, Any] = {"bucket_name": bucket}
    if parts.username:
        options["access_key"] = unquote(parts.username)
        options["secret_key"] = unquote(parts.password or "")
    prefix = parts.path.strip("/")
    for key, raw in parse_qsl(parts.query, keep_blank_values=True):
        kind = S3_URL_OPTIONS.get(key)
        if kind is None:
            known = ", ".join(sorted(S3_URL_OPTIONS))
            raise StorageConfigError(f"STORAGE_URL: unknown option {key!r} (known: {known})")
        if key == "location":
            prefix = "/".join(p for p in (prefix, raw.strip("/")) if p)
        else:
            options[key] = _bool(key, raw) if kind == "bool" else raw
    if prefix:
        options["location"] = prefix
    # MinIO and moto answer path-style requests (http://host:9000/bucket/key) whatever their
    # DNS; AWS itself accepts both, so path style is the default unless the URL says otherwise.
    if "endpoint_url" in options:
        options.setdefault("addressing_style", "path")
    # Files are fetched by the server (workers, the web's streaming), never by signed URLs.
    options.setdefault("querystring_auth", False)
    return options


def file_storages(
    *,
    storage_url: str,
    aws_bucket: str,
    roots: Mapping[str, Path],
    aws_location: str = "",
) -> dict[str, dict[str, Any]]:
    """The STORAGES entries of the named file storages (``roots``: alias -> local folder).

    With an object store every alias becomes an S3 storage with the prefix ``<alias>/``
    (below the URL's own prefix, if any); otherwise a folder on the local disk.
    """
    if storage_url:
        base = s3_options_from_url(storage_url)
    elif aws_bucket:
        # django-storages reads AWS_STORAGE_BUCKET_NAME & co. from the settings; only the
        # prefix is set here, as AWS_LOCATION/<alias>.
        base = {"location": aws_location.strip("/")} if aws_location.strip("/") else {}
    else:
        return {
            alias: {"BACKEND": DISK_BACKEND, "OPTIONS": {"location": str(root)}}
            for alias, root in roots.items()
        }
    out = {}
    for alias in roots:
        options = dict(base)
        outer = options.get("location", "")
        options["location"] = f"{outer}/{alias}" if outer else alias
        options.setdefault("file_overwrite", True)
        out[alias] = {"BACKEND": S3_BACKEND, "OPTIONS": options}
    return out


def uses_object_store(storages: Mapping[str, Mapping[str, Any]], alias: str) -> bool:
    return storages.get(alias, {}).get("BACKEND") == S3_BACKEND
