"""A build keeps the last site's files whose inputs did not move (generator/pipeline/reuse.py), and the site
it leaves is always the one a build from scratch makes: every kind of edit below is followed by a
warm build and compared, byte for byte, with a ``--no-cache`` build into an empty folder."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.commands.build import build
from generator.reporter import Reporter
from generator.render.html import SiteRenderer


def snapshot(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


@pytest.fixture
def renders(monkeypatch) -> list[str]:
    """The templates rendered in this process (the builds below run on one job)."""
    made: list[str] = []
    real = SiteRenderer.render

    def counting(self, template, root, **context):
        made.append(template)
        return real(self, template, root, **context)

    monkeypatch.setattr(SiteRenderer, "render", counting)
    return made


def run(content: Path, out: Path, cache: bool = True):
    reporter = Reporter()
    result = build(content, out, reporter, jobs=1, cache=cache)
    assert not reporter.errors, reporter.errors
    return result


def page(content: Path, index: int) -> Path:
    return sorted((content / "papers").glob("*.md"))[index]


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path.name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_an_unchanged_rebuild_renders_no_page_and_keeps_every_file(uncached_seed_site, seed_content, tmp_path,
                                                                   renders):
    first = run(seed_content, tmp_path / "site")
    assert first.kept == 0 and renders
    renders.clear()
    second = run(seed_content, tmp_path / "site")
    assert renders == []
    pages = [n for n in snapshot(tmp_path / "site")
             if n.endswith((".html", ".json", ".bib", ".ris", ".mods.xml", ".enw", ".txt", ".nojekyll"))
             or n.startswith("assets/reading/") or n == "assets/search-messages.js"]
    assert second.kept == len(pages)
    assert snapshot(tmp_path / "site") == snapshot(uncached_seed_site)


def test_an_edited_abstract_renders_only_the_pages_that_show_it(seed_content, tmp_path, renders):
    site = tmp_path / "site"
    run(seed_content, site)
    inode = {name: (site / name).stat().st_ino for name in snapshot(site)}
    target = page(seed_content, 5)
    edit(target, "\n\n", "\n\nA sentence added by the editor. ")
    renders.clear()
    run(seed_content, site)
    slug = re.search(r"^slug: (\S+)$", target.read_text(encoding="utf-8"), re.M)[1]
    again = {name for name in snapshot(site) if (site / name).stat().st_ino != inode.get(name)}
    assert f"papers/{slug}.html" in again and "papers.json" in again
    assert any(name.startswith("assets/reading/r") for name in again)  # the block a list opens it from
    assert "404.html" not in again and "search.html" not in again
    assert "index.html" not in again  # the contents show no abstract (publish/reading_list.py)
    assert 0 < renders.count("paper.html") < 19, "only the paper, its neighbours and papers relating to it"
    run(seed_content, tmp_path / "fresh", cache=False)
    assert snapshot(site) == snapshot(tmp_path / "fresh")


def _sections(content: Path, monkeypatch) -> None:
    """Two programme sections on contents pages of 7 papers at most (as a volume past CONTENTS_PAPERS has):
    the home page lists the sections and their parts."""
    monkeypatch.setattr("generator.render.contents.CONTENTS_PAPERS", 7)
    monkeypatch.setattr("generator.render.contents.PAGE_PAPERS", 7)
    edit(content / "proceedings.yaml", "papers_per_page: 100", "papers_per_page: 7")
    for index, path in enumerate(sorted((content / "papers").glob("*.md"))):
        edit(path, "\norder:", f"\nsection: {'Orals' if index < 10 else 'Posters'}\norder:")


def _swap_entries(source: Path, first: int, second: int) -> None:
    """Two abstracts of the list trade places: the editor reorders the programme."""
    title, *entries = source.read_text(encoding="utf-8").split("\n\n")
    entries[first], entries[second] = entries[second], entries[first]
    source.write_text("\n\n".join([title, *entries]), encoding="utf-8")


EDITS = {
    "abstract": lambda c: edit(page(c, 3), "\n\n", "\n\nEdited $x^2$ text. "),
    "title": lambda c: edit(page(c, 0), "title: '", "title: 'Renamed: "),
    "section of one paper": lambda c: edit(page(c, 18), "section: Posters", "section: Spotlights"),
    "order of two papers": lambda c: _swap_entries(c / "neurips-2026.txt", 2, 3),
    "tags": lambda c: edit(page(c, 4), "tags: [", "tags: [A new topic, "),
    "a paper removed": lambda c: page(c, 7).unlink(),
    "config": lambda c: edit(c / "proceedings.yaml", "description: ", "description: Edited. "),
    "theme template": lambda c: (c / "theme" / "templates").mkdir(parents=True) or
    (c / "theme" / "templates" / "404.html").write_text("{% extends 'default/404.html' %}<!-- ours -->\n"),
    "site file edited by hand": None,  # below: the content stays, a built file changes
}


@pytest.mark.parametrize("what", EDITS)
def test_after_any_edit_the_kept_site_is_the_site_built_from_scratch(seed_content, tmp_path, what, monkeypatch):
    _sections(seed_content, monkeypatch)
    site = tmp_path / "site"
    run(seed_content, site)
    run(seed_content, site)  # the record the next build compares with is this build's
    if EDITS[what] is None:
        (site / "papers.json").write_bytes(b"[]")
        page = site / "contents" / "posters-part-2.html"
        page.write_bytes(page.read_bytes() + b"<!-- hand edit -->")
    else:
        EDITS[what](seed_content)
    result = run(seed_content, site)
    # What every page shares moved (a theme, the config, the site's shape, the papers' order, the index of
    # sections): every page is rendered again. Otherwise only the pages showing the edited paper are.
    assert (result.kept > 0) == (what in ("abstract", "title", "site file edited by hand"))
    run(seed_content, tmp_path / "fresh", cache=False)
    built, fresh = snapshot(site), snapshot(tmp_path / "fresh")
    assert built.keys() == fresh.keys()
    assert [name for name in built if built[name] != fresh[name]] == []


def test_no_cache_renders_every_page(seed_content, tmp_path, renders):
    run(seed_content, tmp_path / "site")
    renders.clear()
    result = run(seed_content, tmp_path / "site", cache=False)
    assert result.kept == 0 and renders.count("paper.html") == 19


def test_the_record_of_a_kept_site_is_the_site_on_disk_and_an_edit_in_place_is_seen(seed_content, tmp_path, renders):
    """A file linked from the last site is recorded with the identity just compared (not asked of the disk
    again): it must be the file's identity after the swap; and a kept file edited in place since is rendered."""
    from generator.pipeline.reuse import LastSite
    from generator.runtime.cache import BuildCache

    site = tmp_path / "site"
    run(seed_content, site)
    assert run(seed_content, site).kept > 0
    assert LastSite.load(BuildCache.for_content(seed_content), site).intact()
    page = next((site / "papers").glob("*.html"))
    page.write_bytes(page.read_bytes().replace(b"</body>", b"<!-- edited --></body>"))
    renders.clear()
    run(seed_content, site)
    assert renders == ["paper.html"] and b"<!-- edited -->" not in page.read_bytes()
