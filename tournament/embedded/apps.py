"""App config of the embedded-worker app (a `runserver` that brings its worker)."""

from django.apps import AppConfig


class EmbeddedConfig(AppConfig):
    name = "tournament.embedded"
    label = "embedded_worker"
    verbose_name = "Embedded worker"
