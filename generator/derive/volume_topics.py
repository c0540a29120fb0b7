"""What the taxonomy makes of a whole volume, decided once before any paper is tagged.

A taxonomy is a guess about a field; a volume shows whether the guess fits. Two rules,
both on the tags the taxonomy would give the volume's papers:

- **The built-in taxonomy does not fit** when most of the volume's papers (and at least
  ``FIT_MIN``) would match none of its tags (music papers and its machine learning tags): it
  then tags no paper of the volume, and the build says so once, rather than stamping its
  fallback ("Other topics") on most of the volume. A ``taxonomy.yaml`` is the organisers' own
  word on their field, its fallback their choice: it is applied as written, and each paper it
  misses is named.
- **A broad tag** is one it would give more than half of the papers of a volume of at least
  ``BROAD_MIN`` ("Learning theory & statistics" on a COLT volume): it tells a reader nothing there,
  so it gives way to the paper's narrower tags, and stays only on papers that have no other.

The survey reads the sources' text as written (the rendered text is made later, a paper at a
time): what it decides is which tags are broad, not any paper's tags. The decision is part of
``Project.tags_version``, so when it changes, the pages whose tags are the tool's are tagged again.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from generator.derive.tagging import TAXONOMY_FILE, Taxonomy
from generator.model.paper import Entry
from generator.pipeline.cache import digest

FIT_MIN = 5  # papers that match nothing: fewer are each warned about on their own
BROAD_MIN = 20  # papers: in a smaller volume, half is too few papers to call a topic uninformative
BROAD_SHARE = 0.5  # a tag on more than this share of the volume's papers is broad


@dataclass(frozen=True)
class VolumeTopics:
    papers: int = 0  # in the volume
    tagged: int = 0  # papers the taxonomy would tag (auto_tags: those without subjects or keywords, or all)
    fell_back: int = 0  # of them, those matching no tag of the built-in taxonomy
    broad: tuple[tuple[str, int], ...] = ()  # (tag, papers it would be on), most first

    @property
    def fits(self) -> bool:
        return self.fell_back < FIT_MIN or self.fell_back * 2 <= self.papers

    @property
    def broad_names(self) -> frozenset[str]:
        return frozenset(name for name, _ in self.broad)

    @property
    def version(self) -> str:
        """"" for a volume the taxonomy fits without broad tags (the tags of every other volume stay as they
        were); else what was decided, short."""
        if not self.fits:
            return "/unfit"
        if not self.broad:
            return ""
        names = "\x1f".join(sorted(self.broad_names))
        return "/broad-" + hashlib.sha256(names.encode("utf-8")).hexdigest()[:10]


class Known(Protocol):
    """Tags found by an earlier build, by entry (the build cache's EntryCache): tagging takes about 0.1–0.3 ms
    a paper, seconds for a large volume, on every build that loads it."""

    def get(self, record_key: str) -> Any: ...
    def put(self, record_key: str, value: Any) -> None: ...


def survey(taxonomy: Taxonomy, entries: Iterable[Entry], auto_tags: str, known: Known | None = None) -> VolumeTopics:
    """The taxonomy's tags for the entries it would tag, counted over the volume. ``known`` must be made for
    this taxonomy (its version in the cache's key)."""
    if auto_tags == "never":
        return VolumeTopics()
    counts: Counter[str] = Counter()
    papers = tagged = fell_back = 0
    for entry in entries:
        papers += 1
        if auto_tags == "missing" and entry.keywords:
            continue
        tags = _tags(taxonomy, entry, known)
        tagged += 1
        if tags != (taxonomy.fallback,):
            counts.update(tags)
        elif taxonomy.name != TAXONOMY_FILE:
            fell_back += 1
    broad = () if papers < BROAD_MIN else tuple(
        (name, count) for name, count in counts.most_common() if count > papers * BROAD_SHARE)
    return VolumeTopics(papers, tagged, fell_back, broad)


def _tags(taxonomy: Taxonomy, entry: Entry, known: Known | None) -> tuple[str, ...]:
    if known is None:
        return taxonomy.tags_for(entry.title, entry.text)
    key = digest(entry.title, entry.text)
    found = known.get(key)
    if found is None:
        found = list(taxonomy.tags_for(entry.title, entry.text))
        known.put(key, found)
    return tuple(found)
