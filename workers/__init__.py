"""Match workers: the Celery app, tasks, the match runner and the bot sandbox.

Deliberately empty: `workers.sandbox.bot_process` and `workers.runner` must import without Django
or Celery,
so nothing here may import either. The Celery app lives in `workers.queueing.celery_app`.
"""
