"""map.html end to end: the built site has it (every paper a link on it, the header links it), two builds give the
same bytes, ``map: off`` leaves it out, and a Mini-Conf venue's papers_projection.json places the papers."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

from conftest import copy_content
from generator import diagnostics as codes
from generator.commands.build import build
from generator.commands.cli import main
from generator.derive import paper_map, related
from generator.reporter import Reporter

VENUES = Path(__file__).parent / "fixtures" / "venues"
MARK = re.compile(r'<a href="(papers/[^"]+\.html)"><title>([^<]*)</title><circle cx="(\d+)" cy="(\d+)" r="\d+"/></a>')


def built(content: Path, site: Path, cache: bool = True, **options: Any) -> Reporter:
    """A build as a new process makes it (``options``: ``build``'s, such as ``jobs``)."""
    paper_map._LAST.clear()  # as a new process would: nothing remembered from the last build
    related.forget_texts()
    related.forget_vectors()
    reporter = Reporter()
    build(content, site, reporter, cache=cache, **options)
    assert not reporter.errors, reporter.errors
    return reporter


def test_the_site_has_a_map_of_every_paper(tmp_path):
    content = copy_content(tmp_path / "content")
    built(content, tmp_path / "site")
    page = (tmp_path / "site" / "map.html").read_text(encoding="utf-8")
    papers = json.loads((tmp_path / "site" / "papers.json").read_text(encoding="utf-8"))
    marks = MARK.findall(page)
    assert len(marks) == len(papers) and {href for href, *_ in marks} == {f"papers/{p['slug']}.html" for p in papers}
    for href, *_ in marks:
        assert (tmp_path / "site" / href).is_file()
    assert 'aria-labelledby="map-title"' in page and '<desc id="map-desc">' in page
    assert 'class="map-clusters"' in page and 'class="map-legend"' in page
    assert '<script src="assets/map.js" defer></script>' in page and "<script>" not in page
    assert (tmp_path / "site" / "assets" / "map.js").is_file() and (tmp_path / "site" / "assets" / "map.css").is_file()
    assert '<a href="map.html">Map</a>' in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert '<a href="../map.html">Map</a>' in (tmp_path / "site" / marks[0][0]).read_text(encoding="utf-8")


def test_two_builds_give_the_same_map(tmp_path):
    content = copy_content(tmp_path / "content")
    built(content, tmp_path / "one", cache=False)
    built(content, tmp_path / "two", cache=False)
    assert (tmp_path / "one" / "map.html").read_bytes() == (tmp_path / "two" / "map.html").read_bytes()
    # and a warm build takes the places from the build cache, the same again
    built(content, tmp_path / "three")
    built(content, tmp_path / "four")
    assert (tmp_path / "four" / "map.html").read_bytes() == (tmp_path / "one" / "map.html").read_bytes()


def test_map_off_leaves_it_out(tmp_path):
    content = copy_content(tmp_path / "content")
    with open(content / "proceedings.yaml", "a", encoding="utf-8") as config:
        config.write("\nmap: off\n")
    built(content, tmp_path / "site")
    assert not (tmp_path / "site" / "map.html").exists()
    assert "map.html" not in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")


def test_a_venues_projection_places_the_papers(tmp_path, capsys):
    content = tmp_path / "content"
    assert main(["import", str(VENUES / "miniconf-2020-papers.csv"), "--content", str(content)]) in (0, 1)
    capsys.readouterr()
    (content / "sitedata").mkdir()
    # Mini-Conf's shape; one paper of the volume is left out, and one entry names no paper.
    given = [{"id": "H1gx1CNKPH", "pos": [-3.5, 2.25]}, {"id": "B1xSperKvH", "pos": [4.0, -1.0]},
             {"id": "no-such-paper", "pos": [0, 0]}]
    (content / "sitedata" / "papers_projection.json").write_text(json.dumps(given), encoding="utf-8")
    reporter = built(content, tmp_path / "site")
    page = (tmp_path / "site" / "map.html").read_text(encoding="utf-8")
    papers = json.loads((tmp_path / "site" / "papers.json").read_text(encoding="utf-8"))
    by_uid = {"H1gx1CNKPH": "papers/graph-networks-dream-of-sparse-graphs.html",
              "B1xSperKvH": "papers/privacy-amplification-by-shuffling-revisited.html"}
    left_out = [p for p in papers if f"papers/{p['slug']}.html" not in by_uid.values()]
    assert left_out, "the fixture has papers the projection leaves out"
    said = [d for d in reporter.warnings if d.code == codes.MAP_PROJECTION_MISSING]
    assert len(said) == 1 and str(said[0].path) == "sitedata/papers_projection.json"
    marks = {href: (int(x), int(y)) for href, _, x, y in MARK.findall(page)}
    first, second = marks[by_uid["H1gx1CNKPH"]], marks[by_uid["B1xSperKvH"]]
    assert first[0] < second[0] and first[1] > second[1]  # the venue's picture: x grows right, y down
    listed = page.split("Papers not on the map")[1] if "Papers not on the map" in page else ""
    for paper in left_out:  # each is placed beside its related papers, or listed under the map
        assert f"papers/{paper['slug']}.html" in marks or f"papers/{paper['slug']}.html" in listed


def test_a_broken_projection_is_said_and_the_map_laid_out(tmp_path):
    content = copy_content(tmp_path / "content")
    (content / "papers_projection.json").write_text('[{"id": "x", "pos": [1, 2]},\n{"id": ', encoding="utf-8")
    reporter = built(content, tmp_path / "site")
    [said] = [d for d in reporter.warnings if d.code == codes.MAP_PROJECTION_INVALID]
    assert str(said.path) == "papers_projection.json" and said.line == 2 and "cannot be read as JSON" in said.message
    papers = json.loads((tmp_path / "site" / "papers.json").read_text(encoding="utf-8"))
    assert len(MARK.findall((tmp_path / "site" / "map.html").read_text(encoding="utf-8"))) == len(papers)


def test_check_and_a_copy_of_the_site_agree(tmp_path):
    # the map's files are the theme's: a site copied elsewhere keeps working (relative links only)
    content = copy_content(tmp_path / "content")
    built(content, tmp_path / "site")
    shutil.copytree(tmp_path / "site", tmp_path / "elsewhere" / "deep")
    page = (tmp_path / "elsewhere" / "deep" / "map.html").read_text(encoding="utf-8")
    assert not re.search(r'(?:href|src)="(?:/|https?:)', page.split("<main", 1)[1])
