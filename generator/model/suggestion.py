"""A reader's suggested correction: the record a "Suggest a correction" link fills a GitHub issue form with,
and the same record read back from the issue (``proceedings correct``).

The record is YAML in one field of the form (``RECORD_FIELD``): the paper's id and page, its current title and
authors for the reader to edit (and the abstract, which the reader may add), and ``was``, a fingerprint of each
value as the page had it when the site was built. A value whose fingerprint still matches its ``was`` is one the
reader left alone; a value that differs is the reader's correction. So a correction names only what the reader
changed, and one made from an old page is refused where someone has edited the page since (its current value no
longer matches ``was``), instead of undoing that edit.

A person page's record names the person (``person``), their name and ORCID, and each of their papers with the
author's place in it (``author``) and that author's fingerprint as the paper had it.

Both sides make the fingerprints with ``fingerprint`` from the same values: the build from the rendered paper,
``correct`` from the page read again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from generator.model.paper import Author

# The issue form (.github/ISSUE_TEMPLATE/correction.yml, written by `proceedings new`): its name, the ids of its
# fields (a link fills a field by its id), and the labels GitHub renders above each field's value in the issue.
FORM = "correction.yml"
RECORD_FIELD = "record"
RECORD_LABEL = "The record"
NOTE_FIELD = "note"
NOTE_LABEL = "What is wrong"
LABEL = "correction"  # the workflow that runs `correct` acts on an issue with this label
PAPER_FIELDS = ("title", "authors", "abstract")
PERSON_FIELDS = ("name", "orcid")


def fingerprint(value: Any) -> str:
    """A short fingerprint of a record's value (text, or authors as ``author_record`` writes them)."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]


def author_record(author: Author) -> str | dict[str, str]:
    """An author as a record (and a page's front matter) writes one: the name alone, or name, affiliation, ORCID."""
    fields = {"name": author.name, "affiliation": author.affiliation, "orcid": author.orcid}
    fields = {key: value for key, value in fields.items() if value}
    return author.name if fields.keys() == {"name"} else fields


def authors_record(authors: Iterable[Author]) -> list[str | dict[str, str]]:
    return [author_record(author) for author in authors]


def paper_values(title: str, authors: Sequence[Author], abstract: str) -> dict[str, Any]:
    """A paper's correctable values, as a record holds them."""
    return {"title": title, "authors": authors_record(authors), "abstract": abstract}


def paper_record(paper_id: str, file: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """The record a paper page's link fills the form with: its title and authors, and the fingerprint of its
    abstract too. The abstract itself is not in the link (at 10,000 papers it made the paper pages 20 MB
    heavier, and GitHub refuses links past about 8 KB): a reader who corrects it adds ``abstract:`` with the
    whole corrected text, which ``correct`` applies where the page's abstract is still the one fingerprinted."""
    record: dict[str, Any] = {"paper": paper_id, "file": file}
    record.update((key, values[key]) for key in ("title", "authors") if values.get(key) or key == "title")
    record["was"] = {key: fingerprint(values[key]) for key in PAPER_FIELDS}
    return record


@dataclass(frozen=True)
class Authorship:
    """One of a person's papers, and the author's place in it (1 for the first author)."""

    paper: str
    file: str
    place: int
    was: str  # the fingerprint of that author (``author_record``) as the paper had it


def person_record(name: str, orcid: str, papers: Sequence[Authorship]) -> dict[str, Any]:
    """The record a person page's link fills the form with."""
    record: dict[str, Any] = {"person": name, "name": name}
    if orcid:
        record["orcid"] = orcid
    record["papers"] = [{"paper": a.paper, "file": a.file, "author": a.place, "was": a.was} for a in papers]
    record["was"] = {"name": fingerprint(name), "orcid": fingerprint(orcid)}
    return record
