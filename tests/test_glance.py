"""The volume at a glance (glance.html): the counts (derive/charts.py), the page a build writes with those counts in
its tables (render/glance.py, _chart.html), a series' page, escaping, determinism and the page's size."""

from __future__ import annotations

import json
import random
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from series_fixtures import SMALL, make_series
from generator.commands.cli import main
from generator.derive.charts import TOP, affiliations, authors_histogram, returning_tally, tally, volume_tally
from generator.derive.groups import day_key
from generator.model.config import Config
from generator.model.paper import Author, Details, Paper, RenderedPaper
from generator.model.volume import Volume
from generator.render.glance import bar_chart, glance_files
from generator.render.html import SiteRenderer
from generator.render.outputs import SiteParts
from generator.render.people_topics import group_tags
from generator.render.site_info import SiteInfo
from generator.render.theme import Theme
from generator.sources import jsonlines

VENUES = Path(__file__).parent / "fixtures" / "venues"
FIXTURE = VENUES / "openreview-style-papers.jsonl"  # six papers with affiliations in the shapes exports write
HOSTILE = "<script>alert(1)</script> \"quoted\" & 'single' </svg><img src=x onerror=alert(2)>"


def entries():
    return jsonlines.read(FIXTURE, FIXTURE.name).entries


def by_name(chart) -> dict[str, int]:
    return {count.name: count.value for count in chart.shown}


# -- the counts ---------------------------------------------------------------------------------------------------


def test_affiliations_counted_once_a_paper_as_written_case_and_spacing_aside():
    chart = tally("affiliations", ((e, affiliations(e.details.authors)) for e in entries()))
    # "university of  Edinburgh " is the University of Edinburgh, shown as most papers write it; two authors of
    # one paper from it count it once; "Google DeepMind; University College London" and a list are two each.
    assert [(c.name, c.value) for c in chart.shown] == [
        ("University of Edinburgh", 3), ("Google DeepMind", 2), ("Tel Aviv University", 2),
        ("Carnegie Mellon University", 1), ("University College London", 1)]
    assert (chart.categories, chart.hidden, chart.others, chart.without) == (5, 0, 0, 1)


def test_sessions_tracks_and_days_from_the_papers_rows():
    papers = entries()
    sessions = tally("sessions", ((e, e.details.sessions) for e in papers))
    assert [(c.name, c.value) for c in sessions.shown] == [("Oral 1A", 2), ("Oral 3B", 2), ("Poster 2", 2)]
    assert sessions.without == 1  # the paper no session names
    assert by_name(tally("tracks", ((e, e.details.track) for e in papers))) == {"Main": 4, "Findings": 2}
    days = tally("days", ((e, (e.details.day,)) for e in papers), order=day_key)
    assert [c.name for c in days.shown] == ["Monday", "Tuesday", "Wednesday"] and days.ordered


def test_the_largest_are_shown_ties_by_name_and_the_rest_summed():
    # 25 topics: topic n has n papers of its own, and paper 0 is in every topic.
    members = [(0, [f"Topic {n}" for n in range(1, 26)])]
    members += [(n, [f"Topic {n}"]) for n in range(1, 26) for _ in range(n)]
    chart = tally("topics", members)
    assert len(chart.shown) == TOP and chart.hidden == 5
    assert chart.shown[0] == chart.largest and chart.largest.name == "Topic 25"
    assert chart.others == 1 + sum(range(1, 6))  # the papers of topics 1–5, paper 0 once
    ties = tally("topics", [(1, ["Topic 10"]), (2, ["Topic 2"]), (3, ["topic 2"])])
    assert [c.name for c in ties.shown] == ["Topic 2", "Topic 10"]  # "topic 2" is "Topic 2"; 2 before 10
    shuffled = members[:]
    random.Random(3).shuffle(shuffled)
    assert {c.name: c.value for c in tally("topics", shuffled).shown} == by_name(chart)


def test_a_programme_order_holds_only_when_every_name_fits():
    few = [(n, [f"Day {n % 15}"]) for n in range(100)]
    ordered = tally("days", few, order=lambda name: -int(name.split()[1]))
    assert ordered.ordered and [c.name for c in ordered.shown][:2] == ["Day 14", "Day 13"]
    many = [(n, [f"Day {n % 25}"]) for n in range(100)]
    ranked = tally("days", many, order=lambda name: int(name.split()[1]))
    assert not ranked.ordered and ranked.hidden == 5


def test_authors_per_paper_histogram():
    histogram = authors_histogram([2, 2, 5, 1, 2, 2])
    assert histogram is not None
    assert histogram.columns == (("1", 1), ("2", 4), ("3", 0), ("4", 0), ("5", 1))
    assert (histogram.median, round(histogram.mean, 2)) == (2, 2.33)
    big = authors_histogram([3, 40, 12, 11])
    assert big is not None and big.columns[-1] == ("12+", 2) and big.columns[0] == ("3", 1)
    assert authors_histogram([0, 0]) is None  # a plain list of abstracts names no author


def test_series_counts():
    volumes = volume_tally([(f"Volume {n}", n, f"v{n}/index.html") for n in range(30, 0, -1)])
    assert [c.name for c in volumes.shown][:2] == ["Volume 30", "Volume 29"]  # the series' order, newest first
    assert volumes.hidden == 10 and volumes.others == sum(range(1, 11))
    people = returning_tally([("Ada", ["2019", "2020", "2020"], 3, "people/ada.html"),
                              ("Bo", ["2019"], 1, "people/bo.html"),
                              ("Cy", ["2019", "2023"], 2, "people/cy.html"),
                              ("Al", ["2020", "2023"], 2, "people/al.html")])
    assert [(c.name, c.value, c.extra) for c in people.shown] == [("Ada", 2, 3), ("Al", 2, 2), ("Cy", 2, 2)]
    assert (people.categories, people.without) == (3, 1)


# -- the page a build writes --------------------------------------------------------------------------------------


class Charts(HTMLParser):
    """Each figure's heading and its table's rows (name, numbers); every element seen, with its attributes."""

    def __init__(self):
        super().__init__()
        self.figures: dict[str, list[tuple[str, list[int]]]] = {}
        self.elements: list[tuple[str, dict]] = []
        self._heading = self._cell = None
        self._text = ""

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))
        if tag == "h2" or tag in ("th", "td"):
            self._text = ""
        if tag == "tr":
            self._row: list = []

    def handle_data(self, data):
        self._text += data

    def handle_endtag(self, tag):
        if tag == "h2":
            self._heading = self._text
            self.figures[self._heading] = []
        elif tag == "th" and hasattr(self, "_row"):
            self._row.append(self._text)
        elif tag == "td":
            self._row.append(int(self._text))
        elif tag == "tr" and self._heading and len(self._row) > 1 and isinstance(self._row[1], int):
            self.figures[self._heading].append((self._row[0], self._row[1:]))


def charts_of(page: Path | bytes) -> Charts:
    parser = Charts()
    parser.feed(page.decode("utf-8") if isinstance(page, bytes) else page.read_text(encoding="utf-8"))
    return parser


@pytest.fixture
def volume(tmp_path) -> Path:
    content = tmp_path / "volume"
    content.mkdir()
    (content / "papers.jsonl").write_text(FIXTURE.read_text(encoding="utf-8"), encoding="utf-8")
    (content / "proceedings.yaml").write_text("title: Findings of Somewhere 2026\n", encoding="utf-8")
    return content


def test_the_page_shows_the_counts_in_its_tables(volume, tmp_path):
    assert main(["build", "--content", str(volume), "--out", str(tmp_path / "site"), "--no-cache"]) == 0
    page = tmp_path / "site" / "glance.html"
    figures = charts_of(page).figures
    rows = {heading: {name: numbers for name, numbers in table} for heading, table in figures.items()}
    assert rows["Papers per affiliation"] == {
        "University of Edinburgh": [3], "Google DeepMind": [2], "Tel Aviv University": [2],
        "Carnegie Mellon University": [1], "University College London": [1]}
    assert rows["Papers per session"] == {"Oral 1A": [2], "Oral 3B": [2], "Poster 2": [2]}
    assert rows["Papers per track"] == {"Main": [4], "Findings": [2]}
    assert list(rows["Papers per day"].items()) == [("Monday", [2]), ("Tuesday", [2]), ("Wednesday", [1])]
    assert rows["Authors per paper"] == {"1": [1], "2": [4], "3": [0], "4": [0], "5": [1]}
    assert {"Dialogue": [2], "Evaluation": [2], "Machine translation": [2]}.items() <= rows["Papers per topic"].items()
    assert "Papers per section" not in rows  # no paper names one: no chart
    html = page.read_text(encoding="utf-8")
    # Bars lead to the topic pages and the sessions' headings (the contents are grouped by session).
    assert '<a href="tags/dialogue.html"><title>Dialogue: 2 papers</title>' in html
    assert re.search(r'<a href="index\.html#group-oral-1a"><title>Oral 1A: 2 papers</title>', html)
    assert 'role="img" aria-labelledby="chart-affiliations-title"' in html  # no affiliation has a page
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert '<a class="glance-link" href="glance.html">At a glance</a>' in home
    assert (tmp_path / "site" / "assets" / "charts.css").is_file()


def test_same_papers_same_bytes(volume, tmp_path):
    for out in ("one", "two"):
        assert main(["build", "--content", str(volume), "--out", str(tmp_path / out), "--no-cache"]) == 0
    assert (tmp_path / "one" / "glance.html").read_bytes() == (tmp_path / "two" / "glance.html").read_bytes()


def test_hostile_names_are_text(volume, tmp_path):
    """A topic, an affiliation, a session and a track that try to close the SVG and run a script stay text."""
    text = (volume / "papers.jsonl").read_text(encoding="utf-8")
    text = text.replace('"Tel Aviv University"', json.dumps(HOSTILE)).replace('"Oral 1A"', json.dumps(HOSTILE))
    text = text.replace('"Dialogue"', json.dumps(HOSTILE)).replace('"Findings"', json.dumps(HOSTILE))
    (volume / "papers.jsonl").write_text(text, encoding="utf-8")
    assert main(["build", "--content", str(volume), "--out", str(tmp_path / "site"), "--no-cache"]) == 0
    page = tmp_path / "site" / "glance.html"
    html = page.read_text(encoding="utf-8")
    assert "<script>alert" not in html and "<img" not in html
    parsed = charts_of(page)
    assert all(attrs.get("src", "").startswith("assets/") for tag, attrs in parsed.elements if tag == "script")
    assert not [attrs for _, attrs in parsed.elements if any(name.startswith("on") for name in attrs)]
    rows = {heading: dict(table) for heading, table in parsed.figures.items()}
    for heading in ("Papers per affiliation", "Papers per session", "Papers per track", "Papers per topic"):
        assert rows[heading][HOSTILE] == [2], heading  # shown as written, counted as any other name
    assert html.count("</svg>") == html.count("<svg")


def test_series_page_counts_volumes_and_the_people_who_come_back(tmp_path):
    content = make_series(tmp_path, SMALL)
    assert main(["build", "--content", str(content), "--out", str(tmp_path / "site"), "--no-cache"]) == 0
    site = tmp_path / "site"
    records = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    titles = {r["volume_path"]: r["volume_title"] for r in records}
    per_volume = {titles[path]: [sum(r["volume_path"] == path for r in records)] for path in titles}
    figures = {heading: dict(table) for heading, table in charts_of(site / "glance.html").figures.items()}
    assert figures["Papers per volume"] == per_volume
    # The people in two volumes or more, as their person pages list them.
    returning = {}
    for page in (site / "people").glob("*.html"):
        html = page.read_text(encoding="utf-8")
        volumes = set(re.findall(r'href="\.\./([^/"]+)/papers/', html))
        if len(volumes) >= 2 and page.name != "index.html":
            returning[re.search(r"<h1[^>]*>(.*?)</h1>", html, re.S).group(1).strip()] = len(volumes)
    assert returning and {name: numbers[0] for name, numbers in figures["People who come back"].items()} == returning
    html = (site / "glance.html").read_text(encoding="utf-8")
    for link in re.findall(r'<a href="(people/[^"]+)">', html):
        assert (site / link).is_file(), link
    assert '<a class="glance-link" href="glance.html">' in (site / "index.html").read_text(encoding="utf-8")
    assert (site / "2019" / "glance.html").is_file()  # each volume has its own


# -- size --------------------------------------------------------------------------------------------------------


def synthetic(count: int) -> list[RenderedPaper]:
    """``count`` papers as a large venue's: hundreds of topics and sessions, thousands of institutions."""
    rng = random.Random(41)
    papers = []
    for n in range(count):
        authors = tuple(Author(f"Author {rng.randrange(count * 3)}", f"Institute {rng.randrange(3000)} of Studies")
                        for _ in range(rng.choice((1, 2, 3, 3, 4, 5, 8, 30))))
        details = Details(authors=authors, sessions=(f"Session {rng.randrange(300)}",),
                          track=(f"Track {rng.randrange(12)}",), day=f"Day {rng.randrange(1, 6)}")
        tags = tuple(f"Topic {rng.randrange(400)}" for _ in range(3))
        paper = Paper(str(n), f"p{n}", f"Paper {n}", "", tags, n + 1, "papers.jsonl", n + 1, Path(f"p{n}.md"), details)
        papers.append(RenderedPaper(paper, f"Paper {n}", f"Paper {n}", "", ""))
    return papers


def test_the_page_stays_small_at_ten_thousand_papers(tmp_path):
    papers = synthetic(10_000)
    renderer = SiteRenderer(Theme.for_content(tmp_path), Config(), SiteInfo(Volume("Big Conference"), len(papers)))
    renderer.shared["tag_urls"] = {}
    parts = SiteParts(papers, group_tags(papers), [])
    [(path, render)] = glance_files(renderer, parts)
    page = render()
    assert path == "glance.html" and len(page) < 100_000, len(page)
    figures = charts_of(page).figures
    assert all(len(rows) <= TOP + 1 for rows in figures.values())  # the largest, and one row for the others
    assert bar_chart(tally("topics", [(p, p.paper.tags) for p in papers])).height < 40 * (TOP + 1)

