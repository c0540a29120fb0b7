"""``people.yaml``: who is one person when names alone cannot say (derive/people.py applies it).

::

    same:                         # each list: spellings of one person
      - [J. Doe, Jane Doe]
    different:                    # each list: spellings of different people
      - [Jane Doe, Jane M. Doe]   #   two names the rule keeps apart anyway: no more warning
      - [Simon S Du, Simon S. Du] #   two names the rule would join: each spelling is its own person

A volume reads its own file; a series' file, at its top level, applies to every volume
(its author pages and the series' people pages). ORCIDs and ids still win: ``same`` joins
names, never two ORCIDs.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Callable

from generator.text.cjk import has_cjk, is_cjk
from generator.errors import ContentError, shown
from generator.text.slugs import LATIN_FOLDS
from generator.text.yamlutil import item_lines, load_mapping, read_utf8
from generator import diagnostics as codes

PEOPLE_FILE = "people.yaml"
KEYS = ("same", "different")
# Diacritics only (the blocks of combining diacritical marks): the vowel signs of Indic scripts and
# the dakuten of kana are marks too, but they tell names apart.
_NOT_ALNUM = re.compile("[^a-z0-9]+")
_DIACRITIC = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")


@functools.lru_cache(maxsize=1 << 16)  # a name is folded for each paper that names it
def fold(name: str) -> str:
    """A name without case, punctuation, spacing and diacritics (``Simon S. Du`` → ``simonsdu``,
    ``Jörg`` → ``jorg``, ``Łukasz`` → ``lukasz``). CJK characters stay as written (``山田 太郎`` →
    ``山田太郎``): only Unicode's own equivalents (NFKC: full-width forms) are one."""
    if name.isascii():  # most names: letters and digits kept, everything else is punctuation or space
        return _NOT_ALNUM.sub("", name.lower()) or exact_key(name)
    text = unicodedata.normalize("NFKC", name)
    if not has_cjk(text):  # Latin, Greek, Cyrillic…: diacritics go, then what is neither letter nor digit
        text = _DIACRITIC.sub("", unicodedata.normalize("NFKD", text.translate(LATIN_FOLDS).casefold()))
        if text.isascii():
            return _NOT_ALNUM.sub("", text) or exact_key(name)
    return "".join(_fold_char(char) for char in text) or exact_key(name)


def _fold_char(char: str) -> str:
    """One character of a name in a script beyond ASCII: a CJK one as written (a kana's dakuten is a
    mark, but it makes another kana), else without case and diacritics; punctuation, spaces and
    symbols dropped, other marks (an Indic vowel sign) kept."""
    if is_cjk(char):
        return char
    parts = _DIACRITIC.sub("", unicodedata.normalize("NFKD", char.translate(LATIN_FOLDS).casefold()))
    return "".join(part for part in parts if unicodedata.category(part)[0] not in "PZCS")


def exact_key(name: str) -> str:
    """A spelling, spacing and case aside: how ``different`` tells apart names that fold the same."""
    return " ".join(name.split()).casefold()


@dataclass(frozen=True)
class Rules:
    """The merges and splits of one or more people.yaml files, as lists of names."""

    same: tuple[tuple[str, ...], ...] = ()
    different: tuple[tuple[str, ...], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.same or self.different)

    def __add__(self, other: Rules) -> Rules:
        return Rules(self.same + other.same, self.different + other.different)

    @cached_property
    def split(self) -> frozenset[str]:
        """Folded names that ``different`` splits by their spelling."""
        found: set[str] = set()
        for names in self.different:
            spellings: dict[str, set[str]] = {}
            for name in names:
                spellings.setdefault(fold(name), set()).add(exact_key(name))
            found.update(key for key, spelt in spellings.items() if len(spelt) > 1)
        return frozenset(found)

    @cached_property
    def joined(self) -> dict[str, str]:
        """Folded name → the folded name of the first spelling of its ``same`` group (groups that share
        a name are one group)."""
        parent: dict[str, str] = {}

        def root(key: str) -> str:
            while parent.setdefault(key, key) != key:
                key = parent[key]
            return key

        order: dict[str, int] = {}
        for names in self.same:
            keys = [fold(name) for name in names]
            for key in keys:
                order.setdefault(key, len(order))
            for key in keys[1:]:
                a, b = sorted((root(keys[0]), root(key)), key=order.__getitem__)
                parent[b] = a
        return {key: root(key) for key in parent if root(key) != key}

    def key(self, name: str) -> str:
        """The name as derive/people.py compares it: folded, then merged or split as the file says."""
        folded = fold(name)
        if not self:
            return folded
        if folded in self.split:
            return f"{folded}|{exact_key(name)}"
        return self.joined.get(folded, folded)

    @cached_property
    def _apart(self) -> frozenset[frozenset[str]]:
        return frozenset(frozenset((self.key(a), self.key(b))) for names in self.different
                         for i, a in enumerate(names) for b in names[i + 1:])

    def apart(self, a: str, b: str) -> bool:
        """Whether ``different`` says two names are two people."""
        return frozenset((self.key(a), self.key(b))) in self._apart


def load_rules(folder: Path, warn: Callable[..., None]) -> Rules:
    """``folder``'s people.yaml, or no rules without one; an invalid file raises ContentError."""
    path = folder / PEOPLE_FILE
    if not path.is_file():
        return Rules()
    return parse_rules(read_utf8(path, path, ContentError, "people file"), path, warn)


def parse_rules(text: str, path: Path | str, warn: Callable[..., None]) -> Rules:
    data, lines = load_mapping(text, path, ContentError)
    for key in data:
        if key not in KEYS:
            warn(f"unknown key {shown(key)} in {PEOPLE_FILE} (known: same, different); ignored", path,
                 lines.get(str(key)), code=codes.PEOPLE_UNKNOWN_KEY, subject=str(key))
    groups = {key: _groups(data.get(key), key, item_lines(text, key), path, lines.get(key)) for key in KEYS}
    rules = Rules(groups["same"], groups["different"])
    _check_consistent(rules, item_lines(text, "different"), path)
    return rules


def _groups(value: Any, key: str, item_lines: list[int], path: Path | str, line: int | None) -> tuple:
    example = f"e.g. `{key}: [[J. Doe, Jane Doe]]`"
    if value is None:
        return ()
    if not isinstance(value, list):
        raise ContentError(f"`{key}` must be a list of lists of names, {example}", path=path, line=line)
    groups = []
    for number, names in enumerate(value):
        where = item_lines[number] if number < len(item_lines) else line
        if not isinstance(names, list) or len(names) < 2 or not all(isinstance(n, str) and n.strip() for n in names):
            raise ContentError(f"`{key}`: {shown(names)} is not a list of two or more names, {example}", path=path,
                               line=where)
        names = [" ".join(name.split()) for name in names]
        if key == "different" and len({exact_key(name) for name in names}) < len(names):
            raise ContentError(f"`different`: {shown(names)} lists one spelling twice (case and spacing aside); "
                               "one spelling cannot name two people: give them ORCIDs or ids", path=path, line=where)
        groups.append(tuple(names))
    return tuple(groups)


def _check_consistent(rules: Rules, lines: list[int], path: Path | str) -> None:
    """No two names both ``same`` and ``different``."""
    for number, names in enumerate(rules.different):
        keys = [rules.key(name) for name in names]
        if len(set(keys)) < len(keys):
            raise ContentError(f"`different`: {shown(list(names))} names spellings that `same` joins; keep them "
                               "in one list only", path=path, line=lines[number] if number < len(lines) else None)
