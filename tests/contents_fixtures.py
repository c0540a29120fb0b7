"""Volumes shaped like real programmes, for the contents page's tests (test_contents.py).

COLT 2020's Mini-Conf ``papers.csv``: 117 papers, each in two of 20 sessions (``Session 1A|Session 3C``),
the rows in UID order so that the sessions come up interleaved (1A, 2A, 2E, 1B…), Mini-Conf's quirks kept:
``\\n`` for a line break inside a cell, ``*`` after a presenting author, keywords joined by ``|``.
"""

from __future__ import annotations

import csv
import io
import random

COLT_SESSIONS = [f"Session {day}{track}" for day in range(1, 5) for track in "ABCDE"]  # 20, as COLT 2020's
COLT_PAPERS = 117
_TOPICS = ["bandits", "online learning", "statistical learning", "optimization", "privacy", "robustness",
           "reinforcement learning", "sample complexity", "kernel methods", "learning with queries"]
_NAMES = ["Nicolò Cesa-Bianchi", "Sébastien Bubeck", "Elad Hazan", "Ohad Shamir", "Claire Vernade",
          "Tor Lattimore", "Gergely Neu", "Jacob Abernethy", "Shay Moran", "Kfir Levy", "Yishay Mansour",
          "Aaditya Ramdas", "Po-Ling Loh", "Nika Haghtalab", "Daniel Hsu", "Jason D. Lee"]


def colt2020_csv(seed: int = 2020, count: int = COLT_PAPERS) -> str:
    """The papers.csv: each paper's first session among 12 of the 20 (as COLT 2020's file has it, 8 sessions
    are never a paper's first), its second among the others; a few papers name their sessions in the
    other order, and one ends its cell in a stray space. ``count`` makes a bigger programme of that shape."""
    rng = random.Random(seed)
    firsts = COLT_SESSIONS[:12]
    rng.shuffle(firsts)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["UID", "title", "authors", "abstract", "keywords", "sessions", "pdf_url"])
    for number in range(1, count + 1):
        first = firsts[(number * 7) % len(firsts)] if number > 12 else firsts[number - 1]
        second = COLT_SESSIONS[12 + number % 8]
        topic = _TOPICS[number % len(_TOPICS)]
        authors = rng.sample(_NAMES, 1 + number % 4)
        authors[0] += "*"
        abstract = (f"We study {topic} with $n$ samples and $d$ features.\\nWe prove a bound of "
                    f"$O(\\sqrt{{d/n}})$ that is best\\nknown for problem {number}.")
        sessions = f"{first}|{second}" if number % 9 else f"{second}|{first} "
        writer.writerow([str(number), f"On {topic.capitalize()}: Result {number}", "|".join(authors), abstract,
                         f"{topic}|theory", sessions, f"http://proceedings.mlr.press/v125/p{number}.pdf"])
    return out.getvalue()


# COLT 2020's colt.ics, as Apple Calendar exported it: a VTIMEZONE with RRULEs, CRLF lines, GUID UIDs, each
# session an event on New York's clock (the E sessions are the A sessions' replays, twelve hours on), keynotes
# and breaks between them with no papers.
_COLT_SLOTS = {"A": ("08:30", "11:00"), "B": ("13:00", "15:30"), "C": ("16:00", "18:30"), "D": ("19:00", "21:30"),
               "E": ("20:30", "23:00")}
_COLT_HEAD = """BEGIN:VCALENDAR
METHOD:PUBLISH
VERSION:2.0
X-WR-CALNAME:COLT
PRODID:-//Apple Inc.//Mac OS X 10.15.5//EN
X-WR-TIMEZONE:America/New_York
CALSCALE:GREGORIAN
BEGIN:VTIMEZONE
TZID:America/New_York
BEGIN:DAYLIGHT
TZOFFSETFROM:-0500
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU
DTSTART:20070311T020000
TZNAME:EDT
TZOFFSETTO:-0400
END:DAYLIGHT
BEGIN:STANDARD
TZOFFSETFROM:-0400
RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU
DTSTART:20071104T020000
TZNAME:EST
TZOFFSETTO:-0500
END:STANDARD
END:VTIMEZONE
"""


def colt2020_events() -> list[tuple[str, str, str]]:
    """(summary, DTSTART, DTEND) of each event, on New York's clock: the 20 sessions, a keynote and a break a day."""
    events = []
    for day in range(1, 5):
        date = f"202007{8 + day:02d}"
        for track, (start, end) in _COLT_SLOTS.items():
            events.append((f"Session {day}{track}", f"{date}T{start.replace(':', '')}00",
                           f"{date}T{end.replace(':', '')}00"))
        events.append((f"Keynote {day}", f"{date}T110000", f"{date}T120500"))
        events.append((f"Coffee Break {day}A", f"{date}T120500", f"{date}T130000"))
    return events


def colt2020_ics() -> str:
    lines = [_COLT_HEAD.rstrip("\n")]
    for number, (summary, start, end) in enumerate(colt2020_events()):
        lines += ["BEGIN:VEVENT", "CREATED:20200630T122100Z", f"UID:0B1D3C8E-5E2B-4B57-9F0B-1A2B3C4D{number:04X}",
                  f"DTEND;TZID=America/New_York:{end}", "TRANSP:OPAQUE", f"SUMMARY:{summary}",
                  "LAST-MODIFIED:20200630T123800Z", "DTSTAMP:20200630T122100Z",
                  f"DTSTART;TZID=America/New_York:{start}", "SEQUENCE:1", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    return "\r\n".join("\n".join(lines).split("\n")) + "\r\n"
