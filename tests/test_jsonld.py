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
