"""WSGI entry point for gunicorn: `gunicorn tournament.wsgi:application`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")

application = get_wsgi_application()
