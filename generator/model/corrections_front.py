"""A page's corrections (model/corrections.py) read from its front matter, each problem named by its key."""

from __future__ import annotations

import datetime as dt
from typing import Any, Callable, Mapping

from generator.errors import shown
from generator.model.corrections import ERRATUM, RETRACTED, VERSIONS, Corrections, Notice
from generator.model.details import parse_link
from generator.text.cleantext import clean

MAX_VERSIONS = 50  # more is a mistake (a list pasted twice), not a paper's history

Problem = Callable[[str, str], None]  # (key, message)


def parse_corrections(meta: Mapping[str, Any], problem: Problem) -> Corrections:
    """The page's corrections; a field that cannot be used is warned about (naming it) and left out."""
    versions = meta.get(VERSIONS)
    parsed: list[Notice] = []
    if versions not in (None, "", []):
        if not isinstance(versions, list):
            problem(VERSIONS, "must be a list of versions, like [{version: v2, date: 2026-02-01, note: …}]; left out")
        else:
            for number, item in enumerate(versions[:MAX_VERSIONS], start=1):
                notice = _notice(item, f"{VERSIONS}[{number}]", problem, label=True)
                if notice is not None:
                    parsed.append(notice)
            if len(versions) > MAX_VERSIONS:
                problem(VERSIONS, f"has {len(versions)} versions; the first {MAX_VERSIONS} are kept")
    return Corrections(retracted=_notice(meta.get(RETRACTED), RETRACTED, problem, need_date=True),
                       erratum=_notice(meta.get(ERRATUM), ERRATUM, problem), versions=tuple(parsed))


def _notice(value: Any, key: str, problem: Problem, label: bool = False, need_date: bool = False) -> Notice | None:
    """One correction; ``label``: a version (named), ``need_date``: a retraction (kept even if it says nothing
    more: that the paper is retracted is the point)."""
    if value in (None, "", False):
        return None
    if need_date and value is True:  # `retracted: true`
        value = {}
    if isinstance(value, str) and not label:  # `retracted: The authors withdrew it.`: a note alone
        value = {"note": value}
    if not isinstance(value, Mapping):
        problem(key, f"must be a mapping like {{date: 2026-05-01, note: …}}, not {shown(value)}; left out")
        return None
    for unknown in sorted(set(map(str, value)) - {"date", "note", "link", "version", "label"}):
        problem(key, f"`{unknown}` is not a field of a correction (date, note, link{', version' if label else ''}); "
                     "ignored")
    note = _text(value.get("note"), f"{key}.note", problem)
    name = _text(value.get("version", value.get("label")), f"{key}.version", problem) if label else ""
    date = _date(value.get("date"), key, problem)
    if need_date and value.get("date") in (None, ""):
        problem(key, "has no `date`: add the date it was retracted (date: YYYY-MM-DD), for its notice and the "
                     "corrections feed")
    if label and not name:
        problem(key, "has no `version` (a name such as v2); left out")
        return None
    if not (note or name or date or need_date):
        problem(key, "says nothing: give it a `note` (and a `date`); left out")
        return None
    link = parse_link({"link": value.get("link")}, "link", lambda _, message: problem(f"{key}.link", message))
    return Notice(note=note, date=date, link=link, label=name)


def _text(value: Any, key: str, problem: Problem) -> str:
    """A note or a version's name: text (a number is read as written); anything else is warned about."""
    if value is None or isinstance(value, bool):
        return ""
    if not isinstance(value, (str, int, float)):
        problem(key, f"must be text, not {shown(value)}; left out")
        return ""
    return clean(str(value), lines=False).strip()


def _date(value: Any, key: str, problem: Problem) -> dt.date | None:
    if value in (None, ""):
        return None
    try:
        return dt.date.fromisoformat(str(value).strip())
    except ValueError:
        problem(f"{key}.date", f"must be a date written YYYY-MM-DD, not {shown(value)}; left out")
        return None
