"""The site's documents have working links: starting from /docs/protocol/, every link of every
document page is followed (redirects too) and answers 200, every in-page anchor it names
exists on its target, and links that leave the site are https. Documents found on the way are
crawled in turn, so a document linked from the protocol's links is checked as well."""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlparse

import pytest

pytestmark = pytest.mark.django_db

START = "/docs/protocol/"


def _hrefs(html: str) -> list[str]:
    return re.findall(r'href="([^"]*)"', html)


def _ids(html: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', html))


def test_every_link_on_every_docs_page_answers_200(client) -> None:
    pages: dict[str, str] = {}  # path -> html of the pages fetched
    broken: list[str] = []
    todo = [START]
    docs_seen = {START}
    checked: set[str] = set()
    while todo:
        page = todo.pop()
        response = client.get(page, follow=True)
        assert response.status_code == 200, page
        html = response.content.decode()
        pages[page] = html
        for href in _hrefs(html):
            url = urljoin(f"http://testserver{page}", href.replace("&amp;", "&"))
            parsed = urlparse(url)
            if parsed.netloc != "testserver":
                if parsed.scheme != "https":
                    broken.append(f"{page}: {href} (leaves the site without https)")
                continue
            target = parsed.path + (f"?{parsed.query}" if parsed.query else "")
            fragment = parsed.fragment
            key = f"{target}#{fragment}"
            if key in checked:
                continue
            checked.add(key)
            if target not in pages:
                answer = client.get(target, follow=True)
                if answer.status_code != 200:
                    broken.append(f"{page}: {href} -> {answer.status_code}")
                    continue
                if not answer["Content-Type"].startswith("text/html"):
                    pages[target] = ""
                    continue
                pages[target] = answer.content.decode()
            if fragment and pages[target] and fragment not in _ids(pages[target]):
                broken.append(f"{page}: {href} (no #{fragment} on {target})")
            if target.startswith("/docs/") and target not in docs_seen:
                docs_seen.add(target)
                todo.append(target)
    assert "/docs/protocol/#languages" in checked  # in-page anchors are checked too
    assert not broken, "\n".join(broken)
    # The protocol page's links to the CLI, the examples and the schema are among those
    # followed, and lead to pages.
    protocol = pages[START]
    assert 'href="/docs/cli/"' in protocol
    assert 'href="/docs/bot-protocol-examples/"' in protocol
    assert 'href="/api/v1/protocol/schema"' in protocol
    assert {"/docs/cli/", "/docs/bot-protocol-examples/", "/docs/api/"} <= docs_seen


def test_documents_are_named_pages_and_nothing_else(client) -> None:
    cli = client.get("/docs/cli/")
    assert cli.status_code == 200 and "<title>" in cli.content.decode()
    assert client.get("/docs/no-such-document/").status_code == 404
    assert client.get("/docs/bot-protocol/")["Location"] == "/docs/protocol/"
