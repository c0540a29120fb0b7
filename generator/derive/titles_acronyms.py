"""An acronym's long form in the words before it: "Decentralized Distributed PPO (DD-PPO)" → "Decentralized
Distributed PPO". The titles' rules (titles.py) name a contribution by it and spell out acronyms with it."""

from __future__ import annotations

import re

_WORD_PART = re.compile(r"[^\W_]+")


def long_form(acronym: str, candidate: str) -> str:
    """The words before "(ACR)" that spell it out, or ""."""
    text = candidate.strip()
    letters = [c.lower() for c in acronym if c.isalnum()]
    return _initials_long_form(letters, text) or _letters_long_form(letters, text) or _initial_long_form(acronym, text)


def _initials_long_form(letters: list[str], text: str) -> str:
    """Each letter starts a word, right to left: "Decentralized Distributed PPO" for "DD-PPO"."""
    words = list(_WORD_PART.finditer(text))
    index = len(words) - 1
    for letter in reversed(letters):
        while index >= 0 and words[index][0][0].lower() != letter:
            index -= 1
        if index < 0:
            return ""
        index -= 1
    return text[words[index + 1].start() :]


def _letters_long_form(letters: list[str], text: str) -> str:
    """Schwartz & Hearst: letters anywhere, right to left, the first one starting a word."""
    position = len(text) - 1
    for index in range(len(letters) - 1, -1, -1):
        while position >= 0 and (
            text[position].lower() != letters[index]
            or (index == 0 and position > 0 and text[position - 1].isalnum())
        ):
            position -= 1
        if position < 0:
            return ""
        position -= 1
    return text[position + 1 :].strip()


def _initial_long_form(acronym: str, text: str) -> str:
    """Fallback for names like "D2C": the words from the first one sharing the initial."""
    words = text.split()
    for start, word in enumerate(words):
        if word[0].lower() == acronym[0].lower() and len(words) - start <= len(acronym) + 2:
            return " ".join(words[start:])
    return ""
