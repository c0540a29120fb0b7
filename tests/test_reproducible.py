"""Reproducible output: the same content gives the same bytes, in every file, whatever the hash seed,
the working directory, the file times, the locale or the time zone, and whether the pages and the
site were there before or not.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BUNDLED_CONTENT, REPO

pytestmark = pytest.mark.slow  # starts whole processes: CI runs it, the fast lane does not

HOSTILE_LIST = REPO / "tests" / "fixtures" / "hostile" / "content" / "hostile.txt"


def available_locales() -> set[str]:
    try:
        listed = subprocess.run(["locale", "-a"], capture_output=True, text=True, timeout=30).stdout.split()
    except OSError:
        return {"C"}
    return {name.lower().replace("-", "") for name in listed}


def utf8_locale() -> str:
    """A UTF-8 locale other than C: en_US.UTF-8 where the machine has it, else C.UTF-8."""
    locales = available_locales()
    return "en_US.UTF-8" if "en_us.utf8" in locales else "C.UTF-8"


def make_content(target: Path) -> Path:
    """The bundled proceedings without their pages (so the build derives titles, slugs and tags
    itself), a second, hostile list, a date and a base URL (so the feed and sitemap are written)."""
    shutil.copytree(BUNDLED_CONTENT, target, ignore=shutil.ignore_patterns("papers", ".proceedings-cache"))
    shutil.copy(HOSTILE_LIST, target / "hostile.txt")
    config = target / "proceedings.yaml"
    config.write_text(config.read_text(encoding="utf-8") + "date: 2026-12-06\n", encoding="utf-8")
    return target


def set_times(folder: Path, seconds: float, step: float = 0) -> None:
    """Give every file and folder a time: all the same, or each ``step`` seconds apart."""
    for number, path in enumerate(sorted(folder.rglob("*"), reverse=step < 0)):
        os.utime(path, (seconds + number * abs(step), seconds + number * abs(step)))


def build(content: Path, out: Path, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("LC_", "LANG"))}
    environment.update(PYTHONPATH=str(REPO), **env)
    result = subprocess.run([sys.executable, "-m", "generator", "build", "--content", os.path.relpath(content, cwd),
                             "--out", os.path.relpath(out, cwd), "--base-url", "https://example.org/proc/"],
                            cwd=cwd, env=environment, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    return result


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def differences(first: dict[str, bytes], second: dict[str, bytes]) -> list[str]:
    """The files that differ, each with where it starts to differ; empty when identical."""
    found = [f"only in the first: {name}" for name in sorted(first.keys() - second.keys())]
    found += [f"only in the second: {name}" for name in sorted(second.keys() - first.keys())]
    for name in sorted(first.keys() & second.keys()):
        a, b = first[name], second[name]
        if a != b:
            at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            found.append(f"{name} at byte {at}: {a[max(0, at - 40):at + 40]!r} vs {b[max(0, at - 40):at + 40]!r}")
    return found


VARIANTS = {
    "first": dict(env={"PYTHONHASHSEED": "0", "LC_ALL": "C", "TZ": "UTC"}, times=(978_307_200, 0)),
    "second": dict(env={"PYTHONHASHSEED": "4242", "LC_ALL": utf8_locale(), "LANG": utf8_locale(),
                        "TZ": "Pacific/Kiritimati"}, times=(1_900_000_000, -3_600)),
}


@pytest.fixture(scope="module")
def two_builds(tmp_path_factory) -> dict[str, tuple[Path, Path]]:
    """The same content built twice from scratch, in different folders, under every variant above."""
    built = {}
    for name, variant in VARIANTS.items():
        root = tmp_path_factory.mktemp(name)
        content = make_content(root / "deep" / "folder" / "content")
        set_times(content, *variant["times"])
        cwd = root / "deep" if name == "first" else root
        build(content, root / "site", cwd, variant["env"])
        built[name] = (content, root / "site")
    return built


def test_two_builds_are_byte_identical(two_builds):
    (_, first), (_, second) = two_builds["first"], two_builds["second"]
    files = snapshot(first)
    assert len(files) > 60 and {"papers.json", "feed.xml", "sitemap.xml", "proceedings.bib"} <= files.keys()
    assert differences(files, snapshot(second)) == []


def test_the_pages_the_builds_made_are_byte_identical(two_builds):
    (first, _), (second, _) = two_builds["first"], two_builds["second"]
    pages = snapshot(first / "papers")
    assert len(pages) == 19 + 19  # the seed, and the hostile list (one of its entries repeats another)
    assert differences(pages, snapshot(second / "papers")) == []


def test_a_build_over_its_own_output_changes_nothing(two_builds, tmp_path):
    """The second build finds the pages and the site of the first: it must neither rewrite a page
    (two identical abstracts must not swap places) nor change a byte of the site."""
    content, site = two_builds["first"]
    copy_content, copy_site = tmp_path / "content", tmp_path / "site"
    shutil.copytree(content, copy_content)
    shutil.copytree(site, copy_site)
    set_times(copy_content, 1_500_000_000, 7)
    result = build(copy_content, copy_site, tmp_path, {"PYTHONHASHSEED": "7", "LC_ALL": "C.UTF-8"})
    assert "pages: no changes" in result.stderr
    assert differences(snapshot(content / "papers"), snapshot(copy_content / "papers")) == []
    assert differences(snapshot(site), snapshot(copy_site)) == []


def test_the_difference_report_sees_one_changed_byte():
    first = {"a.html": b"<p>same</p>", "b.html": b"x"}
    assert differences(first, {"a.html": b"<p>sane</p>", "c.html": b"x"}) == [
        "only in the first: b.html", "only in the second: c.html", "a.html at byte 5: b'<p>same</p>' vs b'<p>sane</p>'"]
