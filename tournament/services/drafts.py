"""Drafts of the workshop: the source of a single-file bot (Python, JavaScript) edited in the
page and kept on the server, one per bot, until its author submits it as a new version.

Only the bot's owner may read or write its draft; to anyone else the draft does not exist
(``NotFound``, never ``PermissionDenied``), so the API and the pages answer 404 and reveal
nothing. Submitting uploads the text as that one file through `bot_version_upload`, so a draft
becomes exactly the version an upload of the same file would make: the same checks, limits,
storage and validation match.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.files.storage import storages
from django.db import transaction

from workers.sandbox import bundles

from ..errors import NotFound, ValidationFailed, size_text
from ..models import Bot, BotDraft, BotVersion
from ..page_cache import unseen_writes
from . import bots as bot_services
from .starter_kits import EXAMPLES, StarterKit, starter_kit_get, starter_kits

NO_DRAFT = "This bot has no draft: start one in the workshop."
BAD_NAME = (
    "The file name {name!r} is not one the workshop can edit: it needs a letter, digit or _ "
    "first, only letters, digits, _ . - after, and the ending of a single-file language "
    "({suffixes})."
)
TOO_LARGE = "The draft is too large: the limit is {limit}."
NOT_EDITABLE_KIT = "The {title} starter kit is more than one file: download its zip instead."


def _owned(bot: Bot, user: Any) -> None:
    """NotFound unless ``user`` owns ``bot``: the owner's drafts do not exist for others."""
    if bot.is_system or not getattr(user, "is_authenticated", False) or bot.owner_id != user.pk:
        raise NotFound(f"Bot {bot.pk} has no draft you can see.")


def _suffixes() -> str:
    files, _ = bundles.upload_formats()
    return ", ".join(files)


def draft_language(filename: str) -> str:
    """The language of a draft named ``filename``, or ValidationFailed naming what may be."""
    language = bundles.single_file_language(filename)
    if language is None or not bundles.safe_file_name(filename):
        raise ValidationFailed(
            BAD_NAME.format(name=filename, suffixes=_suffixes()), fields={"filename": ["bad name"]}
        )
    return language


def _check_size(source: str) -> bytes:
    data = source.encode("utf-8")
    limit = settings.BOT_UPLOAD_MAX_BYTES  # the single-file bundle's limit: a draft is one
    if len(data) > limit:
        raise ValidationFailed(
            TOO_LARGE.format(limit=size_text(limit)), fields={"source": ["too large"]}
        )
    return data


def latest_version(bot: Bot) -> BotVersion | None:
    return bot.versions.exclude(bundle_name="").order_by("-number").first()


def _from_version(bot: Bot, version: BotVersion) -> BotDraft | None:
    """An unsaved draft holding a single-file version's source, or None for a zip, a file
    that is not UTF-8 text or one missing from storage."""
    if version.bundle_kind == "zip" or bundles.single_file_language(version.bundle_name) is None:
        return None
    try:
        with storages["bots"].open(version.bundle_name, "rb") as stored:
            source = stored.read(settings.BOT_UPLOAD_MAX_BYTES + 1).decode("utf-8")
    except (OSError, UnicodeDecodeError):  # gone from storage, or not text: nothing to edit
        return None
    entry = version.manifest.get("entrypoint") or f"bot.{version.bundle_kind}"
    filename = entry if bundles.safe_file_name(entry) else f"bot.{version.bundle_kind}"
    return BotDraft(bot=bot, language=draft_language(filename), filename=filename, source=source)


def draft_for(*, bot: Bot, user: Any) -> BotDraft | None:
    """The owner's draft of ``bot``: the saved one, else (unsaved) the source of its latest
    version when that is a single file, else None (no version yet, or a zip bot)."""
    _owned(bot, user)
    draft = BotDraft.objects.filter(bot=bot).first()
    if draft is not None:
        return draft
    version = latest_version(bot)
    return _from_version(bot, version) if version is not None else None


def draft_save(*, bot: Bot, user: Any, source: str, filename: str | None = None) -> BotDraft:
    """Keep ``source`` as the bot's draft. Without ``filename`` the draft keeps its file name
    (or that of the latest version's file)."""
    _owned(bot, user)
    _check_size(source)
    if filename is None:
        current = draft_for(bot=bot, user=user)
        if current is None:
            raise ValidationFailed(
                "Name the draft's file (for example bot.py).", fields={"filename": ["required"]}
            )
        filename = current.filename
    language = draft_language(filename)
    # no cached page shows a draft: an autosave every few seconds must not empty the cache
    with unseen_writes():
        draft, _ = BotDraft.objects.update_or_create(
            bot=bot, defaults={"language": language, "filename": filename, "source": source}
        )
    return draft


def editable_kits() -> list[StarterKit]:
    """The starter kits whose entry point is a single file the workshop can edit."""
    return [kit for kit in starter_kits() if bundles.single_file_language(kit.entrypoint)]


def _kit_source(slug: str) -> tuple[str, str]:
    kit = starter_kit_get(slug)
    if bundles.single_file_language(kit.entrypoint) is None:
        raise ValidationFailed(NOT_EDITABLE_KIT.format(title=kit.title), fields={"kit": ["zip"]})
    return kit.entrypoint, (EXAMPLES / kit.files[kit.entrypoint]).read_text(encoding="utf-8")


def draft_from_kit(*, bot: Bot, user: Any, kit: str) -> BotDraft:
    """Replace the bot's draft by the entry point of the starter kit ``kit`` ("python")."""
    _owned(bot, user)
    filename, source = _kit_source(kit)
    return draft_save(bot=bot, user=user, source=source, filename=filename)


def workshop_start(*, owner: Any, name: str, kit: str) -> Bot:
    """A new bot whose draft is the starter kit ``kit``'s entry point: an author's first
    step in the workshop."""
    _kit_source(kit)  # an unknown or zip-only kit is refused before the bot is made
    with transaction.atomic():
        bot = bot_services.bot_create(owner=owner, name=name)
        draft_from_kit(bot=bot, user=owner, kit=kit)
    return bot


def draft_submit(*, bot: Bot, user: Any, source: str | None = None) -> BotVersion:
    """Make the draft a new version, exactly as uploading its text as that file would; with
    ``source`` (the page's form, which posts the editor's text) that text is saved first. The
    draft stays, so the author goes on editing from what was submitted."""
    _owned(bot, user)
    if source is not None:
        draft_save(bot=bot, user=user, source=source)
    draft = BotDraft.objects.filter(bot=bot).first()
    if draft is None:
        raise NotFound(NO_DRAFT)
    return bot_services.bot_version_upload(
        bot=bot, user=user, filename=draft.filename, data=draft.source.encode("utf-8")
    )
