"""The pages a sync creates, written by a forked child beside the stages that follow (content/page_writes.py):
the same pages and the same site as written here; a page the child cannot write fails the build as one written
here does; a page read again for a clash is read once written."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from conftest import copy_content
from generator.commands.build import build
from generator.content import page_writes
from generator.content.merge import Change
from generator.content.pages import read_page
from generator.errors import ContentError
from generator.pipeline.sinks import NullSink
from generator.pipeline.stages import Pipeline
from generator.reporter import Reporter
from generator.runtime import sizes
from generator.runtime.executor import Executor
from generator.runtime.sizes import SizePolicy


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _cold(tmp_path: Path, name: str) -> Path:
    content = copy_content(tmp_path / name / "content")
    shutil.rmtree(content / "papers")  # every page made and written anew
    return content


def test_pages_written_by_a_child_are_the_pages_and_site_written_here(tmp_path, monkeypatch):
    made = {}
    for name, jobs in (("here", 1), ("child", 2)):
        if name == "child":
            monkeypatch.setitem(sizes.NAMED, "default", SizePolicy(write_aside_from=1))
        content = _cold(tmp_path, name)
        reporter = Reporter()
        build(content, tmp_path / name / "site", reporter, jobs=jobs, cache=False)
        assert not reporter.errors, reporter.errors
        made[name] = (_files(content / "papers"), _files(tmp_path / name / "site"))
    assert len(made["here"][0]) >= 8
    assert made["child"] == made["here"]


def test_the_pages_a_child_wrote_are_as_the_build_read_them(tmp_path, monkeypatch):
    monkeypatch.setitem(sizes.NAMED, "default", SizePolicy(write_aside_from=1))
    content = _cold(tmp_path, "content")
    pipeline = Pipeline(content, NullSink())
    assert pipeline.executor.cores > 1 or pytest.skip("one core: no child")
    run = pipeline.run(Reporter(), until="pages")
    assert pipeline.page_writes.pending is None  # waited for when the pass ended
    assert run.docs and all(doc == read_page(path, doc.path.relative_to(content)) for path, doc in run.docs.items())


def test_a_page_the_child_cannot_write_fails_the_build(tmp_path, monkeypatch):
    monkeypatch.setitem(sizes.NAMED, "default", SizePolicy(write_aside_from=1))
    content = _cold(tmp_path, "content")

    def full(files):
        raise OSError(28, "No space left on device", str(files[0][0]))

    monkeypatch.setattr(page_writes, "_write_files", full)  # (the child is forked: it runs this too)
    with pytest.raises(ContentError, match="cannot write the page .No space left on device"):
        build(content, tmp_path / "site", Reporter(), jobs=2, cache=False)
    assert not (tmp_path / "site").exists()


def test_a_clashing_page_is_read_again_once_written(tmp_path, monkeypatch):
    content = _cold(tmp_path, "content")
    pipeline = Pipeline(content, NullSink())
    settled = []
    monkeypatch.setattr(pipeline.page_writes, "settle", lambda: settled.append(True))
    path = content / "papers" / "missing.md"
    assert pipeline.page_as_written(path).error is not None and settled == [True]


def test_a_large_volumes_pages_are_written_here_not_by_a_child():
    """A child forked from a large volume's build keeps every page of the heap the build changes meanwhile (50,000
    papers: 440 MB more while parsing); such a volume (fresh processes) writes its pages itself."""
    from generator.runtime.executor import Executor

    policy = SizePolicy()
    assert Executor(2, policy).pages_aside(policy.fresh_from - 1)
    assert not Executor(2, policy).pages_aside(policy.fresh_from)
    assert Executor(2, policy).writes_aside(policy.fresh_from)  # (the cache's shards: a short-lived child)
    assert not Executor(1, policy).pages_aside(100) and not Executor(2, policy).pages_aside(policy.write_aside_from - 1)


def test_the_pages_a_worker_makes_are_written_by_the_child_too(tmp_path, monkeypatch):
    # Written where it was made, a worker's share took three times as long a page, and this process made nine in ten.
    log = tmp_path / "writers"
    writing = page_writes.write_atomically

    def logged(path, data, folder_made=False):
        with log.open("a", encoding="utf-8") as file:
            file.write(f"{os.getpid()} {path.name}\n")
        writing(path, data, folder_made=folder_made)

    monkeypatch.setattr(page_writes, "write_atomically", logged)
    pages = tmp_path / "papers"
    pages.mkdir()
    changes = [Change("create", pages / f"paper-{n}.md", "new", body=f"Abstract {n}.",
                      meta={"id": str(n), "title": f"Paper {n}", "slug": f"paper-{n}", "tags": ["graphs"], "order": n,
                            "source": "papers.txt", "entry": n})
               for n in range(64)]
    executor = Executor(2, SizePolicy(light_split=2, write_aside_from=1))
    made, later = page_writes.write_pages(changes, executor)
    later.settle()
    writers = {line.split()[0] for line in log.read_text().splitlines()}
    assert len(log.read_text().splitlines()) == 64 and len(writers) == 1 and str(os.getpid()) not in writers
    assert all(doc is not None for doc in made)  # (each page went to the child: none needs reading back)
    assert sorted(p.name for p in pages.iterdir()) == sorted(c.path.name for c in changes)
