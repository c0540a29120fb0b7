"""Typed JSON records of the model's objects, for the build cache: a ``Paper`` (as its page made it), its
``Details`` and a ``Diagnostic``, each read back equal to what was written, its types included.

A warm build takes each unchanged page's ``Paper`` from such a record instead of validating its front
matter again (pipeline/parsed.py), and each unchanged source's entries (sources/kept.py). A record of
another shape (an older build's, a field since added or removed) reads back as None: made again.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from generator.errors import Diagnostic
from generator.model.corrections import Corrections, Notice
from generator.model.paper import DETAILS, Author, Details, Paper

_KINDS = {field.name: field.kind for field in DETAILS}
_DEFAULTS = Details()
_NO_CORRECTIONS = Corrections()
# What a record cannot be made of any more: a record of another shape raises one of these while read back.
SHAPE_ERRORS = (TypeError, ValueError, KeyError, AttributeError, IndexError)


def details_record(details: Details) -> dict[str, Any]:
    """A paper's details as JSON: only those not at their default. A value of a type the record would not give
    back as it is (a list for a tuple, a ``str`` subclass) raises TypeError."""
    made: dict[str, Any] = {}
    for name, kind in _KINDS.items():
        value = getattr(details, name)
        if not value:
            if value != "" and value != ():
                raise TypeError(f"a detail {name} of another type")
            continue  # (every default is "" or ())
        if kind == "authors":
            if type(value) is not tuple or not all(type(author) is Author for author in value):
                raise TypeError("authors of another type")
            made[name] = [_texts([author.name, author.affiliation, author.orcid, author.id]) for author in value]
        elif kind == "labelled":
            if type(value) is not tuple or not all(type(pair) is tuple and len(pair) == 2 for pair in value):
                raise TypeError("labelled links of another type")
            made[name] = [_texts(list(pair)) for pair in value]
        elif type(value) is tuple:
            made[name] = _texts(list(value))
        elif type(value) is str:
            made[name] = value
        else:
            raise TypeError(f"a detail {name} of another type")
    return made


def _texts(values: list) -> list:
    if not all(type(value) is str for value in values):
        raise TypeError("a text of another type")
    return values


def details_of(record: dict[str, Any]) -> Details:
    """``details_record``'s Details again (a name no field has raises KeyError)."""
    if not record:
        return _DEFAULTS
    made: dict[str, Any] = {}
    for name, value in record.items():
        kind = _KINDS[name]
        if kind == "authors":
            made[name] = tuple(Author(*author) for author in value)
        elif kind == "labelled":
            made[name] = tuple(tuple(pair) for pair in value)
        else:
            made[name] = tuple(value) if isinstance(value, list) else value
    return Details(**made)


def diagnostic_record(diagnostic: Diagnostic) -> list:
    """A diagnostic as JSON, with whether its file was a ``Path`` (a page's) or text (a source's)."""
    return [diagnostic.to_record(), isinstance(diagnostic.path, Path)]


def diagnostic_of(record: list) -> Diagnostic:
    made, was_path = record
    diagnostic = Diagnostic.from_record(made)
    if was_path and diagnostic.path is not None:
        diagnostic = Diagnostic(diagnostic.level, diagnostic.message, Path(diagnostic.path), *made[3:])
    return diagnostic


def paper_record(paper: Paper, body: str | None = None) -> list:
    """A Paper as JSON, less its page's path (the page it is read from again gives it) and, when it is the
    page's ``body`` as it is (the common case: a page's text is clean), its abstract (null: the body). A value of
    a type the record would not give back as it is (a ``str`` subclass, a ``datetime`` for a date) raises
    TypeError: such a paper is not kept."""
    _check(paper)
    abstract = None if body is not None and paper.abstract == body else paper.abstract
    return [paper.id, paper.slug, paper.title, abstract, list(paper.tags), paper.order, paper.source,
            paper.entry, details_record(paper.details), paper.uid, list(paper.old_slugs),
            _corrections_record(paper.corrections)]


def _check(paper: Paper) -> None:
    """Raise TypeError for a field the record would not give back as it is (its details: ``details_record``)."""
    _texts([paper.id, paper.slug, paper.title, paper.abstract, paper.source, paper.uid])
    if type(paper.order) is not int or type(paper.entry) is not int or type(paper.tags) is not tuple \
            or type(paper.old_slugs) is not tuple:
        raise TypeError("a paper's field of another type")
    _texts(list(paper.tags))
    _texts(list(paper.old_slugs))
    corrections = paper.corrections
    if corrections != _NO_CORRECTIONS:
        for notice in (*corrections.versions, corrections.retracted, corrections.erratum):
            if notice is not None:
                _texts([notice.note, notice.link, notice.label])
                if notice.date is not None and type(notice.date) is not dt.date:
                    raise TypeError("a correction's date of another type")


def paper_of(record: list, path: Path, body: str | None = None) -> Paper:
    """``paper_record``'s Paper again, its page ``path`` (and ``body``, the page's, as ``paper_record`` was
    given it); a record of another shape raises one of ``SHAPE_ERRORS``."""
    id_, slug, title, abstract, tags, order, source, entry, details, uid, old_slugs, corrections = record
    if abstract is None and body is not None:
        abstract = body
    if not all(isinstance(value, str) for value in (id_, slug, title, abstract, source, uid)) \
            or type(order) is not int or type(entry) is not int:
        raise TypeError("not a paper's record")
    return Paper(id=id_, slug=slug, title=title, abstract=abstract, tags=tuple(tags), order=order, source=source,
                 entry=entry, path=path, details=details_of(details), uid=uid, old_slugs=tuple(old_slugs),
                 corrections=_corrections_of(corrections))


def _corrections_record(corrections: Corrections) -> list | None:
    if corrections == _NO_CORRECTIONS:
        return None
    return [_notice_record(corrections.retracted), _notice_record(corrections.erratum),
            [_notice_record(version) for version in corrections.versions]]


def _corrections_of(record: list | None) -> Corrections:
    if record is None:
        return _NO_CORRECTIONS
    retracted, erratum, versions = record
    made = tuple(notice for notice in map(_notice_of, versions) if notice is not None)
    if len(made) != len(versions):
        raise TypeError("a version of no notice")
    return Corrections(_notice_of(retracted), _notice_of(erratum), made)


def _notice_record(notice: Notice | None) -> list | None:
    if notice is None:
        return None
    return [notice.note, notice.date.isoformat() if notice.date is not None else None, notice.link, notice.label]


def _notice_of(record: list | None) -> Notice | None:
    if record is None:
        return None
    note, date, link, label = record
    return Notice(note, dt.date.fromisoformat(date) if date is not None else None, link, label)
