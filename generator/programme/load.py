"""The programme of a volume, as the build will ask for it: the calendar files its content folder holds
(``readers.find_calendars``) read and joined to its papers' sessions, every problem a diagnostic (a calendar that
cannot be read at all leaves the programme to the papers' own rows, and says so)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from generator.errors import ContentError, Diagnostic
from generator.programme.join import PaperTimes, join
from generator.programme.model import Calendar, Programme
from generator.programme.readers import find_calendars, read_calendar


def load_programme(content: Path, papers: Sequence[PaperTimes], zone: str = "",
                   sessions: Mapping | None = None) -> tuple[Programme, list[Diagnostic]]:
    """``zone``: the venue's time zone (IANA), when the volume's config gives one; ``sessions``: its
    ``sessions:`` map (the papers' session name → the calendar's)."""
    problems: list[Diagnostic] = []
    read: list[Calendar] = []
    for path in find_calendars(content):
        try:
            calendar = read_calendar(path, path.relative_to(content).as_posix(), zone)
        except ContentError as error:
            problems.append(Diagnostic.from_error(error))
            continue
        problems.extend(calendar.problems)
        read.append(calendar)
    merged = None
    if read:
        stamps = [calendar.stamp for calendar in read if calendar.stamp is not None]
        merged = Calendar(tuple(s for calendar in read for s in calendar.sessions),
                          zone or next((c.zone for c in read if c.zone), ""), max(stamps, default=None))
    programme, joined = join(merged, papers, sessions, zone)
    return programme, problems + joined
