"""map.html at any size (issue 43): the page draws a spread of the marks within 100 KB and map/points-N.js
scripts hold the others, every paper once; a volume whose marks all fit writes no file."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from conftest import copy_content
from map_fixtures import write_volume
from generator.commands.build import build
from generator.derive import paper_map, related
from generator.render import map_points
from generator.render.map_points import PAGE_LIMIT, MapPlan, plan_map, points_files, spread_order
from generator.render.map_view import Mark, MarkGroup
from generator.reporter import Reporter

MARK = re.compile(r'<a href="(papers/[^"]+\.html)"><title>([^<]*)</title><circle cx="(\d+)" cy="(\d+)" r="\d+"/></a>')
def built(content: Path, site: Path) -> Path:
    paper_map._LAST.clear()  # as a new process would
    related._neighbours.cache_clear()
    related.forget_vectors()
    reporter = Reporter()
    build(content, site, reporter)
    assert not reporter.errors, reporter.errors
    return site


def points_data(path: Path) -> list[list]:
    """What a points file hands map.js (search/payload.py's data_script)."""
    text = path.read_text(encoding="ascii")
    match = re.fullmatch(r'proceedingsMap\.arrived\("(points-\d+)",JSON\.parse\((".*")\)\);\n', text, re.S)
    assert match and match.group(1) == path.stem, text[:200]
    return json.loads(json.loads(match.group(2)))


def drawn_and_loaded(site: Path) -> tuple[list[str], list[str], list[str]]:
    """The papers the page draws, those its points files hold (as the pages they link), and the files it names."""
    page = (site / "map.html").read_text(encoding="utf-8")
    named = re.search(r'data-files="([^"]*)"', page)
    files = named.group(1).split() if named else []
    loaded = [f"papers/{point[3]}.html" for file in files for point in points_data(site / file)]
    return [href for href, *_ in MARK.findall(page)], loaded, files


def assert_every_paper_once(site: Path) -> tuple[list[str], list[str], list[str]]:
    drawn, loaded, files = drawn_and_loaded(site)
    papers = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    assert sorted(drawn + loaded) == sorted(f"papers/{p['slug']}.html" for p in papers)  # each once
    assert sorted(files) == sorted(f"map/{p.name}" for p in (site / "map").glob("*")), "a file not named, or missing"
    for href in loaded:
        assert (site / href).is_file(), href
    return drawn, loaded, files


def test_spread_order_takes_the_whole_drawing_first():
    rng = random.Random(5)
    # Two clusters, one three times the other's size: any first k take both, in about that proportion.
    places = [(rng.randint(0, 300), rng.randint(0, 300)) for _ in range(750)]
    places += [(rng.randint(700, 1000), rng.randint(200, 500)) for _ in range(250)]
    order = spread_order(places)
    assert sorted(order) == list(range(len(places)))
    for k in (40, 100, 333):
        right = sum(1 for n in order[:k] if places[n][0] >= 700)
        assert abs(right - k / 4) <= k / 10 + 1, (k, right)
        quarters = {(x // 150, y // 150) for x, y in (places[n] for n in order[:k]) if x < 300 and y < 300}
        assert len(quarters) == 4  # the big cluster's every quarter
    assert spread_order(places) == order and spread_order([]) == []


def mark(n: int) -> Mark:
    return Mark(n % 997, n % 491, f"papers/paper-{n}.html", f"Paper {n} <with> “quotes” & more")


def groups_of(count: int) -> list[MarkGroup]:
    return [MarkGroup(number, f"group {number}", "", [mark(n) for n in range(count) if n % 3 == number])
            for number in (1, 2, 0)]


def fake_page(frame: int, per_mark: int = 120):
    """A render of ``frame`` bytes and ``per_mark`` a mark drawn, as a theme's own map.html might."""
    return lambda plan: b"x" * (frame + per_mark * sum(len(group.drawn) for group in plan.groups))


def test_the_page_draws_what_fits_and_the_files_hold_the_rest():
    groups = groups_of(3_000)
    plan, page = plan_map(groups, fake_page(12_000))
    assert len(page) <= PAGE_LIMIT and 0 < plan.drawn < plan.count == 3_000
    drawn = [m.url for group in plan.groups for m in group.drawn]
    loaded = [f"papers/{point[3]}.html" for _, data in plan.files for point in _data(data)]
    assert sorted(drawn + loaded) == sorted(m.url for group in groups for m in group.marks)
    assert all(len(data) < PAGE_LIMIT for _, data in plan.files)
    assert [path for path, _ in plan.files] == [f"map/points-{n}.js" for n in range(len(plan.files))]
    # A colour group keeps its number, a point its place and title.
    first = _data(plan.files[0][1])[0]
    source = next(m for group in groups for m in group.marks if m.url == f"papers/{first[3]}.html")
    assert first[:2] == [source.x, source.y] and first[4] == source.title
    assert first[2] == next(g.number for g in groups if source in g.marks)
    assert plan_map(groups, fake_page(12_000)) == (plan, page)  # nothing random


def test_a_heavy_page_draws_fewer_and_a_small_volume_writes_no_file():
    light, _ = plan_map(groups_of(3_000), fake_page(12_000))
    heavy, page = plan_map(groups_of(3_000), fake_page(80_000, per_mark=300))  # a theme's bigger marks
    assert len(page) <= PAGE_LIMIT and heavy.drawn < light.drawn
    small, page = plan_map(groups_of(100), fake_page(12_000))
    assert small.drawn == small.count == 100 and small.files == [] and small.context()["map_files"] == []
    # A theme whose page is over the limit without a mark (it draws every mark itself): nothing drawn by the plan.
    none, _ = plan_map(groups_of(3_000), lambda plan: b"x" * 200_000)
    assert none.drawn == 0 and sum(len(_data(data)) for _, data in none.files) == 3_000


def test_points_files_are_cut_by_bytes_and_hold_titles_safely():
    points = [(n % 10, mark(n)) for n in range(500)]
    files = points_files(points, limit=5_000)
    assert len(files) > 5 and all(len(data) < 7_000 for _, data in files)
    rows = [row for _, data in files for row in _data(data)]
    assert [row[3] for row in rows] == [f"paper-{n}" for n in range(500)]
    hostile = points_files([(1, Mark(1, 2, "papers/x.html", "</script><script>alert(1)</script>"))])
    assert b"<" not in hostile[0][1] and _data(hostile[0][1])[0][4] == "</script><script>alert(1)</script>"


def _data(script: bytes) -> list[list]:
    match = re.fullmatch(rb'proceedingsMap\.arrived\("points-\d+",JSON\.parse\((".*")\)\);\n', script, re.S)
    assert match, script[:100]
    return json.loads(json.loads(match.group(1)))


def test_the_seed_draws_every_paper_and_writes_no_points_file(tmp_path):
    site = built(copy_content(tmp_path / "content"), tmp_path / "site")
    drawn, loaded, files = assert_every_paper_once(site)
    assert drawn and not loaded and not files and not (site / "map").exists()
    assert "data-files" not in (site / "map.html").read_text(encoding="utf-8")


def test_a_volume_past_the_budget_draws_a_spread_and_loads_the_rest(tmp_path, monkeypatch):
    """The rule at a smaller scale: the budgets cut to fit 150 papers (the real ones at 2,400: below)."""
    monkeypatch.setattr(map_points, "MARK_BYTES", 4_000)
    monkeypatch.setattr(map_points, "FILE_BYTES", 5_000)
    content = write_volume(tmp_path / "content", 150)
    site = built(content, tmp_path / "one")
    drawn, loaded, files = assert_every_paper_once(site)
    assert 10 < len(drawn) < 40 and len(files) >= 3
    page = (site / "map.html").read_text(encoding="utf-8")
    assert f'data-drawn="{len(drawn)}" data-count="150"' in page
    assert f"This page draws {len(drawn)} of the 150 papers on the map" in page
    assert '<a href="index.html">the contents</a>' in page  # the no-JS reader reaches every paper there
    for number in range(len(files)):
        assert b"<" not in (site / "map" / f"points-{number}.js").read_bytes()
    # The legend counts every paper of a group, not only those drawn.
    counts = [int(n) for n in re.findall(r'<span class="tag-count">(\d+)</span></li>', page.split("map-legend")[1]
                                         .split("</ul>")[0])]
    assert sum(counts) == 150
    again = built(content, tmp_path / "two")
    for name in ["map.html", *files]:
        assert (again / name).read_bytes() == (site / name).read_bytes(), name


@pytest.mark.slow
def test_a_2400_paper_map_stays_under_100_kb(tmp_path):
    site = built(write_volume(tmp_path / "content", 2_400), tmp_path / "site")
    drawn, loaded, files = assert_every_paper_once(site)
    assert (site / "map.html").stat().st_size < 100_000
    assert len(drawn) >= 250 and len(files) >= 2  # a map already, and the rest in files
    assert all((site / file).stat().st_size < 100_000 for file in files)
    # The odd titles come back whole from the points files (map.js sets them as text).
    titles = {point[4] for file in files for point in points_data(site / file)}
    titles |= {title for _, title, *_ in MARK.findall((site / "map.html").read_text(encoding="utf-8"))}
    assert any("</script>" in title or "&lt;/script&gt;" in title for title in titles)


def test_a_plan_names_its_files_in_the_context():
    plan = MapPlan(groups_of(10), 4, 10, [("map/points-0.js", b"")])
    assert plan.context() == {"groups": plan.groups, "map_drawn": 4, "map_count": 10,
                              "map_files": ["map/points-0.js"]}
