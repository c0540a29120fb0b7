"""Input formats: one module per format, chosen by file extension.

A reader takes a path and the name to report it by, and returns a
``SourceList``: its entries, and the problems of single records (reported
by the build; the other records still count). A problem with the whole file
raises ``ContentError``.
"""

from __future__ import annotations

import fnmatch
import importlib
import os
import re
from pathlib import Path
from typing import Any, Callable

from generator.model.paper import SourceList
from generator.sources.relative import RelativeLinks

Reader = Callable[[Path, str, Any], SourceList]  # (path, name, RelativeLinks | None)


def _reader(module: str, function: str) -> Reader:
    """The reader ``function`` of ``generator.sources.<module>``, imported when a source of its format is
    first read: a volume of plain lists never loads BibTeX's parser (bibtexparser and pylatexenc)."""

    def read(path: Path, name: str, links: Any) -> SourceList:
        found: Reader = getattr(importlib.import_module(f"{__name__}.{module}"), function)
        return found(path, name, links)

    return read


READERS: dict[str, Reader] = {
    ".txt": _reader("plainlist", "read"),
    ".bib": _reader("bibtex", "read"),
    ".csv": _reader("table", "read_csv"),
    ".tsv": _reader("table", "read_tsv"),
    ".jsonl": _reader("jsonlines", "read"),
}


# A volume's programme as a table (programme/readers.py reads it): a table of sessions, never one of papers.
CALENDAR_TABLES = ("programme.csv", "program.csv", "schedule.csv")
# Columns only a table of papers has: a "program.csv" with them is the venue's papers (a Mini-Conf-style export
# named after the conference programme), read as a source, not as the programme.
_PAPER_COLUMNS = frozenset(("abstract", "authors", "author", "paperabstract"))


def is_calendar_table(path: Path) -> bool:
    """Whether ``path`` is the programme's table: named as one, and its header names no paper column."""
    if path.name.lower() not in CALENDAR_TABLES:
        return False
    try:
        with path.open("rb") as handle:
            head = handle.read(65536).decode("utf-8", "ignore").lstrip("\ufeff")
    except OSError:
        return True
    header = head.splitlines()[0] if head else ""
    columns = {re.sub(r"[\s_-]+", "", column.strip().strip('"').lower()) for column in re.split(r"[,;\t]", header)}
    return not columns & _PAPER_COLUMNS


def find_sources(content_dir: Path) -> list[Path]:
    """Every source directly in the content directory, in name order (a symlink out of it is not one:
    ``links_out`` names those; a programme's table is not one either)."""
    root = content_dir.resolve()
    return sorted(p for p in content_dir.iterdir()
                  if p.suffix.lower() in READERS and p.is_file() and not is_calendar_table(p)
                  and inside(root, p) is not None)


def inside(root: Path, path: Path) -> Path | None:
    """``path`` resolved, if it is in the (resolved) folder ``root``; a symlink out of it is not."""
    try:
        resolved = path.resolve()
    except (OSError, ValueError, RuntimeError):  # a loop of links, a name the OS refuses
        return None
    return resolved if resolved.is_relative_to(root) else None


def links_out(folder: Path, root: Path, pattern: str) -> list[Path]:
    """The files of ``folder`` matching ``pattern`` that are symlinks to a file outside ``root``."""
    try:  # one listing, each name's type with it: no lstat a file (a pages folder holds 10,000)
        with os.scandir(folder) as entries:
            links = [folder / entry.name for entry in entries
                     if fnmatch.fnmatchcase(entry.name, pattern) and entry.is_symlink()]
    except OSError:  # no such folder, or not one to read: as ``Path.glob`` found nothing there
        return []
    return sorted(p for p in links if inside(root, p) is None)


def read_source(path: Path, relative_name: str, links: RelativeLinks | None = None) -> SourceList:
    """``links``: how the source's relative links are published (sources/relative.py); None keeps them as paths."""
    return READERS[path.suffix.lower()](path, relative_name, links)
