"""The home page as the volume's contents: every group of the programme, in its order (issue 30)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from contents_fixtures import COLT_PAPERS, COLT_SESSIONS, colt2020_csv
from generator.commands.build import build
from generator.commands.reporter import Reporter
from generator.derive.groups import day_key, natural_key, time_key


def build_site(content: Path, out: Path) -> Path:
    reporter = Reporter()
    build(content, out, reporter)
    assert not reporter.errors, reporter.errors
    return out


def headings(html: str) -> list[str]:
    return re.findall(r'<h2 class="group-title" id="[^"]+">([^<]+)</h2>', html)


def test_every_session_of_colt_2020_is_listed_in_the_programmes_order(tmp_path):
    """Each paper is in two sessions: it is listed under both, and all 20 sessions come in order."""
    content = tmp_path / "content"
    content.mkdir()
    (content / "papers.csv").write_text(colt2020_csv(), encoding="utf-8")
    home = (build_site(content, tmp_path / "site") / "index.html").read_text(encoding="utf-8")
    assert headings(home) == COLT_SESSIONS  # Session 1A … Session 4E, not in order of first appearance
    index = re.search(r'<nav class="group-index".*?</nav>', home, re.S).group()
    assert re.findall(r'<li><a href="index.html#group-[^"]+">([^<]+)</a></li>', index) == COLT_SESSIONS
    listed = Counter(re.findall(r'class="paper-item-title"[^>]*><a href="papers/([^"]+)\.html"', home))
    assert len(listed) == COLT_PAPERS and set(listed.values()) == {2}
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
