"""build, serve and check run one stage table; serve reruns only the stages a change invalidates."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

import pytest

from generator.pipeline import stages as pipeline

from generator.pipeline import rendering
from generator.commands.build import build
from generator.commands.check import check
from generator.pipeline.live import LiveSite
from generator.reporter import Reporter

OUTPUTS = ["search", "relate", "render", "publish"]
ALL = ["project", "pages", "papers", "programme", "rendered", *OUTPUTS]


@pytest.fixture
def ran(monkeypatch) -> list[str]:
    """The names of the stages run, in order, through ``pipeline.STAGES`` (whoever calls it)."""
    names: list[str] = []

    def recording(stage: pipeline.Stage) -> pipeline.Stage:
        def run(p: pipeline.Pipeline) -> None:
            names.append(stage.name)
            stage.run(p)

        return dataclasses.replace(stage, run=run)

    monkeypatch.setattr(pipeline, "STAGES", tuple(recording(stage) for stage in pipeline.STAGES))
    return names


def first_page(content: Path) -> Path:
    return sorted((content / "papers").glob("*.md"))[0]


def test_build_serve_and_check_run_the_same_stages(seed_content, tmp_path, ran):
    build(seed_content, tmp_path / "site", Reporter())
    assert ran == ALL
    ran.clear()
    check(seed_content, Reporter())
    assert ran == ALL
    ran.clear()
    live = LiveSite(seed_content, tmp_path / "served")
    try:
        live.build_all()
        assert ran == ALL
    finally:
        live.close()


def test_serve_reruns_from_the_first_stage_a_change_invalidates(seed_content, tmp_path, ran, monkeypatch):
    live = LiveSite(seed_content, tmp_path / "served")
    try:
        live.build_all()
        page = first_page(seed_content)
        page.write_text(page.read_text(encoding="utf-8").replace("title: '", "title: 'Quokkas and ", 1),
                        encoding="utf-8")
        rendered: list[str] = []
        real = rendering.render_paper
        monkeypatch.setattr(rendering, "render_paper",
                            lambda paper, *args: rendered.append(paper.title) or real(paper, *args))
        ran.clear()
        result = live.rebuild({page.resolve()})
        assert ran == ["pages", "papers", "programme", "rendered", *OUTPUTS]
        assert [title.split()[0] for title in rendered] == ["Quokkas"]  # only the edited paper is rendered again
        assert 0 < result.rendered < len(live.files) / 2  # its page, its neighbours, its lists: not the site
        ran.clear()
        template = seed_content / "theme" / "templates" / "404.html"
        template.parent.mkdir(parents=True)
        template.write_text("{% extends 'base.html' %}", encoding="utf-8")
        live.rebuild({template.resolve()})
        assert ran == OUTPUTS
        ran.clear()
        live.rebuild({(seed_content / "neurips-2026.txt").resolve()})
        assert ran == ALL
    finally:
        live.close()


def test_a_template_saved_with_a_list_reaches_every_page(seed_content, tmp_path):
    """One rebuild for a source list and a template saved together: every page shows the new template."""
    live = LiveSite(seed_content, tmp_path / "served")
    try:
        live.build_all()
        source = seed_content / "neurips-2026.txt"
        source.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
        templates = seed_content / "theme" / "templates"
        templates.mkdir(parents=True)
        base = (Path(__file__).parent.parent / "themes" / "default" / "templates" / "base.html").read_text("utf-8")
        (templates / "base.html").write_text(base.replace("</footer>", "<p>theme-edit</p></footer>"), "utf-8")
        live.rebuild({source.resolve(), (templates / "base.html").resolve()})
        live.wait_for_search()  # the whole-volume pages (map.html) follow in the background, as papers.json does
        pages = [name for name in live.files if name.endswith(".html")]
        assert pages and all(b"theme-edit" in live.files[name] for name in pages)
    finally:
        live.close()


def test_abstracts_rendered_to_derive_titles_in_workers_are_not_rendered_again(tmp_path, monkeypatch, large_sizes):
    """A cold build renders each new abstract once: to derive its title, in a forked worker for half of
    them; the render stage then finds every rendering in this process."""
    import corpora
    from conftest import write_list
    from generator.runtime.executor import Executor
    from generator.latex import AbstractRenderer
    from generator.content.project import load_project, make_deriver

    abstracts = [" ".join(record["abstract"].split()) for record in corpora.records(60)]
    content = tmp_path / "content"
    content.mkdir()
    write_list(content / "papers.txt", "NeurIPS sample", abstracts)
    project = load_project(content, Reporter())
    entries = list(project.sources[0].entries)
    make_deriver(project, Reporter(), Executor(2))(entries)  # forked for a list this short (large_sizes)

    fresh = AbstractRenderer(project.config.macros)
    expected = {entry.text: fresh.render(entry.text) for entry in entries[-5:]}

    def not_again(self, text):
        raise AssertionError("an abstract rendered to derive its title was rendered again")

    monkeypatch.setattr(AbstractRenderer, "_render", not_again)
    found = [project.renderer.render(entry.text) for entry in entries]
    assert found[-5:] == list(expected.values())



def test_abstracts_rendered_in_forked_workers_come_back_around_the_papers_this_process_holds(seed_content,
                                                                                          large_sizes):
    """A worker sends back each rendering less its paper (no copy of every paper comes back through the pipe):
    each rendered paper is the very paper parsed here, and the renderings are those one process makes."""
    from generator.latex import AbstractRenderer
    from generator.runtime.executor import Executor
    from generator.pipeline.sinks import NullSink
    from generator.runtime.sizes import LARGE

    state = pipeline.Pipeline(seed_content, NullSink()).run(Reporter(), until="papers")
    papers = state.papers * 4  # enough to go to the worker as well as this process
    assert len(papers) >= 8
    renderer = AbstractRenderer()
    forked = rendering.render_papers(papers, renderer, Reporter(), Executor(2, LARGE))
    alone = rendering.render_papers(papers, AbstractRenderer(), Reporter())
    assert all(forked[paper.path].paper.paper is paper for paper in papers)
    assert {path: done.paper for path, done in forked.items()} == {path: done.paper for path, done in alone.items()}


def test_the_render_stage_finds_every_rendering_the_sync_kept_and_keeps_none_of_its_own(monkeypatch):
    """Of a large volume, the sync keeps the last ``REMEMBERED`` renderings it made to derive titles: the render
    stage finds each of them, as rendering the others keeps none (each kept pushed out one still to be found,
    and every abstract was rendered twice); nor does a worker hold what it rendered."""
    from generator.latex import AbstractRenderer, abstract_renderer
    from generator.model.paper import Paper

    monkeypatch.setattr(abstract_renderer, "REMEMBERED", 3)
    papers = [Paper(f"p{n}", f"p{n}", f"Title {n}", f"Abstract *number* {n} with $x_{n}$.", (), n, "papers.txt", n,
                    Path(f"papers/p{n}.md")) for n in range(6)]
    renderer = AbstractRenderer()
    for paper in papers:  # as the sync derives their titles: the last three kept
        renderer.render(paper.abstract)
    made: list[str] = []
    real = AbstractRenderer._render
    monkeypatch.setattr(AbstractRenderer, "_render", lambda self, text: made.append(text) or real(self, text))
    rendered = rendering.render_papers(papers, renderer, Reporter())
    assert made == [paper.abstract for paper in papers[:3]]
    assert [rendered[paper.path].paper.abstract_html for paper in papers] == [
        AbstractRenderer().render(paper.abstract).html for paper in papers]


def test_a_large_volumes_renderings_are_packed_as_they_are_made_from_the_cache_or_rendered(seed_content, tmp_path,
                                                                                         monkeypatch, large_sizes):
    """A large volume's build keeps each rendering packed from the moment it is made or read from the cache
    (not every one unpacked until the stage ends: the warm build's peak at 50,000 papers), with the same values
    as one process's unpacked renderings; the cache's records are taken, not kept beside them."""
    from generator.latex import AbstractRenderer
    from generator.pipeline.packed import _PackedRendered, packed
    from generator.runtime.cache import BuildCache, EntryCache

    handed: list = []
    real = rendering.render_papers
    monkeypatch.setattr(pipeline, "render_papers",
                        lambda *args, **kwargs: handed.append(args[-1]) or real(*args, **kwargs))
    build(seed_content, tmp_path / "site", Reporter())
    assert handed == [packed], "a large volume's build does not pack its renderings as made"

    from generator.pipeline.sinks import NullSink

    state = pipeline.Pipeline(seed_content, NullSink()).run(Reporter(), until="papers")
    alone = rendering.render_papers(state.papers, AbstractRenderer(), Reporter())
    store = BuildCache(tmp_path / "cache")
    made: list[str] = []
    render = AbstractRenderer._render
    monkeypatch.setattr(AbstractRenderer, "_render", lambda self, text: made.append(text) or render(self, text))
    for source in ("rendered", "cached"):
        cache = EntryCache(store, "abstracts", "v1")
        done = rendering.render_papers(state.papers, AbstractRenderer(), Reporter(), cache=cache, pack=packed)
        assert bool(made) == (source == "rendered"), source
        made.clear()
        assert all(isinstance(done[paper.path].paper, _PackedRendered) for paper in state.papers), source
        assert {path: made.paper for path, made in done.items()} == {path: made.paper for path, made in alone.items()}
        assert not any(cache._found.values()), "the cache still holds the records it gave"


def test_a_large_volumes_abstracts_go_to_fresh_processes_and_those_the_sync_kept_are_found_here(seed_content,
                                                                                               monkeypatch):
    """Of a large volume, no worker is forked for the render abstracts stage (it came to hold a copy of most of
    the build's pages): fresh processes claim batches of papers beside this one, and the renderings come back
    in order, equal to one process's; the papers whose rendering this process's renderer kept from the sync are
    rendered (found) here, not sent."""
    from generator.latex import AbstractRenderer
    from generator.runtime import background, fresh
    from generator.runtime.executor import Executor
    from generator.pipeline.sinks import NullSink
    from generator.runtime.sizes import LARGE

    state = pipeline.Pipeline(seed_content, NullSink()).run(Reporter(), until="papers")
    papers = [dataclasses.replace(paper, path=Path(f"papers/{n}-{paper.path.name}"),
                                  abstract=f"{paper.abstract} ({n})") for n in range(6) for paper in state.papers]
    renderer = AbstractRenderer()
    kept = papers[:3]
    for paper in kept:
        renderer.render(paper.abstract)
    slow = renderer._render  # this process renders slowly: a fresh one claims a batch too, however busy the machine
    renderer._render = lambda text: time.sleep(0.05) or slow(text)  # type: ignore[method-assign]
    sent: list = []
    real_feed = fresh.in_fresh_process

    def feeding(job, items, *args, claims=None, **kwargs):
        def drawn():
            for number, batch in claims:
                sent.extend(batch)
                yield number, batch
        return real_feed(job, items, *args, claims=drawn(), **kwargs)

    monkeypatch.setattr(background, "in_parallel_parts", lambda job: pytest.fail("a forked worker"))
    monkeypatch.setattr("generator.runtime.executor.in_fresh_process", feeding)
    done = rendering.render_papers(papers, renderer, Reporter(), Executor(2, LARGE))
    alone = rendering.render_papers(papers, AbstractRenderer(), Reporter())
    assert [done[paper.path].paper for paper in papers] == [alone[paper.path].paper for paper in papers]
    assert all(done[paper.path].paper.paper is paper for paper in papers)
    assert sent and not set(map(id, kept)) & set(map(id, sent)), "a rendering the sync kept was sent away"
