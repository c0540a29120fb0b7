"""lunr.js for the site, copied from the mkdocs package (never committed), checked to be the lunr.js
version the Python index is built for."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import lunr

from generator.errors import ThemeError

_MKDOCS_LUNR = ("contrib", "search", "templates", "search", "lunr.js")


def lunr_js_path() -> Path:
    """lunr.js as the mkdocs package distributes it, matching lunr.py's format."""
    spec = importlib.util.find_spec("mkdocs")
    for location in (spec.submodule_search_locations or []) if spec else []:
        path = Path(location).joinpath(*_MKDOCS_LUNR)
        if path.is_file():
            return path
    raise ThemeError("search needs lunr.js from the mkdocs package, which is not installed "
                     "(pip install 'mkdocs>=1.5,<2')")


def lunr_js() -> bytes:
    path = lunr_js_path()
    source = path.read_bytes()
    expected = f"- {lunr.__TARGET_JS_VERSION__}\n".encode()
    if expected not in source[:400]:
        raise ThemeError(f"lunr.js is not version {lunr.__TARGET_JS_VERSION__}, which the "
                         "index is built for", path=path)
    return source
