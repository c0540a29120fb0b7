"""The pages read and parsed on the other core while the project loads (pipeline/beside.py): the same site, the
same diagnostics and the same front matter cache as pages read by the pages stage in this process; an edit
(one that keeps the file's size, a file replaced by an editor's rename, a page broken) is seen."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator.commands.build import build
from generator.pipeline import beside as beside_module, stages
from generator.runtime.cache import CACHE_DIR
from generator.runtime.executor import Executor
from generator.runtime.sizes import SizePolicy
from generator.reporter import Reporter

from tests.conftest import copy_content

# Workers for the pages from the first page (the default policy waits for 2,000), in chunks of one or two.
SPLIT = SizePolicy(light_split=1, claims=4)


@pytest.fixture
def beside(monkeypatch) -> list[bool]:
    """Builds whose pipelines read the pages beside the load when they can; the list says, for each pipeline
    run, whether its pages were read there."""
    used: list[bool] = []
    real = beside_module.load_beside_pages

    def recording(*args, **kwargs):
        project, early = real(*args, **kwargs)
        used.append(early is not None)
        return project, early

    monkeypatch.setattr(stages, "Executor", lambda cores: Executor(cores, SPLIT))
    monkeypatch.setattr(beside_module, "load_beside_pages", recording)
    return used


def built(content: Path, out: Path, jobs: int = 2, cache: bool = True) -> list[tuple]:
    reporter = Reporter()
    build(content, out, reporter, jobs=jobs, cache=cache)
    return [(str(d.path), d.line, d.code, d.message) for d in reporter.diagnostics]  # in the order said


def snapshot(folder: Path, skip: str = "") -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not (skip and skip in p.parts)}


def front_cache(content: Path) -> dict[str, bytes]:
    entries = list((content / CACHE_DIR).glob("front-matter-*"))
    assert len(entries) == 1
    return snapshot(entries[0])


def test_pages_read_beside_make_the_site_the_diagnostics_and_the_cache_of_pages_read_here(tmp_path, beside):
    here, there = copy_content(tmp_path / "here"), copy_content(tmp_path / "there")
    built(here, tmp_path / "here-site", jobs=1)
    built(there, tmp_path / "there-site")
    assert beside == [False, True]  # one core: read by the pages stage; two: beside (the bundled pages exist)
    said_here = built(here, tmp_path / "here-site", jobs=1)
    said_there = built(there, tmp_path / "there-site")
    assert beside == [False, True, False, True]
    assert said_there == said_here
    assert snapshot(tmp_path / "there-site") == snapshot(tmp_path / "here-site")
    assert snapshot(there, skip=CACHE_DIR) == snapshot(here, skip=CACHE_DIR)
    # The workers' records came back: the cache is the one this process alone would have saved.
    assert front_cache(there) == front_cache(here)


def _edit(page: Path, old: str, new: str, rename: bool) -> None:
    text = page.read_text(encoding="utf-8")
    assert old in text and len(old) == len(new)
    stat = page.stat()
    if rename:  # an editor's save: a new file written beside, renamed over the page
        temp = page.with_name(f".{page.name}.swp")
        temp.write_text(text.replace(old, new, 1), encoding="utf-8")
        os.replace(temp, page)
    else:
        page.write_text(text.replace(old, new, 1), encoding="utf-8")
    os.utime(page, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # the same size and time: only the bytes moved
    assert page.stat().st_size == stat.st_size


@pytest.mark.parametrize("rename", [False, True])
def test_an_edit_keeping_the_size_and_time_is_seen(tmp_path, beside, rename):
    content = copy_content(tmp_path / "content")
    built(content, tmp_path / "site")
    pages = sorted((content / "papers").glob("*.md"))
    text = pages[0].read_text(encoding="utf-8")
    title = text.split("\ntitle: ", 1)[1].split("\n", 1)[0]
    letter = title.lstrip("'\"")[0]
    _edit(pages[0], f"title: {title}", f"title: {title.replace(letter, 'Q' if letter != 'Q' else 'R', 1)}", rename)
    body_word = pages[1].read_text(encoding="utf-8").rstrip().rsplit(" ", 1)[1]  # the abstract's last word
    _edit(pages[1], body_word, "Z" * len(body_word), rename)
    said = built(content, tmp_path / "site")
    assert beside[-1] is True
    fresh = copy_content(tmp_path / "fresh")
    for page in pages[:2]:
        (fresh / "papers" / page.name).write_bytes(page.read_bytes())
    assert built(fresh, tmp_path / "fresh-site", jobs=1, cache=False) == said
    assert snapshot(tmp_path / "site") == snapshot(tmp_path / "fresh-site")


def test_a_page_broken_and_a_page_gone_are_seen(tmp_path, beside):
    content = copy_content(tmp_path / "content")
    built(content, tmp_path / "site")
    pages = sorted((content / "papers").glob("*.md"))
    text = pages[2].read_text(encoding="utf-8")
    pages[2].write_text(text.replace("\nslug: ", "\nslug: [", 1), encoding="utf-8")  # YAML that does not parse
    pages[3].unlink()
    said = built(content, tmp_path / "site")
    assert beside[-1] is True
    assert any(path.endswith(pages[2].name) for path, *_ in said)
    again = copy_content(tmp_path / "again")
    built(again, tmp_path / "again-site", jobs=1)
    (again / "papers" / pages[2].name).write_bytes(pages[2].read_bytes())
    (again / "papers" / pages[3].name).unlink()
    assert built(again, tmp_path / "again-site", jobs=1) == said
    assert snapshot(tmp_path / "again-site") == snapshot(tmp_path / "site")
    assert snapshot(again, skip=CACHE_DIR) == snapshot(content, skip=CACHE_DIR)
