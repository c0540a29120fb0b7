"""Issue 19: one record can neither crash, stall nor blow up a build, and nothing from the content
acts on a terminal or on a reader (links, symlinks, YAML aliases, TeX in citations, the cache).

bench/fuzz_build.py generates each class at scale; these are the small cases that prove the guard.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import pytest

from generator.commands.build import build
from generator.commands.check import check
from generator.commands.cli import main
from generator.reporter import ConsoleReporter, Reporter

ABSTRACTS = ["We learn the edges of a graph with linear memory and show it on ten benchmarks.",
             "We count things in images of cluttered rooms with a detector trained on synthetic data.",
             "A study of how diffusion models memorise their training images, and how to stop them."]


def jsonl_content(tmp_path: Path, records: list[dict], config: str = "title: Hardened 2026\n") -> Path:
    content = tmp_path / "content"
    content.mkdir(exist_ok=True)
    (content / "proceedings.yaml").write_text(config, encoding="utf-8")
    (content / "papers.jsonl").write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return content


def records(**first) -> list[dict]:
    return [dict({"id": f"p{n}", "title": f"Paper {n}", "abstract": text}, **(first if n == 1 else {}))
            for n, text in enumerate(ABSTRACTS, start=1)]


def run_cli(*args: str) -> tuple[int, str]:
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr):
        status = main(list(args))
    return status, stderr.getvalue()


# -- 1. a control character in a link -------------------------------------------------------------

@pytest.mark.parametrize("link", ["pdfs/paper%00.pdf", "pdfs/paper\x00.pdf", "pdfs/a%0a.pdf"])
def test_a_nul_in_a_link_is_a_warning_and_everything_else_is_published(tmp_path, link):
    content = jsonl_content(tmp_path, records(pdf=link))
    (content / "pdfs").mkdir()
    (content / "pdfs" / "paper.pdf").write_bytes(b"%PDF-1.4")
    status, err = run_cli("build", "--content", str(content), "--out", str(tmp_path / "site"))
    assert status == 0 and "Traceback" not in err
    assert "papers.jsonl:1: warning:" in err and "`pdf` " in err and "control character" in err
    assert len(list((tmp_path / "site" / "papers").glob("*.html"))) == 3
    assert not (tmp_path / "site" / "pdfs").exists()
    reporter = Reporter()
    check(content, reporter)
    assert any("`pdf`" in d.message and "control character" in d.message for d in reporter.warnings)


def test_a_nul_in_a_pages_link_is_named_by_page_and_line(tmp_path):
    content = jsonl_content(tmp_path, records())
    build(content, tmp_path / "site", Reporter())
    page = sorted((content / "papers").glob("*.md"))[0]
    page.write_text(page.read_text(encoding="utf-8").replace("order:", 'pdf: "x\\0.pdf"\norder:'), encoding="utf-8")
    for run in (lambda r: build(content, tmp_path / "site", r), lambda r: check(content, r)):
        reporter = Reporter()
        run(reporter)
        (warning,) = [d for d in reporter.warnings if "`pdf`" in d.message]
        assert str(warning.path) == f"papers/{page.name}" and warning.line


# -- 2. files published by reference -----------------------------------------------------------------

def test_a_link_publishes_only_documents_of_the_content_folder(tmp_path):
    content = jsonl_content(tmp_path, [dict(r, pdf=link) for r, link in zip(
        records(), ["proceedings.yaml", "papers.jsonl", "slides/talk.pdf"])])
    (content / "slides").mkdir()
    (content / "slides" / "talk.pdf").write_bytes(b"%PDF-1.4 talk")
    reporter = Reporter()
    build(content, tmp_path / "site", reporter)
    site = tmp_path / "site"
    assert not (site / "proceedings.yaml").exists() and not (site / "papers.jsonl").exists()
    assert (site / "slides" / "talk.pdf").read_bytes() == b"%PDF-1.4 talk"
    warned = " ".join(d.message for d in reporter.warnings)
    assert "'proceedings.yaml' is not a document" in warned and "'papers.jsonl' is not a document" in warned


def test_a_symlink_out_of_the_content_folder_is_neither_read_nor_published(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.pdf").write_bytes(b"%PDF secret")
    (outside / "other.txt").write_text("Secret proceedings\n\nA secret abstract that must not be published anywhere.\n")
    content = jsonl_content(tmp_path, records(pdf="pdfs/secret.pdf"))
    build(content, tmp_path / "site", Reporter())
    (content / "pdfs").mkdir()
    (content / "pdfs" / "secret.pdf").symlink_to(outside / "secret.pdf")
    (content / "secret.txt").symlink_to(outside / "other.txt")
    secret_page = outside / "page.md"
    secret_page.write_text(sorted((content / "papers").glob("*.md"))[0].read_text(encoding="utf-8")
                           .replace("slug: paper-1", "slug: stolen").replace("id: '1'", "id: '99'"))
    (content / "papers" / "stolen.md").symlink_to(secret_page)
    reporter = Reporter()
    build(content, tmp_path / "site", reporter)
    site = tmp_path / "site"
    assert not (site / "pdfs").exists() and not (site / "papers" / "stolen.html").exists()
    assert "secret abstract" not in (site / "papers.json").read_text(encoding="utf-8")
    warned = {str(d.path) for d in reporter.warnings if "outside the content folder" in d.message}
    assert warned == {"secret.txt", "papers/stolen.md"}
    assert (outside / "page.md").exists() and len(list(site.glob("papers/*.html"))) == 3


# -- 10. terminal escapes ---------------------------------------------------------------------------

def test_control_characters_are_escaped_in_everything_the_console_prints():
    stream = io.StringIO()
    reporter = ConsoleReporter(stream)
    reporter.warn("undefined macro in “\x1b[2KFake\x1b]8;;http://evil\x07title\u202e”", "papers/a.md", 3,
                  code="latex-unknown-macro")
    reporter.info("done\r\x9b31m")
    printed = stream.getvalue()
    assert "\x1b" not in printed and "\x07" not in printed and "\r" not in printed and "\x9b" not in printed
    assert "\\x1b[2KFake\\x1b]8;;http://evil\\x07title\\u202e" in printed and printed.count("\n") == 2


def test_a_title_with_escapes_reaches_the_terminal_escaped(tmp_path):
    content = jsonl_content(tmp_path, records(title="\x1b[2K\x1b]0;pwned\x07Title with \\undefinedmacro"))
    status, err = run_cli("build", "--content", str(content), "--out", str(tmp_path / "site"))
    assert status == 0 and "undefinedmacro" in err
    # Control characters are dropped as the source is read (generator/text/cleantext.py): none is left to show.
    assert "\x1b" not in err and "\x07" not in err and "[2K]0;pwnedTitle" in err


# -- 3. YAML alias bombs --------------------------------------------------------------------------

ALIAS_BOMB = ('a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
              + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [{','.join([f'*{chr(97 + i)}'] * 9)}]\n" for i in range(8)))


def test_an_alias_bomb_in_a_page_is_an_error_of_that_page_only(tmp_path):
    content = jsonl_content(tmp_path, records())
    build(content, tmp_path / "site", Reporter())
    page = sorted((content / "papers").glob("*.md"))[0]
    page.write_text(page.read_text(encoding="utf-8").replace("---\nid:", "---\n" + ALIAS_BOMB + "id:", 1),
                    encoding="utf-8")
    reporter = Reporter()
    build(content, tmp_path / "site", reporter)
    (error,) = reporter.errors
    assert str(error.path) == f"papers/{page.name}" and error.line and "expands to more than" in error.message
    assert len(list((tmp_path / "site" / "papers").glob("*.html"))) == 3  # the broken one keeps its last page


def test_an_alias_bomb_in_the_config_stops_the_build_with_a_message(tmp_path):
    content = jsonl_content(tmp_path, records(), config="title: Bomb\n" + ALIAS_BOMB)
    status, err = run_cli("check", "--content", str(content))
    assert status == 2 and "proceedings.yaml:" in err and "expands to more than" in err and len(err) < 500


def test_a_huge_value_is_quoted_short_in_a_message(tmp_path):
    content = jsonl_content(tmp_path, records())
    build(content, tmp_path / "site", Reporter())
    page = sorted((content / "papers").glob("*.md"))[0]
    text = page.read_text(encoding="utf-8").split("generated:")[0] + "---\nA hand-made page.\n"  # not synced
    page.write_text(text.replace("\norder: 1\n", f"\norder: {list(range(60_000))}\n"), encoding="utf-8")
    reporter = Reporter()
    build(content, tmp_path / "site", reporter)
    (error,) = reporter.errors
    assert "must be a whole number, not [0, 1, 2, 3, 4, ...]" in error.message and len(error.message) < 200


# -- 7. forked workers die with their build ----------------------------------------------------------

def _running(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status  # a zombie has ended, whoever is left to reap it


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
@pytest.mark.parametrize("runner", ["in_parallel", "BackgroundRunner"])
def test_forked_workers_do_not_outlive_a_killed_build(runner):
    import signal
    import subprocess
    import sys
    import time

    script = f"""
import os, sys, time
from generator.runtime import background
job = lambda: (sys.stdout.write(str(os.getpid()) + "\\n"), sys.stdout.flush(), time.sleep(60))
if "{runner}" == "in_parallel":
    background.in_parallel(job)
else:
    background.BackgroundRunner().submit(job, print)
time.sleep(60)
"""
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                              cwd=Path(__file__).resolve().parent.parent)
    worker = 0
    try:
        worker = int(parent.stdout.readline())
        assert _running(worker)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 5
        while _running(worker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _running(worker), "the forked worker outlived its killed parent"
    finally:
        parent.kill()
        if worker and _running(worker):
            os.kill(worker, signal.SIGKILL)


# -- 6. two builds into one output folder ------------------------------------------------------------

def test_a_second_build_into_the_same_folder_waits_for_the_first(tmp_path):
    import fcntl
    import threading

    content = jsonl_content(tmp_path, records())
    site = tmp_path / "site"
    messages: list[str] = []

    class Listening(Reporter):
        def info(self, message: str) -> None:
            messages.append(message)

    with open(tmp_path / ".site.lock", "a+b") as held:  # another build holds the folder
        fcntl.flock(held, fcntl.LOCK_EX)
        second = threading.Thread(target=build, args=(content, site, Listening()))
        second.start()
        second.join(timeout=3)
        assert second.is_alive() and not site.exists()
        assert messages == [f"another build is writing {site}/; waiting for it to finish"]
    second.join(timeout=60)
    assert (site / "index.html").is_file() and (site / "papers.json").is_file()


def test_two_builds_at_once_both_publish_a_whole_site_and_later_builds_work(tmp_path):
    import subprocess
    import sys

    content = jsonl_content(tmp_path, records())
    build(content, tmp_path / "site", Reporter())  # pages exist: both builds only write the site
    command = [sys.executable, "-m", "generator", "build", "--content", str(content), "--out", str(tmp_path / "site")]
    cwd = Path(__file__).resolve().parent.parent
    runs = [subprocess.Popen(command, cwd=cwd, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    assert [run.wait(timeout=120) for run in runs] == [0, 0], [run.stderr.read() for run in runs]
    assert (tmp_path / "site" / "index.html").is_file() and (tmp_path / "site" / "papers.json").is_file()
    assert not list(tmp_path.glob(".site.staging")) and not list(tmp_path.glob(".site.old"))
    assert subprocess.run(command, cwd=cwd, capture_output=True).returncode == 0


def test_a_killed_builds_lock_and_staging_do_not_block_the_next(tmp_path):
    content = jsonl_content(tmp_path, records())
    (tmp_path / ".site.lock").write_bytes(b"")  # left by a build killed while it held the lock
    (tmp_path / ".site.staging" / "papers").mkdir(parents=True)
    reporter = Reporter()
    build(content, tmp_path / "site", reporter)
    assert not reporter.errors and (tmp_path / "site" / "index.html").is_file()
    assert not (tmp_path / ".site.staging").exists()


# -- 9. the build cache cannot be poisoned ------------------------------------------------------------

def test_a_forged_cache_entry_is_not_published(tmp_path, monkeypatch):
    from generator.runtime import cache as cache_module

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    content = jsonl_content(tmp_path, records())
    build(content, tmp_path / "site", Reporter())
    assert (tmp_path / "user-cache" / "proceedings" / "cache-key").stat().st_mode & 0o077 == 0
    refresh = '<meta http-equiv="refresh" content="0;url=https://evil.example/">'
    forged = 0
    for shard in (content / cache_module.CACHE_DIR).glob("abstracts-*/*"):
        records_ = json.loads(shard.read_bytes().split(b"\n", 1)[1])
        for record in records_.values():
            record["fields"]["abstract_html"] = refresh
            forged += 1
        payload = json.dumps(records_).encode()
        # What anyone can compute: the format's header with a digest made without the user's secret.
        header = b"proceedings-cache %d %s\n" % (cache_module.FORMAT, cache_module.digest(payload).encode())
        shard.write_bytes(header + payload)
    assert forged == 3
    build(content, tmp_path / "site", Reporter())
    pages = " ".join(p.read_text(encoding="utf-8") for p in (tmp_path / "site" / "papers").glob("*.html"))
    assert "evil.example" not in pages and "linear memory" in pages


def test_the_cache_key_never_appears_half_written(tmp_path, monkeypatch):
    """Two processes making the key at once (two first builds, two test workers): neither finds an
    empty key file, which would read as no key and turn its cache off; the first key linked wins."""
    from generator.runtime import sealed as cache  # the user's secret and the sealed files (runtime/sealed.py)

    path = tmp_path / "proceedings" / "cache-key"
    seen, urandom = [], os.urandom
    monkeypatch.setattr(cache.os, "urandom", lambda n: seen.append(path.exists()) or urandom(n))
    key = cache.secret_key.__wrapped__(path)
    assert seen == [False], "the key file was there before its bytes were"
    assert len(key) == 32 and path.read_bytes() == key and path.stat().st_mode & 0o077 == 0

    theirs, other = b"t" * 32, tmp_path / "other" / "cache-key"
    link = os.link
    # Another process links its key between this one's check and its link: this one reads theirs.
    monkeypatch.setattr(cache.os, "link", lambda source, to: (Path(to).write_bytes(theirs), link(source, to)))
    assert cache.secret_key.__wrapped__(other) == theirs
    assert sorted(p.name for p in other.parent.iterdir()) == ["cache-key"], "no private copy is left behind"


def test_a_cache_made_with_another_users_secret_is_not_trusted(tmp_path, monkeypatch):
    from generator.runtime.cache import BuildCache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "alice"))
    BuildCache(tmp_path / "cache").store_json("x", "k", {"html": "<p>alice</p>"})
    assert BuildCache(tmp_path / "cache").load_json("x", "k") == {"html": "<p>alice</p>"}
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "mallory"))
    assert BuildCache(tmp_path / "cache").load_json("x", "k") is None


# -- 8. TeX in citations ---------------------------------------------------------------------------------

@pytest.mark.parametrize("math, warned", [
    # the renderer's own error since undefined macros are marked: the formula is shown (and cited) as text
    (r"\def\x{\input{/etc/passwd}}", r"undefined macro \input"),
    (r"\alpha \def\x{y}", r"uses \def, which a citation may not carry"),
    (r"\let\x\input \x{/etc/passwd}", r"undefined macro \let"),
    (r"^^5cinput{/etc/passwd}", "uses ^^, which a citation may not carry"),
    (r"\immediate\write18{rm -rf ~}", r"undefined macro \immediate"),  # the renderer's own error: shown as text
])
def test_tex_that_acts_never_reaches_a_citation(tmp_path, math, warned):
    content = jsonl_content(tmp_path, records(title=f"Graphs ${math}$ and $\\alpha^2 + \\frac{{1}}{{2}}$"))
    reporter = Reporter()
    build(content, tmp_path / "site", reporter)
    site = tmp_path / "site"
    bib = (site / "proceedings.bib").read_text(encoding="utf-8")
    pages = [p.read_text(encoding="utf-8") for p in (site / "papers").glob("*.html")]
    cite_box = next(box for page in pages for box in [page.split("@inproceedings")[1].split("</")[0]]
                    if "title = {Graphs" in box)
    for text in (bib, cite_box):
        for word in ("\\def", "\\input", "\\immediate", "\\write", "^^"):
            assert word not in text
        assert "{$\\alpha^2 + \\frac{1}{2}$}" in text  # math a citation may carry stays math
    (warning,) = [d for d in reporter.warnings if warned in d.message]
    assert str(warning.path).startswith("papers/")
    checked = Reporter()
    check(content, checked)
    assert any(warned in d.message for d in checked.warnings)


# -- 5. matching changed abstracts to their pages -------------------------------------------------------

def synthetic_abstracts(count: int, seed: int = 7) -> list[str]:
    """Abstracts of a shared vocabulary (every text has common words and a few rare ones), as a venue's are."""
    import random

    rng = random.Random(seed)
    common = "we the of model models learning data show method results propose and a to in".split()
    rare = [f"{a}{b}{c}" for a in ("ka", "lo", "mi", "nu", "po", "ra", "si", "tu") for b in ("bel", "cor", "dan",
            "fen", "gor", "hal", "jin", "kev") for c in ("ix", "um", "on", "ea", "ot", "ar")]
    return [" ".join(rng.choice(common if rng.random() < 0.5 else rare) for _ in range(80)) + "."
            for _ in range(count)]


def test_edited_abstracts_are_matched_to_their_pages_without_comparing_every_pair(tmp_path, monkeypatch):
    import difflib

    from generator.content import matching
    from test_merge import pages, sync

    content = tmp_path / "content"
    content.mkdir()
    abstracts = synthetic_abstracts(150)
    sync(content, abstracts)
    ids = {page["body"]: page["id"] for page in pages(content).values()}
    edited = [text.replace(" ", "  the ", 3) + " Revised." if n % 3 == 0 else text for n, text in enumerate(abstracts)]
    compared = []

    class Counting(difflib.SequenceMatcher):
        def __init__(self, *args, **kwargs):
            compared.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(matching.difflib, "SequenceMatcher", Counting)
    plan = sync(content, edited)
    assert {change.action for change in plan.changes} == {"update"} and len(plan.changes) == 50
    after = {page["body"]: page["id"] for page in pages(content).values()}
    assert [after[new] for new in edited] == [ids[old] for old in abstracts], "every edit kept its page"
    assert len(compared) <= 50 * 8, "each edited entry is compared with a few pages, not with all 150"


# -- 4. a paper with thousands of authors --------------------------------------------------------------

def test_lists_name_a_few_authors_of_a_huge_paper_and_its_page_all(tmp_path):
    names = [f"Author Number{n}" for n in range(400)]
    content = jsonl_content(tmp_path, records(authors=names))
    build(content, tmp_path / "site", Reporter())
    site = tmp_path / "site"
    author_page = (site / "authors" / "author-number399.html").read_text(encoding="utf-8")
    assert "Author Number8, Author Number9 et al. (390 more)</p>" in author_page
    assert "Author Number10<" not in author_page and "Author Number10," not in author_page
    paper = next(p for p in (site / "papers").glob("*.html") if "Number399" in p.read_text(encoding="utf-8"))
    assert all(name in paper.read_text(encoding="utf-8") for name in names)
    # Output linear in the input: 400 author pages stay small, not 400 copies of 400 names.
    author_pages = sum(p.stat().st_size for p in (site / "authors").glob("author-*.html"))
    assert author_pages < 400 * 8_000
