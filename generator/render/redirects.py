"""The addresses a paper had before: a small page at each one leading to where it is now.

A page's ``old_slugs`` (kept by the sync when its slug changes: content/merge.py) each get
``papers/<old>.html``: ``rel=canonical`` and a refresh to the paper's page, and a visible link, so that a
reader, a crawler and a ``file://`` reader all arrive. An old address never takes a current paper's: the
current paper wins, and a warning names the page that claimed it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from generator.content.pages import PAGES_DIR
from generator.model.paper import Paper, RenderedPaper
from generator import diagnostics as codes

Warn = Callable[..., None]  # Reporter.warn: message, path, line, code= and its fields


def settle_old_slugs(papers: list[Paper], warn: Warn, line: Callable[[Paper], int | None]) -> list[Paper]:
    """``papers`` with every old slug that is a current paper's slug, or another paper's old slug before
    it (in proceedings order), left out with a warning naming the page and the line of its ``old_slugs``."""
    current = {paper.slug: paper for paper in papers}
    claimed: dict[str, Paper] = {}
    settled = []
    for paper in papers:
        kept = []
        for old in paper.old_slugs:
            owner = current.get(old)
            if owner is not None and owner is not paper:
                warn(f"`old_slugs`: {old} is the slug of {display(owner)}, which keeps papers/{old}.html; "
                     "no redirect is written there (remove it from `old_slugs`)", display(paper), line(paper),
                     code=codes.PAGE_OLD_SLUG, paper=paper.id, subject="old_slugs", value=old)
            elif old in claimed:
                warn(f"`old_slugs`: {old} is also an old slug of {display(claimed[old])}, whose redirect it "
                     "keeps; remove it from one of them", display(paper), line(paper), code=codes.PAGE_OLD_SLUG,
                     paper=paper.id, subject="old_slugs", value=old)
            elif owner is None:
                claimed[old] = paper
                kept.append(old)
        settled.append(paper if tuple(kept) == paper.old_slugs else dataclasses.replace(paper, old_slugs=tuple(kept)))
    return settled


def display(paper: Paper) -> str:
    return f"{PAGES_DIR}/{paper.path.name}"


def redirect_paths(papers: list[RenderedPaper]) -> list[tuple[str, RenderedPaper]]:
    """(path of each old address, the paper it leads to)."""
    return [(f"papers/{old}.html", paper) for paper in papers for old in paper.paper.old_slugs]
