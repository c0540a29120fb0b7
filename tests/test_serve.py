"""`proceedings serve` over real HTTP: edits show up, errors never stop it, paths stay inside."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from conftest import REPO

TIMEOUT = 20  # generous: a loaded CI machine may be slow; speed is measured in bench/


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8", "replace")


def wait_for(predicate, what: str):
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    pytest.fail(f"after {TIMEOUT} s: {what}")


class Served:
    def __init__(self, content: Path, out: Path):
        self.content = content
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.log = out.parent / "serve.log"
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "generator", "serve", "--content", str(content), "--out", str(out),
             "--port", str(self.port)],
            stdout=self.log.open("w"), stderr=subprocess.STDOUT, env=env)
        try:
            wait_for(lambda: self._answers(), "the server never answered")
        except BaseException:  # pytest.fail included: a server that never answered must not outlive the test
            self.stop()
            raise

    def _answers(self) -> bool:
        if self.process.poll() is not None:
            pytest.fail(f"the server exited: {self.output()}")
        if "Serving on" not in self.output():  # our server, not another on a recycled port
            return False
        try:
            return get(self.url)[0] == 200
        except OSError:
            return False

    def page(self, path: str) -> str:
        status, body = get(self.url + path)
        assert status == 200, f"{path} answered {status}"
        return body

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8")

    def stop(self):
        self.process.terminate()
        self.process.wait(10)


@pytest.fixture
def served(seed_content, tmp_path):
    server = Served(seed_content, tmp_path / "site")
    yield server
    server.stop()


@pytest.fixture
def shared(shared_server):
    """The session's one server of the bundled content (``conftest.shared_server``): the tests that only ask it,
    and those that edit a page no other test edits and read what that edit made (leaving it served, or mended)."""
    return shared_server


def papers(served) -> list[dict]:
    return json.loads(served.page("papers.json"))


def first_page(content: Path) -> Path:
    return sorted((content / "papers").glob("*.md"))[0]


def replace_in(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_listens_on_loopback_and_says_where(shared):
    assert f"at http://127.0.0.1:{shared.port}/" in shared.output()


def test_edited_title_reaches_the_served_page(shared):
    page = first_page(shared.content)
    slug, printed = page.stem, len(shared.output())
    replace_in(page, "title: ", "title: 'Edited live: ' # ")
    wait_for(lambda: "Edited live:" in shared.page(f"papers/{slug}.html"), "the edited title was never served")
    assert "Edited live:" in shared.page("index.html")
    wait_for(lambda: "rebuilt (paper page)" in shared.output()[printed:], "no rebuild line was printed")


@pytest.mark.slow  # a serve process of its own
def test_appended_abstract_gets_its_pages(served, seed_content):
    with (seed_content / "neurips-2026.txt").open("a", encoding="utf-8") as handle:
        handle.write("\n\nWe introduce Quokka, a marsupial-inspired optimizer for sparse attention.\n")
    new = wait_for(lambda: next((p for p in papers(served) if "Quokka" in p["title"]), None),
                   "the appended abstract never appeared in papers.json")
    assert "Quokka" in served.page(new["url"])
    assert any("quokka" in p.name for p in (seed_content / "papers").glob("*.md"))


def test_broken_front_matter_shows_an_error_and_recovers(shared):
    page = sorted((shared.content / "papers").glob("*.md"))[1]  # not the page the edited title's test edits
    good = page.read_text(encoding="utf-8")
    replace_in(page, "order:", "order: [")
    body = wait_for(lambda: (lambda b: b if "The last rebuild failed" in b else None)(shared.page("index.html")),
                    "the browser was never shown the build error")
    assert f"papers/{page.name}:" in body and "invalid YAML" in body
    assert shared.page(f"papers/{page.stem}.html")  # the last good page is still served
    page.write_text(good, encoding="utf-8")
    wait_for(lambda: "The last rebuild failed" not in shared.page("index.html"), "fixing the file did not recover")


@pytest.mark.slow  # a serve process of its own (test_theme serves an edited override in the fast lane)
def test_template_change_reaches_every_page(served, seed_content):
    default = (REPO / "themes" / "default" / "templates" / "base.html").read_text(encoding="utf-8")
    templates = seed_content / "theme" / "templates"
    templates.mkdir(parents=True)
    (templates / "base.html").write_text(default.replace("</footer>", "<p>theme-edit</p></footer>"), encoding="utf-8")
    wait_for(lambda: "theme-edit" in served.page("index.html"), "the template change never showed")
    for paper in papers(served):
        assert "theme-edit" in served.page(paper["url"])


@pytest.mark.slow  # a serve process of its own
def test_livereload_client_is_told_to_reload(served, seed_content):
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from tornado import websocket

    async def listen() -> dict:
        connection = await websocket.websocket_connect(f"ws://127.0.0.1:{served.port}/livereload")
        connection.write_message(json.dumps({"command": "hello", "protocols": ["http://livereload.com/protocols/official-7"]}))
        await connection.read_message()
        connection.write_message(json.dumps({"command": "info", "url": served.url}))
        replace_in(first_page(seed_content), "title: ", "title: 'Reload me: ' # ")
        while True:
            message = json.loads(await connection.read_message())
            if message.get("command") == "reload":
                return message

    # A thread of its own: the browser tests' Playwright may own this thread's event loop.
    with ThreadPoolExecutor(1) as pool:
        message = pool.submit(lambda: asyncio.run(asyncio.wait_for(listen(), TIMEOUT))).result()
    assert message["command"] == "reload"


def raw_status(port: int, target: str) -> int:
    """Send a request line exactly as written (no client-side normalising of ../)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    assert b"root:" not in reply and b"BEGIN" not in reply
    return int(reply.split(b" ", 2)[1])


@pytest.mark.parametrize("target", [
    "/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/papers/..%2f..%2f..%2fetc%2fpasswd",
    "/%252e%252e/etc/passwd", "/..\\..\\etc\\passwd", "/%00/etc/passwd",
])
def test_paths_outside_the_site_are_refused(shared, target):
    assert raw_status(shared.port, target) in (400, 403, 404)


@pytest.mark.slow  # a serve process of its own
def test_a_symlink_out_of_the_theme_is_not_served(seed_content, tmp_path):
    static = seed_content / "theme" / "static"
    static.mkdir(parents=True)
    secret = tmp_path / "secret.txt"
    secret.write_text("BEGIN SECRET")
    (static / "leak.txt").symlink_to(secret)
    server = Served(seed_content, tmp_path / "site")
    try:
        assert raw_status(server.port, "/assets/leak.txt") == 404
        assert not (tmp_path / "site" / "assets" / "leak.txt").exists()
    finally:
        server.stop()


def test_undoing_a_broken_edit_clears_the_banner_and_reloads(seed_content, tmp_path):
    """Back to the last good text, nothing is written, yet the browser must reload to lose the banner."""
    from generator.pipeline.live import LiveSite

    live = LiveSite(seed_content, tmp_path / "site")
    live.build_all()
    config = seed_content / "proceedings.yaml"
    good = config.read_text(encoding="utf-8")
    config.write_text(good + "\ntitle: [\n", encoding="utf-8")
    broken = live.rebuild({config.resolve()})
    assert broken.failed and live.errors and broken.changed_anything
    config.write_text(good, encoding="utf-8")
    undone = live.rebuild({config.resolve()})
    assert live.errors == [] and undone.written == 0
    assert undone.cleared and undone.changed_anything  # so serve reloads the browser


def test_undoing_a_broken_page_serves_the_site_it_broke(seed_content, tmp_path):
    """A page that does not parse (a front matter half typed) keeps its last good paper while it is broken:
    no list moves and nothing is rendered again (issue 29: at 10,000 papers it re-rendered 10,750 files,
    twice); back to its good text, the served site is byte for byte the one before the edit."""
    from generator.pipeline.live import LiveSite

    live = LiveSite(seed_content, tmp_path / "site")
    live.build_all()
    live.wait_for_search()
    before = dict(live.files)
    page = first_page(seed_content)
    good = page.read_text(encoding="utf-8")
    page.write_text(good.replace("order:", "order: [", 1), encoding="utf-8")
    broken = live.rebuild({page.resolve()})
    live.wait_for_search()
    assert live.errors and broken.changed_anything
    name = "papers/{}.html".format(re.search(r"^slug: (\S+)$", good, re.MULTILINE).group(1))
    assert live.files[name] == before[name]  # the broken page's own address still answers
    assert live.files == before and broken.rendered == 0, broken.summary()  # …and every list still shows it
    assert any("as it was until the page parses again" in d.message for d in broken.diagnostics)
    page.write_text(good, encoding="utf-8")
    undone = live.rebuild({page.resolve()})
    live.wait_for_search()
    assert live.errors == [] and undone.cleared and undone.rendered == 0, undone.summary()
    assert live.files == before


def test_a_broken_page_mended_with_a_new_title_renders_only_what_shows_it(seed_content, tmp_path):
    """Broken, then mended with another title: the mend renders the paper's own page and the lists and
    neighbours that show it, never the whole volume."""
    from generator.pipeline.live import LiveSite

    live = LiveSite(seed_content, tmp_path / "site")
    live.build_all()
    live.wait_for_search()
    page = sorted((seed_content / "papers").glob("*.md"))[8]
    good = page.read_text(encoding="utf-8")
    page.write_text(good.replace("order:", "order: [", 1), encoding="utf-8")
    assert live.rebuild({page.resolve()}).rendered == 0
    page.write_text(re.sub(r"^title: .*$", "title: A mended title", good, count=1, flags=re.MULTILINE),
                    encoding="utf-8")
    mended = live.rebuild({page.resolve()})
    slug = re.search(r"^slug: (\S+)$", good, re.MULTILINE).group(1)
    assert "A mended title" in live.files[f"papers/{slug}.html"].decode("utf-8")
    assert "A mended title" in live.files["index.html"].decode("utf-8")
    pages = [name for name in live.files if name.endswith(".html")]
    assert 0 < mended.rendered <= len(pages) // 2, (mended.summary(), len(pages))


def test_a_broken_page_stays_an_error_through_passes_that_do_not_read_pages(seed_content, tmp_path):
    """Related papers settled after an edit, or a template saved, rerun only the outputs: the page that
    does not parse is still broken, and the browser must go on saying so (it did not, when related papers
    were quick enough to settle before the browser looked)."""
    from generator.pipeline.live import LiveSite

    live = LiveSite(seed_content, tmp_path / "site")
    live.build_all()
    live.wait_for_search()
    page = first_page(seed_content)
    good = page.read_text(encoding="utf-8")
    page.write_text(good.replace("order:", "order: [", 1), encoding="utf-8")
    live.rebuild({page.resolve()})
    live.wait_for_search()
    errors = [str(d) for d in live.errors]
    assert errors and "invalid YAML" in errors[0]
    related = dict(live.pipeline.state.related or {})
    first = next(key for key, listed in related.items() if len(listed) > 1)
    related[first] = related[first][::-1]  # a list moved: the pass runs
    live._related_ready(related)
    settled = live.settle()
    assert settled is not None and not settled.cleared and [str(d) for d in live.errors] == errors
    templates = seed_content / "theme" / "templates"
    templates.mkdir(parents=True)
    (templates / "404.html").write_text("{% extends 'default/404.html' %}\n", encoding="utf-8")
    themed = live.rebuild({(templates / "404.html").resolve()})
    assert not themed.cleared and [str(d) for d in live.errors] == errors
    page.write_text(good, encoding="utf-8")
    assert live.rebuild({page.resolve()}).cleared and live.errors == []


def test_the_error_banner_stays_in_view_of_a_scrolled_page():
    from generator.errors import Diagnostic
    from generator.commands.serve import with_error_banner

    page = with_error_banner(b"<html><body class=x><p>text</p></body></html>",
                             [Diagnostic("error", "bad <b>", "papers/a.md", 3, "content-invalid")])
    assert b'<body class=x><div id="proceedings-build-error" role="alert" style="position:sticky;top:0;' in page
    assert b"bad &lt;b&gt;" in page


def site_files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_served_pages_are_the_built_pages(seed_content, tmp_path):
    """serve and build run one pipeline: the same files, byte for byte, after the first build and after an
    edit has settled; over HTTP a page differs only by the CSP line (livereload adds its script as it sends it)."""
    from generator.commands.build import build
    from generator.pipeline.live import LiveSite
    from generator.reporter import Reporter
    from generator.commands.serve import SiteApp, without_csp

    live = LiveSite(seed_content, tmp_path / "served")
    live.build_all()
    live.wait_for_search()
    build(seed_content, tmp_path / "built", Reporter())
    assert live.files == site_files(tmp_path / "built")
    page = first_page(seed_content)
    replace_in(page, "title: '", "title: 'Quokkas and ")
    other = sorted((seed_content / "papers").glob("*.md"))[-1].read_text(encoding="utf-8").split("\n---\n", 1)[1]
    with page.open("a", encoding="utf-8") as handle:  # now like another paper: related lists move
        handle.write("\n" + other)
    assert not live.rebuild({page.resolve()}).diagnostics  # served at once, with the related papers of before…
    live.wait_for_search()
    assert live.settle().rendered  # …which the background worked out again: the pages whose list moved
    build(seed_content, tmp_path / "built", Reporter())
    built = site_files(tmp_path / "built")
    assert live.files == built
    assert site_files(tmp_path / "served") == built  # what serve mirrors to its --out, too
    name = next(name for name in built if name.startswith("papers/") and name.endswith(".html"))
    status, _, body = SiteApp(live).respond("/" + name)
    assert status.startswith("200") and body == without_csp(built[name]) != built[name]


def test_related_papers_settled_render_only_the_pages_that_list_them(seed_content, tmp_path):
    """Related papers worked out again after an edit show on their paper's own page only: settling them
    renders those pages, not the whole volume (at 10,000 papers that was 34,000 files, 17 s)."""
    from generator.pipeline.live import LiveSite
    from generator.pipeline.listing import moved_lists

    live = LiveSite(seed_content, tmp_path / "served")
    live.build_all()
    live.wait_for_search()
    before = dict(live.pipeline.state.related or {})
    page = first_page(seed_content)
    other = sorted((seed_content / "papers").glob("*.md"))[-1].read_text(encoding="utf-8").split("\n---\n", 1)[1]
    with page.open("a", encoding="utf-8") as handle:  # now like another paper: related lists move
        handle.write("\n" + other)
    live.rebuild({page.resolve()})
    live.wait_for_search()
    moved = moved_lists(before, live._related or {})
    assert moved and live.settle().rendered == len(moved)


def test_the_whole_site_is_kept_out_of_the_collectors_sight_between_small_edits(seed_content, tmp_path):
    """Each full collection during a small edit scanned the whole site again (at 10,000 papers about 250 ms
    holding the GIL, while the server could answer no one): a whole pass freezes what it made."""
    import gc

    from generator.pipeline.live import LiveSite

    live = LiveSite(seed_content, tmp_path / "served")
    try:
        live.build_all()
        frozen = gc.get_freeze_count()
        assert frozen > 10_000
        page = first_page(seed_content)
        replace_in(page, "title: '", "title: 'Quokkas and ")
        live.rebuild({page.resolve()})
        # (a few frozen objects are freed: the edited paper's old state)
        assert gc.get_freeze_count() > frozen * 0.9, "a small edit leaves the whole site frozen"
    finally:
        live.close()
    assert gc.get_freeze_count() == 0


@pytest.mark.slow  # 60 papers of 40 words no other has: several shards
def test_a_search_index_cut_into_fewer_shards_leaves_no_old_shard_served(tmp_path):
    """serve makes the index again in the background: a shard the new index no longer has leaves the served
    files and the mirrored folder (it would be served stale, and kept in memory, until the next pass)."""
    from generator.pipeline.live import LiveSite

    fixture = REPO / "tests" / "fixtures" / "corpus" / "abstracts.jsonl"
    abstracts = [" ".join(json.loads(line)["abstract"].split())
                 for line in fixture.read_text(encoding="utf-8").split("\n") if line][:60]
    content = tmp_path / "content"
    content.mkdir()
    listed = content / "abstracts.txt"
    # Made-up words of every paper's own make a vocabulary of several shards.
    words = [" ".join(f"zq{n}x{k}wordy{n * k}" for k in range(40)) for n in range(len(abstracts))]
    listed.write_text("Shards\n\n" + "\n\n".join(f"{a} {w}." for a, w in zip(abstracts, words)) + "\n",
                      encoding="utf-8")
    live = LiveSite(content, tmp_path / "site")
    live.build_all()
    live.wait_for_search()

    def shards() -> set[str]:
        return {name for name in live.files if re.fullmatch(r"assets/search/t\d+\.js", name)}

    before = shards()
    assert len(before) >= 3, before
    listed.write_text("Shards\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
    live.rebuild({listed.resolve()})
    live.wait_for_search()
    after = shards()
    assert after and len(after) < len(before), (before, after)
    on_disk = {f"assets/search/{p.name}" for p in (tmp_path / "site" / "assets" / "search").glob("t*.js")
               if re.fullmatch(r"t\d+\.js", p.name)}
    assert on_disk == after
    live.close()


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_a_served_series_stopped_by_any_signal_leaves_no_folder_behind(tmp_path, stop):
    """serve of a series kept its volumes' part files in a temporary folder of its own, which a server killed
    by a signal no handler sees (SIGKILL, a terminal closed, SIGTERM while the first build ran) left behind, one
    more on every run. The parts are held in memory now, as the rest of the served site."""
    from series_fixtures import make_series

    content = make_series(tmp_path, only=("2019", "2023"))
    scratch = tmp_path / "scratch"  # the server's temporary folder: what it leaves there is left behind
    scratch.mkdir()
    log = tmp_path / "serve.log"
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(REPO), "TMPDIR": str(scratch)}
    process = subprocess.Popen([sys.executable, "-m", "generator", "serve", "--content", str(content), "--out",
                                str(tmp_path / "served"), "--port", str(port)],
                               stdout=log.open("w"), stderr=subprocess.STDOUT, env=env)
    try:
        wait_for(lambda: process.poll() is not None or "Serving on" in log.read_text(encoding="utf-8"),
                 "the server never started")
        assert process.poll() is None, log.read_text(encoding="utf-8")
        assert get(f"http://127.0.0.1:{port}/2019/index.html")[0] == 200
        process.send_signal(stop)
        process.wait(TIMEOUT)
    finally:
        process.kill()
        process.wait(TIMEOUT)
    assert sorted(path.name for path in scratch.iterdir()) == []
