"""Figures of the programme readers, the join and the calendar writers on venues' real files (issue 41), which
are not in the repository. Copy them out of the venues' public repositories into one folder first:

    ROOT=/tmp/prog-real
    mkdir -p $ROOT/colt $ROOT/icwsm $ROOT/ismir $ROOT/sigdial
    git -C <COLT-2020 clone> show HEAD:coltdata/colt.ics > $ROOT/colt/colt.ics     # github.com/bguedj/COLT-2020
    git -C <COLT-2020 clone> show HEAD:sitedata/main_calendar.json > $ROOT/colt/main_calendar.json
    git -C <COLT-2020 clone> show HEAD:sitedata/papers.csv > $ROOT/colt/papers.csv
    # and sitedata/main_calendar.json + sitedata/papers.csv of schochastics/icwsm2021 (icwsm),
    # ismir2024program/ismir2024program.github.io (ismir), sigdialinlg2023/sigdialinlg2023.github.io (sigdial)

    python bench/programme_real.py $ROOT

Each line says what was read and how many papers the programme places, with no `sessions:` map unless it says so.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import icalendar

from generator.programme.join import PaperTimes, join
from generator.programme.readers import read_calendar
from generator.publish.ical import PaperLink, Site, paper_ics, programme_ics

ZONES = {"colt": "America/New_York", "icwsm": "Europe/London", "ismir": "America/Los_Angeles",
         "sigdial": "Europe/Prague"}


def papers_of(folder: Path) -> tuple[list[dict], list[PaperTimes]]:
    with (folder / "papers.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    times = [PaperTimes(row["UID"], tuple(s.strip() for s in row["session"].split("|") if s.strip()),
                        row.get("date") or row.get("day") or "", row.get("time") or "", row.get("room") or "")
             for row in rows]
    return rows, times


def placed(programme, papers) -> str:
    timed = sum(1 for paper in papers if any(s.span for s in programme.of_paper(paper.id)))
    return f"{timed}/{len(papers)} papers in a timed session, {len(programme.unplaced)} in none"


def colt(root: Path) -> None:
    rows, papers = papers_of(root / "colt")
    calendar = read_calendar(root / "colt" / "colt.ics")
    programme, problems = join(calendar, papers)
    both = sum(1 for paper in papers if len(programme.of_paper(paper.id)) == len(paper.sessions) == 2)
    print(f"COLT 2020 colt.ics: {len(calendar.sessions)} events, {len(calendar.problems)} problems; "
          f"{both}/{len(papers)} papers with both sessions in it; {len(problems)} join problems")
    site = Site("colt-2020", "COLT 2020", "https://example.org/programme.html",
                {row["UID"]: PaperLink(row["title"], f"https://example.org/papers/{row['UID']}.html") for row in rows})
    source = {str(e["SUMMARY"]): e["DTSTART"].dt
              for e in icalendar.Calendar.from_ical((root / "colt" / "colt.ics").read_bytes()).walk("VEVENT")}
    equal = total = 0
    for paper in papers:
        for event in icalendar.Calendar.from_ical(paper_ics(programme, paper.id, site)).walk("VEVENT"):
            session = str(event["SUMMARY"]).rsplit("(", 1)[1].rstrip(")")
            total += 1
            equal += event["DTSTART"].dt == source[session] and event["DTSTART"].params["TZID"] == ZONES["colt"]
    whole = programme_ics(programme, site)
    again = programme_ics(join(read_calendar(root / "colt" / "colt.ics"), papers)[0], site)
    count = len(icalendar.Calendar.from_ical(whole).walk("VEVENT"))
    print(f"COLT 2020 .ics written: per-paper {equal}/{total} DTSTART (TZID {ZONES['colt']}) equal to colt.ics; "
          f"programme.ics {count}/{len(calendar.sessions)} events, {len(whole)} bytes, same bytes again: "
          f"{whole == again}")


def miniconf(root: Path, name: str, label: str, mapping: dict | None = None) -> None:
    _, papers = papers_of(root / name)
    calendar = read_calendar(root / name / "main_calendar.json", zone=ZONES[name])
    programme, problems = join(calendar, papers, mapping)
    notes = sum(problem.level == "info" for problem in problems)
    print(f"{label} main_calendar.json{' + map' if mapping else ''}: {len(calendar.sessions)} events, "
          f"{len(calendar.problems)} problems; {placed(programme, papers)}; {notes} notes, "
          f"{len(problems) - notes} warnings")


def rows_only(root: Path, name: str, label: str) -> None:
    _, papers = papers_of(root / name)
    programme, _ = join(None, papers, zone=ZONES[name])
    calendar, _ = join(read_calendar(root / name / "main_calendar.json", zone=ZONES[name]), papers)
    same = sum(1 for paper in papers for a, b in [(programme.of_paper(paper.id), calendar.of_paper(paper.id))]
               if a and b and a[0].span and any(s.span == a[0].span for s in b))
    print(f"{label} from its rows alone: {len(programme.sessions)} sessions over {len(programme.days)} days; "
          f"{placed(programme, papers)}; the row's instants equal to a calendar event's: {same}/{len(papers)}")


def main(root: Path) -> None:
    colt(root)
    miniconf(root, "colt", "COLT 2020")
    miniconf(root, "icwsm", "ICWSM 2021")
    rows_only(root, "icwsm", "ICWSM 2021")
    miniconf(root, "ismir", "ISMIR 2024")
    roman = ("I", "II", "III", "IV", "V", "VI", "VII")
    miniconf(root, "ismir", "ISMIR 2024", {str(n): f"Posters {r}" for n, r in enumerate(roman, 1)})
    rows_only(root, "ismir", "ISMIR 2024")
    miniconf(root, "sigdial", "SIGDIAL/INLG 2023")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/prog-real"))
