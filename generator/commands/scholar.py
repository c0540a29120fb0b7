"""`check`'s indexability doctor: a built site against Google Scholar's inclusion guidelines.

It reads what Scholar reads — the built pages' ``citation_*`` tags, their visible abstract, the sitemap and
``robots.txt`` — not the model, so that a theme that drops a tag is caught too. The model only says which
pages are papers and where a finding's fix goes (the page file and line). A head is matched with regular
expressions rather than parsed whole: reading a page's head costs little beside parsing the page.

A rule that fails on every page for a reason of the volume's (no date, no title) is said once, naming
``proceedings.yaml``; the others name each paper's page file.
"""

from __future__ import annotations

import functools
import hashlib
import html
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote, urlsplit

from generator.reporter import Reporter
from generator.content.pages import PAGES_DIR, PageDoc
from generator.model.config import CONFIG_NAME
from generator.model.details import is_web_link
from generator.model.paper import RenderedPaper
from generator.publish.feeds import ROBOTS_PATH, SITEMAP_LIMIT, SITEMAP_PATH
from generator.render.files import linked_file
from generator import diagnostics as codes

PDF_READ_BYTES = 64 * 1024 * 1024  # a PDF's title is looked for in files up to this size
SITEMAP_BYTES = 50 * 1024 * 1024  # what one sitemap may weigh, uncompressed, as the protocol allows
# A citation tag, name before content (as paper.html writes them) or after it.
_META = re.compile(r'<meta\s+name="(citation_\w+)"\s+content="([^"]*)"')
_META_AFTER = re.compile(r'<meta\s+content="([^"]*)"\s+name="(citation_\w+)"')
_DATE = re.compile(r"[0-9]{4}(?:/[0-9]{2}/[0-9]{2})?")
# Where the abstract ends: the page is parsed up to there, not further (a long page's lists aside).
_ABSTRACT_END = re.compile(r'<section\b[^>]*\bclass="[^"]*\babstract\b.*?</section>', re.DOTALL)
_LOC = re.compile(r"<loc>([^<]*)</loc>")
# Hosts whose addresses answer with a redirect: Scholar wants the PDF's own address.
REDIRECTING = frozenset({"doi.org", "dx.doi.org", "hdl.handle.net", "bit.ly", "tinyurl.com"})


@dataclass(frozen=True)
class Finding:
    rule: str
    problem: str
    fix: str


def scholar_check(site: Path, prefix: str, papers: Sequence[RenderedPaper], docs: dict[Path, PageDoc],
                  content_dir: Path, reporter: Reporter) -> int:
    """Every paper page of the volume built at ``site/prefix`` against Scholar's rules, each finding a
    warning naming the page file; the number of findings."""
    volume_dir = site / prefix if prefix else site
    if not (volume_dir / "index.html").is_file():
        reporter.info(f"no built site at {volume_dir}: build it, then check it against Google Scholar's rules")
        return 0
    sitemaps = read_sitemaps(volume_dir)
    by_rule: dict[str, list[tuple[RenderedPaper, Finding]]] = {}
    for paper in papers:
        for finding in page_findings(volume_dir, paper, sitemaps, prefix):
            by_rule.setdefault(finding.rule, []).append((paper, finding))
    count = 0
    for rule, found in by_rule.items():
        if rule in VOLUME_RULES and len(found) == len(papers) > 1:
            finding = found[0][1]
            reporter.warn(f"Google Scholar: {finding.problem}, on all {len(papers)} paper pages: {finding.fix}",
                          CONFIG_NAME, code=codes.SCHOLAR_RULE, subject=rule)
            count += 1
            continue
        for paper, finding in found:
            reporter.warn(f"Google Scholar: {finding.problem}: {finding.fix}", *where(paper, docs, finding.rule),
                          code=codes.SCHOLAR_RULE, paper=paper.paper.id, subject=finding.rule)
            count += 1
    count += pdf_findings(papers, docs, content_dir, reporter)
    for problem in sitemaps.too_big if sitemaps is not None else ():
        reporter.warn(f"Google Scholar: {problem}: build again (a build splits a sitemap past them)", CONFIG_NAME,
                      code=codes.SCHOLAR_SITEMAP)
        count += 1
    if sitemaps is None:
        reporter.warn("Google Scholar: the site has no sitemap.xml, so Scholar may not find every paper: set "
                      "`base_url` in proceedings.yaml (or build with --base-url)", CONFIG_NAME,
                      code=codes.SCHOLAR_SITEMAP)
        count += 1
    return count


# Rules whose cause is the volume's when every page fails them.
VOLUME_RULES = frozenset({"citation_publication_date", "citation_conference_title", "sitemap"})
# The front matter key a rule's fix goes to.
_RULE_KEYS = {"citation_title": "title", "citation_author": "authors", "citation_pdf_url": "pdf",
              "abstract": "title", "one paper per page": "title"}


def where(paper: RenderedPaper, docs: dict[Path, PageDoc], rule: str) -> tuple[str, int | None]:
    doc = docs.get(paper.paper.path)
    line = doc.lines.get(_RULE_KEYS.get(rule, "title")) or doc.lines.get("title") if doc is not None else None
    return f"{PAGES_DIR}/{paper.paper.path.name}", line


def page_findings(volume_dir: Path, paper: RenderedPaper, sitemaps: Sitemaps | None, prefix: str) -> list[Finding]:
    path = volume_dir / paper.url
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return [Finding("page", f"{paper.url} is not in the built site", "build the site again")]
    head, _, body = text.partition("</head>")
    tags = meta_tags(head)
    found = list(tag_findings(tags, paper))
    found += abstract_findings(body, paper)
    # The page's own address is what the sitemap must hold; without one, a sitemap address ending in its path.
    address = tags.get("citation_abstract_html_url")
    if sitemaps is not None and not (address[0] in sitemaps.locs if address else sitemaps.ends_with(
            _site_path(prefix, paper.url))):
        found.append(Finding("sitemap", f"{paper.url} is not in sitemap.xml",
                             "build again with the same base URL, so the sitemap lists every paper"))
    return found


def meta_tags(head: str) -> dict[str, list[str]]:
    """Each ``<meta name=… content=…>`` of a page's head: name → its contents, in order."""
    tags: dict[str, list[str]] = {}
    pairs = _META.findall(head) + [(name, content) for content, name in _META_AFTER.findall(head)]
    for name, content in pairs:
        tags.setdefault(name, []).append(html.unescape(content))
    return tags


def tag_findings(tags: dict[str, list[str]], paper: RenderedPaper) -> Iterable[Finding]:
    titles = tags.get("citation_title", [])
    if not titles or not titles[0].strip():
        yield Finding("citation_title", "no citation_title", "give the paper a `title`")
    elif len(titles) > 1:
        yield Finding("one paper per page", f"{len(titles)} citation_title tags (one paper per page)",
                      "a page may describe one paper only: check the theme's paper.html")
    if not any(name.strip() for name in tags.get("citation_author", [])):
        yield Finding("citation_author", "no citation_author",
                      "add the paper's `authors` to its page (or to its source)")
    dates = tags.get("citation_publication_date", [])
    if not dates:
        yield Finding("citation_publication_date", "no citation_publication_date",
                      "add `date: YYYY-MM-DD` (the proceedings' date) to proceedings.yaml, or a `year` to the papers")
    elif not _DATE.fullmatch(dates[0]):
        yield Finding("citation_publication_date", f"citation_publication_date {dates[0]!r} is not YYYY/MM/DD or "
                      "YYYY", "write the date as `date: YYYY-MM-DD` in proceedings.yaml, or a `year` of four digits")
    online = tags.get("citation_online_date", [])
    if online and dates and online[0] == dates[0]:
        yield Finding("citation_online_date", "citation_online_date is the publication date",
                      "give citation_online_date only when the paper was online before it was published")
    if not (tags.get("citation_conference_title") or tags.get("citation_journal_title")):
        yield Finding("citation_conference_title", "no citation_conference_title or citation_journal_title",
                      "give the proceedings a `title` in proceedings.yaml")
    yield from pdf_url_findings(tags, paper)


def pdf_url_findings(tags: dict[str, list[str]], paper: RenderedPaper) -> Iterable[Finding]:
    pdfs, pages = tags.get("citation_pdf_url", []), tags.get("citation_abstract_html_url", [])
    if not pdfs:
        return
    pdf = urlsplit(pdfs[0])
    page = urlsplit(pages[0]) if pages else None
    local = bool(paper.details.pdf) and not is_web_link(paper.details.pdf)
    if local:
        folder = page.path.rsplit("/", 1)[0] + "/" if page is not None else ""
        if page is not None and not pdf.path.startswith(folder):
            yield Finding("citation_pdf_url", f"the PDF ({paper.details.pdf}) is not in the folder of the paper's "
                          "page", f"put the PDF in the content folder's {PAGES_DIR}/ and set "
                          f"`pdf: {PAGES_DIR}/{paper.slug}.pdf` (Scholar looks for it beside the abstract)")
        return
    if pdf.hostname in REDIRECTING:
        yield Finding("citation_pdf_url", f"the PDF's address {pdfs[0]} redirects",
                      "give the PDF's own address (where the redirect leads), not a DOI or short link")
    elif page is not None and pdf.hostname != page.hostname:
        yield Finding("citation_pdf_url", f"the PDF is on another host ({pdf.hostname})",
                      "Scholar indexes a PDF on the page's own host best: copy it into the content folder and "
                      "link it by its path")
    elif page is not None and pdf.scheme == "http" and page.scheme == "https":
        yield Finding("citation_pdf_url", f"the PDF's address {pdfs[0]} is http, which redirects to https",
                      "write its https:// address")


def abstract_findings(body: str, paper: RenderedPaper) -> list[Finding]:
    """The whole abstract is on the page as a reader sees it: not behind a click (``<details>``), nor hidden
    (``hidden``, ``display:none``, ``visibility:hidden``, a ``<template>``, a comment, a script)."""
    if not paper.abstract_plain.strip():
        return [Finding("abstract", "the paper has no abstract", "add its abstract below the page's front matter")]
    shown = _VisibleAbstract.of(body)
    # Letters shown against letters written (spacing aside): a loose measure, as math is shown as MathML.
    if shown is None or _letters(html.unescape(shown)) < 0.9 * _letters(paper.abstract_plain):
        return [Finding("abstract", "the full abstract is not visible on the page",
                        "show the whole abstract in paper.html, outside any <details>, hidden element or script")]
    return []


class _VisibleAbstract(HTMLParser):
    """The text of the page's ``<section class="abstract">`` that a reader sees; None without one."""

    _HIDING_TAGS = frozenset(("details", "template", "script", "style", "noscript"))
    _VOID = frozenset(("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
                       "track", "wbr"))

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool, bool]] = []  # (tag, hides, is the abstract)
        self.text: list[str] | None = None

    @classmethod
    def of(cls, body: str) -> str | None:
        parser = cls()
        end = _ABSTRACT_END.search(body)
        parser.feed(body[: end.end()] if end else body)
        parser.close()
        return None if parser.text is None else "".join(parser.text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._VOID:
            return
        values = dict(attrs)
        style = re.sub(r"\s+", "", (values.get("style") or "").lower())
        hides = (tag in self._HIDING_TAGS or "hidden" in values or values.get("aria-hidden") == "true"
                 or "display:none" in style or "visibility:hidden" in style)
        abstract = tag == "section" and "abstract" in (values.get("class") or "").split() and self.text is None
        if abstract:
            self.text = []
        self.stack.append((tag, hides, abstract))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:  # close what a missing end tag left open
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        inside = any(abstract for _, _, abstract in self.stack)
        if inside and self.text is not None and not any(hides for _, hides, _ in self.stack):
            self.text.append(data)


def _letters(text: str) -> int:
    return len(text) - sum(text.count(space) for space in " \n\t")


@dataclass
class Sitemaps:
    """What a volume's sitemaps list, and those of them past the protocol's limits."""

    locs: set[str]
    too_big: list[str]

    @functools.cached_property
    def paths(self) -> set[str]:
        return {urlsplit(loc).path for loc in self.locs}

    def ends_with(self, path: str) -> bool:
        return any(known.endswith(path) for known in self.paths)


def read_sitemaps(volume_dir: Path) -> Sitemaps | None:
    """The addresses the volume's sitemap lists, following an index to the sitemaps beside it; None when
    there is no sitemap."""
    top = volume_dir / SITEMAP_PATH
    if not top.is_file():
        return None
    found = Sitemaps(set(), [])
    for loc in _locs(top, found):
        if loc.endswith(".xml"):  # an index
            found.locs.update(_locs(volume_dir / loc.rsplit("/", 1)[-1], found))
        else:
            found.locs.add(loc)
    return found


def _locs(path: Path, found: Sitemaps) -> list[str]:
    """The addresses a sitemap holds (its ``<loc>``s, as our sitemaps write them); a sitemap past 50,000 of
    them or 50 MB goes into ``found.too_big``."""
    try:
        data = path.read_bytes()
    except OSError:
        return []
    locs = [html.unescape(loc.strip()) for loc in _LOC.findall(data.decode("utf-8", "replace"))]
    if len(data) > SITEMAP_BYTES or len(locs) > SITEMAP_LIMIT:
        found.too_big.append(f"{path.name} holds {len(locs):,} addresses in {len(data):,} bytes, past the 50,000 "
                             "or 50 MB a sitemap may hold")
    return locs


def _site_path(prefix: str, url: str) -> str:
    """How a sitemap's address ends for a page of the volume: ``/2025/papers/x.html``, encoded."""
    return quote(f"/{prefix}/{url}" if prefix else f"/{url}", safe="/")


def robots_findings(site: Path) -> list[str]:
    """``robots.txt`` at the site's root lets every crawler in and names the sitemap (when there is one)."""
    path = site / ROBOTS_PATH
    if not path.is_file():
        return ["the site has no robots.txt: build it again (a build writes one)"]
    text = path.read_text(encoding="utf-8", errors="replace")
    problems = []
    agent = ""
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key, value = key.strip().lower(), value.strip()
        if key == "user-agent":
            agent = value.lower()
        elif key == "disallow" and value == "/" and agent in ("*", "googlebot", "googlebot-scholar"):
            problems.append(f"robots.txt disallows every page to {agent}: Scholar cannot crawl the site")
    if (site / SITEMAP_PATH).is_file() and not re.search(r"(?im)^sitemap:\s*\S", text):
        problems.append("robots.txt does not name the sitemap: add a line `Sitemap: <its address>`")
    return problems


def pdf_findings(papers: Sequence[RenderedPaper], docs: dict[Path, PageDoc], content_dir: Path,
                 reporter: Reporter) -> int:
    """Local PDFs (published from the content folder): no two papers share one (by its bytes' digest)."""
    owners: dict[str, RenderedPaper] = {}
    count = 0
    for paper in papers:
        link = paper.details.pdf
        if not link or is_web_link(link):
            continue
        path = linked_file(content_dir.resolve(), link)
        if path is None:
            continue  # the build already warns of a PDF it does not publish
        try:
            key, data = _digest_and_head(path)
        except OSError:
            continue
        if key in owners:
            other = owners[key]
            reporter.warn(f"Google Scholar: the PDF {link} is the same file as the PDF of "
                          f"{PAGES_DIR}/{other.paper.path.name} ({other.details.pdf}): give each paper its own",
                          *where(paper, docs, "citation_pdf_url"), code=codes.SCHOLAR_PDF_SHARED, paper=paper.paper.id,
                          value=str(link))
            count += 1
        else:
            owners[key] = paper
        if len(data) <= PDF_READ_BYTES:  # a larger file is digested, not parsed: pypdf holds it whole
            count += title_finding(paper, data, docs, reporter)
    return count


def _digest_and_head(path: Path) -> tuple[str, bytes]:
    """A file's SHA-256, read a block at a time, and its first ``PDF_READ_BYTES`` + 1 bytes."""
    digest, head = hashlib.sha256(), bytearray()
    with path.open("rb") as handle:
        while block := handle.read(1 << 20):
            digest.update(block)
            if len(head) <= PDF_READ_BYTES:
                head += block[: PDF_READ_BYTES + 1 - len(head)]
    return digest.hexdigest(), bytes(head)


def title_finding(paper: RenderedPaper, data: bytes, docs: dict[Path, PageDoc], reporter: Reporter) -> int:
    """The PDF's first page holds the paper's title (a loose match: case, spacing and punctuation aside)."""
    first = first_page_text(data)
    if first is None:
        return 0
    if _loose(paper.title_plain) not in _loose(first):
        reporter.warn(f"Google Scholar: the first page of the PDF {paper.details.pdf} does not show the paper's title "
                      f"({paper.title_plain}): check that the PDF is this paper's, or correct the title",
                      *where(paper, docs, "citation_pdf_url"), code=codes.SCHOLAR_PDF_TITLE, paper=paper.paper.id,
                      value=str(paper.details.pdf))
        return 1
    return 0


def first_page_text(data: bytes) -> str | None:
    """The text of a PDF's first page; None when it has none that can be read (a scan, a broken file)."""
    from pypdf import PdfReader  # only for a volume with local PDFs

    try:
        reader = PdfReader(io.BytesIO(data))
        text = reader.pages[0].extract_text() if reader.pages else ""
    except Exception:  # noqa: BLE001 — a third-party parser on any bytes: a PDF it cannot read is not checked
        return None
    return text or None


def _loose(text: str) -> str:
    return re.sub(r"[\W_]+", "", text.casefold())
