"""Titles for untitled Chinese abstracts: the clause that best names what the paper is about.

Every clause of the first sentences is a candidate, in the form a title would take: the object
of 本文提出了一种… / 研究了… / 对…进行了分析 when the clause states the contribution or what was
studied, else the clause itself. Each is scored by what makes authors' own titles (measured
on the CSL corpus of Chinese paper abstracts, ``bench/titles_report.py``):

- it states the contribution or the object of study (a strong sign), it comes early;
- its words recur in the rest of the abstract (a title names what the abstract is about; its
  character pairs are counted in the abstract, a dictionary-free measure of that);
- it is not a lead-in (近年来…, 随着…, 以…为原料), a result (结果表明…, numbers), a date or a
  fragment (starting on 的, ending on a particle or inside a list).

Each is kept to ``MAX_CHARS`` by ``cjk_phrases.shorten``; one that could only be cut short comes
last. Deterministic: ties go to the earlier clause.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from operator import add
from typing import Any

from generator.derive import cjk_phrases as shared

_SUBJECT = (r"(?:本文|本研究|本工作|该文|該文|本论文|我们|我們|笔者|筆者|文章|论文|作者|本课题|本项目|研究|这里"
            r"|此外|同时|另外|然后|最后|首先|其次|并|并且|还|又|进而|从而)")
_ADVERB = (r"(?:首先|还|還|又|进一步|進一步|创新性?地|主要|重点|重點|系统地|系統地|简要|简单|初步|全面|深入|详细"
           r"|分别|着重|重新|综合|定量|定性|较为?系统地)?")
# Verbs whose object is what the paper contributes.
_MAKE = r"(?:提出|设计|設計|构建|構建|开发|開發|建立|研制|实现|實現|发布|發佈|给出|构造|创建|搭建|研发|制备|合成)"
# Verbs whose object is what the paper studies.
_STUDY = (r"(?:研究|综述|綜述|分析|探讨|探討|探索|探究|讨论|討論|介绍|介紹|考察|评估|評估|评价|評價|总结|總結|阐述|闡述"
          r"|论述|論述|概述|比较|比較|测定|觀察|观察|揭示|报道|报告|描述|调查|回顾|梳理|剖析|解析|论证|评述|阐明"
          r"|明确|了解|检测|验证|模拟|计算|预测|探析|浅析|论析|试论|对比)")
_MEASURE = r"(?:一种|一種|一个|一個|一套|一类|一類|一款|一项|一項|一系列|一组|一批|种|種|个|個)?"
_NOVEL = r"(?:(?:新的|新颖的|新穎的|新型的?|全新的|简单而?有效的|簡單而?有效的|高效的)\s*)?"
# A verb the noun after it makes a noun (研究成果, 分析结果) or a report of findings (研究表明) is no verb here.
_NOT_A_VERB = (r"(?!成果|结果|結果|表明|发现|發現|显示|顯示|认为|認為|证明|證明|指出|方法|对象|對象|区域"
               r"|者|人员|中|的|是|过程|工作|领域|現狀|现状|进展|進展|水平|内容|问题|思路)")
_VERB_OBJECT = re.compile(
    rf"^(?:{_SUBJECT}[^，]{{0,14}}?)?{_ADVERB}(?P<verb>{_MAKE}|{_STUDY}){_NOT_A_VERB}(?:出|得出)?了?(?:{_MEASURE}{_NOVEL})"
    r"(?P<x>.{2,})$"
)
_MAKE_ANYWHERE = re.compile(rf"{_MAKE}了?{_MEASURE}{_NOVEL}(?P<x>.{{4,}})$")
# 对X进行了研究 / 就X作了探讨 / 对X加以分析 / 对X进行拟合: X is what was studied.
_ABOUT = re.compile(
    rf"^(?:{_SUBJECT}|[^，]{{0,24}}?)?(?<![相针針应應面绝絕反配核比])(?:对|對|就|针对|針對|围绕|圍繞)"
    rf"(?!称|稱|比|照|策|象|于|於|应|應|话|話|流|数|數|抗|接|外|立|偶|齐|冲)(?P<x>.{{3,}}?){_SUBJECT}?"
    r"(?:进行|進行|(?:作|做)(?=了|出)|展开|開展|开展|加以|予以)了?.{0,12}$"
)
# A title does not point back: 该露天矿山的… → 露天矿山的…, 其添加量… → 添加量… (not 其中, 其他).
_DEMONSTRATIVE = re.compile(
    r"^(?:(?:该|該|此)(?![文是为為])|上述)(?:些|种|種|类|類|个|個|型|项|項|一)?"
    r"|^(?:这|這)(?:些|种|種|类|類|个|個|项|項|一)|^其(?![中他它余餘实實次间間是为為])"
)
# 为了揭示X / 为探讨X: the purpose names what the paper is about.
_PURPOSE = re.compile(rf"^(?:为了|為了|为|為|旨在|目的是|以期)(?:进一步|進一步|更好地)?{_STUDY}(?P<x>.{{4,}})$")
# The writers naming themselves: 我们将扩散模型用于… → 将扩散模型用于….
_OPENING_SUBJECT = re.compile(r"^(?:本文|本研究|本工作|该文|該文|本论文|我们|我們|笔者|筆者)(?=[将將把])")
# 结果表明X: when a finding must be the title, X without the report of it.
_FINDING_OPENING = re.compile(r"^(?:结果|結果|研究|实验|實驗|试验|試驗|分析)?(?:表明|显示|顯示|发现|發現)")
_LEAD_IN = re.compile(
    r"^(?:近年来|近年來|近年|目前|当前|當前|随着|隨著|由于|由於|为了|為了|为|為|针对|針對|通过|通過|根据|根據|依据|基于"
    r"|利用|采用|採用|运用|使用|应用|借助|结合|以|用|在|从|從|相对于|对于|對於|鉴于|按照|经过|经|自|当|如何|若|如果"
    r"|虽然|尽管|但|但是|而|然而|因此|所以|此外|同时|其中|另外|并且|即|也|这|這|该|該|此|其|它|他|她)"
)
_RESULT = re.compile(
    r"结果|結果|结论|結論|表明|显示|顯示|发现|發現|证明|證明|认为|認為|说明|說明|可见|指出|提示|得出|得到"
)
# A section label of a structured abstract (目的：…, 方法 …); brackets (【目的】) are made this form by ``normalise``.
_LABEL = re.compile(r"^(?P<label>目的|目标|目標|背景|方法|结果|結果|结论|結論|意义|意義|摘要|材料|对象|對象)[\s：:]+")
_AFTER_LABEL = frozenset("方法 结果 結果 结论 結論 材料 对象".split())
# The weights of ``_score``.
_KIND_WEIGHT = {"make": 1.2, "study": 0.8, "clause": 0.0}  # a stated contribution first
_RECURRING = 2.0  # times the share of the title's character pairs the abstract uses again
_LENGTH = 1.6  # times the title's length up to _FULL_LENGTH, over _FULL_LENGTH
_FULL_LENGTH = 15  # characters: a shorter title says less (authors' titles have about 19)
_LATER = 0.08  # for each clause before this one
_FINDING = 3.0  # a result or a method (结果表明…, 方法 …)
_LEAD_IN_WEIGHT = 0.3  # a lead-in (近年来…, 以…为原料)
_NUMBERS = 0.2  # numbers are for results, rarely for titles
_CUT = 10.0  # a clause too long for a title, cut short: only when no other clause makes one
_DIGIT = re.compile(r"[0-9０-９%％]")


def candidates(text: str) -> list[str]:
    """Titles for a Chinese abstract (already normalised by ``titles_cjk.normalise``), best first."""
    # Character pairs the abstract uses more than once: a title's words recur in its abstract.
    pairs = Counter(map(add, text, text[1:]))  # map in C: the fast way to list them
    repeated = {pair for pair, count in pairs.items() if count > 1}
    scored: dict[str, tuple[float, int]] = {}
    best = float("-inf")
    for order, (kind, clause, phrase, weak) in enumerate(_clauses(text)):
        if _best_possible(kind, weak, order) < best:  # most result clauses: no need to look closer
            continue
        whole = shared.trim(_DEMONSTRATIVE.sub("", phrase))
        title = shared.shorten(whole, cut=False)
        cut = not title
        title = title or shared.shorten(whole)
        if not shared.usable(title):
            continue
        score = _score(kind, clause, title, weak, order, repeated) - (_CUT if cut else 0.0)
        if title not in scored or scored[title][0] < score:
            scored[title] = (score, order)
        best = max(best, score)
    ranked = sorted(scored.items(), key=lambda item: (-item[1][0], item[1][1]))
    return [title for title, _ in ranked[:4]]


def _clauses(text: str) -> Iterator[tuple[Any, ...]]:
    """(kind, clause, phrase, weak) for each clause of the first sentences; weak: a result or a
    method section, or a sentence reporting findings."""
    for sentence in shared.sentences(text)[:6]:
        label = _LABEL.match(sentence)
        weak = bool(label and label["label"] in _AFTER_LABEL)
        body = sentence[label.end() :] if label else sentence
        weak = weak or bool(_RESULT.search(body[:12]))
        for clause in re.split(r"[，；：]", body):
            clause = clause.strip()
            if clause:
                yield (*_phrase(clause), weak)


def _phrase(clause: str) -> tuple[str, str, str]:
    """(kind, clause, the phrase a title takes from it)."""
    found = _VERB_OBJECT.match(clause)
    if found:
        return ("make" if re.fullmatch(_MAKE, found["verb"]) else "study"), clause, found["x"]
    found = _MAKE_ANYWHERE.search(clause)
    if found:
        return "make", clause, found["x"]
    found = _PURPOSE.match(clause)
    if found:
        return "study", clause, found["x"]
    found = _ABOUT.match(clause)
    if found:
        return "study", clause, found["x"]
    return "clause", clause, _FINDING_OPENING.sub("", _OPENING_SUBJECT.sub("", clause))


def _best_possible(kind: str, weak: bool, order: int) -> float:
    """The highest score a clause could get, whatever its words (``_score`` with every sign at its best)."""
    return _RECURRING + _LENGTH + _position(kind, weak, order)


def _position(kind: str, weak: bool, order: int) -> float:
    """What a clause's place says: a stated contribution or object of study, early, not a finding."""
    return _KIND_WEIGHT[kind] - _LATER * order - (_FINDING if weak else 0.0)


def _score(kind: str, clause: str, title: str, weak: bool, order: int, repeated: set[str]) -> float:
    """How much the candidate reads as the paper's title. The weights were fitted on the dev half of
    the CSL title-prediction set and hold on its test half (``bench/titles_report.py``)."""
    recurring = sum(map(repeated.__contains__, map(add, title, title[1:]))) / max(1, len(title) - 1)
    score = _RECURRING * recurring + _LENGTH * min(len(title), _FULL_LENGTH) / _FULL_LENGTH
    score += _position(kind, weak, order)
    if kind == "clause" and _LEAD_IN.match(clause):
        score -= _LEAD_IN_WEIGHT
    if _DIGIT.search(title):
        score -= _NUMBERS
    return score
