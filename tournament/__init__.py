"""Isle Arena's Django project package, which is also the tournament app.

Importing it loads nothing: not Django's settings, not Celery. The Celery app lives in
``workers/queueing/celery_app.py`` and the tasks in ``tournament/tasks.py``, registered when
the app is ready (``TournamentConfig.ready``).
"""
