"""The pipeline's schedule (pipeline/schedule.py): when the search index is made is chosen by Options,
not by the sink."""

from __future__ import annotations

import dataclasses
import os
import time
from pathlib import Path

import pytest

import generator.search as search_package
from generator.pipeline import stages as pipeline
from generator.runtime import sizes
from generator.runtime.background import in_parallel
from generator.runtime.executor import Executor
from generator.commands.build import build
from generator.commands.check import CHECKING
from generator.pipeline.stages import Options, Pipeline
from generator.reporter import Reporter
from generator.search import MANIFEST_JS
from generator.pipeline.sinks import MemorySink, NullSink, StagingSink


@pytest.fixture
def index_beside(monkeypatch):
    """The seed volume's index in a process of its own, as a volume of ``beside_from`` papers has it."""
    monkeypatch.setitem(sizes.NAMED, "default", dataclasses.replace(sizes.DEFAULT, beside_from=1))


def site_files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_build_makes_the_search_index_in_a_child_while_papers_are_related_and_pages_render(
        seed_content, tmp_path, monkeypatch, index_beside):
    events: list[str] = []
    real_feed, real_relate, real_render = Executor.feed, pipeline.related_ids, pipeline.render_outputs
    pid_file = tmp_path / "index-pid"

    def feed(self, job, items, *args, **kwargs):
        events.append("index started")

        def in_child(items, *args):
            pid_file.write_text(str(os.getpid()), encoding="utf-8")
            return job(items, *args)

        return real_feed(self, in_child, items, *args, **kwargs).then(
            lambda names: events.append("index waited for") or names)

    monkeypatch.setattr(Executor, "feed", feed)
    monkeypatch.setattr(pipeline, "related_ids", lambda *a, **k: events.append("relate") or real_relate(*a, **k))
    monkeypatch.setattr(pipeline, "render_outputs", lambda *a, **k: events.append("render") or real_render(*a, **k))
    build(seed_content, tmp_path / "site", Reporter(), jobs=2, cache=False)
    assert events == ["index started", "relate", "render", "index waited for"]
    assert int(pid_file.read_text(encoding="utf-8")) != os.getpid()
    assert (tmp_path / "site" / MANIFEST_JS).stat().st_size > 0


def test_papers_are_related_in_the_build_process_beside_the_index_child(seed_content, tmp_path, monkeypatch,
                                                                          index_beside):
    """Two cores, the index made in a child: related papers are sparse products in the build's own process (no
    worker of their own beside the child); their matrix is the map's."""
    from generator.derive import related

    real_nearest = related.nearest
    related.forget_texts()  # an earlier build of the same papers in this process left its lists
    where: list[int] = []
    monkeypatch.setattr(related, "nearest", lambda *a, **k: where.append(os.getpid()) or real_nearest(*a, **k))
    build(seed_content, tmp_path / "site", Reporter(), jobs=2, cache=False)
    assert where == [os.getpid()]


def test_each_schedule_makes_the_built_site_into_each_sink(uncached_seed_site, seed_content, tmp_path):
    """The build's schedule into memory, the dev server's into a staging folder: the site ``build`` makes."""
    built = site_files(uncached_seed_site)

    memory = MemorySink(tmp_path / "memory")
    Pipeline(seed_content, memory, Options(cache=False, jobs=2)).run(Reporter())
    assert memory.files == built

    background = Pipeline(seed_content, StagingSink(tmp_path / "later"), Options(cache=False, background_search=True))
    background.run(Reporter())
    background.schedule.wait()  # the index follows the published site
    background.schedule.stop()
    assert site_files(tmp_path / "later") == built


def test_check_makes_no_search_index(seed_content):
    def files(options: Options) -> list[str]:
        return Pipeline(seed_content, NullSink(), options).run(Reporter()).files

    assert MANIFEST_JS not in files(CHECKING)
    assert MANIFEST_JS in files(Options(cache=False))


def test_a_failed_stage_stops_the_index_child_before_the_staging_folder_goes(seed_content, tmp_path, monkeypatch,
                                                                          index_beside):
    started: list = []
    real_feed = Executor.feed

    def forked(self, job, items, *args, **kwargs):
        started.append(real_feed(self, job, items, *args, **kwargs))
        return started[-1]

    def broken_render(*args, **kwargs):
        raise RuntimeError("a template failed")

    monkeypatch.setattr(Executor, "feed", forked)
    monkeypatch.setattr(search_package, "write_chunks", lambda *args: time.sleep(30))  # the child is still busy
    monkeypatch.setattr(pipeline, "render_outputs", broken_render)
    began = time.monotonic()
    with pytest.raises(RuntimeError, match="a template failed"):
        build(seed_content, tmp_path / "site", Reporter(), jobs=2, cache=False)
    assert time.monotonic() - began < 20
    assert len(started) == 1 and not started[0]._process.is_alive()
    assert not (tmp_path / ".site.staging").exists()


def test_cancelling_what_follows_a_forked_job_stops_the_job():
    began = time.monotonic()
    pending = in_parallel(lambda: time.sleep(30)).then(lambda result: result)
    pending.cancel()
    assert time.monotonic() - began < 10


def test_a_forked_job_leaves_frozen_what_was_frozen_before_it():
    """serve freezes its whole site between whole passes (pipeline/live.py); the search index's job, started
    after each edit, froze everything for its fork and then unfroze it all, site included, so that every
    later collection scanned the whole site again. A build, which freezes nothing, still ends unfrozen."""
    import gc

    gc.freeze()
    frozen = gc.get_freeze_count()
    try:
        assert in_parallel(lambda: 42)() == 42
        # (a frozen object freed meanwhile, by another test's thread ending, lowers the count a little: the
        # fault unfroze everything)
        assert gc.get_freeze_count() >= frozen * 0.9, "starting a job handed the frozen site back to the collector"
    finally:
        gc.unfreeze()
    assert in_parallel(lambda: 43)() == 43
    assert gc.get_freeze_count() == 0
