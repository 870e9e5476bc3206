"""The workshop's draft of a bot in the API: read it, keep a new text, submit it as a version.

Only the bot's owner sees its draft; anyone else, signed in or not, gets 404 as if the bot
had none, so the endpoints reveal nothing (services/drafts.py decides)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import selectors
from ..errors import NotFound
from ..models import BotDraft
from ..services import drafts as draft_services
from . import serializers as s
from .base import found
from .throttles import UploadThrottle
from .uploads import bundle_upload_guard


class DraftOutput(serializers.Serializer):
    bot = serializers.IntegerField(source="bot_id")
    language = serializers.CharField(help_text="the languages table's key: python3 or node")
    filename = serializers.CharField(help_text="the file the draft is submitted as")
    source = serializers.CharField(trim_whitespace=False)
    saved = serializers.SerializerMethodField(
        help_text="false when nothing is saved yet and the text is the latest version's file"
    )
    updated_at = serializers.DateTimeField(allow_null=True, help_text="the last save; null: none")

    def get_saved(self, draft: BotDraft) -> bool:
        return draft.pk is not None


class DraftInput(serializers.Serializer):
    source = serializers.CharField(allow_blank=True, trim_whitespace=False)
    filename = serializers.CharField(
        required=False, max_length=100,
        help_text="the file's name, e.g. bot.py; left out, the draft keeps its name",
    )  # fmt: skip


def _owned_bot(bot_id: int) -> Any:
    return found(selectors.bot_get(bot_id=bot_id), "Bot", bot_id)


class BotDraftApi(APIView):
    # Anyone may ask; the service answers 404 to all but the owner (no 401/403 to tell them).
    permission_classes = [permissions.AllowAny]

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        if request.method == "PUT":  # a draft is at most a single-file bundle's size
            bundle_upload_guard(request)
        super().initial(request, *args, **kwargs)

    @extend_schema(responses=DraftOutput)
    def get(self, request: Request, bot_id: int) -> Response:
        draft = draft_services.draft_for(bot=_owned_bot(bot_id), user=request.user)
        if draft is None:
            raise NotFound(draft_services.NO_DRAFT)
        return Response(DraftOutput(draft).data)

    @extend_schema(request=DraftInput, responses=DraftOutput)
    def put(self, request: Request, bot_id: int) -> Response:
        bot = _owned_bot(bot_id)
        draft_services.draft_for(bot=bot, user=request.user)  # 404 before the fields are read
        data = DraftInput(data=request.data)
        data.is_valid(raise_exception=True)
        draft = draft_services.draft_save(bot=bot, user=request.user, **data.validated_data)
        return Response(DraftOutput(draft).data)


class BotDraftSubmitApi(APIView):
    """The draft becomes a version: throttled as the uploads are, being one."""

    permission_classes = [permissions.AllowAny]
    throttle_classes = [UploadThrottle]

    @extend_schema(request=None, responses={201: s.BotVersionOutput})
    def post(self, request: Request, bot_id: int) -> Response:
        version = draft_services.draft_submit(bot=_owned_bot(bot_id), user=request.user)
        version = selectors.bot_version_get(version_id=version.pk, user=request.user)
        return Response(s.BotVersionOutput(version, context={"request": request}).data, status=201)
