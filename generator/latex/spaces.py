"""Whitespace collapsed: what every plain-text form of a title or name is made with. A module of its own so that
the citation writers use it without importing the LaTeX-to-text engine (pylatexenc), which a warm build never runs."""

from __future__ import annotations


def collapse(text: str) -> str:
    """Single spaces (no-break spaces included), no leading or trailing blanks."""
    return " ".join(text.split())  # str.split's whitespace is exactly regex \s (every code point checked)
