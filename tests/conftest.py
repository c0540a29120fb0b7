"""Shared fixtures: the bundled content, copied so tests never touch the repo's."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from generator.commands.build import build
from generator.reporter import Reporter

REPO = Path(__file__).resolve().parent.parent
BUNDLED_CONTENT = REPO / "content"
SEED_LIST = BUNDLED_CONTENT / "neurips-2026.txt"
CORPORA = REPO.parent / "shared" / "corpora"


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
