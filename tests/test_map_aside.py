"""The map laid out by a forked child from the moment related papers make the vectors (pipeline/mapping.py), in a
build whose render stage forks workers: the same places and the same site as a build that makes it in its own
process; and no child when no vectors are made (a warm build's related papers come from the cache)."""

from __future__ import annotations

import filecmp
import functools
import os
import time
from pathlib import Path

from conftest import write_list
from generator.derive import paper_map, related
from generator.pipeline import schedule
from generator.pipeline.mapping import MapPlaces
from generator.pipeline.sinks import NullSink
from generator.pipeline.stages import Options, Pipeline
from generator.reporter import Reporter
from generator.runtime.background import Pending, in_parallel
from generator.runtime.cache import BuildCache
from generator.runtime.executor import Executor
from test_map_site import built
from test_split_once import _abstracts


def _laid_out_by(tmp_path: Path, monkeypatch) -> Path:
    """A file each process that lays out the map appends its pid to (a child's memory is not this one's)."""
    log = tmp_path / "layouts"
    log.touch()
    laying_out = paper_map._from_layout

    def logged(papers, texts):
        with log.open("a", encoding="utf-8") as file:
            file.write(f"{os.getpid()}\n")
        return laying_out(papers, texts)

    monkeypatch.setattr(paper_map, "_from_layout", logged)
    return log


def _build(content: Path, site: Path, jobs: int) -> Reporter:
    return built(content, site, jobs=jobs)


def test_a_forked_build_lays_the_map_out_in_a_child_and_makes_the_same_site(tmp_path, monkeypatch):
    log = _laid_out_by(tmp_path, monkeypatch)
    # The index's child of a small volume is done or not by the time the vectors are: as on an idle machine, done.
    monkeypatch.setattr(schedule.Alongside, "busy", lambda self: False)
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        write_list(tmp_path / name / "papers.txt", "A volume", _abstracts(120))
    _build(tmp_path / "one", tmp_path / "site-one", 1)
    assert log.read_text().split() == [str(os.getpid())]  # one core: in the relate stage, here
    log.write_text("")
    two = _build(tmp_path / "two", tmp_path / "site-two", 2)
    laid_out = log.read_text().split()
    assert len(laid_out) == 1 and laid_out != [str(os.getpid())]  # by a child, once
    assert "map papers" in two.timings  # (the wait for the child's places, as map.html rendered)
    assert not related._LAST_MATRIX  # let go here once the child had them
    files = sorted(p.relative_to(tmp_path / "site-one") for p in (tmp_path / "site-one").rglob("*") if p.is_file())
    assert Path("map.html") in files
    _, differ, errors = filecmp.cmpfiles(tmp_path / "site-one", tmp_path / "site-two", files, shallow=False)
    assert not differ and not errors, differ[:5]
    # A warm build relates from the cache: no vectors, no child; map.html is kept, so nothing is laid out at all.
    log.write_text("")
    _build(tmp_path / "two", tmp_path / "site-two", 2)
    assert log.read_text() == ""


def test_the_childs_places_are_those_made_here(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    write_list(content / "papers.txt", "A volume", _abstracts(60))
    run = Pipeline(content, NullSink(), Options(jobs=1)).run(Reporter(), until="rendered")
    papers, store = run.rendered, BuildCache.for_content(content, enabled=False)
    timed = []

    def timing(name, func, *args, **kwargs):
        timed.append(name)
        return func(*args, **kwargs)

    related.forget_vectors()
    paper_map._LAST.clear()
    here = paper_map.paper_places(papers, content)
    paper_map._LAST.clear()
    mapped = MapPlaces(papers, content, store, Reporter().warn, timing, True, Executor(2), lambda: False)
    found = related.related_ids(papers, vectors=mapped.vectors_made)
    assert mapped.pending is not None  # started as the vectors were made, before the neighbours
    places = mapped.places(found)
    assert places is not None and not related._LAST_MATRIX
    assert places(papers) == here and timed == ["map papers"]
    # Other papers than those laid out (no build asks): made here, from vectors made again.
    assert places(papers[:30]) == paper_map.paper_places(papers[:30], content)
    # No vectors made (the neighbours known already): no child; the places made when asked for.
    again = MapPlaces(papers, content, store, Reporter().warn, timing, True, Executor(2), lambda: False)
    related.related_ids(papers, vectors=again.vectors_made)
    assert again.pending is None
    later = again.places(found)
    assert later is not None and again.pending is None and later(papers) == here


def test_the_child_waits_for_the_index_childs_end_and_is_not_started_beside_it(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    write_list(content / "papers.txt", "A volume", _abstracts(60))
    papers = Pipeline(content, NullSink(), Options(jobs=1)).run(Reporter(), until="rendered").rendered
    store = BuildCache.for_content(content, enabled=False)
    paper_map._LAST.clear()
    here = paper_map.paper_places(papers, content)
    busy = [True]

    def relate(mapped: MapPlaces) -> dict[str, tuple[str, ...]]:
        related.forget_texts()
        related.forget_vectors()
        paper_map._LAST.clear()
        return related.related_ids(papers, vectors=mapped.vectors_made)

    # Busy as the vectors are made, done once the neighbours are: started then.
    mapped = MapPlaces(papers, content, store, Reporter().warn, _untimed, True, Executor(2), lambda: busy[0])
    found = relate(mapped)
    assert mapped.vectors and mapped.pending is None
    busy[0] = False
    places = mapped.places(found)
    assert mapped.pending is not None and not related._LAST_MATRIX and places is not None and places(papers) == here
    # Busy all along: no child; made as map.html asks, here.
    busy[0] = True
    mapped = MapPlaces(papers, content, store, Reporter().warn, _untimed, True, Executor(2), lambda: busy[0])
    places = mapped.places(relate(mapped))
    assert mapped.pending is None and related._LAST_MATRIX and places is not None and places(papers) == here
    assert not related._LAST_MATRIX  # let go once made


def _untimed(name, func, *args, **kwargs):
    return func(*args, **kwargs)


def test_the_build_schedule_is_busy_while_the_index_child_works():
    alongside = schedule.Alongside()
    assert not alongside.busy() and not schedule.Schedule().busy()
    alongside._pending = in_parallel(functools.partial(time.sleep, 0.5))
    assert alongside.busy()
    alongside.names()  # waited for
    assert not alongside.busy()
    alongside._pending = Pending(lambda: [])  # from the cache, or a volume too small for a process: no child
    assert not alongside.busy()
