"""The "Write a bot" page: linked from the home page and the nav, it offers one starter kit per
language as a zip that is an upload bundle as it is (the workers' own check accepts it; the
C kit holds a static x86-64 executable), the CLI's commands with this server's address, the
protocol's link and the open ladders. A kit is built once per content."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from tournament.models import League
from tournament.services.starter_kits import starter_kits
from workers.sandbox.bundles import validate_bundle

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _data_dir(settings, tmp_path):  # noqa: ANN001, ANN202
    settings.DATA_DIR = tmp_path / "data"


def test_the_page_is_linked_from_home_and_nav_and_lists_every_kit(client, organiser):
    from tournament.services.leagues import league_create, league_open

    ladder = league_create(organiser=organiser, name="Open duel ladder", mode="duel", seats=2,
                           format="ladder")  # fmt: skip
    league_open(league=ladder, user=organiser)
    home = client.get("/").content.decode()
    assert home.count('href="/write-a-bot/"') >= 2  # the nav and the home page's own link
    page = client.get("/write-a-bot/")
    assert page.status_code == 200
    html = page.content.decode()
    for kit in starter_kits():
        assert f'href="/write-a-bot/{kit.slug}.zip"' in html and kit.title in html
    assert {k.slug for k in starter_kits()} == {"python", "javascript", "cpp", "binary"}
    assert 'href="/docs/protocol/"' in html and 'href="/docs/cli/"' in html
    assert "isle-arena login --server http://testserver --username YOU" in html
    assert f'href="/leagues/{ladder.pk}/"' in html
    assert 'isle-arena enter "Open duel ladder" mybot' in html
    assert League.objects.get(pk=ladder.pk).status == League.Status.RUNNING


@pytest.mark.parametrize("slug", ["python", "javascript", "cpp", "binary"])
def test_each_kit_is_an_upload_bundle(client, slug):
    response = client.get(f"/write-a-bot/{slug}.zip")
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/zip"
    filename = f"isle-arena-{slug}-starter.zip"
    assert response["Content-Disposition"] == f'attachment; filename="{filename}"'
    data = response.content
    info = validate_bundle(data, filename)  # the upload's own check, as the server runs it
    manifest = json.loads(zipfile.ZipFile(io.BytesIO(data)).read("bot.json"))
    assert info.language == manifest["language"]
    assert info.entrypoint == manifest["entrypoint"]
    names = set(zipfile.ZipFile(io.BytesIO(data)).namelist())
    assert {"bot.json", "README.md", manifest["entrypoint"]} <= names
    readme = zipfile.ZipFile(io.BytesIO(data)).read("README.md").decode()
    assert f"isle-arena submit {filename} --bot mybot" in readme
    if slug == "binary":
        member = zipfile.ZipFile(io.BytesIO(data)).getinfo("random_bot")
        assert (member.external_attr >> 16) & 0o111  # executable
        assert zipfile.ZipFile(io.BytesIO(data)).read("random_bot")[:4] == b"\x7fELF"
    # The same sources give the same bytes, from the kept copy.
    assert client.get(f"/write-a-bot/{slug}.zip").content == data


def test_an_unknown_kit_is_a_404(client):
    assert client.get("/write-a-bot/cobol.zip").status_code == 404


def test_a_kit_that_cannot_be_built_says_why(client, monkeypatch):
    from tournament.services import starter_kits as kits

    kit = kits.starter_kit_get("binary")
    broken = kits.StarterKit(**{**kit.__dict__, "build": ("no-such-compiler-here", "x.c")})
    monkeypatch.setattr(kits, "starter_kit_get", lambda slug: broken)
    response = client.get("/write-a-bot/binary.zip")
    assert response.status_code == 503
    assert response.content.decode().startswith(
        "The Static binary (C) starter kit cannot be built on this server"
    )


def test_only_running_ladders_the_visitor_may_see_are_offered(client, organiser):
    from tournament.services.leagues import league_create, league_open

    public = league_create(organiser=organiser, name="Open duel ladder", mode="duel", seats=2,
                           format="ladder")  # fmt: skip
    private = league_create(organiser=organiser, name="Staff ladder", mode="duel", seats=2,
                            format="ladder", public=False)  # fmt: skip
    draft = league_create(organiser=organiser, name="Draft ladder", mode="duel", seats=2,
                          format="ladder")  # fmt: skip
    for league in (public, private):
        league_open(league=league, user=organiser)
    html = client.get("/write-a-bot/").content.decode()
    assert f'href="/leagues/{public.pk}/"' in html
    assert "Staff ladder" not in html and "Draft ladder" not in html
    assert draft.status == League.Status.DRAFT


def test_instructions_never_point_into_the_repository(client, settings, author) -> None:
    """The site's instructions offer its own downloads; where a clone is meant, the source's
    address comes from SOURCE_REPOSITORY_URL (and the page asks the operator when unset)."""
    settings.SOURCE_REPOSITORY_URL = ""
    page = client.get("/write-a-bot/").content.decode()
    assert "clone of Isle Arena" not in page and "operator can point you to" in page
    settings.SOURCE_REPOSITORY_URL = "https://git.example.org/isle-arena"
    page = client.get("/write-a-bot/").content.decode()
    assert 'href="https://git.example.org/isle-arena"' in page
    assert "git clone https://git.example.org/isle-arena isle-arena" in page
    client.force_login(author)
    dashboard = client.get("/dashboard/").content.decode()
    assert "examples/" not in dashboard and 'href="/write-a-bot/"' in dashboard
