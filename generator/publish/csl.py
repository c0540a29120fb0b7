"""CSL-JSON (Zotero, Pandoc, citeproc): one ``paper-conference`` item per paper, a volume's as one array.

Variables are those of the CSL 1.0.2 schema; a fact the paper and the volume do not give is left out. The
abstract is left out too: CSL-JSON is what citeproc and Pandoc format references from, and no citation
style prints an abstract, which would be most of this file's bytes. A reference
manager gets them from ``proceedings.ris``, and a paper's own CSL-JSON (the Cite box, the reading list's
export: formats.py, from the paper's record in the reading list's blocks) has its abstract, which costs no file.
"""

from __future__ import annotations

from typing import Any

from .reading import Reference, split_name


def csl_name(name: str) -> dict[str, str]:
    parts = split_name(name)
    if parts.literal:
        return {"literal": parts.literal}
    return {key: value for key, value in (("family", parts.family), ("given", parts.given),
                                          ("suffix", parts.suffix)) if value}


def csl_item(ref: Reference, abstract: bool = False) -> dict[str, Any]:
    """The paper as a CSL-JSON item (keys in a fixed order: the same paper gives the same bytes); with its
    ``abstract`` for a paper alone (a Cite box's download, a reading list), not in the volume's file."""
    if ref.date:
        issued: dict[str, Any] | None = {"date-parts": [[ref.date.year, ref.date.month, ref.date.day]]}
    else:
        issued = {"date-parts": [[int(ref.year)]]} if ref.year.isdigit() else None
    pages = f"{ref.first_page}-{ref.last_page}" if ref.last_page and ref.last_page != ref.first_page else ref.first_page
    item: dict[str, Any] = {
        "id": ref.key, "type": "paper-conference", "title": ref.title,
        "author": [csl_name(author.name) for author in ref.authors],
        "editor": [csl_name(editor) for editor in ref["editors"]],
        "container-title": ref.container, "collection-title": ref.series, "issued": issued,
        "volume": ref["volume"], "page": pages, "publisher": ref["publisher"], "publisher-place": ref["address"],
        "ISBN": ref.isbn, "ISSN": ref.issn, "DOI": ref["doi"], "URL": ref.url,
        "keyword": ", ".join(ref.keywords), "note": ref.note, "abstract": ref.abstract if abstract else "",
    }
    return {key: value for key, value in item.items() if value}
