"""The phrase finder as it was before issue 43 counted its n-grams with numpy (session 17): every n-gram of
every stretch made as a string in Python and counted with a ``Counter``. tests/test_phrases_reference.py holds
today's ``phrases_of`` and ``candidates`` to this one on real and generated text (the same phrases, so the
volume's own topics and the pages stay byte-identical)."""

from __future__ import annotations

import unicodedata
from collections import Counter

from generator.derive.phrases import (
    _CJK_RUNS, _CLAUSE_BREAK, _HYPHENS, _KATAKANA_CHARS, _MARKUP, _NUMBER, _OKURIGANA, _TERM_RUN, _WORD, _ZH_BREAK,
    LONG_RUN, MAX_CHARS, MAX_WORDS, SHORT_CHARS, STOP_WORDS, PaperPhrases, singular)
from generator.text.cjk import has_cjk, language_of


def phrases_of(title: str, abstract: str) -> PaperPhrases:
    chinese = language_of(f"{title}\n{abstract}") == "zh"
    in_title, title_heads, title_starts = candidates(title, chinese)
    found, heads, starts = candidates(abstract, chinese)
    repeated = {key for key, n in found.items() if n > 1 or key in in_title}
    repeated.update(key for key, n in in_title.items() if n > 1)
    return PaperPhrases(frozenset(in_title.keys() | found.keys()), frozenset(in_title), frozenset(title_heads | heads),
                        frozenset(title_starts | starts), frozenset(repeated))


def candidates(text: str, chinese: bool | None = None) -> tuple[Counter[str], set[str], set[str]]:
    text = _MARKUP.sub(" , ", unicodedata.normalize("NFKC", text)).translate(_HYPHENS)
    found: list[str] = []
    heads: set[str] = set()
    starts: set[str] = set()
    cjk = has_cjk(text)
    for clause in _CLAUSE_BREAK.split(_CJK_RUNS.sub(" , ", text) if cjk else text):
        words = _WORD.findall(clause.lower())
        if words:
            _add_latin(words, found, heads)
    if cjk:
        chinese = language_of(text) == "zh" if chinese is None else chinese
        for run in _TERM_RUN.findall(text):
            for part in _ZH_BREAK.split(run) if chinese else (run,):
                if len(part) > 1:
                    _add_cjk(part, found, heads, starts)
    return Counter(found), heads, starts


def _add_latin(words: list[str], found: list[str], heads: set[str]) -> None:
    stretch: list[str] = []
    for word in words:
        if word in STOP_WORDS or len(word) < 2 or (not word.isalpha() and _NUMBER.fullmatch(word)):
            if stretch:
                _add_ngrams(stretch, found, heads)
                stretch = []
        else:
            stretch.append(word)
    if stretch:
        _add_ngrams(stretch, found, heads)


def _add_ngrams(words: list[str], found: list[str], heads: set[str]) -> None:
    last = len(words)
    ends = [singular(word) for word in words]
    add = found.append
    for start in range(last):
        if len(words[start]) > 2:
            add(ends[start])
        prefix = words[start]
        for end in range(start + 2, min(start + MAX_WORDS, last) + 1):
            add(prefix + " " + ends[end - 1])
            prefix += " " + words[end - 1]
    heads.add(ends[-1])
    if last > 1:
        heads.add(words[-2] + " " + ends[-1])
        if last > 2 and MAX_WORDS > 2:
            heads.add(words[-3] + " " + words[-2] + " " + ends[-1])


def _add_cjk(run: str, found: list[str], heads: set[str], starts: set[str]) -> None:
    katakana = [char in _KATAKANA_CHARS for char in run]
    cuts = [0] + [i for i in range(1, len(run)) if not (katakana[i - 1] and katakana[i]) and run[i] not in _OKURIGANA]
    cuts.append(len(run))
    longest = MAX_CHARS if len(run) <= LONG_RUN else SHORT_CHARS
    last = len(run)
    for i, start in enumerate(cuts):
        for end in cuts[i + 1:]:
            if end - start > longest:
                break
            if end - start >= 2:
                piece = run[start:end]
                found.append(piece)
                if end == last:
                    heads.add(piece)
                if start == 0:
                    starts.add(piece)
