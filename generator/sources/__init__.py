"""Input formats: one module per format, chosen by file extension.

A reader takes a path and returns a ``SourceList``; register it in
``READERS``. Later formats (BibTeX, CSV, JSON Lines) slot in here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from generator.model import SourceList
from generator.sources import plainlist

Reader = Callable[[Path, str], SourceList]

READERS: dict[str, Reader] = {
    ".txt": plainlist.read,
}


def find_sources(content_dir: Path) -> list[Path]:
    """Every source list directly in the content directory, in name order."""
    return sorted(p for p in content_dir.iterdir() if p.is_file() and p.suffix in READERS)


def read_source(path: Path, relative_name: str) -> SourceList:
    return READERS[path.suffix](path, relative_name)
