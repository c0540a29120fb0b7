"""`proceedings serve`: build, serve from memory, rebuild on change, reload the browser.

MkDocs' shape: a builder callback and a debounced watcher. livereload runs the
server and speaks the reload protocol; the site itself is served from the
``LiveSite``'s in-memory snapshot, so a request sees either the old site or
the new one, never a mix, and no path can reach a file outside the site.
"""

from __future__ import annotations

import html
import re
import signal
import mimetypes
import webbrowser
from pathlib import Path
from typing import Callable, Iterable
from urllib.parse import unquote

from generator.live import LiveSite, Rebuild
from generator.reporter import Reporter
from generator.watch import Watcher

QUIET_PERIOD = 0.1  # seconds without further changes before a burst of saves is rebuilt
POLL_INTERVAL = 0.05


def resolve(path_info: str) -> str | None:
    """Map a request path to a site file name, or None when it could escape the site."""
    try:
        path = path_info.encode("latin-1").decode("utf-8")  # WSGI hands us bytes as latin-1
    except (UnicodeEncodeError, UnicodeDecodeError):
        return None
    path = unquote(path)  # a proxy may pass %2e%2e through undecoded
    if "\\" in path or "\x00" in path:
        return None
    parts = [part for part in path.split("/") if part]
    if any(part in (".", "..") for part in parts):
        return None
    name = "/".join(parts)
    if not name:
        return "index.html"
    return f"{name}/index.html" if path.endswith("/") else name


class SiteApp:
    """A WSGI app answering from the live site's snapshot."""

    def __init__(self, live: LiveSite):
        self.live = live

    def __call__(self, environ, start_response) -> Iterable[bytes]:
        files = self.live.files
        name = resolve(environ.get("PATH_INFO", "/"))
        if name is not None and name not in files and f"{name}/index.html" in files:
            name = f"{name}/index.html"
        if name is None or name not in files:
            status, name = ("403 Forbidden" if name is None else "404 Not Found"), "404.html"
            body = files.get(name, b"<!DOCTYPE html><title>Not found</title><h1>Not found</h1>")
        else:
            status, body = "200 OK", files[name]
        kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
        if kind.startswith("text/") or kind in ("application/javascript", "application/json", "image/svg+xml"):
            kind += "; charset=utf-8"
        if kind.startswith("text/html"):
            body = without_csp(body)  # livereload injects an inline script; the published site keeps its CSP
            if self.live.errors:
                body = with_error_banner(body, self.live.errors)
        start_response(status, [("Content-Type", kind), ("Content-Length", str(len(body))),
                                ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff")])
        return [body]


_CSP_META = re.compile(rb'<meta http-equiv="Content-Security-Policy"[^>]*>\n?')


def without_csp(page: bytes) -> bytes:
    return _CSP_META.sub(b"", page, count=1)


def with_error_banner(page: bytes, errors) -> bytes:
    """The last good page, with the build's errors on top (file, line, message)."""
    items = "".join(f"<li><code>{html.escape(str(e))}</code></li>" for e in errors)
    banner = (
        '<div id="proceedings-build-error" role="alert" style="background:#a4262c;color:#fff;'
        'padding:1rem 1.25rem;font:15px/1.5 system-ui,sans-serif;">'
        f"<strong>The last rebuild failed</strong> — showing the last good page. Fix this and save:<ul>{items}</ul></div>"
    ).encode("utf-8")
    marker = page.find(b"<body")
    end = page.find(b">", marker) + 1 if marker >= 0 else 0
    return page[:end] + banner + page[end:]


def serve(content_dir: Path, out_dir: Path, host: str, port: int, open_browser: bool,
          reporter: Reporter, base_url: str | None = None) -> int:
    from livereload import Server
    from livereload.handlers import LiveReloadHandler
    from tornado import ioloop

    def search_ready(lag: float) -> None:
        reporter.info(f"  search index ready {lag * 1000:.0f} ms after the pages")

    live = LiveSite(content_dir, out_dir, base_url, on_search_ready=search_ready)
    _report(live.build_all(), reporter)
    watcher = Watcher(live.watched_roots())
    watcher.start()

    def tick() -> None:
        changed = watcher.take(QUIET_PERIOD)
        if not changed:
            return
        result = live.rebuild(changed)
        if result.kinds and result.changed_anything:
            _report(result, reporter)
            LiveReloadHandler.reload_waiters(path="/")

    server = Server(app=SiteApp(live))
    # livereload's own polling watcher is not used: it would reload on our own writes.
    server.watch(str(live.content_dir / ".proceedings-unwatched"), delay="forever")
    ioloop.PeriodicCallback(_guard(tick, reporter), POLL_INTERVAL * 1000).start()
    url = f"http://{_display_host(host)}:{port}/"
    reporter.info(f"serving {out_dir}/ at {url} (watching {content_dir} and the theme; Ctrl+C stops)")
    if open_browser:
        ioloop.IOLoop.current().call_later(0.5, lambda: webbrowser.open(url))
    loop = ioloop.IOLoop.current()
    signal.signal(signal.SIGTERM, lambda *_: loop.add_callback_from_signal(loop.stop))
    try:
        server.serve(port=port, host=host, debug=False, restart_delay=0)
    finally:
        watcher.stop()
        live.close()
    return 0


def _guard(tick: Callable[[], None], reporter: Reporter) -> Callable[[], None]:
    """A bug in one rebuild must not stop the watcher."""

    def guarded() -> None:
        try:
            tick()
        except Exception as exc:  # noqa: BLE001 — the server must keep answering
            reporter.error(f"rebuild crashed: {type(exc).__name__}: {exc}")

    return guarded


def _report(result: Rebuild, reporter: Reporter) -> None:
    for diagnostic in result.diagnostics:
        reporter.report(diagnostic)
    reporter.info(result.summary())


def _display_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
