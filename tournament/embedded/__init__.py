"""A tiny app whose only job is to start the embedded background worker beside `runserver`.

It comes first in INSTALLED_APPS so that its `runserver` command wins over the ones of
whitenoise and staticfiles (it extends them; see management/commands/runserver.py).
"""
