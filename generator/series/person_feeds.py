"""A person's feed across a series' volumes (issue 42): ``people/<slug>.xml``, beside their page, the Atom feed of
their papers in every volume, newest volume first (a reader subscribes once and learns of each new volume's
papers), and their "Suggest a correction" link, naming each paper by its volume's folder.

An entry is dated by its volume's date and keeps the id it has in its volume's own ``feed.xml``; a volume
without a date has no feed, and its papers are left out of the person's too (nothing is dated by the clock).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from generator import __version__
from generator.derive.people import Person
from generator.model.suggestion import Authorship, author_record, fingerprint, person_record
from generator.model.volume import Volume
from generator.publish.feeds import ATOM_NS, XML_BASE, XML_LANG, element, feed_path, serialize_xml, stamp, urn
from generator.publish.suggest import person_address
from generator.series.layout import SeriesPaper, SeriesVolume


def dated(person: Person) -> list[tuple[SeriesVolume, SeriesPaper]]:
    """The person's papers in volumes that have a date: what their feed lists."""
    return [(volume, paper) for volume, paper in person.papers if volume.volume.date]


def person_feed(person: Person, series: Volume) -> bytes | None:
    """The person's feed across the volumes, or None when none of their volumes has a date."""
    papers = dated(person)
    if not papers:
        return None
    feed = ET.Element("feed", {"xmlns": ATOM_NS, XML_LANG: series.language})
    if not series.base_url:  # its relative links are from the site's root, one folder up
        feed.set(XML_BASE, "../")
    element(feed, "title", f"{person.name} · {series.title}")
    element(feed, "id", urn(series.title, feed_path(person.url)))
    element(feed, "updated", stamp(max(date for volume, _ in papers if (date := volume.volume.date))))
    ET.SubElement(feed, "link", {"rel": "alternate", "type": "text/html", "href": series.link(person.url)})
    if series.base_url:
        ET.SubElement(feed, "link", {"rel": "self", "type": "application/atom+xml",
                                     "href": series.link(feed_path(person.url))})
    element(ET.SubElement(feed, "author"), "name", series.title)
    element(feed, "generator", "Proceedings", version=__version__)
    for volume, paper in papers:
        date = volume.volume.date
        assert date is not None  # dated() kept only these
        entry = ET.SubElement(feed, "entry")
        element(entry, "title", paper.title)
        element(entry, "id", urn(volume.volume.title, paper.id))  # as its volume's own feed names it
        element(entry, "updated", stamp(date))
        # SeriesPaper.url is percent-encoded already (papers.json's): joined as it is.
        ET.SubElement(entry, "link", {"rel": "alternate", "type": "text/html",
                                      "href": (series.base_url or "") + paper.url})
        for author in paper.authors:
            element(ET.SubElement(entry, "author"), "name", author.name)
        element(entry, "summary", volume.title, type="text")
    return serialize_xml(feed, indent=False)  # one a person: unindented, as a volume's person feeds (issue 43)


def person_link(person: Person, series: Volume) -> str:
    """The series person page's "Suggest a correction" address, or "" without a repository or contact."""
    places = [Authorship(paper.id, paper.page, place, fingerprint(author_record(author)))
              for _, paper in person.papers for place, author in enumerate(paper.authors, 1)
              if author.name in person.names and paper.page]
    return person_address(series, person.name, person_record(person.name, person.orcid, places))
