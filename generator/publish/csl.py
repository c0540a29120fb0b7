"""CSL-JSON (Zotero, Pandoc, citeproc): one ``paper-conference`` item per paper, a volume's as one array.

Variables are those of the CSL 1.0.2 schema; a fact the paper and the volume do not give is left out. The
abstract is left out too: CSL-JSON is what citeproc and Pandoc format references from, and no citation
style prints an abstract, which would be most of this file's bytes. A reference
manager gets them from ``proceedings.ris``, and a paper's own CSL-JSON (the Cite box, the reading list's
export: formats.py, from the paper's record in the reading list's blocks) has its abstract, which costs no file.
"""

from __future__ import annotations

from typing import Any

from .reading import Name, Reference


def name_item(parts: Name) -> dict[str, str]:
    """A name (``split_name``'s) as a CSL name."""
    if parts.literal:
        return {"literal": parts.literal}
    if parts.family and parts.given and not parts.suffix:  # nearly every name
        return {"family": parts.family, "given": parts.given}
    return {key: value for key, value in (("family", parts.family), ("given", parts.given),
                                          ("suffix", parts.suffix)) if value}


def csl_item(ref: Reference, abstract: bool = False) -> dict[str, Any]:
    """The paper as a CSL-JSON item (keys in a fixed order: the same paper gives the same bytes); with its
    ``abstract`` for a paper alone (a Cite box's download, a reading list), not in the volume's file."""
    if ref.date:
        issued: dict[str, Any] | None = {"date-parts": [[ref.date.year, ref.date.month, ref.date.day]]}
    else:
        issued = {"date-parts": [[int(ref.year)]]} if ref.year.isdigit() else None
    first, last = ref.pages
    details = ref.details
    item: dict[str, Any] = {
        "id": ref.key, "type": "paper-conference", "title": ref.title,
        "author": list(map(name_item, ref.author_names)), "editor": list(map(name_item, ref.editor_names)),
        "container-title": ref.container, "collection-title": ref.series, "issued": issued,
        "volume": details["volume"], "page": f"{first}-{last}" if last and last != first else first,
        "publisher": details["publisher"], "publisher-place": details["address"], "ISBN": ref.isbn,
        "ISSN": ref.issn, "DOI": details["doi"], "URL": ref.url, "keyword": ", ".join(ref.keywords),
        "note": ref.note, "abstract": ref.abstract if abstract else "",
    }
    return {key: value for key, value in item.items() if value}
