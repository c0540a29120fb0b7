"""A paper's corrections: a retraction, an erratum, its versions — and the addresses it had before.

Declared once here (the front matter's keys, what each holds), validated once by
``corrections_front.parse_corrections`` when a page becomes a ``Paper``. They are a person's: the tool
never writes them, except ``old_slugs``, which the sync keeps when a page's slug changes
(content/merge.py), so that an old address still leads to the paper (render/redirects.py).

    retracted: {date: 2026-05-01, note: Retracted at the authors' request.}
    erratum: {date: 2026-03-02, note: Table 2 corrected., link: https://example.org/erratum.pdf}
    versions:
      - {version: v2, date: 2026-02-01, note: Camera-ready., link: papers/v2.pdf}
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

OLD_SLUGS = "old_slugs"
RETRACTED, ERRATUM, VERSIONS = "retracted", "erratum", "versions"
CORRECTION_KEYS = (RETRACTED, ERRATUM, VERSIONS)


@dataclass(frozen=True)
class Notice:
    """One correction: a retraction, an erratum or a version. ``label`` is a version's name ("v2")."""

    note: str = ""
    date: dt.date | None = None
    link: str = ""  # an http(s) URL or a path inside the site, as a paper's links
    label: str = ""


@dataclass(frozen=True)
class Corrections:
    retracted: Notice | None = None
    erratum: Notice | None = None
    versions: tuple[Notice, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.retracted or self.erratum or self.versions)

    def notices(self) -> list[tuple[str, Notice]]:
        """(kind, notice) of every correction, retraction first: what the corrections feed lists."""
        found = [(RETRACTED, self.retracted), (ERRATUM, self.erratum)]
        return [(kind, n) for kind, n in found if n is not None] + [(VERSIONS, v) for v in self.versions]

    def citation_note(self) -> str:
        """What a citation says of them (BibTeX's ``note``): a retraction, else the erratum; in English, as
        citations are. Versions are the paper's history, not a warning to a reader of the reference."""
        for word, notice in (("Retracted", self.retracted), ("Erratum", self.erratum)):
            if notice is not None:
                dated = f" {notice.date.isoformat()}" if notice.date else ""
                return f"{word}{dated}" + (f": {notice.note}" if notice.note else "")
        return ""

    def as_json(self) -> dict[str, Any]:
        """For papers.json: only the corrections there are."""
        record: dict[str, Any] = {}
        if self.retracted:
            record[RETRACTED] = notice_json(self.retracted)
        if self.erratum:
            record[ERRATUM] = notice_json(self.erratum)
        if self.versions:
            record[VERSIONS] = [notice_json(v) for v in self.versions]
        return record


def notice_json(notice: Notice) -> dict[str, str]:
    values = {"version": notice.label, "date": notice.date.isoformat() if notice.date else "",
              "note": notice.note, "link": notice.link}
    return {key: value for key, value in values.items() if value}
