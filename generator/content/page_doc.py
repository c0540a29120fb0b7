"""A page as read (``PageDoc``), and a page whose front matter is read only when something asks for it
(``KnownPage``): what content/pages.py reads pages into.

A warm build reads every page's text (its digest is the key of all that is kept of the page), but the front
matter is wanted only by the sync and by parsing the page into a Paper, and the build cache usually holds both
outcomes for the same texts (pipeline/synced.py, pipeline/parsed.py): so a page whose front matter an earlier
build parsed takes it from the cache's record when first asked for, or else parses its text then, exactly as
``read_page`` would have; a warm build that asks for none reads no front matter record.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.content.fingerprints import Fingerprints
from generator.errors import ContentError, ProceedingsError
from generator.runtime.cache import EntryCache
from generator.text.frontfast import read_front
from generator.text.yamlutil import load_mapping

FENCE = "---"


@dataclass
class PageDoc:
    """A page file as read: front matter (if it parsed), body, and any problem."""

    path: Path
    meta: dict[str, Any] = field(default_factory=dict)
    body: str = ""
    lines: dict[str, int] = field(default_factory=dict)
    body_line: int = 1
    error: ProceedingsError | None = None
    # For a page whose front matter does not parse (half saved, a typo): what its lines still say of
    # its identity (id, uid, source, slug, and the fingerprint of its entry), so that the merge keeps
    # the page in its place instead of making a second one for its entry.
    salvaged: dict[str, str] = field(default_factory=dict)
    # The digest of the page's text as read (LF line ends): with the file's name, all its Paper is made of,
    # so that Paper's record key (runtime/cache_records.paper_key); "" when the text is not at hand. Whoever changes
    # ``meta`` or ``body`` of a page read sets it to "" (commands/correct.py).
    text_digest: str = ""

    @functools.cached_property
    def generated(self) -> Fingerprints | None:
        return Fingerprints.of(self.meta.get("generated"))


def parse_front(front: str, name: Path | str) -> tuple[dict[str, Any], dict[str, int], ContentError | None,
                                                      dict[str, str]]:
    """A front matter's (meta, lines, error, salvaged identity), as ``read_page`` reads it: the shape the tool
    writes without YAML's node tree (text/frontfast.py), else libyaml."""
    try:
        meta, lines = read_front(front, first_line=2) or load_mapping(front, name, ContentError, first_line=2)
        return meta, lines, None, {}
    except ContentError as exc:
        return {}, {}, exc, salvage_identity(front)


class KnownPage(PageDoc):
    """A page whose front matter (``front``, its text) is read when ``meta``, ``lines``, ``error`` or
    ``salvaged`` is first asked for: from ``known``'s record under ``key`` (the digest of ``front``: what an
    earlier build parsed it into), else parsed then (and put there). Until then the entry keeps the record as
    it is (``EntryCache.keep``). Equal to nothing but itself; pickled as the PageDoc it reads as."""

    _LAZY = ("meta", "lines", "error", "salvaged")

    def __init__(self, path: Path, name: Path | str, front: str, body: str, body_line: int, text_digest: str,
                 known: EntryCache, key: str):
        # (not PageDoc's __init__: the four lazy fields are made by ``_read``)
        self.path, self.body, self.body_line, self.text_digest = path, body, body_line, text_digest
        self._source: tuple[Path | str, str, EntryCache, str] | None = (name, front, known, key)
        known.keep(key)

    def _read(self) -> None:
        if self._source is None:
            return
        name, front, known, key = self._source
        self._source = None
        record = known.take(key)
        if isinstance(record, dict) and all(isinstance(record.get(part), dict) for part in ("meta", "lines")):
            made: tuple[Any, ...] = (record["meta"], record["lines"], None, {})
        else:
            made = parse_front(front, name)
            if made[2] is None and json_safe(made[0]):
                known.put(key, {"meta": plain_copy(made[0]), "lines": dict(made[1])})
        for part, value in zip(self._LAZY, made):
            self.__dict__["_" + part] = value

    def __reduce__(self) -> tuple[Any, ...]:
        self._read()
        return (PageDoc, (self.path, self.meta, self.body, self.lines, self.body_line, self.error, self.salvaged,
                          self.text_digest))


def _lazy(part: str) -> property:
    def get(self: KnownPage) -> Any:
        self._read()
        return self.__dict__["_" + part]

    def put(self: KnownPage, value: Any) -> None:
        self._read()  # (the other parts as read)
        self.__dict__["_" + part] = value

    return property(get, put)


for _part in KnownPage._LAZY:
    setattr(KnownPage, _part, _lazy(_part))


def json_safe(value: Any) -> bool:
    """Whether the front matter comes back from JSON as YAML gave it: text, numbers (finite: NaN is not
    itself, and the cache writes no infinity), true/false, null, lists and objects keyed by text; no
    dates, sets, bytes or number keys. A walk, not a round trip through JSON: it runs for every page."""
    if value is None or isinstance(value, (str, int)):  # bool is an int
        return True
    if isinstance(value, float):
        return value == value and value not in (float("inf"), float("-inf"))
    if type(value) is list:
        return all(map(json_safe, value))
    if type(value) is dict:
        return all(type(key) is str and json_safe(item) for key, item in value.items())
    return False


def plain_copy(value: Any) -> Any:
    """What YAML gives back: lists for tuples, and fresh containers (the sync keeps its own)."""
    if isinstance(value, dict):
        return {key: plain_copy(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain_copy(item) for item in value]
    return value


_IDENTITY_LINE = re.compile(r"^(id|uid|source|slug|entry|  text): *['\"]?(.*?)['\"]? *$")
_FLOW_TEXT = re.compile(r"^generated: *\{(?:.*?, *)?text: *['\"]?([0-9a-f]+)")  # generated: {text: 2b6e…, …}


def salvage_identity(text: str, lines: int = 200) -> dict[str, str]:
    """``id``, ``uid``, ``source``, ``slug`` and the entry fingerprint (``generated.text``) as plain
    ``key: value`` lines of a front matter that does not parse as YAML."""
    found: dict[str, str] = {}
    for line in text.split("\n")[:lines]:
        if line.strip() == FENCE and found:
            break
        match = _IDENTITY_LINE.match(line)
        if match and match.group(2):
            found.setdefault(match.group(1).strip(), match.group(2))
        flow = _FLOW_TEXT.match(line)
        if flow:
            found.setdefault("text", flow.group(1))
    return found


def split_front_matter(text: str) -> tuple[str | None, str, int]:
    """Return (front matter or None, body, line number where the body starts)."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != FENCE:
        return None, text, 1
    for number, line in enumerate(lines[1:], start=1):
        if line.strip() == FENCE:
            return "\n".join(lines[1:number]), "\n".join(lines[number + 1 :]), number + 2
    return None, text, 1
