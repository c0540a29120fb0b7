"""EndNote's tagged format (``.enw``, "refer"): one record per paper, ``%0 Conference Paper`` and a line per
field, records one blank line apart; what the ACL Anthology offers beside BibTeX, and what EndNote imports.

A value is written on one line (as RIS writes it: ris.one_line), so nothing in a title or an abstract starts
a field of its own; a name is "Family, Given".
"""

from __future__ import annotations

from .reading import Reference
from .ris import name_text, one_lines

# %8 is the day of publication as EndNote (and bibutils) read it: "July 1", in English whatever the site's language.
_MONTHS = ("January February March April May June July August September October November December").split()


def endnote_record(ref: Reference, abstract: bool = False) -> str:
    """The paper's record (lines ending in a newline); its abstract (``%X``) only for a paper alone (its Cite box,
    a reading list), as for MODS and the volume's CSL-JSON."""
    first, last = ref.pages
    details = ref.details
    doi = details["doi"]
    tags: list[tuple[str, str]] = [("%0", "Conference Paper"), ("%T", ref.title)]
    tags += [("%A", name_text(name)) for name in ref.author_names]
    tags += [("%+", author.affiliation) for author in details["authors"] if author.affiliation]
    tags += [("%E", name_text(editor)) for editor in ref.editor_names]
    day = f"{_MONTHS[ref.date.month - 1]} {ref.date.day}" if ref.date else ""
    # The DOI as an address too: EndNote takes %R for it, bibutils only a doi.org address.
    tags += [("%B", ref.container), ("%S", ref.series), ("%D", ref.year), ("%8", day), ("%V", details["volume"]),
             ("%P", f"{first}-{last}" if first and last and last != first else first or last),
             ("%I", details["publisher"]), ("%C", details["address"]), ("%@", ref.isbn or ref.issn),
             ("%R", doi), ("%U", f"https://doi.org/{doi}" if doi else ""), ("%U", ref.url), ("%F", ref.key),
             ("%Z", ref.note), ("%X", ref.abstract if abstract else "")]
    tags += [("%K", keyword) for keyword in ref.keywords]
    return "".join([f"{tag} {line}\n" for tag, line in one_lines(tags)])


def endnote_alone(ref: Reference) -> str:
    return endnote_record(ref, abstract=True)
