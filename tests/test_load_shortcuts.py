"""What loading a source does once that it did for every record: an author written as a string read once
(model/details.py), a column's name normalised once (sources/records.py)."""

from __future__ import annotations

from generator.model import details
from generator.model.details import parse_authors
from generator.model.paper import Author
from generator.sources.records import field_name


def test_an_author_written_alike_reads_alike_and_once():
    problems: list[tuple[str, str]] = []
    first = parse_authors(["Ada Roe (MIT)*", "Roe, Bo", "Cy Li"], lambda key, message: problems.append((key, message)))
    again = parse_authors(["Cy Li", "Ada Roe (MIT)*", "Roe, Bo"], lambda key, message: problems.append((key, message)))
    assert first == (Author("Ada Roe", "MIT"), Author("Bo Roe"), Author("Cy Li"))
    assert again == (first[2], first[0], first[1]) and again[1] is first[0]
    assert not problems and details._NAMED["Ada Roe (MIT)*"] == Author("Ada Roe", "MIT")


def test_a_name_that_reads_as_none_is_a_problem_each_time():
    problems: list[str] = []
    for _ in range(2):
        assert parse_authors(["*", "Ada Roe"], lambda _, message: problems.append(message)) == (Author("Ada Roe"),)
    assert problems == ["author 1 has no name"] * 2 and "*" not in details._NAMED


def test_a_columns_name_is_normalised_as_before():
    assert field_name(" Authors ") == field_name("authors") == "authors"
    assert field_name("Paper-Title") == field_name("paper title") == field_name("paper_title")
