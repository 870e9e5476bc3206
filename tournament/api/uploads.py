"""The bundle upload limit, enforced before the body is read rather than after.

Under WSGI, Django reads a request body only up to its Content-Length (a body without one reads
as empty), so a declared length over the limit plus the multipart framing is the whole answer:
`bundle_upload_guard` refuses it before anything touches the body, and the upload view calls it
before authentication (a session's CSRF check would otherwise parse the body first).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpResponse, JsonResponse

from ..errors import BundleRejected
from .exceptions import API_PREFIX

# Room for the multipart framing around the file (boundaries, part headers, a long file name).
MULTIPART_OVERHEAD_BYTES = 64 * 1024


def bundle_upload_guard(request: Any) -> None:
    """Raise BundleRejected (too large) when the declared body cannot hold a bundle within
    BOT_UPLOAD_MAX_BYTES; the service checks the exact file size once it is read."""
    django_request = getattr(request, "_request", request)
    try:
        declared = int(django_request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    limit = settings.BOT_UPLOAD_MAX_BYTES
    if declared > limit + MULTIPART_OVERHEAD_BYTES:
        raise BundleRejected.too_large(limit)


class RequestBodyLimitMiddleware:
    """Pages (the site's upload form, the admin) get the same brake as the API: a declared body
    larger than any bundle upload is answered 413 before anything reads it; the CSRF check
    would otherwise parse it in full first. API paths have their own, per-endpoint guards."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: Any) -> Any:
        if not request.path.startswith(API_PREFIX):
            try:
                declared = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                declared = 0
            limit = settings.BOT_UPLOAD_MAX_BYTES + MULTIPART_OVERHEAD_BYTES
            if declared > limit:
                message = BundleRejected.too_large(settings.BOT_UPLOAD_MAX_BYTES).message
                if "application/json" in request.headers.get("Accept", ""):  # the upload script
                    return JsonResponse({"error": message}, status=413)
                return HttpResponse(message, status=413, content_type="text/plain; charset=utf-8")
        return self.get_response(request)
