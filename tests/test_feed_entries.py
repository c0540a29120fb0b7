"""Issue 43: a paper's entry in a person's or topic's feed is written once a build, by hand, and spliced into
each feed that lists it (publish/feeds.py: ``_short_entry``, ``_spliced``). The bytes are those ElementTree
wrote when every feed was a tree of its own: for any text (Hypothesis), and for a whole site's feeds."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.commands.cli import main
from generator.model.paper import Author, Details, Paper, RenderedPaper
from generator.model.volume import Volume
from generator.publish import feeds

FIXTURE = Path(__file__).parent / "fixtures" / "venues" / "colt-2024-theory.bib"
CONFIG = "title: COLT 2024\ndate: 2024-07-01\n{base}"
# What XML and its escaping make hard: markup characters, white space an attribute escapes, characters XML
# cannot carry (dropped), a lone surrogate, CJK, a title with math (written as HTML).
AWKWARD = st.lists(st.sampled_from([*"a &<>\"'\r\n\t\x0b\x0c\x1f\ufffe\ud800é学", "<math>", "&amp;"]),
                   max_size=30).map("".join)
TEXT = st.one_of(st.text(max_size=40), AWKWARD)


def tree_entry(paper: RenderedPaper, site: Volume, updated: str, ids: tuple[str, ...], prefix: str) -> ET.Element:
    """The entry as ElementTree builds it (``_entry``), the way every feed was made before."""
    holder = ET.Element("feed")
    feeds._entry(holder, paper, site, updated, ids, prefix, short=True)
    return holder[0]


def paper_of(title: str, title_html: str, abstract: str, names: list[str], slug: str) -> RenderedPaper:
    details = Details(authors=tuple(Author(name) for name in names))
    return RenderedPaper(Paper("7", slug, title, "", (), 1, "p.bib", 1, Path(f"papers/{slug}.md"), details),
                         title_html, title, "", abstract)


@settings(max_examples=300, deadline=None)
@given(title=TEXT, title_html=TEXT, abstract=TEXT, names=st.lists(TEXT, max_size=3),
       slug=st.sampled_from(["a-paper", "é t&x", "q\"<"]), base=st.sampled_from(["", "https://example.org/v/"]),
       prefix=st.sampled_from(["", "2024"]))
def test_an_entry_written_by_hand_is_the_entry_elementtree_writes(title, title_html, abstract, names, slug, base,
                                                                   prefix):
    paper = paper_of(title, title_html, abstract, names, slug)
    site = Volume("V & <W>", base_url=base)
    written = feeds._short_entry(paper, site, "2024-07-01T00:00:00Z", ("V & <W>",), prefix, None)
    element = tree_entry(paper, site, "2024-07-01T00:00:00Z", ("V & <W>",), prefix)
    assert written == ET.tostring(element, encoding="utf-8", xml_declaration=False)


def site_files(site: Path) -> dict[str, bytes]:
    return {path.relative_to(site).as_posix(): path.read_bytes() for path in sorted(site.rglob("*.xml"))}


def build(root: Path, base: str) -> dict[str, bytes]:
    content = root / "content"
    assert main(["import", str(FIXTURE), "--content", str(content)]) == 0
    (content / "proceedings.yaml").write_text(CONFIG.format(base=base), encoding="utf-8")
    assert main(["build", "--content", str(content), "--out", str(root / "site"), "--jobs", "1"]) == 0
    return site_files(root / "site")


@pytest.mark.parametrize("base", ["", "base_url: https://proceedings.example.org/colt/\n"])
def test_a_sites_feeds_are_the_feeds_written_as_trees(tmp_path, monkeypatch, base):
    written: list[str] = []
    by_hand = feeds._short_entry_xml
    monkeypatch.setattr(feeds, "_short_entry_xml", lambda paper, *more: written.append(paper.paper.id)
                        or by_hand(paper, *more))
    spliced = build(tmp_path / "spliced", base)
    monkeypatch.undo()
    # Every feed a tree of its own, each entry made for it: how the feeds were written before.
    monkeypatch.setattr(feeds, "_short_entry", lambda paper, site, updated, ids, prefix, kept:
                        tree_entry(paper, site, updated, ids, prefix))
    monkeypatch.setattr(feeds, "_spliced", lambda feed, entries: feed.extend(entries)
                        or feeds.serialize_xml(feed, indent=False))
    trees = build(tmp_path / "trees", base)
    people = [name for name in spliced if name.startswith("authors/")]
    assert len(people) > 5 and any(name.startswith("tags/") for name in spliced)
    assert spliced.keys() == trees.keys()
    assert [name for name in spliced if spliced[name] != trees[name]] == []
    # Each paper's entry was written once, however many feeds list it.
    assert sorted(written) == sorted(set(written))
    listed = sum(feed.count(b"<entry>") for name, feed in spliced.items() if name.startswith(("authors/", "tags/")))
    assert listed > len(written)
