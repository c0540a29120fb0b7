"""The render stage's claiming order (pipeline/grouping.py): each reading block beside the pages of the papers it
holds, every file still listed once, and the site a build makes the same bytes."""

from __future__ import annotations

from pathlib import Path

from generator.model.paper import Paper, RenderedPaper
from generator.pipeline.grouping import pages_by_block
from generator.publish.reading_list import block_path, file_count, reading_files
from generator.render.outputs import Output, PaperIds


def paper(number: int) -> RenderedPaper:
    record = Paper(f"id{number}", f"paper-{number}", f"Paper {number}", "An abstract.", (), number, "list.txt",
                   number, Path(f"/content/papers/paper-{number}.md"))
    return RenderedPaper(record, f"Paper {number}", f"Paper {number}", "<p>An abstract.</p>\n", "An abstract.")


def listed(papers: list[RenderedPaper], blocks: set[str] | None = None) -> list[Output]:
    """A volume's outputs in the listing's order: contents, paper pages, topic pages, the blocks (``blocks``: only
    those), a page after them."""
    count = file_count(len(papers))
    paths = sorted({block_path(p.slug, count) for p in papers}, key=lambda path: int(path.rsplit("r", 1)[1][:-3]))
    return [Output("index.html", bytes, PaperIds(), "list"), Output("contents/a.html", bytes, PaperIds(), "list"),
            *(Output(p.url, bytes, PaperIds([p.paper.id]), "page", p) for p in papers),
            *(Output(f"tags/t{n}.html", bytes, PaperIds(), "list") for n in range(3)),
            *(Output(path, bytes, PaperIds()) for path in paths if blocks is None or path in blocks),
            Output("glance.html", bytes, PaperIds())]


def test_each_block_follows_the_pages_of_its_papers_and_nothing_else_moves():
    papers = [paper(n) for n in range(1, 60)]
    outputs = listed(papers)
    ordered = pages_by_block(outputs)
    assert sorted(o.path for o in ordered) == sorted(o.path for o in outputs)  # each file once
    count = file_count(len(papers))
    assert [o.path for o in ordered[:2]] == ["index.html", "contents/a.html"]
    assert [o.path for o in ordered[-4:]] == ["tags/t0.html", "tags/t1.html", "tags/t2.html", "glance.html"]
    pending: list[str] = []
    for output in ordered[2:-4]:
        if output.share == "page":
            pending.append(output.path)
            continue
        assert output.path.startswith("assets/reading/")
        held = [p.url for p in papers if block_path(p.slug, count) == output.path]
        assert pending == held  # its papers' pages, in the volume's order, just before it
        pending = []
    assert not pending


def test_the_blocks_paths_are_those_the_reading_list_writes():
    papers = [paper(n) for n in range(1, 40)]
    count = file_count(len(papers))
    for path, held, _ in reading_files(papers, publication=_Volume()):
        assert all(block_path(p.slug, count) == path for p in held)


def test_pages_whose_block_is_not_listed_follow_the_groups():
    papers = [paper(n) for n in range(1, 30)]
    count = file_count(len(papers))
    kept = {block_path(papers[0].slug, count)}
    ordered = pages_by_block(listed(papers, kept))
    first = [p.url for p in papers if block_path(p.slug, count) in kept]
    assert [o.path for o in ordered[2:2 + len(first) + 1]] == [*first, *kept]
    assert {o.path for o in ordered[2 + len(first) + 1:-4]} == {p.url for p in papers} - set(first)


def test_outputs_without_paper_pages_keep_their_order():
    outputs = [Output("index.html", bytes, PaperIds()), Output("assets/reading/r0.js", bytes, PaperIds())]
    assert pages_by_block(outputs) == outputs


class _Volume:
    """What ``reading_files`` reads of a publication to list its blocks (their bytes are not made here)."""

    class volume:
        title = "Proceedings"

    formats = ()


def test_forked_workers_claim_each_block_with_its_pages(monkeypatch):
    from generator.pipeline import rendering
    from generator.reporter import Reporter
    from generator.runtime.executor import Executor
    from generator.runtime.sizes import LARGE

    papers = [paper(n) for n in range(1, 60)]
    claimed: list[str] = []

    def claimed_here(self, func, chunks, workers, progress=None, before=None):
        claimed.extend(output.path for chunk in chunks for output in chunk)
        return [func(chunk) for chunk in chunks]

    class Sink:
        parallel = True

        def write(self, path: str, data: bytes) -> None:
            pass

    monkeypatch.setattr(Executor, "claimed", claimed_here)
    rendering.render_outputs(listed(papers), Sink(), Reporter(), Executor(2, LARGE))  # type: ignore[arg-type]
    assert claimed == [o.path for o in pages_by_block(listed(papers))] != [o.path for o in listed(papers)]
