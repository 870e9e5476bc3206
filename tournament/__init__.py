"""Isle Arena's Django project package, which is also the tournament app.

The Celery app is imported here so that `shared_task` functions bind to it in every Django
process (web, manage.py) and `.delay()` sends them through the configured broker.
"""

from workers.celery_app import app as celery_app

__all__ = ["celery_app"]
