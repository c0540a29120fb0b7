"""Sanity checks of a volume's sources, as PMLR's own checker (pmlint) makes them of a volume's .bib.

Each is a warning naming the file and line to mend — a build counts it and ``check`` lists it — and none
changes what is published (a name is never dropped, a date never moved):

- dates that disagree with the volume's year: an ``@proceedings`` whose meeting days say 2023 in a volume
  whose ``year`` is 2024 (COLT 2024's did), a ``date:`` in proceedings.yaml of another year, papers whose own
  ``year`` is not the volume's;
- an author's or editor's name that is a template's text or holds a stray quote (derive/names.py);
- one name written family name first in one place and given name first in another ("Sidford Aaron",
  "Aaron Sidford"; across a series' volumes too: series/people.py);
- a title in capitals only.

A kind of problem found many times in one file is named for its first places, then counted, so that a
venue's whole file written in one wrong way is a few lines, not one per paper.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from generator.derive.people_file import PEOPLE_FILE, Rules
from generator.derive.names import name_problem, odd_one, positions, reversed_pairs
from generator.model.config import CONFIG_NAME, Config
from generator.model.paper import Entry, SourceList
from generator.model.volume import Volume
from generator import diagnostics as codes

Warn = Callable[..., None]  # (message, path, line, code=…, fields…)
SHOWN = 3  # places of one kind of problem in one file named one by one; the rest counted in one line
_MATH = re.compile(r"\$[^$]*\$|\\\(.*?\\\)|\\[A-Za-z]+")
_CASED_LETTERS = 12  # fewer capitals make an acronym-like title ("BERT", "ISMIR 2024"), not a shouted one


@dataclass(frozen=True)
class Place:
    path: str
    line: int | None

    def __str__(self) -> str:
        return f"{self.path}:{self.line}" if self.line else self.path


def lint_project(content_dir: Path, config: Config, volume: Volume, sources: Sequence[SourceList],
                 rules: Rules, warn: Warn) -> None:
    """Every check below over a volume's sources, each problem warned about with its file and line."""
    entries = [entry for source in sources for entry in source.entries]
    check_dates(content_dir, config, volume, sources, warn)
    check_names(entries, warn)
    check_titles(entries, warn)
    check_orders(entries, rules, warn)


# -- dates ---------------------------------------------------------------------------------------


def check_dates(content_dir: Path, config: Config, volume: Volume, sources: Sequence[SourceList], warn: Warn) -> None:
    """The meeting's days and the volume's dates against the volume's year: its @proceedings ``year``, else the
    year of ``date:`` in proceedings.yaml (the day it came out: a meeting may then be in the year before)."""
    info = volume.source
    given = info.year.isdigit()
    year = int(info.year) if given else (config.date.year if config.date else None)
    if year is None:
        return
    whose = "the @proceedings entry's `year`" if given else f"`date:` in {CONFIG_NAME}"
    meeting = {year} if given else {year - 1, year}
    described = next((source for source in sources if source.volume.title), None)
    if described is not None:
        _check_proceedings(described, year, meeting, whose, warn)
    lines = _config_lines(content_dir)
    for key, day in (("date", config.date if given else None), ("start_date", config.start_date),
                     ("end_date", config.end_date)):
        if day is not None and (not year <= day.year <= year + 1 if key == "date" else day.year not in meeting):
            warn(f"`{key}: {day.isoformat()}` is in {day.year}, but the volume's year is {year} ({whose})",
                 CONFIG_NAME, lines.get(key), code=codes.DATE_YEAR_MISMATCH, subject=key, value=day.isoformat())
    check_paper_years(sources, year, whose, warn)


def _check_proceedings(described: SourceList, year: int, meeting: set[int], whose: str, warn: Warn) -> None:
    """An @proceedings' own days: the meeting's in its year, published in it or the year after, in order."""
    info, name, lines = described.volume, described.path.name, _proceedings_lines(described.path)
    for key, day in (("start", info.start), ("end", info.end)):
        if day is not None and day.year not in meeting:
            warn(f"@proceedings `{key} = {day.isoformat()}` is in {day.year}, but the volume's year is {year} "
                 f"({whose}): is the meeting's day mistyped?", name, lines.get(key), code=codes.DATE_YEAR_MISMATCH,
                 subject=key, value=day.isoformat())
    if info.start and info.end and info.end < info.start:
        warn(f"@proceedings `end` {info.end.isoformat()} is before `start` {info.start.isoformat()}",
             name, lines.get("end"), code=codes.DATE_ORDER, subject="end", value=info.end.isoformat())
    published = lines.get("published")
    if info.date is not None and published and not year <= info.date.year <= year + 1:
        warn(f"@proceedings `published = {info.date.isoformat()}` is not in {year} or the year after, the "
             f"volume's year ({whose})", name, published, code=codes.DATE_PUBLISHED, subject="published",
             value=info.date.isoformat())


def check_paper_years(sources: Sequence[SourceList], year: int, whose: str, warn: Warn) -> None:
    """Papers whose own ``year`` is another than the volume's (their citations will say theirs)."""
    wrong = [entry for source in sources for entry in source.entries
             if entry.details.year.strip().isdigit() and int(entry.details.year) != year]
    for source, places in _by_source(wrong).items():
        years = Counter(entry.details.year.strip() for entry in places)
        listed = ", ".join(f"{y} ({n})" for y, n in years.most_common())
        warn(f"{len(places)} paper(s) give a `year` other than the volume's {year} ({whose}): {listed}; their "
             f"citations say theirs{_more(places)}", source, places[0].line, code=codes.PAPER_YEAR_MISMATCH,
             subject="year", value=listed)


def _config_lines(content_dir: Path) -> dict[str, int]:
    return _key_lines(content_dir / CONFIG_NAME, re.compile(r"^([A-Za-z_]+)\s*:"))


def _proceedings_lines(path: Path) -> dict[str, int]:
    """The line of each field of the first @proceedings entry of a .bib file (its own line as ``@``)."""
    return _key_lines(path, re.compile(r"^\s*([A-Za-z_]+)\s*="), start=re.compile(r"^\s*@\s*proceedings\s*[{(]",
                                                                                re.IGNORECASE))


def _key_lines(path: Path, key: re.Pattern[str], start: re.Pattern[str] | None = None) -> dict[str, int]:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    lines: dict[str, int] = {}
    inside = start is None
    for number, line in enumerate(text.splitlines(), 1):
        if not inside:
            inside = bool(start.match(line)) if start else True
            if inside:
                lines["@"] = number
            continue
        if start is not None and line.lstrip().startswith("@"):
            break  # the next entry
        found = key.match(line)
        if found:
            lines.setdefault(found.group(1).lower(), number)
    return lines


# -- names and titles ----------------------------------------------------------------------------


def check_names(entries: Iterable[Entry], warn: Warn) -> None:
    """Authors' and editors' names that are no person's name; each kept as written, and named here."""
    found: dict[tuple[str, str], list[tuple[Entry, str]]] = defaultdict(list)
    for entry in entries:
        names = [author.name for author in entry.details.authors] + list(entry.details.editors)
        for name in dict.fromkeys(names):
            problem = name_problem(name)
            if problem:
                found[(entry.source, problem)].append((entry, name))
    for (source, problem), places in found.items():
        for entry, name in places[:SHOWN]:
            warn(f"the name “{name}” {problem}; it is published as written: mend it in the source", source, entry.line,
                 code=codes.NAME_NOT_A_NAME, paper=entry.uid, subject=name)
        if len(places) > SHOWN:
            lines = ", ".join(str(entry.line) for entry, _ in places[SHOWN:SHOWN + 10])
            warn(f"{len(places) - SHOWN} more names that {problem.split(' (')[0].split(':')[0]} (lines {lines}"
                 f"{', …' if len(places) > SHOWN + 10 else ''})", source, places[SHOWN][0].line,
                 code=codes.NAME_NOT_A_NAME, value=str(len(places) - SHOWN))


def shouted(title: str) -> bool:
    """A title in capitals only ("DEEP LEARNING FOR SYMBOLIC MUSIC"); math, TeX commands and short acronym
    titles aside."""
    if title.upper() != title:  # the common case, at C speed: a lower-case letter somewhere
        return False
    text = _MATH.sub(" ", title)
    cased = [char for char in text if char.isupper() or char.islower()]
    return len(cased) >= _CASED_LETTERS and all(char.isupper() for char in cased) and len(text.split()) >= 3


def check_titles(entries: Iterable[Entry], warn: Warn) -> None:
    shouting = [entry for entry in entries if entry.title and shouted(entry.title)]
    for source, places in _by_source(shouting).items():
        for entry in places[:SHOWN]:
            warn(f"the title “{entry.title}” is in capitals only; write it as a title is written (citations "
                 "and search show it as given)", source, entry.line, code=codes.TITLE_CAPITALS, paper=entry.uid,
                 subject=entry.title)
        if len(places) > SHOWN:
            warn(f"{len(places) - SHOWN} more titles in capitals only{_more(places[SHOWN - 1:])}", source,
                 places[SHOWN].line, code=codes.TITLE_CAPITALS, value=str(len(places) - SHOWN))


# -- one name in two orders ---------------------------------------------------------------------


def check_orders(entries: Sequence[Entry], rules: Rules, warn: Warn) -> None:
    """A name written family name first in one place and given name first in another: the order fewer
    papers use is named at its first place (its other places in the message)."""
    places: dict[str, list[Place]] = defaultdict(list)
    for entry in entries:
        for author in entry.details.authors:
            places[author.name].append(Place(entry.source, entry.line))
    report_orders(places, rules, warn)


def report_orders(places: dict[str, list[Place]], rules: Rules, warn: Warn,
                  only: Callable[[str], bool] = lambda name: True) -> None:
    """``places``: each spelling → where it is written (a series gives its volumes' pages); ``only``: whether
    a pair (by one of its names) is this report's to make."""
    evidence = None  # (made at the first pair: most volumes have none)
    for first, second in reversed_pairs(places):
        if not only(first) or rules.apart(first, second) or rules.key(first) == rules.key(second):
            continue  # people.yaml says they are two people, or joins them already
        evidence = evidence if evidence is not None else positions(places)
        odd, usual = odd_one(first, second, lambda name: len(places[name]), evidence=evidence)
        shown = ", ".join(str(place) for place in places[usual][:SHOWN])
        warn(f"one name in two orders: “{odd}” here and “{usual}” in {len(places[usual])} paper(s) ({shown}"
             f"{', …' if len(places[usual]) > SHOWN else ''}); write it one way in the source (given name first, "
             f"as a page shows names), or, if they are two people, list them under `different:` in {PEOPLE_FILE}",
             places[odd][0].path, places[odd][0].line, code=codes.NAME_TWO_ORDERS, subject=odd, value=usual)


def orders_across(written: Iterable[tuple[str, str, Place]], rules: Rules, warn: Warn) -> None:
    """``report_orders`` over a series: ``written`` holds (volume, name, place) for every author of every
    paper. A pair that one volume writes both ways is that volume's own warning (``check_orders``)."""
    places: dict[str, list[Place]] = defaultdict(list)
    volumes: dict[str, set[str]] = defaultdict(set)
    for volume, name, place in written:
        places[name].append(place)
        volumes[name].add(volume)
    partner: dict[str, str] = {}
    for first, second in reversed_pairs(places):
        partner[first], partner[second] = second, first
    # A volume writing both spellings says so itself (at its source's line): the series speaks of the others.
    report_orders(places, rules, warn, only=lambda name: volumes[name].isdisjoint(volumes[partner[name]]))


def _by_source(entries: Iterable[Entry]) -> dict[str, list[Entry]]:
    grouped: dict[str, list[Entry]] = defaultdict(list)
    for entry in entries:
        grouped[entry.source].append(entry)
    return grouped


def _more(places: Sequence[Entry]) -> str:
    lines = [str(entry.line) for entry in places[1:11]]
    return f" (also lines {', '.join(lines)}{', …' if len(places) > 11 else ''})" if lines else ""

