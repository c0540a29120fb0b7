"""Publishing: BibTeX, meta tags, the Atom feed, the sitemap and .nojekyll.

The first part tests generator.publish directly, on the bundled papers. The
second part ("in the built site") builds whole sites: it needs the
Publication wired into commands/build.py and render/html.py.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import os
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
from markupsafe import escape as html_escape

from generator.commands.build import build
from generator.pipeline.stages import Options, Pipeline
from generator.pipeline.sinks import NullSink
from generator.model.paper import RenderedPaper
from generator.publish import APA_PATH, BIB_PATH, CSL_PATH, FEED_PATH, NOJEKYLL, RIS_PATH, SITEMAP_PATH, Publication
from generator.publish.bibtex import BibTeX, escape
from generator.publish import feeds
from generator.publish.feeds import ATOM_NS, ROBOTS_PATH, SITEMAP_NS
from generator.publish.meta import paper_meta
from generator.model.volume import Volume, key_prefix
from generator.reporter import Reporter
from generator.render.html import SiteRenderer
from generator.render.site_info import SiteInfo
from generator.render.theme import Theme

MODS_PATH, ENW_PATH = "proceedings.mods.xml", "proceedings.enw"  # issue 42

HOSTILE = r'<script>alert(1)</script> & "quotes" 50% of {x} ~a^b #1 a_b \ $\alpha_{1}$'
BASE_URL = "https://org.github.io/proc/"
DATE = dt.date(2026, 12, 6)
A = {"a": ATOM_NS}


# -- helpers ------------------------------------------------------------------

def bibtexparser():
    try:
        import bibtexparser as parser
    except ImportError:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip("bibtexparser is not installed (python -m pip install -e '.[test]')")
    return parser


def parse_bib(text: str):
    library = bibtexparser().parse_string(text)
    assert not library.failed_blocks, [b.error for b in library.failed_blocks]
    return library.entries


def balanced(value: str) -> bool:
    depth = 0
    for char in value:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def set_title(content: Path, paper_id: str, title: str) -> Path:
    """Hand-edit a page's title, as the README says a user may."""
    for page in sorted((content / "papers").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        if re.search(rf"^id: '?{paper_id}'?$", text, re.MULTILINE):
            # A JSON string is a valid YAML double-quoted scalar: any title survives.
            text = re.sub(r"^title: .*$", lambda _: "title: " + json.dumps(title), text, count=1, flags=re.MULTILINE)
            page.write_text(text, encoding="utf-8")
            return page
    raise AssertionError(f"no page with id {paper_id}")


def set_config(content: Path, **values: str) -> None:
    with (content / "proceedings.yaml").open("a", encoding="utf-8") as config:
        config.writelines(f"\n{key}: {value}" for key, value in values.items())


def rendered(content: Path) -> tuple[list[RenderedPaper], Volume, object]:
    """The papers, Volume and Config a build would have, without writing a site."""
    run = Pipeline(content, NullSink(), Options(cache=False)).run(Reporter(), until="rendered")
    return run.rendered, run.project.volume, run.project.config


def published(content: Path, date: dt.date | None = DATE, base_url: str = BASE_URL, warn=None):
    papers, volume, config = rendered(content)
    config = dataclasses.replace(config, date=date, base_url=base_url)
    volume = dataclasses.replace(volume, date=date, base_url=base_url)
    site = SiteInfo(volume, len(papers))
    return Publication(papers, volume, config.macros, warn), papers, site, config


def by_id(papers: list[RenderedPaper], paper_id: str) -> RenderedPaper:
    return next(p for p in papers if p.paper.id == paper_id)


class Head(HTMLParser):
    """Meta tags, links and scripts of a page, and any inline script or handler."""

    def __init__(self):
        super().__init__()
        self.meta: dict[str, list[str]] = {}
        self.links: list[dict] = []
        self.scripts: list[dict] = []
        self.inline: list[str] = []
        self.data: list[str] = []  # JSON-LD: a data block, which a browser never runs (CSP's script-src is moot)
        self._in_script = False
        self._in_data = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.inline += [name for name in attributes if name.startswith("on")]
        if tag == "meta" and ("name" in attributes or "property" in attributes):
            # A tag may carry both (base.html: the description is og:description too): each reader reads its own.
            for key in filter(None, (attributes.get("name"), attributes.get("property"))):
                self.meta.setdefault(key, []).append(attributes.get("content"))
        elif tag == "link":
            self.links.append(attributes)
        elif tag == "script" and attributes.get("type") == "application/ld+json":
            self._in_data = True
        elif tag == "script":
            self.scripts.append(attributes)
            self._in_script = True

    def handle_endtag(self, tag):
        self._in_script = self._in_script and tag != "script"
        self._in_data = self._in_data and tag != "script"

    def handle_data(self, data):
        if self._in_data:
            self.data.append(data)
        elif self._in_script and data.strip():
            self.inline.append(data)


def head(html: str) -> Head:
    parser = Head()
    parser.feed(html)
    return parser


# -- BibTeX -------------------------------------------------------------------

@pytest.mark.parametrize("title, prefix", [
    ("NeurIPS 2026 论文列表", "neurips2026"),
    ("International Conference on Machine Learning 2026", "icml2026"),
    ("Proceedings of the Workshop on Graphs", "workshopgraphs"),
    ("研讨会", "paper"),
])
def test_key_prefix_is_short_and_ascii(title, prefix):
    assert key_prefix(title) == prefix


def test_citation_key_survives_a_title_edit(seed_content):
    before = published(seed_content)[0]
    set_title(seed_content, "7", "A completely different title")
    after, papers, _, _ = published(seed_content)
    assert by_id(papers, "7").title_plain == "A completely different title"
    assert before.bibtex["7"].splitlines()[0] == after.bibtex["7"].splitlines()[0] == "@inproceedings{neurips2026-7,"


def test_entry_fields(seed_content):
    publication, papers, _, _ = published(seed_content)
    paper = by_id(papers, "1")
    (entry,) = parse_bib(publication.bibtex["1"])
    fields = {name: field.value for name, field in entry.fields_dict.items()}
    assert entry.entry_type == "inproceedings" and entry.key == "neurips2026-1"
    assert fields["title"] == "{2RDM}: 2-datapoint reduced density matrix"
    assert fields["year"] == "2026"
    assert fields["url"] == BASE_URL + paper.url
    assert "author" not in fields  # papers have no authors yet: none is made up


def test_entry_leaves_out_what_is_unknown(seed_content):
    publication, _, _, _ = published(seed_content, date=None, base_url="")
    (entry,) = parse_bib(publication.bibtex["1"])
    assert set(entry.fields_dict) == {"title", "booktitle"}


def test_hostile_title_is_escaped_for_bibtex(seed_content):
    set_title(seed_content, "3", HOSTILE)
    publication, _, _, _ = published(seed_content)
    (entry,) = parse_bib(publication.bibtex["3"])
    title = entry.fields_dict["title"].value
    assert balanced(title)
    assert "{$\\alpha_{1}$}" in title, "math stays LaTeX, braced against case changes"
    text = re.sub(r"\{\$.*?\$\}", "", title)
    assert not re.search(r"(?<!\\)[&%$#_]", text), title
    # The title's text is what the page shows (the renderer reads `a_b` or `~` its own way);
    # whatever it holds comes out escaped.
    for special in ("\\&", "\\%", "\\#", "\\textbraceleft{}x\\textbraceright{}"):
        assert special in text, (special, title)


def test_site_macros_are_expanded_in_bibtex(seed_content):
    # The bundled config defines \dVC; a reader's LaTeX would not know it.
    set_title(seed_content, "10", r"Bounds on $\dVC$ and $d_{\mathrm{VC}}$")
    publication, _, _, _ = published(seed_content)
    title = publication.bibtex["10"].splitlines()[1]
    assert title == "  title = {Bounds on {$d_{\\mathrm{VC}}$} and {$d_{\\mathrm{VC}}$}},"


def test_unbalanced_math_is_written_as_text():
    writer = BibTeX(Volume("T"))
    assert balanced(writer.title(r"Odd $\left\{ x$ set"))


def test_escape_covers_every_special():
    assert escape("&%$#_{}~^\\") == ("\\&\\%\\$\\#\\_\\textbraceleft{}\\textbraceright{}"
                                    "\\textasciitilde{}\\textasciicircum{}\\textbackslash{}")


@pytest.mark.parametrize("text", ["&%$#_{}~^\\", "}{", "{{{", "a}b{c"])
def test_escape_always_balances(text):
    assert balanced(escape(text))


def test_volume_bib_has_one_entry_per_paper(seed_content):
    publication, papers, _, _ = published(seed_content)
    entries = parse_bib(publication.files([])[BIB_PATH].decode("utf-8"))
    assert [e.key for e in entries] == [f"neurips2026-{p.paper.id}" for p in papers]
    assert len(entries) == 19


# -- meta tags ----------------------------------------------------------------

def test_meta_tags_with_date_and_base_url(seed_content):
    publication, papers, _, _ = published(seed_content)
    paper = by_id(papers, "1")
    reference = publication.references[paper.paper.id]
    tags = {(t.attribute, t.key): t.content for t in paper_meta(reference, publication.volume)}
    assert tags[("name", "citation_title")] == paper.title_plain
    assert tags[("name", "citation_conference_title")] == "NeurIPS 2026 论文列表"
    assert tags[("name", "citation_publication_date")] == "2026/12/06"
    assert tags[("name", "citation_abstract_html_url")] == BASE_URL + paper.url
    assert tags[("property", "og:type")] == "article"
    assert tags[("property", "og:url")] == BASE_URL + paper.url
    assert ("name", "citation_author") not in tags and ("name", "citation_pdf_url") not in tags


def test_meta_tags_without_date_or_base_url(seed_content):
    publication, papers, _, _ = published(seed_content, date=None, base_url="")
    keys = {t.key for t in paper_meta(publication.references[papers[0].paper.id], publication.volume)}
    assert keys == {"citation_title", "citation_conference_title", "og:type", "og:title", "og:site_name"}


def test_paper_template_escapes_every_value(seed_content):
    """paper.html with the Publication's context, rendered as render/html.py renders it."""
    set_title(seed_content, "3", HOSTILE)
    publication, papers, site, config = published(seed_content)
    renderer = SiteRenderer(Theme.for_content(seed_content), config, site)
    renderer.outputs(papers)  # installs the tag_url filter
    renderer.env.globals.update(publication.template_globals())
    paper = by_id(papers, "3")
    html = renderer.render("paper.html", "../", paper=paper, previous=None, next=None,
                           **publication.paper_context(paper)).decode("utf-8")
    assert "<script>alert" not in html
    page = head(html)
    assert page.meta["citation_title"] == [paper.title_plain]
    assert page.meta["og:title"] == [paper.title_plain]
    assert page.meta["og:description"] == page.meta["description"] and len(page.meta["description"]) == 1
    assert html.count(f'content="{html_escape(page.meta["description"][0])}"') == 1, "one tag for both"
    assert not page.inline, "no inline script or event handler (CSP: script-src 'self')"
    [data] = page.data  # the JSON-LD holds the hostile title as data: no "<" can end its script
    assert "<" not in data and json.loads(data)["name"] == paper.title_plain
    assert {"src": "../assets/cite.js", "defer": None} in page.scripts
    assert any(link.get("type") == "application/atom+xml" and link["href"] == "../feed.xml" for link in page.links)


# -- feed, sitemap, files -----------------------------------------------------

def test_without_a_date_no_feed_and_a_warning_when_publishing(seed_content):
    warnings = []
    publication, _, _, _ = published(seed_content, date=None, warn=lambda message, path, **_: warnings.append(path))
    files = publication.files(["index.html"])
    assert FEED_PATH not in files and publication.template_globals() == {"feed_url": ""}
    assert warnings == ["proceedings.yaml"]
    assert files[NOJEKYLL] == b""
    published(seed_content, date=None, base_url="", warn=lambda message, path, **_: warnings.append(path))
    assert warnings == ["proceedings.yaml"], "a local preview (no base URL) is not warned"


def test_feed_parses_and_is_dated_from_the_config(seed_content):
    publication, papers, _, _ = published(seed_content)
    feed = ET.fromstring(publication.files([])[FEED_PATH])
    assert feed.tag == f"{{{ATOM_NS}}}feed"
    assert feed.findtext("a:updated", namespaces=A) == "2026-12-06T00:00:00Z"
    assert feed.find("a:author/a:name", A) is not None, "Atom needs an author"
    assert feed.find("a:link[@rel='self']", A).get("href") == BASE_URL + FEED_PATH
    entries = feed.findall("a:entry", A)
    assert len(entries) == len(papers) == 19
    ids = [e.findtext("a:id", namespaces=A) for e in entries]
    assert len(set(ids)) == 19 and all(i.startswith("urn:uuid:") for i in ids)
    for entry, paper in zip(entries, papers):
        assert entry.findtext("a:title", namespaces=A) == paper.title_plain
        assert entry.findtext("a:summary", namespaces=A) == paper.abstract_plain
        assert entry.findtext("a:updated", namespaces=A) == "2026-12-06T00:00:00Z"
        assert entry.find("a:link", A).get("href") == BASE_URL + paper.url


def test_a_feed_holds_the_first_papers_of_a_big_volume(seed_content, monkeypatch):
    """A feed client fetches the whole feed at every poll: past FEED_ENTRIES papers it holds the first ones."""
    monkeypatch.setattr(feeds, "FEED_ENTRIES", 5)
    publication, papers, _, _ = published(seed_content)
    entries = ET.fromstring(publication.files([])[FEED_PATH]).findall("a:entry", A)
    assert [e.find("a:link", A).get("href") for e in entries] == [BASE_URL + p.url for p in papers[:5]]


def test_feed_ids_survive_title_edits_and_moves(seed_content):
    def entry_ids(publication):
        feed = ET.fromstring(publication.files([])[FEED_PATH])
        return [e.findtext("a:id", namespaces=A) for e in feed.findall("a:entry", A)]

    before = entry_ids(published(seed_content)[0])
    set_title(seed_content, "5", "Renamed")
    assert entry_ids(published(seed_content, base_url="https://example.org/")[0]) == before


def test_feed_without_base_url_links_relatively(seed_content):
    publication, papers, _, _ = published(seed_content, base_url="")
    feed = ET.fromstring(publication.files([])[FEED_PATH])
    assert feed.find("a:link[@rel='self']", A) is None
    assert feed.find("a:entry/a:link", A).get("href") == papers[0].url


def test_sitemap_only_with_a_base_url(seed_content):
    publication, papers, _, _ = published(seed_content)
    paths = ["index.html", "404.html", "papers.json", *(p.url for p in papers)]
    urlset = ET.fromstring(publication.files(paths)[SITEMAP_PATH])
    locs = [u.findtext(f"{{{SITEMAP_NS}}}loc") for u in urlset]
    assert sorted(locs) == sorted(BASE_URL + p for p in paths if p.endswith(".html") and p != "404.html")
    without, _, _, _ = published(seed_content, base_url="")
    assert SITEMAP_PATH not in without.files(paths)


def test_each_volume_file_is_made_alone_when_asked_for(seed_content, monkeypatch):
    """Not every whole-volume file at once: at 50,000 papers they are 150 MB together (issue 29)."""
    import generator.publish as publish
    from generator.publish.formats import FileLayout

    publication, _, _, _ = published(seed_content)
    made = []
    chunks = FileLayout.chunks  # (each file made in pieces: a paper at a time)
    monkeypatch.setattr(FileLayout, "chunks", lambda layout, texts: made.append(layout) or chunks(layout, texts))
    for name in ("atom_feed", "volume_sitemaps"):
        real = getattr(publish, name)
        monkeypatch.setattr(publish, name, lambda *a, real=real, name=name: made.append(name) or real(*a))
    makers = publication.file_makers(["index.html"])
    assert list(makers) == publication.file_names(["index.html"]) and made == []
    ris = next(f for f in publication.formats if f.path == RIS_PATH)
    assert makers[RIS_PATH]().startswith(b"TY  - CPAPER") and made == [ris.layout]
    assert {name: make() for name, make in makers.items()} == publication.files(["index.html"])
    assert [f.path for f in publication.formats] == [BIB_PATH, RIS_PATH, CSL_PATH, MODS_PATH, ENW_PATH, APA_PATH]


def test_publishing_files_are_the_same_every_time(seed_content):
    first = published(seed_content)[0].files(["index.html"])
    second = published(seed_content)[0].files(["index.html"])
    assert first == second and set(first) == {NOJEKYLL, BIB_PATH, RIS_PATH, CSL_PATH, MODS_PATH, ENW_PATH, APA_PATH,
                                              FEED_PATH, SITEMAP_PATH, ROBOTS_PATH}
    # robots.txt names the sitemap at its absolute address: a crawler reads no relative one.
    sitemap = published(seed_content)[0].volume.link(SITEMAP_PATH)
    assert sitemap.startswith("https://")
    assert first[ROBOTS_PATH].decode().splitlines() == ["User-agent: *", "Allow: /", "", f"Sitemap: {sitemap}"]


# -- in the built site (needs the Publication wired into commands/build.py and render/html.py) --

def built(content: Path, out: Path, base_url: str | None = None) -> tuple[Path, Reporter]:
    reporter = Reporter()
    build(content, out, reporter, base_url=base_url)
    assert not reporter.errors, reporter.errors
    return out, reporter


def test_site_has_nojekyll_and_the_volume_bib(seed_site):
    assert (seed_site / NOJEKYLL).is_file()
    entries = parse_bib((seed_site / BIB_PATH).read_text(encoding="utf-8"))
    assert len(entries) == 19


def test_bundled_site_builds_without_a_feed_and_says_why(seed_content, tmp_path):
    site, reporter = built(seed_content, tmp_path / "site")
    assert not (site / FEED_PATH).exists() and not (site / SITEMAP_PATH).exists()
    assert not reporter.warnings, "a local build is not warned about the feed"
    assert "application/atom+xml" not in (site / "index.html").read_text(encoding="utf-8")
    site, reporter = built(seed_content, tmp_path / "published", base_url=BASE_URL)
    assert not (site / FEED_PATH).exists() and (site / SITEMAP_PATH).exists()
    assert [w.path for w in reporter.warnings if "feed.xml" in w.message] == ["proceedings.yaml"]


def test_dated_site_with_base_url_has_feed_sitemap_and_links(seed_content, tmp_path):
    set_config(seed_content, date=DATE.isoformat())
    site, reporter = built(seed_content, tmp_path / "site", base_url=BASE_URL)
    assert not any("feed.xml" in w.message for w in reporter.warnings)
    entries = ET.parse(site / FEED_PATH).getroot().findall("a:entry", A)
    assert len(entries) == 19
    locs = [u.findtext(f"{{{SITEMAP_NS}}}loc") for u in ET.parse(site / SITEMAP_PATH).getroot()]
    assert BASE_URL + "index.html" in locs and all(loc.startswith(BASE_URL) for loc in locs)
    for page, root in (("index.html", ""), ("tags/index.html", "../")):
        links = head((site / page).read_text(encoding="utf-8")).links
        assert {"rel": "alternate", "type": "application/atom+xml", "href": root + FEED_PATH,
                "title": "NeurIPS 2026 论文列表"} in links


def test_paper_pages_cite_and_relate(seed_content, tmp_path):
    set_config(seed_content, date=DATE.isoformat())
    site, _ = built(seed_content, tmp_path / "site", base_url=BASE_URL)
    for path in sorted((site / "papers").glob("*.html")):
        html = path.read_text(encoding="utf-8")
        page = head(html)
        assert page.meta["citation_title"] and page.meta["citation_publication_date"] == ["2026/12/06"]
        assert page.meta["og:url"] == [BASE_URL + "papers/" + path.name]
        assert not page.inline
        assert '<pre class="bibtex" id="bibtex"' in html and '<script src="../assets/cite.js" defer>' in html
        related = re.findall(r'<li><a href="\.\./(papers/[^"]+)">', html.split('class="related-list"')[1])
        assert 1 <= len(related) <= 5 and f"papers/{path.name}" not in related
        assert all((site / link).is_file() for link in related)


def test_hostile_title_is_escaped_in_the_page(seed_content, tmp_path):
    page_file = set_title(seed_content, "3", HOSTILE)
    site, _ = built(seed_content, tmp_path / "site", base_url=BASE_URL)
    slug = re.search(r"^slug: (\S+)$", page_file.read_text(encoding="utf-8"), re.MULTILINE).group(1)
    html = (site / "papers" / f"{slug}.html").read_text(encoding="utf-8")
    assert "<script>alert" not in html
    assert 'content="&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#34;quotes&#34;' in html
    entries = parse_bib((site / BIB_PATH).read_text(encoding="utf-8"))
    assert all(balanced(e.fields_dict["title"].value) for e in entries)


def test_builds_are_byte_identical(seed_content, tmp_path):
    set_config(seed_content, date=DATE.isoformat())
    first, _ = built(seed_content, tmp_path / "one", base_url=BASE_URL)
    second, _ = built(seed_content, tmp_path / "two", base_url=BASE_URL)

    def files(root: Path) -> dict[str, bytes]:
        return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}

    assert files(first) == files(second)


def test_a_known_topic_is_not_slugified_again(seed_content, monkeypatch):
    """tag_url looks a topic up: slugifying every name (found or not) was half a big contents page's time."""
    _, papers, site, config = published(seed_content)
    renderer = SiteRenderer(Theme.for_content(seed_content), config, site)
    renderer.outputs(papers)
    name = papers[0].paper.tags[0]
    template = renderer.env.from_string("{{ name | tag_url }}")
    monkeypatch.setattr("generator.render.filters.slugify", lambda text: pytest.fail(f"slugified {text!r}"))
    assert template.render(name=name.upper(), **renderer.shared) == renderer.shared["tag_urls"][name.casefold()]


@pytest.mark.slow  # the sitemaps of 100,000 addresses
def test_past_50000_addresses_the_sitemap_is_an_index_of_sitemaps_the_series_names_directly():
    import xml.etree.ElementTree as ET

    from generator.publish.feeds import volume_sitemap_names, volume_sitemaps
    from generator.series.layout import SeriesVolume, leaf_sitemaps
    from generator.series.pages import series_sitemaps
    from generator.model.volume import Volume

    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    volume = Volume("Big", base_url="https://example.org/big/")
    paths = [f"papers/p{n}.html" for n in range(100_001)] + ["404.html", "papers.json"]
    files = volume_sitemaps(paths, volume)
    assert list(files) == volume_sitemap_names(paths) == ["sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml",
                                                          "sitemap.xml"]
    counts = [len(ET.fromstring(files[f"sitemap-{n}.xml"]).findall("s:url", ns)) for n in (1, 2, 3)]
    assert counts == [50_000, 50_000, 1]  # 404.html and papers.json are not pages of the sitemap
    index = [loc.text for loc in ET.fromstring(files["sitemap.xml"]).findall("s:sitemap/s:loc", ns)]
    assert index == [f"https://example.org/big/sitemap-{n}.xml" for n in (1, 2, 3)]
    small = volume_sitemaps(["index.html"], volume)
    assert list(small) == ["sitemap.xml"] and b"<urlset" in small["sitemap.xml"]
    # A sitemap index may not name another index: the series names the volume's sitemaps of pages.
    assert leaf_sitemaps(files) == ("sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml")
    series = Volume("Series", base_url="https://example.org/")
    big = SeriesVolume("big", volume, (), "", leaf_sitemaps(files))
    small_one = SeriesVolume("small", volume, (), "", leaf_sitemaps(small))
    made = series_sitemaps(series, [big, small_one], ["index.html"])
    named = [loc.text for loc in ET.fromstring(made["sitemap.xml"]).findall("s:sitemap/s:loc", ns)]
    assert named == ["https://example.org/sitemap-archive.xml", "https://example.org/big/sitemap-1.xml",
                     "https://example.org/big/sitemap-2.xml", "https://example.org/big/sitemap-3.xml",
                     "https://example.org/small/sitemap.xml"]


def test_a_publication_that_keeps_few_citations_writes_what_one_that_keeps_all_does(seed_content):
    """A template worker keeps its last pages' citations only, and so does a large build once its whole-volume
    files are made (Publication.keep_few, pipeline/shares.py): every text is the same."""
    every, papers, _, _ = published(seed_content)
    few, _, _, _ = published(seed_content)
    worker = Publication(papers, few.volume, kept=2)
    few.keep_few(2)
    assert few.files([]) == every.files([])  # each citation file reads every paper's in turn
    assert len(few.references) <= 2
    for publication in (few, worker):
        for paper in papers * 2:  # each page, and again: made again once let go
            assert publication.paper_context(paper) == every.paper_context(paper)
            for citation in every.formats:
                assert publication.pieces(citation, paper.paper.id) == every.pieces(citation, paper.paper.id)
            assert len(publication.references) <= 2
    assert len(every.references) == len(papers) > 2
