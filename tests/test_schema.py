"""One schema (generator/model/schema.py): a paper field is declared once, on model.Details, and every reader and
writer derives from it. The `video` link was added so (one line in model/paper.py, one in _link_labels.html and
its translations); a copy of the package with one more value field and one more link type, each one line
(and one template line), shows them read from CSV, JSON Lines and BibTeX and written everywhere."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import bibtexparser
import pytest

from conftest import REPO
from generator.commands.build import build
from generator.model.paper import DETAILS, Details
from generator.content.pages import FRONT_MATTER, read_page
from generator.reporter import Reporter
from generator.sources.records import FIELDS, field_name

FIXTURE = Path(__file__).parent / "fixtures" / "schema"


@pytest.fixture(scope="module")
def video_site(tmp_path_factory) -> tuple[Path, Path, Reporter]:
    tmp = tmp_path_factory.mktemp("video")
    content = shutil.copytree(FIXTURE, tmp / "content")
    (content / "proceedings.yaml").write_text("title: Talks 2026\nlanguage: ja\n", encoding="utf-8")
    reporter = Reporter()
    build(content, tmp / "site", reporter)
    assert not reporter.errors, reporter.errors
    return content, tmp / "site", reporter


def page_of(site: Path, slug_word: str) -> str:
    [page] = [p for p in (site / "papers").glob("*.html") if slug_word in p.name]
    return page.read_text(encoding="utf-8")


def test_every_detail_is_declared_with_its_schema():
    assert [field.name for field in DETAILS] == [field.name for field in dataclasses.fields(Details)]
    for field in DETAILS:
        assert FIELDS[field.name] == field.names
        assert field.name in FRONT_MATTER


def test_the_readme_names_every_field_and_the_names_sources_give_it():
    readme = (REPO / "docs" / "formats.md").read_text(encoding="utf-8")
    table = readme.split("Fields and the column or key names each is read from")[1].split("\n\n")[1]
    rows = {name.strip(): row for row in table.splitlines()[2:]
            for name in row.split("|")[1].split(",")}
    for field in DETAILS:
        assert field.name in rows, f"docs/formats.md's field table has no row for {field.name}"
        missing = [alias for alias in field.names if alias != field.name and f"`{alias}`" not in rows[field.name]]
        assert not missing, f"docs/formats.md's row for {field.name} does not name {missing}"


def test_a_video_link_is_read_from_every_source_and_kept_in_the_front_matter(video_site):
    content, _, reporter = video_site
    assert field_name("Video URL") == field_name("url-video") == "video"
    pages = {read_page(p).meta["uid"]: read_page(p).meta for p in (content / "papers").glob("*.md")}
    assert {uid: meta.get("video") for uid, meta in pages.items()} == {
        "t1": "https://example.org/talks/t1.mp4", "t2": "videos/t2.mp4",
        "j1": "https://example.org/talks/j1", "kane24": "https://example.org/talks/kane24"}
    assert not [w for w in reporter.warnings if "video" in str(w)], reporter.warnings  # a known column now


def test_a_video_link_is_shown_translated_published_and_in_papers_json(video_site):
    _, site, _ = video_site
    page = page_of(site, "sparse-graphs")
    assert '<li><a href="https://example.org/talks/t1.mp4">動画</a></li>' in page  # the ja catalogue's label
    assert '<li><a href="../videos/t2.mp4">動画</a></li>' in page_of(site, "kept-in-the-folder")
    assert (site / "videos" / "t2.mp4").read_bytes() == (FIXTURE / "videos" / "t2.mp4").read_bytes()
    home = (site / "index.html").read_text(encoding="utf-8")
    assert '<a href="https://example.org/talks/kane24">動画</a>' in home  # the list item's links too
    records = {r["title"]: r for r in json.loads((site / "papers.json").read_text(encoding="utf-8"))}
    assert records["Streaming Lectures"]["video"] == "https://example.org/talks/j1"
    assert "video" not in (site / "proceedings.bib").read_text(encoding="utf-8")  # not a field citations carry


# One line each, as the README's how-to says: a value field BibTeX and the meta tags carry, and a link type.
NEW_FIELDS = '''    series: str = detail("text", "series", "series_title", tex=True,
                         cite=Cite("series", meta=(("citation_series_title", "series"),)))
    slides: str = detail("link", "slides", "slides_url")
'''
NEW_TEMPLATE_LINE = '{% if details.series %}<p class="series">{{ details.series }}</p>{% endif %}\n'
NEW_LABEL = '  "slides": _("Slides"),\n'

SOURCES = {
    "a.csv": "UID,title,abstract,Series Title,slides\n"
             "c1,From a Table,A row with a series.,Lecture Notes in Tables,https://example.org/c1-slides.pdf\n",
    "b.jsonl": json.dumps({"id": "j1", "title": "From JSON", "abstract": "A line with a series.",
                           "series": "Lecture Notes in JSON", "links": {"slides": "https://example.org/j1"}}) + "\n",
    "c.bib": "@inproceedings{b1,\n  title = {From BibTeX},\n  abstract = {An entry with a series.},\n"
             "  series = {Lecture Notes in {\\\"O}konomie},\n}\n",
}


def test_a_field_is_one_declaration_and_one_template_line(tmp_path):
    """A copy of the package and its theme with the declarations above added, built in its own process."""
    package = tmp_path / "package"
    shutil.copytree(REPO / "generator", package / "generator", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "themes", package / "themes")
    _insert_after(package / "generator" / "model" / "paper.py", "    award: str = ", NEW_FIELDS)
    templates = package / "themes" / "default" / "templates"
    _insert_after(templates / "_paper_details.html", '{% if details.volume or details.pages %}', NEW_TEMPLATE_LINE,
                  before=True)
    _insert_after(templates / "_link_labels.html", '  "pdf": ', NEW_LABEL)
    content = tmp_path / "content"
    content.mkdir()
    for name, text in SOURCES.items():
        (content / name).write_text(text, encoding="utf-8")
    (content / "proceedings.yaml").write_text(
        "title: Series Test\ndate: 2026-01-02\nbase_url: https://example.org/p/\nauto_tags: never\n")
    result = subprocess.run([sys.executable, "-m", "generator", "build", "--content", str(content), "--out",
                             str(tmp_path / "site"), "--strict"], env={**os.environ, "PYTHONPATH": str(package)},
                            cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr  # --strict: no column left unknown
    site = tmp_path / "site"

    pages = {read_page(p).meta["uid"]: read_page(p).meta for p in (content / "papers").glob("*.md")}
    assert {uid: meta.get("series") for uid, meta in pages.items()} == {
        "c1": "Lecture Notes in Tables", "j1": "Lecture Notes in JSON", "b1": "Lecture Notes in Ökonomie"}
    assert list(pages["c1"]).index("series") < list(pages["c1"]).index("slides") < list(pages["c1"]).index("uid")
    records = {r["id"]: r for r in json.loads((site / "papers.json").read_text(encoding="utf-8"))}
    assert {r["title"]: (r.get("series"), r.get("slides")) for r in records.values()} == {
        "From a Table": ("Lecture Notes in Tables", "https://example.org/c1-slides.pdf"),
        "From JSON": ("Lecture Notes in JSON", "https://example.org/j1"),
        "From BibTeX": ("Lecture Notes in Ökonomie", None)}
    library = bibtexparser.parse_string((site / "proceedings.bib").read_text(encoding="utf-8"))
    assert sorted(entry["series"] for entry in library.entries) == [
        "Lecture Notes in JSON", "Lecture Notes in Tables", "Lecture Notes in Ökonomie"]
    page = next((site / "papers").glob("from-a-table*.html")).read_text(encoding="utf-8")
    assert '<p class="series">Lecture Notes in Tables</p>' in page
    assert '<meta name="citation_series_title" content="Lecture Notes in Tables">' in page
    assert re.search(r'<a href="https://example.org/c1-slides.pdf">Slides</a>', page)


def _insert_after(path: Path, marker: str, text: str, before: bool = False) -> None:
    """``text`` on its own lines after the line starting with ``marker`` (or before it)."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    [at] = [number for number, line in enumerate(lines) if line.startswith(marker)]
    lines.insert(at if before else at + 1, text)
    path.write_text("".join(lines), encoding="utf-8")
