"""Root URL configuration: admin, health probe, OpenAPI schema, the API, then the site's pages
(website) and the replay viewer (replays)."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularSwaggerView

from tournament.api.schema_views import CachedSchemaView
from tournament.health import healthz, status
from tournament.metrics import metrics

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("status", status, name="status"),
    path("metrics", metrics, name="metrics"),
    path("api/schema/", CachedSchemaView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/v1/", include("tournament.api.urls")),
    path("", include("website.urls")),
    path("", include("replays.urls")),
]

# Unknown or crashing API paths answer in the API's one error body; pages get the site's
# 404.html / 500.html (website/templates), as does 403.html through Django's default handler.
handler404 = "tournament.api.exceptions.not_found"
handler500 = "tournament.api.exceptions.server_error"
