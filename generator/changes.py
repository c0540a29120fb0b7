"""What changed in the content folder and theme, and what kind of change it is.

The dev server compares two scans of the watched trees (path → mtime and
size) and classifies each changed file, so a rebuild does the least work
that is still correct (Zola's ChangeKind).
"""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass
from pathlib import Path

from generator.config import CONFIG_NAME
from generator.pages import PAGES_DIR
from generator.sources import READERS

TAXONOMY_NAME = "taxonomy.yaml"
IGNORED_PARTS = {".git", "__pycache__", ".DS_Store"}


class Kind(enum.Enum):
    PAGE = "paper page"
    LIST = "abstract list"
    CONFIG = "config or taxonomy"
    TEMPLATE = "template"
    STATIC = "static file"
    OTHER = "other file"


Scan = dict[Path, tuple[int, int]]


def scan(roots: list[Path]) -> Scan:
    """mtime and size of every file under the roots, skipping editor and VCS litter."""
    found: Scan = {}
    for root in roots:
        if not root.is_dir():
            continue
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d not in IGNORED_PARTS)
            for name in files:
                if _is_litter(name):
                    continue
                path = Path(folder) / name
                try:
                    stat = path.stat()
                except OSError:
                    continue  # removed while we looked
                found[path] = (stat.st_mtime_ns, stat.st_size)
    return found


def _is_litter(name: str) -> bool:
    """Temporary files editors and our own atomic writes leave for a moment."""
    return name.startswith(".") or name.endswith(("~", ".swp", ".swx", ".tmp")) or name.startswith("#")


def diff(before: Scan, after: Scan) -> set[Path]:
    return {p for p in before.keys() | after.keys() if before.get(p) != after.get(p)}


@dataclass(frozen=True)
class Classifier:
    content_dir: Path
    template_dirs: tuple[Path, ...]
    static_dirs: tuple[Path, ...]

    def kind(self, path: Path) -> Kind:
        if any(_within(path, d) for d in self.template_dirs):
            return Kind.TEMPLATE
        if any(_within(path, d) for d in self.static_dirs):
            return Kind.STATIC
        if path.parent == self.content_dir / PAGES_DIR and path.suffix == ".md":
            return Kind.PAGE
        if path.parent == self.content_dir and path.name in (CONFIG_NAME, TAXONOMY_NAME):
            return Kind.CONFIG
        if path.parent == self.content_dir and path.suffix in READERS:
            return Kind.LIST
        return Kind.OTHER

    def kinds(self, paths: set[Path]) -> dict[Kind, set[Path]]:
        grouped: dict[Kind, set[Path]] = {}
        for path in paths:
            grouped.setdefault(self.kind(path), set()).add(path)
        return grouped


def _within(path: Path, folder: Path) -> bool:
    return folder == path or folder in path.parents
