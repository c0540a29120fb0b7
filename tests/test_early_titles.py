"""A first build's titles made while the volume is surveyed (content/project.py, ``EarlyTitles``):
the same pages and the same site as when the sync derives them, on every core count."""

from __future__ import annotations

import csv
import filecmp
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.commands import build as commands_build
from generator.content import project as project_module
from generator.content.project import load_project, make_deriver
from generator.reporter import Reporter
from generator.runtime.cache import BuildCache
from generator.runtime.executor import Executor
from generator.runtime import sizes
from generator.runtime.sizes import LARGE, SizePolicy

FIXTURES = Path(__file__).parent / "fixtures"
ROOT = Path(__file__).parent.parent
# Work split from one item, but no fresh processes: a volume the policy calls large makes no titles early.
SPLIT = SizePolicy(heavy_split=1, light_split=1)


def plain_list(folder: Path) -> Path:
    """A plain list of a dialogue volume's abstracts (no titles: each is derived; the built-in taxonomy does
    not fit it, so its own topics are chosen), one abstract twice and one with math, as venues' lists have."""
    with open(FIXTURES / "topics" / "dialogue-volume.csv", encoding="utf-8", newline="") as handle:
        abstracts = [row["abstract"].strip() for row in csv.DictReader(handle) if row["abstract"].strip()]
    abstracts += [abstracts[3], r"We bound the regret by $O(\sqrt{T \log T})$ for dialogue policies \cite{x}."]
    folder.mkdir(parents=True)
    (folder / "proceedings.txt").write_text("Dialogue Workshop\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
    (folder / "proceedings.yaml").write_text("date: 2024-09-18\n", encoding="utf-8")
    return folder


def entries(project) -> list:
    return [entry for source in project.sources for entry in source.entries]


def test_the_titles_made_early_derive_what_the_sync_derives(tmp_path):
    content = plain_list(tmp_path / "content")
    early = load_project(content, Reporter(), executor=Executor(2, SPLIT), derive=True)
    late = load_project(content, Reporter(), executor=Executor(2, SPLIT))
    assert not early.topics.fits and early.topics.own  # the own topics were chosen: titles were made beside
    assert {id(entry) for entry in entries(early)} == set(early.early) and not late.early
    derived = make_deriver(early, Reporter(), Executor(2, SPLIT))(entries(early))
    assert derived == make_deriver(late, Reporter(), Executor(2, SPLIT))(entries(late))
    assert all(early.renderer._known[e.text] == late.renderer.render(e.text) for e in entries(early))


def test_a_volume_the_taxonomy_fits_makes_its_titles_early_too(tmp_path):
    """No own topics are chosen, but the survey still runs serial parts: the titles are made beside it."""
    with open(FIXTURES / "corpus" / "abstracts.jsonl", encoding="utf-8") as handle:
        abstracts = [json.loads(line)["abstract"].strip() for line in handle if line.strip()]
    content = tmp_path / "content"
    content.mkdir()
    (content / "proceedings.txt").write_text("Learning Workshop\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
    (content / "proceedings.yaml").write_text("date: 2024-09-18\n", encoding="utf-8")
    (content / "taxonomy.yaml").write_text("fallback: Other\ntags:\n  Kernels: [gaussian process, kernel]\n"
                                           "  Graphs: [graph, message passing]\n"
                                           "  Networks: [neural network, training]\n",
                                           encoding="utf-8")  # the organisers' own: applied as written
    early = load_project(content, Reporter(), executor=Executor(2, SPLIT), derive=True)
    late = load_project(content, Reporter(), executor=Executor(2, SPLIT))
    assert early.topics.fits and not early.topics.own  # the taxonomy tags this volume
    assert {id(entry) for entry in entries(early)} == set(early.early) and not late.early
    derived = make_deriver(early, Reporter(), Executor(2, SPLIT))(entries(early))
    assert derived == make_deriver(late, Reporter(), Executor(2, SPLIT))(entries(late))
    assert any(d.tags for d in derived)


def test_no_titles_are_made_early_where_a_page_is_written_or_nothing_is_derived(tmp_path):
    content = plain_list(tmp_path / "content")
    assert not load_project(content, Reporter(), executor=Executor(2, LARGE), derive=True).early  # a large volume
    assert not load_project(content, Reporter(), executor=Executor(2, SPLIT)).early  # check: nothing is derived
    (content / "papers").mkdir()
    (content / "papers" / "mine.md").write_text("---\ntitle: Mine\n---\n\nMy own page.\n", encoding="utf-8")
    assert not load_project(content, Reporter(), executor=Executor(2, SPLIT), derive=True).early


def test_without_the_cache_the_abstracts_of_written_pages_are_rendered_beside(tmp_path):
    content = plain_list(tmp_path / "content")
    # The pages are written, in this process: a process of its own on the large volume's paths cost 2.4 CPU-s.
    reporter = Reporter()
    commands_build.build(content, tmp_path / "site", reporter, jobs=1)
    assert not reporter.errors
    store = BuildCache.for_content(content, enabled=False)
    project = load_project(content, Reporter(), executor=Executor(2, SPLIT), store=store, derive=True)
    assert not project.early  # no title is wanted: every entry has its page
    assert all(project.renderer._known[e.text] == load_project(content, Reporter()).renderer.render(e.text)
               for e in entries(project))
    cached = load_project(content, Reporter(), executor=Executor(2, SPLIT), store=BuildCache.for_content(content),
                          derive=True)
    assert not cached.renderer._known  # with the cache, the render stage reads its renderings from there


def test_only_the_entries_own_titles_are_taken(tmp_path):
    """An entry the project did not load (another's, with the same place) derives its own title."""
    content = plain_list(tmp_path / "content")
    project = load_project(content, Reporter(), executor=Executor(2, SPLIT), derive=True)
    again = entries(load_project(content, Reporter()))
    assert all(id(entry) not in project.early or project.early[id(entry)][0] is not entry for entry in again)
    alone = make_deriver(project, Reporter())(again)
    assert alone == make_deriver(project, Reporter())(entries(project))


def build(content: Path, out: Path, jobs: int, *more: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PROCEEDINGS_SIZES": "large"}
    return subprocess.run([sys.executable, "-m", "generator", "build", "--content", str(content), "--out", str(out),
                           "--jobs", str(jobs), *more], env=env, capture_output=True, text=True, check=False)


def same_tree(one: Path, other: Path) -> bool:
    compared = filecmp.dircmp(one, other, ignore=[".proceedings-cache"])
    if compared.left_only or compared.right_only or compared.funny_files:
        return False
    _, mismatch, errors = filecmp.cmpfiles(one, other, compared.common_files, shallow=False)
    return not mismatch and not errors and all(same_tree(one / name, other / name) for name in compared.common_dirs)


@pytest.mark.slow
def test_a_first_build_on_two_cores_writes_the_pages_and_site_of_one(tmp_path, monkeypatch):
    content = plain_list(tmp_path / "one" / "content")
    shutil.copytree(content, tmp_path / "two" / "content")
    alone = build(content, tmp_path / "one" / "site", jobs=1)
    assert alone.returncode == 0 and "Traceback" not in alone.stderr, alone.stderr
    monkeypatch.setattr(sizes, "current", lambda: SPLIT)  # the two-core build splits its work: titles made early
    made = []
    monkeypatch.setattr(project_module.EarlyTitles, "beside", _counted(project_module.EarlyTitles.beside, made))
    commands_build.build(tmp_path / "two" / "content", tmp_path / "two" / "site", Reporter(), jobs=2)
    assert made and all(made), made  # the titles were made beside the survey, for every entry
    papers = len(entries(load_project(tmp_path / "two" / "content", Reporter())))
    assert papers > 20 and len(list((content / "papers").glob("*.md"))) == papers
    assert same_tree(content, tmp_path / "two" / "content")
    assert same_tree(tmp_path / "one" / "site", tmp_path / "two" / "site")
    made.clear()  # built again without the cache, on two cores (the abstracts rendered early) and on one
    commands_build.build(tmp_path / "two" / "content", tmp_path / "two" / "again", Reporter(), jobs=2, cache=False)
    assert made == [0]  # renderings only: no title is wanted
    assert same_tree(tmp_path / "one" / "site", tmp_path / "two" / "again")
    again = build(content, tmp_path / "one" / "again", 1, "--no-cache")
    assert again.returncode == 0 and same_tree(tmp_path / "one" / "site", tmp_path / "one" / "again")


def _counted(call, made):
    def counted(self, job):
        found = call(self, job)
        made.append(len(self.found))
        return found
    return counted


def test_the_engine_is_built_before_the_worker_is_forked(tmp_path):
    """The worker and this process both render: the engine is built here first, once, for both (its state is
    read by the survey running beside the titles, before this process renders anything)."""
    content = plain_list(tmp_path / "content")
    project = load_project(content, Reporter(), executor=Executor(2, SPLIT))
    texts = [entry.text for entry in entries(project)]
    early = project_module.EarlyTitles(project.renderer, entries(project), Executor(2, SPLIT))
    assert "_engine" not in vars(project.renderer)
    assert early.beside(lambda: "_engine" in vars(project.renderer))
    plain = project_module.AbstractRenderer()
    plain.prepare(["Plain text, no markup at all.", "Nor here."])
    assert "_engine" not in vars(plain)  # no abstract needs it: not built
    plain.prepare(texts)
    assert "_engine" in vars(plain)



def test_the_repeats_are_dropped_while_the_titles_are_made(tmp_path, monkeypatch):
    """The titles' worker starts once the sources are read: their repeats are dropped beside it (a tenth of a
    second at 10,000 papers with the other core idle), and no title is found for the repeat."""
    content = plain_list(tmp_path / "content")  # one abstract is there twice
    running, seen = [], []
    beside, drop = project_module.EarlyTitles.beside, project_module.kept_drop_duplicates

    def beside_told(self, job):
        running.append(self)
        return beside(self, job)

    def drop_told(*args):
        seen.append(len(running))  # 1: dropped inside ``beside``, the worker started
        return drop(*args)

    monkeypatch.setattr(project_module.EarlyTitles, "beside", beside_told)
    monkeypatch.setattr(project_module, "kept_drop_duplicates", drop_told)
    project = load_project(content, Reporter(), executor=Executor(2, SPLIT), derive=True)
    assert seen == [1]
    assert len(running[0].entries) == len(entries(project)) + 1  # the repeat's title was made, not taken
    assert set(project.early) == {id(entry) for entry in entries(project)}
