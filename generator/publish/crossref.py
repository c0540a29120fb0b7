"""``crossref.xml``: the volume's DOIs as a Crossref deposit (schema 5.3.1, a ``<conference>``).

Written when the config has ``doi:`` settings (``wanted``; the DOIs its pattern makes or its sources give): the
event and the proceedings from the ``Volume``, a ``<conference_paper>`` per paper that has a DOI, each from the
paper's ``Reference`` (the same authors, pages and DOI as every citation format), its title with its math as
MathML and its abstract as JATS. A deposit Crossref would reject is refused before anything is written
(``problems``), one line each.

Nothing here reads the clock: the batch id is a digest of the deposit's body and its timestamp the volume's
newest date (its own, or a correction's), so the same content gives the same bytes. Crossref takes a later
deposit of a DOI only with a larger timestamp: a correction dated after the volume makes one.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence

from generator.model.corrections import Notice
from generator.model.paper import Author, RenderedPaper
from generator.model.volume import Volume

from .crossref_markup import MATHML, title_markup
from .reading import Reference, split_name

CROSSREF_PATH = "crossref.xml"
VERSION = "5.3.1"
NS = f"http://www.crossref.org/schema/{VERSION}"
JATS = "http://www.ncbi.nlm.nih.gov/JATS1"
XSI = "http://www.w3.org/2001/XMLSchema-instance"
ORCID_URL = "https://orcid.org/"
# Written with their prefixes as names (ElementTree leaves them as they are), the namespaces declared on the root:
# ElementTree would otherwise make up prefixes of its own (ns0:), and cannot write the default namespace with
# attributes beside it.
NAMESPACES = {"xmlns": NS, "xmlns:jats": JATS, "xmlns:mml": MATHML, "xmlns:xsi": XSI}
_PARAGRAPHS = re.compile(r"\n\s*\n")
# A name Crossref's surname and given_name take: no "?" (its pattern), at most 60 characters.
_NAME_LIMIT = 60


def wanted(volume: Volume) -> bool:
    """Whether the volume has a deposit: ``doi:`` settings in its config, a pattern or only who deposits the DOIs
    its sources give (a .bib's ``doi`` fields). DOIs alone make none: they may be another's to register."""
    return bool(volume.deposit.pattern or volume.deposit.depositor or volume.deposit.email)


def problems(papers: Sequence[RenderedPaper], volume: Volume) -> list[tuple[str, str]]:
    """What Crossref would reject the deposit for: (the file, what is missing), one each."""
    found = [("proceedings.yaml", f"the Crossref deposit ({CROSSREF_PATH}) needs {what}")
             for what, given in (("`publisher:`", volume.publisher), ("`date:` (the proceedings' date)", volume.date),
                                 ("`base_url:` (each DOI resolves to its paper's page)", volume.base_url),
                                 ("`doi: {depositor: …}` (who deposits)", volume.deposit.depositor),
                                 ("`doi: {email: …}` (where Crossref replies)", volume.deposit.email))
             if not given]
    owners: dict[str, str] = {}
    for paper in papers:
        doi, page = paper.details.doi, f"papers/{paper.paper.path.name}"
        if not doi:
            continue
        if doi.casefold() in owners:  # DOIs are case-insensitive
            found.append((page, f"DOI {doi} is already {owners[doi.casefold()]}'s; a DOI names one paper"))
        owners.setdefault(doi.casefold(), page)
        if not paper.details.authors:
            found.append((page, f"DOI {doi} but no authors; Crossref needs a paper's authors"))
    return found


def crossref_deposit(papers: Sequence[RenderedPaper], volume: Volume, reference: Callable[[str], Reference]) -> bytes:
    """The deposit of every paper with a DOI, in proceedings order (``problems`` must be none)."""
    body = ET.Element("body")
    conference = ET.SubElement(body, "conference")
    conference.append(_event(volume))
    conference.append(_proceedings(volume))
    for paper in papers:
        if paper.details.doi:
            conference.append(_paper(paper, reference(paper.paper.id), volume))
    digest = hashlib.blake2b(ET.tostring(body), digest_size=8).hexdigest()
    root = ET.Element("doi_batch", {**NAMESPACES, "version": VERSION,
                                    "xsi:schemaLocation": f"{NS} https://www.crossref.org/schemas/crossref{VERSION}.xsd"})
    root.append(_head(f"{volume.key_prefix}-{digest}", _timestamp(papers, volume), volume))
    root.append(body)
    ET.indent(root)
    for title in root.iter("title"):  # a title's text is mixed content: no indentation inside it
        for element in title.iter():
            if element is not title:
                element.text, element.tail = (None if text and not text.strip() else text
                                              for text in (element.text, element.tail))
    return (b'<?xml version="1.0" encoding="UTF-8"?>\n'
            + ET.tostring(root, encoding="unicode").encode("utf-8") + b"\n")


def _add(parent: ET.Element, tag: str, text: str = "", **attributes: str) -> ET.Element:
    element = ET.SubElement(parent, tag, attributes)
    element.text = text or None
    return element


def _head(batch: str, timestamp: str, volume: Volume) -> ET.Element:
    head = ET.Element("head")
    _add(head, "doi_batch_id", batch)
    _add(head, "timestamp", timestamp)
    depositor = _add(head, "depositor")
    _add(depositor, "depositor_name", volume.deposit.depositor)
    _add(depositor, "email_address", volume.deposit.email)
    _add(head, "registrant", volume.deposit.registrant or volume.publisher)
    return head


def _timestamp(papers: Sequence[RenderedPaper], volume: Volume) -> str:
    """The newest date the volume knows (its own, its papers' corrections'), as Crossref's yyyymmddhhmmss."""
    dates = [day for day in (volume.date, volume.online_date) if day]
    dates += [notice.date for paper in papers for _, notice in paper.paper.corrections.notices() if notice.date]
    return max(dates, default=dt.date(1970, 1, 1)).strftime("%Y%m%d000000")


def _event(volume: Volume) -> ET.Element:
    event = ET.Element("event_metadata")
    _add(event, "conference_name", volume.given.venue or volume.source.venue or volume.title)
    acronym = volume.source.short_name or (volume.short if volume.short != volume.title else "")
    if acronym:
        _add(event, "conference_acronym", acronym)
    if len(volume.place) >= 2:
        _add(event, "conference_location", volume.place)
    if volume.days:
        start, end = volume.days
        _add(event, "conference_date", start_day=f"{start.day:02}", start_month=f"{start.month:02}",
             start_year=str(start.year), end_day=f"{end.day:02}", end_month=f"{end.month:02}", end_year=str(end.year))
    return event


def _proceedings(volume: Volume) -> ET.Element:
    proceedings = ET.Element("proceedings_metadata")
    _add(proceedings, "proceedings_title", volume.title)
    _add(_add(proceedings, "publisher"), "publisher_name", volume.publisher)
    _date(proceedings, volume.date)
    if volume.isbn:
        _add(proceedings, "isbn", volume.isbn)
    else:  # a volume of a series (PMLR's) has no ISBN of its own
        _add(proceedings, "noisbn", reason="archive_volume")
    return proceedings


def _date(parent: ET.Element, day: dt.date | None) -> None:
    if day is None:
        return
    date = _add(parent, "publication_date", media_type="online")
    _add(date, "month", f"{day.month:02}")
    _add(date, "day", f"{day.day:02}")
    _add(date, "year", str(day.year))


def _paper(paper: RenderedPaper, ref: Reference, volume: Volume) -> ET.Element:
    element = ET.Element("conference_paper")
    contributors = _add(element, "contributors")
    for number, author in enumerate(ref.authors):
        contributors.append(_person(author, "first" if number == 0 else "additional"))
    titles = _add(element, "titles")
    titles.append(title_markup(paper.title_html, paper.title_plain))
    if ref.abstract:
        abstract = ET.SubElement(element, "jats:abstract")
        for paragraph in _PARAGRAPHS.split(ref.abstract.strip()):
            ET.SubElement(abstract, "jats:p").text = " ".join(paragraph.split())
    _date(element, ref.date)
    if ref.first_page:
        pages = _add(element, "pages")
        _add(pages, "first_page", ref.first_page[:32])
        if ref.last_page and ref.last_page != ref.first_page:
            _add(pages, "last_page", ref.last_page[:32])
    updates = _updates(paper, ref["doi"])
    if updates and volume.deposit.crossmark_policy:  # Crossmark carries a correction; it needs the policy's DOI
        crossmark = _add(element, "crossmark")
        _add(crossmark, "crossmark_policy", volume.deposit.crossmark_policy)
        listed = _add(crossmark, "updates")
        for kind, day in updates:
            _add(listed, "update", ref["doi"], type=kind, date=day.isoformat())
    doi_data = _add(element, "doi_data")
    _add(doi_data, "doi", ref["doi"])
    _add(doi_data, "resource", ref.url)
    return element


def _updates(paper: RenderedPaper, doi: str) -> list[tuple[str, dt.date]]:
    """The paper's dated retraction and erratum as Crossmark's update types: the notice is on the paper's own
    page (Crossref's "in situ" update), so the update names the paper's own DOI."""
    corrections = paper.paper.corrections
    notices: list[tuple[str, Notice | None]] = [("retraction", corrections.retracted), ("erratum", corrections.erratum)]
    return [(kind, notice.date) for kind, notice in notices if notice is not None and notice.date and doi]


def _person(author: Author, sequence: str) -> ET.Element:
    person = ET.Element("person_name", {"sequence": sequence, "contributor_role": "author"})
    name = split_name(author.name)
    given, family = (name.given, name.family) if not name.literal else _literal(name.literal)
    if name.literal and given:  # a CJK name, family first: Crossref's "eastern" name style says so
        person.set("name-style", "eastern")
    if given:
        _add(person, "given_name", _fit(given))
    _add(person, "surname", _fit(family))
    if name.suffix:
        _add(person, "suffix", name.suffix)
    if author.affiliation:
        affiliations = _add(person, "affiliations")
        for place in filter(None, (part.strip() for part in author.affiliation.split(";"))):
            _add(_add(affiliations, "institution"), "institution_name", place[:1024])
    if author.orcid:
        _add(person, "ORCID", ORCID_URL + author.orcid)
    return person


def _literal(name: str) -> tuple[str, str]:
    """A name a citation keeps whole: a CJK name written family first with a space ("山田 太郎") splits there;
    any other (one word, a name with commas) is all surname."""
    words = name.split(" ")
    if len(words) == 2 and "," not in name:
        return words[1], words[0]
    return "", name


def _fit(text: str) -> str:
    return text.replace("?", "").strip()[:_NAME_LIMIT] or "Anonymous"
