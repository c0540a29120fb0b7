"""Topics from a volume's own papers, for a volume the taxonomy does not describe (volume_topics.py).

A topic is a key phrase that several papers share (phrases.py finds each paper's candidates), named as the
papers write it. Corpus statistics, not a model, so the same papers always give the same topics, in any order:

1. **Candidates.** A phrase at least ``MIN_PAPERS`` papers use and, in a volume of ``BROAD_MIN`` or more, no
   more than half of them ("dialogue" in a dialogue volume tells a reader nothing); not generic; not a
   modifier (ending a stretch in fewer than ``HEAD_SHARE`` of its papers: "natural language" of "natural
   language generation"); not nearly always part of one longer phrase ("dialogue state" inside "dialogue
   state tracking"; 模言語モデル inside 大規模言語モデル). A one-word phrase also needs titles that use it and
   papers that come back to it (``SHORT_MIN``): 対話 and "summarization", not 変化 or "related".
2. **Topics.** The specific candidates (on at most ``SPECIFIC_SHARE`` of the volume, or ``SPECIFIC_ROOT`` √
   papers) that several titles name; then, greedily (a set cover), the one that brings the most papers without
   a topic yet, weighted by how much it reads as a topic (titles use it, its papers repeat it, it is several
   words long), until no paper left shares one. A paper that shares only broader candidates gets those, by
   the same cover.
3. **A paper's topics** are the chosen phrases it uses, those in its title first, at most ``MAX_TOPICS``, a
   phrase giving way to a longer one it is part of ("language models" to "large language models"). A topic
   left on fewer than ``MIN_PAPERS`` papers is dropped and the topics chosen again (``ROUNDS`` times at most).
4. **Its name** is the form most of its papers write (``Dialogue state tracking``, ``LLMs``, 対話システム),
   its first letter raised when the papers write it in lower case.
"""

from __future__ import annotations

import functools
import heapq
import math
import re
from collections import Counter
from collections.abc import Sequence
from itertools import chain, compress
from dataclasses import dataclass

from generator.derive.phrases import GENERIC, PaperPhrases, can_name, is_short, singular
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
ROUNDS = 8  # of dropping topics left on one paper and choosing again; what is still thin then is dropped
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
    holders, weight = _candidates(papers)
    chosen = _specific(holders, weight, papers)
    for _ in range(ROUNDS):
        assigned = _assign(papers, chosen, holders, weight)
        counts = Counter(key for keys in assigned for key in keys)
        thin = {key for key, n in counts.items() if n < MIN_PAPERS}
        if not thin:
            break
        chosen = [key for key in chosen if key not in thin]
        holders = {key: found for key, found in holders.items() if key not in thin}
    else:  # still thin after the last round: dropped where they are, the papers keeping their other topics
        assigned = [tuple(key for key in keys if key not in thin) for keys in assigned]
        counts = Counter(key for keys in assigned for key in keys)
    names = {key: _name(key, [texts[i] for i in holders[key]]) for key in counts}
    per_paper = tuple(tuple(dict.fromkeys(names[key] for key in keys)) for keys in assigned)
    sizes = Counter(name for topics in per_paper for name in topics)
    return OwnTopics(tuple(sorted(sizes, key=lambda name: (-sizes[name], name.casefold(), name))), per_paper)


def _specific(holders: dict[str, list[int]], weight: dict[str, float], papers: Sequence[PaperPhrases]) -> list[str]:
    """The topics of a volume's specific phrases: those several titles name, then a cover of the rest.

    A phrase on more papers than ``SPECIFIC_SHARE`` of the volume (or ``SPECIFIC_ROOT`` × √papers) is left
    to ``_assign``. A one-word phrase is a topic in its own right only when ``TITLE_SHORT`` titles name it:
    titles use some words of any field."""
    most = max(MIN_PAPERS, min(len(papers) * SPECIFIC_SHARE, SPECIFIC_ROOT * math.sqrt(len(papers))))
    specific = {key: found for key, found in holders.items() if len(found) <= most}
    titles = Counter(key for key in chain.from_iterable(paper.in_title for paper in papers) if key in specific)
    named = sorted((key for key, n in titles.items() if n >= (TITLE_SHORT if is_short(key) else MIN_PAPERS)),
                   key=lambda key: (-weight[key] * len(specific[key]), key))
    named_set = frozenset(named)
    covered = [not paper.keys.isdisjoint(named_set) for paper in papers]
    return named + _cover(specific, weight, covered)


def _assign(papers: Sequence[PaperPhrases], chosen: list[str], holders: dict[str, list[int]],
            weight: dict[str, float]) -> list[tuple[str, ...]]:
    """Each paper's topics among ``chosen``; a paper with none gets broad phrases, chosen as a cover of such
    papers: a broad phrase is a topic of the papers that share nothing narrower, and only of them."""
    assigned = _topics_of(papers, chosen)
    broad = _cover(holders, weight, [bool(keys) for keys in assigned])
    return [keys or fill for keys, fill in zip(assigned, _topics_of(papers, broad))]


def _candidates(papers: Sequence[PaperPhrases]) -> tuple[dict[str, list[int]], dict[str, float]]:
    """Candidate key → the papers (indices) using it: shared, not broad, not nested in a longer one; and
    how much each reads as a topic (``_weights``)."""
    counts = Counter(chain.from_iterable(paper.keys for paper in papers))  # chained in C: millions of keys
    heads = Counter(chain.from_iterable(paper.heads for paper in papers))
    titles = Counter(chain.from_iterable(paper.in_title for paper in papers))
    repeated = Counter(chain.from_iterable(paper.repeated for paper in papers))
    starts = Counter(chain.from_iterable(paper.starts for paper in papers))
    most = len(papers) * BROAD_SHARE if len(papers) >= BROAD_MIN else len(papers)
    # The keys of at least MIN_PAPERS papers (a fifth of a real volume's), picked in C: the loops below visit only them.
    many = {key: counts[key] for key in compress(counts, map(MIN_PAPERS.__le__, counts.values()))}
    # (``Counter.get``: a key a Counter lacks costs no call of its ``__missing__``)
    heads_of, titles_of, repeated_of, starts_of = heads.get, titles.get, repeated.get, starts.get
    shared = {key: n for key, n in many.items() if n <= most and heads_of(key, 0) >= HEAD_SHARE * n
              and _may_name(key, n, titles_of(key, 0), repeated_of(key, 0), starts_of(key, 0))}
    # A phrase's nearest longer ones are the phrase with a word (a character) more: each is counted at most
    # as often as the shorter, so the nearest are enough to tell whether it is nearly always inside one.
    longer = dict.fromkeys(shared, 0)
    for key, n in many.items():
        for part in _parts(key):
            if part in longer and n > longer[part]:
                longer[part] = n
    kept = {key for key, n in shared.items() if longer[key] < NESTED * n}
    holders: dict[str, list[int]] = {key: [] for key in kept}
    for index, paper in enumerate(papers):
        for key in paper.keys & kept:
            holders[key].append(index)
    return holders, {key: _weight(key, counts[key], titles_of(key, 0), repeated_of(key, 0)) for key in kept}


def _may_name(key: str, papers: int, in_titles: int, repeated: int, starts: int) -> bool:
    """Whether a shared phrase, not broad, that ends a stretch in enough of its papers may be a candidate: a
    one-word phrase titles use and its papers come back to, a CJK one that starts a run in enough of them, one
    that ``can_name``. An ASCII key (most of a Latin-script volume's) holds no CJK character, so the answer is
    the words' alone: one word is short, and ``can_name`` asks whether every word is generic."""
    if key.isascii():
        if " " not in key:
            return in_titles >= MIN_PAPERS and (in_titles + repeated) >= SHORT_MIN * papers and key not in GENERIC
        return not all(word in GENERIC for word in key.split(" "))
    return ((not is_short(key) or in_titles >= MIN_PAPERS and (in_titles + repeated) >= SHORT_MIN * papers)
            and (starts >= HEAD_SHARE * papers or not _cjk(key)) and can_name(key))


def _weight(key: str, papers: int, in_titles: int, repeated: int) -> float:
    """How much a phrase reads as a topic: titles use it, its papers come back to it, it is several words."""
    if key.isascii():  # no CJK character: its words are those between its spaces, one for a short phrase
        words = key.count(" ") + 1
    else:
        words = 1 if is_short(key) else max(2, len(key) // 2) if _cjk(key) else len(key.split(" "))
    size = SHORT_WEIGHT if words == 1 else 1 + LONGER_WEIGHT * (min(words, 4) - 2)
    return (1 + TITLE_WEIGHT * in_titles / papers) * (1 + repeated / papers) * size


@functools.lru_cache(maxsize=1 << 16)
def _cjk(key: str) -> bool:
    return has_cjk(key)


def _parts(key: str) -> tuple[str, ...]:
    """The phrases one word (or one CJK character) shorter that ``key`` holds.

    A key's words are in lower case already and its last one singular (``key_of``, which is idempotent): the
    phrase without the first word is the rest of the key as it is, and only the word before the last is made
    singular in the phrase without the last one (``tests/test_own_topics.py`` checks this against ``key_of``)."""
    if " " in key:
        rest = key.partition(" ")[2]
        start, _, last = key[: key.rindex(" ")].rpartition(" ")
        return (rest, f"{start} {singular(last)}" if start else singular(last))
    return (key[1:], key[:-1]) if len(key) > 2 and _cjk(key) else ()


def _cover(holders: dict[str, list[int]], weight: dict[str, float], covered: list[bool]) -> list[str]:
    """Phrases chosen until every paper not ``covered`` that shares one has one: a greedy set cover, each time
    the phrase whose weight × papers it would cover is largest."""
    done = bytearray(covered)  # 1 for a paper covered: its papers' count is summed in C
    # The papers a phrase could still cover: once none is left, every phrase's gain is 0 and none is chosen, so
    # the heap's rest (most of it: tens of thousands of phrases whose papers are covered) is not popped.
    left = sum(1 for i in set().union(*holders.values()) if not done[i])  # (the union made in C)
    # Lazy greedy: a phrase's gain only falls as papers are covered, so a heap of stale gains is re-checked.
    heap = [(-weight[key] * len(found), key) for key, found in holders.items()]
    heapq.heapify(heap)
    chosen: list[str] = []
    while heap and left:
        _, key = heapq.heappop(heap)
        found = holders[key]
        gain = weight[key] * (len(found) - sum(map(done.__getitem__, found)))
        if gain <= 0:
            continue
        if heap and gain < -heap[0][0]:
            heapq.heappush(heap, (-gain, key))
            continue
        chosen.append(key)
        for i in found:
            left -= not done[i]
            done[i] = 1
    return chosen


def _topics_of(papers: Sequence[PaperPhrases], chosen: list[str]) -> list[tuple[str, ...]]:
    """Each paper's topics among ``chosen``: those it uses, in its title first, then in the order chosen, at most
    ``MAX_TOPICS``; a phrase gives way to a longer one of the paper's that holds it."""
    rank = {key: place for place, key in enumerate(chosen)}
    chosen_set = frozenset(chosen)
    found = []
    for paper in papers:
        mine = paper.keys & chosen_set
        if len(mine) > 1:
            mine = frozenset(key for key in mine if not any(other != key and _holds(other, key) for other in mine))
        found.append(tuple(sorted(mine, key=lambda key: (key not in paper.in_title, rank[key]))[:MAX_TOPICS]))
    return found


def _holds(longer: str, shorter: str) -> bool:
    if _cjk(longer):
        return shorter in longer
    return f" {shorter} " in f" {longer} "


def _name(key: str, texts: list[str]) -> str:
    """The form most papers write the phrase in; a name written in lower case gets a capital."""
    if _cjk(key):
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
    """The phrase as papers may write it: any case, a hyphen or spaces between its words, its last one plural.

    Its first word's letters lead the pattern, so that the regex engine skips to where they occur (twice as fast
    over a topic's abstracts); that no letter comes before them is then looked behind at."""
    words = key.split(" ")
    stem, ending = (words[-1][:-1], "(?:y|ies)") if key.endswith("y") else (words[-1], "(?:s|es)?")
    spelled = [re.escape(word) for word in (*words[:-1], stem)]
    first = len(words[0]) if len(words) > 1 else len(stem)
    rest = "".join(r"\s*[-‐‑–]?\s*" + word for word in spelled[1:])
    return re.compile(spelled[0] + rf"(?<![^\W_][\s\S]{{{first}}})" + rest + ending + r"(?![^\W_])", re.IGNORECASE)
