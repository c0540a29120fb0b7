"""A fresh template worker's papers (pipeline/packed.py): each abstract's three texts packed into one blob
until read, every field reading what the paper read, a fraction of its memory."""

from __future__ import annotations

import dataclasses
import pickle
import sys
from pathlib import Path

from generator.model.paper import Author, Details, Paper, RenderedPaper
from generator.pipeline.packed import packed

ABSTRACT = ("We learn the edges of a graph with $O(n \\log n)$ memory.\n\nA second paragraph, with *emphasis* and "
            "the word naïve, repeated: " + "edges of a graph " * 40)


def paper(number: int = 1, abstract: str = ABSTRACT) -> RenderedPaper:
    record = Paper(f"id{number}", f"p{number}", f"Paper {number}", abstract, ("Graphs",), number, "papers.jsonl",
                   number, Path(f"papers/p{number}.md"), Details(authors=(Author("Ada Lovelace"),)))
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
