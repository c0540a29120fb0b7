"""bench/stage_cpu.py and bench/floors.py (issue 43): each stage's CPU recorded around a real build, the search
index's child found among the build's processes, and the table of budgets and floors made from a run's figures."""

from __future__ import annotations

import importlib.util
import shutil
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from conftest import BUNDLED_CONTENT, REPO


def load_floors() -> ModuleType:
    spec = importlib.util.spec_from_file_location("floors", REPO / "bench" / "floors.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def seed_copy(tmp_path: Path) -> Path:
    content = tmp_path / "content"
    shutil.copytree(BUNDLED_CONTENT, content, ignore=shutil.ignore_patterns("papers", ".proceedings-cache"))
    return content


def test_each_stage_is_recorded_with_the_cpu_of_the_processes_that_ran_then(tmp_path):
    floors = load_floors()
    run = floors.our_build(seed_copy(tmp_path), tmp_path / "site", tmp_path / "build.log")
    assert run["exit"] == 0 and run["papers"] == 19
    printed = [match.group(1) for match in map(floors.run_bench.STAGE_LINE.match,
                                               (tmp_path / "build.log").read_text().splitlines()) if match]
    assert Counter(record["name"] for record in run["stages"]) == Counter(printed)  # every `-v` stage, no other
    starts = [record["start"] for record in run["stages"]]
    assert starts == sorted(starts) and starts[0] > 0
    tick = 0.011  # /proc counts in 10 ms ticks
    for record in run["stages"]:
        assert record["wall"] >= 0 and 0 <= record["self_cpu"] <= record["tree_cpu"] + tick
    outer = [record for record in run["stages"] if record["depth"] == 0]
    for nested in (record for record in run["stages"] if record["depth"]):
        assert any(o["start"] <= nested["start"] and nested["start"] + nested["wall"] <= o["start"] + o["wall"]
                   for o in outer)
    # every process's CPU counted once: the stages and the start-up are at most the whole build's (wait4's)
    assert run["cpu_before_first_stage"] > 0 and run["before_first_stage_s"] > 0
    assert run["cpu_before_first_stage"] + sum(record["tree_cpu"] for record in outer) <= run["cpu_s"] + 0.05
    assert run["exit_cpu"] > -0.05 and run["between_stages_cpu"] > -0.05 and run["after_stages_cpu"] > -0.05
    assert "generator.pipeline.stages" in run["modules"] and "generator.commands.cli" in run["modules"]


def stage(name: str, before: dict[str, float], after: dict[str, float], tree: float = 0.0, own: float = 0.0) -> dict:
    return {"name": name, "live_before": before, "live_after": after, "tree_cpu": tree, "self_cpu": own}


def test_the_search_index_s_child_is_the_process_born_while_search_started():
    floors = load_floors()
    records = [stage("render abstracts", {"7": 1.0}, {}),  # a worker, waited for before search starts
               stage("start search", {}, {"42": 0.0}),
               stage("relate papers", {"42": 0.5}, {"42": 1.5, "50": 3.0}),  # 50: a worker of relate's
               stage("search index", {"42": 2.0}, {}, tree=0.4, own=0.1)]
    # last seen at 2.0 CPU-s, still at work when waited for: what the wait saw other processes spend (0.3) is its
    assert floors.search_child_cpu(records) == pytest.approx(2.3)
    records[-1]["live_before"] = {}  # gone before the wait: as last seen
    assert floors.search_child_cpu(records) == pytest.approx(1.5)
    records[1]["live_after"] = {}  # none born: the index made in the build's process
    assert floors.search_child_cpu(records) is None


def figures(pelican: float, hugo: float) -> dict:
    """A run's figures in the shape ``floors.measure`` saves them."""
    def build(wall: float, cpu: float) -> dict:
        return {"wall_s": wall, "cpu_s": cpu, "load": "1.0", "before_first_stage_s": 0.3,
                "cpu_before_first_stage": 0.3, "after_stages_s": 0.1, "exit_s": 0.1, "search_child_cpu": 2.0,
                "stages": [{"name": "relate papers", "depth": 0, "start": 5.0, "wall": 2.0, "self_cpu": 1.5,
                            "tree_cpu": 3.0},
                           {"name": "render templates", "depth": 0, "start": 7.0, "wall": 6.0, "self_cpu": 4.0,
                            "tree_cpu": 9.0},
                           {"name": "map papers", "depth": 1, "start": 7.0, "wall": 2.0, "self_cpu": 2.0,
                            "tree_cpu": 4.0}]}

    def written(files: int, wall: float) -> dict:
        return {"files": files, "bytes": files * 1000, **{key: {"wall_s": wall, "cpu_s": wall}
                                                          for key in ("1p", "2p", "overwrite", "delete")}}

    return {"corpus": "test", "papers": 100, "source": "HEAD", "date": "today", "load_start": "1", "load_end": "1",
            "peers": {"pelican": {"wall_s": pelican, "cpu_s": pelican}, "hugo": {"wall_s": hugo, "cpu_s": hugo}},
            "ours": {"cold": build(20.0, 30.0), "uncached": build(15.0, 24.0)},
            "write": {"pages": written(100, 0.5), "site": written(150, 1.0)},
            "interpreter": {"bare": {"wall_s": 0.05, "cpu_s": 0.05}, "modules": 900,
                            "imports": {"wall_s": 0.5, "cpu_s": 0.5, "importtime_s": 0.2, "imported": 500}},
            "costs": {"entries": 100, "render abstracts": 1.0, "derive titles": 1.0, "stages": {"load project": 4.0},
                      "templates": {"paper pages": {"files": 100, "cpu_s": 3.0},
                                    "citation formats": {"files": 20, "cpu_s": 2.0}}}}


def test_each_target_s_budget_beside_the_floors_and_the_two_core_bound():
    floors = load_floors()
    found = figures(pelican=16.0, hugo=3.0)
    cold = floors.floor_rows(found, "cold")
    cpu = sum(row[3] for row in cold)
    # writing the pages and the site, the imports, titles, topics, relate, map, the index's child, the templates
    assert cpu == pytest.approx(0.5 + 1.0 + 0.5 + 1.0 + 4.0 + 1.5 + 2.0 + 2.0 + 2.0 + 1.0 + 3.0)
    uncached = floors.floor_rows(found, "uncached")
    assert not any("titles" in row[0] or "Markdown pages" in row[0] for row in uncached)  # the pages are there
    assert sum(row[3] for row in uncached) == pytest.approx(cpu - 0.5 - 1.0)
    targets = {(t["build"], t["target"]): t for t in floors.targets(found)}
    assert targets[("cold", "0.5 × Pelican")]["budget_s"] == 8.0 and targets[("cold", "3 × Hugo")]["budget_s"] == 9.0
    bound = targets[("cold", "3 × Hugo")]
    assert bound["floor_bound_s"] == pytest.approx(cpu / 2)  # above the file system's and the interpreter's 2.0 s
    assert bound["floor_wall_s"] == pytest.approx(0.5 + 1.0 + 0.5)
    assert bound["reachable"] is (cpu / 2 <= 9.0) and bound["remains_s"] == pytest.approx(9.0 - cpu / 2)
    assert bound["cpu_bound_s"] == 15.0  # ours: 30 CPU-s on two cores
    assert all(t["reachable"] for t in floors.targets(figures(pelican=1000.0, hugo=1000.0)))
    assert not any(t["reachable"] for t in floors.targets(figures(pelican=2.0, hugo=0.5)))
    text = floors.report(found)
    assert "| **all of the above** | | | **" + f"{cpu:.2f}" + "** |" in text
    assert "| cold | 3 × Hugo | 9.00 | 20.00 (15.00) |" in text and "… map papers" in text


@pytest.mark.slow  # two builds, the imports' process three times and a build in a process of its own
def test_the_floors_are_measured_on_a_small_volume(tmp_path, monkeypatch):
    floors = load_floors()
    monkeypatch.setattr(floors, "OUT", tmp_path / "out")
    (tmp_path / "out").mkdir()
    content, site = seed_copy(tmp_path), tmp_path / "site"
    cold = floors.our_build(content, site, tmp_path / "cold.log")
    uncached = floors.our_build(content, site, tmp_path / "uncached.log", ("--no-cache",))
    found = floors.floors_of(content, site, cold["modules"], rounds=1)
    assert found["write"]["pages"]["files"] == 19
    assert found["write"]["site"]["files"] == sum(1 for path in site.rglob("*") if path.is_file())
    assert found["costs"]["entries"] == 19 and found["costs"]["templates"]["paper pages"]["files"] == 19
    assert found["costs"]["stages"]["load project"] > 0 and found["costs"]["render abstracts"] > 0
    assert found["interpreter"]["imports"]["imported"] > 100 and found["interpreter"]["modules"] > 100
    found.update(corpus="seed", papers=19, source="HEAD", date="today", load_start="", load_end="",
                 peers={"pelican": {"wall_s": 1.0, "cpu_s": 1.0}, "hugo": {"wall_s": 0.1, "cpu_s": 0.2}},
                 ours={"cold": cold, "uncached": uncached})
    text = floors.report(found)
    for label in ("(a) write the 19 Markdown pages", "(d) start Python", "(b) related papers", "(c) templates: paper"):
        assert label in text
