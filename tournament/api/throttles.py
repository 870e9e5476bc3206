"""Scoped throttles for the expensive requests (bundle uploads, match requests); rates come from
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]. Reads are never throttled."""

from __future__ import annotations

from typing import Any

from rest_framework.throttling import SimpleRateThrottle


class _PostThrottle(SimpleRateThrottle):
    def get_cache_key(self, request: Any, view: Any) -> str | None:
        if request.method != "POST":
            return None
        user = request.user
        ident = user.pk if user and user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class UploadThrottle(_PostThrottle):
    scope = "uploads"


class MatchRequestThrottle(_PostThrottle):
    scope = "matches"
