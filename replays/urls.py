"""URLs of the replays app (viewer and frames endpoint), included by tournament/urls.py at root."""

urlpatterns: list = []
