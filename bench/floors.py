"""The floors under the cold and ``--no-cache`` builds, beside Pelican and Hugo, measured in one run (issue 43).

    python bench/floors.py [--papers 10000 | --corpus DIR] [--rounds 1] [--floor-rounds 2] [--source DIR]

Issue 43 is done when each target holds or RESULTS.md shows the figure that misses, its profile and what limits
it: a measured floor. This prints, for one corpus (default: ``run_bench.py``'s 10,000-paper bench corpus, made
by ``make_corpus.make``; ``--corpus DIR`` copies a content folder instead, e.g. ``/work/corp/r10k`` for papers with
authors, whose person pages the bench corpus has none of), in the same minutes:

1. **The peers**: Pelican and Hugo building the same papers (``run_bench.prepare_compare`` and ``other_build``:
   the titles, slugs and tags our cold build derived), wall time and CPU time (user + system, children included).
2. **Our builds**: cold (no pages, no cache, no site) and ``--no-cache`` (pages and site there, nothing reused),
   wall and CPU the same way, and each stage ``-v`` prints with its wall time, the CPU of the build's own
   process during it and the CPU of the whole process tree during it (``bench/stage_cpu.py``: the kernel's
   accounting around each ``Pipeline.timed``; forked workers, the search index's child beside relate and render
   included), and the time before the first stage (the interpreter's start, imports, the command line).
   Rounds interleave ours cold, ours ``--no-cache``, Pelican, Hugo, and the writing and interpreter floors; the
   fastest round of each is kept (a floor is the least the machine took).
3. **The floors** under them, each measured on this machine with the same data, each labelled with what it is:
   - (a) *writing the same files* (``write_floor.py``'s functions): the 10,000 Markdown pages the cold build wrote
     and the site's files, read into memory and written into a fresh folder on the same file system, in one
     process and in two; the best of ``--floor-rounds``. A true floor: no generator writing the same files here
     goes under it.
   - (b) *the work the issue keeps that a peer does not do*, each as the build's own cost: titles derived from
     the abstracts (``project.candidates_of`` over the rendered abstracts, one process), the volume's topics
     (the ``load project`` stage of a one-process build of the written pages: the list read, the taxonomy's
     survey, the key phrases and own topics), related papers and the map (the cold build's ``relate papers``
     and ``map papers`` stages, in the build's own process), the search index (its child's CPU in the cold
     build, from the start of search to its files), and the templates of the citation formats (the volume's
     ``.bib``/``.ris``/… and the reading blocks under ``assets/reading/``), the person pages and the other
     whole-volume files (feeds, ``papers.json``, the map's page, sitemap, glance) (``template_cost.py``'s
     capture: every output rendered once in one process, CPU). The cost of a feature as the build does it
     now, not a floor under any implementation: a faster way of doing the same would lower it.
   - (c) *the peers' own job*, as this build does it: Markdown → HTML of the 10,000 abstracts (the build's
     renderer, one process, CPU) and the templates of the paper, topic and contents pages (CPU).
   - (d) *the interpreter*: ``python -c pass``, and a fresh interpreter importing every module the cold build's
     process held at its end, in the same order, with bytecode (``-X importtime`` gives the imports' own sum).
4. **The cores** (``cores.py``, in the same process as (b) and (c)): each kept feature's irreducible core on the
   same data (the build's papers, related lists, TF-IDF matrix and taxonomy; the cold build's site), beside its
   cost now, with the gap between them (``cores_table``).
5. **The table**: each target's budget in seconds (0.5 × Pelican for the cold and ``--no-cache`` builds, 3 × Hugo
   for the cold), what the floors add up to, and what remains; and the bound two cores set: a build's wall time
   cannot go under its CPU ÷ 2, so with the floors' CPU ÷ 2 over the budget the target is out of reach with the
   features kept as they cost now, whatever the build's orchestration; and again with each feature at its core.
   Each budget is also given from the peer's CPU time, which a loaded machine moves far less than wall time:
   Pelican is one process (its wall with a core to itself is its CPU), Hugo uses both cores (its wall cannot go
   under its CPU ÷ 2).

The figures go to ``bench/out/floors/floors.json`` (with every round and stage) and are printed as Markdown tables
for RESULTS.md. Time at 10,000 papers: one round (four builds, the floors) took 3 minutes at a load of 4, two
rounds 18–20 minutes at a load of 7–12 (2026-12-07). The machine is shared: report ``uptime`` with the figures;
the load at each build is printed.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))
import run_bench  # noqa: E402
import write_floor  # noqa: E402

OUT = BENCH / "out" / "floors"
SOURCE = REPO  # the tree whose generator/ and themes/ are measured (--source)

# What each kind of file the render stage makes is, for the table (the paths the page types give).
CITATION_SUFFIXES = (".bib", ".ris", ".enw", ".csl.json", ".mods.xml", ".apa.txt")


def file_kind(path: str) -> str:
    """Which row of the table a rendered file's template CPU goes to."""
    top = path.split("/")[0] if "/" in path else ""
    if top == "papers" and path.endswith(".html"):
        return "paper pages"
    if top == "tags":
        return "topic pages"
    if top == "contents" or path == "index.html":
        return "contents pages"
    if top == "authors":
        return "person pages"
    if path.startswith("assets/reading/") or path.endswith(CITATION_SUFFIXES):
        return "citation formats"
    return "other files"


PEERS_JOB = ("paper pages", "topic pages", "contents pages")  # what Pelican and Hugo are asked to make too


# Our build, its stages' CPU ---------------------------------------------------------------------------------

def our_build(content: Path, site: Path, log: Path, extra: tuple[str, ...] = ()) -> dict[str, Any]:
    """``proceedings build -v`` as ``run_bench.our_build`` runs it, through ``stage_cpu.py``: the same process
    with each stage's CPU recorded."""
    stats = log.with_suffix(".json")
    env = {**os.environ, "PYTHONPATH": str(SOURCE)}
    cmd = [sys.executable, str(BENCH / "stage_cpu.py"), str(stats), "build", "--content", str(content),
           "--out", str(site), "-v", *extra]
    started = time.time()
    result = run_bench.run_measured(cmd, cwd=SOURCE, env=env, log=log)
    text = result.pop("output")
    if result["exit"] not in (0, 1):
        sys.exit(f"build failed (exit {result['exit']}), see {log}:\n{text[-3000:]}")
    data = json.loads(stats.read_text(encoding="utf-8"))
    summary = run_bench.SUMMARY_LINE.search(text)
    if summary:
        result["papers"], result["files"] = int(summary.group(1)), int(summary.group(2))
    result["stages"] = [{key: record[key] for key in ("name", "depth", "start", "wall", "self_cpu", "tree_cpu")}
                        for record in sorted(data["stages"], key=lambda record: record["start"])]
    result["before_first_stage_s"] = data["first_stage"] - started
    result["cpu_before_first_stage"] = data["cpu_before_first_stage"]
    outside = untimed(data)
    result.update(outside)
    result["exit_s"] = result["wall_s"] - (data["ended"] - started)  # the interpreter's exit
    result["exit_cpu"] = result["cpu_s"] - data["tree_cpu"]  # (wait4's, its children's included)
    result["search_child_cpu"] = search_child_cpu(data["stages"])
    result["modules"] = data["modules"]
    result["load"] = run_bench.loadavg()
    return result


def untimed(data: dict[str, Any]) -> dict[str, float]:
    """Wall and CPU (the whole tree's) of the build outside its timed stages, from the first stage on: between
    two stages (code no stage times), and after the last one (the site's size, the staging folder swapped in and
    the previous site deleted, the summary)."""
    outer = sorted((r for r in data["stages"] if r["depth"] == 0), key=lambda r: r["start"])
    if not outer:
        return {}
    gaps_wall = sum(b["start"] - (a["start"] + a["wall"]) for a, b in zip(outer, outer[1:]))
    gaps_cpu = sum(b["tree_at_start"] - a["tree_at_end"] for a, b in zip(outer, outer[1:]))
    last = outer[-1]
    return {"between_stages_s": gaps_wall, "between_stages_cpu": gaps_cpu,
            "after_stages_s": data["ended"] - data["python_started"] - (last["start"] + last["wall"]),
            "after_stages_cpu": data["tree_cpu"] - last["tree_at_end"]}


def search_child_cpu(records: list[dict[str, Any]]) -> float | None:
    """The CPU of the search index's child: the process born while "start search" ran, as last seen alive
    (or finished and not yet waited for), plus what the wait for it ("search index") saw other processes
    spend if it was still running then."""
    start = next((r for r in records if r["name"] == "start search"), None)
    if start is None:
        return None
    born = set(start["live_after"]) - set(start["live_before"])
    if not born:
        return None  # run in the build's process (a tiny volume), inside "search index"
    seen = 0.0
    for record in records:
        for snapshot in (record["live_before"], record["live_after"]):
            seen = max(seen, sum(snapshot.get(pid, 0.0) for pid in born))
    wait = next((r for r in records if r["name"] == "search index"), None)
    if wait is not None and born & set(wait["live_before"]):
        seen += max(0.0, wait["tree_cpu"] - wait["self_cpu"])
    return seen


def stage(run: dict[str, Any], name: str, key: str = "self_cpu") -> float:
    """A stage's figure, summed over its calls (``read pages`` runs twice)."""
    return sum(record[key] for record in run["stages"] if record["name"] == name)


LAID_OUT_ELSEWHERE = 0.1  # CPU-s: a "map papers" stage under it in the build's process waited for a child's places


def map_cost(run: dict[str, Any], cost: dict[str, Any]) -> float:
    """The map's layout's CPU under one of our builds: its "map papers" stage in the build's process, where that
    process laid the map out; where a forked child did (pipeline/mapping.py: the stage is then the wait for its
    places), the one-process run's "map papers", which lays it out in its own process."""
    spent = stage(run, "map papers")
    return spent if spent >= LAID_OUT_ELSEWHERE else cost["stages"].get("map papers", spent)


# The floors ---------------------------------------------------------------------------------------------------

def cpu_now() -> float:
    own, waited = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + waited.ru_utime + waited.ru_stime


def timed(work: Any, *args: Any) -> tuple[float, float]:
    """(wall s, CPU s of this process and the children it waited for) of ``work(*args)``."""
    before, start = cpu_now(), time.perf_counter()
    work(*args)
    return time.perf_counter() - start, cpu_now() - before


def write_floors(folder: Path, rounds: int, workers: tuple[int, ...] = (1, 2)) -> dict[str, Any]:
    """``write_floor.py``'s floor for one folder: its files written again into a fresh folder, best wall of
    ``rounds`` per number of processes, with that round's CPU (this process and its forked writers); then,
    each round, the same files written over the copy (opened, truncated and written: how Pelican and Hugo
    replace a site) and the copy deleted (how a build that swaps a new site in drops the old one)."""
    folders, files = write_floor.read_site(folder)
    found: dict[str, Any] = {"files": len(files), "bytes": sum(len(data) for _, data in files)}
    scratch = folder.resolve().parent / f"write-floor-{os.getpid()}"
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir()
    try:
        replaced: dict[str, list[tuple[float, float]]] = {"overwrite": [], "delete": []}
        for count in workers:
            made: list[tuple[float, float]] = []
            for number in range(rounds):
                target = scratch / f"w{count}-{number}"
                made.append(timed(write_floor.write_all, target, folders, files, count))
                if count == 1:
                    replaced["overwrite"].append(timed(write_floor._write, str(target), files))
                replaced["delete"].append(timed(shutil.rmtree, target))
            found[f"{count}p"] = dict(zip(("wall_s", "cpu_s"), min(made)))
        for name, runs in replaced.items():
            found[name] = dict(zip(("wall_s", "cpu_s"), min(runs)))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return found


IMPORTS = """\
import importlib, sys
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
    except Exception:  # a module made at run time (six.moves…), or one only a forked child may import
        pass
"""


def interpreter_floor(modules: list[str], rounds: int) -> dict[str, Any]:
    """(d): a bare interpreter's start, and one that imports what the cold build's process held (its
    ``-X importtime`` lines summed: the imports' own time)."""
    env = {**os.environ, "PYTHONPATH": str(SOURCE)}
    names = [name for name in modules if name not in ("__main__", "__mp_main__") and not name.startswith("_frozen")]
    bare = min((run_bench.run_measured([sys.executable, "-c", "pass"], cwd=SOURCE, env=env) for _ in range(rounds)),
               key=lambda r: r["wall_s"])
    best: dict[str, Any] | None = None
    for number in range(rounds):
        log = OUT / f"imports-{number}.log"
        run = run_bench.run_measured([sys.executable, "-X", "importtime", "-c", IMPORTS, *names], cwd=SOURCE,
                                     env=env, log=log)
        lines = [line for line in run.pop("output").splitlines() if line.startswith("import time:")]
        run["importtime_s"] = sum(int(line.split("|")[0].split(":")[1]) for line in lines[1:]) / 1e6  # self µs
        run["imported"] = len(lines) - 1
        if best is None or run["wall_s"] < best["wall_s"]:
            best = run
    assert best is not None
    return {"bare": {"wall_s": bare["wall_s"], "cpu_s": bare["cpu_s"]}, "modules": len(names),
            "imports": {key: best[key] for key in ("wall_s", "cpu_s", "importtime_s", "imported")}}


def costs(content: Path, site: Path | None = None) -> dict[str, Any]:
    """(b) and (c) measured in a process of their own (``--costs``: its build and the outputs' bytes are its
    own, and nothing it patches stays), on the tree measured; with ``site`` (the cold build's, of the same
    content), each kept feature's core beside them (``cores.py``)."""
    out = OUT / "costs.json"
    env = {**os.environ, "PYTHONPATH": str(SOURCE)}
    subprocess.run([sys.executable, str(Path(__file__).resolve()), "--costs", str(content), str(out),
                    str(site or ""), "--source", str(SOURCE)], cwd=SOURCE, env=env, check=True)
    return json.loads(out.read_text(encoding="utf-8"))


def captured_outputs(content: Path, work: Path, related: dict[str, Any] | None = None) -> list[Any]:
    """As ``template_cost.py`` captures them, in ``work``: a build of a copy of CONTENT in this process (one job, no
    cache) whose render stage lists its outputs and renders none. ``related``, if given, is handed the papers
    the relate stage was given (``papers``) and its lists (``lists``), for the cores."""
    from generator.commands.build import build
    from generator.pipeline import stages
    from generator.reporter import Reporter

    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(content, work / "content", ignore=shutil.ignore_patterns(run_bench.BUILD_CACHE))
    captured: list[Any] = []

    def keep(outputs: list[Any], *how: Any, **more: Any) -> list[Any]:
        captured.extend(outputs)
        return []

    relate = stages.related_ids

    def relating(papers: Any, *args: Any, **kwargs: Any) -> Any:
        found = relate(papers, *args, **kwargs)
        if related is not None:
            related.update(papers=list(papers), lists=found)
        return found

    listing, stages.render_outputs = stages.render_outputs, keep  # type: ignore[assignment]
    stages.related_ids = relating  # type: ignore[assignment]
    try:
        build(work / "content", work / "site", Reporter(), jobs=1, cache=False)
    finally:
        stages.render_outputs = listing  # type: ignore[assignment]
        stages.related_ids = relate  # type: ignore[assignment]
    return captured


def measure_costs(content: Path, work: Path, site: Path | None = None) -> dict[str, Any]:
    """In this process (``PYTHONPATH`` the measured tree), one process, CPU time: the abstracts rendered and the
    titles derived from them; a build of the written pages (one job, no cache: every stage worked out, no titles
    derived, the pages there) timed stage by stage; then every file it lists rendered once, by kind."""
    from generator.content.project import candidates_of
    from generator.latex import AbstractRenderer
    from generator.runtime.collector import build_pace
    from generator.sources import find_sources, read_source

    import stage_cpu
    import template_cost  # forget_fragments

    entries = [entry for path in find_sources(content) for entry in read_source(path, path.name).entries]
    found: dict[str, Any] = {"entries": len(entries)}
    with build_pace():
        renderer = AbstractRenderer()
        AbstractRenderer().render("$x$ and *y*")  # the engine's imports (in (d)), not in the first abstract's time
        start = time.process_time()
        renderings = [renderer.render(entry.text) for entry in entries]
        found["render abstracts"] = time.process_time() - start
        start = time.process_time()
        for entry, rendering in zip(entries, renderings):
            candidates_of(entry, rendering.plain)
        found["derive titles"] = time.process_time() - start
    del renderings, renderer

    from generator.pipeline import stages

    timed, spent = stages.Pipeline.timed, {}

    def measured(self: Any, name: str, func: Any, *args: Any, **kwargs: Any) -> Any:
        before = stage_cpu.snapshot()
        try:
            return timed(self, name, func, *args, **kwargs)
        finally:
            after = stage_cpu.snapshot()
            spent[name] = spent.get(name, 0.0) + after["tree"] - before["tree"]

    stages.Pipeline.timed = measured  # type: ignore[method-assign]
    related: dict[str, Any] = {}
    try:
        outputs = captured_outputs(content, work, related)
    finally:
        stages.Pipeline.timed = timed  # type: ignore[method-assign]
    found["stages"] = spent
    kinds: dict[str, dict[str, float]] = {}
    with build_pace():
        template_cost.forget_fragments()
        for output in outputs:
            kind = file_kind(output.path)
            start = time.process_time()
            output.render()
            row = kinds.setdefault(kind, {"files": 0, "cpu_s": 0.0})
            row["files"] += 1
            row["cpu_s"] += time.process_time() - start
    found["templates"] = kinds
    del outputs
    if site is not None and related:
        found["cores"] = measure_cores(content, site, related)
    shutil.rmtree(work, ignore_errors=True)
    return found


def measure_cores(content: Path, site: Path, related: dict[str, Any]) -> dict[str, Any]:
    """Each kept feature's core (``cores.py``) on what the build made: its papers, related lists and TF-IDF
    matrix, the taxonomy it surveyed, the site's files."""
    from generator.derive.related import matrix_for
    from generator.derive.tagging import load_taxonomy
    from generator.runtime.collector import build_pace
    from generator.search.terms import STOP_WORDS

    import cores

    from generator.sources import find_sources, read_source

    papers = related["papers"]
    untitled = {(entry.source, entry.index) for path in find_sources(content)
                for entry in read_source(path, path.name).entries if not entry.title}
    derived = [(paper.paper.source, paper.paper.entry) in untitled for paper in papers]
    place = {paper.paper.id: number for number, paper in enumerate(papers)}
    lists = [[place[other] for other in related["lists"][paper.paper.id]] for paper in papers]
    tags = [(rule.name, rule.keywords) for rule in load_taxonomy(content).tags]
    with build_pace():
        return cores.measure(papers, lists, matrix_for(papers), site, tags, frozenset(STOP_WORDS), derived)


# The table ----------------------------------------------------------------------------------------------------

def floor_rows(figures: dict[str, Any], kind: str) -> list[tuple[str, str, float | None, float]]:
    """(label, what it is, wall s or None where only CPU was measured, CPU s) of each floor under one of our
    builds ("cold" or "uncached")."""
    rows: list[tuple[str, str, float | None, float]] = []
    writes = figures["write"]
    if kind == "cold":
        pages = writes["pages"]
        rows.append((f"(a) write the {pages['files']:,} Markdown pages ({pages['bytes'] / 1e6:.1f} MB), one process",
                     "floor: the file system", pages["1p"]["wall_s"], pages["1p"]["cpu_s"]))
    site = writes["site"]
    if kind == "cold":
        rows.append((f"(a) write the site's {site['files']:,} files ({site['bytes'] / 1e6:.1f} MB), one process",
                     "floor: the file system", site["1p"]["wall_s"], site["1p"]["cpu_s"]))
    else:  # the site is there: written over in place, or written anew and the old one deleted, whichever is less
        anew = {key: site["1p"][key] + site["delete"][key] for key in ("wall_s", "cpu_s")}
        replace = min(site["overwrite"], anew, key=lambda r: r["wall_s"])
        rows.append((f"(a) replace the site's {site['files']:,} files ({site['bytes'] / 1e6:.1f} MB), one process: "
                     f"{'over the old ones' if replace is site['overwrite'] else 'anew, the old ones deleted'}",
                     "floor: the file system", replace["wall_s"], replace["cpu_s"]))
    start = figures["interpreter"]
    rows.append((f"(d) start Python and import the {start['modules']:,} modules the build loads",
                 "floor: this interpreter and these libraries", start["imports"]["wall_s"], start["imports"]["cpu_s"]))
    run, cost = figures["ours"][kind], figures["costs"]
    templates = cost["templates"]

    def template(name: str) -> float:
        return templates.get(name, {}).get("cpu_s", 0.0)

    def files(name: str) -> int:
        return int(templates.get(name, {}).get("files", 0))

    if kind == "cold":
        rows.append(("(b) titles derived from the abstracts", "kept feature, its cost now", None,
                     cost["derive titles"]))
    load = cost["stages"].get("load project", 0.0)
    rows.append(("(b) the volume's topics (load project: list, survey, key phrases, own topics)",
                 "kept feature, its cost now", None, load))
    rows.append(("(b) related papers (relate papers, the build's process)", "kept feature, its cost now",
                 stage(run, "relate papers", "wall"), stage(run, "relate papers")))
    rows.append(("(b) the map's layout (map papers: the build's process, or the one-process run's where a child "
                 "laid it out)", "kept feature, its cost now", stage(run, "map papers", "wall"), map_cost(run, cost)))
    child = run.get("search_child_cpu") or 0.0
    rows.append(("(b) the search index (its child's CPU)", "kept feature, its cost now", None, child))
    for name, label in (("citation formats", "citation formats (the volume's files, the reading blocks)"),
                        ("person pages", "person pages"),
                        ("other files", "feeds, papers.json, sitemap, glance, map page, search page…")):
        rows.append((f"(b) templates: {label}, {files(name):,} files", "kept feature, its cost now",
                     None, template(name)))
    rows.append((f"(c) Markdown → HTML of the {cost['entries']:,} abstracts", "the peers' job, as we do it",
                 None, cost["render abstracts"]))
    for name in PEERS_JOB:
        rows.append((f"(c) templates: {name}, {files(name):,} files", "the peers' job, as we do it",
                     None, template(name)))
    return rows


def feature_costs(figures: dict[str, Any], kind: str) -> dict[str, float]:
    """Each kept feature's cost now under one of our builds, as ``floor_rows`` gives it: those with a core."""
    run, cost = figures["ours"][kind], figures["costs"]
    found = {"topics": cost["stages"].get("load project", 0.0), "related papers": stage(run, "relate papers"),
             "map": map_cost(run, cost), "search index": run.get("search_child_cpu") or 0.0,
             "citation formats": cost["templates"].get("citation formats", {}).get("cpu_s", 0.0)}
    return {"titles": cost["derive titles"], **found} if kind == "cold" else found


def core_rows(figures: dict[str, Any], kind: str) -> list[tuple[str, float, float, str]]:
    """(feature, its cost now, its core's CPU, what the core is and was checked against) of each kept feature
    measured with a core (``cores.py``), under one of our builds."""
    import cores

    measured = figures["costs"].get("cores") or {}
    return [(name, cost, measured[name]["cpu_s"], f"{cores.WHAT[name]}: {cores.checked(name, measured[name])}")
            for name, cost in feature_costs(figures, kind).items() if name in measured]


def targets(figures: dict[str, Any]) -> list[dict[str, Any]]:
    """Each target's budget, our figure, the floors' sum and the two-core bound."""
    peers = figures["peers"]
    pelican, hugo = peers["pelican"]["wall_s"], peers["hugo"]["wall_s"]
    # Pelican is one process: its CPU time is its wall time when it has a core to itself. On a loaded machine its
    # wall time stretches more than ours (it waits for one core, we for two), so the budget is given both ways.
    # Hugo works on both cores: its wall cannot go under its CPU ÷ 2, what it would take with both to itself.
    alone = ("0.5 × Pelican's CPU (its wall on a core of its own)", 0.5 * peers["pelican"]["cpu_s"])
    both = ("3 × Hugo's CPU ÷ 2 (its wall on two free cores, at best)", 3 * peers["hugo"]["cpu_s"] / 2)
    found = []
    for kind, label, budgets in (("cold", "cold", (("0.5 × Pelican", 0.5 * pelican), alone, ("3 × Hugo", 3 * hugo),
                                                   both)),
                                 ("uncached", "--no-cache", (("0.5 × Pelican", 0.5 * pelican), alone))):
        run = figures["ours"][kind]
        rows = floor_rows(figures, kind)
        floor_cpu = sum(cpu for _, _, _, cpu in rows)
        hard = [row for row in rows if row[1].startswith("floor")]
        io_wall = sum(wall or 0.0 for _, _, wall, _ in hard)  # no build writing these files on this Python goes under
        cored = core_rows(figures, kind)
        # the same floors with each feature measured with a core at its core instead of its cost now (or at its
        # cost, where the build already spends less than the plain core took: it shows the feature done for that)
        cores_cpu = floor_cpu - sum(cost - min(cost, core) for _, cost, core, _ in cored)
        for name, budget in budgets:
            found.append({"build": label, "target": name, "budget_s": budget, "wall_s": run["wall_s"],
                          "cpu_s": run["cpu_s"], "cpu_bound_s": run["cpu_s"] / 2, "floor_wall_s": io_wall,
                          "floor_cpu_s": floor_cpu, "floor_bound_s": max(io_wall, floor_cpu / 2),
                          "remains_s": budget - max(io_wall, floor_cpu / 2),
                          "reachable": max(io_wall, floor_cpu / 2) <= budget,
                          **({"cores_cpu_s": cores_cpu, "cores_bound_s": max(io_wall, cores_cpu / 2),
                              "cores_remains_s": budget - max(io_wall, cores_cpu / 2),
                              "cores_reachable": max(io_wall, cores_cpu / 2) <= budget} if cored else {})})
    return found


def report(figures: dict[str, Any]) -> str:
    peers, ours = figures["peers"], figures["ours"]
    lines = [f"Corpus: {figures['corpus']} ({figures['papers']:,} papers); generator `{figures['source']}`; "
             f"{figures['date']}, load {figures['load_start']} at the start, {figures['load_end']} at the end.", "",
             "| build | wall s | CPU s (user + sys, children) | CPU ÷ 2 | load at its start |",
             "|---|---:|---:|---:|---|"]
    for name, label in (("pelican", f"Pelican {peers.get('versions', {}).get('pelican', '')}".strip()),
                        ("hugo", f"Hugo {peers.get('versions', {}).get('hugo', '')}".strip())):
        peer = peers[name]
        lines.append(f"| {label} | {peer['wall_s']:.2f} | {peer['cpu_s']:.2f} | {peer['cpu_s'] / 2:.2f} | "
                     f"{peer.get('load', '')} |")
    for kind, label in (("cold", "ours, cold"), ("uncached", "ours, --no-cache")):
        run = ours[kind]
        lines.append(f"| {label} | {run['wall_s']:.2f} | {run['cpu_s']:.2f} | {run['cpu_s'] / 2:.2f} | "
                     f"{run.get('load', '')} |")
    lines += ["", "Stages (`-v`): wall s / CPU s of the build's process / CPU s of every process of the build "
              "meanwhile (workers, the search index's child):", "",
              "| stage | cold | --no-cache |", "|---|---:|---:|"]

    def cell(run: dict[str, Any], index: int) -> str:
        r = run["stages"][index]
        return f"{r['wall']:.2f} / {r['self_cpu']:.2f} / {r['tree_cpu']:.2f}"

    cold, uncached = ours["cold"], ours["uncached"]
    lines.append(f"| before the first stage (start, imports, command line) | {cold['before_first_stage_s']:.2f} / "
                 f"{cold['cpu_before_first_stage']:.2f} / – | {uncached['before_first_stage_s']:.2f} / "
                 f"{uncached['cpu_before_first_stage']:.2f} / – |")
    def keyed(run: dict[str, Any]) -> dict[tuple[str, int, int], int]:
        """Each stage call's index by (name, depth, which call of that name): "read pages" runs twice."""
        seen: dict[tuple[str, int], int] = {}
        found = {}
        for index, r in enumerate(run["stages"]):
            count = seen[(r["name"], r["depth"])] = seen.get((r["name"], r["depth"]), 0) + 1
            found[(r["name"], r["depth"], count)] = index
        return found

    cold_keys, uncached_keys = keyed(cold), keyed(uncached)
    for key in sorted(cold_keys.keys() | uncached_keys.keys(),
                      key=lambda k: cold_keys.get(k, uncached_keys.get(k, 0))):
        name, depth, _ = key
        lines.append(f"| {'… ' * depth}{name} | {cell(cold, cold_keys[key]) if key in cold_keys else ''} | "
                     f"{cell(uncached, uncached_keys[key]) if key in uncached_keys else ''} |")
    for label, key in (("between the stages (code no stage times)", "between_stages") if "between_stages_s" in cold
                       else ("", ""),
                       ("after the last stage (the site's size, swapped in, the old one deleted; the summary)",
                        "after_stages"), ("the interpreter's exit (wait4's CPU after the last snapshot)", "exit")):
        if not key:
            continue
        lines.append(f"| {label} | " + " | ".join(
            f"{run[key + '_s']:.2f} / – / {run[key + '_cpu']:.2f}" if key + "_cpu" in run else f"{run[key + '_s']:.2f}"
            for run in (cold, uncached)) + " |")
    child = cold.get("search_child_cpu")
    lines += ["", f"The search index's child: {child:.2f} CPU-s in the cold build, "
                  f"{(uncached.get('search_child_cpu') or 0):.2f} in the --no-cache build." if child else "", ""]
    writes = figures["write"]
    lines += ["Writing the same files (`write_floor.py`'s functions, best of the rounds): wall s / CPU s", "",
              "| files | written anew, one process | anew, two processes | over the copy, in place "
              "| the copy deleted |",
              "|---|---:|---:|---:|---:|"]
    for name, label in (("pages", "the Markdown pages"), ("site", "the site")):
        w = writes[name]
        lines.append(f"| {label}: {w['files']:,} files, {w['bytes'] / 1e6:.1f} MB | " + " | ".join(
            f"{w[key]['wall_s']:.2f} / {w[key]['cpu_s']:.2f}" for key in ("1p", "2p", "overwrite", "delete")) + " |")
    start = figures["interpreter"]
    lines += ["", f"The interpreter: `python -c pass` {start['bare']['wall_s']:.3f} s; importing the "
                  f"{start['modules']:,} modules the cold build's process held: "
                  f"{start['imports']['wall_s']:.2f} s wall, "
                  f"{start['imports']['cpu_s']:.2f} CPU-s (`-X importtime`: {start['imports']['importtime_s']:.2f} s "
                  f"in {start['imports']['imported']:,} imports).", ""]
    for kind, label in (("cold", "cold"), ("uncached", "--no-cache")):
        rows = floor_rows(figures, kind)
        lines += [f"Floors under the {label} build (wall s where it was timed alone; CPU s):", "",
                  "| floor | what it is | wall s | CPU s |", "|---|---|---:|---:|"]
        lines += [f"| {label_} | {what} | {'–' if wall is None else f'{wall:.2f}'} | {cpu:.2f} |"
                  for label_, what, wall, cpu in rows]
        total = sum(cpu for *_, cpu in rows)
        run = ours[kind]
        lines += [f"| **all of the above** | | | **{total:.2f}** |",
                  f"| the build's CPU beyond them (parsing, syncing, splitting words, sending work to processes…) "
                  f"| | | {run['cpu_s'] - total:.2f} |", ""]
    lines += cores_table(figures)
    found = targets(figures)
    with_cores = all("cores_cpu_s" in t for t in found)
    lines += ["Targets (seconds; the bound on two cores: a wall time cannot go under CPU ÷ 2):", "",
              "| build | target | budget | ours: wall (CPU ÷ 2) | floors: the file system and the interpreter, wall "
              "| floors, all, CPU ÷ 2 | budget − the floors' bound | reachable with the features kept? |"
              + (" floors with the cores, CPU ÷ 2 | budget − that bound | reachable at the cores? |"
                 if with_cores else ""),
              "|---|---|---:|---:|---:|---:|---:|---|" + ("---:|---:|---|" if with_cores else "")]
    for t in found:
        verdict = "yes, on the floors" if t["reachable"] else "not with the features at their cost now"
        lines.append(f"| {t['build']} | {t['target']} | {t['budget_s']:.2f} | {t['wall_s']:.2f} "
                     f"({t['cpu_bound_s']:.2f}) | {t['floor_wall_s']:.2f} | {t['floor_cpu_s'] / 2:.2f} | "
                     f"{t['remains_s']:+.2f} | {verdict} |"
                     + (f" {t['cores_cpu_s'] / 2:.2f} | {t['cores_remains_s']:+.2f} | "
                        f"{'yes' if t['cores_reachable'] else 'no: over it even at the cores'} |"
                        if with_cores else ""))
    return "\n".join(lines) + "\n"


def cores_table(figures: dict[str, Any]) -> list[str]:
    """Each kept feature's cost now beside its measured core (``cores.py``, one process, CPU s) and the gap."""
    rows = core_rows(figures, "cold")
    if not rows:
        return []
    lines = ["The kept features beside their cores (CPU s; the cost now as under the cold build, the core measured "
             "on the same data in one process; gap = cost − core, what our code adds above the core):", "",
             "| feature | cost now | its core | gap | cost ÷ core "
             "| the core, and what its result was checked against |",
             "|---|---:|---:|---:|---:|---|"]
    for name, cost, core, what in rows:
        lines.append(f"| {name} | {cost:.2f} | {core:.2f} | {cost - core:+.2f} | "
                     f"{cost / core if core else float('inf'):.1f}× | {what} |")
    total_cost, total_core = sum(r[1] for r in rows), sum(r[2] for r in rows)
    lines += [f"| **all of them** | **{total_cost:.2f}** | **{total_core:.2f}** | **{total_cost - total_core:+.2f}** "
              f"| {total_cost / total_core if total_core else float('inf'):.1f}× | |", ""]
    return lines


# The run ------------------------------------------------------------------------------------------------------

def prepare(args: argparse.Namespace) -> tuple[Path, str, int]:
    content = OUT / "content"
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    if args.corpus:
        shutil.copytree(args.corpus, content, ignore=shutil.ignore_patterns("papers", run_bench.BUILD_CACHE))
        return content, str(args.corpus), 0
    run_bench.make_corpus.make(args.papers, content)
    return content, f"make_corpus.make({args.papers})", args.papers


def measure(args: argparse.Namespace) -> dict[str, Any]:
    content, corpus, papers = prepare(args)
    site = OUT / "site"
    run_bench.compile_tree(SOURCE)
    figures: dict[str, Any] = {"date": dt.datetime.now().strftime("%Y-%m-%d %H:%M"), "load_start": run_bench.loadavg(),
                               "corpus": corpus, "source": run_bench.source_state() if SOURCE == REPO else str(SOURCE),
                               "command": "python bench/floors.py " + " ".join(sys.argv[1:])}
    rounds: dict[str, list[dict[str, Any]]] = {"cold": [], "uncached": [], "pelican": [], "hugo": [], "floors": []}
    tools = None
    for number in range(1, args.rounds + 1):
        for folder in (content / "papers", content / run_bench.BUILD_CACHE, site):
            shutil.rmtree(folder, ignore_errors=True)
        print(f"round {number}/{args.rounds}: ours, cold (load {run_bench.loadavg()})", flush=True)
        rounds["cold"].append(our_build(content, site, OUT / f"cold-{number}.log"))
        print(f"  {rounds['cold'][-1]['wall_s']:.2f} s; ours, --no-cache (load {run_bench.loadavg()})", flush=True)
        rounds["uncached"].append(our_build(content, site, OUT / f"uncached-{number}.log", ("--no-cache",)))
        print(f"  {rounds['uncached'][-1]['wall_s']:.2f} s", flush=True)
        if tools is None:
            tools = run_bench.prepare_compare(content, OUT)
        for name, (root, cmd, env) in tools.items():
            load = run_bench.loadavg()
            rounds[name].append({**run_bench.other_build(papers, name, root, cmd, env, OUT / f"{name}-{number}.log"),
                                 "load": load})
        # The floors in every round too, beside the builds: a floor is the least the machine took (others write)
        rounds["floors"].append(floors_of(content, site, rounds["cold"][-1]["modules"], args.floor_rounds, False))
    figures["papers"] = rounds["cold"][0].get("papers", papers)
    best = {kind: min(runs, key=lambda r: r["wall_s"]) for kind, runs in rounds.items() if kind != "floors"}
    figures["ours"] = {kind: best[kind] for kind in ("cold", "uncached")}
    figures["peers"] = {"versions": run_bench.tool_versions(run_bench.VENV / "bin" / "python"),
                        **{name: best[name] for name in ("pelican", "hugo")}}
    figures["rounds"] = {kind: [{k: v for k, v in run.items() if k != "modules"} for run in runs]
                         for kind, runs in rounds.items()}
    for name in ("pelican", "hugo"):  # their projects are not needed any more: disk
        shutil.rmtree(OUT / name, ignore_errors=True)
    figures.update(least(rounds["floors"]))
    print(f"floors: the features' and the peers' job's CPU, one process (load {run_bench.loadavg()})", flush=True)
    figures["costs"] = costs(content, site)
    figures["load_end"] = run_bench.loadavg()
    for kind in ("cold", "uncached"):
        figures["ours"][kind] = {k: v for k, v in figures["ours"][kind].items() if k != "modules"}
    return figures


def floors_of(content: Path, site: Path, modules: list[str], rounds: int, with_costs: bool = True) -> dict[str, Any]:
    """The floors under a build of ``content`` into ``site`` (its pages written), ``modules`` those its process
    held: writing, the interpreter, and with ``with_costs`` the features' and the peers' job's CPU."""
    print(f"floors: writing (load {run_bench.loadavg()})", flush=True)
    found: dict[str, Any] = {"write": {"pages": write_floors(content / "papers", rounds),
                                       "site": write_floors(site, rounds)}}
    print(f"floors: the interpreter (load {run_bench.loadavg()})", flush=True)
    found["interpreter"] = interpreter_floor(modules, max(rounds, 3))
    if with_costs:
        print(f"floors: the features' and the peers' job's CPU, one process (load {run_bench.loadavg()})", flush=True)
        found["costs"] = costs(content, site)
    return found


def least(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The rounds' writing and interpreter floors, each figure the least wall time any round took (with its CPU)."""
    def fastest(figures: list[dict[str, Any]]) -> dict[str, Any]:
        return min(figures, key=lambda figure: figure["wall_s"])

    write = {name: {**runs[0]["write"][name], **{key: fastest([run["write"][name][key] for run in runs])
                                                 for key in ("1p", "2p", "overwrite", "delete")}}
             for name in ("pages", "site")}
    interpreter = {**runs[0]["interpreter"], "bare": fastest([run["interpreter"]["bare"] for run in runs]),
                   "imports": fastest([run["interpreter"]["imports"] for run in runs])}
    return {"write": write, "interpreter": interpreter}


def main() -> None:
    global SOURCE
    if len(sys.argv) > 1 and sys.argv[1] == "--costs":  # the in-process part, run by costs()
        found = measure_costs(Path(sys.argv[2]), Path(sys.argv[3]).parent / "capture",
                              Path(sys.argv[4]) if sys.argv[4] else None)
        Path(sys.argv[3]).write_text(json.dumps(found), encoding="utf-8")
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, default=10000, help="the bench corpus's size (make_corpus)")
    parser.add_argument("--corpus", type=Path, help="copy this content folder instead (its pages and cache left out)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of ours cold, ours --no-cache, Pelican, Hugo")
    parser.add_argument("--floor-rounds", type=int, default=2, help="rounds of each writing floor (best kept)")
    parser.add_argument("--source", type=Path, help="measure the generator/ and themes/ in this folder")
    parser.add_argument("--keep", action="store_true", help="keep the content folder and the site")
    parser.add_argument("--report", type=Path, metavar="JSON", help="measure nothing: print the tables of a saved run")
    args = parser.parse_args()
    if args.report:
        print(report(json.loads(args.report.read_text(encoding="utf-8"))))
        return
    if args.source:
        SOURCE = args.source.resolve()
    figures = measure(args)
    (OUT / "floors.json").write_text(json.dumps(figures, indent=1, sort_keys=True), encoding="utf-8")
    text = report(figures)
    (OUT / "floors.md").write_text(text, encoding="utf-8")
    print("\n" + text)
    if not args.keep:
        for folder in ("content", "site"):
            shutil.rmtree(OUT / folder, ignore_errors=True)
    print(f"figures in {OUT.relative_to(REPO)}/floors.json and floors.md")


if __name__ == "__main__":
    main()
