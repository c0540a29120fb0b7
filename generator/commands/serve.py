"""`proceedings serve`: build, serve from memory, rebuild on change, reload the browser.

MkDocs' shape: a builder callback and a debounced watcher. livereload runs the
server and speaks the reload protocol; the site itself is served from the
``LiveSite``'s in-memory snapshot, so a request sees either the old site or
the new one, never a mix, and no path can reach a file outside the site.
It answers GET and HEAD only (405 otherwise), and reloads browsers on a
request of another site's page never (``/forcereload`` is same-origin only).
"""

from __future__ import annotations

import errno
import html
import ipaddress
import re
import signal
import socket
import mimetypes
import webbrowser
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, Iterable
from urllib.parse import unquote, urlsplit

from generator.errors import ContentError, Diagnostic, ProceedingsError
from generator.pipeline.live import Rebuild
from generator.series.live import LiveSeries
from generator.reporter import Reporter
from generator.commands.watch import Watcher
from generator import diagnostics as codes

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
    """Answers a request path from the live site's snapshot (as WSGI, and for the tornado handler)."""

    def __init__(self, live: LiveSeries):
        self.live = live

    def respond(self, path_info: str) -> tuple[str, list[tuple[str, str]], bytes]:
        """Status line, headers and body for a GET of ``path_info``."""
        files = self.live.files
        name = resolve(path_info)
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
        return status, [("Content-Type", kind), ("Content-Length", str(len(body))), ("Cache-Control", "no-store"),
                        ("X-Content-Type-Options", "nosniff")], body

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD", "GET") not in ALLOWED_METHODS:
            start_response("405 Method Not Allowed", [("Allow", ", ".join(ALLOWED_METHODS)),
                                                      ("Content-Length", "0")])
            return [b""]
        status, headers, body = self.respond(environ.get("PATH_INFO", "/"))
        start_response(status, headers)
        return [b"" if environ.get("REQUEST_METHOD") == "HEAD" else body]


ALLOWED_METHODS = ("GET", "HEAD")


def same_origin(headers: Any, host: str) -> bool:
    """Whether a request comes from a page of this server (or from no page: a tool on this machine).

    Browsers say where a request comes from in ``Sec-Fetch-Site``; older ones in ``Origin`` or
    ``Referer``. A request another site's page makes (an ``<img src>`` to /forcereload) is refused.
    """
    fetch_site = headers.get("Sec-Fetch-Site")
    if fetch_site:
        return fetch_site in ("same-origin", "none")
    source = headers.get("Origin") or headers.get("Referer")
    if source:
        return bool(urlsplit(source).netloc == host)
    return True


_CSP_META = re.compile(rb'<meta http-equiv="Content-Security-Policy"[^>]*>\n?')


def without_csp(page: bytes) -> bytes:
    return _CSP_META.sub(b"", page, count=1)


def with_error_banner(page: bytes, errors: Iterable[Diagnostic]) -> bytes:
    """The last good page, with the build's errors on top (file, line, message)."""
    items = "".join(f"<li><code>{html.escape(str(e))}</code></li>" for e in errors)
    banner = (
        # Sticky: a reloaded page keeps its scroll position, and the banner must be where the reader is.
        '<div id="proceedings-build-error" role="alert" style="position:sticky;top:0;z-index:2147483647;'
        'max-height:50vh;overflow:auto;background:#a4262c;color:#fff;'
        'padding:1rem 1.25rem;font:15px/1.5 system-ui,sans-serif;">'
        "<strong>The last rebuild failed</strong> — showing the last good page. "
        f"Fix this and save:<ul>{items}</ul></div>"
    ).encode("utf-8")
    marker = page.find(b"<body")
    end = page.find(b">", marker) + 1 if marker >= 0 else 0
    return page[:end] + banner + page[end:]


def serve(content_dir: Path, out_dir: Path, host: str, port: int, open_browser: bool,
          reporter: Reporter, base_url: str | None = None) -> int:
    from livereload.handlers import LiveReloadHandler
    from tornado import ioloop

    if not content_dir.is_dir():
        raise ContentError("no such content folder", path=content_dir)
    check_port(host, port)  # before a build that may take a while

    def search_ready(lag: float) -> None:
        reporter.say(f"  search index ready {lag * 1000:.0f} ms after the pages")

    live = LiveSeries(content_dir, out_dir, base_url, on_search_ready=search_ready)
    _report(live.build_all(), reporter)
    watcher = Watcher(live.watched_roots())
    watcher.start()

    def reload() -> None:
        LiveReloadHandler.reload_waiters(path="/")

    def rebuild() -> Rebuild | None:  # on the rebuild thread
        changed = watcher.take(QUIET_PERIOD)
        return live.rebuild(changed) if changed else live.settle()

    def show(result: Rebuild | None) -> None:  # on the server's loop
        if result is not None and result.kinds and result.changed_anything:
            _report(result, reporter)
            reload()

    server = _server(SiteApp(live), host)
    # livereload's own polling watcher is not used: it would reload on our own writes.
    server.watch(str(live.content_dir / ".proceedings-unwatched"), delay="forever")
    rebuilds = OffLoop(ioloop.IOLoop.current(), rebuild, _guard(show, reporter, live, reload))
    ioloop.PeriodicCallback(rebuilds.poke, POLL_INTERVAL * 1000).start()
    url = f"http://{_display_host(host)}:{port}/"
    reporter.say(f"serving {out_dir}/ at {url} (watching {content_dir} and the theme; Ctrl+C stops)")
    if open_browser:
        ioloop.IOLoop.current().call_later(0.5, lambda: webbrowser.open(url))
    loop = ioloop.IOLoop.current()
    signal.signal(signal.SIGTERM, lambda *_: loop.add_callback_from_signal(loop.stop))
    try:
        server.serve(port=port, host=host, debug=False, restart_delay=0)
    except OSError as exc:  # the port was taken between the check and now
        raise _port_error(host, port, exc) from None
    finally:
        watcher.stop()
        rebuilds.close()
        live.close()
    return 0


def check_port(host: str, port: int) -> None:
    """Raise a one-line error when ``host:port`` cannot be listened on (another server has it)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError as exc:
        raise ProceedingsError(f"cannot listen on {host}: {exc.strerror or exc}; check --host") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as tornado listens
        try:
            probe.bind(address)
        except OSError as exc:
            raise _port_error(host, port, exc) from None


def _port_error(host: str, port: int, exc: OSError) -> ProceedingsError:
    if exc.errno == errno.EADDRINUSE:
        return ProceedingsError(f"port {port} is already in use on {host}: stop the server using it, "
                                f"or choose another port with --port {port + 1}")
    return ProceedingsError(f"cannot listen on {host} port {port} ({exc.strerror or exc}); "
                            "choose another with --port or --host")


def allowed_host(header: str, bind_host: str) -> bool:
    """Whether a request's ``Host`` names this server: an IP address, ``localhost``, or the ``--host``
    given. A page of another site whose name was made to resolve to 127.0.0.1 (DNS rebinding) sends its
    own name, and is refused: it could otherwise read the site and trigger reloads."""
    try:
        name = (urlsplit(f"//{header}").hostname or "").rstrip(".")
    except ValueError:
        return False
    if not name:
        return False
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    return name == "localhost" or name.endswith(".localhost") or name == bind_host.lower().strip("[]")


HOST_REFUSED = "this server answers only to its own address (127.0.0.1, localhost or --host)\n"


def _server(site: SiteApp, bind_host: str = "127.0.0.1") -> Any:  # a livereload Server
    """livereload's server, answering the site with ``_SiteHandler`` (GET and HEAD), refusing a request
    whose ``Host`` is not this server's, a ``/forcereload`` that another site's page asks for, and a
    reload socket opened by another site's page."""
    import livereload.server
    from livereload import Server
    from livereload.handlers import ForceReloadHandler, LiveReloadHandler, LiveReloadJSHandler
    from tornado import web

    def refused(handler: Any) -> bool:
        if allowed_host(handler.request.host, bind_host):
            return False
        handler.set_status(403)
        handler.finish(HOST_REFUSED)
        return True

    class SiteHandler(web.RequestHandler):
        SUPPORTED_METHODS = ALLOWED_METHODS  # tornado answers anything else 405

        def get(self) -> None:
            if refused(self):
                return
            status, headers, body = site.respond(self.request.path)
            self.set_status(int(status.split(" ", 1)[0]))
            for name, value in headers:
                if name != "Content-Length":  # tornado counts (and the live script lengthens) the body
                    self.set_header(name, value)
            self.finish(body)  # for HEAD, tornado sends the headers only

        head = get

        def write_error(self, status_code: int, **kwargs: Any) -> None:
            if status_code == 405:
                self.set_header("Allow", ", ".join(ALLOWED_METHODS))
            self.finish(f"{status_code} {self._reason}\n")

    class SameOriginForceReload(ForceReloadHandler):
        def get(self) -> None:
            if refused(self):
                return
            if not same_origin(self.request.headers, self.request.host):
                self.set_status(403)
                self.finish("a reload may only be asked for by a page of this server\n")
                return
            super().get()

    def own_page(handler: Any, origin: str) -> bool:  # livereload's check_origin accepts any page's socket
        return allowed_host(handler.request.host, bind_host) and urlsplit(origin).netloc == handler.request.host

    class OwnHostLiveReloadJS(LiveReloadJSHandler):
        def get(self) -> None:
            if not refused(self):
                super().get()

    class SiteServer(Server):
        def get_web_handlers(self, script):
            return [(r".*", SiteHandler)]

    # Server.application() names the handlers of /forcereload and /livereload.js from its
    # module: ours instead.
    livereload.server.ForceReloadHandler = SameOriginForceReload
    # The reload socket's class is patched, not replaced: commands/serve.py and ForceReloadHandler reload the
    # browsers through it, and livereload keeps its sockets and watcher on it.
    LiveReloadHandler.check_origin = own_page
    livereload.server.LiveReloadJSHandler = OwnHostLiveReloadJS
    return SiteServer()


class OffLoop:
    """Runs ``work`` (a rebuild) on a thread of its own, one at a time, and hands ``then`` its outcome
    (a ``Future``) on the server's loop: while a rebuild runs the server answers with the last good
    site, instead of answering nothing until it is done."""

    def __init__(self, loop: Any, work: Callable[[], object], then: Callable[[Future], None]) -> None:
        self.loop, self.work, self.then = loop, work, then
        self.running = False  # only read and written on the loop
        self.executor = ThreadPoolExecutor(1, thread_name_prefix="rebuild")

    def poke(self) -> None:
        """Start the work unless it is running (changes wait in the watcher meanwhile)."""
        if self.running:
            return
        self.running = True
        future = self.executor.submit(self.work)
        future.add_done_callback(lambda done: self.loop.add_callback(self._done, done))

    def _done(self, future: Future) -> None:
        self.running = False
        self.then(future)

    def close(self) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)


def _guard(show: Callable[[Any], None], reporter: Reporter, live: LiveSeries,
           reload: Callable[[], None]) -> Callable[[Future], None]:
    """A bug in one rebuild must not stop the watcher; it shows in the console and, after
    ``reload``, in the browser's banner."""

    def guarded(outcome: Future) -> None:
        try:
            show(outcome.result())
        except Exception as exc:  # noqa: BLE001 — the server must keep answering
            message = f"rebuild crashed: {type(exc).__name__}: {exc}"
            reporter.error(message, code=codes.REBUILD_FAILED)
            live.errors = [Diagnostic("error", f"{message} (the console has more; save again to retry)",
                                      code=codes.REBUILD_FAILED)]
            reload()

    return guarded


def _report(result: Rebuild, reporter: Reporter) -> None:
    for diagnostic in result.diagnostics:
        reporter.report(diagnostic)
    reporter.say(result.summary())


def _display_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
