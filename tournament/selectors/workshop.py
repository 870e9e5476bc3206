"""Reads of the workshop's pages: an author's bots with their drafts and latest versions, the
files of a zip bot, shown read-only, and the opponents the Play button offers."""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.files.storage import storages
from django.db.models import Prefetch

from engine.bots import BUILTIN_BOTS

from ..models import Bot, BotDraft, BotVersion
from .boss_leagues import boss_leagues

SHOWN_TEXT_BYTES = 256 * 1024  # a zip's file longer than this is listed, not shown


@dataclass(frozen=True)
class WorkshopBot:
    """A row of the workshop: the bot, its newest uploaded version and its saved draft."""

    bot: Bot
    latest: BotVersion | None
    draft: BotDraft | None

    @property
    def is_zip(self) -> bool:
        return self.latest is not None and self.latest.bundle_kind == "zip"


@dataclass(frozen=True)
class BundleFile:
    """A file of a zip bundle: its path, its size, and its text when it is short UTF-8."""

    name: str
    size: int
    text: str | None


def workshop_bots(*, user: Any) -> list[WorkshopBot]:
    """The author's own bots that still take versions, drafts first by their last save."""
    uploaded = BotVersion.objects.exclude(bundle_name="").order_by("-number")
    bots = (
        Bot.objects.filter(owner=user, is_system=False, retired=False)
        .select_related("draft")
        .prefetch_related(Prefetch("versions", queryset=uploaded, to_attr="uploaded"))
    )
    rows = [
        WorkshopBot(bot=bot, latest=next(iter(bot.uploaded), None),
                    draft=getattr(bot, "draft", None))  # fmt: skip
        for bot in bots
    ]
    drafted = sorted((row for row in rows if row.draft), key=lambda row: row.draft.updated_at,
                     reverse=True)  # fmt: skip
    return drafted + [row for row in rows if row.draft is None]  # the rest by name


def workshop_bot(*, bot: Bot) -> WorkshopBot:
    uploaded = bot.versions.exclude(bundle_name="").order_by("-number").first()
    return WorkshopBot(bot=bot, latest=uploaded, draft=BotDraft.objects.filter(bot=bot).first())


def play_opponents(*, user: Any) -> list[tuple[str, str]]:
    """(value, label) of what the workshop's Play may seat against the draft: the built-in
    bots by name, a boss with its league ("random (Wood's boss)"), then the author's own
    ready versions by id, by bot and newest first."""
    bosses = {tier.boss: tier.name for tier in boss_leagues().tiers}
    out = [(name, f"{name} ({bosses[name]}'s boss)" if name in bosses else name)
           for name in BUILTIN_BOTS]  # fmt: skip
    mine = (
        BotVersion.objects.filter(bot__owner=user, bot__is_system=False,
                                  status=BotVersion.Status.READY)
        .select_related("bot").order_by("bot__name", "-number")
    )  # fmt: skip
    return out + [(str(version.pk), version.label) for version in mine]


def _text(data: bytes) -> str | None:
    if len(data) > SHOWN_TEXT_BYTES or b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def bundle_files(*, version: BotVersion) -> list[BundleFile]:
    """The files of a zip version as uploaded (checked at upload, so safe to list), in path
    order; an empty list for a single-file version or a bundle missing from storage."""
    if version.bundle_kind != "zip" or not version.bundle_name:
        return []
    try:
        with storages["bots"].open(version.bundle_name, "rb") as stored:
            data = stored.read(settings.BOT_UPLOAD_MAX_BYTES + 1)
    except OSError:
        return []
    files = []
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for info in sorted(archive.infolist(), key=lambda i: i.filename):
            if info.is_dir():
                continue
            shown = info.file_size <= SHOWN_TEXT_BYTES
            text = _text(archive.read(info)) if shown else None
            files.append(BundleFile(name=info.filename, size=info.file_size, text=text))
    return files
