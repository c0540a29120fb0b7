"""Short titles for Chinese and Japanese abstracts that come without one.

The text is first normalised: the half-width marks many Chinese abstracts use between their
characters (``方法.实验``, ``模型,在``) are read as the full-width ones (a ``.`` there ends a
sentence; one inside a number, ``2.3倍``, does not). Chinese titles are chosen among the
clauses of the first sentences by generator/derive/titles_zh.py. A Japanese title is the noun
phrase before …を提案する or after 本論文では、, else the first clause of the first sentence
that is not a lead-in (近年では、…). Either way a title loses its parentheticals and anything
dangling at its ends (a clause mark, 的/の or another particle — never the end of a word such
as 行为 or 目的), is never a date or a number (1964年1月27日, 21世纪), and is kept to
``MAX_CHARS`` characters by dropping modifiers from its start where the language allows it
(both put the head noun last: …的检测框架, …する手法), else cut where a word cannot be split.
Every title is made of the abstract's own characters, as with English ones.
"""

from __future__ import annotations

import re
import unicodedata

from generator.text import cjk

MIN_CHARS = 6  # below this a phrase is too bare to stand as a title; the next rule may do better
MAX_CHARS = 30
_SHORTEST = 4  # a phrase shorter than this is no title at all ("方法")

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
_PARENTHETICAL = re.compile(r"\s*[（(][^（）()]*[）)]")
_QUOTES = re.compile(r"[「」『』“”\"《》〈〉【】]")
# A half-width mark after a CJK character or a full-width bracket, or before one: never one inside a number (2.3).
_CJK_SIDE = f"[{cjk.CJK_RANGES}）」』】]"
_HALF_WIDTH = re.compile(rf"(?<={_CJK_SIDE})\s*([,.;:!?])\s*|([,.;:!?])\s*(?={_CJK_SIDE})")
_FULL_WIDTH = {",": "，", ".": "。", ";": "；", ":": "：", "!": "！", "?": "？"}
_SENTENCE = re.compile(r"[。！？｡!?]")
_FULL_STOP = re.compile(r"(?<![0-9０-９])．(?![0-9０-９])")  # a full-width ． ends a sentence too (，． style)
_BRACKET_LABEL = re.compile(
    r"[【\[〔［]\s*(目的|目标|目標|背景|方法|结果|結果|结论|結論|意义|意義|材料|对象|對象)\s*[】\]〕］][\s：:]*"
)
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
# The topic of a Japanese sentence: the phrase before its first は (not では, には), when long enough.
_JA_TOPIC = re.compile(r"^([^、，。]{6,}?)(?<![でにと])は")
# A Japanese clause that starts on a particle, a dependent noun or an auxiliary (ための…, ように…, いる…)
# is the tail of another.
_JA_FRAGMENT = re.compile(r"^(?:ため|ように|よう|こと|もの|など|いる|いた|おり|おる|しまう|[のをにがはとでもへや])")
_LEADING = {"zh": re.compile(r"^[\s，。；：、！？,.;:!?了的之及和与與并並而]+"),
            "ja": re.compile(r"^[\s，。；：、！？,.;:!?]+")}
# Where leading modifiers may be dropped (after these): 的/の end a modifier, 、/て a Japanese clause.
_MODIFIER_ENDS = {"zh": "的", "ja": "のて、"}
# The middle items of a Chinese list (、 separates them; where the last one ends is not known).
_LIST_ITEMS = re.compile(r"、[^、，；：]{1,16}(?=、)")
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
        found = _japanese(_PARENTHETICAL.sub("", text))  # a parenthetical may hold a clause mark
    else:
        from generator.derive import titles_zh  # imported here: it uses this module's helpers

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


def sentences(text: str) -> list[str]:
    """The sentences of a normalised text, without their parentheticals."""
    return [s.strip() for s in _SENTENCE.split(_PARENTHETICAL.sub("", text)) if s.strip()]


def tidy(phrase: str, language: str = "zh") -> str:
    """A phrase as a title: no parentheticals, nothing dangling at either end, at most ``MAX_CHARS``."""
    return shorten(trim(phrase, language), language)


def trim(phrase: str, language: str = "zh") -> str:
    """The phrase without parentheticals, nor anything dangling at either end."""
    phrase = _LEADING[language].sub("", _PARENTHETICAL.sub("", phrase))
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
    return _cut(phrase, language) if cut else ""


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


def _cut(phrase: str, language: str = "zh") -> str:
    return trim(cjk.cut(phrase, 2 * MAX_CHARS), language)


def _fallback(text: str, language: str) -> str:
    """The start of the text, when no clause makes a title (a date, a number, a list of words)."""
    return _cut(text, language) or text[:MAX_CHARS]


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
    sentence = _SENTENCE.split(text, maxsplit=1)[0]
    while True:
        stripped = _LEAD_IN.sub("", sentence, count=1)
        if stripped == sentence:
            break
        sentence = stripped
    topic = _JA_TOPIC.match(sentence)  # 満洲語における母音調和は…: what the sentence is about
    return _title(topic[1] if topic else sentence)
