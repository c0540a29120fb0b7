"""A series is one site of collections (issue 39): whatever a theme may show of a volume is there on every
build, whether the volume was built again or carried over unchanged."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from series_fixtures import FIXTURES
from generator.commands.build import build
from generator.commands.serve import SiteApp
from generator.reporter import Reporter
from generator.series.live import LiveSeries

# Three PMLR volumes, each with its @proceedings' editors (as mlresearch/v* .bib files give them).
PMLR = {"2024": "colt-2024-theory.bib", "2025": "pmlr-v247-quirks.bib", "2099": "pmlr-quirks.bib"}
EDITORS = {"2024": "Shipra Agrawal, Aaron Roth", "2025": "Shipra Agrawal, Aaron Roth",
           "2099": "Richard Roe, Mikael Høgsgaard"}
CSP_META = b'<meta http-equiv="Content-Security-Policy"'

# A series' theme showing each volume's editors on its home page (docs/themes.md: a volume's ``volume``
# is the volume's own ``site`` object, with ``editors``).
EDITORS_THEME = """{% extends "archive-base.html" %}
{% block content %}{% for v in volumes %}
<section data-volume="{{ v.path }}"><p class="editors">{{ v.volume.editors | join(", ") }}</p></section>
{% endfor %}{% endblock %}
"""


def pmlr_series(root: Path) -> Path:
    content = root / "series"
    for name, source in PMLR.items():
        (content / name).mkdir(parents=True)
        shutil.copyfile(FIXTURES / "venues" / source, content / name / source)
    (content / "proceedings.yaml").write_text("title: PMLR\n", encoding="utf-8")
    (content / "theme" / "templates").mkdir(parents=True)
    (content / "theme" / "templates" / "archive.html").write_text(EDITORS_THEME, encoding="utf-8")
    return content


@pytest.fixture(scope="module")
def pmlr_synced(tmp_path_factory) -> Path:
    """The three PMLR volumes built once for the module (their pages written); treat as read-only."""
    root = tmp_path_factory.mktemp("pmlr")
    content = pmlr_series(root)
    build(content, root / "site", Reporter())
    return content


@pytest.fixture
def pmlr(pmlr_synced, tmp_path) -> Path:
    """A private copy of the synced PMLR series, ``tmp_path / "series"``."""
    return shutil.copytree(pmlr_synced, tmp_path / "series", symlinks=True)


def shown_editors(site: Path) -> dict[str, str]:
    home = (site / "index.html").read_text(encoding="utf-8")
    return dict(re.findall(r'<section data-volume="([^"]+)"><p class="editors">([^<]*)</p>', home))


def test_every_volume_shows_its_editors_on_every_build(tmp_path):
    content = pmlr_series(tmp_path)
    for attempt in range(3):  # the first writes the pages; the second reads them; the third carries volumes over
        build(content, tmp_path / "site", Reporter())
        assert shown_editors(tmp_path / "site") == EDITORS, f"build {attempt + 1}"


def test_serve_shows_what_build_shows_of_every_volume(tmp_path, pmlr):
    content = pmlr
    build(content, tmp_path / "site", Reporter())
    live = LiveSeries(content, tmp_path / "served")
    try:
        live.build_all()
        assert shown_editors(tmp_path / "served") == EDITORS
        assert live.files["index.html"] == (tmp_path / "site" / "index.html").read_bytes()
        assert live.files["papers.json"] == (tmp_path / "site" / "papers.json").read_bytes()
        # What serve sends of the series' pages and a volume's: without the CSP that would block the reload
        # script livereload adds as it sends a page (tests/test_serve_http.py: the script is added).
        for name in ("index.html", "people/index.html", "2025/index.html"):
            status, _, body = SiteApp(live).respond("/" + name)
            assert status.startswith("200") and CSP_META in live.files[name] and CSP_META not in body, name
    finally:
        live.close()


def test_the_series_pages_see_the_series_as_site_and_by_their_names_before(tmp_path, pmlr):
    content = pmlr
    (content / "theme" / "templates" / "archive-search.html").write_text(
        '{% extends "archive-base.html" %}{% block content %}<p id="site">{{ site.title }}|{{ site.paper_count }}|'
        '{{ site.language }}</p><p id="series">{{ series.title }}|{{ series.paper_count }}</p>'
        '<p id="volumes">{% for v in volumes %}{{ v.path }}:{{ v.volume.number }};{% endfor %}</p>{% endblock %}',
        encoding="utf-8")
    result = build(content, tmp_path / "site", Reporter())
    page = (tmp_path / "site" / "search.html").read_text(encoding="utf-8")
    assert f'<p id="site">PMLR|{result.papers}|en</p>' in page
    assert f'<p id="series">PMLR|{result.papers}</p>' in page
    assert '<p id="volumes">2099:999;2025:247;2024:247;</p>' in page


def test_a_theme_of_either_name_frames_the_series_pages(tmp_path, pmlr):
    """A series' templates are ``series*.html``; a theme's ``archive*.html`` (their names before) is found where
    the new name is asked for, folder by folder: its own frame wraps the default home page, and the default
    frame can still be extended by either name."""
    content = pmlr
    templates = content / "theme" / "templates"
    (templates / "archive.html").unlink()
    (templates / "archive-base.html").write_text(
        '{% extends "default/archive-base.html" %}{% block title %}Old frame · {{ site.title }}{% endblock %}',
        encoding="utf-8")
    (templates / "series-search.html").write_text(
        '{% extends "series-base.html" %}{% block content %}<p id="new">{{ volumes | length }}</p>{% endblock %}',
        encoding="utf-8")
    build(content, tmp_path / "site", Reporter())
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    search = (tmp_path / "site" / "search.html").read_text(encoding="utf-8")
    assert "<title>Old frame · PMLR</title>" in home and 'class="volume-list"' in home  # the default series.html
    assert "<title>Old frame · PMLR</title>" in search and '<p id="new">3</p>' in search


def test_a_save_while_the_series_builds_is_published_by_the_next_build(tmp_path, monkeypatch, synced_series):
    """A volume's "unchanged" digest was taken after its build: a page saved while the volume rendered was
    carried over stale by every later build ("0 volumes built, 2 unchanged"). Every digest of inputs is now
    taken from what the build read, before the work it guards. The save lands inside the 2020 volume's own
    build, after its pages are read and before its files are rendered."""
    from series_fixtures import copy_synced
    from generator.pipeline import stages

    root = copy_synced(synced_series.content, tmp_path / "series")  # its pages written by a first build
    site = tmp_path / "site"
    build(root, site, Reporter())  # reads them as a person's
    edited, saved_midway = sorted((root / "2020" / "papers").glob("*.md"))[:2]
    retitle(edited, "Edited Before the Build")  # so that the 2020 volume renders
    real, saved = stages.render_outputs, []

    def saving_midway(outputs, sink, *args, **kwargs):
        if not saved and sink.out_dir.name == "2020":  # its pages are read; a person saves one of them
            retitle(saved_midway, "Saved While Building")
            saved.append(saved_midway)
        return real(outputs, sink, *args, **kwargs)

    monkeypatch.setattr(stages, "render_outputs", saving_midway)
    build(root, site, Reporter())
    monkeypatch.undo()
    assert saved, "the 2020 volume rendered nothing"
    build(root, site, Reporter())
    published = "".join(path.read_text(encoding="utf-8") for path in (site / "2020" / "papers").glob("*.html"))
    assert "Edited Before the Build" in published
    assert "Saved While Building" in published, "the save made during the build was never published"


def retitle(page: Path, title: str) -> None:
    text = page.read_text(encoding="utf-8")
    page.write_text(re.sub(r"(?m)^title: .*$", f"title: '{title}'", text, count=1), encoding="utf-8")
