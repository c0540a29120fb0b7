"""Real-browser fixtures: Debian's chromium driven by Playwright, and a built seed site.

Never downloads a browser: Playwright drives /usr/bin/chromium. Without chromium or
Playwright the browser tests skip, except under CI=true, where they fail.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Iterator

import pytest

from generator.commands.build import build
from generator.reporter import Reporter

from .crawl import crawled  # noqa: F401  (a fixture: one crawl of the site, read by several modules)
from .helpers import watch

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
# What the site will be served with; proves search needs no inline script.
CSP = "script-src 'self'"


HERE = Path(__file__).resolve().parent


@pytest.hookimpl(tryfirst=True)  # before -m deselects, so `-m "not browser"` sees the marker
def pytest_collection_modifyitems(items):
    """Mark every test under tests/browser/ `browser`: the fast lane is `pytest -m "not browser"`."""
    # A conftest's hook sees the whole session's items, not only this folder's.
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.browser)


def unavailable(reason: str):
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}, and CI must run the browser tests")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("Playwright for Python is not installed (pip install playwright; never `playwright install`)")
    if not CHROMIUM.exists():
        unavailable(f"Debian's chromium is not at {CHROMIUM} (apt-get install -y chromium)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    """A fresh page that records script errors (page.errors), requests and failed requests."""
    context = browser.new_context()
    page = watch(context.new_page())
    yield page
    context.close()


@pytest.fixture(scope="session")
def search_site(tmp_path_factory) -> Path:
    """The bundled content built by the real build, once per session."""
    root = tmp_path_factory.mktemp("browser")
    content = root / "content"
    shutil.copytree(REPO / "content", content)
    reporter = Reporter()
    build(content, root / "site", reporter)
    assert not reporter.errors, reporter.errors
    return root / "site"


class _QuietHandler(SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Content-Security-Policy", CSP)
        super().end_headers()

    def send_error(self, code, message=None, explain=None):
        """Like GitHub Pages: a missing page gets the site's 404.html, at whatever depth."""
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, *args):
        pass


@contextlib.contextmanager
def served(folder: Path) -> Iterator[str]:
    """``folder`` over http on 127.0.0.1 (a free port), with a strict CSP; yields its root URL."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def http_root(search_site):
    """The built site over http on 127.0.0.1 (a free port), with a strict CSP."""
    with served(search_site) as url:
        yield url


@pytest.fixture(params=["file", "http"])
def site_url(request, search_site):
    """The site's root URL, from file:// and over http: relative links must work in both."""
    if request.param == "file":
        return search_site.as_uri() + "/"
    return request.getfixturevalue("http_root")


# Fixtures shared by several modules; imported last, since checkers.py uses unavailable() above.
from .checkers import axe, vnu  # noqa: E402,F401
