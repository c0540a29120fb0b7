"""Input formats: one module per format, chosen by file extension.

A reader takes a path and the name to report it by, and returns a
``SourceList``: its entries, and the problems of single records (reported
by the build; the other records still count). A problem with the whole file
raises ``ContentError``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from generator.model import SourceList
from generator.sources import bibtex, jsonlines, plainlist, table

Reader = Callable[[Path, str], SourceList]

READERS: dict[str, Reader] = {
    ".txt": plainlist.read,
    ".bib": bibtex.read,
    ".csv": table.read_csv,
    ".tsv": table.read_tsv,
    ".jsonl": jsonlines.read,
}


def find_sources(content_dir: Path) -> list[Path]:
    """Every source directly in the content directory, in name order."""
    return sorted(p for p in content_dir.iterdir() if p.is_file() and p.suffix.lower() in READERS)


def read_source(path: Path, relative_name: str) -> SourceList:
    return READERS[path.suffix.lower()](path, relative_name)
