"""A fresh template worker's papers (pipeline/packed.py): each abstract's three texts packed into one blob
until read, and (folded) every field a list does not read of each item in a second one, every field reading what
the paper read, a fraction of its memory."""

from __future__ import annotations

import dataclasses
import gc
import pickle
import sys
from pathlib import Path

from generator.model.paper import Author, Details, Paper, RenderedPaper
from generator.pipeline.packed import folded, packed

ABSTRACT = ("We learn the edges of a graph with $O(n \\log n)$ memory.\n\nA second paragraph, with *emphasis* and "
            "the word naïve, repeated: " + "edges of a graph " * 40)


def paper(number: int = 1, abstract: str = ABSTRACT) -> RenderedPaper:
    details = Details(authors=(Author("Ada Lovelace", "Analytical Engines Ltd"), Author("Charles Babbage")),
                      track=("Main",), pdf=f"https://example.org/{number}.pdf", pages=f"{number}--{number + 9}")
    record = Paper(f"id{number}", f"p{number}", f"Paper {number}", abstract, ("Graphs",), number, "papers.jsonl",
                   number, Path(f"/content/papers/p{number}.md"), details, uid=f"uid-{number}")
    html = "".join(f"<p>{part}</p>\n" for part in abstract.split("\n\n")) if abstract else ""
    return RenderedPaper(record, f"Paper {number}", f"Paper {number}", html, abstract.replace("\n\n", " "))


def test_a_packed_paper_reads_every_field_as_the_paper_does():
    for original in (paper(), paper(2, ""), paper(3, "本研究では、大規模言語モデルの推論を高速化する。" * 20)):
        copy = packed(original)
        assert isinstance(copy, RenderedPaper) and isinstance(copy.paper, Paper)
        for field in dataclasses.fields(RenderedPaper):
            assert getattr(copy, field.name) == getattr(original, field.name), field.name
        for field in dataclasses.fields(Paper):
            assert getattr(copy.paper, field.name) == getattr(original.paper, field.name), field.name
        assert copy.url == original.url and copy.details == original.details
        assert dataclasses.asdict(copy) == dataclasses.asdict(original)
        assert copy == packed(original) and hash(copy) == hash(packed(original))
        assert copy == original and original == copy and hash(copy) == hash(original)  # the same paper
        assert bool(copy.abstract_html) == bool(original.paper.abstract)  # a list item asks whether there is one


def test_a_replaced_packed_paper_is_packed_and_reads_its_new_fields():
    copy = packed(paper())
    moved = dataclasses.replace(copy, abstract_plain="Another text.")
    assert type(moved) is type(copy)
    assert moved.abstract_plain == "Another text." and moved.abstract_html == copy.abstract_html
    retitled = dataclasses.replace(copy.paper, title="New", abstract="Short.")
    assert type(retitled) is type(copy.paper) and retitled.abstract == "Short." and retitled.title == "New"
    assert "abstract" not in vars(retitled)


def test_many_packed_papers_hold_much_less_than_the_papers():
    def held(papers: list[RenderedPaper]) -> int:
        return sum(sys.getsizeof(value) for p in papers for value in (*vars(p).values(), *vars(p.paper).values()))

    originals = [paper(n, ABSTRACT + f" Paper number {n}.") for n in range(200)]
    copies = [packed(p) for p in originals]
    assert held(copies) < held(originals) / 2
    assert [c.abstract_html for c in copies] == [p.abstract_html for p in originals]  # beyond those kept unpacked


def test_a_packed_paper_pickles_as_it_reads():
    copy = packed(paper())
    back = pickle.loads(pickle.dumps(copy))
    assert back == copy and back.abstract_plain == paper().abstract_plain


def test_a_folded_paper_reads_every_field_and_key_as_the_paper_does():
    for original in (paper(), paper(2, ""), paper(3, "本研究では、大規模言語モデルの推論を高速化する。" * 20)):
        object.__setattr__(original.paper, "_paper_key", f"key{original.paper.id}")  # (cache.keep_paper_key's)
        copy = folded(original)
        assert isinstance(copy, RenderedPaper) and isinstance(copy.paper, Paper)
        for field in dataclasses.fields(Paper):
            assert getattr(copy.paper, field.name) == getattr(original.paper, field.name), field.name
        assert copy.paper._paper_key == original.paper._paper_key  # type: ignore[attr-defined]
        assert copy.url == original.url and copy.details == original.details and copy.slug == original.slug
        assert dataclasses.asdict(copy) == dataclasses.asdict(original)
        assert copy == original and original == copy and hash(copy) == hash(original) == hash(folded(original))
        assert folded(copy) is copy and pickle.loads(pickle.dumps(copy)) == original
        # What a list reads of every item is kept as it is; the rest is not held unfolded
        assert {"id", "slug", "title", "tags", "order"} <= vars(copy.paper).keys()
        assert not {"details", "path", "source", "corrections", "uid", "_paper_key"} & vars(copy.paper).keys()


def test_a_replaced_folded_paper_is_folded_and_reads_its_new_fields():
    copy = folded(paper())
    moved = dataclasses.replace(copy.paper, title="New", details=Details(track=("Workshop",)))
    assert type(moved) is type(copy.paper) and "details" not in vars(moved)
    assert moved.title == "New" and moved.details.track == ("Workshop",) and moved.abstract == copy.paper.abstract
    assert moved.path == copy.paper.path and moved.uid == "uid-1"


def test_many_folded_papers_hold_much_less_than_the_packed_papers():
    def held(papers: list[RenderedPaper]) -> tuple[int, int]:
        """The bytes of every object reachable from the papers, each once (classes aside): the blobs', the rest's."""
        seen: set[int] = set()
        blobs, rest, stack = 0, 0, [p for p in papers]
        while stack:
            item = stack.pop()
            if id(item) in seen or isinstance(item, type):
                continue
            seen.add(id(item))
            if isinstance(item, bytes):
                blobs += sys.getsizeof(item)
            else:
                rest += sys.getsizeof(item)
            stack.extend(gc.get_referents(item))
        return blobs, rest

    originals = [paper(n, ABSTRACT + f" Paper number {n}.") for n in range(200)]
    packed_copies, folded_copies = [packed(p) for p in originals], [folded(p) for p in originals]
    (packed_blobs, packed_rest), (folded_blobs, folded_rest) = held(packed_copies), held(folded_copies)
    assert folded_rest < packed_rest / 2 and folded_blobs + folded_rest < packed_blobs + packed_rest, \
        (packed_blobs, packed_rest, folded_blobs, folded_rest)
    assert [c.details for c in folded_copies] == [p.details for p in originals]  # beyond those kept unfolded
