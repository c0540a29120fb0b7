"""Issue 42, part 2: schema.org JSON-LD read back by a real extractor (extruct) names the same title, authors and
date as papers.json and the citation_* tags; affiliations and ORCIDs reach JSON-LD and Scholar's tags."""

from __future__ import annotations

import json
import re

import extruct

from test_crossref import CONFIG, GRAM, built, run


def test_json_ld_of_every_page_matches_papers_json(tmp_path):
    content, site = built(tmp_path, GRAM, CONFIG.format(volume=251, date="2024-08-05", short="gram"))
    page = next((content / "papers").glob("riemannian-*.md"))
    page.write_text(re.sub(r"authors: .*\n", "authors:\n  - {name: Alison Pouplin, affiliation: Technical University "
                           "of Denmark, orcid: 0000-0002-1825-0097}\n  - Søren Hauberg\n",
                           page.read_text(encoding="utf-8")), encoding="utf-8")
    assert run("build", "--content", str(content), "--out", str(site)).returncode == 0
    papers = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    for paper in papers:
        html = (site / paper["url"]).read_text(encoding="utf-8")
        [article] = extruct.extract(html, syntaxes=["json-ld"])["json-ld"]
        assert article["@type"] == "ScholarlyArticle"
        assert article["name"] == paper["title"]
        assert [a["name"] for a in article["author"]] == [a["name"] for a in paper["authors"]]
        assert article["datePublished"] == "2024-08-05"
        assert article["identifier"]["value"] == paper["doi"] and article["sameAs"] == f"https://doi.org/{paper['doi']}"
        assert article["isPartOf"]["recordedAt"]["@type"] == "Event"
        assert article["url"] == f"https://proceedings.example.org/v251/{paper['url']}"
    html = (site / papers[3]["url"]).read_text(encoding="utf-8")
    [article] = extruct.extract(html, syntaxes=["json-ld"])["json-ld"]
    assert article["author"][0]["affiliation"] == {"@type": "Organization", "name": "Technical University of Denmark"}
    assert article["author"][0]["sameAs"] == "https://orcid.org/0000-0002-1825-0097"
    tags = re.findall(r'<meta name="(citation_author[a-z_]*)" content="([^"]*)"', html)
    assert tags[:4] == [("citation_author", "Alison Pouplin"),
                        ("citation_author_institution", "Technical University of Denmark"),
                        ("citation_author_orcid", "https://orcid.org/0000-0002-1825-0097"),
                        ("citation_author", "Søren Hauberg")]
    [home] = extruct.extract((site / "index.html").read_text(encoding="utf-8"), syntaxes=["json-ld"])["json-ld"]
    assert home["@type"] == "PublicationVolume" and home["recordedAt"]["name"].startswith("Geometry-grounded")
    person_page = (site / "authors" / "alison-pouplin.html").read_text(encoding="utf-8")
    [person] = extruct.extract(person_page, syntaxes=["json-ld"])["json-ld"]
    assert person["@type"] == "Person" and person["sameAs"] == "https://orcid.org/0000-0002-1825-0097"


def test_json_ld_cannot_end_its_script():
    from generator.publish.jsonld import script_json
    text = str(script_json({"name": "</script><script>alert(1)</script> <!-- & "}))
    assert "<" not in text and "&" not in text
    assert json.loads(text)["name"] == "</script><script>alert(1)</script> <!-- & "


def test_an_articles_volume_written_once_is_the_volume_written_in_the_article():
    """publish/jsonld.py: the volume (``isPartOf``) is JSON written once a build and put in each article: the
    article is what ``script_json`` writes of the whole, a title that could end the script included."""
    import datetime as dt

    from generator.model.paper import Author, Details, Paper, RenderedPaper
    from generator.model.volume import Volume
    from generator.publish import jsonld
    from generator.publish.reading import reference_of
    from pathlib import Path

    details = Details(pages="3--9", doi="10.1/x", authors=(Author("Søren </script>", orcid="0000-0002-1825-0097"),))
    paper = RenderedPaper(Paper("1", "s", "A <title> & “more”", "", ("kw",), 1, "a.bib", 1, Path("papers/s.md"),
                                details), "", "A <title> & “more”", "", "")
    volume = Volume("Proceedings of <Things> & 学", base_url="https://example.org/v/", date=dt.date(2024, 7, 1))
    ref = reference_of(paper, volume, "k")
    kept = jsonld.article(ref, volume, jsonld.part_of(volume))
    assert kept == jsonld.article(ref, volume)
    whole = json.loads(str(kept))
    assert list(whole)[-1] == "isPartOf" and whole["isPartOf"] == jsonld.proceedings(volume)
    assert kept == jsonld.script_json(whole) and "<" not in kept and "&" not in kept
