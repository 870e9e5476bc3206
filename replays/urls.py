"""URLs of the replays app (viewer and frames endpoint), included by tournament/urls.py at root."""

from django.urls import path
from django.views.generic import RedirectView

from . import api, pages, views

app_name = "replays"

urlpatterns = [
    # The site's front door is the list of leagues (ladders, then matches and replays).
    path("", RedirectView.as_view(pattern_name="replays:leagues"), name="home"),
    path("api/v1/matches/<int:match_id>/replay", api.replay_download, name="replay"),
    path("api/v1/matches/<int:match_id>/frames", api.replay_frames, name="frames"),
    path("api/v1/replays/frames", api.uploaded_replay_frames, name="upload-frames"),
    path("replays/<int:match_id>/", views.replay_viewer, name="viewer"),
    path("replays/file/", views.replay_file_viewer, name="file-viewer"),
    path("leagues/", pages.league_list, name="leagues"),
    path("leagues/<int:league_id>/", pages.league_detail, name="league"),
    path("matches/", pages.match_list, name="matches"),
    path("bots/<int:bot_id>/", pages.bot_detail, name="bot"),
]
