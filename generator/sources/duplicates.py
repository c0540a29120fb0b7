"""Records that are the same paper twice: published once, with a warning naming both places.

Venues' exports repeat papers: a row pasted twice, the same abstract in two lists,
a new export (``papers-final.csv``) dropped beside the old one with the same ids.
A record repeats an earlier one (in file-name order, then record order) when

- it has the earlier record's abstract, word for word, and the same title or no title
  (so untitled lists compare by abstract; two keynotes with a placeholder abstract
  but their own titles stay two papers), or
- it has the earlier record's id and the same abstract or the same title (an export
  of the same paper; two files numbering their rows 1, 2, 3… do not match on the id alone).

The repeat is left out and the earlier record published. Repeats of one file in
another are summarised in one warning per pair of files, with what to do.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from generator.diagnostics import RECORD_REPEAT as REPEAT
from generator.errors import Diagnostic
from generator.model.paper import Entry, SourceList
from generator.model.paper_codec import SHAPE_ERRORS, diagnostic_of, diagnostic_record
from generator.runtime.cache import BuildCache

KIND = "repeats"


def _words(text: str) -> str:
    return " ".join(text.split()).casefold()


class _Seen:
    def __init__(self) -> None:
        self.by_text: dict[str, list[Entry]] = {}
        self.by_uid: dict[str, list[Entry]] = {}

    def original(self, entry: Entry, text: str) -> Entry | None:
        """The earlier record ``entry`` repeats, if any; ``text``: its abstract's ``_words``."""
        title = _words(entry.title)
        for earlier in self.by_text.get(text, []) if text else []:
            if not title or not earlier.title or _words(earlier.title) == title:
                return earlier
        for earlier in self.by_uid.get(entry.uid, []) if entry.uid else []:
            if (text and _words(earlier.text) == text) or \
                    (title and _words(earlier.title) == title):
                return earlier
        return None

    def add(self, entry: Entry, text: str) -> None:
        if text:
            self.by_text.setdefault(text, []).append(entry)
        if entry.uid:
            self.by_uid.setdefault(entry.uid, []).append(entry)


def drop_duplicates(sources: list[SourceList]) -> tuple[list[SourceList], list[Diagnostic]]:
    """The sources without records that repeat an earlier one, and a warning for each repeat."""
    seen, diagnostics = _Seen(), []
    across: Counter[tuple[str, str]] = Counter()  # (repeating file, original's file) → records
    first_line: dict[tuple[str, str], int] = {}
    kept_sources = []
    for source in sources:
        kept = []
        for entry in source.entries:
            text = _words(entry.text)  # once a record: every build compares every abstract (10,000 at a time)
            original = seen.original(entry, text)
            if original is None:
                seen.add(entry, text)
                kept.append(entry)
            elif original.source == entry.source:
                diagnostics.append(Diagnostic("warning", _repeat(entry, original), entry.source, entry.line, REPEAT,
                                              paper=entry.uid))
            else:
                pair = (entry.source, original.source)
                across[pair] += 1
                first_line.setdefault(pair, entry.line)
        kept_sources.append(replace(source, entries=tuple(kept)) if len(kept) < len(source.entries) else source)
    for (repeating, earlier), count in across.items():
        diagnostics.append(Diagnostic("warning", _repeats_of_file(repeating, earlier, count), repeating,
                                      first_line[(repeating, earlier)], REPEAT, count))
    return kept_sources, diagnostics


def kept_drop_duplicates(sources: list[SourceList], store: BuildCache | None,
                         key: str) -> tuple[list[SourceList], list[Diagnostic]]:
    """``drop_duplicates``, or what it made of the same sources in an earlier build: kept by the build cache
    under ``key``, the sources' own (a digest of all they were read from, sources/kept.py; "": not kept). Each
    abstract compared is a few microseconds of Python, 10,000 at a time on every build."""
    if store is None or not store.enabled or not key:
        return drop_duplicates(sources)
    record_key = store.key(KIND, key)
    found = _repeats_of(store.load_json(KIND, record_key), sources)
    if found is not None:
        return found
    kept, diagnostics = drop_duplicates(sources)
    left = [{id(entry) for entry in source.entries} for source in kept]
    dropped = [[n for n, entry in enumerate(source.entries) if id(entry) not in ids]
               for source, ids in zip(sources, left)]
    store.store_json(KIND, record_key, [dropped, [diagnostic_record(d) for d in diagnostics]])
    return kept, diagnostics


def _repeats_of(record: object, sources: list[SourceList]) -> tuple[list[SourceList], list[Diagnostic]] | None:
    """The sources less the entries a kept record says repeat others, and its warnings; None: not such a record."""
    try:
        dropped: list[list[int]]
        said: list[list]
        dropped, said = record  # type: ignore[misc]
        if len(dropped) != len(sources):
            return None
        kept = []
        for source, positions in zip(sources, dropped):
            if not positions:
                kept.append(source)
                continue
            if not all(type(n) is int and 0 <= n < len(source.entries) for n in positions):
                return None
            gone = set(positions)
            kept.append(replace(source, entries=tuple(e for n, e in enumerate(source.entries) if n not in gone)))
        return kept, [diagnostic_of(made) for made in said]
    except SHAPE_ERRORS:
        return None


def _name(entry: Entry) -> str:
    return f"“{entry.title}”" if entry.title else f"entry {entry.index}"


def _repeat(entry: Entry, original: Entry) -> str:
    same = "id and content" if entry.uid and entry.uid == original.uid else "abstract"
    return (f"{_name(entry)} repeats the {same} of {_name(original)} (line {original.line}); "
            "published once, from that line: delete one of the two")


def _repeats_of_file(repeating: str, original: str, count: int) -> str:
    records = f"{count} record{'s' if count != 1 else ''}"
    return (f"{records} of this file repeat papers of {original} (the same id with the same abstract or "
            f"title, or the same abstract); each is published once, from {original}. If this file is a newer "
            f"export of the same papers, replace {original} with it; if both should stay, remove the repeats")
