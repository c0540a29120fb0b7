"""Whitespace collapsed: what every plain-text form of a title or name is made with. A module of its own so that
the citation writers use it without importing the LaTeX-to-text engine (pylatexenc), which a warm build never runs."""

from __future__ import annotations


def collapse(text: str) -> str:
    """Single spaces (no-break spaces included), no leading or trailing blanks."""
    # Every whitespace character but the space is unprintable: a text with none, no two spaces together and none at
    # either end is its own split and join (most are; the test costs half as much).
    if text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " ":
        return text
    return " ".join(text.split())  # str.split's whitespace is exactly regex \s (every code point checked)
