"""bench/stage_cpu.py, bench/floors.py and bench/cores.py (issue 43): each stage's CPU recorded around a real build,
the search index's child found among the build's processes, the table of budgets and floors made from a run's
figures, and each kept feature's core computing what the site holds."""

from __future__ import annotations

import importlib.util
import shutil
from collections import Counter
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

from conftest import BUNDLED_CONTENT, REPO


def load_floors() -> ModuleType:
    spec = importlib.util.spec_from_file_location("floors", REPO / "bench" / "floors.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_cores() -> ModuleType:
    load_floors()  # puts bench/ on sys.path
    import cores

    return cores


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


def with_cores(found: dict) -> dict:
    """``figures`` with each feature's core measured, as ``cores.measure`` gives them."""
    found["costs"]["cores"] = {
        "titles": {"cpu_s": 0.1, "papers": 100, "same_titles": 3},
        "topics": {"cpu_s": 1.5, "papers": 100, "topics": 20, "keywords": 900, "surveyed_hits": 50,
                   "papers_with_topics": 99},
        "related papers": {"cpu_s": 0.5, "papers": 100, "k": 4, "same_lists": 60, "all_pairs_cpu_s": 2.0,
                           "all_pairs_same_lists": 62},
        "map": {"cpu_s": 2.5, "papers": 100},  # more than the build's 2.0: the build is under the plain core
        "search index": {"cpu_s": 0.75, "files": 11, "site_files": 11, "bytes": 1000, "site_bytes": 1010,
                         "terms": 90, "site_terms": 80, "entries": 400},
        "citation formats": {"cpu_s": 0.5, "papers": 100, "files": 10, "bytes": 5000, "site_bytes": 5000,
                             "formats": {"bib": {"same_bytes": True}, "ris": {"same_bytes": False}}}}
    return found


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


def test_each_kept_feature_beside_its_core_and_the_targets_bound_at_the_cores():
    floors = load_floors()
    found = with_cores(figures(pelican=16.0, hugo=3.0))
    rows = {name: (cost, core) for name, cost, core, _ in floors.core_rows(found, "cold")}
    # the costs now are those the floors' table gives: titles, topics, relate, map, the index's child, the templates
    assert rows == {"titles": (1.0, 0.1), "topics": (4.0, 1.5), "related papers": (1.5, 0.5), "map": (2.0, 2.5),
                    "search index": (2.0, 0.75), "citation formats": (2.0, 0.5)}
    assert "titles" not in {row[0] for row in floors.core_rows(found, "uncached")}  # no titles derived there
    cpu = sum(row[3] for row in floors.floor_rows(found, "cold"))
    # each feature at its core, the map at its cost (the build already spends less than the plain core)
    at_cores = cpu - (0.9 + 2.5 + 1.0 + 0.0 + 1.25 + 1.5)
    target = {(t["build"], t["target"]): t for t in floors.targets(found)}[("cold", "3 × Hugo")]
    assert target["cores_cpu_s"] == pytest.approx(at_cores)
    assert target["cores_remains_s"] == pytest.approx(9.0 - at_cores / 2) and target["cores_reachable"]
    assert not any(t["cores_reachable"] for t in floors.targets(with_cores(figures(pelican=2.0, hugo=0.5))))
    text = floors.report(found)
    assert "| map | 2.00 | 2.50 | -0.50 | 0.8× |" in text and "| **all of them** | **12.50** | **5.85** |" in text
    assert "byte for byte the site's: .bib" in text and "60% the build's" in text
    assert "| floors with the cores, CPU ÷ 2 |" not in floors.report(figures(pelican=16.0, hugo=3.0))  # none measured


def test_a_data_script_is_written_as_the_site_writes_it_and_read_back(tmp_path):
    from generator.search.payload import data_script

    cores = load_cores()
    value = [["graph", 7, [0, 846, 1, 840], []], {"documents": 19, "tags": [["A & b", "tags/a-b.html"]]}]
    assert cores.write_script(b"proceedingsShards.arrived", b"t0", value) == data_script(
        "proceedingsShards.arrived", "t0", value)  # ASCII without "<": the same bytes
    (tmp_path / "t0.js").write_bytes(data_script("proceedingsShards.arrived", "t0", value))
    (tmp_path / "t1.js").write_bytes(cores.write_script(b"cb", b"t1", ["é", "<b>"]))
    assert [(c, n, v) for c, n, v, _ in cores.read_scripts(tmp_path)] == [
        (b"proceedingsShards.arrived", b"t0", value), (b"cb", b"t1", ["é", "<b>"])]
    (tmp_path / "t2.js").write_bytes(b"var x = 1;\n")
    with pytest.raises(ValueError, match="t2.js: not a data script"):
        cores.read_scripts(tmp_path)


def test_the_search_core_inverts_every_field_s_words_with_their_weights():
    cores = load_cores()
    numbers, refs, fields, weights = cores.postings([("Graph networks", "Graphs", "graph graph nets", ""),
                                                     ("Nets", "", "networks of nets", "Ada Graph")])
    assert list(numbers) == ["graph", "networks", "graphs", "nets", "of", "ada"]  # numbered as first met
    assert len(refs) == 11 and (weights > 0).all()  # an entry a (term, document, field)
    # in term order, each term's entries by document: "graph" in the first's title and abstract, the second's authors
    assert refs[:3].tolist() == [0, 0, 1] and fields[:3].tolist() == [0, 2, 3]
    assert weights[1] > weights[0]  # twice in an abstract outweighs once in a title of as many words (BM25)


def random_matrix(rows: int, width: int, seed: int = 3):
    import numpy as np
    from scipy import sparse

    dense = np.random.default_rng(seed).random((rows, width)) * (np.random.default_rng(seed + 1).random((rows, width))
                                                                  < 0.5)
    dense /= np.linalg.norm(dense, axis=1, keepdims=True)
    return sparse.csr_matrix(dense)


def test_the_related_core_finds_each_paper_s_nearest_by_exact_cosine():
    cores = load_cores()
    matrix = random_matrix(30, 14)  # every paper's 12 heaviest terms nearly all its terms: all are candidates
    found, exact = cores.related_lists(matrix, 4), cores.all_pairs(matrix, 4)
    products = (matrix @ matrix.T).toarray()
    for row, near in enumerate(exact.tolist()):
        others = sorted((p, n) for n, p in enumerate(products[row]) if n != row)
        assert near == [n for _, n in reversed(others[-4:])]  # best first, never itself
    assert found.shape == (30, 4) and (found == exact).mean() > 0.9
    result = cores.related_core(matrix, 4, exact.tolist())
    assert result["all_pairs_same_lists"] == 30 and result["same_lists"] >= 25


def test_the_map_core_places_every_paper(monkeypatch):
    import numpy as np

    cores = load_cores()
    monkeypatch.setattr(cores, "LANDMARKS", 20)  # 20 laid out by t-SNE, 40 placed among them
    positions = cores.layout(random_matrix(60, 30))
    assert positions.shape == (60, 2) and np.isfinite(positions).all() and positions.std(0).min() > 0
    assert cores.map_core(random_matrix(25, 30))["papers"] == 25


def test_the_topics_core_surveys_keywords_and_chooses_shared_phrases():
    cores = load_cores()
    texts = ["Graph neural networks for molecules", "We train graph neural networks on images of images of images",
             "Graph neural network pruning", "Speech recognition of speech", "Speech recognition at scale",
             "A survey of the images"]
    tags = [("Graphs", ["graph neural network"]), ("Vision", ["image"]), ("Speech", ["speech recognition"])]
    scores, chosen, each = cores.topics_of(texts, 2, frozenset({"of", "the", "a", "at", "on", "for", "we"}),
                                           cores.keyword_forms(tags))
    assert scores.tolist() == [[1, 0, 0], [1, 2, 0], [1, 0, 0], [0, 0, 1], [0, 0, 1], [0, 1, 0]]  # plurals, ≤ 2
    numbers, *_ = cores.grams(texts)
    named = {cores.key_of(tuple(phrase.split()), numbers): phrase for phrase in ("graph", "neural", "graph neural")}
    # on the most papers (3 of 6, at most half): "graph", "neural", "graph neural"; the first two in key order
    assert sorted(named[key] for key in chosen.tolist()) == ["graph", "neural"]
    assert each.shape == (2, 6) and set(each[0].tolist()) == {0, 1, 2}  # each of those papers has both


def test_the_titles_core_takes_the_contribution_or_the_first_sentence():
    cores = load_cores()
    assert cores.title_of("Models fail. We propose a fast sampler for graphs. It works.") == "Fast sampler for graphs"
    assert cores.title_of("Deep nets are large. They are slow.") == "Deep nets are large"
    long = cores.title_of("word " * 40 + "end.")
    assert len(long) <= 100 and not long.endswith(" ") and long.startswith("Word word")
    papers = [SimpleNamespace(abstract_plain="We present a map of papers. More.", title_plain="Map of papers"),
              SimpleNamespace(abstract_plain="We study graphs.", title_plain="A title the source gave")]
    found = cores.titles_core(papers, [True, False])  # only a paper whose source gives no title is derived
    assert found["papers"] == 1 and found["same_titles"] == 1


def test_the_citation_core_writes_the_site_s_volume_files_byte_for_byte(tmp_path):
    floors = load_floors()
    content, site = seed_copy(tmp_path), tmp_path / "site"
    assert floors.our_build(content, site, tmp_path / "build.log")["exit"] == 0
    related: dict = {}
    floors.captured_outputs(content, tmp_path / "capture", related)
    found = floors.measure_cores(content, site, related)
    formats = found["citation formats"]["formats"]
    assert set(formats) == {"bib", "ris", "enw", "apa.txt", "mods.xml", "csl.json"}
    assert all(f["same_bytes"] and f["site_records"] == 19 for f in formats.values())
    assert found["search index"]["files"] == found["search index"]["site_files"] == len(
        list((site / "assets" / "search").glob("*.js")))
    assert found["related papers"]["same_lists"] == 19 and found["map"]["papers"] == 19
    assert found["topics"]["topics"] == len({tag for paper in related["papers"] for tag in paper.paper.tags})
    assert found["titles"]["papers"] == 19 and all(f["cpu_s"] >= 0 for f in found.values())


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
    for label in ("(a) write the 19 Markdown pages", "(d) start Python", "(b) related papers", "(c) templates: paper",
                  "| search index |", "| citation formats |", "reachable at the cores? |"):
        assert label in text
    assert found["costs"]["cores"]["citation formats"]["papers"] == 19


def test_a_map_laid_out_by_a_child_costs_what_the_one_process_run_spent_on_it():
    floors = load_floors()
    found = figures(pelican=16.0, hugo=3.0)
    laid_out_here = floors.feature_costs(found, "cold")["map"]
    found["costs"]["stages"]["map papers"] = 1.7  # the one-process run lays the map out itself
    assert floors.feature_costs(found, "cold")["map"] == laid_out_here == 2.0  # the build's process did: its own
    for record in found["ours"]["cold"]["stages"]:
        if record["name"] == "map papers":
            record["self_cpu"] = 0.01  # a child laid it out: the stage only waited for its places
    assert floors.feature_costs(found, "cold")["map"] == 1.7
    assert any(row[3] == 1.7 and "map" in row[0] for row in floors.floor_rows(found, "cold"))
