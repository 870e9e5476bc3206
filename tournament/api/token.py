"""POST /api/v1/auth/token/: DRF's token login, which also tells the login throttle where the
account logged in from (as the site's login does through `user_logged_in`): under attack,
that address keeps its full allowance (tournament/services/login_throttle.py), so `arena
login` from the author's usual machine is never slowed."""

from __future__ import annotations

from typing import Any

from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request
from rest_framework.response import Response

from ..client_address import client_address
from ..services.login_throttle import login_success_record


class TokenLoginApi(ObtainAuthToken):
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = serializer.validated_data["user"]
        token, _ = Token.objects.get_or_create(user=user)
        login_success_record(username=user.get_username(), address=client_address(request))
        return Response({"token": token.key})
