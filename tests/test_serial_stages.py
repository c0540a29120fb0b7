"""The parent-only work between loading a volume and rendering its templates, made lighter (issue 43): the render
stage's workers send back no abstract rendering the parent's renderer kept; a page's display name is made without
pathlib's walk; a written page's front matter is kept by the cache as it is. Each gives what the plain way gives."""

from __future__ import annotations

from pathlib import Path

from generator.content.pages import front_record, read_page, render_page, written_page
from generator.latex import AbstractRenderer
from generator.model.paper import Paper, RenderedPaper
from generator.pipeline import rendering
from generator.pipeline.sinks import NullSink
from generator.pipeline.stages import Pipeline
from generator.reporter import Reporter
from generator.runtime.cache import BuildCache, EntryCache
from generator.runtime.executor import Executor
from generator.runtime.sizes import SizePolicy

SPLIT = SizePolicy(heavy_split=1, light_split=1)  # forked workers from one item (not fresh processes)


def _papers(content: Path) -> list:
    return Pipeline(content, NullSink()).run(Reporter(), until="papers").papers


def test_forked_renderings_of_kept_abstracts_are_the_renderers_own_and_the_same_as_made_alone(seed_content, tmp_path):
    papers = _papers(seed_content)
    assert len(papers) >= 8
    renderer = AbstractRenderer()
    for paper in papers[: len(papers) // 2]:  # as the sync keeps them: half of them
        renderer.render(paper.abstract)
    kept = {paper.abstract: renderer.render(paper.abstract) for paper in papers[: len(papers) // 2]}
    cache = EntryCache(BuildCache(tmp_path / "cache"), "abstracts", "v1", plain=True)
    forked = rendering.render_papers(papers, renderer, Reporter(), Executor(2, SPLIT), cache, split=True)
    alone = rendering.render_papers(papers, AbstractRenderer(), Reporter())
    assert [forked[p.path].paper for p in papers] == [alone[p.path].paper for p in papers]
    assert [forked[p.path].diagnostics for p in papers] == [alone[p.path].diagnostics for p in papers]
    for paper in papers:
        made = forked[paper.path].paper
        if paper.abstract in kept:  # not sent back from a worker: the very rendering this process kept
            assert made.abstract_html is kept[paper.abstract].html
            assert made.abstract_plain is kept[paper.abstract].plain


def test_a_worker_sends_an_abstracts_texts_only_when_the_renderer_kept_none():
    renderer = AbstractRenderer()
    papers = [Paper(f"p{n}", f"p{n}", f"Title {n}", f"An abstract with $x_{n}$.", (), n, "papers.txt", n,
                              Path(f"papers/p{n}.md")) for n in range(2)]
    renderer.render(papers[0].abstract)
    sent = [rendering._sent_texts(rendering.render_paper(p, renderer, Reporter()), renderer) for p in papers]
    assert len(sent[0]) == 2 and len(sent[1]) == 4
    whole = rendering._texts(sent[0], papers[0], renderer)
    assert RenderedPaper(papers[0], *whole) == rendering.render_paper(papers[0], AbstractRenderer(), Reporter())


def test_a_pages_display_name_is_its_path_in_the_content_folder(tmp_path):
    for content, path in ((tmp_path / "content", tmp_path / "content" / "papers" / "a-b.md"),
                          (Path("content"), Path("content/papers/a-b.md")),
                          (Path("."), Path("papers/a-b.md")),
                          (tmp_path, tmp_path / "other" / "x.md")):
        display = rendering.page_display(path, content)
        assert display == path.relative_to(content) and isinstance(display, Path)


def test_the_front_matter_a_written_page_is_kept_as_is_what_reading_it_gives(tmp_path):
    meta = {"id": "3", "title": "A title", "slug": "a-title", "tags": ["x", "y"], "order": 3,
            "generated": {"text": "ab12", "tags": ["x"]}}
    path = tmp_path / "a-title.md"
    text = render_page(meta, "An abstract.")
    path.write_text(text, encoding="utf-8")
    doc = written_page(path, meta, text)
    assert doc is not None and doc.meta is not meta  # its own copy: the sync's meta is never the record
    read = read_page(path)
    assert front_record(doc) == {"meta": read.meta, "lines": read.lines}
