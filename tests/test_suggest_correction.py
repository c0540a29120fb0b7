"""Corrections from readers (issue 42): `repository:` in proceedings.yaml, the "Suggest a correction" link on
paper and author pages, and `proceedings correct`, which applies the issue the link's form makes to the page as
a hand edit. The round trip: a built page's link → the issue GitHub's form makes of it, one value changed →
`correct` → only that value changed in the page, every hand edit and every other byte kept.
"""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import yaml

from generator.commands.cli import main
from generator.errors import ConfigError
from generator.model.config import load_config
from generator.model.suggestion import FORM, NOTE_LABEL, RECORD_LABEL
from generator.publish.suggest import ISSUE_LIMIT

FIXTURES = Path(__file__).parent / "fixtures" / "venues"
REPOSITORY = "acme/colt-2024"
PAGE = "a-lower-bound-for-linear-bandits-with-finitely-many-arms"
LINK = re.compile(r'class="suggest-correction"><a href="([^"]*)"')


def content_of(tmp_path: Path, config: str = f"repository: {REPOSITORY}\n") -> Path:
    """COLT 2024's papers (a PMLR .bib), imported, with ``config`` added to its proceedings.yaml."""
    content = tmp_path / "content"
    assert main(["import", str(FIXTURES / "colt-2024-theory.bib"), "--content", str(content)]) == 0
    with (content / "proceedings.yaml").open("a", encoding="utf-8") as stream:
        stream.write(config)
    return content


def build(content: Path, out: Path) -> Path:
    assert main(["build", "--content", str(content), "--out", str(out)]) == 0
    return out


def link_of(page: Path) -> str:
    found = LINK.search(page.read_text(encoding="utf-8"))
    assert found, f"no correction link in {page.name}"
    return html.unescape(found.group(1))


def record_of(link: str) -> str:
    query = parse_qs(urlsplit(link).query)
    assert query["template"] == [FORM]
    return query["record"][0]


def issue_body(record: str, note: str = "") -> str:
    """The issue GitHub makes of the form: each field's label as a heading, a ``render: yaml`` field fenced."""
    return (f"### {RECORD_LABEL}\n\n```yaml\n{record.rstrip()}\n```\n\n### {NOTE_LABEL}\n\n"
            f"{note or '_No response_'}\n")


def write_issue(folder: Path, text: str, name: str = "issue.md") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    """COLT 2024 imported and built once for the module (a build is most of a test's cost); treat as read-only."""
    folder = tmp_path_factory.mktemp("suggest")
    content = content_of(folder)
    return content, build(content, folder / "site")


@pytest.fixture
def site(built, tmp_path) -> tuple[Path, Path]:
    """A private copy of the built content and site, for a test to correct and build again."""
    content, out = (shutil.copytree(folder, tmp_path / folder.name, symlinks=True) for folder in built)
    return content, out


# -- the config ------------------------------------------------------------------------------------------------

def test_repository_is_owner_slash_name(tmp_path):
    (tmp_path / "proceedings.yaml").write_text("title: T\nrepository: https://github.com/acme/p.git\n")
    assert load_config(tmp_path, print, environ={}).repository == "acme/p"
    (tmp_path / "proceedings.yaml").write_text("title: T\n\nrepository: acme/p/issues\n")
    with pytest.raises(ConfigError, match=r"proceedings.yaml:3: repository must be a GitHub repository written "
                                          r"owner/name"):
        load_config(tmp_path, print, environ={})


def test_github_repository_is_the_default_and_the_file_wins(tmp_path):
    (tmp_path / "proceedings.yaml").write_text("title: T\n")
    assert load_config(tmp_path, print, environ={"GITHUB_REPOSITORY": "acme/site"}).repository == "acme/site"
    (tmp_path / "proceedings.yaml").write_text("title: T\nrepository: acme/own\n")
    assert load_config(tmp_path, print, environ={"GITHUB_REPOSITORY": "acme/site"}).repository == "acme/own"
    (tmp_path / "proceedings.yaml").write_text("title: T\n")
    with pytest.raises(ConfigError, match="GITHUB_REPOSITORY must be a GitHub repository"):
        load_config(tmp_path, print, environ={"GITHUB_REPOSITORY": "not a repository"})


def test_contact_is_an_email(tmp_path):
    (tmp_path / "proceedings.yaml").write_text("title: T\ncontact: chairs@example\n")
    with pytest.raises(ConfigError, match=r"proceedings.yaml:2: contact must be an email address"):
        load_config(tmp_path, print, environ={})


# -- the link --------------------------------------------------------------------------------------------------

def test_every_paper_page_links_an_issue_form_with_its_record(site):
    content, out = site
    pages = sorted((out / "papers").glob("*.html"))
    assert pages
    for page in pages:
        link = link_of(page)
        assert link.startswith(f"https://github.com/{REPOSITORY}/issues/new?template={FORM}&")
        assert len(link) <= ISSUE_LIMIT
        record = yaml.safe_load(record_of(link))
        text = (content / record["file"]).read_text(encoding="utf-8")
        assert f"id: '{record['paper']}'" in text
        assert set(record["was"]) == {"title", "authors", "abstract"}


def test_author_pages_link_the_form_with_each_of_their_papers(site):
    _, out = site
    record = yaml.safe_load(record_of(link_of(out / "authors" / "alexander-rakhlin.html")))
    assert record["person"] == record["name"] == "Alexander Rakhlin"
    assert len(record["papers"]) == 2 and all(place["author"] >= 1 for place in record["papers"])


def test_without_a_repository_a_mail_to_the_contact_else_no_link(tmp_path):
    content = content_of(tmp_path, "contact: chairs@example.org\n")
    out = build(content, tmp_path / "site")
    link = link_of(out / "papers" / f"{PAGE}.html")
    assert link.startswith("mailto:chairs@example.org?subject=Correction%3A%20") and len(link) <= 2000
    assert "%60%60%60yaml" in link  # the record, as the form would fence it
    (content / "proceedings.yaml").write_text("title: COLT 2024\n", encoding="utf-8")
    out = build(content, tmp_path / "bare")
    assert "suggest-correction" not in (out / "papers" / f"{PAGE}.html").read_text(encoding="utf-8")


def test_the_link_carries_no_abstract_but_the_reader_may_add_one(site, tmp_path):
    """The abstract is left out of the link (20 MB of paper pages at 10,000 papers); a reader who corrects it
    adds `abstract:` to the record, and it is applied where the page's abstract is the one fingerprinted."""
    content, out = site
    page = content / "papers" / f"{PAGE}.md"
    record = yaml.safe_load(record_of(link_of(out / "papers" / f"{PAGE}.html")))
    assert "abstract" not in record and "abstract" in record["was"]
    record["abstract"] = "We prove a tight minimax lower bound.\n\nA second paragraph."
    issue = write_issue(tmp_path, issue_body(yaml.safe_dump(record, allow_unicode=True, sort_keys=False)))
    before = page.read_text(encoding="utf-8")
    assert main(["correct", str(issue), "--content", str(content)]) == 0
    after = page.read_text(encoding="utf-8")
    front = before.split("\n---\n")[0]
    assert after == f"{front}\n---\n\nWe prove a tight minimax lower bound.\n\nA second paragraph.\n"
    # A page whose abstract was edited since: refused.
    page.write_text(before.replace("We prove", "We show"), encoding="utf-8")
    assert main(["correct", str(issue), "--content", str(content)]) == 2


# -- the round trip --------------------------------------------------------------------------------------------

HAND_EDITED = "Lower Bounds for Linear Bandits with Finitely Many Arms"


def hand_edit(page: Path) -> None:
    """What an organiser does by hand: a title, a comment, a tag, a blank line, a key of their own."""
    text = page.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^title: .*$", f"title: {HAND_EDITED}  # as the camera-ready has it", text)
    text = text.replace("\ntags: [", "\n# topics checked by the chairs\n\ntags: [Lower bounds, ")
    text = text.replace("\norder:", "\nreviewed: yes\norder:")
    page.write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def hand_edited(tmp_path_factory) -> tuple[Path, Path]:
    """COLT 2024 imported, a page edited by hand, and built, once for the module; each round trip takes a copy."""
    folder = tmp_path_factory.mktemp("hand-edited")
    content = content_of(folder)
    hand_edit(content / "papers" / f"{PAGE}.md")
    return content, build(content, folder / "site")


@pytest.mark.parametrize("field, change", [
    ("authors", lambda r: r.replace("Csaba Szepesvári", "Csaba Szepesvári, Jr.")),
    ("title", lambda r: r.replace(HAND_EDITED, "Lower Bounds for Linear Bandits With Finitely Many Arms")),
    ("abstract", lambda r: r + "abstract: We prove the bound. It is tight up to constants.\n"),
])
def test_the_round_trip_changes_only_the_named_field(hand_edited, tmp_path, field, change):
    content, _ = (shutil.copytree(folder, tmp_path / folder.name, symlinks=True) for folder in hand_edited)
    page = content / "papers" / f"{PAGE}.md"
    before = page.read_text(encoding="utf-8")
    record = record_of(link_of(tmp_path / "site" / "papers" / f"{PAGE}.html"))
    changed = change(record)
    assert changed != record
    issue = write_issue(tmp_path, issue_body(changed, "A typo."))
    assert main(["correct", str(issue), "--content", str(content)]) == 0
    after = page.read_text(encoding="utf-8")
    old, new = before.split("\n"), after.split("\n")
    assert len(old) == len(new)
    differing = [n for n, (a, b) in enumerate(zip(old, new)) if a != b]
    assert len(differing) == 1, differing
    line = new[differing[0]]
    assert line.startswith(f"{field}: ") if field != "abstract" else "up to constants" in line
    # Every hand edit is where it was; the next build keeps the correction as one of them.
    assert "# topics checked by the chairs\n\ntags: [Lower bounds, " in after and "\nreviewed: yes\n" in after
    if field != "title":
        assert f"title: {HAND_EDITED}  # as the camera-ready has it" in after
    build(content, tmp_path / "again")
    assert page.read_text(encoding="utf-8") == after
    record = yaml.safe_load(record_of(link_of(tmp_path / "again" / "papers" / f"{PAGE}.html")))
    assert record == {**record, **{key: value for key, value in yaml.safe_load(changed).items()
                                   if key in ("title", "authors")}}


def test_the_issue_as_json_and_a_dry_run(site, tmp_path, capsys):
    content, out = site
    page = content / "papers" / f"{PAGE}.md"
    record = record_of(link_of(out / "papers" / f"{PAGE}.html")).replace("Tor Lattimore", "Tor Lattimore (DeepMind)")
    body = issue_body(record).replace("\n", "\r\n")  # as GitHub's API gives a body typed in a browser
    issue = write_issue(tmp_path, json.dumps({"body": body, "number": 7}), "issue.json")
    before = page.read_bytes()
    assert main(["correct", str(issue), "--content", str(content), "--dry-run"]) == 0
    diff = capsys.readouterr().out
    assert "-authors: [Tor Lattimore, Csaba Szepesvári]" in diff
    assert "+- {name: Tor Lattimore, affiliation: DeepMind}" in diff
    assert page.read_bytes() == before
    assert main(["correct", str(issue), "--content", str(content)]) == 0
    assert page.read_bytes() != before
    assert main(["correct", str(issue), "--content", str(content)]) == 0, "applied already: nothing to do"


def test_a_page_edited_since_the_link_is_refused(site, tmp_path, capsys):
    content, out = site
    page = content / "papers" / f"{PAGE}.md"
    record = record_of(link_of(out / "papers" / f"{PAGE}.html"))
    page.write_text(page.read_text(encoding="utf-8").replace("Tor Lattimore", "T. Lattimore"), encoding="utf-8")
    before = page.read_bytes()
    issue = write_issue(tmp_path, issue_body(record.replace("Csaba Szepesvári", "Cs. Szepesvári")))
    assert main(["correct", str(issue), "--content", str(content)]) == 2
    message = capsys.readouterr().err
    assert f"issue.md:7: authors of papers/{PAGE}.md: the page was edited since the link was made" in message
    assert page.read_bytes() == before


def test_a_person_correction_renames_them_in_each_of_their_papers(site, tmp_path):
    content, out = site
    record = record_of(link_of(out / "authors" / "alexander-rakhlin.html"))
    changed = record.replace("name: Alexander Rakhlin", "name: Alexander Rakhlin Jr.")
    changed += "orcid: 0000-0002-1825-0097\n"
    issue = write_issue(tmp_path, issue_body(changed))
    assert main(["correct", str(issue), "--content", str(content)]) == 0
    pages = [content / place["file"] for place in yaml.safe_load(record)["papers"]]
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "{name: Alexander Rakhlin Jr., orcid: 0000-0002-1825-0097}" in text
    out = build(content, tmp_path / "again")
    assert "Alexander Rakhlin Jr." in (out / "authors" / "alexander-rakhlin-jr.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("body, problem", [
    ("### The record\n\n```yaml\npaper: '1\nfile: x\n```\n", r"issue.md:\d+: invalid YAML"),
    ("### The record\n\n_No response_\n", r"issue.md:1: no record under `### The record`"),
    ("Just words.\n", r"issue.md:1: no record \(a ```yaml block\)"),
    ("### The record\n\n```yaml\npaper: '11'\nfile: ../../etc/passwd.md\ntitle: T\nwas: {title: x}\n```\n",
     r"issue.md:5: `file` must be the page's file, papers/<name>.md"),
    ("### The record\n\n```yaml\npaper: '11'\nfile: papers/x.md\ntitle: T\nslug: x\nwas: {title: x}\n```\n",
     r"issue.md:7: unknown field 'slug'"),
    ("### The record\n\n```yaml\npaper: '11'\nfile: papers/x.md\ntitle: T\nwas: {title: x}\n",
     r"issue.md:3: the record's block \(```yaml\) is never closed"),
    ("### The record\n\n```yaml\npaper: '999'\nfile: papers/nothing.md\ntitle: T\nwas: {title: x}\n```\n",
     r"issue.md:4: no page of paper '999'"),
])
def test_a_bad_record_is_one_line_naming_the_issue_and_nothing_is_written(site, tmp_path, capsys, body, problem):
    content, _ = site
    before = {path: path.read_bytes() for path in (content / "papers").glob("*.md")}
    issue = write_issue(tmp_path, body)
    assert main(["correct", str(issue), "--content", str(content)]) == 2
    error = capsys.readouterr().err
    assert re.search(problem, error), error
    assert "Traceback" not in error and len(error.strip().split("\n")) == 1
    assert {path: path.read_bytes() for path in (content / "papers").glob("*.md")} == before


def test_an_invalid_correction_is_refused_with_the_pages_own_check(site, tmp_path, capsys):
    content, out = site
    record = record_of(link_of(out / "papers" / f"{PAGE}.html"))
    bad = record.replace("authors: [Tor Lattimore, Csaba Szepesvári]",
                         "authors: [Tor Lattimore, {name: Csaba Szepesvári, orcid: 0000-0002-1825-0098}]")
    assert bad != record
    issue = write_issue(tmp_path, issue_body(bad))
    before = (content / "papers" / f"{PAGE}.md").read_bytes()
    assert main(["correct", str(issue), "--content", str(content)]) == 2
    assert "wrong check digit" in capsys.readouterr().err
    assert (content / "papers" / f"{PAGE}.md").read_bytes() == before


def test_a_series_volumes_page_is_found(tmp_path):
    volume = content_of(tmp_path / "one")
    series = tmp_path / "series"
    series.mkdir()
    shutil.copytree(volume, series / "2024")
    (series / "proceedings.yaml").write_text("title: COLT\n", encoding="utf-8")
    (series / "2024" / "proceedings.yaml").write_text(f"title: COLT 2024\nrepository: {REPOSITORY}\n")
    out = build(series, tmp_path / "site")
    record = record_of(link_of(out / "2024" / "papers" / f"{PAGE}.html"))
    issue = write_issue(tmp_path, issue_body(record.replace("Tor Lattimore", "Tor Lattimore II")))
    assert main(["correct", str(issue), "--content", str(series)]) == 0
    assert "Tor Lattimore II" in (series / "2024" / "papers" / f"{PAGE}.md").read_text(encoding="utf-8")


def test_a_series_person_correction_reaches_each_volumes_page(tmp_path):
    series = tmp_path / "series"
    for year in ("2023", "2024"):
        shutil.copytree(content_of(tmp_path / year), series / year)
        (series / year / "proceedings.yaml").write_text(f"title: COLT {year}\n", encoding="utf-8")
    (series / "proceedings.yaml").write_text(f"title: COLT\nrepository: {REPOSITORY}\n", encoding="utf-8")
    out = build(series, tmp_path / "site")
    record = record_of(link_of(out / "people" / "alexander-rakhlin.html"))
    files = {place["file"] for place in yaml.safe_load(record)["papers"]}
    assert len(files) == 4 and {file.split("/")[0] for file in files} == {"2023", "2024"}
    issue = write_issue(tmp_path, issue_body(record.replace("name: Alexander Rakhlin", "name: Sasha Rakhlin")))
    assert main(["correct", str(issue), "--content", str(series)]) == 0
    for file in files:
        assert "Sasha Rakhlin" in (series / file).read_text(encoding="utf-8")


def test_a_person_of_more_papers_than_a_link_holds_has_the_rest_counted(site, tmp_path, capsys):
    from generator.model.volume import Volume
    from generator.publish.suggest import person_address

    content, out = site
    record = yaml.safe_load(record_of(link_of(out / "authors" / "alexander-rakhlin.html")))
    many = {**record, "papers": [dict(place) for place in record["papers"] * 200]}  # 400: past what a link holds
    link = person_address(Volume("COLT 2024", repository=REPOSITORY), "Alexander Rakhlin", many)
    assert len(link) <= ISSUE_LIMIT
    listed = yaml.safe_load(record_of(link))
    assert 0 < len(listed["papers"]) < 400 and listed["more_papers"] == 400 - len(listed["papers"])
    listed["papers"] = record["papers"]  # (the two real ones, for the pages to exist)
    listed["name"] = "Alexander Rakhlin Jr."
    issue = write_issue(tmp_path, issue_body(yaml.safe_dump(listed, allow_unicode=True, sort_keys=False)))
    assert main(["correct", str(issue), "--content", str(content)]) == 0
    said = capsys.readouterr().err  # the diff on stdout, what was done on stderr
    assert f"{listed['more_papers']} more papers of Alexander Rakhlin did not fit the link" in said
