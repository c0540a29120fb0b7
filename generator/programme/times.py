"""Dates, times and time zones as programmes write them: ISO date-times with an offset (Mini-Conf's
``2024-11-10T01:38:00-08:00``), a date and a clock time (``2021-06-08``, ``2:30 PM``, ``14h00``), a slot with its
zone (ICWSM's ``(16:45-17:45 GMT)``, ``10:00-11:30 EDT``), and a zone as a name (``America/New_York``), an offset
(``UTC+2``, ``-08:00``) or a common abbreviation. Each reader returns None for what it cannot read; the caller
says where it was.
"""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

# Abbreviations programmes use whose offset is not in doubt. Ambiguous ones (CST: US Central or China; IST:
# India, Ireland or Israel) are left out, so that they are reported rather than guessed.
_ABBREVIATIONS = {
    "UTC": 0, "GMT": 0, "Z": 0, "WET": 0, "BST": 60, "WEST": 60, "CET": 60, "CEST": 120, "EET": 120, "EEST": 180,
    "MSK": 180, "JST": 540, "KST": 540, "HKT": 480, "SGT": 480, "AWST": 480, "ACST": 570, "ACDT": 630,
    "AEST": 600, "AEDT": 660, "NZST": 720, "NZDT": 780, "EST": -300, "EDT": -240, "CDT": -300, "MST": -420,
    "MDT": -360, "PST": -480, "PDT": -420, "AKST": -540, "AKDT": -480, "HST": -600, "BRT": -180, "ART": -180,
}
_OFFSET = re.compile(r"(?:UTC|GMT)?\s*([+-−])\s*(\d{1,2})(?::?(\d{2}))?", re.I)
_CLOCK = re.compile(r"(\d{1,2})(?:[:.h](\d{2}))?(?::(\d{2}))?\s*([ap]\.?\s?m\.?)?", re.I)
# A slot: a start, maybe an end, maybe a zone: "(16:45-17:45 GMT)", "10:00 – 11:30 EDT", "2:30 PM".
_SLOT = re.compile(r"^\(?\s*(?P<start>\d{1,2}(?:[:.h]\d{2})?(?:\s*[ap]\.?\s?m\b\.?)?)"
                   r"(?:\s*(?:-|–|—|to)\s*(?P<end>\d{1,2}(?:[:.h]\d{2})?(?:\s*[ap]\.?\s?m\b\.?)?))?"
                   r"\s*(?P<zone>[A-Za-z][A-Za-z_/+\-−:0-9 ]*?)?\s*\)?$", re.I)
_DATES = ("%Y-%m-%d", "%Y/%m/%d", "%d.%m.%Y", "%B %d, %Y", "%b %d, %Y", "%d %B %Y", "%d %b %Y",
          "%A, %B %d, %Y", "%A %B %d, %Y", "%a, %b %d, %Y", "%A, %d %B %Y")


def zone_named(text: str) -> dt.tzinfo | None:
    """A zone from its IANA name, "UTC", an offset (UTC+2, GMT-05:30, +09:00) or an unambiguous abbreviation."""
    text = text.strip()
    if not text:
        return None
    if text.upper() in _ABBREVIATIONS:
        minutes = _ABBREVIATIONS[text.upper()]
        return _fixed(minutes)
    match = _OFFSET.fullmatch(text)
    if match:
        sign, hours, minutes = -1 if match[1] in "-−" else 1, int(match[2]), int(match[3] or 0)
        return _fixed(sign * (hours * 60 + minutes)) if hours <= 14 and minutes < 60 else None  # UTC-12 to UTC+14
    if "/" in text or text in ("UTC", "Etc/UTC"):
        try:
            return ZoneInfo(text)
        except (ZoneInfoNotFoundError, ValueError, OSError):  # a name that is a folder, or no path
            return None
    return None


def _fixed(minutes: int) -> dt.tzinfo:
    return dt.timezone.utc if minutes == 0 else dt.timezone(dt.timedelta(minutes=minutes))


def clock(text: str) -> dt.time | None:
    """A clock time: 13:00, 1:00 PM, 14h00, 9.30, 13:00:00."""
    match = _CLOCK.fullmatch(text.strip())
    if not match:
        return None
    hour, minute, second = int(match[1]), int(match[2] or 0), int(match[3] or 0)
    if match[4]:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if match[4][0].lower() == "p" else 0)
    if hour > 23 or minute > 59 or second > 59:
        return None
    return dt.time(hour, minute, second)


def date_of(text: str) -> dt.date | None:
    """A calendar date in the forms programmes write (2021-06-08, June 8, 2021, 8 June 2021)."""
    text = " ".join(text.split())
    for form in _DATES:
        try:
            return dt.datetime.strptime(text, form).date()
        except ValueError:
            continue
    return None


def moment(text: str, zone: dt.tzinfo | None = None, day: dt.date | None = None) -> dt.datetime | None:
    """A date-time: ISO 8601 with or without an offset (``Z`` too), "2020-07-10 13:00", or a clock time on
    ``day``. Without an offset of its own it is in ``zone`` (floating when there is none)."""
    text = text.strip()
    if not text:
        return None
    try:
        value = dt.datetime.fromisoformat(text.replace("Z", "+00:00") if text.endswith("Z") else text)
    except ValueError:
        value = None
    if value is None:
        value = _date_and_clock(text, day)
    if value is None:
        return None
    if value.tzinfo is None and zone is not None:
        value = value.replace(tzinfo=zone)
    return value


def _date_and_clock(text: str, day: dt.date | None) -> dt.datetime | None:
    time = clock(text)
    if time is not None:
        return dt.datetime.combine(day, time) if day else None
    for cut in (index for index, char in enumerate(text) if char == " "):  # "July 1, 2024 9:30 AM"
        date, time = date_of(text[:cut]), clock(text[cut + 1:])
        if date and time:
            return dt.datetime.combine(date, time)
    return None


def slot(text: str) -> tuple[dt.time, dt.time | None, str] | None:
    """(start, end or None, zone text) of a slot as rows write it: "(16:45-17:45 GMT)", "10:00-11:30 EDT",
    "2:30 PM"; None when it is not one."""
    match = _SLOT.fullmatch(text.strip())
    if not match:
        return None
    start = clock(match["start"])
    end = clock(match["end"]) if match["end"] else None
    if start is None or (match["end"] and end is None):
        return None
    return start, end, (match["zone"] or "").strip()


def span_on(day: dt.date, start: dt.time, end: dt.time | None,
            zone: dt.tzinfo | None) -> tuple[dt.datetime, dt.datetime | None]:
    """Aware (or floating) start and end on ``day``; an end before the start is on the next day (22:00-01:00)."""
    first = dt.datetime.combine(day, start, tzinfo=zone)
    if end is None:
        return first, None
    last = dt.datetime.combine(day, end, tzinfo=zone)
    if last <= first:
        last = dt.datetime.combine(day + dt.timedelta(days=1), end, tzinfo=zone)
    return first, last


def looks_like_link(text: str) -> bool:
    """Whether a location is a link rather than a room: Mini-Conf writes its page there
    (``papers.html?session=Session+4D``), calendars a meeting's URL."""
    text = text.strip()
    return bool(re.match(r"[a-z][a-z0-9+.-]*://", text, re.I)) or text.startswith(("/", "#", "?")) or bool(
        re.search(r"\.html?\b", text, re.I))
