"""End to end: the bundled proceedings build into a complete, clean site."""

import pytest
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

SEED_ABSTRACTS = 19


class _Page(HTMLParser):
    """Collects links, visible text (outside <math>) and the title of a page."""

    def __init__(self):
        super().__init__()
        self.links: list[str] = []
        self.text: list[str] = []
        self.math_depth = 0
        self.skip_depth = 0
        self.math_count = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in ("href", "src"):
            if attrs.get(name):
                self.links.append(attrs[name])
        if tag == "math":
            self.math_depth += 1
            self.math_count += 1
        if tag in ("script", "style"):
            self.skip_depth += 1

    def handle_endtag(self, tag):
        if tag == "math":
            self.math_depth -= 1
        if tag in ("script", "style"):
            self.skip_depth -= 1

    def handle_data(self, data):
        if not self.math_depth and not self.skip_depth:
            self.text.append(data)


def parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def html_files(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def test_one_page_per_seed_abstract(seed_site):
    assert len(list((seed_site / "papers").glob("*.html"))) == SEED_ABSTRACTS
    for name in ("index.html", "404.html", "tags/index.html", "papers.json", "assets/style.css", "assets/favicon.svg"):
        assert (seed_site / name).is_file(), name


def test_no_reader_sees_latex_markup(seed_site):
    markup = re.compile(r"\$|\\[A-Za-z]+|``|''|\\%")
    for path in html_files(seed_site):
        visible = " ".join(parse(path).text)
        found = markup.findall(visible)
        assert not found, f"{path.relative_to(seed_site)} shows LaTeX markup to readers: {found[:5]}"


def test_math_is_mathml(seed_site):
    pages = {p.stem: parse(p) for p in (seed_site / "papers").glob("*.html")}
    with_math = [name for name, page in pages.items() if page.math_count]
    # 10 of the 19 seed abstracts contain $…$ math.
    assert len(with_math) == 10, with_math


def test_every_internal_link_resolves(seed_site):
    for path in html_files(seed_site):
        if path.name == "404.html":
            continue  # its links start from the published path; checked separately
        for link in parse(path).links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith("#"):
                continue
            assert not link.startswith("/"), f"{path.relative_to(seed_site)}: absolute link {link}"
            target = (path.parent / unquote(parts.path)).resolve()
            assert target.is_file(), f"{path.relative_to(seed_site)} links to missing {link}"
            assert seed_site.resolve() in target.parents, f"{path}: link leaves the site: {link}"


def test_no_request_leaves_the_site(seed_site):
    for path in html_files(seed_site):
        for link in parse(path).links:
            parts = urlsplit(link)
            if parts.scheme in ("http", "https"):
                # Outbound links in abstracts are anchors a reader clicks, never loaded resources.
                assert 'src="' + link not in path.read_text(encoding="utf-8")
    for css in seed_site.rglob("*.css"):
        assert "url(http" not in css.read_text(encoding="utf-8")
        assert "@import" not in css.read_text(encoding="utf-8")


def test_papers_json_lists_every_paper(seed_site):
    papers = json.loads((seed_site / "papers.json").read_text(encoding="utf-8"))
    assert len(papers) == SEED_ABSTRACTS
    assert [p["order"] for p in papers] == list(range(1, SEED_ABSTRACTS + 1))
    for paper in papers:
        assert {"id", "title", "url", "tags", "abstract"} <= set(paper)
        assert (seed_site / paper["url"]).is_file()
        assert "$" not in paper["abstract"] and "\\" not in paper["abstract"]


def test_percent_sign_keeps_the_rest_of_the_sentence(seed_site):
    papers = json.loads((seed_site / "papers.json").read_text(encoding="utf-8"))
    mosaic = next(p for p in papers if "88.8%" in p["abstract"])
    assert "88.8% Acc@1 for spectra-to-structure task" in mosaic["abstract"]


def test_home_lists_every_paper_with_title_and_its_abstract_a_click_away(seed_site):
    from generator.publish.reading_list import file_of, is_plain_paragraph

    home = (seed_site / "index.html").read_text(encoding="utf-8")
    assert home.count('class="paper-item"') == SEED_ABSTRACTS
    assert "19 papers" in home
    # Each is marked as having an abstract, which reading-list.js opens in place from the paper's block.
    assert home.count('<li class="paper-item" data-abstract>') == SEED_ABSTRACTS
    papers = json.loads((seed_site / "papers.json").read_text(encoding="utf-8"))
    count = block_data(seed_site / "assets" / "reading" / "manifest.js")["files"]
    with_html = 0
    for paper in papers:
        record = block_data(seed_site / "assets" / "reading" / f"{file_of(paper['slug'], count)}.js")[paper["slug"]]
        assert record["p"] == paper["abstract"]
        page = (seed_site / paper["url"]).read_text(encoding="utf-8")
        shown = page.split('<h2 id="abstract-heading">Abstract</h2>\n', 1)[1].split("\n  </section>", 1)[0].strip()
        if "h" in record:  # its HTML only when more than the plain text in a paragraph: as its page shows it
            assert record["h"].strip() == shown and not is_plain_paragraph(record["h"], record["p"])
            with_html += 1
        else:
            assert is_plain_paragraph(shown + "\n", record["p"]), shown
    assert 0 < with_html < len(papers)
    assert "<p>" not in home.split('class="paper-list"', 1)[1].rsplit("</ol>", 1)[0]  # no abstract on the list
    assert not (seed_site / "assets" / "abstracts").exists()  # not written twice


def block_data(path):
    """The data a script under assets/reading/ hands to reading-list.js."""
    text = path.read_text(encoding="ascii")
    match = re.fullmatch(r'proceedingsReadingList\.arrived\("(\w+)",JSON\.parse\((".*")\)\);\n', text, re.S)
    return json.loads(json.loads(match.group(2)))


def test_paper_pages_link_previous_and_next(seed_site):
    papers = json.loads((seed_site / "papers.json").read_text(encoding="utf-8"))
    second = (seed_site / papers[1]["url"]).read_text(encoding="utf-8")
    assert f'href="../{papers[0]["url"]}"' in second
    assert f'href="../{papers[2]["url"]}"' in second


def test_404_uses_the_site_path(seed_site):
    page = (seed_site / "404.html").read_text(encoding="utf-8")
    assert 'href="/assets/style.css"' in page


def test_long_lists_paginate_and_every_link_still_resolves(seed_content, tmp_path, monkeypatch):
    """A topic's list past papers_per_page, and contents past CONTENTS_PAPERS (1,000: here 3): split by each
    paper's primary topic into contents/ pages, never numbered home pages."""
    from generator.commands.build import build
    from generator.reporter import Reporter

    monkeypatch.setattr("generator.render.contents.CONTENTS_PAPERS", 3)
    monkeypatch.setattr("generator.render.contents.PAGE_PAPERS", 3)
    config = seed_content / "proceedings.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("papers_per_page: 100", "papers_per_page: 3"),
                      encoding="utf-8")
    build(seed_content, tmp_path / "site", Reporter())
    site = tmp_path / "site"
    assert [p.name for p in site.glob("index*.html")] == ["index.html"]
    pages = sorted((site / "contents").glob("*.html"))
    assert len(pages) >= 7  # 19 papers, 3 a page at most
    assert sum(p.read_text(encoding="utf-8").count('class="paper-item"') for p in pages) == SEED_ABSTRACTS
    busiest = max((site / "tags").glob("*.html"), key=lambda p: p.stat().st_size)
    assert "page 1 of" in busiest.read_text(encoding="utf-8") or len(list((site / "tags").glob("*.2.html"))) > 0
    for path in html_files(site):
        if path.name == "404.html":
            continue
        for link in parse(path).links:
            parts = urlsplit(link)
            if not (parts.scheme or parts.netloc or link.startswith("#")):
                assert (path.parent / unquote(parts.path)).resolve().is_file(), f"{path.name} → {link}"


def test_long_abstracts_with_math_stay_off_the_one_contents_page(tmp_path):
    """A volume of long, math-heavy abstracts: its 150 papers are listed on one contents page, once each, in
    order; the abstracts are in the blocks the toggles open (publish/reading_list.py), and no page passes 100 KB."""
    from conftest import write_list
    from generator.commands.build import build
    from generator.reporter import Reporter

    content = tmp_path / "content"
    content.mkdir()
    formula = r"$\mathbb{E}_{x \sim p}\left[\sum_{i=1}^{n} \frac{\partial f_i(x)}{\partial x_j}\right] \le \sqrt{T}$"
    abstracts = [f"Paper {n} studies bound number {n}. " + " ".join([f"We show {formula} holds."] * 12)
                 for n in range(1, 151)]
    write_list(content / "heavy.txt", "Heavy Proceedings", abstracts)
    build(content, tmp_path / "site", Reporter())
    site = tmp_path / "site"
    homes = sorted(site.glob("index*.html"), key=lambda p: int(re.sub(r"\D", "", p.stem) or 1))
    assert [p.name for p in homes] == ["index.html"]
    assert "We show" not in homes[0].read_text(encoding="utf-8")  # the abstracts are not on the contents
    blocks = [block_data(p) for p in (site / "assets" / "reading").glob("r*.js")]
    shown = [record["h"] for block in blocks for record in block.values()]  # math: its HTML beside its text
    assert sum(html.count("Paper 150 studies") for html in shown) == 1
    sizes = {p.name: p.stat().st_size for p in site.rglob("*.html")}
    assert max(sizes.values()) < 100_000, max(sizes.items(), key=lambda item: item[1])
    listed, starts = [], []
    for home in homes:
        html = home.read_text(encoding="utf-8")
        starts.append(int(re.search(r'<ol class="paper-list" start="(\d+)"', html).group(1)))
        listed.append(re.findall(r'class="paper-item-title"[^>]*><a href="papers/([^"]+)\.html"', html))
    assert sum(map(len, listed)) == len({name for page in listed for name in page}) == 150
    assert starts == [1 + sum(map(len, listed[:number])) for number in range(len(homes))]


@pytest.mark.slow
def test_a_volume_of_1000_papers_is_one_contents_page_within_300_kb_gzip(tmp_path):
    """Every paper of a 1,000-paper volume on one contents page (title, authors, links, topics), as PMLR's
    and the ACL Anthology's volume pages list theirs, within 300 KB gzip (issue 29)."""
    import gzip

    from generator.commands.build import build
    from generator.reporter import Reporter

    fixture = Path(__file__).parent / "fixtures" / "corpus" / "abstracts.jsonl"
    base = [json.loads(line) for line in fixture.read_text(encoding="utf-8").split("\n") if line]
    content = tmp_path / "content"
    content.mkdir()
    records = [{**base[n % len(base)], "id": f"p{n}", "title": f"{base[n % len(base)]['title']}, part {n}",
                "abstract": f"{base[n % len(base)]['abstract']} Variant {n}."} for n in range(1000)]
    (content / "papers.jsonl").write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    reporter = Reporter()
    build(content, tmp_path / "site", reporter)
    assert not reporter.errors, reporter.errors
    site = tmp_path / "site"
    assert [p.name for p in site.glob("index*.html")] == ["index.html"]
    home = (site / "index.html").read_bytes()
    assert home.count(b'class="paper-item"') == 1000
    assert len(gzip.compress(home, 6)) <= 300_000, len(gzip.compress(home, 6))
