"""`proceedings serve` on a series, in Chromium (issue 26): the open page reloads after an edit to a
volume, with no Content-Security-Policy error (the archive's own server used to send its CSP, which
blocked livereload's inline script), and a broken page of a volume shows in the banner."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from .helpers import TIMEOUT

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from series_fixtures import make_series  # noqa: E402
from test_serve import Served  # noqa: E402


@pytest.fixture
def served(tmp_path):
    content = make_series(tmp_path)
    server = Served(content, tmp_path / "site")
    yield server, content
    server.stop()


@pytest.mark.parametrize("path", ["index.html", "2023/index.html"])
def test_an_edit_to_a_volume_reloads_the_open_page_with_no_csp_error(page, served, path):
    server, content = served
    messages: list[str] = []
    page.on("console", lambda message: messages.append(message.text))
    page.goto(server.url + path)
    page.wait_for_function("() => window.LiveReload !== undefined", timeout=TIMEOUT)
    page.wait_for_timeout(1500)  # the socket opens; a reload the first build's settling asks for comes and goes
    source = content / "2023" / "workshop.jsonl"
    record = {"id": "n-7", "title": "Reloaded Before Your Eyes", "authors": ["Ada Lovelace"], "abstract": "Live."}
    source.write_text(source.read_text(encoding="utf-8") + json.dumps(record) + "\n", encoding="utf-8")
    wanted = "Reloaded Before Your Eyes" if path == "2023/index.html" else "6 papers"
    assert shown_after_reload(page, wanted), f"the open page never showed {wanted!r}"
    assert not [m for m in messages if "Content Security Policy" in m or "Refused" in m], messages
    assert not page.errors, page.errors


def test_a_broken_page_of_a_volume_shows_in_the_banner(page, served):
    server, content = served
    page.goto(server.url + "index.html")
    page.wait_for_function("() => window.LiveReload !== undefined", timeout=TIMEOUT)
    page.wait_for_timeout(1500)  # as above: the first build's settling may reload the page (a banner shown before goes)
    broken = next((content / "2021" / "papers").glob("*.md"))
    broken.write_text("---\ntitle: [never closed\n---\n", encoding="utf-8")
    page.wait_for_selector("#proceedings-build-error", timeout=30_000)
    assert f"2021/papers/{broken.name}" in page.inner_text("#proceedings-build-error")


def shown_after_reload(page, text: str, seconds: float = 30) -> bool:
    """Whether the open page (reloaded by the server, never by the test) comes to show ``text``."""
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if text in page.content():
                return True
        except Exception:  # noqa: BLE001 — the page is between two documents while it reloads
            pass
        time.sleep(0.3)
    return False
