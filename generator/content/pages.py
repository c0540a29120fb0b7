"""Markdown pages with YAML front matter: reading, validating and writing them.

A page is the unit a person edits. ``read_page`` splits it leniently (so a
page with broken front matter still shows its body to the merge), and
``to_paper`` validates it into a ``Paper``, naming file and line on error.
"""

from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path
from typing import Any, Callable

from generator.content.page_doc import (FENCE, KnownPage, PageDoc, parse_front, plain_copy,
                                        salvage_identity, split_front_matter)
from generator.runtime.executor import INLINE, Executor
from generator.runtime.cache import EntryCache
from generator.runtime.cache import digest as full_digest
from generator.runtime.cache_records import keep_paper_key
from generator.runtime.sizes import Cost
from generator.text.cjk import CJK_RANGES
from generator.text.cleantext import clean, clean_fields
from generator.model.details import parse_details
from generator.text.slugs import file_safe
from generator.sources import inside
from generator.errors import ContentError, shown
from generator.model.corrections import CORRECTION_KEYS, OLD_SLUGS
from generator.model.corrections_front import parse_corrections
from generator.model.paper import DETAIL_FIELDS, DETAILS, TEXT_FIELDS, Paper
from generator.reporter import Reporter
from generator.text.yamlutil import as_lf, dump, read_utf8
from generator import diagnostics as codes

PAGES_DIR = "papers"
# Lower-case ASCII words, and CJK characters as written (generator/text/slugs.py says why).
SLUG = re.compile(f"^[a-z0-9{CJK_RANGES}]+(?:-[a-z0-9{CJK_RANGES}]+)*$")

# The front matter the tool writes and reads, in the order a page lists it (what a reader looks for first);
# the one table the known-keys check and the writer's key order come from. Any other key is a person's
# own: kept where it was, and warned about.
# The details come in the schema's order (model.Details), the authors first, beside the title.
_AUTHORS = tuple(field.name for field in DETAILS if field.kind == "authors")
# A paper's corrections (model/corrections.py) are a person's alone: the tool never writes them, except
# ``old_slugs``, which it keeps when a page's slug changes (content/merge.py).
FRONT_MATTER = ("id", "title", "slug", OLD_SLUGS, *_AUTHORS, "tags",
                *(name for name in DETAIL_FIELDS if name not in _AUTHORS), *CORRECTION_KEYS,
                "uid", "order", "source", "entry", "generated")
KNOWN_KEYS = frozenset(FRONT_MATTER)

# message, file, line
Warn = Callable[..., None]  # Reporter.warn: message, path, line, code= and its fields


def read_page(path: Path, display: Path | str | None = None) -> PageDoc:
    """Read a page; never raises for bad content, records the problem instead."""
    name = display or path
    doc = PageDoc(path)
    try:
        text = read_utf8(path, name, ContentError, "page")
    except ContentError as exc:
        # A byte that is not UTF-8 (a Windows-1252 é): its lines still say which paper it is, so that
        # its entry stays its own instead of getting a second page.
        doc.error, doc.salvaged = exc, salvage_identity(_lenient_text(path))
        return doc
    front, body, body_line = split_front_matter(text)
    doc.body, doc.body_line, doc.text_digest = body.strip(), body_line, full_digest(text)
    if front is None:
        opened = text.split("\n", 1)[0].strip() == FENCE
        doc.error = ContentError(
            "the front matter is never closed: add a line `---` after its last field" if opened else
            "no front matter: a page starts with a line `---`, YAML fields, and another `---`",
            path=name, line=1, code=codes.PAGE_INVALID,
        )
        doc.salvaged = salvage_identity(text) if opened else {}
        return doc
    doc.meta, doc.lines, doc.error, doc.salvaged = parse_front(front, name)
    return doc


def _lenient_text(path: Path) -> str:
    """A page's text whatever its bytes (undecodable ones replaced); "" when it cannot be read at all."""
    try:
        return as_lf(path.read_bytes()[:64_000].decode("utf-8", "replace"))
    except OSError:
        return ""


def render_page(meta: dict[str, Any], body: str) -> str:
    return f"{FENCE}\n{dump(meta)}{FENCE}\n\n{body.strip()}\n"


def written_page(path: Path, meta: dict[str, Any], text: str) -> PageDoc | None:
    """The page ``text`` (``render_page(meta, …)``) as ``read_page`` reads it, without parsing its YAML
    again: a cold build writes every page and would read each one back. Only for front matter whose
    YAML reads back as written (ints, and strings of printable characters); None for any other."""
    if not _reads_back(meta):
        return None
    text = as_lf(text)
    front, body, body_line = split_front_matter(text)
    if front is None:
        return None
    lines: dict[str, int] = {}
    for number, line in enumerate(front.split("\n"), start=2):
        key = line.split(":", 1)[0]
        if key in meta and key not in lines and not line[:1].isspace():
            lines[key] = number
    if lines.keys() != meta.keys():
        return None
    return PageDoc(path, plain_copy(meta), body.strip(), lines, body_line, text_digest=full_digest(text))


def _reads_back(value: Any) -> bool:
    if isinstance(value, str):
        return value.isprintable()  # no line break, tab or control character for YAML to fold or escape
    if isinstance(value, dict):
        return all(isinstance(key, str) and key.isidentifier() and _reads_back(item) for key, item in value.items())
    if isinstance(value, (list, tuple)):
        return all(map(_reads_back, value))
    return type(value) is int


def to_paper(doc: PageDoc, display: Path | str, warn: Warn | None = None) -> Paper:
    """Validate a page into a Paper; raise ContentError naming the field and line.

    A bad detail (a link that is not a URL, say) is only warned about and left
    out: the paper builds without it. A page with no abstract below its front
    matter is a paper without one (a keynote, a demo): its page says so.
    """
    if doc.error:
        raise doc.error
    meta = clean_fields(doc.meta, TEXT_FIELDS)  # NFC, no control or invisible characters (generator/text/cleantext.py)

    def fail(key: str, problem: str) -> ContentError:
        return ContentError(f"`{key}` {problem}", path=display, line=doc.lines.get(key, 1), code=codes.PAGE_INVALID)

    def text(key: str) -> str:
        value = meta.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str) or not value.strip():
            raise fail(key, "is missing or empty" if value in (None, "") else "must be text")
        return value.strip()

    def number(key: str) -> int:
        value = meta.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int):
            raise fail(key, f"must be a whole number, not {shown(value)}")
        return value

    # NFC: macOS stores a name in one normal form, so two spellings of one syllable would be one file.
    slug = unicodedata.normalize("NFC", text("slug"))
    if not SLUG.match(slug):
        raise fail("slug", f"must be lowercase letters, digits, CJK characters and single hyphens, not {shown(slug)}")
    slug, unsafe = file_safe(slug)
    if unsafe and warn is not None:
        warn(f"`slug` {shown(meta.get('slug'))} {unsafe}; published as {slug}.html", display, doc.lines.get("slug", 1),
             code=codes.PAGE_SLUG_UNSAFE, subject="slug", value=slug)
    tags = meta.get("tags") or []
    if not isinstance(tags, list) or not all(isinstance(t, str) and t.strip() for t in doc.meta.get("tags") or []):
        raise fail("tags", "must be a list of tag names, like [optimization, diffusion models]")

    def problem(key: str, message: str) -> None:
        if warn is not None:  # `versions[2].date` is on the line of `versions`
            warn(f"`{key}`: {message}", display, doc.lines.get(re.split(r"[.\[]", key, maxsplit=1)[0], 1),
                 code=codes.PAGE_FIELD_INVALID, subject=key)

    corrections = parse_corrections(meta, problem)
    paper = Paper(
        id=text("id"),
        slug=slug,
        old_slugs=tuple(old for old in _old_slugs(meta, problem, last_published_slug(doc)) if old != slug),
        corrections=corrections,
        title=text("title"),
        abstract=clean(doc.body, lines=True),
        tags=tuple(dict.fromkeys(t.strip() for t in tags if t.strip())),
        order=number("order"),
        source=str(meta.get("source") or ""),
        entry=number("entry"),
        path=doc.path,
        details=parse_details(meta, problem),
        uid=str(meta.get("uid") or "").strip(),
    )
    if doc.text_digest:  # the same text and file name make the same Paper: its key needs no walk of its fields
        keep_paper_key(paper, full_digest("page", doc.text_digest, doc.path.name))
    return paper


def last_published_slug(doc: PageDoc) -> str:
    """The slug a page the tool made was last published at: the one its ``generated`` block records, else its
    file's name (a page is made as ``<slug>.md``); "" for a person's own page."""
    return (doc.generated.slug or doc.path.stem) if doc.generated else ""


def _old_slugs(meta: dict[str, Any], problem: Callable[[str, str], None], before: str = "") -> list[str]:
    """The addresses the paper had before (``old_slugs``), each a slug (a bad one is warned about and left out),
    and ``before``, the one it was last published at: so that a slug just edited leaves a way from its old
    address at once (``serve``), before the sync writes it into ``old_slugs`` (content/merge.py)."""
    before = unicodedata.normalize("NFC", before)
    kept = [before] if before and SLUG.match(before) and file_safe(before)[0] == before else []
    value = meta.get(OLD_SLUGS)
    if value in (None, "", []):
        return kept
    if not isinstance(value, list):
        problem(OLD_SLUGS, f"must be a list of slugs, like [old-title], not {shown(value)}; left out")
        return kept
    for item in value:
        item = str(item).strip() if isinstance(item, (str, int)) and not isinstance(item, bool) else ""
        item = unicodedata.normalize("NFC", item)
        published = file_safe(item)[0] if SLUG.match(item) else ""
        if not published or published != item:
            problem(OLD_SLUGS, f"{shown(item)} is not a slug (lowercase letters, digits, CJK and hyphens); left out")
        elif item not in kept:
            kept.append(item)
    return kept


def unknown_keys(doc: PageDoc) -> list[str]:
    return [key for key in doc.meta if key not in KNOWN_KEYS]


def page_paths(content_dir: Path) -> list[Path]:
    """Every page, in name order; a symlink to a file outside the content folder is never read."""
    pages = content_dir / PAGES_DIR
    if not pages.is_dir():
        return []
    root = content_dir.resolve()
    # One listing, each name's type with it (no lstat a page), sorted by name: the paths' order, in one folder.
    with os.scandir(pages) as entries:
        names = sorted(entry.name for entry in entries if entry.name.endswith(".md")
                       and (not entry.is_symlink() or inside(root, pages / entry.name) is not None))
    return [pages / name for name in names]


def is_page(content_dir: Path, path: Path) -> bool:
    """Whether ``path`` is one of ``page_paths`` (asked of a few changed files, without listing them all)."""
    return (path.parent == content_dir / PAGES_DIR and path.suffix == ".md" and path.is_file()
            and (not path.is_symlink() or inside(content_dir.resolve(), path) is not None))


def read_pages(content_dir: Path, executor: Executor = INLINE, only: list[Path] | None = None,
               known: EntryCache | None = None) -> dict[Path, PageDoc]:
    """Every page (or ``only`` these), read and its front matter parsed, by the ``executor`` (on every core
    when there are many): YAML is most of a warm build's reading. With ``known`` (front matter an earlier build
    parsed, by the digest of its text), each page's front matter is read when first asked for, from there or
    parsed then and put there (``KnownPage``; the caller saves it once the pages are parsed)."""
    paths = page_paths(content_dir) if only is None else only
    docs: dict[Path, PageDoc] = {}
    for path in paths if known is not None else ():
        assert known is not None
        known_page = _known_page(path, path.relative_to(content_dir), known)
        if known_page is not None:
            docs[path] = known_page
    missing = [path for path in paths if path not in docs]

    def read_share(share: list[Path]) -> list[PageDoc]:
        return [read_page(path, path.relative_to(content_dir)) for path in share]

    for path, doc in zip(missing, executor.map(read_share, missing, Cost.LIGHT)):
        docs[path] = doc
    return {path: docs[path] for path in paths}


def front_key(text: str) -> str:
    """What a page's parsed front matter is kept under: the digest of its text ("" for a page without one)."""
    front = split_front_matter(as_lf(text))[0]
    return full_digest(front) if front is not None else ""


def front_record(doc: PageDoc) -> dict[str, Any]:
    """What the cache keeps of a page the sync just wrote (``written_page``: its front matter is its own copy,
    made as it was written), as it is: the pages stage saves the entry before anything else holds the page
    (copied again, 10,000 pages took a tenth of a second of a cold build's one busy core)."""
    return {"meta": doc.meta, "lines": doc.lines}


def _known_page(path: Path, name: Path, known: EntryCache) -> KnownPage | None:
    """The page, its front matter read when asked for (from ``known``, under the digest of its text); None for a
    page that cannot be read or does not split (read by ``read_page``, which says what is wrong)."""
    try:
        text = read_utf8(path, path, ContentError, "page")
    except ContentError:
        return None
    front, body, body_line = split_front_matter(text)
    if front is None:
        return None
    return KnownPage(path, name, front, body.strip(), body_line, full_digest(text), known, full_digest(front))


def unique_papers(papers: list[Paper], reporter: Reporter, read: Callable[[Path], PageDoc] = read_page) -> list[Paper]:
    """Papers in proceedings order; a page repeating another's slug or id is an error (the first wins). ``read``:
    how a clashing page is read again (once the pages a child writes are written: content/page_writes.py)."""
    owners: dict[tuple[str, str], Path] = {}
    kept = []
    for paper in sorted(papers, key=lambda p: p.path.name):
        slug, number = ("slug", paper.slug), ("id", paper.id)
        clash = slug if slug in owners else number if number in owners else None
        if clash:
            key, value = clash
            line = read(paper.path).lines.get(key)  # only on this rare path: read it again
            reporter.error(f"{key} {value!r} is already the {key} of {owners[clash].name}",
                           f"{PAGES_DIR}/{paper.path.name}", line, code=codes.PAGE_ID_CLASH, subject=key, value=value)
            continue
        owners[slug] = owners[number] = paper.path
        kept.append(paper)
    return sorted(kept, key=lambda p: (p.order, p.source, p.id))
