"""Rendered papers and parsed pages as build cache records: their keys, and RenderedPaper to and from JSON
(runtime/cache.py keeps them)."""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from pathlib import PurePath
from typing import Any

from generator.runtime.cache import digest


def paper_key(paper: Any) -> str:
    """A paper's record key: every field of it, so any edit is a miss. Of its page file, only the
    name counts: the same content folder given as ``content`` or as an absolute path is one cache.

    A build asks twice for each paper's key (its rendered abstract, then its pages' inputs): the
    paper is frozen, so the key is kept on it the first time, as ``functools.cached_property`` would. A paper
    parsed from its page comes with one (``keep_paper_key``: its page's text and name, all it is made of)."""
    kept = getattr(paper, "__dict__", None)
    key: str | None = kept.get(_KEPT_KEY) if kept is not None else None
    if key is None:
        values = [getattr(paper, name) for name in _field_names(paper.__class__)]
        key = digest(repr([value.name if isinstance(value, PurePath) else value for value in values]))
        if kept is not None:
            kept[_KEPT_KEY] = key  # not a field: equality, repr and replace() never see it
    return key


_KEPT_KEY = "_paper_key"


def keep_paper_key(paper: Any, key: str) -> None:
    """A paper just made gets the record key of what it was made of (content/pages.to_paper); a copy, its own."""
    paper.__dict__[_KEPT_KEY] = key


@lru_cache(maxsize=None)
def _field_names(kind: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(kind))


@lru_cache(maxsize=None)
def _record_names(rendered_type: type) -> frozenset[str]:
    """The fields a rendered record holds: the type's, less its Paper (asked once a paper on a warm build)."""
    return frozenset(_field_names(rendered_type)) - {"paper"}


def texts_key(rendered: Any) -> str:
    """A digest of a RenderedPaper's texts, for the search index's key; kept on it and in its cache record."""
    kept = rendered.__dict__
    key: str | None = kept.get(_TEXTS_KEY)
    if key is None:
        names = sorted(_record_names(rendered.__class__))
        key = kept[_TEXTS_KEY] = digest(*(getattr(rendered, name) for name in names))
    return key


_TEXTS_KEY = "_texts_key"


def rendered_record(rendered: Any, diagnostics: list) -> dict | None:
    """A RenderedPaper (less its Paper), its texts' digest and its problems, as JSON; None if not plain text."""
    values = {f.name: getattr(rendered, f.name) for f in dataclasses.fields(rendered) if f.name != "paper"}
    problems = [d.to_record() for d in diagnostics]
    if not all(isinstance(v, str) for v in values.values()) \
            or not all(isinstance(d.path, (str, type(None))) for d in diagnostics):
        return None
    return {"fields": values, "problems": problems, "texts": texts_key(rendered)}


def from_rendered_record(paper: Any, record: Any, rendered_type: type, diagnostic_type: Any) -> tuple | None:
    """(RenderedPaper, diagnostics) again from a record, or None when the record does not fit the type."""
    try:
        fields = record["fields"]
        if fields.keys() != _record_names(rendered_type):
            return None  # RenderedPaper gained or lost a field since: render again
        rendered = rendered_type(paper=paper, **fields)
        if isinstance(record.get("texts"), str):
            rendered.__dict__[_TEXTS_KEY] = record["texts"]  # (written with these texts: ``rendered_record``)
        return rendered, [diagnostic_type.from_record(problem) for problem in record["problems"]]
    except (AttributeError, TypeError, KeyError, ValueError):  # (a record of another shape)
        return None
