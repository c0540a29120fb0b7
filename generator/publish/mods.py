"""MODS XML (the Library of Congress' Metadata Object Description Schema, version 3): one ``<mods>`` record per
paper, the volume as one ``<modsCollection>``; what the ACL Anthology offers beside BibTeX, and what bibutils
(``xml2bib``, ``xml2ris``…) converts to every other format.

A paper is a ``<mods>`` whose host (``relatedItem type="host"``) is the proceedings, a ``conference
publication``: its title, editors, publisher, place, series, ISBN/ISSN and date; the paper's own part holds
its pages and volume. Only what the ``Reference`` gives is written. Text is escaped for XML, and characters XML
cannot carry at all are dropped. A record is one line (the collection a record a line).
"""

from __future__ import annotations

import functools
import re

from .reading import Name, Reference

NAMESPACE = "http://www.loc.gov/mods/v3"
HEAD = f'<?xml version="1.0" encoding="UTF-8"?>\n<modsCollection xmlns="{NAMESPACE}">\n'
TAIL = "</modsCollection>\n"
_ORCID, _TEXT = " type='orcid'", " type='text'"  # attributes, as the record writes them
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_ESCAPED = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff&<>]")  # what xml_text changes


def xml_text(value: str) -> str:
    """``value`` as XML character data (``xml.sax.saxutils.escape``'s three, whose import brings urllib.request,
    http.client and ssl into every build: 13 ms)."""
    if _ESCAPED.search(value) is None:  # nearly every value: one scan, nothing to change
        return value
    return _NOT_XML.sub("", value).replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def _element(tag: str, value: str, attributes: str = "") -> str:
    return f"<{tag}{attributes}>{xml_text(value)}</{tag}>" if value else ""


def _name(parts: Name, role: str, affiliation: str = "", orcid: str = "") -> str:
    if parts.literal:
        named = _element("namePart", parts.literal)
    else:
        named = (_element("namePart", parts.given, " type='given'")
                 + _element("namePart", parts.family, " type='family'")
                 + _element("namePart", parts.suffix, " type='termsOfAddress'"))
    # A name without a role is an author (MODS and bibutils read it so): a role for an editor only, since a
    # paper's record in a browser's block repeats it for every author (issue 42: 0.3 KB a paper).
    role_term = f"<role><roleTerm authority='marcrelator' type='text'>{role}</roleTerm></role>" if role != "author" \
        else ""
    return (f"<name type='personal'>{named}{_element('affiliation', affiliation)}"
            f"{_element('nameIdentifier', orcid, _ORCID)}{role_term}</name>")


def _date(ref: Reference) -> str:
    return ref.date.isoformat() if ref.date else ref.year


@functools.lru_cache(maxsize=64)  # the volume's: the same for nearly every paper
def _host(container: str, editors: tuple[Name, ...], date: str, publisher: str, address: str, series: str,
          isbn: str, issn: str) -> str:
    origin = _element("dateIssued", date) + _element("publisher", publisher)
    if address:
        origin += f"<place>{_element('placeTerm', address, _TEXT)}</place>"
    return "".join((
        f"<relatedItem type='host'><titleInfo>{_element('title', container)}</titleInfo>",
        *(_name(editor, "editor") for editor in editors),
        f"<originInfo>{origin}</originInfo>" if origin else "",
        "<genre authority='marcgt'>conference publication</genre>",
        f"<relatedItem type='series'><titleInfo>{_element('title', series)}</titleInfo></relatedItem>" if series
        else "",
        _element("identifier", isbn, " type='isbn'"), _element("identifier", issn, " type='issn'"), "</relatedItem>"))


def _part(ref: Reference, date: str) -> str:
    first, last = ref.pages
    volume = ref.details["volume"]
    inside = _element("date", date)
    if volume:
        inside += f"<detail type='volume'>{_element('number', volume)}</detail>"
    if first:
        inside += (f"<extent unit='page'>{_element('start', first)}"
                   f"{_element('end', last if last != first else '')}</extent>")
    return f"<part>{inside}</part>" if inside else ""


def mods_record(ref: Reference, abstract: bool = False) -> str:
    """The paper's ``<mods>`` record, as the volume's collection holds it (ending in a newline): without its
    abstract, as the volume's CSL-JSON (csl.py says why: at 10,000 papers, 10 MB more of the site); with it
    (``abstract``) for a paper alone, as its Cite box and a reading list export it."""
    # One line a record, without indentation, attributes in single quotes: a browser's record holds this text in
    # a JSON string inside a script's JSON, where every line break, space and double quote costs again.
    details = ref.details
    date = _date(ref)
    names = [_name(name, "author", author.affiliation, author.orcid)
             for name, author in zip(ref.author_names, details["authors"])]
    links = _element("url", ref.url) + _element("url", details["pdf"], " access='raw object'")
    return "".join((
        f"<mods><titleInfo>{_element('title', ref.title)}</titleInfo>", *names,
        f"<originInfo>{_element('dateIssued', date)}</originInfo>" if date else "",
        "<typeOfResource>text</typeOfResource>",
        _host(ref.container, ref.editor_names, date, details["publisher"], details["address"], ref.series, ref.isbn,
              ref.issn),
        _element("abstract", ref.abstract) if abstract else "",
        *(f"<subject>{_element('topic', keyword)}</subject>" for keyword in ref.keywords),
        _element("note", ref.note),
        # The key once, as the citekey identifier bibutils reads (a record's ID attribute would repeat it).
        _element("identifier", ref.key, " type='citekey'"), _element("identifier", details["doi"], " type='doi'"),
        f"<location>{links}</location>" if links else "", _part(ref, date), "</mods>\n"))


def mods_alone(ref: Reference) -> str:
    """A paper's own record, with its abstract."""
    return mods_record(ref, abstract=True)
