"""The Nu HTML Checker (vnu.jar, the W3C validator) on every page of the seed site.

vnu.jar comes from the npm package vnu-jar, pinned below, installed once into
~/.cache/proceedings-tests/vnu (npm's own cache makes a reinstall quick) and
run with Java 17 or newer. Without npm or Java the test skips, except under
CI=true, where it fails.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import unavailable
from .helpers import html_pages

VNU_JAR_VERSION = "26.9.27"
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "proceedings-tests" / "vnu"


def install_vnu() -> Path:
    jar = CACHE / VNU_JAR_VERSION / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
    if jar.is_file():
        return jar
    npm = shutil.which("npm")
    if not npm:
        unavailable("npm is not installed, so vnu.jar cannot be (apt-get install -y npm)")
    # --ignore-scripts: vnu-jar's postinstall would download a Java runtime; we use the system's.
    done = subprocess.run([npm, "install", "--no-save", "--ignore-scripts", "--no-audit", "--no-fund",
                           "--prefix", str(jar.parents[4]), f"vnu-jar@{VNU_JAR_VERSION}"],
                          capture_output=True, text=True, timeout=300)
    if done.returncode or not jar.is_file():
        unavailable(f"npm could not install vnu-jar@{VNU_JAR_VERSION}: {done.stderr.strip()[-500:]}")
    return jar


@pytest.fixture(scope="session")
def vnu(tmp_path_factory):
    """A function that checks files with vnu.jar and returns its messages."""
    java = shutil.which("java")
    if not java:
        unavailable("Java is not installed, so vnu.jar cannot run (apt-get install -y default-jre-headless)")
    jar = install_vnu()

    def check(files: list[Path], *options: str) -> list[dict]:
        done = subprocess.run([java, "-jar", str(jar), "--format", "json", "--stdout", *options, *map(str, files)],
                              capture_output=True, text=True, timeout=300)
        try:
            return json.loads(done.stdout)["messages"]
        except (ValueError, KeyError):
            pytest.fail(f"vnu.jar did not report (exit {done.returncode}): {done.stderr.strip()[-1000:]}")
    return check


def report(messages: list[dict], site: Path) -> list[str]:
    lines = []
    for m in messages:
        where = Path(m.get("url", "").removeprefix("file:")).resolve()
        name = where.relative_to(site.resolve()).as_posix() if where.is_relative_to(site.resolve()) else m.get("url")
        extract = " ".join(m.get("extract", "").split())
        lines.append(f"{name} line {m.get('lastLine', '?')}: {m['message']}"
                     + (f" — in “{extract}”" if extract else ""))
    return lines


def test_every_page_is_valid_html(vnu, search_site):
    pages = [search_site / p for p in html_pages(search_site)]
    messages = [m for m in vnu(pages, "--errors-only") if m["type"] in ("error", "non-document-error")]
    assert not messages, "the Nu HTML checker found:\n" + "\n".join(report(messages, search_site))


def test_the_stylesheets_are_valid_css(vnu, search_site):
    sheets = sorted((search_site / "assets").glob("*.css"))
    assert sheets, "the site has no stylesheet"
    messages = [m for m in vnu(sheets, "--css", "--errors-only") if m["type"] in ("error", "non-document-error")]
    assert not messages, "the Nu CSS checker found:\n" + "\n".join(report(messages, search_site))
