"""The venue's own subjects as topics: ISMIR's `primary_subject`/`secondary_subject`, ICWSM's `topic`.

A venue that classifies its papers knows their topics better than any keyword taxonomy: the
subjects a record gives are its first topics, before its keywords. ISMIR's subject areas are
hierarchical (`MIR tasks -> music transcription and annotation`): a paper's topic is the most
specific name, its last part, with a capital, since the parent ("MIR tasks", "Applications")
is shared by a large part of the volume and would tell a reader little.

Some venues put their programme's sessions in such a column (ICWSM 2021's `topic`: "Poster/Demo 3"). A
session's label — a few words and a number standing apart — is never a topic (``looks_like_session``), and a
column that repeats the sessions column is read as sessions (``records.RecordReader.settle``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# Between a subject area and its sub-area: ISMIR writes `->`; `→` is the same arrow typeset.
_LEVELS = re.compile(r"\s*(?:->|→)\s*")


# A comma and what follows it: in a list of hierarchical names written with commas alone, the next name starts
# after the last comma before its area's arrow that is followed by a capital (areas are capitalised, sub-areas
# not: `… -> similarity metrics, Applications -> …`; an area may hold commas: "Evaluation, datasets, and …").
_COMMA = re.compile(r",\s*")


def subject_topics(names: Iterable[str]) -> list[str]:
    """The topics the subjects a record names give, in its order (primary first)."""
    return [topic for name in names for topic in map(subject_topic, split_areas(name)) if topic]


def split_areas(name: str) -> list[str]:
    """A cell of several `Area -> sub-area` names separated by commas alone (no `;` or `|` to split on)
    as its names; any other name as it is (`A -> b -> c`, three levels, is one name)."""
    arrows = list(_LEVELS.finditer(name))
    names, start = [], 0
    for before, after in zip(arrows, arrows[1:]):
        cuts = [comma for comma in _COMMA.finditer(name, before.end(), after.start())
                if comma.end() < after.start() and name[comma.end()].isupper()]
        if cuts:
            names.append(name[start:cuts[-1].start()])
            start = cuts[-1].end()
    return [*names, name[start:]]


def subject_topic(name: str) -> str:
    """`MIR tasks -> music transcription and annotation` → `Music transcription and annotation`;
    a name without levels is kept as written."""
    levels = [level for level in _LEVELS.split(name.strip()) if level]
    if len(levels) < 2:
        return " ".join(" ".join(levels).split())
    leaf = " ".join(levels[-1].split())
    return leaf[:1].upper() + leaf[1:] if leaf[:1].islower() else leaf


# A session's label rather than a subject: a few words and a number, maybe with a letter ("Poster/Demo 3",
# "Session 2A", "Oral 5", "Poster Session 1"). A subject area is named by words ("Misinformation, Rumors, and
# Fact-Checking", "MIR tasks -> music transcription").
# The number stands apart from the words ("COVID-19" and "Web 2.0" are subjects).
_SESSION_LABEL = re.compile(r"[^\W\d_][\w&+'/.-]*(?:\s+[^\W\d_][\w&+'/.-]*){0,3}\s+#?\d{1,3}[A-Za-z]?")


def looks_like_session(name: str) -> bool:
    """Whether a subject is a session's label, such as "Poster/Demo 3" (records.RecordReader.settle also drops a
    column's values that mostly repeat the sessions column)."""
    return bool(_SESSION_LABEL.fullmatch(" ".join(name.split())))
