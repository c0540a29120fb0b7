"""The venue's own subjects as topics: ISMIR's `primary_subject`/`secondary_subject`, ICWSM's `topic`.

A venue that classifies its papers knows their topics better than any keyword taxonomy: the
subjects a record gives are its first topics, before its keywords. ISMIR's subject areas are
hierarchical (`MIR tasks -> music transcription and annotation`): a paper's topic is the most
specific name, its last part, with a capital, since the parent ("MIR tasks", "Applications")
is shared by a large part of the volume and would tell a reader little.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# Between a subject area and its sub-area: ISMIR writes `->`; `→` is the same arrow typeset.
_LEVELS = re.compile(r"\s*(?:->|→)\s*")


def subject_topics(names: Iterable[str]) -> list[str]:
    """The topics the subjects a record names give, in its order (primary first)."""
    return [topic for topic in map(subject_topic, names) if topic]


def subject_topic(name: str) -> str:
    """`MIR tasks -> music transcription and annotation` → `Music transcription and annotation`;
    a name without levels is kept as written."""
    levels = [level for level in _LEVELS.split(name.strip()) if level]
    if len(levels) < 2:
        return " ".join(" ".join(levels).split())
    leaf = " ".join(levels[-1].split())
    return leaf[:1].upper() + leaf[1:] if leaf[:1].islower() else leaf
