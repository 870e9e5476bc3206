"""``python manage.py verify_replays``."""
