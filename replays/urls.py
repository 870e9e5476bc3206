"""URLs of the replays app (viewer and frames endpoint), included by tournament/urls.py at root."""

from django.urls import path
from django.views.generic import RedirectView

from tournament.get_only import get_only
from tournament.page_cache import cached_page

from . import api, image_views, views

app_name = "replays"

urlpatterns = [
    # anonymous downloads come from the page cache (tournament/page_cache.py)
    path("api/v1/matches/<int:match_id>/replay", cached_page(api.replay_download), name="replay"),
    path("api/v1/matches/<int:match_id>/frames", api.replay_frames, name="frames"),
    path("api/v1/matches/<int:match_id>/marks", api.match_marks, name="marks"),
    path("api/v1/replays/frames", api.uploaded_replay_frames, name="upload-frames"),
    path("replays/<int:match_id>/", get_only(views.replay_viewer), name="viewer"),
    path("replays/file/", get_only(views.replay_file_viewer), name="file-viewer"),
    # pictures of a match, drawn on the server (replayfile/images.py)
    path("matches/<int:match_id>/step/<int:step>.png", get_only(image_views.match_step_png),
         name="step-png"),
    path("matches/<int:match_id>/summary.gif", get_only(image_views.match_summary_gif),
         name="summary-gif"),
]

# The spectator pages moved to the website app (website/urls.py, mounted first at the same
# addresses). These names stay so templates that still say replays:league etc. reverse to the
# same URLs; a request never reaches them.
urlpatterns += [
    path("", RedirectView.as_view(pattern_name="website:home"), name="home"),
    path("leagues/", RedirectView.as_view(pattern_name="website:leagues"), name="leagues"),
    path("leagues/<int:league_id>/", RedirectView.as_view(pattern_name="website:league"),
         name="league"),
    path("matches/", RedirectView.as_view(pattern_name="website:matches"), name="matches"),
    path("bots/<int:bot_id>/", RedirectView.as_view(pattern_name="website:bot"), name="bot"),
    # docs/replay-format.md as the site serves it (website/views/docs.py)
    path("docs/replay-format/", RedirectView.as_view(pattern_name="website:doc"),
         {"name": "replay-format"}, name="format"),
]
