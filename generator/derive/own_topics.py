"""Topics from a volume's own papers, for a volume the taxonomy does not describe (volume_topics.py).

A topic is a key phrase that several papers share (phrases.py finds each paper's candidates), named as the
papers write it. Corpus statistics, not a model, so the same papers always give the same topics:

1. **Shared, not everywhere.** A phrase is a candidate when at least ``MIN_PAPERS`` papers use it and, in a
   volume of ``BROAD_MIN`` or more, no more than half of them ("dialogue" in a dialogue volume tells a reader
   nothing); and when it is not nearly always part of one longer candidate ("dialogue state" inside
   "dialogue state tracking"; 模言語モデル inside 大規模言語モデル).
2. **A topic for every paper that shares one.** Topics are chosen greedily, as a set cover: each time the
   phrase that brings the most papers without a topic yet, weighted by how much it reads as a topic (in
   titles, several words long), until no paper left shares a candidate.
3. **A paper's topics** are the chosen phrases it uses, those in its title first, at most ``MAX_TOPICS``, a
   phrase giving way to a longer one it is part of ("language models" to "large language models"). A topic
   left on fewer than ``MIN_PAPERS`` papers is dropped, and the papers it leaves are looked at again.
4. **Its name** is the form most of its papers write (``Dialogue state tracking``, ``LLM``, 対話システム),
   its first letter raised when the papers write it in lower case.
"""

from __future__ import annotations

import heapq
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from generator.derive.phrases import PaperPhrases, can_name, is_short, key_of
from generator.text.cjk import has_cjk

MIN_PAPERS = 2  # a topic shared by fewer is no topic
BROAD_MIN = 20  # papers: in a smaller volume, a phrase on half of them may still be a topic
BROAD_SHARE = 0.5  # a phrase on more than this share of the volume's papers is not a topic
# A phrase on more papers than this share, or this many times the square root of the volume's papers, is
# broad: a topic only of the papers that share nothing narrower.
SPECIFIC_SHARE = 0.15
SPECIFIC_ROOT = 3
NESTED = 0.8  # a phrase whose papers use one longer phrase at least this often is that phrase's part
# Of a phrase's papers, those where it ends a stretch at least once (fewer: it is a modifier), and for a CJK
# phrase those where it starts a run (fewer: it is likely cut out of longer words).
HEAD_SHARE = 0.5
# A one-word phrase is a topic when titles use it and its papers come back to it: (papers whose title uses it +
# papers that use it twice) ≥ this × its papers. 対話, 翻訳 and "summarization" pass; 変化, 関連 and 技術 do not.
SHORT_MIN = 0.7
TITLE_SHORT = 3  # titles that name a one-word phrase before it is a topic in its own right
MAX_TOPICS = 4  # topics of one paper
TITLE_WEIGHT = 2.0  # a phrase that titles use reads as a topic
LONGER_WEIGHT = 0.5  # for each word (or two CJK characters) past two
SHORT_WEIGHT = 0.4  # a one-word phrase: any field's abstracts use many such words; it covers what longer ones do not


@dataclass(frozen=True)
class OwnTopics:
    """The chosen topics, and each paper's, in the order the papers were given."""

    names: tuple[str, ...]  # the topics, most papers first
    per_paper: tuple[tuple[str, ...], ...]  # each paper's topic names, () for a paper that shares none


def own_topics(papers: Sequence[PaperPhrases], texts: Sequence[str]) -> OwnTopics:
    """Topics for ``papers`` (their candidate phrases; ``texts``, their titles and abstracts, give the names)."""
    holders = _candidates(papers)
    chosen = _specific(holders, papers)
    while True:
        assigned = _assign(papers, chosen, holders)
        counts = Counter(key for keys in assigned for key in keys)
        thin = {key for key, n in counts.items() if n < MIN_PAPERS}
        if not thin:
            break
        chosen = [key for key in chosen if key not in thin]
        holders = {key: found for key, found in holders.items() if key not in thin}
    names = {key: _name(key, [texts[i] for i in holders[key]]) for key in counts}
    per_paper = tuple(tuple(dict.fromkeys(names[key] for key in keys)) for keys in assigned)
    sizes = Counter(name for topics in per_paper for name in topics)
    return OwnTopics(tuple(sorted(sizes, key=lambda name: (-sizes[name], name.casefold(), name))), per_paper)


def _specific(holders: dict[str, list[int]], papers: Sequence[PaperPhrases]) -> list[str]:
    """The topics of a volume's specific phrases: those several titles name, then a cover of the rest.

    A phrase on more papers than ``SPECIFIC_SHARE`` of the volume (or ``SPECIFIC_ROOT`` × √papers) is left
    to ``_assign``. A one-word phrase is a topic in its own right only when ``TITLE_SHORT`` titles name it:
    titles use some words of any field."""
    most = max(MIN_PAPERS, min(len(papers) * SPECIFIC_SHARE, SPECIFIC_ROOT * math.sqrt(len(papers))))
    specific = {key: found for key, found in holders.items() if len(found) <= most}
    weight = _weights(specific, papers)
    titles = Counter(key for paper in papers for key in paper.in_title if key in specific)
    named = sorted((key for key, n in titles.items() if n >= (TITLE_SHORT if is_short(key) else MIN_PAPERS)),
                   key=lambda key: (-weight[key] * len(specific[key]), key))
    covered = [bool(paper.keys.intersection(named)) for paper in papers]
    return named + _cover(specific, weight, covered)


def _assign(papers: Sequence[PaperPhrases], chosen: list[str], holders: dict[str, list[int]]) -> list[tuple[str, ...]]:
    """Each paper's topics among ``chosen``; a paper with none gets broad phrases, chosen as a cover of such
    papers: a broad phrase is a topic of the papers that share nothing narrower, and only of them."""
    rank = {key: place for place, key in enumerate(chosen)}
    assigned = [_paper_topics(paper, rank) for paper in papers]
    broad = _cover(holders, _weights(holders, papers), [bool(keys) for keys in assigned])
    return [keys or _paper_topics(paper, broad) for paper, keys in zip(papers, assigned)]


def _candidates(papers: Sequence[PaperPhrases]) -> dict[str, list[int]]:
    """Candidate key → the papers (indices) using it: shared, not broad, not nested in a longer one."""
    counts = Counter(key for paper in papers for key in paper.keys)
    heads = Counter(key for paper in papers for key in paper.heads)
    titles = Counter(key for paper in papers for key in paper.in_title)
    repeated = Counter(key for paper in papers for key in paper.repeated)
    starts = Counter(key for paper in papers for key in paper.starts)
    most = len(papers) * BROAD_SHARE if len(papers) >= BROAD_MIN else len(papers)
    shared = {key: n for key, n in counts.items() if MIN_PAPERS <= n <= most and heads[key] >= HEAD_SHARE * n
              and (not is_short(key) or titles[key] >= MIN_PAPERS and (titles[key] + repeated[key]) >= SHORT_MIN * n)
              and (starts[key] >= HEAD_SHARE * n or not has_cjk(key)) and can_name(key)}
    # A phrase's nearest longer ones are the phrase with a word (a character) more: each is counted at most
    # as often as the shorter, so the nearest are enough to tell whether it is nearly always inside one.
    longer = dict.fromkeys(shared, 0)
    for key, n in counts.items():
        if n >= MIN_PAPERS:
            for part in _parts(key):
                if part in longer and n > longer[part]:
                    longer[part] = n
    kept = {key for key, n in shared.items() if longer[key] < NESTED * n}
    holders: dict[str, list[int]] = {key: [] for key in kept}
    for index, paper in enumerate(papers):
        for key in paper.keys & kept:
            holders[key].append(index)
    return holders


def _parts(key: str) -> tuple[str, ...]:
    """The phrases one word (or one CJK character) shorter that ``key`` holds."""
    if " " in key:
        words = key.split(" ")
        return (key_of(words[1:]), key_of(words[:-1]))
    return (key[1:], key[:-1]) if len(key) > 2 and has_cjk(key) else ()


def _weights(holders: dict[str, list[int]], papers: Sequence[PaperPhrases]) -> dict[str, float]:
    """How much each phrase reads as a topic: titles use it, its papers come back to it, it is several words."""
    titles = Counter(key for paper in papers for key in paper.in_title if key in holders)
    repeated = Counter(key for paper in papers for key in paper.repeated if key in holders)
    weights = {}
    for key, found in holders.items():
        words = 1 if is_short(key) else max(2, len(key) // 2) if has_cjk(key) else len(key.split(" "))
        size = SHORT_WEIGHT if words == 1 else 1 + LONGER_WEIGHT * (min(words, 4) - 2)
        weights[key] = (1 + TITLE_WEIGHT * titles[key] / len(found)) * (1 + repeated[key] / len(found)) * size
    return weights


def _cover(holders: dict[str, list[int]], weight: dict[str, float], covered: list[bool]) -> list[str]:
    """Phrases chosen until every paper not ``covered`` that shares one has one: a greedy set cover, each time
    the phrase whose weight × papers it would cover is largest."""
    covered = list(covered)
    # Lazy greedy: a phrase's gain only falls as papers are covered, so a heap of stale gains is re-checked.
    heap = [(-weight[key] * len(found), key) for key, found in holders.items()]
    heapq.heapify(heap)
    chosen: list[str] = []
    while heap:
        _, key = heapq.heappop(heap)
        gain = weight[key] * sum(not covered[i] for i in holders[key])
        if gain <= 0:
            continue
        if heap and gain < -heap[0][0]:
            heapq.heappush(heap, (-gain, key))
            continue
        chosen.append(key)
        for i in holders[key]:
            covered[i] = True
    return chosen


def _paper_topics(paper: PaperPhrases, chosen: dict[str, int] | list[str]) -> tuple[str, ...]:
    """The chosen phrases a paper uses, in its title first, then in the order chosen; a phrase gives way to
    a longer one of the paper's that holds it."""
    rank = chosen if isinstance(chosen, dict) else {key: place for place, key in enumerate(chosen)}
    mine = [key for key in paper.keys if key in rank]
    mine = [key for key in mine if not any(other != key and _holds(other, key) for other in mine)]
    mine.sort(key=lambda key: (key not in paper.in_title, rank[key]))
    return tuple(mine[:MAX_TOPICS])


def _holds(longer: str, shorter: str) -> bool:
    if has_cjk(longer):
        return shorter in longer
    return f" {shorter} " in f" {longer} "


def _name(key: str, texts: list[str]) -> str:
    """The form most papers write the phrase in; a name written in lower case gets a capital."""
    if has_cjk(key):
        return key  # a CJK phrase is its key
    pattern = _surface_pattern(key)
    forms = Counter(match.group() for text in texts for match in pattern.finditer(text))
    if not forms:
        return key[0].upper() + key[1:]
    form = max(forms.items(), key=lambda item: (item[1], item[0]))[0]
    form = " ".join(form.split())
    first = form.split(" ", 1)[0]
    return form[0].upper() + form[1:] if first.islower() else form


def _surface_pattern(key: str) -> re.Pattern[str]:
    words = [re.escape(word) for word in key.split(" ")]
    words[-1] += r"(?:s|es)?" if not key.endswith("y") else ""
    if key.endswith("y"):
        words[-1] = re.escape(key.split(" ")[-1][:-1]) + r"(?:y|ies)"
    return re.compile(r"(?<![^\W_])" + r"\s*[-‐‑–]?\s*".join(words) + r"(?![^\W_])", re.IGNORECASE)
