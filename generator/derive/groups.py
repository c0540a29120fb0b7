"""Papers grouped as a programme reads them: by section, else session, else track.

A volume from PMLR has sections ("Contributed Papers", "Invited Talks"); a
Mini-Conf programme has sessions and tracks, and a paper may be in several
sessions (COLT 2020: ``Session 1A|Session 1E``). The contents list every paper
once, under its first group (sessions come in the programme's order: by day and
time when the papers give them, else by the natural order of their names, Session
2A before Session 10A); a later group it is in names it among the papers ``also``
in it, so its count says papers, not entries. A group knows what all its papers
share of the programme (``when``: its day, time and room). Papers that name no
group come last, under "Other papers"; a volume whose papers name none is one
plain list.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from generator.model.paper import RenderedPaper
from generator.text.slugs import slugify, unique

# The kinds of group a volume's contents may be made of, in the order one is chosen: the first
# that some paper names. ``topic`` (a paper's first tag) only splits a volume too big for one page.
KINDS = ("section", "sessions", "track")
TOPIC = "topic"
_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_CLOCK = re.compile(r"(\d{1,2})(?:[:.h](\d{2}))?\s*([ap]\.?m\.?)?", re.I)


# What a session's heading shows when all its papers share it: the programme's fields (model.Details).
PROGRAMME = ("day", "time", "room")


@dataclass(frozen=True)
class PaperGroup:
    name: str  # "" for the papers that name no group
    anchor: str  # the heading's id on its page
    papers: tuple[RenderedPaper, ...]  # listed here: the papers whose first group this is
    part: int = 1  # a group too big for one contents page is cut into parts (render/contents.py)
    parts: int = 1
    kind: str = ""  # section, sessions, track or topic (KINDS, TOPIC)
    also: tuple[RenderedPaper, ...] = ()  # in this group too, listed under an earlier one

    @property
    def start(self) -> int:
        """The number of its first paper in the volume (the list's ``start``)."""
        return self.papers[0].paper.order if self.papers else 1

    @property
    def count(self) -> int:
        """Its papers, those listed under an earlier group included."""
        return len(self.papers) + len(self.also)

    @property
    def when(self) -> tuple[tuple[str, str], ...]:
        """(field, value) of the programme's fields that every paper of the group gives alike: the day, time
        and room of a session. A paper in several sessions has one day and time in the file, which cannot
        tell whose it is, so only the papers of one session speak for it."""
        members = [p for p in (*self.papers, *self.also) if self.kind != "sessions" or len(p.details.sessions) == 1]
        shared = []
        for name in PROGRAMME if members and self.name else ():
            values = {getattr(paper.details, name) for paper in members}
            if len(values) == 1 and "" not in values:
                shared.append((name, values.pop()))
        return tuple(shared)


def names_of(paper: RenderedPaper, kind: str) -> tuple[str, ...]:
    """The groups of ``kind`` a paper is listed under."""
    details = paper.details
    if kind == "section":
        return (details.section,) if details.section else ()
    if kind == TOPIC:
        return paper.paper.tags[:1]  # its primary topic
    return tuple(dict.fromkeys(getattr(details, kind)))  # a session named twice is one listing


def group_kind(papers: Sequence[RenderedPaper], topics: bool = False) -> str:
    """The first kind some paper names ("" when none does; ``topic`` only when ``topics`` is asked for)."""
    kinds = (*KINDS, TOPIC) if topics else KINDS
    return next((kind for kind in kinds if any(map(functools.partial(_names_some, kind=kind), papers))), "")


def _names_some(paper: RenderedPaper, kind: str) -> bool:
    """Whether ``names_of(paper, kind)`` is not empty, without making it (a volume's every paper, each kind)."""
    return bool(paper.paper.tags if kind == TOPIC else getattr(paper.details, kind))


def paper_groups(papers: Sequence[RenderedPaper], kind: str | None = None) -> list[PaperGroup]:
    """Every group of the volume once, each with its papers in proceedings order; papers naming none last."""
    kind = group_kind(papers) if kind is None else kind
    members: dict[str, list[RenderedPaper]] = {}
    others: list[RenderedPaper] = []
    for paper in papers:
        own = names_of(paper, kind) if kind else ()
        for name in own:
            members.setdefault(name, []).append(paper)
        if not own:
            others.append(paper)
    names = list(members)  # sections and tracks: in order of first appearance
    if kind == TOPIC:  # as the topic index has them
        names.sort(key=lambda name: (name.casefold(), name))
    elif kind == "sessions":
        slots = session_slots(papers)
        names.sort(key=lambda name: (name not in slots, slots.get(name, ()), natural_key(name), name))
    taken: set[str] = set()
    listed: set[int] = set()
    groups = []
    for name in names:  # a paper is listed under its first group, and named among the papers also in the others
        first = tuple(paper for paper in members[name] if id(paper) not in listed)
        also = tuple(paper for paper in members[name] if id(paper) in listed)
        listed.update(map(id, first))
        groups.append(PaperGroup(name, _anchor(name, taken), first, kind=kind, also=also))
    if others:
        groups.append(PaperGroup("", _anchor("", taken), tuple(others), kind=kind))
    return groups


def _anchor(name: str, taken: set[str]) -> str:
    anchor = unique("group-" + (slugify(name) if name else "other-papers"), taken)
    taken.add(anchor)
    return anchor


def session_slots(papers: Sequence[RenderedPaper]) -> dict[str, tuple]:
    """Each session's place in the programme, from the day and time of the papers it holds alone: a
    paper in several sessions has one day and time in the file, which cannot tell whose it is."""
    slots: dict[str, tuple] = {}
    for paper in papers:
        details = paper.details
        if len(details.sessions) == 1 and (details.day or details.time):
            slot = (day_key(details.day), time_key(details.time))
            name = details.sessions[0]
            slots[name] = min(slots.get(name, slot), slot)
    return slots


def natural_key(text: str) -> tuple:
    """Numbers read as numbers: "Session 2A" before "Session 10A"; every part comparable with any other."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in
                 re.split(r"(\d+)", text.casefold().strip()) if part)


def day_key(day: str) -> tuple:
    """A day as programmes write it: a date (2020-07-09), a number (Day 2) or a weekday (Tuesday)."""
    text = day.casefold().strip()
    weekday = next((n for n, name in enumerate(_WEEKDAYS) if text.startswith(name)), None)
    return natural_key(str(weekday)) if weekday is not None else natural_key(text)


def time_key(time: str) -> tuple:
    """The start of a time slot in minutes (10:30, 2:30 PM, 14h00, 10:00-11:00), else its text."""
    match = _CLOCK.search(time)
    if not match:
        return natural_key(time)
    hour, minute = int(match[1]) % 24, int(match[2] or 0)
    if match[3]:  # 12:15 AM is 0:15, 12:15 PM 12:15
        hour = hour % 12 + (12 if match[3][0].lower() == "p" else 0)
    return ((0, hour * 60 + minute, ""),)


def group_index(pages: Sequence[tuple[str, Sequence[PaperGroup]]]) -> list[tuple[str, str]]:
    """(group name, link to its heading) for each group, in order; "" names the others."""
    links: dict[str, str] = {}
    for url, groups in pages:
        for group in groups:
            if group.name not in links:
                links[group.name] = f"{url}#{group.anchor}"
    return list(links.items())


def award_groups(papers: Sequence[RenderedPaper]) -> list[tuple[str, tuple[RenderedPaper, ...]]]:
    """(award, its papers) for each award as the venue names it ("Best Paper Nominee"), in the order the volume
    first names it, each paper in proceedings order: the awards page."""
    awards: dict[str, list[RenderedPaper]] = {}
    for paper in papers:
        if paper.details.award:
            awards.setdefault(paper.details.award, []).append(paper)
    return [(award, tuple(awarded)) for award, awarded in awards.items()]


# Words programmes build their sessions' ids from (SIGDIAL/INLG 2023: `sigdialoralsession1`,
# `genchalpostersession+demos`, `inlgpostersession+flash`), longest first so that "posters" wins over "poster".
_PROGRAMME_WORDS = sorted("""session sessions poster posters oral orals demo demos keynote keynotes panel plenary
    presentation presentations flash lightning spotlight spotlights virtual online remote invited talk talks tutorial
    workshop track main short long paper papers student findings industry opening closing award awards""".split(),
                          key=len, reverse=True)
# An id rather than a name: one lower-case token of letters and digits, maybe joined by + _ - (no spaces).
_SESSION_ID = re.compile(r"[a-z][a-z0-9]*(?:[+_-][a-z0-9]+)*")
_NUMBER = re.compile(r"\d+[a-z]?")


def readable_sessions(names: Sequence[str]) -> dict[str, str]:
    """When most of a programme's session names are ids (one lower-case token, SIGDIAL/INLG 2023's), each id
    whose letters are mostly programme words → the same words apart and capitalised
    (`sigdialoralsession1` → "Sigdial Oral Session 1", `genchalpostersession+demos` → "Genchal Poster Session +
    Demos"); a readable name, or an id with no programme word in it, is not in the mapping. What is not a
    programme word is a piece of its own (the venue's name, "sigdial"), split further by the pieces the other
    ids show alone (`inlggenchalpresentation` → "Inlg Genchal Presentation", once `inlg` and `genchal` are seen)."""
    names = list(dict.fromkeys(names))
    ids = [name for name in names if _SESSION_ID.fullmatch(name) and len(name) >= 8]
    if 2 * len(ids) < len(names):  # a programme of names, with an odd lower-case one, is left as written
        return {}
    first = {name: _pieces(name, _PROGRAMME_WORDS) for name in ids}
    known = {piece for pieces in first.values() for piece, word in pieces if not word and piece.isalpha()}
    # A piece the others make up whole (`inlggenchal`: `inlg` and `genchal`) is not one of its own.
    known = {piece for piece in known if any(not word for _, word in _pieces(piece, sorted(known - {piece})))}
    vocabulary = [*_PROGRAMME_WORDS, *sorted(known, key=len, reverse=True)]
    readable = {}
    for name, pieces in first.items():
        # Programme words make at least half of its letters (`longitudinal` holds "long", and is no id of one).
        if 2 * sum(len(piece) for piece, word in pieces if word) < sum(map(str.isalpha, name)):
            continue
        words = [piece for piece, _ in _pieces(name, vocabulary)]
        readable[name] = " ".join(word[:1].upper() + word[1:] if word.isalpha() else word.upper() for word in words)
    return readable


def _pieces(name: str, vocabulary: Sequence[str]) -> list[tuple[str, bool]]:
    """``name`` cut into the vocabulary's words (True) and what lies between them (False): runs of digits, a
    joiner (+), runs of other letters; the cut that leaves the fewest letters outside words, then the fewest
    pieces (``postersession`` is "poster" "session", not "posters" "ession")."""
    words = set(vocabulary)
    # best[j]: (letters outside words, pieces, the pieces) for name[:j]
    best: list[tuple[int, int, list[tuple[str, bool]]] | None] = [None] * (len(name) + 1)
    best[0] = (0, 0, [])
    for start in range(len(name)):
        if best[start] is None:
            continue
        unknown, count, pieces = best[start]  # type: ignore[misc]
        for end in range(start + 1, len(name) + 1):
            piece = name[start:end]
            if piece in words:
                step = (unknown, count + 1, [*pieces, (piece, True)])
            elif piece.isalpha() or _NUMBER.fullmatch(piece):  # a number may end in a letter: 12b
                step = (unknown + (len(piece) if piece.isalpha() else 0), count + 1, [*pieces, (piece, False)])
            elif end == start + 1:  # a joiner: "+" shown, "_" and "-" only part words
                step = (unknown, count, [*pieces, (piece, False)] if piece == "+" else pieces)
            else:
                break
            if best[end] is None or step[:2] < best[end][:2]:  # type: ignore[index]
                best[end] = step
    return best[-1][2] if best[-1] is not None else [(name, False)]
