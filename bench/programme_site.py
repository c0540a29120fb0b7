"""Figures of the programme as the built site shows it (issue 41), from the command line, on venues' real files
(not in the repository; bench/programme_real.py's docstring says where to copy them from):

    python bench/programme_site.py /tmp/prog-real

Each venue's folder is copied into a content folder of its own (the calendar where the venue keeps it), built with
`python -m generator build`, and the site read back: each paper page's sessions and their `<time datetime>`
values, each per-paper .ics (with icalendar) against the venue's calendar, programme.ics against its events.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import icalendar

SESSION_LINE = re.compile(r'<li><a href="\.\./programme\.html#[\w-]+">([^<]+)</a> · <span class="when" data-when>'
                          r'<time datetime="([^"]+)">[^<]+</time>(?:–<time datetime="([^"]+)">)?')
VENUES = {  # folder → (files to copy: name in the venue's folder → where in the content folder, the config)
    "colt": ({"papers.csv": "papers.csv", "colt.ics": "colt.ics"}, "title: COLT 2020\ntimezone: America/New_York\n"),
    "icwsm": ({"papers.csv": "papers.csv", "main_calendar.json": "sitedata/main_calendar.json"},
              "title: ICWSM 2021\ntimezone: Europe/London\n"),
    "ismir": ({"papers.csv": "papers.csv", "main_calendar.json": "sitedata/main_calendar.json"},
              "title: ISMIR 2024\ntimezone: America/Los_Angeles\n"),
}


def built(source: Path, files: dict[str, str], config: str, work: Path) -> tuple[Path, float, str]:
    content = work / "content"
    for name, target in files.items():
        (content / target).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source / name, content / target)
    (content / "proceedings.yaml").write_text(config, encoding="utf-8")
    began = dt.datetime.now()
    done = subprocess.run([sys.executable, "-m", "generator", "build", "--content", str(content), "--out",
                           str(work / "site")], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])})
    if done.returncode:
        raise SystemExit(done.stderr)
    warnings = [line for line in done.stderr.splitlines() if "programme" in line or "calendar" in line]
    return work / "site", (dt.datetime.now() - began).total_seconds(), "\n    ".join(warnings[:6])


def pages(site: Path) -> dict[str, list[tuple[str, str, str]]]:
    return {page.stem: SESSION_LINE.findall(page.read_text(encoding="utf-8"))
            for page in sorted((site / "papers").glob("*.html"))}


def events(path: Path) -> list[icalendar.Event]:
    return list(icalendar.Calendar.from_ical(path.read_bytes()).walk("VEVENT"))


def colt(site: Path, calendar: Path) -> None:
    source = {str(e["SUMMARY"]): e for e in events(calendar)}
    shown = pages(site)
    both = sum(1 for lines in shown.values() if len(lines) == 2 and all(
        dt.datetime.fromisoformat(start) == source[title]["DTSTART"].dt for title, start, _ in lines))
    zones = {start[-6:] for lines in shown.values() for _, start, _ in lines}
    print(f"  paper pages naming both sessions at the calendar's instants: {both}/{len(shown)} (offsets {zones})")
    equal = total = 0
    for path in sorted((site / "calendar" / "papers").glob("*.ics")):
        for event in events(path):
            total += 1
            title = re.search(r"\(([^()]+)\)$", str(event["SUMMARY"]))[1]
            start = event["DTSTART"].dt
            equal += (start == source[title]["DTSTART"].dt and start.tzinfo.key == "America/New_York"
                      and event["DTSTART"].params.get("TZID") == "America/New_York")
    print(f"  per-paper .ics: {len(list((site / 'calendar' / 'papers').glob('*.ics')))} files, {total} events, "
          f"{equal} with DTSTART;TZID=America/New_York equal to colt.ics's")
    whole = events(site / "programme.ics")
    print(f"  programme.ics: {len(whole)} events for colt.ics's {len(source)}; summaries equal: "
          f"{sorted(str(e['SUMMARY']) for e in whole) == sorted(source)}")


def placed(site: Path) -> None:
    shown = pages(site)
    timed = sum(1 for lines in shown.values() if lines)
    programme = (site / "programme.html").read_text(encoding="utf-8")
    sessions = programme.count('<section class="programme-session')
    events_only = programme.count("programme-event")
    print(f"  paper pages with a timed session: {timed}/{len(shown)}; programme.html: {sessions} sessions and "
          f"events ({events_only} without papers); programme.ics: {len(events(site / 'programme.ics'))} events")


def main(root: Path) -> None:
    for name, (files, config) in VENUES.items():
        if not all((root / name / file).is_file() for file in files):
            print(f"{name}: skipped (no {', '.join(files)} in {root / name})")
            continue
        with tempfile.TemporaryDirectory() as work:
            site, seconds, said = built(root / name, files, config, Path(work))
            print(f"{name}: built in {seconds:.1f} s" + (f"; the build said:\n    {said}" if said else ""))
            if name == "colt":
                colt(site, root / name / "colt.ics")
            else:
                placed(site)


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/prog-real"))
