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
