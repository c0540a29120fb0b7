"""The files a site publishes beside its rendered pages: the theme's static files, the documents papers
link to by a path, and the last good HTML of a page that does not parse now."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from pathlib import Path

from generator.model.details import is_web_link, site_file_name, site_path_problem
from generator.errors import shown
from generator.model.paper import LINK_FIELDS, Paper
from generator.content.pages import PAGES_DIR, SLUG, PageDoc
from generator.reporter import Reporter
from generator.sources import inside
from generator.render.theme import Theme
from generator import diagnostics as codes


def static_files(content_dir: Path, generated: Collection[str]) -> dict[str, Path]:
    """Theme files under assets/; a generated file of the same name wins."""
    static = Theme.for_content(content_dir).static_files()
    return {f"assets/{name}": path for name, path in static.items() if f"assets/{name}" not in generated}


def linked_files(content_dir: Path, papers: Sequence[Paper], generated: Collection[str],
                 reporter: Reporter | None = None) -> dict[str, Path]:
    """Files of the content folder that papers link to by a path (``pdf: pdfs/paper-1.pdf``),
    published at that same path. A path naming no such file is warned about: its link would break.
    Only document types are published (``details.site_path_problem``), never a hidden file, a page,
    or anything outside the content folder (a symlink out)."""
    root = content_dir.resolve()
    files: dict[str, Path] = {}
    for paper in papers:
        for key in LINK_FIELDS:
            link = getattr(paper.details, key)
            if not link or is_web_link(link):
                continue
            name = site_file_name(link)
            source = linked_file(root, link)
            if source is not None and name not in generated:
                files[name] = source
            elif reporter is not None:
                reporter.warn(f"`{key}`: {shown(link)} is not a document in the content folder, so its link would be "
                              f"broken: put the file at {name} there, or give an https:// address",
                              f"{PAGES_DIR}/{paper.path.name}", code=codes.PAGE_LINK_MISSING, paper=paper.id,
                              subject=key, value=str(link))
    return files


def linked_file(root: Path, link: str) -> Path | None:
    """The file a link by path publishes: a document type, inside the (resolved) content folder ``root``,
    and a regular file (not a FIFO, a device or a folder); None otherwise. ``check`` opens only these."""
    if site_path_problem(link):
        return None
    source = inside(root, root / site_file_name(link))
    return source if source is not None and source.is_file() else None


def last_good_pages(broken: Sequence[PageDoc], previous: Callable[[str], bytes | None], files: Collection[str],
                    reporter: Reporter) -> dict[str, bytes]:
    """A page that does not parse now keeps the HTML the previous site has of it (readers lose nothing)."""
    kept = {}
    for doc in broken:
        slug = str(doc.meta.get("slug") or doc.salvaged.get("slug") or "")  # its address, as far as it still says
        name = f"papers/{slug if SLUG.match(slug) else doc.path.stem}.html"
        data = previous(name) if name not in files else None
        if data is not None:
            kept[name] = data
            reporter.warn("kept the previous build of this paper's page until the page is fixed",
                          f"{PAGES_DIR}/{doc.path.name}", code=codes.PAGE_KEPT_PREVIOUS)
    return kept
