"""MODS XML (the Library of Congress' Metadata Object Description Schema, version 3): one ``<mods>`` record per
paper, the volume as one ``<modsCollection>``; what the ACL Anthology offers beside BibTeX, and what bibutils
(``xml2bib``, ``xml2ris``…) converts to every other format.

A paper is a ``<mods>`` whose host (``relatedItem type="host"``) is the proceedings, a ``conference
publication``: its title, editors, publisher, place, series, ISBN/ISSN and date; the paper's own part holds
its pages and volume. Only what the ``Reference`` gives is written. Text is escaped for XML, and characters XML
cannot carry at all are dropped. A record is one line (the collection a record a line).
"""

from __future__ import annotations

import re

from .reading import Reference, split_name

NAMESPACE = "http://www.loc.gov/mods/v3"
HEAD = f'<?xml version="1.0" encoding="UTF-8"?>\n<modsCollection xmlns="{NAMESPACE}">\n'
TAIL = "</modsCollection>\n"
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(value: str) -> str:
    """``value`` as XML character data (``xml.sax.saxutils.escape``'s three, whose import brings urllib.request,
    http.client and ssl into every build: 13 ms)."""
    return _NOT_XML.sub("", value).replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def _element(tag: str, value: str, indent: int, attributes: str = "") -> list[str]:
    return [f"{' ' * indent}<{tag}{attributes}>{xml_text(value)}</{tag}>"] if value else []


def _name(name: str, role: str, indent: int, affiliation: str = "", orcid: str = "") -> list[str]:
    pad = " " * indent
    parts = split_name(name)
    if parts.literal:
        named = _element("namePart", parts.literal, indent + 2)
    else:
        named = [*_element("namePart", parts.given, indent + 2, " type='given'"),
                 *_element("namePart", parts.family, indent + 2, " type='family'"),
                 *_element("namePart", parts.suffix, indent + 2, " type='termsOfAddress'")]
    return [f"{pad}<name type='personal'>", *named, *_element("affiliation", affiliation, indent + 2),
            *_element("nameIdentifier", orcid, indent + 2, " type='orcid'"),
            # A name without a role is an author (MODS and bibutils read it so): a role for an editor only, since
            # a paper's record in a browser's block repeats it for every author (issue 42: 0.3 KB a paper).
            *([f"{pad}  <role><roleTerm authority='marcrelator' type='text'>{role}</roleTerm></role>"]
              if role != "author" else []), f"{pad}</name>"]


def _date(ref: Reference) -> str:
    return ref.date.isoformat() if ref.date else ref.year


def _host(ref: Reference) -> list[str]:
    lines = ["  <relatedItem type='host'>", "    <titleInfo>", *_element("title", ref.container, 6),
             "    </titleInfo>"]
    for editor in ref["editors"]:
        lines += _name(editor, "editor", 4)
    origin = [*_element("dateIssued", _date(ref), 6), *_element("publisher", ref["publisher"], 6)]
    if ref["address"]:
        origin += ["      <place>", *_element("placeTerm", ref["address"], 8, " type='text'"), "      </place>"]
    lines += ["    <originInfo>", *origin, "    </originInfo>"] if origin else []
    lines.append("    <genre authority='marcgt'>conference publication</genre>")
    if ref.series:
        lines += ["    <relatedItem type='series'>", "      <titleInfo>", *_element("title", ref.series, 8),
                  "      </titleInfo>", "    </relatedItem>"]
    lines += _element("identifier", ref.isbn, 4, " type='isbn'")
    lines += _element("identifier", ref.issn, 4, " type='issn'")
    return [*lines, "  </relatedItem>"]


def _part(ref: Reference) -> list[str]:
    lines = _element("date", _date(ref), 4)
    if ref["volume"]:
        lines += ["    <detail type='volume'>", *_element("number", ref["volume"], 6), "    </detail>"]
    if ref.first_page:
        lines += ["    <extent unit='page'>", *_element("start", ref.first_page, 6),
                  *_element("end", ref.last_page if ref.last_page != ref.first_page else "", 6), "    </extent>"]
    return ["  <part>", *lines, "  </part>"] if lines else []


def mods_record(ref: Reference, abstract: bool = False) -> str:
    """The paper's ``<mods>`` record, as the volume's collection holds it (ending in a newline): without its
    abstract, as the volume's CSL-JSON (csl.py says why: at 10,000 papers, 10 MB more of the site); with it
    (``abstract``) for a paper alone, as its Cite box and a reading list export it."""
    # The key once, as the citekey identifier bibutils reads (a record's ID attribute would repeat it).
    lines = ["<mods>", "  <titleInfo>", *_element("title", ref.title, 4),
             "  </titleInfo>"]
    for author in ref.authors:
        lines += _name(author.name, "author", 2, author.affiliation, author.orcid)
    lines += ["  <originInfo>", *_element("dateIssued", _date(ref), 4), "  </originInfo>"] if _date(ref) else []
    lines += ["  <typeOfResource>text</typeOfResource>", *_host(ref)]
    lines += _element("abstract", ref.abstract, 2) if abstract else []
    lines += [line for keyword in ref.keywords for line in ("  <subject>", *_element("topic", keyword, 4),
                                                            "  </subject>")]
    lines += [*_element("note", ref.note, 2), *_element("identifier", ref.key, 2, " type='citekey'"),
              *_element("identifier", ref["doi"], 2, " type='doi'")]
    links = [*_element("url", ref.url, 4), *_element("url", ref["pdf"], 4, " access='raw object'")]
    lines += ["  <location>", *links, "  </location>"] if links else []
    # One line a record, without indentation, attributes in single quotes: a browser's record holds this text in
    # a JSON string inside a script's JSON, where every line break, space and double quote costs again.
    return "".join(line.strip() for line in [*lines, *_part(ref), "</mods>"]) + "\n"



def mods_alone(ref: Reference) -> str:
    """A paper's own record, with its abstract."""
    return mods_record(ref, abstract=True)
