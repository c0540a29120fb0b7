"""Shared fixtures: the bundled content, copied so tests never touch the repo's.

A test session runs away from the user's and the repository's own files: its working folder is an empty
temporary one (``check`` without ``--site`` reads ``./site``, which must never be a site the developer
built in the repository), and ``XDG_CACHE_HOME`` is a temporary folder (the build keeps its cache key
there, ``generator/runtime/cache.py``), so no test writes into ``~/.cache/proceedings/``. At the end the
session fails if the real home's caches of this project changed anyway (``pytest_sessionfinish``).
"""

from __future__ import annotations

import contextlib
import gc
import io
import itertools
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from generator.commands.build import BuildResult, build
from generator.reporter import Reporter

# The collector's youngest generation runs after 10,000 new objects, not 700, and the older ones after 20
# of the younger's runs, not 10: a test session holds every test module, pytest's items and the volumes the
# fixtures built, and each full collection scanned them all again (about 8% of a test process's CPU, a
# quarter of that with these). Reference counting frees all but cycles at once; cycles wait a little longer.
# No gc.freeze(): serve freezes and unfreezes the whole heap itself (pipeline/live.py), and tests count that.
gc.set_threshold(10_000, 20, 20)

REPO = Path(__file__).resolve().parent.parent
BUNDLED_CONTENT = REPO / "content"
SEED_LIST = BUNDLED_CONTENT / "neurips-2026.txt"
CORPORA = REPO.parent / "shared" / "corpora"

# The real user cache, before the session moves XDG_CACHE_HOME away from it. A worker of pytest-xdist inherits
# the moved one, so the controller hands the real one down in REAL_CACHE_VARIABLE (and alone guards it).
REAL_CACHE_VARIABLE = "PROCEEDINGS_TEST_REAL_CACHE"
REAL_CACHE = Path(os.environ.get(REAL_CACHE_VARIABLE) or os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
# What a test run must leave as it was: the project's folders in the real user cache.
GUARDED = [REAL_CACHE / "proceedings", REAL_CACHE / "proceedings-tests"]
SESSION_HOME = "PROCEEDINGS_TEST_SESSION_HOME"  # set by the controller; its workers share the folder


def snapshot(folders: list[Path]) -> dict[str, tuple[int, int]]:
    """Every file and folder under ``folders``, with its size and modification time."""
    seen = {}
    for folder in folders:
        for path in [folder, *folder.rglob("*")] if folder.exists() else []:
            info = path.lstat()
            seen[str(path)] = (info.st_size, info.st_mtime_ns)
    return seen


# Where the session's temporary files go when the user named no place (TMPDIR, --basetemp): a file system in
# memory. The tests make about 100,000 files (sites, content folders, caches); on a disk's file system each
# one made costs about 0.3 ms of CPU (ext4 here: 6,000 small files 1.6 CPU-seconds, 0.07 in /dev/shm), a
# tenth of the fast lane. Only a writable, executable tmpfs with room for the slow lane's files is taken.
RAM_FOLDER = Path("/dev/shm")
RAM_ROOM = 4 << 30


def scratch_folder() -> Path | None:
    """The folder in memory for the session's temporary files, or None: the system's temporary folder."""
    if os.environ.get("TMPDIR") or not sys.platform.startswith("linux"):
        return None
    try:
        info = os.statvfs(RAM_FOLDER)
    except OSError:
        return None
    closed = info.f_flag & (os.ST_RDONLY | os.ST_NOEXEC) or not os.access(RAM_FOLDER, os.W_OK | os.X_OK)
    return None if closed or info.f_bavail * info.f_frsize < RAM_ROOM else RAM_FOLDER


@pytest.hookimpl(tryfirst=True)  # before pytest's own tmp_path plugin reads --basetemp
def pytest_configure(config):
    if os.environ.get(SESSION_HOME):
        return  # a pytest-xdist worker: the controller has moved the caches already
    scratch = scratch_folder()
    home = Path(tempfile.mkdtemp(prefix="proceedings-tests-", dir=scratch))
    (home / "cache").mkdir()
    (home / "work").mkdir()
    if scratch is not None and config.option.basetemp is None:
        # Every tmp_path under the session's folder (pytest-xdist's workers under it too), gone with it at the
        # end, as pytest's own numbered folders in /tmp are not: --basetemp DIR keeps them where you say.
        config.option.basetemp = str(home / "tmp")
    os.environ[SESSION_HOME] = str(home)
    os.environ[REAL_CACHE_VARIABLE] = str(REAL_CACHE)
    os.environ["XDG_CACHE_HOME"] = str(home / "cache")
    # A build takes the site's repository from GitHub Actions' GITHUB_REPOSITORY (model/config.py): a test run on a
    # runner must build what it builds anywhere else (a test that wants it sets it).
    os.environ.pop("GITHUB_REPOSITORY", None)
    config.stash[_before] = snapshot(GUARDED)


def pytest_unconfigure(config):
    if _before in config.stash:
        shutil.rmtree(os.environ.pop(SESSION_HOME), ignore_errors=True)
        os.environ.pop(REAL_CACHE_VARIABLE, None)


def pytest_sessionfinish(session, exitstatus):
    before = session.config.stash.get(_before, None)
    if before is None:
        return
    after = snapshot(GUARDED)
    moved = sorted(path for path in before.keys() | after.keys() if before.get(path) != after.get(path))
    if moved:
        writer = session.config.get_terminal_writer()
        writer.line()
        writer.line(
            "the test run wrote into the real user cache, which tests must leave alone: " + ", ".join(moved[:5]),
            red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


_before = pytest.StashKey[dict]()


@pytest.fixture(scope="session", autouse=True)
def away_from_the_repository():
    """Every test runs in an empty folder: a relative path (``site/``, ``content/``) never names the repo's."""
    here = Path.cwd()
    os.chdir(tempfile.mkdtemp(dir=Path(os.environ[SESSION_HOME]) / "work"))  # one per pytest-xdist worker
    yield
    os.chdir(here)


BROWSER_TESTS = Path(__file__).parent / "browser"


def pytest_ignore_collect(collection_path, config):
    """tests/browser/ is not even imported when ``-m`` deselects every test in it (its conftest marks each one
    ``browser``): the fast lane, ``-m "not browser and not slow"``, then spends no worker's time importing and
    rewriting 35 modules and Playwright that it would deselect."""
    if collection_path == BROWSER_TESTS and config.option.markexpr:
        return not _may_select_browser(config.option.markexpr)
    return None


def _may_select_browser(markexpr: str) -> bool:
    """Whether the mark expression selects some test marked ``browser``, whichever other marks it has (yes when
    pytest's own parser of ``-m``, not a public API, cannot say)."""
    try:
        from _pytest.mark.expression import Expression

        expression = Expression.compile(markexpr)
    except Exception:
        return True
    others = sorted(set(re.findall(r"[A-Za-z_][\w.-]*", markexpr)) - {"browser", "and", "or", "not"})
    for chosen in itertools.product((False, True), repeat=len(others)):
        marked = {"browser", *(name for name, on in zip(others, chosen) if on)}
        if expression.evaluate(lambda name, marked=marked, **kwargs: name in marked):
            return True
    return False


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true",
                     help="rewrite tests/golden/ from the current output instead of comparing")


@pytest.fixture
def update_golden(request) -> bool:
    return request.config.getoption("--update-golden")


def copy_content(target: Path) -> Path:
    # Without the build cache a build of the bundled content may have left (generator/runtime/cache.py).
    shutil.copytree(BUNDLED_CONTENT, target, ignore=shutil.ignore_patterns(".proceedings-cache"))
    return target


@pytest.fixture
def large_sizes(monkeypatch) -> None:
    """Every volume takes a large volume's paths (runtime/sizes.py): work split over forked workers from
    a single item, the search index and the template workers in fresh processes; child processes too."""
    from generator.runtime import sizes

    monkeypatch.setenv(sizes.ENVIRONMENT, "large")


@pytest.fixture
def seed_content(tmp_path) -> Path:
    """A private copy of the bundled NeurIPS 2026 content folder."""
    return copy_content(tmp_path / "content")


@pytest.fixture(scope="session")
def seed_site(tmp_path_factory) -> Path:
    """The bundled content built once per test session; treat as read-only."""
    root = tmp_path_factory.mktemp("seed")
    content = copy_content(root / "content")
    reporter = Reporter()
    build(content, root / "site", reporter)
    assert not reporter.errors, reporter.errors
    return root / "site"


@pytest.fixture(scope="session")
def uncached_seed_site(tmp_path_factory) -> Path:
    """The bundled content built once per test session without the build cache (``--no-cache``), the site a
    test of the cache compares a cached build of the unedited content with; treat as read-only."""
    root = tmp_path_factory.mktemp("uncached-seed")
    reporter = Reporter()
    build(copy_content(root / "content"), root / "site", reporter, cache=False)
    assert not reporter.errors, reporter.errors
    return root / "site"


@pytest.fixture(scope="session")
def colt_site(tmp_path_factory) -> Path:
    """COLT 2020's papers.csv alone (tests/contents_fixtures.py: 117 papers in 20 sessions, no config) built once
    per test session, for the tests that only read what it makes; treat as read-only."""
    from contents_fixtures import colt2020_csv

    root = tmp_path_factory.mktemp("colt")
    (root / "content").mkdir()
    (root / "content" / "papers.csv").write_text(colt2020_csv(), encoding="utf-8")
    reporter = Reporter()
    build(root / "content", root / "site", reporter)
    assert not reporter.errors, reporter.errors
    return root / "site"


@dataclass(frozen=True)
class BuiltSeries:
    content: Path  # the series' content folder, synced: its pages written, its cache filled
    site: Path
    result: BuildResult
    reporter: Reporter


@pytest.fixture(scope="session")
def synced_series(tmp_path_factory) -> BuiltSeries:
    """The five-volume series of tests/series_fixtures.py built once per test session; treat as read-only
    (a test that edits it takes ``series_content``)."""
    from series_fixtures import make_series

    root = tmp_path_factory.mktemp("synced-series")
    content, reporter = make_series(root), Reporter()
    result = build(content, root / "site", reporter)
    assert not reporter.errors, reporter.errors
    return BuiltSeries(content, root / "site", result, reporter)


@pytest.fixture
def series_content(synced_series, tmp_path) -> Path:
    """A private copy of the synced series' content folder, ``tmp_path / "archive"``, as ``make_series(tmp_path)``
    leaves it after a first build: a test of what a build does to a series, not of writing its pages."""
    from series_fixtures import copy_synced

    return copy_synced(synced_series.content, tmp_path)


@pytest.fixture(scope="session")
def shared_server(tmp_path_factory):
    """``proceedings serve`` of a copy of the bundled content in a process of its own, started once a session (a
    worker): each is an interpreter and a whole build, about 2 CPU-seconds. For the tests of a real server that
    only ask it, or edit a page no other test edits (tests/test_serve.py, tests/test_serve_http.py)."""
    from test_serve import Served

    root = tmp_path_factory.mktemp("shared-server")
    server = Served(copy_content(root / "content"), root / "site")
    yield server
    server.stop()


def derive_title(text: str, taken: set[str] | frozenset[str] = frozenset()) -> str:
    """A title as the build derives one: ``derive_one`` renders the abstract and makes the candidates,
    the sync picks the first one not in ``taken``. (No tags: ``auto_tags: never``.)"""
    from generator.content.project import Project, derive_one
    from generator.model.config import Config
    from generator.latex import AbstractRenderer
    from generator.content.merge import _Sync
    from generator.model.paper import Entry
    from generator.derive.tagging import default_taxonomy
    from generator.model.volume import Volume

    config = Config(auto_tags="never")
    project = Project(Path("."), config, Volume.of(config), [], default_taxonomy(), AbstractRenderer())
    derived, _ = derive_one(project, Entry(text, "list.txt", 1, 1))
    return _Sync._title(derived, set(taken))


def process(*args: str, cwd: Path | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    """``python -m generator ARGS`` in a process of its own, as an organiser runs it: for what only a process
    shows (the entry point, exit status on a crash, a killed or racing run). It costs an interpreter's start-up
    and every import (about a CPU-second), so the tests that only vary the input use ``cli``."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """The same command line (``generator.commands.cli.main``) in this process, its exit status, output and
    messages as ``process`` gives them. An exception escapes and fails the test, as a traceback would."""
    from generator.commands.cli import main

    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr), \
            contextlib.chdir(cwd or Path.cwd()):
        try:
            status = main(list(args))
        except SystemExit as exit:  # argparse: --help, --version, a usage error
            status = exit.code or 0 if isinstance(exit.code, (int, type(None))) else 2
    return subprocess.CompletedProcess(["proceedings", *args], status, stdout.getvalue(), stderr.getvalue())


def write_list(path: Path, title: str, abstracts: list[str]) -> Path:
    path.write_text(title + "\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def node() -> str:
    path = shutil.which("node")
    if path:
        return path
    if os.environ.get("CI") == "true":
        pytest.fail("node is not installed, and CI must run the JavaScript search tests (apt-get install nodejs)")
    pytest.skip("node is not installed (apt-get install nodejs); skipping the JavaScript search tests")
