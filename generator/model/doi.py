"""DOIs a volume registers with Crossref: the ``doi:`` settings of proceedings.yaml and the DOI each paper gets.

    publisher: PMLR
    doi:
      pattern: "10.99999/colt.2024.{n}"   # {n}: the paper's number in the volume; {key}, {slug} also work
      depositor: COLT Proceedings Chairs
      email: chairs@example.org

A DOI the source or the page gives always wins over the pattern (``with_doi``), as a paper's own link wins over
a ``links:`` pattern. The deposit itself (``crossref.xml``) is publish/crossref.py's.
"""

from __future__ import annotations

import dataclasses
import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from generator.errors import shown
from generator.model.details import DOI
from generator.model.paper import Paper

# What a pattern may name: the paper's number in the volume (1, 2, …, in proceedings order), its source's id (a
# BibTeX key), its id and its page's name.
PLACEHOLDERS = ("n", "key", "id", "slug")
DOI_KEYS = ("pattern", "depositor", "email", "registrant", "crossmark_policy")
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
# What a DOI suffix may hold as Crossref recommends: letters, digits and "-._;()/:" (no spaces, no <>).
_SUFFIX_UNSAFE = re.compile(r"[^A-Za-z0-9\-._;()/:]")


@dataclass(frozen=True)
class DoiSettings:
    """The ``doi:`` mapping, checked: every key optional but together what a Crossref deposit's head needs."""

    pattern: str = ""  # "10.99999/colt.2024.{n}"
    depositor: str = ""  # who deposits (depositor_name)
    email: str = ""  # where Crossref writes back about the deposit
    registrant: str = ""  # the member the DOIs belong to; the publisher when not given
    crossmark_policy: str = ""  # the DOI of the volume's Crossmark policy page: retractions are then deposited


def parse_doi_settings(value: Any) -> DoiSettings:
    """``doi:`` from proceedings.yaml; a ValueError names what is wrong."""
    if not isinstance(value, Mapping):
        raise ValueError("must be a mapping, like {pattern: \"10.99999/colt.2024.{n}\", depositor: …, email: …}")
    unknown = sorted(str(key) for key in value if key not in DOI_KEYS)
    if unknown:
        raise ValueError(f"has unknown keys {', '.join(unknown)} (known: {', '.join(DOI_KEYS)})")
    texts = {}
    for key in DOI_KEYS:
        item = value.get(key, "")
        if not isinstance(item, (str, int, float)) or isinstance(item, bool):
            raise ValueError(f"{key} must be text, not {shown(item)}")
        texts[key] = " ".join(str(item).split())
    if texts["pattern"]:
        _check_pattern(texts["pattern"])
    if texts["email"] and not _EMAIL.fullmatch(texts["email"]):
        raise ValueError(f"email {shown(texts['email'])} is not an e-mail address")
    if texts["crossmark_policy"] and not DOI.fullmatch(texts["crossmark_policy"]):
        raise ValueError(f"crossmark_policy {shown(texts['crossmark_policy'])} is not a DOI (like 10.99999/policy)")
    return DoiSettings(**texts)


def _check_pattern(pattern: str) -> None:
    try:
        names = [name for _, name, _, _ in string.Formatter().parse(pattern) if name is not None]
    except ValueError as exc:
        raise ValueError(f"pattern {shown(pattern)} has a brace that is not a placeholder ({exc})") from None
    bad = [name for name in names if name not in PLACEHOLDERS]
    if bad:
        raise ValueError(f"pattern {shown(pattern)} has the placeholder {{{bad[0]}}}, which is not one "
                         f"(known: {', '.join('{' + name + '}' for name in PLACEHOLDERS)})")
    if not names:
        raise ValueError(f"pattern {shown(pattern)} has no placeholder, so every paper would get the same DOI "
                         "(use {n}, {key} or {slug})")
    example = pattern.format(**{name: "1" for name in PLACEHOLDERS})
    if not DOI.fullmatch(example) or example.lower().startswith(("doi:", "http")):
        raise ValueError(f"pattern {shown(pattern)} does not make a DOI: write prefix/suffix, like "
                         "\"10.99999/colt.2024.{n}\"")


def with_doi(paper: Paper, pattern: str, number: int) -> Paper:
    """``paper`` with the DOI its pattern makes, unless it has its own; none when a placeholder has no value (no
    source id for ``{key}``). ``number`` is the paper's place in the volume, from 1."""
    if not pattern or paper.details.doi:
        return paper
    values = {"n": str(number), "key": paper.uid, "id": paper.id, "slug": paper.slug}
    needed = {name for _, name, _, _ in string.Formatter().parse(pattern) if name}
    if not all(values[name] for name in needed):
        return paper
    made = pattern.format(**{name: _SUFFIX_UNSAFE.sub("-", value) for name, value in values.items()})
    return dataclasses.replace(paper, details=dataclasses.replace(paper.details, doi=made))
