"""serve equals build, for every file, after any sequence of edits: random edits of every kind a person makes
(titles, authors, topics, slugs, sessions, corrections, links, linked files, the config, people.yaml, the
theme, the source list, symlinked pages) applied under the dev server's ``LiveSite``, each step compared byte
for byte with a build of the same content that uses no cache. A series likewise, under the dev server's
``LiveSeries``: volumes added, removed and renamed, a volume's settings, a paper edited in one volume, the series'
own config, people.yaml and theme.

Bounded in the fast lane: one seed, each kind of edit once (``PROCEEDINGS_DIFFERENTIAL_SEEDS`` and
``PROCEEDINGS_DIFFERENTIAL_STEPS`` raise them: CI runs more seeds and longer sequences).
"""

from __future__ import annotations

import os
import random
import re
import shutil
from pathlib import Path

import pytest

from series_fixtures import FIXTURES
from contents_fixtures import colt2020_csv
from generator.commands.build import build
from generator.reporter import Reporter
from generator.content.project import load_project
from generator.pipeline.live import LiveSite
from generator.pipeline.rendering import sync_project
from generator.series.live import LiveSeries

STEPS = int(os.environ.get("PROCEEDINGS_DIFFERENTIAL_STEPS", "0"))  # beyond each kind once
SEEDS = range(1, 1 + int(os.environ.get("PROCEEDINGS_DIFFERENTIAL_SEEDS", "1")))
CONFIG = "title: Learning Theory 2026\npapers_per_page: 5\ndate: 2026-06-30\nbase_url: https://example.org/colt/\n"


def built(content: Path, out: Path) -> dict[str, bytes]:
    reporter = Reporter()
    build(content, out, reporter, cache=False)
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


class Editor:
    """Edits a content folder as a person would, returning the paths each edit touched."""

    def __init__(self, content: Path, chooser: random.Random):
        self.content, self.chooser = content, chooser
        self.counter = 0

    def pages(self) -> list[Path]:
        return sorted((self.content / "papers").glob("*.md"))

    def page(self) -> Path:
        return self.chooser.choice([page for page in self.pages() if not page.is_symlink()])

    def _front(self, page: Path, key: str, value: str) -> set[Path]:
        text = page.read_text(encoding="utf-8")
        head, body = text.split("\n---\n", 1)
        line = f"{key}: {value}"
        head = re.sub(rf"(?m)^{key}:.*$", line, head) if re.search(rf"(?m)^{key}:", head) else f"{head}\n{line}"
        page.write_text(f"{head}\n---\n{body}", encoding="utf-8")
        return {page}

    def next(self) -> str:
        self.counter += 1
        return f"{self.counter}"

    # -- the edits ------------------------------------------------------------------------------------------

    def title(self) -> set[Path]:
        return self._front(self.page(), "title", f"'A retitled paper number {self.next()}'")

    def authors(self) -> set[Path]:
        names = self.chooser.sample(["Ada Lovelace", "A. Lovelace", "Alan Turing", "Grace Hopper", "Daniel Hsu"], 2)
        return self._front(self.page(), "authors", f"[{', '.join(names)}]")

    def topics(self) -> set[Path]:
        topic = self.chooser.choice(["bandits", "Bandits", "privacy"])  # a respelling moves a topic's name
        return self._front(self.page(), "tags", f"[{topic}, new {self.next()}]")

    def slug(self) -> set[Path]:
        return self._front(self.page(), "slug", f"moved-paper-{self.next()}")

    def sessions(self) -> set[Path]:
        return self._front(self.page(), "sessions", f"[Session {self.chooser.randint(1, 4)}A]")

    def correction(self) -> set[Path]:
        day = self.chooser.randint(1, 9)
        return self._front(self.page(), "erratum", f"{{date: 2026-07-0{day}, note: Fixed {self.next()}}}")

    def link(self) -> set[Path]:
        """A paper's PDF by path: sometimes before its file exists (the file comes later, as `linked_file`)."""
        return self._front(self.page(), "pdf", f"pdfs/paper-{self.chooser.randint(1, 3)}.pdf")

    def linked_file(self) -> set[Path]:
        """A camera-ready PDF copied in, or replaced by new bytes of the same size."""
        folder = self.content / "pdfs"
        folder.mkdir(exist_ok=True)
        path = folder / f"paper-{self.chooser.randint(1, 3)}.pdf"
        path.write_bytes(b"%PDF-1.4 camera-ready " + self.next().zfill(6).encode())
        return {path}

    def config(self) -> set[Path]:
        path = self.content / "proceedings.yaml"
        path.write_text(CONFIG.replace("papers_per_page: 5", f"papers_per_page: {self.chooser.randint(3, 9)}"),
                        encoding="utf-8")
        return {path}

    def people(self) -> set[Path]:
        path = self.content / "people.yaml"
        path.write_text(self.chooser.choice(["same:\n  - [A. Lovelace, Ada Lovelace]\n",
                                             "different:\n  - [A. Lovelace, Ada Lovelace]\n"]), encoding="utf-8")
        return {path}

    def theme(self) -> set[Path]:
        folder = self.content / "theme" / "templates"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "paper.html"
        path.write_text('{% extends "default/paper.html" %}{% block title %}Edited ' + self.next()
                        + ' · {{ super() }}{% endblock %}', encoding="utf-8")
        return {path}

    def source(self) -> set[Path]:
        path = self.content / "papers.csv"
        path.write_text(colt2020_csv(count=self.chooser.randint(10, 14)), encoding="utf-8")
        return {path}

    def symlinked_page(self) -> set[Path]:
        """A page that is a link to a file elsewhere in the folder: editing the file edits the page."""
        target = self.content / "shared" / "linked.md"
        link = self.content / "papers" / "linked.md"
        target.parent.mkdir(exist_ok=True)
        target.write_text(f"---\nid: linked\ntitle: 'A linked page, version {self.next()}'\nslug: linked\n---\n\n"
                          "An abstract kept in another folder.\n", encoding="utf-8")
        if not link.is_symlink():
            link.symlink_to(Path("..") / "shared" / "linked.md")
            return {link, target}
        return {target}  # the watcher names the file, not the link

    EDITS = ("title", "authors", "topics", "slug", "sessions", "correction", "link", "linked_file", "config",
             "people", "theme", "source", "symlinked_page")


@pytest.fixture
def volume(tmp_path) -> Path:
    content = tmp_path / "content"
    content.mkdir()
    (content / "papers.csv").write_text(colt2020_csv(count=12), encoding="utf-8")
    (content / "proceedings.yaml").write_text(CONFIG, encoding="utf-8")
    sync_project(load_project(content, Reporter()), Reporter())
    return content


def edit_plan(chooser: random.Random, edits: tuple[str, ...] | list[str]) -> list[str]:
    """Every kind once (in a random order), then random kinds for the remaining steps."""
    kinds = list(edits)
    chooser.shuffle(kinds)
    return kinds + [chooser.choice(edits) for _ in range(STEPS)]


def settled(live: LiveSite) -> None:
    live.wait_for_search()
    while live.settle() is not None:  # related papers the background worked out
        live.wait_for_search()


@pytest.mark.parametrize("seed", SEEDS)
def test_serve_equals_a_build_without_cache_after_random_edits(volume, tmp_path, seed):
    chooser = random.Random(seed)
    editor = Editor(volume, chooser)
    live = LiveSite(volume, tmp_path / "served")
    try:
        assert not live.build_all().failed
        settled(live)
        plan = edit_plan(chooser, Editor.EDITS)
        done = []
        for step, kind in enumerate(plan):
            changed = getattr(editor, kind)()
            done.append(kind)
            rebuilt = live.rebuild({path.resolve() if not path.is_symlink() else path for path in changed})
            assert not rebuilt.failed, (done, rebuilt.diagnostics)
            settled(live)
            expected = built(volume, tmp_path / f"built-{step}")
            differ = sorted(name for name in expected.keys() | live.files.keys()
                            if expected.get(name) != live.files.get(name))
            assert not differ, f"after {done}: serve and build differ in {differ[:8]}"
    finally:
        live.close()


# -- a series: volumes added and removed, a volume's config, a paper in one volume, the series' own files -------

SERIES_CONFIG = "title: Learning Theory Series\ndescription: Every COLT.\nbase_url: https://example.org/colt/\n"


def volume_config(year: int, per_page: int = 5, title: str = "", date: str = "06-30") -> str:
    dated = f"date: {year}-{date}\n" if date else ""  # an undated volume is listed by its papers' year
    return f"title: {title or f'Learning Theory {year}'}\n{dated}papers_per_page: {per_page}\n"


class SeriesEditor:
    """Edits a series folder as its editors would: whole volumes (added, removed, renamed), a volume's settings,
    a paper in one volume (every edit a volume's ``Editor`` makes, in turn, a retitle first), the series' config,
    people.yaml and theme."""

    def __init__(self, content: Path, chooser: random.Random):
        self.content, self.chooser = content, chooser
        self.counter = 0
        self.log: list[str] = []
        rest = [kind for kind in PAPER_EDITS if kind != "title"]
        chooser.shuffle(rest)
        self.paper_edits = ["title", *rest]  # a retitle shows on the series' own pages: tried first
        self.papers_edited = 0

    def volumes(self) -> list[Path]:
        return sorted(child for child in self.content.iterdir() if child.is_dir() and child.name[:4].isdigit())

    def next(self) -> str:
        self.counter += 1
        return f"{self.counter}"

    def free_name(self) -> tuple[int, str]:
        taken = {v.name for v in self.volumes()}
        # A folder's name is its address: "2024 spring" is 2024%20spring in every link to it.
        name = self.chooser.choice([f"{year}{suffix}" for year in range(2019, 2031) for suffix in ("", " spring")
                                    if f"{year}{suffix}" not in taken])
        return int(name[:4]), name

    def volume_added(self) -> set[Path]:
        """A Mini-Conf CSV with its settings, or a PMLR .bib alone (its @Proceedings gives title and date)."""
        year, name = self.free_name()
        folder = self.content / name
        folder.mkdir()
        if self.chooser.random() < 0.5:
            sources = {folder / "papers.csv": colt2020_csv(seed=year, count=self.chooser.randint(3, 6)),
                       folder / "proceedings.yaml": volume_config(year)}
        else:
            sources = {folder / "pmlr.bib": (FIXTURES / "venues" / "pmlr-v999.bib").read_text(encoding="utf-8")}
        for path, text in sources.items():
            path.write_text(text, encoding="utf-8")
        self.log.append(f"added {name}")
        return {folder, *sources}

    def volume_removed(self) -> set[Path]:
        volumes = self.volumes()
        if len(volumes) < 2:  # a series keeps one volume at least: add one instead
            return self.volume_added()
        folder = self.chooser.choice(volumes)
        gone = {folder, *folder.rglob("*")}
        shutil.rmtree(folder)
        self.log.append(f"removed {folder.name}")
        return gone

    def volume_renamed(self) -> set[Path]:
        """A volume's folder renamed: its prefix, its papers' addresses and its place in the series move."""
        folder = self.chooser.choice(self.volumes())
        moved = self.content / self.free_name()[1]
        gone = {folder, *folder.rglob("*")}
        folder.rename(moved)
        self.log.append(f"renamed {folder.name} to {moved.name}")
        return gone | {moved, *moved.rglob("*")}

    def volume_settings(self) -> set[Path]:
        folder = self.chooser.choice(self.volumes())
        path = folder / "proceedings.yaml"
        if path.exists() and self.chooser.random() < 0.2:  # its title and date from its sources again
            path.unlink()
            self.log.append(f"{folder.name}: settings removed")
            return {path}
        date = self.chooser.choice(["06-30", "01-15", ""])  # the newest volume, whose papers make the feed, moves
        path.write_text(volume_config(int(folder.name[:4]), self.chooser.randint(2, 9),
                                      f"COLT {folder.name}, edition {self.next()}", date), encoding="utf-8")
        self.log.append(f"{folder.name}: settings")
        return {path}

    def paper(self) -> set[Path]:
        folder = self.chooser.choice(self.volumes())
        kind = self.paper_edits[self.papers_edited % len(self.paper_edits)]
        self.papers_edited += 1
        editor = Editor(folder, self.chooser)
        editor.counter = int(self.next()) * 100  # titles and slugs unique across volumes and steps
        self.log.append(f"{folder.name}: {kind}")
        return getattr(editor, kind)()

    def series_settings(self) -> set[Path]:
        path = self.content / "proceedings.yaml"
        path.write_text(SERIES_CONFIG.replace("Every COLT.", f"Every COLT, edition {self.next()}."), encoding="utf-8")
        self.log.append("series settings")
        return {path}

    def series_people(self) -> set[Path]:
        path = self.content / "people.yaml"
        path.write_text(self.chooser.choice(["same:\n  - [A. Lovelace, Ada Lovelace]\n",
                                             "different:\n  - [A. Lovelace, Ada Lovelace]\n"]), encoding="utf-8")
        self.log.append("series people")
        return {path}

    def series_theme(self) -> set[Path]:
        """The series' own template, or a style sheet its theme shadows the default's with."""
        if self.chooser.random() < 0.5:
            path = self.content / "theme" / "templates" / "series.html"
            text = '{% extends "default/series.html" %}{% block title %}Edited ' + self.next() + \
                ' · {{ super() }}{% endblock %}'
        else:
            path = self.content / "theme" / "static" / "style.css"
            text = f"/* the series' own style, edition {self.next()} */\nbody {{ margin: 0; }}\n"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        self.log.append(f"series theme: {path.name}")
        return {path}

    EDITS = ("volume_added", "volume_removed", "volume_renamed", "volume_settings", "paper", "series_settings",
             "series_people", "series_theme")


# What a person edits inside one volume of a series (its settings are SeriesEditor.volume_settings: a volume's
# CONFIG names a base_url, which a series sets for every volume).
PAPER_EDITS = ("title", "authors", "topics", "slug", "sessions", "correction", "link", "linked_file", "people",
               "theme", "source", "symlinked_page")


@pytest.fixture
def series(tmp_path) -> Path:
    content = tmp_path / "series"
    for year in (2024, 2025):
        (content / str(year)).mkdir(parents=True)
        (content / str(year) / "papers.csv").write_text(colt2020_csv(seed=year, count=5), encoding="utf-8")
        (content / str(year) / "proceedings.yaml").write_text(volume_config(year), encoding="utf-8")
    (content / "proceedings.yaml").write_text(SERIES_CONFIG, encoding="utf-8")
    return content


@pytest.mark.parametrize("seed", SEEDS)
def test_a_served_series_equals_a_build_without_cache_after_random_edits(series, tmp_path, seed):
    chooser = random.Random(seed)
    editor = SeriesEditor(series, chooser)
    live = LiveSeries(series, tmp_path / "served")
    try:
        assert not live.build_all().failed
        settled(live)
        plan = edit_plan(chooser, SeriesEditor.EDITS)
        for step, kind in enumerate(plan):
            changed = getattr(editor, kind)()
            rebuilt = live.rebuild({path.resolve() if not path.is_symlink() else path for path in changed})
            assert not rebuilt.failed, (editor.log, rebuilt.diagnostics)
            settled(live)
            expected = built(series, tmp_path / f"built-{step}")
            differ = sorted(name for name in expected.keys() | live.files.keys()
                            if expected.get(name) != live.files.get(name))
            assert not differ, f"after {editor.log}: serve and build differ in {differ[:8]}"
    finally:
        live.close()
