"""EndNote's tagged format (``.enw``, "refer"): one record per paper, ``%0 Conference Paper`` and a line per
field, records one blank line apart; what the ACL Anthology offers beside BibTeX, and what EndNote imports.

A value is written on one line (as RIS writes it: ris.one_line), so nothing in a title or an abstract starts
a field of its own; a name is "Family, Given".
"""

from __future__ import annotations

from .reading import Reference
from .ris import one_line, ris_name

# %8 is the day of publication as EndNote (and bibutils) read it: "July 1", in English whatever the site's language.
_MONTHS = ("January February March April May June July August September October November December").split()


def endnote_record(ref: Reference, abstract: bool = False) -> str:
    """The paper's record (lines ending in a newline); its abstract (``%X``) only for a paper alone (its Cite box,
    a reading list), as for MODS and the volume's CSL-JSON."""
    pages = "-".join(page for page in dict.fromkeys((ref.first_page, ref.last_page)) if page)
    tags: list[tuple[str, str]] = [("%0", "Conference Paper"), ("%T", ref.title)]
    tags += [("%A", ris_name(author.name)) for author in ref.authors]
    tags += [("%+", author.affiliation) for author in ref.authors if author.affiliation]
    tags += [("%E", ris_name(editor)) for editor in ref["editors"]]
    day = f"{_MONTHS[ref.date.month - 1]} {ref.date.day}" if ref.date else ""
    # The DOI as an address too: EndNote takes %R for it, bibutils only a doi.org address.
    doi_link = f"https://doi.org/{ref['doi']}" if ref["doi"] else ""
    tags += [("%B", ref.container), ("%S", ref.series), ("%D", ref.year), ("%8", day), ("%V", ref["volume"]),
             ("%P", pages), ("%I", ref["publisher"]), ("%C", ref["address"]), ("%@", ref.isbn or ref.issn),
             ("%R", ref["doi"]), ("%U", doi_link), ("%U", ref.url), ("%F", ref.key), ("%Z", ref.note),
             ("%X", ref.abstract if abstract else "")]
    tags += [("%K", keyword) for keyword in ref.keywords]
    return "".join(f"{tag} {line}\n" for tag, value in tags if (line := one_line(value)))


def endnote_alone(ref: Reference) -> str:
    return endnote_record(ref, abstract=True)
