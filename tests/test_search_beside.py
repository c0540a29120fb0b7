"""The search files started forked on two cores (search.start_search_files): the key, the cache's files or the
index made, all in the child while the build relates its papers and lists its files; the same files as one core
writes, and a warm build takes them from the cache."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator.commands.build import build
from generator.pipeline import stages
from generator.reporter import Reporter
from generator.runtime.cache import CACHE_DIR
from generator.runtime.executor import Executor
from generator.runtime.sizes import SizePolicy

from tests.conftest import copy_content

BESIDE = SizePolicy(beside_from=1)  # the search job beside from the first paper (the default waits for 100)


@pytest.fixture
def forked(monkeypatch) -> None:
    monkeypatch.setattr(stages, "Executor", lambda cores: Executor(cores, BESIDE))


def built(content: Path, out: Path, jobs: int) -> None:
    reporter = Reporter()
    build(content, out, reporter, jobs=jobs)
    assert not reporter.errors, reporter.errors


def search_files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*"))
            if p.is_file() and p.relative_to(site).as_posix().startswith(("assets/search/", "assets/lunr.js"))}


def entry(content: Path) -> tuple[int, int]:
    """The search index's cache entry: its inode and time (stored again: another file)."""
    found = list((content / CACHE_DIR).glob("search-*"))
    assert len(found) == 1
    info = os.stat(found[0])
    return info.st_ino, info.st_mtime_ns


def test_the_search_files_made_and_taken_from_the_cache_in_a_child_are_one_core_s(tmp_path, forked):
    here, there = copy_content(tmp_path / "here"), copy_content(tmp_path / "there")
    built(here, tmp_path / "here-site", jobs=1)
    built(there, tmp_path / "there-site", jobs=2)  # made in the child, stored in the cache
    made = search_files(tmp_path / "there-site")
    assert len(made) > 3 and made == search_files(tmp_path / "here-site")
    stored = entry(there)
    built(there, tmp_path / "there-site", jobs=2)  # taken from the cache in the child
    assert entry(there) == stored, "the index was made again"
    assert search_files(tmp_path / "there-site") == made
    for page in (there / "papers").glob("*.md"):  # an abstract edited: the child makes the index again
        page.write_text(page.read_text(encoding="utf-8").rstrip() + " Zebras.\n", encoding="utf-8")
        (here / "papers" / page.name).write_bytes(page.read_bytes())
        break
    built(there, tmp_path / "there-site", jobs=2)
    built(here, tmp_path / "here-site", jobs=1)
    assert entry(there) != stored
    assert search_files(tmp_path / "there-site") == search_files(tmp_path / "here-site") != made
