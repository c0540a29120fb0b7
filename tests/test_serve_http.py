"""`proceedings serve` under issue 19: GET and HEAD only, /forcereload same-origin only, a crashed
rebuild in the browser's banner, a busy port or a missing content folder as a one-line message."""

from __future__ import annotations

import http.client
import socket
import subprocess
import threading
import time
from concurrent.futures import Future

import pytest

from conftest import cli, copy_content
from generator.errors import Diagnostic
from generator.reporter import Reporter
from generator.commands.serve import OffLoop, SiteApp, _guard
from test_serve import free_port


@pytest.fixture
def served(shared_server):
    return shared_server  # the session's one server of the bundled content (conftest.py)


def request(port: int, method: str, path: str = "/", headers: dict | None = None) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request(method, path, headers=headers or {})
    response = connection.getresponse()
    response.body = response.read()
    connection.close()
    return response


def test_head_answers_like_get_without_a_body(served):
    get, head = request(served.port, "GET", "/index.html"), request(served.port, "HEAD", "/index.html")
    assert get.status == head.status == 200 and head.body == b""
    assert b"livereload.js" in get.body  # the reload script is still injected into pages
    assert head.getheader("Content-Type") == "text/html; charset=utf-8"
    assert request(served.port, "HEAD", "/no-such-page.html").status == 404


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH"])
def test_methods_that_change_things_are_not_allowed(served, method):
    response = request(served.port, method, "/index.html")
    assert response.status == 405 and response.getheader("Allow") == "GET, HEAD"


@pytest.mark.parametrize("headers, status", [
    ({"Sec-Fetch-Site": "cross-site"}, 403),
    ({"Origin": "https://evil.example"}, 403),
    ({"Referer": "https://evil.example/page.html"}, 403),
    ({"Sec-Fetch-Site": "same-origin"}, 200),
    ({}, 200),  # no page asked: a tool on this machine
])
def test_forcereload_is_for_this_servers_own_pages(served, headers, status):
    assert request(served.port, "GET", "/forcereload", headers).status == status


def test_forcereload_from_a_page_of_this_server_works(served):
    origin = f"127.0.0.1:{served.port}"
    assert request(served.port, "GET", "/forcereload", {"Referer": f"http://{origin}/index.html",
                                                        "Host": origin}).status == 200


def test_a_crashed_rebuild_shows_in_the_browser_banner():
    class Live:
        files = {"index.html": b"<!DOCTYPE html><html><body><h1>Papers</h1></body></html>"}
        errors: list[Diagnostic] = []

    crashed: Future = Future()  # the rebuild, on its thread, raised
    crashed.set_exception(KeyError("taxonomy"))
    live, reporter, reloads = Live(), Reporter(), []
    _guard(lambda result: None, reporter, live, lambda: reloads.append("/"))(crashed)
    assert reloads == ["/"]
    status, _, body = SiteApp(live).respond("/")
    assert status == "200 OK" and b"rebuild crashed: KeyError" in body and b"proceedings-build-error" in body
    assert reporter.errors[0].message == "rebuild crashed: KeyError: 'taxonomy'"


def run_serve(monkeypatch, *args: str) -> subprocess.CompletedProcess:
    """``serve ARGS`` through the command line's main() in this process, for a serve that must stop before it
    builds: a build, or a server left running, fails the test instead of hanging it (a serve process of its own
    is tests/test_serve.py's)."""
    from generator.commands import serve

    def no_build(*args, **kwargs):
        raise AssertionError("serve went on to build")

    monkeypatch.setattr(serve, "LiveSeries", no_build)
    return cli("serve", *args)


def test_a_busy_port_is_a_one_line_message(tmp_path, monkeypatch):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = run_serve(monkeypatch, "--content", str(copy_content(tmp_path / "content")), "--out",
                           str(tmp_path / "site"), "--port", str(port))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [
        f"error: port {port} is already in use on 127.0.0.1: stop the server using it, "
        f"or choose another port with --port {port + 1}"]


def test_serve_without_its_content_folder_says_so(tmp_path, monkeypatch):
    result = run_serve(monkeypatch, "--content", str(tmp_path / "missing"), "--out", str(tmp_path / "site"),
                       "--port", str(free_port()))
    assert result.returncode == 2 and result.stderr.strip() == f"error: {tmp_path / 'missing'}: no such content folder"


def test_the_server_answers_while_a_rebuild_runs():
    """A rebuild runs off the server's loop (#27: a 3,000-paper rebuild used to leave it mute for 5 s)."""
    from tornado.ioloop import IOLoop

    events, started = [], threading.Event()

    def slow_rebuild() -> str:
        started.set()
        time.sleep(1.0)
        return "rebuilt"

    def shown(outcome: Future) -> None:
        events.append(outcome.result())
        holder[0].stop()

    def serve() -> None:  # a loop of its own, in a thread of its own (another test may leave one running here)
        import asyncio

        asyncio.set_event_loop(asyncio.new_event_loop())
        loop = IOLoop()
        holder.append(loop)
        rebuilds = OffLoop(loop, slow_rebuild, shown)
        loop.add_callback(rebuilds.poke)
        loop.add_callback(rebuilds.poke)  # a second poke while it runs starts nothing
        loop.call_later(0.3, lambda: events.append("a request answered"))
        loop.start()
        rebuilds.close()
        loop.close()

    holder: list = []
    thread = threading.Thread(target=serve)
    thread.start()
    thread.join(20)
    assert started.is_set() and events == ["a request answered", "rebuilt"]


def ask(port: int, path: str, headers: dict) -> int:
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.putrequest("GET", path, skip_host=True)
    for name, value in headers.items():
        connection.putheader(name, value)
    connection.endheaders()
    status = connection.getresponse().status
    connection.close()
    return status


@pytest.mark.parametrize("host, status", [("evil.example:{port}", 403), ("127.0.0.1.evil.example", 403),
                                          ("localhost:{port}", 200), ("127.0.0.1:{port}", 200),
                                          ("[::1]:{port}", 200)])
@pytest.mark.parametrize("path", ["/index.html", "/livereload.js", "/forcereload"])
def test_serve_answers_only_to_its_own_host_name(served, host, status, path):
    """A DNS-rebinding page (its own name resolved to 127.0.0.1) sends its name as Host: refused."""
    assert ask(served.port, path, {"Host": host.format(port=served.port)}) == status


@pytest.mark.parametrize("origin, status", [("http://evil.example", 403), ("http://127.0.0.1:{port}", 101)])
def test_the_reload_socket_is_for_this_servers_own_pages(served, origin, status):
    handshake = {"Host": f"127.0.0.1:{served.port}", "Connection": "Upgrade", "Upgrade": "websocket",
                 "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
                 "Origin": origin.format(port=served.port)}
    assert ask(served.port, "/livereload", handshake) == status
