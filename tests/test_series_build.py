"""A series: volumes in every input format built into one site (issue 21)."""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET
from html import unescape
from pathlib import Path

import pytest

from generator.commands.build import build
from generator.series.layout import is_series
from generator.commands.cli import main
from generator.reporter import Reporter

from series_fixtures import JANE_A, JANE_B, REPO, make_series


@pytest.fixture
def series(synced_series):
    """The series of series_fixtures.py as its first build left it (conftest.py): its site, result and reporter."""
    return synced_series.site, synced_series.result, synced_series.reporter


def read(site: Path, name: str) -> str:
    return (site / name).read_text(encoding="utf-8")


def people_pages(site: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in (site / "people").glob("*.html") if p.name != "index.html"}


def test_the_content_folder_is_an_series_and_a_volume_is_not(tmp_path):
    content = make_series(tmp_path)
    assert is_series(content)
    assert not is_series(content / "2020")
    assert not is_series(REPO / "content")


def test_every_volume_is_a_whole_site_under_its_path(series):
    site, result, _ = series
    assert sorted(v.path for v in result.volumes) == ["2019", "2020", "2021", "2022", "2023"]
    for volume in result.volumes:
        for name in ("index.html", "papers.json", "search.html", "tags/index.html", "assets/search/manifest.js"):
            assert (site / volume.path / name).is_file(), (volume.path, name)
        assert len(volume.papers) == len(json.loads(read(site, f"{volume.path}/papers.json")))
    assert (site / "2021" / "proceedings.bib").is_file()
    assert (site / "2023" / "feed.xml").is_file()
    # A volume's pages link up to the series, and its addresses are its own (base URL + path).
    home = read(site, "2020/index.html")
    assert '<a class="series-title" href="../index.html">Tiny Things Series</a>' in home
    assert 'href="../search.html"' in home
    paper = next((site / "2023" / "papers").glob("*.html")).read_text(encoding="utf-8")
    assert '<a class="series-title" href="../../index.html">' in paper
    assert "https://example.org/tiny/2023/papers/" in paper  # canonical and citation addresses


def test_the_home_page_lists_the_volumes_newest_first(series):
    site, _, _ = series
    home = read(site, "index.html")
    assert "<h1 class=\"page-title\">Tiny Things Series</h1>" in home
    assert "Every volume of the Tiny Things workshops." in home
    order = re.findall(r'data-volume="([^"]+)"', home)
    assert order == ["2023", "2021", "2022", "2020", "2019"]  # by date (2021's @proceedings says 2023-10-02), else year
    assert '<a href="2023/index.html">Tiny Things Workshop 2023</a>' in home
    assert ('<time datetime="2023-12-01">December 1, 2023</time><span class="volume-papers">5 papers</span>'
            in home)
    assert '<a href="2019/index.html">Tiny Things Workshop 2019</a>' in home
    assert "Proceedings of the First Workshop on Tiny Things" in home  # 2021's title, from its @proceedings
    assert '<span>2019</span><span class="volume-papers">4 papers</span>' in home
    # A card shows the volume's number as its papers cite it (the .bib's volume = {999}).
    assert '<span class="volume-number">Volume 999</span><time datetime="2023-10-02">' in home
    assert "<ol" not in home.split('<main id="main"')[1]  # no list numbered "5. 4. 3."


def test_a_person_page_puts_each_papers_authors_on_a_line_of_their_own(series):
    site, _, _ = series
    page = read(site, "people/ada-lovelace.html")
    item = re.search(r'<li class="paper-item">(.*?)</li>', page, re.S).group(1)
    assert re.search(r'<h3 class="paper-item-title"><a href="[^"]+">[^<]+</a></h3>\s*'
                     r'<p class="item-authors">Ada Lovelace, Charles Babbage, Simon S Du</p>', item), item


def test_a_volume_card_takes_number_and_venue_from_most_of_its_papers():
    from generator.series.layout import most_common

    assert most_common(["7", "7", "8", ""]) == "7"
    assert most_common(["Osaka", "Kyoto", ""]) == "Kyoto"  # a tie goes to the first in order of the values
    assert most_common(["", ""]) == ""


def test_one_person_across_volumes_by_name_and_orcid(series):
    site, _, _ = series
    ada = read(site, "people/ada-lovelace.html")
    # Written with her ORCID in 2020 and without it in 2023: one person, both papers, newest volume first.
    assert "0000-0002-1825-0097" in ada
    assert ada.index("Engines of Analysis, Revisited") < ada.index("Graphs That Learn Their Own Edges")
    assert 'href="../2023/papers/' in ada and 'href="../2020/papers/' in ada
    joerg = read(site, "people/jorg-muller.html")  # in the CSV (2019) and the BibTeX (2021)
    assert 'data-volume="2019"' in joerg and 'data-volume="2021"' in joerg


def test_two_people_of_one_name_are_told_apart_by_orcid(series):
    site, _, reporter = series
    pages = [page for page in people_pages(site).values() if "<h1 class=\"page-title\">Jane Doe</h1>" in page]
    by_orcid = {orcid: [p for p in pages if orcid in p] for orcid in (JANE_A, JANE_B)}
    assert len(by_orcid[JANE_A]) == 1 and len(by_orcid[JANE_B]) == 1
    assert "Quasar" in by_orcid[JANE_A][0] and "Protein" not in by_orcid[JANE_A][0]
    assert "Protein" in by_orcid[JANE_B][0] and "Quasar" not in by_orcid[JANE_B][0]
    assert "Observatory of Examples" in by_orcid[JANE_A][0]
    # The Jane Does of 2019 and 2021 gave no ORCID: with two to choose from, they stay under the name, said so.
    assert len(pages) == 3
    assert any("without an ORCID or id that several people have: “Jane Doe” (2 paper(s)" in d.message
               for d in reporter.warnings)


def test_an_explicit_id_tells_apart_two_people_of_one_name(series):
    site, _, _ = series
    roes = [page for page in people_pages(site).values() if "<h1 class=\"page-title\">Richard Roe</h1>" in page]
    assert len(roes) == 3  # roe-ranking and roe-optics in 2023, and the 2019 Richard Roe with neither
    assert sum("Roe versus Roe" in page for page in roes) == 2


def test_a_likely_variant_of_a_name_is_warned_about_not_merged(series):
    site, _, reporter = series
    assert (site / "people" / "j-doe.html").is_file()
    assert "J. Doe" not in "".join(p for p in people_pages(site).values() if "Jane Doe</h1>" in p)
    warnings = [d.message for d in reporter.warnings if "may be one person" in d.message]
    assert any("“J. Doe”" in m and "“Jane Doe”" in m for m in warnings), warnings


def test_the_people_index_links_every_person(series):
    site, _, _ = series
    index = read(site, "people/index.html")
    for name in people_pages(site):
        assert f'href="../people/{name}"' in index


def test_papers_json_holds_every_paper_with_its_volume(series):
    site, result, _ = series
    records = json.loads(read(site, "papers.json"))
    assert len(records) == result.papers == sum(len(v.papers) for v in result.volumes)
    assert [r["volume_path"] for r in records][:5] == ["2023"] * 5
    pmlr = next(r for r in records if r["volume_path"] == "2021" and r.get("volume"))
    assert pmlr["volume"] == "999"  # a citation's volume number stays as the volume's papers.json has it
    for record in records:
        assert record["url"].startswith(record["volume_path"] + "/papers/")
        assert (site / record["url"]).is_file()


def test_one_sitemap_and_one_feed_of_the_newest_volume(series):
    site, result, _ = series
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "a": "http://www.w3.org/2005/Atom"}
    index = ET.parse(site / "sitemap.xml").getroot()
    listed = [loc.text for loc in index.findall("s:sitemap/s:loc", ns)]
    assert "https://example.org/tiny/sitemap-archive.xml" in listed
    assert "https://example.org/tiny/2019/sitemap.xml" in listed and len(listed) == 6
    own = [loc.text for loc in ET.parse(site / "sitemap-archive.xml").getroot().findall("s:url/s:loc", ns)]
    assert "https://example.org/tiny/index.html" in own and "https://example.org/tiny/people/ada-lovelace.html" in own
    paper = "https://example.org/tiny/2019/" + json.loads(read(site, "2019/papers.json"))[0]["url"]
    volume_sitemap = [loc.text for loc in ET.parse(site / "2019/sitemap.xml").getroot().findall("s:url/s:loc", ns)]
    assert paper in volume_sitemap
    feed = ET.parse(site / "feed.xml").getroot()
    entries = feed.findall("a:entry", ns)
    assert len(entries) == 5 and feed.find("a:updated", ns).text == "2023-12-01T00:00:00Z"
    assert all(e.find("a:link", ns).get("href").startswith("https://example.org/tiny/2023/papers/") for e in entries)


def test_the_search_box_offers_every_volume_and_runs_the_volumes_own_scripts(series):
    site, _, _ = series
    for name in ("index.html", "search.html", "people/index.html"):
        page = read(site, name)
        volumes = json.loads(unescape(re.search(r"data-volumes='([^']*)'", page).group(1)))
        assert [v["path"] for v in volumes] == ["2023", "2021", "2022", "2020", "2019"], name  # newest first
        assert volumes[-1] == {"path": "2019", "title": "Tiny Things Workshop 2019"}
        assert '<option value="2019">Tiny Things Workshop 2019</option>' in page
    # One search script: the series's is byte for byte a volume's, and so is its query code.
    for name in ("search.js", "search-hits.js", "search-query.js", "lunr.js", "style.css", "search.css"):
        assert (site / "assets" / name).read_bytes() == (site / "2020" / "assets" / name).read_bytes(), name
    assert not (site / "assets" / "series-search.js").exists()


def shard_data(path: Path):
    """The data an index script under assets/search/ hands to proceedingsShards.arrived."""
    text = path.read_text(encoding="ascii")
    payload = re.fullmatch(r'proceedingsShards\.arrived\("\w+",JSON\.parse\((".*")\)\);\n', text).group(1)
    return json.loads(json.loads(payload))


def series_postings(site: Path, term: str) -> list[int]:
    """The refs of the series's index whose abstract holds ``term`` (a term shard entry is [term, number,
    [ref step, weight…] per field], fields title, tags, abstract, authors)."""
    for shard in sorted((site / "assets" / "search").glob("t*.js")):
        for entry in shard_data(shard):
            if entry[0] == term:
                steps = entry[4][::2]
                return [sum(steps[:n + 1]) for n in range(len(steps))]
    return []


def test_the_series_has_one_index_over_every_volumes_papers(series):
    """A query across the series loads one index (issue 28): its refs run volume after volume, and a ref is
    its volume's own paper of that number, shown from the volume's own display blocks."""
    site, _, _ = series
    manifest = shard_data(site / "assets" / "search" / "manifest.js")
    records = json.loads(read(site, "papers.json"))
    assert manifest["documents"] == len(records) and manifest["fields"] == ["title", "tags", "abstract", "authors"]
    assert [run[0] for run in manifest["volumes"]] == ["2023", "2021", "2022", "2020", "2019"]
    assert not list((site / "assets" / "search").glob("d*.js"))  # no record is written twice
    for path, first, count in manifest["volumes"]:
        own = shard_data(site / path / "assets" / "search" / "manifest.js")
        assert own["documents"] == count, path
        for local in range(count):
            block = shard_data(site / path / "assets" / "search" / f"d{local // own['block']}.js")
            assert block[local % own["block"]][0] == records[first + local]["title"], (path, local)
            assert records[first + local]["volume_path"] == path
    first_2023 = manifest["volumes"][0][1]
    assert series_postings(site, "zeppelinoid") == [first_2023 + 4]  # "Initials in Author Lists", 2023's fifth


def test_a_volume_edited_reaches_the_series_index_and_the_others_stay(tmp_path):
    content = make_series(tmp_path, only=("2020", "2023"))
    build(content, tmp_path / "site", Reporter())
    source = content / "2020" / "papers.jsonl"
    edited = source.read_text(encoding="utf-8").replace("We learn the edges", "We xylophonically learn the edges")
    source.write_text(edited, encoding="utf-8")
    reporter = Reporter()
    build(content, tmp_path / "site", reporter)
    assert not reporter.errors, reporter.errors
    site = tmp_path / "site"
    runs = {path: first for path, first, _ in shard_data(site / "assets" / "search" / "manifest.js")["volumes"]}
    assert series_postings(site, "xylophon") == [runs["2020"]]  # 2020's first paper, built again
    assert series_postings(site, "zeppelinoid") == [runs["2023"] + 4]  # 2023, carried over unchanged


def test_the_series_search_is_given_every_message_it_shows(series):
    site, _, _ = series
    messages = json.loads(unescape(re.search(r"data-messages='([^']*)'", read(site, "search.html")).group(1)))
    static = REPO / "themes" / "default" / "static"
    script = "".join((static / name).read_text(encoding="utf-8") for name in ("search.js", "search-hits.js"))
    used = set(re.findall(r'say\("(\w+)"', script)) | {"none", "matches"}  # seriesText picks one by name
    used -= {"topic", "all_topics"}  # the words of a volume's panel, which search.js makes (a series' is in its page)
    assert used <= set(messages), used - set(messages)
    assert messages["searched"] == {"one": "Searched {count} volume.", "other": "Searched {count} volumes."}


def test_the_series_theme_static_overrides_the_series_assets(tmp_path, series_content):
    content = series_content
    static = content / "theme" / "static"
    static.mkdir(parents=True)
    (static / "style.css").write_text("body { color: rebeccapurple; }\n", encoding="utf-8")
    (static / "logo.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>\n", encoding="utf-8")
    build(content, tmp_path / "site", Reporter())
    assets = tmp_path / "site" / "assets"
    assert (assets / "style.css").read_text(encoding="utf-8") == "body { color: rebeccapurple; }\n"
    assert (assets / "logo.svg").is_file()
    assert (assets / "search.js").read_bytes() == (REPO / "themes" / "default" / "static" / "search.js").read_bytes()


def test_a_rebuild_with_nothing_changed_gives_the_same_bytes(series, tmp_path, series_content):
    site, _, _ = series
    content = series_content  # the pages the first build wrote, read back
    build(content, tmp_path / "site", Reporter())
    again = tmp_path / "site"
    names = sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())
    assert names == sorted(p.relative_to(again).as_posix() for p in again.rglob("*") if p.is_file())
    assert all((site / n).read_bytes() == (again / n).read_bytes() for n in names)


def test_a_one_volume_folder_builds_byte_identically_inside_and_outside_the_cli(tmp_path):
    """The bundled content is no series: `proceedings build` writes what build() writes, no series link."""
    content = tmp_path / "content"
    shutil.copytree(REPO / "content", content)
    build(content, tmp_path / "direct", Reporter())
    assert main(["build", "--content", str(content), "--out", str(tmp_path / "cli")]) == 0
    direct, cli = tmp_path / "direct", tmp_path / "cli"
    names = sorted(p.relative_to(direct).as_posix() for p in direct.rglob("*") if p.is_file())
    assert names == sorted(p.relative_to(cli).as_posix() for p in cli.rglob("*") if p.is_file())
    assert all((direct / n).read_bytes() == (cli / n).read_bytes() for n in names)
    assert "series-title" not in (direct / "index.html").read_text(encoding="utf-8")
    assert not (cli / "people").exists()


def test_the_cli_builds_an_series(tmp_path, capsys, series_content):
    content = series_content
    assert main(["build", "--content", str(content), "--out", str(tmp_path / "site")]) == 0
    err = capsys.readouterr().err
    assert "built a series of 5 volumes" in err
    assert "may be one person" in err
    assert (tmp_path / "site" / "2022" / "index.html").is_file()


