"""The ``VTIMEZONE`` a calendar file needs for each ``TZID`` it uses, made from the zone's rules (zoneinfo) for the
years the programme spans only: a per-paper file stays small, and a client that does not know the IANA name still
places every time right, across a daylight-saving change too.

Written here rather than with ``icalendar.Timezone.from_tzinfo``: that writes each onset in the offset *after*
the change (``DTSTART:20240310T030000`` for New York's spring change), where RFC 5545 §3.6.5 wants the local time
before it (``02:00``, in ``TZOFFSETFROM``), and it spans 1970–2038 unless told.
"""

from __future__ import annotations

import datetime as dt
import functools
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

if TYPE_CHECKING:  # icalendar (~50 ms to import) is imported where it is used: only a volume with a programme
    import icalendar

_UTC = dt.timezone.utc


def vtimezone(zone: ZoneInfo, first: dt.date, last: dt.date) -> icalendar.Timezone:
    """The zone's observances from January 1st of ``first``'s year to the end of ``last``'s year."""
    import icalendar  # (imported when a calendar is written: see publish/ical.py)

    component = icalendar.Timezone()
    component.add("TZID", zone.key)
    for instant, before, after in _observances(zone, first.year, last.year):
        component.add_component(_observance(zone, instant, before, after))
    return component


@functools.lru_cache(maxsize=64)
def _observances(zone: ZoneInfo, first: int, last: int) -> tuple[tuple[dt.datetime, dt.timedelta, dt.timedelta], ...]:
    """(onset, offset before, offset after) of each observance: the years' start, then each change. Kept: every
    per-paper file of a volume needs the same ones."""
    begin = dt.datetime(first, 1, 1, tzinfo=zone).astimezone(_UTC)  # local midnight, New Year's Day
    end = dt.datetime(last + 1, 1, 1, tzinfo=zone).astimezone(_UTC)
    found = [(begin, _offset(zone, begin), _offset(zone, begin))]
    for instant in _changes(zone, begin, end):
        found.append((instant, _offset(zone, instant - dt.timedelta(minutes=1)), _offset(zone, instant)))
    return tuple(found)


def _offset(zone: ZoneInfo, instant: dt.datetime) -> dt.timedelta:
    return instant.astimezone(zone).utcoffset() or dt.timedelta(0)


def _changes(zone: ZoneInfo, begin: dt.datetime, end: dt.datetime) -> list[dt.datetime]:
    """The instants (UTC, to the minute) the zone's offset changes between ``begin`` and ``end``."""
    changes = []
    step = dt.timedelta(hours=6)
    moment = begin
    while moment < end:
        following = min(moment + step, end)
        if _offset(zone, moment) != _offset(zone, following):
            low, high = moment, following  # the change lies in (low, high]: halve to the minute
            while high - low > dt.timedelta(minutes=1):
                middle = low + (high - low) / 2
                middle = middle.replace(second=0, microsecond=0)
                if middle <= low:
                    break
                low, high = (middle, high) if _offset(zone, middle) == _offset(zone, low) else (low, middle)
            changes.append(high)
        moment = following
    return changes


def _observance(zone: ZoneInfo, instant: dt.datetime, before: dt.timedelta,
                after: dt.timedelta) -> icalendar.TimezoneDaylight | icalendar.TimezoneStandard:
    local = instant.astimezone(zone)
    daylight = bool(local.dst())
    import icalendar

    part = icalendar.TimezoneDaylight() if daylight else icalendar.TimezoneStandard()
    part.add("DTSTART", (instant + before).replace(tzinfo=None))  # the onset on the clock it changes from
    part.add("TZOFFSETFROM", before)
    part.add("TZOFFSETTO", after)
    part.add("TZNAME", local.tzname() or zone.key)
    return part
