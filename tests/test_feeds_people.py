"""A feed beside every author's and topic's page (issue 42): ``authors/<slug>.xml`` and ``tags/<slug>.xml``, each
the Atom feed of their papers, read by a real feed parser (feedparser), linked from their pages with
``<link rel="alternate" type="application/atom+xml">``, dated by the volume (never the clock), and written only
when the volume has a date, as ``feed.xml`` is.
"""

from __future__ import annotations

import re
from pathlib import Path

import feedparser
import pytest

from generator.commands.cli import main

FIXTURE = Path(__file__).parent / "fixtures" / "venues" / "colt-2024-theory.bib"
CONFIG = "title: COLT 2024\ndate: 2024-07-01\nbase_url: https://proceedings.example.org/colt/\n"
ALTERNATE = re.compile(r'<link rel="alternate" type="application/atom\+xml" href="([^"]+)" title="([^"]*)">')


def build(tmp_path: Path, config: str = CONFIG, name: str = "site", source: Path = FIXTURE) -> Path:
    content = tmp_path / "content"
    if not content.exists():
        assert main(["import", str(source), "--content", str(content)]) == 0
    (content / "proceedings.yaml").write_text(config, encoding="utf-8")
    assert main(["build", "--content", str(content), "--out", str(tmp_path / name)]) == 0
    return tmp_path / name


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("feeds"))


def parsed(path: Path) -> feedparser.FeedParserDict:
    feed = feedparser.parse(path.read_bytes())
    assert not feed.bozo, (path.name, feed.get("bozo_exception"))
    assert feed.version == "atom10"
    return feed


@pytest.mark.parametrize("folder", ["authors", "tags"])
def test_every_person_and_topic_has_a_feed_of_their_papers_linked_from_their_page(site, folder):
    pages = [page for page in sorted((site / folder).glob("*.html")) if page.name != "index.html"
             and "." not in page.stem]
    assert len(pages) > 5
    volume = {entry.id: entry for entry in parsed(site / "feed.xml").entries}
    for page in pages:
        html = page.read_text(encoding="utf-8")
        links = [href for href, _ in ALTERNATE.findall(html)]
        assert f"../{folder}/{page.stem}.xml" in links, page.name
        feed = parsed(site / folder / f"{page.stem}.xml")
        listed = re.findall(r'class="paper-item-title"><a href="([^"]+)"', html)
        assert [entry.link for entry in feed.entries] == [
            "https://proceedings.example.org/colt/" + href.removeprefix("../") for href in listed]
        assert feed.feed.updated == "2024-07-01T00:00:00Z"
        assert feed.feed.link == f"https://proceedings.example.org/colt/{folder}/{page.name}"
        for entry in feed.entries:  # the same entry, with the same id, as in the volume's feed
            assert volume[entry.id].title == entry.title and entry.updated == "2024-07-01T00:00:00Z"


def test_a_person_feed_names_its_person(site):
    feed = parsed(site / "authors" / "alexander-rakhlin.xml")
    assert feed.feed.title == "Alexander Rakhlin · COLT 2024"
    assert len(feed.entries) == 2
    assert all("Alexander Rakhlin" in [author.name for author in entry.authors] for entry in feed.entries)


def test_feeds_are_the_same_bytes_on_every_build(site, tmp_path):
    again = build(tmp_path)
    for feed in [*sorted(site.glob("authors/*.xml")), *sorted(site.glob("tags/*.xml"))]:
        assert (again / feed.relative_to(site)).read_bytes() == feed.read_bytes(), feed.name


def test_without_a_date_there_are_no_feeds_and_no_links(tmp_path):
    """(COLT's .bib dates the volume by its @proceedings; a JSON Lines export says nothing of a date.)"""
    site = build(tmp_path, "title: Edges 2026\n", source=FIXTURE.parent.parent / "sources" / "papers.jsonl")
    pages = [*site.glob("authors/*.html"), *site.glob("tags/*.html")]
    assert len(pages) > 4
    assert not list(site.glob("authors/*.xml")) and not list(site.glob("tags/*.xml"))
    assert not any(ALTERNATE.search(page.read_text(encoding="utf-8")) for page in pages)


def test_a_series_person_has_one_feed_across_the_volumes(tmp_path):
    """A series' person page links their feed of every volume's papers, newest volume first, each entry with the
    id its volume's own feed gives it."""
    series = tmp_path / "series"
    for year, source in (("2023", FIXTURE.parent / "pmlr-v999.bib"), ("2024", FIXTURE)):
        assert main(["import", str(source), "--content", str(series / year)]) == 0
        (series / year / "proceedings.yaml").write_text(f"title: Learning {year}\ndate: {year}-07-01\n")
    (series / "proceedings.yaml").write_text("title: Learning\nbase_url: https://example.org/learning/\n")
    # One person in both volumes: a COLT author written into the 2023 volume's first page.
    page = sorted((series / "2023" / "papers").glob("*.md"))[0]
    page.write_text(re.sub(r"(?m)^authors: \[", "authors: [Alexander Rakhlin, ", page.read_text(encoding="utf-8"),
                           count=1), encoding="utf-8")
    assert main(["build", "--content", str(series), "--out", str(tmp_path / "site")]) == 0
    site = tmp_path / "site"
    html = (site / "people" / "alexander-rakhlin.html").read_text(encoding="utf-8")
    assert ("../people/alexander-rakhlin.xml", "Alexander Rakhlin · Learning") in ALTERNATE.findall(html)
    feed = parsed(site / "people" / "alexander-rakhlin.xml")
    assert [entry.updated[:4] for entry in feed.entries] == ["2024", "2024", "2023"]
    assert feed.feed.updated == "2024-07-01T00:00:00Z"
    own = {entry.id for year in ("2023", "2024") for entry in parsed(site / year / "feed.xml").entries}
    assert {entry.id for entry in feed.entries} <= own
    assert all(entry.link.startswith("https://example.org/learning/202") for entry in feed.entries)
    for person in site.glob("people/*.xml"):
        parsed(person)


def test_without_a_base_url_a_feeds_links_resolve_from_its_folder(tmp_path):
    """A feed under authors/ names pages from the site's root: its xml:base says so, as a feed reader reads it."""
    site = build(tmp_path, "title: COLT 2024\ndate: 2024-07-01\n")
    where = "https://mirror.example.net/colt/authors/alexander-rakhlin.xml"
    feed = feedparser.parse((site / "authors" / "alexander-rakhlin.xml").read_bytes(),
                            response_headers={"content-location": where, "content-type": "application/atom+xml"})
    assert not feed.bozo
    assert feed.feed.link == "https://mirror.example.net/colt/authors/alexander-rakhlin.html"
    for entry in feed.entries:
        page = entry.link.removeprefix("https://mirror.example.net/colt/")
        assert page.startswith("papers/") and (site / page).is_file()
