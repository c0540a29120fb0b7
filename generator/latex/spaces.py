"""Whitespace collapsed: what every plain-text form of a title or name is made with. A module of its own so that
the citation writers use it without importing the LaTeX-to-text engine (pylatexenc), which a warm build never runs."""

from __future__ import annotations


def collapse(text: str) -> str:
    """Single spaces (no-break spaces included), no leading or trailing blanks."""
    # Every whitespace character but the space is unprintable: a printable text singly spaced is its own split and
    # join (most are; the test costs half as much).
    if text.isprintable() and singly_spaced(text):
        return text
    return " ".join(text.split())  # str.split's whitespace is exactly regex \s (every code point checked)


def singly_spaced(text: str) -> bool:
    """No two spaces together, none at either end (of its other white space, if any, it says nothing)."""
    return "  " not in text and text[:1] != " " and text[-1:] != " "
