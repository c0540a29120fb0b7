"""`proceedings correct ISSUE`: apply a reader's correction (an issue made by the "Suggest a correction" form) to
the page of the paper, or to the pages of the person, it names.

The issue is its Markdown body as GitHub renders a form (``### The record`` and the record in a fenced YAML
block: model/suggestion.py), or the issue as JSON (GitHub's API, ``gh issue view N --json body``). Only the
values the reader changed are applied (their fingerprint differs from the record's ``was``), each only where
the page still has the value the link was made from (else someone edited it since: refused, naming the page);
they are written as a person's edit (content/amend.py): the next build keeps them, as it keeps every hand edit.
The diff is printed. A record that cannot be read, or a change the page would refuse (a page's own checks:
content/pages.py ``to_paper``), is one error naming the issue's file and line; nothing is written then.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.commands.correct_record import Record, read_record
from generator.content.amend import amend_page
from generator.content.pages import PAGES_DIR, page_paths, read_page, split_front_matter, to_paper
from generator.errors import ContentError, ProceedingsError
from generator.model.details import author_fields, parse_authors
from generator.model.paper import Author, Paper
from generator.model.suggestion import author_record, fingerprint, paper_values
from generator.runtime.output import write_atomically
from generator.text.yamlutil import load_mapping


@dataclass
class Correction:
    """What a correction changes: page → its new text, and what was said of it."""

    texts: dict[Path, tuple[str, str]] = field(default_factory=dict)  # page → (old text, new text)
    notes: list[str] = field(default_factory=list)

    def diff(self, content_dir: Path) -> str:
        chunks: list[str] = []
        for path, (old, new) in self.texts.items():
            name = _shown(path, content_dir)
            chunks += difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                           f"a/{name}", f"b/{name}")
        return "".join(chunks)


def correct(issue: Path, content_dir: Path) -> Correction:
    """The pages ``issue`` changes and their new texts (nothing written); raises a ProceedingsError naming the
    issue's file and line, or the page, when the correction cannot be applied."""
    record = read_record(issue)
    if record.kind == "paper":
        return _correct_paper(record, content_dir)
    return _correct_person(record, content_dir)


def write(correction: Correction) -> None:
    for path, (_, new) in correction.texts.items():
        write_atomically(path, new.encode("utf-8"))


def _correct_paper(record: Record, content_dir: Path) -> Correction:
    path, text, paper = _page(record, record.data["paper"], record.data["file"], content_dir)
    now = paper_values(paper.title, paper.details.authors, paper.abstract)
    fields: dict[str, Any] = {}
    body: str | None = None
    result = Correction()
    for name in ("title", "authors", "abstract"):
        if name not in record.data:
            continue
        wanted = record.value(name)
        if fingerprint(wanted) in (record.was(name), fingerprint(now[name])):
            continue  # as the link gave it (the reader left it alone), or as the page has it already
        if fingerprint(now[name]) != record.was(name):
            raise _edited_since(record, name, path, content_dir)
        if name == "abstract":
            body = wanted
        else:
            fields[name] = _front_authors(wanted, paper.details.authors) if name == "authors" else wanted
        result.notes.append(f"{_shown(path, content_dir)}: {name}")
    if fields or body is not None:
        new = amend_page(text, fields, body)
        changed = {*fields, *(["body"] if body is not None else [])}
        result.texts[path] = (text, _checked(path, text, new, content_dir, record, changed))
    return result


def _correct_person(record: Record, content_dir: Path) -> Correction:
    changed = {name: record.value(name) for name in ("name", "orcid")
               if fingerprint(record.value(name)) != record.was(name)}
    result = Correction()
    if not changed:
        return result
    for place in record.data["papers"]:
        path, text, paper = _page(record, place["paper"], place["file"], content_dir)
        original = result.texts[path][0] if path in result.texts else text  # two places in one paper: both
        authors = list(paper.details.authors)
        number = place["author"]
        if not 1 <= number <= len(authors) or (
                fingerprint(author_record(authors[number - 1])) != place["was"] and not all(
                    author_fields(authors[number - 1]).get(key, "") == value for key, value in changed.items())):
            raise _edited_since(record, "papers", path, content_dir, f"author {number}")
        fields = author_fields(authors[number - 1])
        if all(fields.get(key, "") == value for key, value in changed.items()):
            continue  # corrected already
        fields.update(changed)
        authors[number - 1] = Author(fields["name"], fields.get("affiliation", ""), fields.get("orcid", ""),
                                     fields.get("id", ""))
        new = amend_page(result.texts[path][1] if path in result.texts else text,
                         {"authors": [_meta(author) for author in authors]})
        result.texts[path] = (original, _checked(path, original, new, content_dir, record, {"authors"}))
        result.notes.append(f"{_shown(path, content_dir)}: author {number}'s {' and '.join(changed)}")
    more = record.data.get("more_papers")
    if isinstance(more, int) and more > 0:  # a link holds so many papers: the person's page lists the rest
        result.notes.append(f"{more} more paper{'s' * (more != 1)} of {record.data['person']} did not fit the "
                            "link: once this is built, correct them from the person's page again")
    return result


def _page(record: Record, paper_id: str, file: str, content_dir: Path) -> tuple[Path, str, Paper]:
    """The page of paper ``paper_id``: the record's ``file`` (in the content folder, or in one of a series'
    volumes), else the page whose ``id`` it is."""
    name = file.rsplit("/", 1)[-1]
    candidates = [content_dir / file, content_dir / PAGES_DIR / name,
                  *sorted(content_dir.glob(f"*/{PAGES_DIR}/{name}"))]
    for path in [*candidates, *page_paths(content_dir)]:
        if path.is_file():
            paper = _paper(path, content_dir)
            if paper is not None and paper.id == paper_id:
                return path, path.read_text(encoding="utf-8"), paper
    raise record.problem("paper", f"no page of paper {paper_id!r} ({file}) in {content_dir}")


def _paper(path: Path, content_dir: Path) -> Paper | None:
    try:
        return to_paper(read_page(path), _shown(path, content_dir))
    except ProceedingsError:
        return None


def _checked(path: Path, old: str, new: str, content_dir: Path, record: Record, changed: set[str]) -> str:
    """``new`` if the page still reads as a page with no new problem and every field but the ``changed`` ones
    (``body``: the abstract) reads as it did; else the error naming what the page refuses."""
    problems: list[str] = []
    front, _, _ = split_front_matter(new)
    try:
        meta, lines = load_mapping(front or "", path, ContentError, first_line=2)
        doc = read_page(path)
        kept = {key: value for key, value in doc.meta.items() if key not in changed}
        if kept != {key: value for key, value in meta.items() if key not in changed} or (
                "body" not in changed and doc.body != split_front_matter(new)[1].strip()):
            raise ContentError("a field that is not corrected would change (a bug: please report it)")
        doc.meta, doc.lines, doc.body = meta, lines, split_front_matter(new)[1].strip()
        doc.text_digest = ""  # (no longer the text read: its Paper's key is made from its fields)
        to_paper(doc, _shown(path, content_dir), lambda message, *_, **__: problems.append(message))
    except ProceedingsError as exc:
        problems.append(str(exc))
    before: list[str] = []
    doc_before = read_page(path)
    to_paper(doc_before, _shown(path, content_dir), lambda message, *_, **__: before.append(message))
    new_problems = [problem for problem in problems if problem not in before]
    if new_problems:
        raise record.problem(None, f"the corrected page {_shown(path, content_dir)} would not be valid: "
                                   + "; ".join(new_problems))
    return new


def _front_authors(wanted: list[Any], before: tuple[Author, ...]) -> list[Any]:
    """The authors as the page's front matter writes them; a person id the page gave an author (a series'
    people.yaml) stays with the author of the same name, or at the same place."""
    authors = parse_authors(wanted, lambda *_: None)
    kept = []
    for place, author in enumerate(authors):
        same = next((b for b in before if b.name == author.name and b.id), None)
        if same is None and place < len(before) and len(before) == len(authors):
            same = before[place] if before[place].id else None
        kept.append(Author(author.name, author.affiliation, author.orcid, same.id if same else ""))
    return [_meta(author) for author in kept]


def _meta(author: Author) -> Any:
    fields = author_fields(author)
    return author.name if fields.keys() == {"name"} else fields


def _edited_since(record: Record, name: str, path: Path, content_dir: Path, what: str = "") -> ProceedingsError:
    return record.problem(name, f"{what or name} of {_shown(path, content_dir)}: the page was edited since the link "
                                f"was made, so nothing was applied (compare the issue with the page, and edit it "
                                f"by hand)")


def _shown(path: Path, content_dir: Path) -> str:
    try:
        return str(path.relative_to(content_dir))
    except ValueError:
        return str(path)

