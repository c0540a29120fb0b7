"""The home page as the volume's contents: every group of the programme, in its order (issue 30)."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest

from contents_fixtures import COLT_PAPERS, COLT_SESSIONS, colt2020_csv
from generator.commands.build import build
from generator.reporter import Reporter
from generator.derive.groups import day_key, natural_key, time_key
from generator.render.contents import plan_contents


def build_site(content: Path, out: Path) -> Path:
    reporter = Reporter()
    build(content, out, reporter)
    assert not reporter.errors, reporter.errors
    return out


def headings(html: str) -> list[str]:
    return re.findall(r'<h2 class="group-title" id="[^"]+">([^<]+)</h2>', html)


def test_every_session_of_colt_2020_is_listed_in_the_programmes_order(colt_site):
    """Each paper is in two sessions: it is listed once, under its first (issue 38), and all 20 sessions come in
    order; a later session names the papers listed earlier."""
    home = (colt_site / "index.html").read_text(encoding="utf-8")
    assert headings(home) == COLT_SESSIONS  # Session 1A … Session 4E, not in order of first appearance
    index = re.search(r'<nav class="group-index".*?</nav>', home, re.S).group()
    assert re.findall(r'<li><a href="index.html#group-[^"]+">([^<]+)</a></li>', index) == COLT_SESSIONS
    listed = Counter(re.findall(r'class="paper-item-title"[^>]*><a href="papers/([^"]+)\.html"', home))
    assert len(listed) == COLT_PAPERS and set(listed.values()) == {1}
    also = Counter(re.findall(r'<li><a href="papers/([^"]+)\.html">', home))  # each named once more, later
    assert set(also) == set(listed) and set(also.values()) == {1}
    ids = re.findall(r'\bid="([^"]+)"', home)
    assert len(ids) == len(set(ids)), [name for name, n in Counter(ids).items() if n > 1]


def test_sessions_follow_the_day_and_time_the_papers_give(tmp_path):
    """ISMIR-shaped: one session a paper, with its day and time; the programme's order is theirs, not the
    names' (and papers with no session come last, under "Other papers")."""
    content = tmp_path / "content"
    content.mkdir()
    rows = [("1", "Poster Session 3", "Monday", "2:30 PM"), ("2", "Poster Session 1", "Tuesday", "9:00 AM"),
            ("3", "Poster Session 2", "Monday", "10:00 AM"), ("4", "", "", ""),
            ("5", "Poster Session 1", "Tuesday", "9:00 AM")]
    lines = ["UID,title,authors,abstract,session,day,time"]
    lines += [f"{uid},Music Paper {uid},Ann Lee,We transcribe piano music number {uid}.,{session},{day},{time}"
              for uid, session, day, time in rows]
    (content / "papers.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    home = (build_site(content, tmp_path / "site") / "index.html").read_text(encoding="utf-8")
    assert headings(home) == ["Poster Session 2", "Poster Session 3", "Poster Session 1", "Other papers"]


@pytest.mark.parametrize(("earlier", "later"), [
    ("Session 2A", "Session 10A"), ("Session 1E", "Session 2A"), ("session 3", "Session 4"),
])
def test_names_sort_naturally(earlier, later):
    assert natural_key(earlier) < natural_key(later)


@pytest.mark.parametrize(("earlier", "later"), [
    ("9:00", "10:30"), ("11:45 AM", "2:30 PM"), ("12:15 AM", "1:00 AM"), ("12:30 PM", "1:00 PM"),
    ("14h00", "15h30"), ("10:00-11:00", "10:30-11:30"),
])
def test_times_sort_by_the_clock(earlier, later):
    assert time_key(earlier) < time_key(later)


@pytest.mark.parametrize(("earlier", "later"), [
    ("Monday", "Tuesday"), ("Wed", "Thursday"), ("2020-07-09", "2020-07-10"), ("Day 2", "Day 10"),
])
def test_days_sort_as_a_week_or_a_calendar(earlier, later):
    assert day_key(earlier) < day_key(later)


def big_volume(content: Path, count: int) -> None:
    """``count`` short papers of the corpus fixture in JSON Lines, each with the venue's own subjects as
    keywords (its first is its primary topic): one subject holds over half the volume, as "Deep learning"
    does at NeurIPS, and a few papers name none (the taxonomy tags those)."""
    import json

    fixture = Path(__file__).parent / "fixtures" / "corpus" / "abstracts.jsonl"
    base = [json.loads(line) for line in fixture.read_text(encoding="utf-8").split("\n") if line]
    subjects = ["Deep learning", "Optimization", "Theory", "Reinforcement learning", "Probabilistic methods",
                "Applications", "Social aspects", "Neuroscience"]
    records = []
    for n in range(count):
        record = {**base[n % len(base)], "id": f"p{n}", "title": f"{base[n % len(base)]['title']}, part {n}"}
        primary = subjects[0] if n % 2 else subjects[1 + n % 7 if n % 11 else 0]
        if n % 97:
            record["keywords"] = [primary, subjects[(n + 3) % len(subjects)]]
        records.append(record)
    (content / "papers.jsonl").write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")


@pytest.mark.slow
def test_a_big_volume_is_split_by_its_topics_into_pages_within_300_kb_gzip(tmp_path):
    """3,000 papers: a contents page per group (the primary topic), the biggest cut into named parts, each
    page within 300 KB gzip; the home page lists every group; every paper is listed once; links resolve."""
    import gzip
    from urllib.parse import unquote

    content = tmp_path / "content"
    content.mkdir()
    big_volume(content, 3000)
    site = build_site(content, tmp_path / "site")
    assert [p.name for p in site.glob("index*.html")] == ["index.html"]
    home = (site / "index.html").read_text(encoding="utf-8")
    assert 'class="paper-item"' not in home
    entries = re.findall(r'<li><a href="(contents/[^"#]+)#[^"]+">([^<]+)</a> <span class="tag-count">(\d+)</span>',
                         home)
    names = [name for _, name, _ in entries]
    assert len(names) == len(set(names)) and {"Optimization", "Deep learning", "Neuroscience"} <= set(names)
    assert sum(int(count) for _, _, count in entries) == 3000
    assert "Deep learning, part 2 of 2" in home or re.search(r"part 2</a>", home)
    pages = sorted((site / "contents").glob("*.html"))
    sizes = {page.name: len(gzip.compress(page.read_bytes(), 6)) for page in pages}
    assert len(pages) <= 5, sizes  # 3,000 papers, 1,000 a page at most, groups packed
    assert max(sizes.values()) <= 300_000, sizes
    listed = Counter(slug for page in pages for slug in re.findall(
        r'class="paper-item-title"[^>]*><a href="\.\./papers/([^"]+)\.html"', page.read_text(encoding="utf-8")))
    assert len(listed) == 3000 and set(listed.values()) == {1}
    for page in [site / "index.html", *pages]:
        html = page.read_text(encoding="utf-8")
        for link in re.findall(r'href="([^"#:]+)(?:#([^"]*))?"', html):
            target = (page.parent / unquote(link[0])).resolve()
            assert target.is_file(), (page.name, link)
            if link[1] and target.suffix == ".html" and target.parent.name == "contents":
                assert f'id="{link[1]}"' in target.read_text(encoding="utf-8"), (page.name, link)


def stand_in(order: int, sessions: tuple[str, ...] = (), tags: tuple[str, ...] = ()) -> SimpleNamespace:
    """What the contents plan reads of a paper: its order, groups and topics."""
    return SimpleNamespace(paper=SimpleNamespace(order=order, tags=tags),
                           details=SimpleNamespace(section="", sessions=sessions, track=()))


@pytest.mark.parametrize("shape", ["topics", "two sessions each"])
def test_50000_papers_make_at_most_100_contents_pages(shape):
    """The plan of a 50,000-paper volume: by 40 topics of very uneven size (a Zipf-like spread), or with
    every paper in two of 300 sessions (100,000 listings); every paper listed, at most 100 pages."""
    rng = random.Random(29)
    if shape == "topics":
        topics = [f"Topic {n}" for n in range(1, 41)]
        papers = [stand_in(n, tags=(rng.choices(topics, weights=[1 / k for k in range(1, 41)])[0],))
                  for n in range(1, 50_001)]
    else:
        sessions = [f"Session {n}" for n in range(1, 301)]
        papers = [stand_in(n, sessions=tuple(rng.sample(sessions, 2))) for n in range(1, 50_001)]
    contents = plan_contents(papers, lambda paper: 900)
    assert contents.split and len(contents.pages) <= 100, len(contents.pages)
    listings = sum(len(page.papers) for page in contents.pages)
    assert listings == 50_000  # once each, under its first session
    assert sum(entry.count for entry in contents.index) == 50_000 * (1 if shape == "topics" else 2)
    assert len({page.url for page in contents.pages}) == len(contents.pages)


@pytest.mark.slow  # builds 1,000 papers
def test_1000_papers_in_two_sessions_each_are_one_contents_page_within_300_kb_gzip(tmp_path):
    """The 1,000 papers of a COLT-shaped programme make one page (issue 29's budget), each listed once."""
    import gzip

    content = tmp_path / "content"
    content.mkdir()
    (content / "papers.csv").write_text(colt2020_csv(count=1000), encoding="utf-8")
    site = build_site(content, tmp_path / "site")
    assert not (site / "contents").exists()
    home = (site / "index.html").read_bytes()
    assert home.count(b'class="paper-item"') == 1000
    assert len(gzip.compress(home, 6)) <= 300_000, len(gzip.compress(home, 6))
