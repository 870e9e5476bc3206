"""The Celery glue below the Django apps: the Celery application, the queues of matches, the
embedded broker and the embedded worker supervisor. It reads Django's settings but imports no
app of this project: the tasks themselves live in ``tournament/tasks.py``."""
