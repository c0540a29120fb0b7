"""Text as it comes in from a source or a page, made safe to publish: one rule for every reader.

* NFC: ``e`` + combining acute and ``é`` are one spelling, so one author or topic.
* Control characters (C0 but line breaks and tabs in multi-line text, DEL, C1) are dropped: a
  ``\\x1b`` never reaches a ``<title>``, a ``citation_*`` tag or ``proceedings.bib``.
* Invisible characters that only make look-alikes (zero-width space, word joiner, BOM) are
  dropped. ZWJ and ZWNJ are kept where a script needs them, between two characters of a script
  other than Latin (Persian ``می‌خواهم``, Devanagari conjuncts, emoji sequences), and dropped
  elsewhere (``Jane\\u200d Doe``).
* Bidi controls (U+202A–U+202E, U+2066–U+2069) are kept only in pairs closed within the same
  text; an unpaired one is dropped. The text way rather than ``<bdi>`` in templates: a name also
  goes where no HTML can isolate it (``<title>``, meta tags, BibTeX, papers.json, the feed), and a
  text whose every control is closed cannot reverse what follows it anywhere.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

# What no text keeps (C0 and C1 controls, DEL); a multi-line text keeps its line breaks and tabs.
_LINE_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_ONE_LINE_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_SPACES = frozenset("\t\n\r\x85")
_INVISIBLE = re.compile("[\u200b\u2060\ufeff]")
_JOINERS = "\u200c\u200d"
_OPENERS = {"\u202a": "\u202c", "\u202b": "\u202c", "\u202d": "\u202c", "\u202e": "\u202c",
            "\u2066": "\u2069", "\u2067": "\u2069", "\u2068": "\u2069"}
_CLOSERS = frozenset(_OPENERS.values())
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")  # every opener and closer


def clean(text: str, lines: bool = False) -> str:
    """``text`` by the rules above; ``lines`` keeps line breaks and tabs (an abstract)."""
    controls = _LINE_CONTROLS if lines else _ONE_LINE_CONTROLS
    if text.isascii():  # the common case: already NFC, and nothing invisible, no joiner, no bidi control
        return text if text.isprintable() else controls.sub(_control_replaced, text)
    text = unicodedata.normalize("NFC", text)
    text = controls.sub(_control_replaced, text)
    text = _INVISIBLE.sub("", text)
    if any(joiner in text for joiner in _JOINERS):
        text = _joiners(text)
    if _BIDI.search(text):
        text = _paired_bidi(text)
    return text


def _control_replaced(match: re.Match[str]) -> str:
    # NEL (U+0085) is a line end to some editors: a space, so the words either side stay apart.
    return " " if match.group() in _SPACES else ""


def clean_value(value: Any, lines: bool = False) -> Any:
    """A value from YAML or JSON with every string in it cleaned (lists and mappings too)."""
    if isinstance(value, str):
        return clean(value, lines)
    if isinstance(value, list):
        return [clean_value(item, lines) for item in value]
    if isinstance(value, Mapping):
        return {key: clean_value(item, lines) for key, item in value.items()}
    return value




def clean_fields(record: Mapping[str, Any], keys: Iterable[str],
                 lines: Iterable[str] = ("abstract",)) -> dict[str, Any]:
    """``record`` with the values of ``keys`` cleaned (``lines``: those that keep their line breaks);
    the others (ids, links) are left for their own checks. The schema names the keys
    (``model.paper.TEXT_FIELDS``): this module is below the model and knows no field."""
    multi = frozenset(lines)
    return {key: clean_value(value, key in multi) if key in keys else value for key, value in record.items()}


def _joiners(text: str) -> str:
    kept = []
    for index, char in enumerate(text):
        before, after = text[index - 1: index], text[index + 1: index + 2]
        if char in _JOINERS and not (_needs_joiner(before) and _needs_joiner(after)):
            continue
        kept.append(char)
    return "".join(kept)


def _needs_joiner(char: str) -> bool:
    """A neighbour of a ZWJ/ZWNJ in a script that uses them: a letter, mark or symbol, not Latin."""
    if not char or char.isascii() or char in _JOINERS:
        return False
    return unicodedata.category(char)[0] in "LMS" and not unicodedata.name(char, "").startswith("LATIN")


def _paired_bidi(text: str) -> str:
    """``text`` without the bidi controls that open and never close, or close what never opened."""
    dropped, open_at = set(), []
    for index, char in enumerate(text):
        if char in _OPENERS:
            open_at.append(index)
        elif char in _CLOSERS:
            if open_at and _OPENERS[text[open_at[-1]]] == char:
                open_at.pop()
            else:
                dropped.add(index)
    dropped.update(open_at)
    return "".join(char for index, char in enumerate(text) if index not in dropped)
