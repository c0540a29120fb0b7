"""Themes: template and static search paths, user overrides first (Pelican, Zola).

A content directory may carry ``theme/templates`` and ``theme/static``; a
template there shadows the default one of the same name and can extend it
as ``default/<name>``.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path

import jinja2

# The fixed, documented set of page templates a theme provides.
TEMPLATE_NAMES = ("base.html", "index.html", "paper.html", "tag.html", "tags.html", "404.html", "search.html")


def default_theme_dir() -> Path:
    """The bundled theme: inside the installed package, or themes/ in a source checkout."""
    spec = importlib.util.find_spec("generator._themes")
    if spec and spec.submodule_search_locations:
        for location in spec.submodule_search_locations:
            if (Path(location) / "default").is_dir():
                return Path(location) / "default"
    return Path(__file__).resolve().parent.parent / "themes" / "default"


@dataclass(frozen=True)
class Theme:
    template_dirs: tuple[Path, ...]  # first wins
    static_dirs: tuple[Path, ...]  # first wins

    @classmethod
    def for_content(cls, content_dir: Path) -> "Theme":
        default = default_theme_dir()
        user = content_dir / "theme"
        templates = [d for d in (user / "templates", default / "templates") if d.is_dir()]
        static = [d for d in (user / "static", default / "static") if d.is_dir()]
        return cls(tuple(templates), tuple(static))

    def environment(self) -> jinja2.Environment:
        default = jinja2.FileSystemLoader(str(self.template_dirs[-1]))
        loader = jinja2.ChoiceLoader([
            jinja2.FileSystemLoader([str(d) for d in self.template_dirs]),
            jinja2.PrefixLoader({"default": default}),
        ])
        return jinja2.Environment(
            loader=loader,
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
        )

    def static_files(self) -> dict[str, Path]:
        """Relative name → file, the user's copy shadowing the default's."""
        files: dict[str, Path] = {}
        for directory in reversed(self.static_dirs):
            root = directory.resolve()
            for path in sorted(directory.rglob("*")):
                # A symlink out of the theme would publish (and serve) a file from elsewhere.
                if path.is_file() and root in path.resolve().parents:
                    files[path.relative_to(directory).as_posix()] = path
        return dict(sorted(files.items()))
