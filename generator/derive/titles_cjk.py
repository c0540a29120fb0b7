"""Short titles for Chinese and Japanese abstracts that come without one.

A title is the phrase the abstract names as its contribution: the object of
本文提出了一种… / 我们设计了… / 本研究提出… in Chinese, the noun phrase before
…を提案する or after 本論文では、 in Japanese, else what 本文/我们 study, else the
first clause of the first sentence that is not a lead-in (近年来，随着…). The
phrase ends at the first clause mark (，。；：, and 、 once the phrase is long
enough to be more than the first item of a list), loses its parentheticals
and filler (一种, 新的), and is kept to ``MAX_CHARS`` characters by dropping
modifiers from its start where the language allows it (both languages put the
head noun last: …的检测框架, …する手法) or else cut where a word cannot be split.
Every title is made of the abstract's own characters, as with English ones.
"""

from __future__ import annotations

import re

from generator.text import cjk

MIN_CHARS = 6  # below this a phrase is too bare to stand as a title; the next rule may do better
MAX_CHARS = 30
_SHORTEST = 4  # a phrase shorter than this is no title at all ("方法")

_SUBJECT = r"(?:本文|本研究|本工作|该文|該文|本论文|本論文|我们|我們|笔者|筆者)"  # simplified and traditional
_ADVERB = r"(?:首先|还|還|又|进一步|進一步|创新性?地|創新性?地|主要|重点|重點|系统地|系統地|在此基础上|在此基礎上)?"
_MEASURE = r"(?:一种|一種|一个|一個|一套|一类|一類|一款|一项|一項|一系列|种|種|个|個)?"
_NOVEL = r"(?:(?:新的|新颖的|新穎的|新型的?|全新的|简单而?有效的|簡單而?有效的|高效的)\s*)?"
_CLAUSE_START = r"(?:^|(?<=[。、，！？]))"
_JA_VERB = r"を[\u3040-\u309f\u4e00-\u9fff]{0,6}?(?:する|した|します|しました|す|る|た)。"
# Rules in order of preference; each captures the title phrase as ``phrase``.
_CHINESE_RULES = (
    # 本文提出了一种基于扩散模型的…方法，… / 本研究提出原型校准网络
    re.compile(rf"{_SUBJECT}[^，。；：！？]{{0,12}}?{_ADVERB}(?:提出|设计|設計|构建|構建|开发|開發|建立|实现|實現|发布|發佈)了?{_MEASURE}{_NOVEL}"
               r"(?P<phrase>[^。；！？]+)"),
    re.compile(rf"提出了?{_MEASURE}{_NOVEL}(?P<phrase>[^。；！？]+)"),
    # 本文研究视频的… / 本文综述了… / 我们将扩散模型用于…
    re.compile(rf"{_SUBJECT}{_ADVERB}(?:研究|综述|綜述|分析|探讨|探討|探索|讨论|討論|介绍|介紹|考察|评估|評估|总结|總結)了?(?P<phrase>[^。；！？]+)"),
    re.compile(rf"{_SUBJECT}{_ADVERB}(?P<phrase>[将將][^。；！？]+)"),
)
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
_LEAD_IN = re.compile(r"^(?:近年来|近年來|近年|目前|当前|當前|[随隨][着著][^，]*|[针針]对[^，]*|[针針]對[^，]*|"
                      r"[为為]了[^，]*|[为為]解决[^，]*|"
                      r"在[^，]{0,20}中|近年では|近年|現在|本論文では|本研究では|本稿では)[，、]")
_PARENTHETICAL = re.compile(r"\s*[（(][^（）()]*[）)]")
_QUOTES = re.compile(r"[「」『』“”\"《》〈〉【】]")
_TRAILING = re.compile(r"[\s，。；：、！？,.;:!?的のをにでがはと和与及或并且]+$")
_JA_TRAILING = re.compile(r"(?:において|における|に対して|により|によって|として|のため|ため|し|て)$")
_LEADING = re.compile(r"^[\s，。；：、！？,.;:!?了]+")
# Where leading modifiers may be dropped (after these): 的/の end a modifier, 、/て end a clause.
_MODIFIER_ENDS = "的のて、"


def is_cjk_abstract(text: str) -> bool:
    """Chinese or Japanese text, as opposed to an English abstract quoting a few CJK words."""
    if not cjk.has_cjk(text):  # most abstracts: one scan in C
        return False
    han = cjk.count(text)
    return han >= 2 and han * 2 >= cjk.latin_letters(text)


def cjk_title_candidates(text: str) -> list[str]:
    """Titles for a Chinese or Japanese abstract, best first; never empty."""
    text = " ".join(_QUOTES.sub("", text).split())
    found: list[str] = []
    for rule in _JAPANESE_RULES if cjk.language_of(text) == "ja" else _CHINESE_RULES:
        for match in rule.finditer(text):
            title = _title(match["phrase"])
            if title and title not in found:
                found.append(title)
            if title and len(title) >= MIN_CHARS:
                break
    first = _first_clause(text)
    if first and first not in found and not _MARKERS.search(first):
        found.append(first)
    long_enough = [t for t in found if len(t) >= MIN_CHARS]
    return (long_enough + [t for t in found if t not in long_enough]
            or [cjk.cut(text, 2 * MAX_CHARS) or text[:MAX_CHARS]])


def _title(phrase: str) -> str:
    phrase = _PARENTHETICAL.sub("", _until_clause(phrase))
    phrase = _TRAILING.sub("", _JA_TRAILING.sub("", _TRAILING.sub("", _LEADING.sub("", phrase)))).strip()
    phrase = _shorten(phrase)
    return phrase if len(phrase) >= _SHORTEST and cjk.has_cjk(phrase) else ""


def _until_clause(phrase: str) -> str:
    """Up to the first clause mark; a 、 ends the phrase only once it holds ``MIN_CHARS``."""
    for at, char in enumerate(phrase):
        if char in "，。；：！？,;:!?" or (char == "、" and at >= MIN_CHARS):
            return phrase[:at]
    return phrase


def _shorten(phrase: str) -> str:
    """At most ``MAX_CHARS`` wide characters: drop leading modifiers (the head noun is last),
    else cut where no word is split."""
    if cjk.width(phrase) <= 2 * MAX_CHARS:
        return phrase
    for at, char in enumerate(phrase):
        rest = phrase[at + 1 :]
        if char in _MODIFIER_ENDS and cjk.width(rest) <= 2 * MAX_CHARS:
            return _LEADING.sub("", rest) if len(rest) >= MIN_CHARS else _cut(phrase)
    return _cut(phrase)


def _cut(phrase: str) -> str:
    return _TRAILING.sub("", cjk.cut(phrase, 2 * MAX_CHARS))


def _first_clause(text: str) -> str:
    """The first sentence's first clause that is more than a lead-in (近年来，随着…，)."""
    sentence = re.split(r"[。！？!?]", text, maxsplit=1)[0]
    while True:
        stripped = _LEAD_IN.sub("", sentence, count=1)
        if stripped == sentence:
            break
        sentence = stripped
    return _title(sentence)
