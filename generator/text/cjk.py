"""Chinese, Japanese and Korean text: which characters are CJK, runs and bigrams, cutting text.

These scripts are written without spaces between words, so every place that
splits text into words (search terms, slugs, derived titles, teasers) asks
here where the CJK runs are. The search index holds a run as its overlapping
character bigrams ("扩散模型" → 扩散 散模 模型), the usual dictionary-free way
to find any word of two or more characters inside a run; search-query.js repeats
``CJK_RANGES`` and ``bigrams`` for the words a reader types.

A character counts as CJK after NFKC (half-width ｶ is カ): Han (with the
extensions up to G and the compatibility ideographs), Hiragana, Katakana (not
the middle dot ・, which separates words), the marks 々〆〇 and ー, and Hangul.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from generator.text.lazyre import lazy

# search-query.js holds the same ranges (CJK_RANGES): change both together.
CJK_RANGES = (
    "\u1100-\u11ff\u3005-\u3007\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff"
    "\u3130-\u318f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7ff"
    "\uf900-\ufaff\U00020000-\U0003134f"
)
_CJK = lazy(f"[{CJK_RANGES}]")
_RUNS = lazy(f"([{CJK_RANGES}]+)")  # capturing: split() keeps the runs at odd positions
# The CJK characters of each script (language_of counts them), and the Latin letters it weighs them against.
_KANA = lazy("[\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff]")
_HANGUL = lazy("[\u1100-\u11ff\u3130-\u318f\uac00-\ud7ff]")
_LATIN = re.compile("[A-Za-z]")
_NOT_ASCII = re.compile("[^\x00-\x7f]")
# Where a clause or sentence ends in Chinese and Japanese text (full-width, and their NFKC forms).
CLAUSE_ENDS = "，。；：、！？,;:!?．｡､"
SENTENCE_ENDS = "。！？!?｡"


def has_cjk(text: str) -> bool:
    # ASCII text holds no CJK character, and CPython knows a string is ASCII without reading it (most
    # abstracts of most volumes): no scan at all for them.
    return not text.isascii() and _CJK.search(text) is not None


def is_cjk(char: str) -> bool:
    return _CJK.fullmatch(char) is not None


def split_runs(text: str) -> list[str]:
    """``text`` as alternating pieces: other text at even positions, CJK runs at odd ones."""
    return _RUNS.split(text)


def count(text: str) -> int:
    """How many CJK characters ``text`` holds."""
    return len(_CJK.findall(text))


def latin_letters(text: str) -> int:
    """How many ASCII letters ``text`` holds: what its CJK characters are weighed against."""
    return len(_LATIN.findall(text))


def language_of(text: str) -> str:
    """``zh``, ``ja`` or ``ko`` for text mostly written in that language, else "" (not known):
    Kana is Japanese, Hangul Korean, Han alone Chinese."""
    if not has_cjk(text):  # most text of most sites: one scan in C, no count
        return ""
    written = count(text)
    kana, hangul = len(_KANA.findall(text)), len(_HANGUL.findall(text))
    if written < 2 or written * 2 < latin_letters(text):
        return ""
    if hangul * 2 >= written:
        return "ko"
    return "ja" if kana * 20 >= written else "zh"


def written_language(texts: Iterable[str]) -> str:
    """``zh``, ``ja`` or ``ko`` when more than half of ``texts`` (a volume's papers) are written in it
    (``language_of``), else ""."""
    return majority_language(map(language_of, texts))


def majority_language(languages: Iterable[str]) -> str:
    """The language more than half of ``languages`` (each ``language_of`` a paper, "" unknown) are in, else ""."""
    found, total = Counter[str](), 0
    for language in languages:
        total += 1
        found[language] += 1
    language, count = max(((name, n) for name, n in found.items() if name), key=lambda pair: pair[1], default=("", 0))
    return language if count * 2 > total else ""


def bigrams(run: str) -> list[str]:
    """A CJK run's overlapping character pairs; a run of one character is itself."""
    if len(run) < 2:
        return [run] if run else []
    return [run[i : i + 2] for i in range(len(run) - 1)]


def width(text: str) -> int:
    """Display columns: a wide (CJK) character takes two, as in a terminal or a line of print."""
    # Only characters beyond ASCII can be wide: look those up, and count the rest at once.
    if text.isascii():  # most previews of most volumes: nothing to look up
        return len(text)
    return len(text) + sum(unicodedata.east_asian_width(c) in "WF" for c in _NOT_ASCII.findall(text))


def cut(text: str, columns: int) -> str:
    """The longest start of ``text`` that fits ``columns`` and ends where a reader can stop.

    Text without CJK is cut at its last space. CJK text is cut after a clause
    mark (，。；：、) when one falls in the second half, else between two
    characters where at least one is CJK: never inside a Latin word (``LoRA``).
    The caller adds the ellipsis; text that fits is returned as is.
    """
    if width(text) <= columns:
        return text
    fitting = _fitting(text, columns)
    if not has_cjk(fitting):
        return fitting.rsplit(" ", 1)[0]
    return fitting[: _last_stop(fitting, text[len(fitting) : len(fitting) + 1])]


def _fitting(text: str, columns: int) -> str:
    """The longest start of ``text`` no wider than ``columns``."""
    head = text[: max(columns, 0)]
    if head.isascii() or width(head) == len(head):  # one column a character: no need to look at each
        return head
    used = 0
    for end, char in enumerate(text):
        used += 2 if unicodedata.east_asian_width(char) in "WF" else 1
        if used > columns:
            return text[:end]
    return text


def excerpt(text: str, columns: int) -> str:
    """The start of ``text`` for a preview (a page's description, a search result): its spaces
    collapsed, cut by ``cut`` with an ellipsis, and no stray punctuation before the ellipsis."""
    text = _collapsed_start(text, columns + 2)
    short = cut(text, columns)
    return text if short == text else short.rstrip(",;:.-–— ，。；：、") + "…"


def _collapsed_start(text: str, length: int) -> str:
    """``text`` with its spaces collapsed, or of that a start longer than ``length`` characters: a cut reads no
    further than the character after ``columns`` (so ``length`` is ``columns + 2``), and a long abstract is
    not collapsed and measured whole for a 220-column preview (every paper page and feed entry asks)."""
    start = " ".join(text[: 4 * length].split())
    return start if len(start) > length else " ".join(text.split())


def _last_stop(fitting: str, following: str) -> int:
    """Where to end ``fitting``: after its last clause mark in the second half, else at its last
    boundary that does not split a word (a space, or either side of a CJK character)."""
    for at in range(len(fitting) - 1, len(fitting) // 2 - 1, -1):
        if fitting[at] in CLAUSE_ENDS:
            return at + 1
    chars = fitting + following
    for at in range(len(fitting), 0, -1):
        before, after = chars[at - 1], chars[at : at + 1]
        if before.isspace() or after.isspace() or is_cjk(before) or (after and is_cjk(after)):
            return at
    return len(fitting)
