"""serve, after an edit that moves no list, lists only the files that show the edited paper
(pipeline/listing.py; at 10,000 papers, listing all 14,000 files was half of a one-page rebuild, issue 29).
What it serves is byte for byte what a whole build of the edited content makes; an edit that moves a list
(slug, topics, authors, sessions, order, a page added or removed, a contents page cut elsewhere) lists every
file again."""

from __future__ import annotations

import dataclasses
import re
import shutil
from pathlib import Path

import pytest

from contents_fixtures import colt2020_csv
from generator.commands.build import build
from generator.reporter import Reporter
from generator.content.project import load_project
from generator.pipeline.listing import edited
from generator.pipeline.live import LiveSite
from generator.pipeline.rendering import site_renderer
from generator.pipeline.rendering import sync_project
from generator.render import contents
from generator.render.page_types import PAGE_TYPES, placing_fields

CONFIG = "title: Learning Theory 2026\npapers_per_page: 4\ndate: 2026-06-30\nbase_url: https://example.org/colt/\n"


@pytest.fixture(scope="module")
def synced(tmp_path_factory) -> Path:
    """60 papers in two sessions each, with authors and topics, synced once for the file's tests (each edits a
    copy, ``programme``). Pages of a person's own, every field as written: a build's sync would renumber an
    `order` edited by hand. Built once, with the list pages of ``programme``, so each copy's first live build
    takes the abstracts' renderings, related papers and search index from the build cache it carries."""
    content = tmp_path_factory.mktemp("programme") / "content"
    content.mkdir()
    (content / "papers.csv").write_text(colt2020_csv(count=60), encoding="utf-8")
    (content / "proceedings.yaml").write_text(CONFIG, encoding="utf-8")
    sync_project(load_project(content, Reporter()), Reporter())
    (content / "papers.csv").unlink()
    for page in (content / "papers").glob("*.md"):
        edit(page, r"^(source|entry|generated): .*\n", "", count=0)
    with pytest.MonkeyPatch.context() as monkeypatch:
        contents_pages(monkeypatch)
        reporter = Reporter()
        build(content, content.parent / "site", reporter)
        assert not reporter.errors, reporter.errors
    return content


def contents_pages(monkeypatch) -> None:
    """The contents split into pages of at most 12 papers (as 10,000 papers' are, into pages of 1,500)."""
    monkeypatch.setattr(contents, "CONTENTS_PAPERS", 20)
    monkeypatch.setattr(contents, "PAGE_PAPERS", 12)


@pytest.fixture
def programme(synced, tmp_path, monkeypatch) -> Path:
    """A copy of the synced 60 papers and their build cache; list pages of 4 papers, the contents split into
    pages of at most 12 papers, the feed and sitemap on."""
    contents_pages(monkeypatch)
    return Path(shutil.copytree(synced, tmp_path / "content"))


@pytest.fixture
def live(programme, tmp_path):
    site = LiveSite(programme, tmp_path / "served")
    first = site.build_all()
    assert not first.failed and any(name.startswith("contents/") for name in site.files)
    site.wait_for_search()
    site.whole = first.listed  # what listing every file lists
    yield site
    site.close()


def page_of(content: Path, number: int) -> Path:
    return next(path for path in (content / "papers").glob("*.md")
                if re.search(rf"^id: '{number}'$", path.read_text(encoding="utf-8"), re.M))


def edit(path: Path, pattern: str, replacement, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    edited = re.sub(pattern, replacement, text, count=count, flags=re.M)
    assert edited != text, pattern
    path.write_text(edited, encoding="utf-8")


def built(content: Path, out: Path) -> dict[str, bytes]:
    reporter = Reporter()
    build(content, out, reporter, cache=False)
    assert not reporter.errors, reporter.errors
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def test_each_paper_is_listed_with_exactly_the_files_that_show_it(live, programme):
    """``outputs(only=…)`` lists, of every page type (contents, paper pages and their neighbours and related
    papers, topic and author pages, reading-list blocks, which hold the abstracts, redirects), the files whose
    deps name the paper, and the files made from the whole volume."""
    page = page_of(programme, 7)
    edit(page, r"^order:", "old_slugs: [an-old-address]\norder:")
    assert not live.rebuild({page.resolve()}).failed
    state = live.pipeline.state
    papers = state.rendered
    whole = site_renderer(state.project, papers, related=state.related)
    shape = {output.path: output.deps for output in whole.outputs(papers)}
    for kind in (r"contents/.*", r"tags/[^.]+\.\d+\.html", r"authors/.*", r"assets/reading/r.*",
                 "papers/an-old-address.html"):
        assert any(re.fullmatch(kind, path) for path in shape), kind
    for paper in papers:
        only = frozenset([paper.paper.id])
        listed = site_renderer(state.project, papers, related=state.related).outputs(papers, only, whole.pages)
        expected = {path: deps for path, deps in shape.items() if deps is None or paper.paper.id in deps}
        assert {output.path: output.deps for output in listed} == expected, paper.paper.id


def test_outputs_for_some_papers_need_the_pages_of_a_whole_listing(live):
    state = live.pipeline.state
    with pytest.raises(TypeError):
        site_renderer(state.project, state.rendered).outputs(state.rendered, frozenset(["1"]))


def test_a_title_and_abstract_edit_lists_only_what_shows_the_paper_and_serves_what_a_build_makes(
        live, programme, tmp_path):
    page = page_of(programme, 30)
    edit(page, r"^title: .*$", "title: 'Quokkas: a much longer title than the one it had before'")
    other = page_of(programme, 45).read_text(encoding="utf-8").split("\n---\n", 1)[1]
    text = page.read_text(encoding="utf-8")
    page.write_text(text.split("\n---\n", 1)[0] + "\n---\n" + other, encoding="utf-8")  # its related papers move
    rebuilt = live.rebuild({page.resolve()})
    assert not rebuilt.failed and 0 < rebuilt.rendered <= rebuilt.listed < live.whole // 4, (rebuilt.summary(),
                                                                                               live.whole)
    assert "Quokkas" in live.files[f"papers/{page.stem}.html"].decode("utf-8")
    live.wait_for_search()
    settled = live.settle()  # the related papers the background worked out: only the pages whose list moved
    assert settled is not None and settled.rendered and settled.listed < live.whole // 2, settled.summary()
    assert live.files == built(programme, tmp_path / "built")


def test_related_papers_that_move_no_list_are_taken_without_a_pass(live, programme):
    """Worked out again after an edit that moved no paper's related list: nothing to render, no pass to run;
    the next edit still lists only the files that show it."""
    state = live.pipeline.state
    again = {key: tuple(listed) for key, listed in (state.related or {}).items()}
    live._related_ready(again)
    assert live.settle() is None and state.related is again and state.listing.related is again
    page = page_of(programme, 40)
    edit(page, r"^title: .*$", "title: 'Retitled'")
    rebuilt = live.rebuild({page.resolve()})
    assert 0 < rebuilt.listed < live.whole // 4, rebuilt.summary()


def test_a_page_broken_then_mended_lists_only_what_shows_it(live, programme, tmp_path):
    page = page_of(programme, 12)
    good = page.read_text(encoding="utf-8")
    page.write_text(good.replace("order:", "order: [", 1), encoding="utf-8")
    broken = live.rebuild({page.resolve()})
    assert live.errors and broken.rendered == 0 and broken.listed < live.whole // 4, broken.summary()
    page.write_text(re.sub(r"^title: .*$", "title: 'A mended title'", good, count=1, flags=re.M), encoding="utf-8")
    mended = live.rebuild({page.resolve()})
    assert live.errors == [] and mended.cleared and 0 < mended.rendered <= mended.listed < live.whole // 4
    live.wait_for_search()
    live.settle()
    assert live.files == built(programme, tmp_path / "built")


@pytest.mark.parametrize("pattern, replacement", [
    (r"^slug: (.*)$", r"slug: \1-moved"),
    (r"^tags: \[(.*)\]$", r"tags: [\1, kernel methods]"),
    (r"^tags: \[(\w)", lambda found: "tags: [" + found.group(1).upper()),  # a topic spelled in another case
    (r"^tags: \[(\w)", r"tags: [\1\1"),  # a topic of its own
    (r"^authors: \[(.*)\]$", r"authors: [\1, Ada Lovelace]"),
    (r"^sessions: \[(.*)\]$", r"sessions: [Session 1A]"),
    (r"^order: .*$", "order: 2"),
    (r"^title: .*$", "title: '" + "Long " * 400 + "'"),  # a contents page holds fewer papers now
])
def test_an_edit_that_moves_a_list_lists_every_file(live, programme, tmp_path, monkeypatch, pattern, replacement):
    if isinstance(replacement, str) and "Long" in replacement:  # contents pages of 12 papers of ~750 bytes, or fewer
        monkeypatch.setattr(contents, "PAGE_BUDGET", 12 * 760)
        live.rebuild({(programme / "proceedings.yaml").resolve()})  # the budget moved: a whole pass
        live.wait_for_search()
    page = page_of(programme, 30)
    edit(page, pattern, replacement)
    rebuilt = live.rebuild({page.resolve()})
    assert not rebuilt.failed and rebuilt.listed >= live.whole - 2, (rebuilt.summary(), live.whole)
    live.wait_for_search()
    live.settle()
    assert live.files == built(programme, tmp_path / "built")


def test_a_topic_respelled_by_its_first_paper_renders_every_page_that_names_it(live, programme, tmp_path):
    """Its first paper spells a topic's name for every page of that topic, those that do not list the paper
    too, and for the topic index: what every page may show beyond its own papers moved, so all are rendered."""
    page = page_of(programme, 1)
    edit(page, r"^tags: \[(.*)theory\]$", r"tags: [\1Theory]")
    rebuilt = live.rebuild({page.resolve()})
    # Rendered now: all but the whole-volume files (the .bib, .ris, MODS, EndNote, feeds, papers.json, the map…),
    # which follow in the background.
    assert rebuilt.listed >= live.whole - 2 and rebuilt.rendered >= rebuilt.listed - 16, rebuilt.summary()
    assert b">Theory<" in live.files["tags/theory.7.html"] and b">Theory<" in live.files["tags/index.html"]
    live.wait_for_search()
    live.settle()
    assert live.files == built(programme, tmp_path / "built")


def test_a_page_added_or_removed_lists_every_file(live, programme, tmp_path):
    page = page_of(programme, 30)
    copy = page.with_name("a-new-paper.md")
    text = re.sub(r"^slug: .*$", "slug: a-new-paper", page.read_text(encoding="utf-8"), count=1, flags=re.M)
    copy.write_text(re.sub(r"^id: .*$", "id: '9001'", text, count=1, flags=re.M), encoding="utf-8")
    added = live.rebuild({copy.resolve()})
    assert added.listed > live.whole, added.summary()
    page.unlink()
    removed = live.rebuild({page.resolve()})
    assert removed.listed >= live.whole - 2, removed.summary()
    live.wait_for_search()
    live.settle()
    assert live.files == built(programme, tmp_path / "built")


def _moved(paper, path: str):
    """The paper with the field at ``path`` ("details.track") given a value no paper has."""
    head, _, rest = path.partition(".")
    value = _moved(getattr(paper, head), rest) if rest else ("moved by the test",)
    return dataclasses.replace(paper, **{head: value})


def test_the_fields_the_page_types_place_papers_by_decide_what_an_edit_lists(live):
    """An edit moving a field no page type places papers by lists only the files that show the paper; one
    moving a field a page type declares (``PageType.places_by``) lists every file again."""
    state = live.pipeline.state
    papers, number = state.rendered, 5
    target = papers[number].paper
    state.changed_ids = {target.id}

    def with_paper(paper):
        return [*papers[:number], dataclasses.replace(papers[number], paper=paper), *papers[number + 1:]]

    assert edited(state, with_paper(dataclasses.replace(target, abstract="Moved.")), False) == {target.id}
    fields = placing_fields()
    assert {page_type.name for page_type in PAGE_TYPES if page_type.places_by} >= {"home", "paper", "topics"}
    for field in fields:
        assert edited(state, with_paper(_moved(target, field)), False) is None, field
