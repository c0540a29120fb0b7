"""Phrases of Chinese and Japanese text as titles: trimmed, shortened, never a date.

Shared by the Chinese and the Japanese rules (titles_zh.py, titles_cjk.py): a title loses its
parentheticals and anything dangling at its ends (a clause mark, 的/の or another particle, a
preposition — never the end of a word such as 行为 or 目的), is never a date or a number
(1964年1月27日, 21世纪), and is kept to ``MAX_CHARS`` characters: a Chinese list keeps its first
and last items, then modifiers are dropped from its start (both languages put the head noun
last: …的检测框架, …する手法), else it is cut where a word cannot be split.
"""

from __future__ import annotations

import re
import unicodedata

from generator.text import cjk

MIN_CHARS = 6  # below this a phrase is too bare to stand as a title; the next rule may do better
MAX_CHARS = 30
_SHORTEST = 4  # a phrase shorter than this is no title at all ("方法")

PARENTHETICAL = re.compile(r"\s*[（(][^（）()]*[）)]")
SENTENCE = re.compile(r"[。！？｡!?]")
# One character a title must not end on: a mark, 的/の and other particles, a preposition.
_TRAILING_ONE = {
    "zh": re.compile(r"[\s，。；：、！？,.;:!?\-—–/的之和与與及或并並且而在对對将將把被从從以为為由于於向]$"),
    "ja": re.compile(r"[\s，。；：、！？,.;:!?\-—–/のをにでがはともへや]$"),
}
# …unless it ends a word: 行为 and 目的 are nouns (a preposition of two characters goes whole, below).
_WORDS_ENDING_SO = frozenset(
    "行为 行為 作为 认为 成为 无为 有为 人为 目的 存在 现在 潜在 内在 所在 实在 外在 自在 相对 应对 面对 绝对 "
    "饱和 中和 总和 缓和 温和 调和 融和 柔和 自由 理由 合并 兼并 吞并 可以 难以 足以 所以 予以 加以 得以 属于 "
    "等于 在于 位于 处于 过于 善于 急于 趋于 用于 易于 大于 小于 高于 低于 多于 少于 然而 从而 进而 因而 继而 "
    "指向 方向 走向 导向 面向 倾向 趋向 取向 定向 纵向 横向 双向 单向 反向 正向 转向 流向 意向 动向 去向 "
    "地图 的士 是的 有的 确的".split()
)
_TRAILING_PAIR = frozenset(
    "基于 对于 對於 由于 由於 关于 關於 至于 鉴于 以及 及其 并且 並且 而且 因为 因為 为了 為了".split()
)
_DATE_OR_NUMBER = re.compile(
    r"[\s\d０-９〇零一二三四五六七八九十百千万亿億兩两.．,，%％~～\-–—/年月日号號世纪紀度代期届屆时時分秒"
    r"第个個次季旬初末中上下半前后後底以来來间間至到、]+"
)
# What ends a Japanese modifier or adverbial, never a title (…による, …を用いた).
_JA_TRAILING = re.compile(r"(?:において|における|に対して|に対する|により|による|によって|として|に関する|についての"
                          r"|を用いた|を用いて|に基づく|に基づいた|のような|といった|に伴い|に伴って|とともに|のため|ため|など|し|て)$")
_LEADING = {"zh": re.compile(r"^[\s，。；：、！？,.;:!?了的之及和与與并並而]+"),
            "ja": re.compile(r"^[\s，。；：、！？,.;:!?]+")}
# Where leading modifiers may be dropped (after these): 的/の end a modifier, 、/て a Japanese clause.
_MODIFIER_ENDS = {"zh": "的", "ja": "のて、"}
# The middle items of a Chinese list (、 separates them; where the last one ends is not known).
_LIST_ITEMS = re.compile(r"、[^、，；：]{1,16}(?=、)")


def sentences(text: str) -> list[str]:
    """The sentences of a normalised text, without their parentheticals."""
    return [s.strip() for s in SENTENCE.split(PARENTHETICAL.sub("", text)) if s.strip()]


def tidy(phrase: str, language: str = "zh") -> str:
    """A phrase as a title: no parentheticals, nothing dangling at either end, at most ``MAX_CHARS``."""
    return shorten(trim(phrase, language), language)


def trim(phrase: str, language: str = "zh") -> str:
    """The phrase without parentheticals, nor anything dangling at either end."""
    phrase = _LEADING[language].sub("", PARENTHETICAL.sub("", phrase))
    if language == "ja":
        phrase = _JA_TRAILING.sub("", _strip_end(phrase, language))
    return _strip_end(phrase, language).strip()


def usable(title: str) -> bool:
    """Long enough, has CJK, and is not a date or a number ("1964年1月27日", "21世纪", "2004年度")."""
    return len(title) >= _SHORTEST and cjk.has_cjk(title) and not _DATE_OR_NUMBER.fullmatch(title)


def _strip_end(phrase: str, language: str) -> str:
    """Drop trailing marks and particles one at a time, but not the last character of a word
    (行为, 目的, 面向)."""
    while _TRAILING_ONE[language].search(phrase) and phrase[-2:] not in _WORDS_ENDING_SO:
        phrase = phrase[:-2] if phrase[-2:] in _TRAILING_PAIR else phrase[:-1]
    return phrase


def shorten(phrase: str, language: str = "zh", cut: bool = True) -> str:
    """At most ``MAX_CHARS`` wide characters: drop the middle items of a Chinese list, then leading
    modifiers (the head noun is last), else cut where no word is split ("" if not ``cut``)."""
    if len(phrase) <= MAX_CHARS or cjk.width(phrase) <= 2 * MAX_CHARS:  # the first test is the cheap one
        return phrase
    if language == "zh" and "、" in phrase:  # a list: keep its first and its last item (and the head after it)
        shorter = _LIST_ITEMS.sub("", phrase)
        if shorter != phrase:
            return shorten(shorter, language, cut)
    # The first modifier end whose rest fits: at or after the start of the longest tail that fits.
    ends = _MODIFIER_ENDS[language]
    at = next((i for i in range(_fitting_tail(phrase) - 1, len(phrase)) if phrase[i] in ends), len(phrase))
    rest = phrase[at + 1 :]
    if len(rest) >= MIN_CHARS:
        return _LEADING[language].sub("", rest)
    return cut_short(phrase, language) if cut else ""


def _fitting_tail(phrase: str) -> int:
    """Where the longest end of ``phrase`` no wider than ``MAX_CHARS`` wide characters starts (one pass
    from the end: a phrase may be a whole abstract without a clause mark)."""
    columns, start = 0, len(phrase)
    while start:
        columns += 2 if unicodedata.east_asian_width(phrase[start - 1]) in "WF" else 1
        if columns > 2 * MAX_CHARS:
            break
        start -= 1
    return max(start, 1)


def cut_short(phrase: str, language: str = "zh") -> str:
    """The phrase cut to ``MAX_CHARS`` where no word is split, then trimmed."""
    return trim(cjk.cut(phrase, 2 * MAX_CHARS), language)


