"""Typed content objects, parsed once at the edge and never mutated."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Entry:
    """One abstract as it appears in a source list."""

    text: str
    source: str  # the list's file name, relative to the content directory
    index: int  # 1-based position in the list
    line: int  # line in the list where the entry starts


@dataclass(frozen=True)
class SourceList:
    """A parsed source list: its title line and its entries."""

    path: Path
    title: str
    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class Paper:
    """A paper as its Markdown page describes it."""

    id: str
    slug: str
    title: str
    abstract: str  # Markdown + LaTeX, as written
    tags: tuple[str, ...]
    order: int
    source: str
    entry: int
    path: Path  # the page file


@dataclass(frozen=True)
class Tag:
    name: str
    slug: str


@dataclass(frozen=True)
class RenderedPaper:
    """A paper beside its rendered forms: HTML lives next to the model, not in it."""

    paper: Paper
    title_html: str
    title_plain: str
    abstract_html: str
    abstract_plain: str

    @property
    def slug(self) -> str:
        return self.paper.slug

    @property
    def url(self) -> str:
        """Path of the paper's page relative to the site root."""
        return f"papers/{self.paper.slug}.html"
