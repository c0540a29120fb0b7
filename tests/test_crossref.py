"""Issue 42, part 1: the Crossref deposit (crossref.xml) of a PMLR-shaped volume, DOIs in every citation format,
and the deposits the build refuses.

The deposit is validated against Crossref's schema 5.3.1 when the schema bundle is on this machine: its
``schemas/`` folder at ``CROSSREF_SCHEMA_DIR``, else at ``crossref-schema/`` in the test tools' folder
(``PROCEEDINGS_TEST_TOOLS``, else ``.tools/``, as vnu.jar's). No package of PyPI, Debian or npm ships it, it is not
ours to copy into the repository, and a test never downloads: without it that one check is skipped, saying why;
every other check runs everywhere.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from lxml import etree

from conftest import SESSION_HOME, cli

VENUES = Path(__file__).parent / "fixtures" / "venues"
COLT = VENUES / "colt-2024-theory.bib"
GRAM = VENUES / "pmlr-v251-doi.bib"
NS = {"c": "http://www.crossref.org/schema/5.3.1", "jats": "http://www.ncbi.nlm.nih.gov/JATS1",
      "mml": "http://www.w3.org/1998/Math/MathML"}
CONFIG = """publisher: PMLR
base_url: https://proceedings.example.org/v{volume}/
date: {date}
doi:
  pattern: "10.99999/{short}.2024.{{n}}"
  depositor: Proceedings Chairs
  email: chairs@example.org
  crossmark_policy: 10.99999/{short}.policy
"""


# The command line in this process (conftest.cli): the cases vary the input, not how a process ends (a build
# in a process of its own is tests/test_cli.py's).
run = cli


def volume(tmp_path: Path, source: Path, config: str) -> tuple[Path, Path]:
    content, site = tmp_path / "content", tmp_path / "site"
    content.mkdir()
    shutil.copy(source, content / source.name)
    (content / "proceedings.yaml").write_text(config, encoding="utf-8")
    return content, site


def built(tmp_path: Path, source: Path, config: str) -> tuple[Path, Path]:
    """``source`` with ``config`` built into ``tmp_path``: a private copy of the content and site built once per
    test process for each (source, config), as most cases edit one and build again."""
    if (source, config) not in _BUILT:
        folder = Path(tempfile.mkdtemp(dir=Path(os.environ[SESSION_HOME]) / "work"))  # gone with the session
        content, site = volume(folder, source, config)
        result = run("build", "--content", str(content), "--out", str(site))
        assert result.returncode == 0, result.stderr
        _BUILT[source, config] = folder
    return tuple(shutil.copytree(_BUILT[source, config] / name, tmp_path / name, symlinks=True)
                 for name in ("content", "site"))


_BUILT: dict[tuple[Path, str], Path] = {}


TOOLS = Path(os.environ.get("PROCEEDINGS_TEST_TOOLS") or Path(__file__).resolve().parents[1] / ".tools")


@functools.cache
def schema() -> etree.XMLSchema | None:
    folder = Path(os.environ.get("CROSSREF_SCHEMA_DIR") or TOOLS / "crossref-schema")
    path = folder / "crossref5.3.1.xsd"
    return etree.XMLSchema(etree.parse(str(path))) if path.exists() else None


NO_SCHEMA = ("Crossref's schema 5.3.1 is not on this machine: point CROSSREF_SCHEMA_DIR at the schema bundle's "
             "schemas/ folder (docs/development.md)")


def assert_valid(deposit: Path) -> None:
    """``deposit`` validates against the schema, when it is here (``test_the_deposit_validates`` says when not:
    the other checks of a test still run)."""
    checker = schema()
    if checker is not None:
        assert checker.validate(etree.parse(str(deposit))), checker.error_log


def test_the_deposit_validates_against_crossref_5_3_1(tmp_path):
    if schema() is None:
        pytest.skip(NO_SCHEMA)
    _, site = built(tmp_path, GRAM, CONFIG.format(volume=251, date="2024-08-05", short="gram"))
    assert_valid(site / "crossref.xml")
    broken = tmp_path / "broken.xml"  # and the check can fail: a deposit without its DOI does not validate
    broken.write_text(re.sub(r"<doi>[^<]*</doi>", "", (site / "crossref.xml").read_text(encoding="utf-8"), count=1),
                      encoding="utf-8")
    assert not schema().validate(etree.parse(str(broken)))


def meta(page: Path, name: str) -> list[str]:
    return re.findall(rf'<meta name="{name}" content="([^"]*)"', page.read_text(encoding="utf-8"))


def test_a_pmlr_volume_deposit_holds_every_paper_with_its_authors_in_order(tmp_path):
    content, site = volume(tmp_path, COLT, CONFIG.format(volume=247, date="2024-06-30", short="colt"))
    result = cli("build", "--content", str(content), "--out", str(site))  # as an organiser runs it
    assert result.returncode == 0, result.stderr
    deposit = site / "crossref.xml"
    assert_valid(deposit)
    tree = etree.parse(str(deposit))
    papers = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    entries = tree.findall(".//c:conference_paper", NS)
    assert len(entries) == len(papers) == 30
    for entry, paper in zip(entries, papers):
        names = [" ".join(filter(None, (person.findtext("c:given_name", "", NS), person.findtext("c:surname", "", NS))))
                 for person in entry.findall("c:contributors/c:person_name", NS)]
        assert names == [author["name"] for author in paper["authors"]]
        assert [p.get("sequence") for p in entry.findall("c:contributors/c:person_name", NS)] == \
            ["first"] + ["additional"] * (len(names) - 1)
        doi = entry.findtext("c:doi_data/c:doi", "", NS)
        assert doi == paper["doi"] == f"10.99999/colt.2024.{paper['order']}"
        page = site / paper["url"]
        assert meta(page, "citation_doi") == [doi]
        assert entry.findtext("c:doi_data/c:resource", "", NS) == f"https://proceedings.example.org/v247/{paper['url']}"
        assert f'<a href="https://doi.org/{doi}">https://doi.org/{doi}</a>' in page.read_text(encoding="utf-8")
    assert tree.findtext(".//c:registrant", "", NS) == "PMLR"
    assert tree.findtext(".//c:conference_acronym", "", NS) == "COLT"
    assert tree.find(".//c:noisbn", NS).get("reason") == "archive_volume"
    # Deterministic: the same content gives the same deposit, with no clock in it.
    again = tmp_path / "again"
    assert run("build", "--content", str(tmp_path / "content"), "--out", str(again)).returncode == 0
    assert (again / "crossref.xml").read_bytes() == deposit.read_bytes()
    assert tree.findtext(".//c:timestamp", "", NS) == "20240630000000"


def test_source_dois_win_math_stays_mathml_and_hand_edits_reach_the_deposit(tmp_path):
    content, site = built(tmp_path, GRAM, CONFIG.format(volume=251, date="2024-08-05", short="gram"))
    page = next((content / "papers").glob("riemannian-*.md"))
    text = page.read_text(encoding="utf-8")
    # An organiser adds an ORCID and affiliations, and retracts the paper, in its page's front matter.
    text = re.sub(r"authors: .*\n", "authors:\n  - {name: Alison Pouplin, affiliation: Technical University "
                  "of Denmark, orcid: 0000-0002-1825-0097}\n  - {name: Søren Hauberg, affiliation: "
                  "Technical University of Denmark; Pioneer Centre for AI}\n", text)
    text = text.replace("---\n", "---\nretracted: {date: 2024-09-01, note: Retracted at the authors' request.}\n", 1)
    page.write_text(text, encoding="utf-8")
    result = run("build", "--content", str(content), "--out", str(site))
    assert result.returncode == 0, result.stderr
    deposit = site / "crossref.xml"
    assert_valid(deposit)
    tree = etree.parse(str(deposit))
    dois = [doi.text for doi in tree.findall(".//c:conference_paper/c:doi_data/c:doi", NS)]
    assert dois == ["10.99999/gram.2024.1", "10.48550/arXiv.2406.01234", "10.99999/gram.2024.3",
                    "10.5555/gram.2024.pouplin"]
    title = tree.find(".//c:conference_paper[2]/c:titles/c:title", NS)
    assert title.text == "Equivariant Flows on " and title.find("mml:math", NS) is not None
    abstract = tree.findtext(".//c:conference_paper[2]/jats:abstract/jats:p", "", NS)
    assert abstract.startswith("We build normalizing flows") and abstract.endswith("match the target densities.")
    cjk = tree.find(".//c:conference_paper[3]/c:contributors/c:person_name", NS)
    assert (cjk.findtext("c:surname", "", NS), cjk.findtext("c:given_name", "", NS)) == ("王", "小明")
    assert cjk.get("name-style") == "eastern"
    last = tree.findall(".//c:conference_paper", NS)[3]
    first, second = last.findall("c:contributors/c:person_name", NS)
    assert first.findtext("c:ORCID", "", NS) == "https://orcid.org/0000-0002-1825-0097"
    assert [i.text for i in second.findall(".//c:institution_name", NS)] == ["Technical University of Denmark",
                                                                             "Pioneer Centre for AI"]
    update = last.find("c:crossmark/c:updates/c:update", NS)
    assert (update.get("type"), update.get("date"), update.text) == ("retraction", "2024-09-01",
                                                                     "10.5555/gram.2024.pouplin")
    assert tree.findtext(".//c:timestamp", "", NS) == "20240901000000"  # the retraction's day: a later deposit
    # Every citation format names the DOI, the paper's own.
    assert "doi = {10.5555/gram.2024.pouplin}" in (site / "proceedings.bib").read_text(encoding="utf-8")
    assert "DO  - 10.5555/gram.2024.pouplin" in (site / "proceedings.ris").read_text(encoding="utf-8")
    assert {item.get("DOI") for item in json.loads((site / "proceedings.csl.json").read_text(encoding="utf-8"))} \
        == set(dois)
    assert "https://doi.org/10.99999/gram.2024.3" in (site / "proceedings.apa.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize(("change", "said"), [
    (lambda c: c.replace("publisher: PMLR\n", ""), "needs `publisher:`"),
    (lambda c: c.replace("base_url: https://proceedings.example.org/v251/\n", ""), "needs `base_url:`"),
    (lambda c: c.replace("  email: chairs@example.org\n", ""), "needs `doi: {email: …}`"),
])
def test_a_deposit_crossref_would_reject_is_refused_in_one_line(tmp_path, change, said):
    config = CONFIG.format(volume=251, date="2024-08-05", short="gram")
    content, site = built(tmp_path, GRAM, config)
    before = (site / "index.html").read_bytes()
    (content / "proceedings.yaml").write_text(change(config), encoding="utf-8")
    result = run("build", "--content", str(content), "--out", str(site))
    assert result.returncode != 0
    lines = [line for line in result.stderr.splitlines() if "crossref" in line.lower() or "DOI" in line]
    assert len(lines) == 1 and said in lines[0], result.stderr
    assert "Traceback" not in result.stderr
    assert (site / "index.html").read_bytes() == before  # the last site stays as it was


def test_a_paper_without_authors_is_refused_and_check_names_papers_without_a_doi(tmp_path):
    config = CONFIG.format(volume=251, date="2024-08-05", short="gram").replace("{n}", "{key}")
    content, site = built(tmp_path, GRAM, config)
    (content / "extra.txt").write_text("Extra papers\n\nA short abstract about geodesics on manifolds.\n",
                                       encoding="utf-8")
    result = run("build", "--content", str(content), "--out", str(site))
    assert result.returncode == 0, result.stderr  # a list entry has no key: {key} makes no DOI, no deposit entry
    checked = run("check", "--content", str(content))
    assert "papers/a-short-abstract-about-geodesics-on-manifolds.md: warning: no DOI" in checked.stdout + checked.stderr
    page = content / "papers" / "a-short-abstract-about-geodesics-on-manifolds.md"
    page.write_text(page.read_text(encoding="utf-8").replace("---\n", "---\ndoi: 10.99999/gram.extra\n", 1),
                    encoding="utf-8")
    refused = run("build", "--content", str(content), "--out", str(site))
    assert refused.returncode != 0
    said = "papers/a-short-abstract-about-geodesics-on-manifolds.md: DOI 10.99999/gram.extra but no authors"
    assert said in refused.stderr
    checked = run("check", "--content", str(content))  # check says it before a build
    assert checked.returncode != 0
    assert said.replace(": DOI", ": error: DOI") in checked.stdout + checked.stderr


def test_a_doi_given_twice_is_refused(tmp_path):
    content, site = built(tmp_path, GRAM, CONFIG.format(volume=251, date="2024-08-05", short="gram"))
    page = next((content / "papers").glob("hyperbolic-*.md"))
    page.write_text(page.read_text(encoding="utf-8").replace("---\n", "---\ndoi: https://doi.org/10.48550/ARXIV.2406.01234\n",
                                                             1), encoding="utf-8")
    refused = run("build", "--content", str(content), "--out", str(site))
    assert refused.returncode != 0
    [line] = [line for line in refused.stderr.splitlines() if "DOI" in line]
    assert re.search(r"papers/hyperbolic-[a-z-]+\.md: DOI 10\.48550/ARXIV\.2406\.01234 is already "
                     r"papers/equivariant-[a-z0-9-]+\.md's", line), line


def test_no_doi_settings_no_deposit(tmp_path):
    _, site = built(tmp_path, GRAM, "publisher: PMLR\ndate: 2024-08-05\n")
    assert not (site / "crossref.xml").exists()
