"""map.html at any size (issue 43): the page draws a spread of the marks within 100 KB and map/points-N.js
scripts hold every paper's point once, for map.js to draw the others; a volume whose marks all fit writes no
file."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from conftest import copy_content
from map_fixtures import ODD_TITLES, WORDS, write_volume
from generator.commands.build import build
from generator.derive import paper_map, related
from generator.render import map_points
from generator.derive.paper_map import Placed
from generator.pipeline.live import LiveSite
from generator.model.config import Config
from generator.model.paper import Paper, RenderedPaper
from generator.model.volume import Volume
from generator.render.html import SiteRenderer
from generator.render.site_info import SiteInfo
from generator.render.theme import Theme
from generator.render.map_points import PAGE_LIMIT, MapPlan, file_count, plan_map, points_files, spread_order
from generator.render.map_view import Mark, MarkGroup
from generator.reporter import Reporter

MARK = re.compile(r'<a href="(papers/[^"]+\.html)"><title>([^<]*)</title><circle cx="(\d+)" cy="(\d+)" r="\d+"/></a>')
def built(content: Path, site: Path) -> Path:
    paper_map._LAST.clear()  # as a new process would
    related.forget_texts()
    related.forget_vectors()
    reporter = Reporter()
    build(content, site, reporter)
    assert not reporter.errors, reporter.errors
    return site


def points_data(path: Path) -> list[list]:
    """What a points file hands map.js (search/payload.py's data_script)."""
    return _data(path.read_bytes(), path.stem)


def _data(script: bytes, name: str = "") -> list[list]:
    match = re.fullmatch(rb'proceedingsMap\.arrived\("(points-\d+)",JSON\.parse\((".*")\)\);\n', script, re.S)
    assert match and match.group(1).decode() == (name or match.group(1).decode()), script[:200]
    return json.loads(json.loads(match.group(2)))


def drawn_and_loaded(site: Path) -> tuple[list[str], list[str], list[str]]:
    """The papers the page draws, those its points files hold (as the pages they link), and the files it names."""
    page = (site / "map.html").read_text(encoding="utf-8")
    named = re.search(r'data-files="([^"]*)"', page)
    files = named.group(1).split() if named else []
    loaded = [f"papers/{point[3]}.html" for file in files for point in points_data(site / file)]
    return [href for href, *_ in MARK.findall(page)], loaded, files


def assert_every_paper_once(site: Path) -> tuple[list[str], list[str], list[str]]:
    """The page draws each of its dots once; the points files (when it names any) hold every paper once, else the
    page draws every paper."""
    drawn, loaded, files = drawn_and_loaded(site)
    papers = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    every = sorted(f"papers/{p['slug']}.html" for p in papers)
    assert len(set(drawn)) == len(drawn) and set(drawn) <= set(every)
    assert sorted(loaded if files else drawn) == every
    assert sorted(files) == sorted(f"map/{p.name}" for p in (site / "map").glob("*")), "a file not named, or missing"
    for href in drawn + loaded:
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


def rendered(n: int, title: str = "") -> RenderedPaper:
    title = title or f"Paper {n} <with> “quotes” & more"
    record = Paper(str(n), f"paper-{n}", title, "An abstract.", (), n, "list.txt", n, Path(f"paper-{n}.md"))
    return RenderedPaper(record, title, title, "An abstract.", "An abstract.")


def volume(count: int) -> tuple[list[RenderedPaper], list[MarkGroup]]:
    """``count`` papers and their marks in three colour groups, placed over the drawing."""
    papers = [rendered(n) for n in range(count)]
    groups = [MarkGroup(number, f"group {number}", "", [Mark(n * 37 % 997, n * 53 % 491, p.url, p.title_plain)
                                                         for n, p in enumerate(papers) if n % 3 == number])
              for number in (1, 2, 0)]
    return papers, groups


def fake_page(frame: int, per_mark: int = 120):
    """A render of ``frame`` bytes and ``per_mark`` a mark drawn, as a theme's own map.html might."""
    return lambda plan: b"x" * (frame + per_mark * sum(len(group.drawn) for group in plan.groups))


def file_points(plan: MapPlan) -> list[list]:
    return [point for _, data in plan.files for point in _data(data)]


def test_the_page_draws_what_fits_and_the_files_hold_every_paper():
    papers, groups = volume(3_000)
    files = file_count(papers)
    assert files > 1
    plan, page = plan_map(papers, groups, fake_page(12_000), files)
    assert len(page) <= PAGE_LIMIT and 0 < plan.drawn < plan.count == 3_000
    assert sorted(f"papers/{point[3]}.html" for point in file_points(plan)) == sorted(p.url for p in papers)
    assert all(len(data) < 80_000 for _, data in plan.files)  # FILE_BYTES of JSON, give or take the sampling
    assert [path for path, _ in plan.files] == [f"map/points-{n}.js" for n in range(files)]
    # file N holds every files-th paper from the Nth, in the volume's order: each a sample of the whole volume
    assert [point[3] for point in _data(plan.files[1][1])] == [p.slug for p in papers[1::files]]
    # a point keeps its place, colour group and title
    first = _data(plan.files[0][1])[0]
    group = next(g for g in groups if any(m.url == papers[0].url for m in g.marks))
    mark = next(m for m in group.marks if m.url == papers[0].url)
    assert first == [mark.x, mark.y, group.number, papers[0].slug, mark.title]
    assert plan_map(papers, groups, fake_page(12_000), files) == (plan, page)  # nothing random


def test_a_heavy_page_draws_fewer_and_a_small_volume_writes_no_file():
    papers, groups = volume(3_000)
    light, _ = plan_map(papers, groups, fake_page(12_000), file_count(papers))
    heavy, page = plan_map(papers, groups, fake_page(80_000, per_mark=300), file_count(papers))  # a theme's marks
    assert len(page) <= PAGE_LIMIT and heavy.drawn < light.drawn
    few, groups = volume(100)
    assert file_count(few) == 0
    small, page = plan_map(few, groups, fake_page(12_000), 0)
    assert small.drawn == small.count == 100 and small.files == [] and small.context()["map_files"] == []
    # A theme whose page is over the limit without a mark (it draws every mark itself): nothing drawn by the plan.
    none, _ = plan_map(papers, volume(3_000)[1], lambda plan: b"x" * 200_000, file_count(papers))
    assert none.drawn == 0 and len(file_points(none)) == 3_000


def test_the_file_count_follows_the_bytes_of_titles():
    short = [rendered(n, "Short") for n in range(400)]
    long = [rendered(n, "A much longer title " * 8) for n in range(400)]
    assert file_count(short) == 0 < file_count(long)  # 400 short marks fit the page: 400 long ones do not
    assert file_count([rendered(n, "A much longer title " * 8) for n in range(4_000)]) > 5 * file_count(long)


def test_points_files_hold_titles_safely():
    hostile = rendered(1, "</script><script>alert(1)</script>")
    [(path, data)] = points_files([hostile], [(1, Mark(1, 2, hostile.url, hostile.title_plain))], 1)
    assert path == "map/points-0.js" and b"<" not in data
    assert _data(data) == [[1, 2, 1, "paper-1", "</script><script>alert(1)</script>"]]


def test_ten_thousand_papers_fit_and_their_listing_lays_nothing_out(tmp_path):
    """At the issue's size, rendered as a build renders it: the listing names the points files without the places
    (serve lays the map out in the background after an edit); the page stays under 100 KB."""
    rng = random.Random(10)
    papers = [rendered(n, " ".join(rng.choices(WORDS, k=rng.randint(4, 12))).capitalize()) for n in range(10_000)]
    centres = [(rng.randint(100, 900), rng.randint(100, 600)) for _ in range(12)]
    laid: list[int] = []

    def places(given):
        laid.append(len(given))
        spots = {}
        for paper in given:
            x, y = rng.choice(centres)
            spots[paper.paper.id] = (min(988, max(12, round(rng.gauss(x, 60)))),
                                     min(688, max(12, round(rng.gauss(y, 40)))))
        return Placed(1000, 700, spots)

    site = SiteInfo(Volume("Big Conference"), len(papers), has_map=True)
    renderer = SiteRenderer(Theme.for_content(tmp_path), Config(), site, places=places)
    renderer.shared.update(tag_urls={}, session_names={})
    outputs = list(renderer.map_page(papers))
    assert not laid and outputs[0].path == "map.html" and len(outputs) > 15
    page = outputs[0].render()
    assert len(page) < 100_000 and laid == [10_000]
    files = {output.path: output.render() for output in outputs[1:]}
    assert laid == [10_000]  # once for the page and its files
    held = sorted(point[3] for data in files.values() for point in _data(data))
    assert held == sorted(p.slug for p in papers)
    assert all(len(data) < 100_000 for data in files.values())
    assert page.decode().count("<circle") > 300


def test_papers_not_on_the_map_are_listed_up_to_100_and_the_rest_left_to_the_contents(tmp_path):
    """A venue's projection that places few papers (and nothing places the others): the page lists 100 of them."""
    papers = [rendered(n, f"Unplaced paper {n}") for n in range(250)]
    placed = Placed(1000, 500, {p.paper.id: (20 + n * 9, 250) for n, p in enumerate(papers[:100])},
                    tuple(p.paper.id for p in papers[100:]))
    site = SiteInfo(Volume("Few Places"), len(papers), has_map=True)
    renderer = SiteRenderer(Theme.for_content(tmp_path), Config(), site, places=lambda given: placed)
    renderer.shared.update(tag_urls={}, session_names={})
    [output] = renderer.map_page(papers)
    page = output.render().decode()
    listed = page.split('class="map-unplaced"')[1].split("</ul>")[0]
    assert listed.count("<li>") == 100 and "Unplaced paper 199" in listed and "Unplaced paper 200" not in listed
    assert '50 more papers not on the map are listed in <a href="index.html">the contents</a>.' in page
    assert page.count("<circle") == 100 and len(page) < 100_000


def test_the_seed_draws_every_paper_and_writes_no_points_file(tmp_path):
    site = built(copy_content(tmp_path / "content"), tmp_path / "site")
    drawn, loaded, files = assert_every_paper_once(site)
    assert drawn and not files and not (site / "map").exists()
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


def test_serve_keeps_the_points_files_whole_after_an_edit(tmp_path, monkeypatch):
    """An edited title: served at once, the map and its points files made again in the background with it."""
    monkeypatch.setattr(map_points, "MARK_BYTES", 4_000)
    monkeypatch.setattr(map_points, "FILE_BYTES", 5_000)
    content = write_volume(tmp_path / "content", 150)
    live = LiveSite(content, tmp_path / "served")
    try:
        live.build_all()
        live.wait_for_search()
        before = {name for name in live.files if name.startswith("map/")}
        assert before
        page = sorted((content / "papers").glob("*.md"))[0]
        text = page.read_text(encoding="utf-8")
        assert "\ntitle: " in text
        page.write_text(text.replace("\ntitle: ", "\ntitle: Quokkas and ", 1), encoding="utf-8")
        live.rebuild({page.resolve()})
        live.wait_for_search()
        served = dict(live.files)
    finally:
        live.close()
    files = sorted(name for name in served if name.startswith("map/"))
    assert set(files) == before
    named = re.search(r'data-files="([^"]*)"', served["map.html"].decode()).group(1).split()
    assert sorted(named) == files
    points = [point for name in files for point in _data(served[name], name.removeprefix("map/")[:-3])]
    assert len(points) == len({point[3] for point in points}) == 150
    assert sum(point[4].startswith("Quokkas and ") for point in points) == 1


@pytest.mark.slow
def test_a_2400_paper_map_stays_under_100_kb(tmp_path):
    site = built(write_volume(tmp_path / "content", 2_400), tmp_path / "site")
    drawn, loaded, files = assert_every_paper_once(site)
    assert (site / "map.html").stat().st_size < 100_000
    assert len(drawn) >= 250 and len(files) >= 2  # a map already, and the rest in files
    assert all((site / file).stat().st_size < 100_000 for file in files)
    # The odd titles come back whole from the points files (map.js sets them as text).
    titles = {point[4] for file in files for point in points_data(site / file)}
    assert set(ODD_TITLES[1:]) <= titles  # the CJK one and the script one, as written
    assert any(title.startswith("Bounds of O(") for title in titles)  # the math as plain text, as the page's titles


def test_a_plan_names_its_files_in_the_context():
    plan = MapPlan(volume(10)[1], 4, 10, [("map/points-0.js", b"")])
    assert plan.context() == {"groups": plan.groups, "map_drawn": 4, "map_count": 10,
                              "map_files": ["map/points-0.js"]}
