"""Root URL configuration: admin, health probe, OpenAPI schema, then the apps' URLs."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from tournament.health import healthz

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/v1/", include("tournament.api.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("replays.urls")),
]

# Unknown or crashing API paths answer in the API's one error body.
handler404 = "tournament.api.exceptions.not_found"
handler500 = "tournament.api.exceptions.server_error"
