"""Links a venue's export gives as paths into the venue's own site (``pdf_path: static/pdfs/123.pdf``).

Such a path means a file of the site the export came from, not of ours. It is published as it
is only when the content folder has that file (the organisers copied the PDFs in); else it is
resolved against ``venue_base_url`` (proceedings.yaml), the address of the venue's site; without
one it is left out, and one warning per source says which column gave such paths and what to do,
so that no page links to a file that is not there. Addresses (``https://…``, ``javascript:…``) and
paths that would leave the content folder (``../``, hidden files) are not this module's: the
details' own checks keep or refuse them (``model/details.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urljoin

from generator.model.details import CONTROL, NOT_KNOWN, OPENREVIEW_ID, site_file_name
from generator.model.paper import LINK_FIELDS

# A scheme (`https:`, `javascript:`) or a protocol-relative `//host`: an address, not a path.
_ADDRESS = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", re.IGNORECASE)
# What a path keeps unencoded when it becomes part of an address; the rest (spaces, quotes, <>) is encoded.
_SAFE = "/?#&=%:@+,;~!$*()"


@dataclass
class RelativeLinks:
    """How one source's relative links are published: the content folder and ``venue_base_url``."""

    content_dir: Path | None  # None: no folder to look in (every path is the venue's)
    base: str = ""  # an http(s) URL ending in / ("" none)
    # `links:` patterns over a source's columns (model/link_patterns.ColumnLink), by column name as
    # records.field_name compares them (lower case, spaces and dashes as _).
    columns: dict[str, Any] = field(default_factory=dict)
    # (field, the source's name for it, line, path) of each path neither the folder nor a base could publish
    left_out: list[tuple[str, str, int, str]] = field(default_factory=list)
    looked: bool = False  # whether a link was looked for in the content folder (sources/kept.py)

    def resolve(self, key: str, column: str, value: object, line: int) -> object:
        """``value`` of the link field ``key`` as the page should give it; None when it is left out. A file of
        the content folder is the folder's, whatever its type: the details' check publishes or refuses it."""
        if not isinstance(value, str):
            return value
        path = value.strip()
        if not _is_path(key, path):
            return value
        if self._in_content_folder(path):
            return path
        if self.base:
            return urljoin(self.base, quote(path, safe=_SAFE))
        if _leaves_folder(path):
            return value  # refused, with its own warning, by the details' check
        self.left_out.append((key, column, line, path))
        return None

    def _in_content_folder(self, path: str) -> bool:
        from generator.sources import inside  # here: the package imports its readers, which import this module

        if self.content_dir is None:
            return False
        self.looked = True
        found = inside(self.content_dir.resolve(), self.content_dir / site_file_name(path))
        return found is not None and found.is_file()

    def warning(self) -> tuple[str, int] | None:
        """The one warning about the paths left out, and the line of the first; None when none was."""
        if not self.left_out:
            return None
        _, column, line, path = self.left_out[0]
        names = list(dict.fromkeys(column for _, column, _, _ in self.left_out))
        columns = ("columns " if len(names) > 1 else "column ") + ", ".join(f"`{name}`" for name in names)
        count, more = len(self.left_out), len(self.left_out) - 1
        return (f"{count} link{'s' if count > 1 else ''} in {columns} are paths into the venue's own site "
                f"(here `{column}`: {path!r}{f', and {more} more in this file' if more else ''}) that name no file "
                "of the content folder: left them out, so that no link is broken. Set `venue_base_url` in "
                "proceedings.yaml to the address of the site the export came from (the paths are resolved "
                "against it), or copy the files into the content folder at those paths", line)


def _is_path(key: str, value: str) -> bool:
    """Whether a link's value is a path (``static/x.pdf``, ``/index.php/view/7``, ``12.png``): not empty, "TBA",
    an address, a bare OpenReview id, a word, or anything holding a control character (also encoded: %00)."""
    if not value or value.lower() in NOT_KNOWN or _ADDRESS.match(value) or CONTROL.search(site_file_name(value)):
        return False
    if key == "openreview" and OPENREVIEW_ID.fullmatch(value):
        return False
    return "/" in value or "." in value


def _leaves_folder(path: str) -> bool:
    name = site_file_name(path)
    return name == ".." or name.startswith("../") or any(part.startswith(".") for part in name.split("/") if part)


def resolve_links(record: dict, links: RelativeLinks | None, spelled: dict[str, str], line: int) -> dict:
    """``record`` (our field names) with its link fields resolved; ``spelled`` gives the source's names."""
    if links is None:
        return record
    resolved = dict(record)
    for key in LINK_FIELDS:
        if key in resolved:
            value = links.resolve(key, spelled.get(key, key), resolved[key], line)
            if value is None:
                del resolved[key]
            else:
                resolved[key] = value
    return resolved


def column_patterns(links: dict[str, Any]) -> dict[str, Any]:
    """The ``links:`` patterns over columns (ColumnLink), by the column's name as sources are compared."""
    return {re.sub(r"[\s-]+", "_", str(column).strip().lower()): pattern for column, pattern in links.items()
            if not isinstance(pattern, str)}
