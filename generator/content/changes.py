"""What changed in the content folder and theme, and what kind of change it is.

The dev server classifies each changed file, so a rebuild does the least
work that is still correct (Zola's ChangeKind).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path

from generator.model.config import CONFIG_NAME
from generator.content.pages import PAGES_DIR
from generator.derive.people_file import PEOPLE_FILE
from generator.programme.readers import is_calendar
from generator.sources import READERS

TAXONOMY_NAME = "taxonomy.yaml"


class Kind(enum.Enum):
    PAGE = "paper page"
    LIST = "abstract list"
    CONFIG = "config or taxonomy"
    TEMPLATE = "template"
    STATIC = "static file"
    OTHER = "other file"


def is_litter(name: str) -> bool:
    """Temporary files editors and our own atomic writes leave for a moment."""
    return name.startswith((".", "#")) or name.endswith(("~", ".swp", ".swx", ".tmp"))


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
        if path.parent == self.content_dir and path.name in (CONFIG_NAME, TAXONOMY_NAME, PEOPLE_FILE):
            return Kind.CONFIG
        if is_calendar(path, self.content_dir):  # the programme: every page may show a session's time
            return Kind.CONFIG
        if path.parent == self.content_dir and path.suffix.lower() in READERS:  # as find_sources reads them
            return Kind.LIST
        return Kind.OTHER

    def kinds(self, paths: set[Path]) -> dict[Kind, set[Path]]:
        grouped: dict[Kind, set[Path]] = {}
        for path in paths:
            grouped.setdefault(self.kind(path), set()).add(path)
        return grouped


def _within(path: Path, folder: Path) -> bool:
    return folder == path or folder in path.parents
