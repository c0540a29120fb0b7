"""Short titles for Chinese and Japanese abstracts that come without one.

The text is first normalised: the half-width marks many Chinese abstracts use between their
characters (``方法.实验``, ``模型,在``) are read as the full-width ones (a ``.`` there ends a
sentence; one inside a number, ``2.3倍``, does not). Chinese titles are chosen among the
clauses of the first sentences by generator/derive/titles_zh.py. A Japanese title is the noun
phrase before …を提案する or after 本論文では、, else the first clause of the first sentence
that is not a lead-in (近年では、…), or its topic (the phrase before は). Either way the phrase
is made a title by generator/derive/cjk_phrases.py (nothing dangling, never a date, at most
``MAX_CHARS`` characters). Every title is made of the abstract's own characters, as with English ones.
"""

from __future__ import annotations

import re

from generator.derive import titles_zh
from generator.derive.cjk_phrases import PARENTHETICAL, SENTENCE, MAX_CHARS, MIN_CHARS, cut_short, tidy, usable
from generator.text import cjk

__all__ = ["MAX_CHARS", "cjk_title_candidates", "is_cjk_abstract", "normalise"]

_CLAUSE_START = r"(?:^|(?<=[。、，！？]))"
_JA_VERB = r"を[\u3040-\u309f\u4e00-\u9fff]{0,6}?(?:する|した|します|しました|す|る|た)。"
# A Japanese noun phrase is the clause before its verb: never across 、 or 。.
_JAPANESE_RULES = (
    # 本論文では、…手法を提案する
    re.compile(rf"{_CLAUSE_START}(?:本論文では|本研究では|本稿では|そこで|我々は|私たちは)?(?P<phrase>[^。、，！？]+?)を提案"),
    # 本研究では、深層強化学習を用いて…方策を学習する
    re.compile(rf"(?:本論文|本研究|本稿)(?:では|は)、?(?P<phrase>[^。、，！？]+?){_JA_VERB}"),
    # …において、予測の不確実性を推定する。 (the object of a sentence's last verb)
    # 本稿では、…対話システムについて述べる
    re.compile(r"(?:本論文|本研究|本稿)(?:では|は)、?(?P<phrase>[^。、，！？]+?)(?:について|に関して|に関する)"),
    re.compile(rf"{_CLAUSE_START}(?P<phrase>[^。、，！？]+?){_JA_VERB}"),
)
_MARKERS = re.compile(r"提出|提案|本文|本研究|本論文|我们")
_LEAD_IN = re.compile(r"^(?:近年では|近年|現在|本論文では|本研究では|本稿では)[，、]")
_QUOTES = re.compile(r"[「」『』“”\"《》〈〉【】]")
# A half-width mark after a CJK character or a full-width bracket, or before one: never one inside a number (2.3).
_CJK_SIDE = f"[{cjk.CJK_RANGES}）」』】]"
_HALF_WIDTH = re.compile(rf"(?<={_CJK_SIDE})\s*([,.;:!?])\s*|([,.;:!?])\s*(?={_CJK_SIDE})")
_FULL_WIDTH = {",": "，", ".": "。", ";": "；", ":": "：", "!": "！", "?": "？"}
_FULL_STOP = re.compile(r"(?<![0-9０-９])．(?![0-9０-９])")  # a full-width ． ends a sentence too (，． style)
_BRACKET_LABEL = re.compile(
    r"[【\[〔［]\s*(目的|目标|目標|背景|方法|结果|結果|结论|結論|意义|意義|材料|对象|對象)\s*[】\]〕］][\s：:]*"
)
# The topic of a Japanese sentence: the phrase before its first は (not では, には), when long enough.
_JA_TOPIC = re.compile(r"^([^、，。]{6,}?)(?<![でにと])は")
# A Japanese clause that starts on a particle, a dependent noun or an auxiliary (ための…, ように…, いる…)
# is the tail of another.
_JA_FRAGMENT = re.compile(r"^(?:ため|ように|よう|こと|もの|など|いる|いた|おり|おる|しまう|[のをにがはとでもへや])")
_BRACKET_OR_NOTE = re.compile(r"[(（]|[0-9]{1,2}[)）]|[)）]")
# A numbered reference to the bibliography: [1], [2,3], ［4-6］.
_CITATION = re.compile(r"\s*[\[［][0-9０-９,，\-–~～、\s]+[\]］]")


def is_cjk_abstract(text: str) -> bool:
    """Chinese or Japanese text, as opposed to an English abstract quoting a few CJK words."""
    if not cjk.has_cjk(text):  # most abstracts: one scan in C
        return False
    han = cjk.count(text)
    return han >= 2 and han * 2 >= cjk.latin_letters(text)


def cjk_title_candidates(text: str) -> list[str]:
    """Titles for a Chinese or Japanese abstract, best first; never empty."""
    text = normalise(text)
    language = "ja" if cjk.language_of(text) == "ja" else "zh"
    if language == "ja":
        found = _japanese(PARENTHETICAL.sub("", text))  # a parenthetical may hold a clause mark
    else:
        found = titles_zh.candidates(text)
    long_enough = [t for t in found if len(t) >= MIN_CHARS]
    return long_enough + [t for t in found if t not in long_enough] or [_fallback(text, language)]


def normalise(text: str) -> str:
    """One line, without quotes, with a section label in brackets (【目的】) written as a label
    (目的：), and with the half-width marks many Chinese abstracts use between their characters
    (``方法.实验``, ``模型,在``) written full-width, so that they end a sentence or a clause as 。
    and ， do; a ``.`` or ``,`` inside a number (``2.3倍``) stays, as does a full-width ``０．５``."""
    text = _BRACKET_LABEL.sub(r"\1：", _CITATION.sub("", _drop_footnote_marks(" ".join(text.split()))))
    text = _HALF_WIDTH.sub(_full_width, _QUOTES.sub("", text))
    return _FULL_STOP.sub("。", text)


def _drop_footnote_marks(text: str) -> str:
    """Drop a footnote mark written as a number and a bracket never opened (``surya1）を``)."""
    if ")" not in text and "）" not in text:
        return text
    kept, depth, at = [], 0, 0
    for mark in _BRACKET_OR_NOTE.finditer(text):
        if mark[0] in "(（":
            depth += 1
        elif depth:
            depth -= 1
        elif mark[0][0].isdigit():
            kept.append(text[at : mark.start()])
            at = mark.end()
    return "".join(kept) + text[at:]


def _full_width(match: re.Match[str]) -> str:
    return _FULL_WIDTH[match[1] or match[2]]


def _fallback(text: str, language: str) -> str:
    """The start of the text, when no clause makes a title (a date, a number, a list of words)."""
    return cut_short(text, language) or text[:MAX_CHARS]


def _japanese(text: str) -> list[str]:
    found: list[str] = []
    for rule in _JAPANESE_RULES:
        for match in rule.finditer(text):
            title = _title(match["phrase"])
            if title and title not in found:
                found.append(title)
            if title and len(title) >= MIN_CHARS:
                break
    first = _first_clause(text)
    if first and first not in found and not _MARKERS.search(first):
        found.append(first)
    return found


def _title(phrase: str) -> str:
    title = tidy(_until_clause(phrase), "ja")
    return title if usable(title) and not _JA_FRAGMENT.match(title) else ""


def _until_clause(phrase: str) -> str:
    """Up to the first clause mark; a 、 ends the phrase only once it holds ``MIN_CHARS``."""
    for at, char in enumerate(phrase):
        if char in "，。；：！？,;:!?" or (char == "、" and at >= MIN_CHARS):
            return phrase[:at]
    return phrase


def _first_clause(text: str) -> str:
    """The first sentence's first clause that is more than a lead-in (近年では、…)."""
    sentence = SENTENCE.split(text, maxsplit=1)[0]
    while True:
        stripped = _LEAD_IN.sub("", sentence, count=1)
        if stripped == sentence:
            break
        sentence = stripped
    topic = _JA_TOPIC.match(sentence)  # 満洲語における母音調和は…: what the sentence is about
    return _title(topic[1] if topic else sentence)
