"""The collector's pace during a build (runtime/collector.py): slower inside, as it was after, even after a failure."""

from __future__ import annotations

import gc

import pytest

from generator.commands.build import build
from generator.pipeline import stages
from generator.reporter import Reporter
from generator.runtime.collector import PACE, build_pace

from tests.conftest import copy_content


def test_a_build_runs_at_the_build_pace_and_leaves_the_collector_as_it_was(tmp_path, monkeypatch):
    seen = []
    real = stages.load_project
    monkeypatch.setattr(stages, "load_project", lambda *a, **k: (seen.append(gc.get_threshold()), real(*a, **k))[1])
    before = gc.get_threshold()
    assert before != PACE
    build(copy_content(tmp_path / "content"), tmp_path / "site", Reporter(), jobs=1)
    assert seen == [PACE]
    assert gc.get_threshold() == before


def test_a_failed_build_leaves_the_collector_as_it_was(tmp_path, monkeypatch):
    def fail(*args, **kwargs):
        raise RuntimeError("broken on purpose")

    monkeypatch.setattr(stages, "load_project", fail)
    before = gc.get_threshold()
    with pytest.raises(RuntimeError, match="on purpose"):
        build(copy_content(tmp_path / "content"), tmp_path / "site", Reporter(), jobs=1)
    assert gc.get_threshold() == before


def test_garbage_cycles_are_still_collected_at_the_build_pace():
    class Node:
        pass

    with build_pace():
        gc.collect()
        for _ in range(3 * PACE[0]):  # enough allocations for the youngest generation to be collected
            node = Node()
            node.me = node  # a cycle: only the collector frees it
        del node
        # CPython collects once the count is past the threshold, so it may stand at the threshold itself
        assert gc.get_count()[0] <= PACE[0]
        assert sum(isinstance(o, Node) for o in gc.get_objects(generation=0)) <= PACE[0]
