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
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from generator.derive.phrases import GENERIC, PaperPhrases, can_name, is_short, singular
from generator.derive.set_cover import greedy_cover
from generator.text.cjk import has_cjk

if TYPE_CHECKING:  # numpy is imported when the topics are chosen, not as a command starts
    import numpy as np
    import numpy.typing as npt

    from generator.derive.phrase_table import PhraseTable

    Ints = npt.NDArray[np.int64]
    Ids = npt.NDArray[np.int32]

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


def own_topics(papers: Sequence[PaperPhrases] | PhraseTable, texts: Sequence[str]) -> OwnTopics:
    """Topics for ``papers`` (their candidate phrases, as sets or one table; ``texts``, their titles and abstracts,
    give the names)."""
    from generator.derive.phrase_table import PhraseTable

    volume = _Volume(papers if isinstance(papers, PhraseTable) else PhraseTable.of(papers))
    holders, weight = _candidates(volume)
    chosen = _specific(holders, weight, volume)
    for _ in range(ROUNDS):
        assigned = _assign(volume, chosen, holders, weight)
        counts = Counter(key for keys in assigned for key in keys)
        thin = {key for key, n in counts.items() if n < MIN_PAPERS}
        if not thin:
            break
        chosen = [key for key in chosen if key not in thin]
        holders = {key: found for key, found in holders.items() if key not in thin}
    else:  # still thin after the last round: dropped where they are, the papers keeping their other topics
        assigned = [tuple(key for key in keys if key not in thin) for keys in assigned]
        counts = Counter(key for keys in assigned for key in keys)
    lowered: dict[int, str] = {}  # (``_forms``)
    names = {key: _name(key, _forms(key, holders[key], texts, lowered)) for key in counts}
    per_paper = tuple(tuple(dict.fromkeys(names[key] for key in keys)) for keys in assigned)
    sizes = Counter(name for topics in per_paper for name in topics)
    return OwnTopics(tuple(sorted(sizes, key=lambda name: (-sizes[name], name.casefold(), name))), per_paper)


class _Volume:
    """The volume's phrases as a table (phrase_table.py), with what the steps below ask of it: how many papers use
    each key (of each kind), the paper of each of its keys' rows, the id of each candidate."""

    def __init__(self, table: PhraseTable):
        import numpy as np

        self.table = table
        self.papers = len(table)
        size = len(table.names)
        self.counts, self.heads, self.titles, self.repeated, self.starts = (
            np.bincount(rows.ids, minlength=size) for rows in
            (table.keys, table.heads, table.in_title, table.repeated, table.starts))
        self.owners = table.keys.papers()  # the paper of each of table.keys.ids
        self.title_codes = table.in_title.codes(size)
        self.id_of: dict[str, int] = {}  # of the candidates' keys (``_candidates``)

    def using(self, keys: Sequence[str]) -> tuple[Ints, Ids, Ints]:
        """The rows of the papers that use any of ``keys``: (paper, key id, the key's place in ``keys``), by paper."""
        import numpy as np

        place = np.full(len(self.table.names), -1, dtype=np.int64)
        place[[self.id_of[key] for key in keys]] = np.arange(len(keys), dtype=np.int64)
        hit = place[self.table.keys.ids] >= 0
        ids = self.table.keys.ids[hit]
        return self.owners[hit], ids, place[ids]


def _specific(holders: dict[str, list[int]], weight: dict[str, float], volume: _Volume) -> list[str]:
    """The topics of a volume's specific phrases: those several titles name, then a cover of the rest.

    A phrase on more papers than ``SPECIFIC_SHARE`` of the volume (or ``SPECIFIC_ROOT`` × √papers) is left
    to ``_assign``. A one-word phrase is a topic in its own right only when ``TITLE_SHORT`` titles name it:
    titles use some words of any field."""
    import numpy as np

    most = max(MIN_PAPERS, min(volume.papers * SPECIFIC_SHARE, SPECIFIC_ROOT * math.sqrt(volume.papers)))
    specific = {key: found for key, found in holders.items() if len(found) <= most}
    keys = list(specific)
    ids = np.fromiter(map(volume.id_of.__getitem__, keys), dtype=np.int64, count=len(keys))
    words = volume.table.shapes.words[ids]
    short = words == 1  # a key whose words are not known (0) is told by its string
    for place in np.flatnonzero(words == 0).tolist():
        short[place] = is_short(keys[place])
    titled = np.flatnonzero(volume.titles[ids] >= np.where(short, TITLE_SHORT, MIN_PAPERS)).tolist()
    named = sorted((keys[place] for place in titled), key=lambda key: (-weight[key] * len(specific[key]), key))
    papers, _, _ = volume.using(named)
    covered = np.bincount(papers, minlength=volume.papers) > 0
    return named + greedy_cover(specific, weight, covered.tolist())


def _assign(volume: _Volume, chosen: list[str], holders: dict[str, list[int]],
            weight: dict[str, float]) -> list[tuple[str, ...]]:
    """Each paper's topics among ``chosen``; a paper with none gets broad phrases, chosen as a cover of such
    papers: a broad phrase is a topic of the papers that share nothing narrower, and only of them."""
    assigned = _topics_of(volume, chosen)
    broad = greedy_cover(holders, weight, [bool(keys) for keys in assigned])
    return [keys or fill for keys, fill in zip(assigned, _topics_of(volume, broad))]


def _candidates(volume: _Volume) -> tuple[dict[str, list[int]], dict[str, float]]:
    """Candidate key → the papers (indices) using it: shared, not broad, not nested in a longer one; and
    how much each reads as a topic (``_weights``).

    A key the n-grams' count made (its words known: ``PhraseTable.shapes``) is told by arrays: its words, whether
    all are generic and its parts say what ``_may_name``, ``_parts`` and ``_weight`` would of its string. The
    others (CJK keys, a table made of sets) are told by their strings."""
    import numpy as np

    names, counts, shapes = volume.table.names, volume.counts, volume.table.shapes
    most = volume.papers * BROAD_SHARE if volume.papers >= BROAD_MIN else volume.papers
    # The keys of at least MIN_PAPERS papers (a fifth of a real volume's): the loops below visit only them.
    many_ids = np.flatnonzero(counts >= MIN_PAPERS)
    # Of them, those not broad that end a stretch in enough of their papers, told in C before ``_may_name``.
    fit = many_ids[(counts[many_ids] <= most) & (volume.heads[many_ids] >= HEAD_SHARE * counts[many_ids])]
    shared = np.zeros(len(names), dtype=bool)
    shared[fit] = _may_name_known(volume, fit)
    asked = fit[shapes.words[fit] == 0]
    shared[asked] = [_may_name(names[i], n, in_titles, repeated, starts) for i, n, in_titles, repeated, starts in zip(
        asked.tolist(), counts[asked].tolist(), volume.titles[asked].tolist(), volume.repeated[asked].tolist(),
        volume.starts[asked].tolist())]
    kept_ids = fit[shared[fit] & (_longer(volume, many_ids, shared)[fit] < NESTED * counts[fit])].tolist()
    volume.id_of = dict(zip([names[i] for i in kept_ids], kept_ids))
    # The papers of each kept key, in order: the rows using one, sorted by key (a stable sort keeps the papers' order).
    papers, ids, _ = volume.using(list(volume.id_of))
    order = np.argsort(ids, kind="stable")
    ids = ids[order]
    first = np.flatnonzero(np.append(True, ids[1:] != ids[:-1])) if len(ids) else ids
    bounds, flat = np.append(first, len(ids)).tolist(), papers[order].tolist()
    holders = {names[i]: flat[start:end] for i, start, end in zip(ids[first].tolist(), bounds, bounds[1:])}
    return holders, dict(zip(volume.id_of, _weights(volume, np.array(kept_ids, dtype=np.int64)).tolist()))


def _may_name_known(volume: _Volume, ids: Ints) -> npt.NDArray[np.bool_]:
    """``_may_name`` of the keys ``ids`` whose words are known (False for the others): a one-word phrase titles use
    and its papers come back to, not generic; a longer one whose words are not all generic."""
    words, generic = volume.table.shapes.words[ids], volume.table.shapes.generic[ids]
    papers, in_titles, again = volume.counts[ids], volume.titles[ids], volume.repeated[ids]
    short = (in_titles >= MIN_PAPERS) & ((in_titles + again) >= SHORT_MIN * papers)
    named: npt.NDArray[np.bool_] = (words > 0) & ~generic & ((words > 1) | short)
    return named


def _longer(volume: _Volume, many_ids: Ints, shared: npt.NDArray[np.bool_]) -> Ints:
    """For each key, the most papers of a key one word (one CJK character) longer that holds it, among the keys
    ``many_ids`` (0 for a key no ``shared`` one is the part of). A phrase's nearest longer ones are enough: each is
    counted at most as often as the shorter, so they tell whether it is nearly always inside one."""
    import numpy as np

    names, counts, shapes = volume.table.names, volume.counts, volume.table.shapes
    longer = np.zeros(len(names), dtype=np.int64)
    for parts in shapes.parts[many_ids].T:  # the known parts, each key's first then second
        has = parts >= 0
        np.maximum.at(longer, parts[has], counts[many_ids[has]])
    asked = many_ids[shapes.words[many_ids] == 0]
    if len(asked):
        ids = {names[i]: i for i in np.flatnonzero(shared).tolist()}
        for key, n in zip([names[i] for i in asked.tolist()], counts[asked].tolist()):
            for part in _parts(key):
                i = ids.get(part)
                if i is not None and n > longer[i]:
                    longer[i] = n
    return longer


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


def _weights(volume: _Volume, ids: Ints) -> npt.NDArray[np.float64]:
    """``_weight`` of each of the keys ``ids``: by arrays where their words are known, else by their strings."""
    import numpy as np

    words = volume.table.shapes.words[ids].astype(np.int64)
    papers, in_titles, again = volume.counts[ids], volume.titles[ids], volume.repeated[ids]
    # The same operations in the same order as ``_weight``'s on Python's floats: the same doubles.
    size = np.where(words == 1, SHORT_WEIGHT, 1 + LONGER_WEIGHT * (np.minimum(words, 4) - 2))
    weights: npt.NDArray[np.float64] = (1 + TITLE_WEIGHT * in_titles / papers) * (1 + again / papers) * size
    for place in np.flatnonzero(words == 0).tolist():
        i = int(ids[place])
        weights[place] = _weight(volume.table.names[i], int(papers[place]), int(in_titles[place]), int(again[place]))
    return weights


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


def _topics_of(volume: _Volume, chosen: list[str]) -> list[tuple[str, ...]]:
    """Each paper's topics among ``chosen``: those it uses, in its title first, then in the order chosen, at most
    ``MAX_TOPICS``; a phrase gives way to a longer one of the paper's that holds it."""
    import numpy as np

    papers, ids, rank = volume.using(chosen)
    later = ~np.isin(papers * len(volume.table.names) + ids, volume.title_codes)  # not in the paper's title
    order = np.lexsort((rank, later, papers))
    bounds = np.searchsorted(papers[order], np.arange(volume.papers + 1)).tolist()
    spelled = [chosen[place] for place in rank[order].tolist()]
    found = []
    for start, end in zip(bounds, bounds[1:]):
        mine = spelled[start:end]
        if len(mine) > 1:
            mine = [key for key in mine if not any(other != key and _holds(other, key) for other in mine)]
        found.append(tuple(mine[:MAX_TOPICS]))
    return found


def _holds(longer: str, shorter: str) -> bool:
    if _cjk(longer):
        return shorter in longer
    return f" {shorter} " in f" {longer} "


def _name(key: str, forms: Counter[str]) -> str:
    """The form most papers write the phrase in; a name written in lower case gets a capital."""
    if _cjk(key):
        return key  # a CJK phrase is its key
    if not forms:
        return key[0].upper() + key[1:]
    form = max(forms.items(), key=lambda item: (item[1], item[0]))[0]
    form = " ".join(form.split())
    first = form.split(" ", 1)[0]
    return form[0].upper() + form[1:] if first.islower() else form


def _forms(key: str, papers: list[int], texts: Sequence[str], lowered: dict[int, str]) -> Counter[str]:
    """How the papers write a phrase: each match of ``_surface_pattern`` in their texts, counted.

    An ASCII text (most of a Latin-script volume's) is searched in lower case (kept in ``lowered`` by paper) for a
    key in lower case, by a pattern that minds case: the same matches at the same places (lowering ASCII keeps
    every character's place and class), found three times as fast (the regex engine skips to the first word's
    letters, which a pattern ignoring case cannot), and compiled in a third of the time."""
    forms: Counter[str] = Counter()
    if _cjk(key):
        return forms
    if key.isascii() and key == key.lower():
        plain = [i for i in papers if texts[i].isascii()]
        if plain:
            pattern = _surface_pattern(key, ascii_lowered=True)
            for i in plain:
                text = texts[i]
                low = lowered.get(i) or lowered.setdefault(i, text.lower())
                forms.update(text[match.start() : match.end()] for match in pattern.finditer(low))
            papers = [i for i in papers if not texts[i].isascii()]
    if papers:
        pattern = _surface_pattern(key)
        forms.update(match.group() for i in papers for match in pattern.finditer(texts[i]))
    return forms


def _surface_pattern(key: str, ascii_lowered: bool = False) -> re.Pattern[str]:
    """The phrase as papers may write it: any case, a hyphen or spaces between its words, its last one plural.
    With ``ascii_lowered``, the same for an ASCII text lowered and an ASCII key in lower case: written as it is,
    its one hyphen.

    Its first word's letters lead the pattern, so that the regex engine skips to where they occur (twice as fast
    over a topic's abstracts); that no letter comes before them is then looked behind at."""
    words = key.split(" ")
    stem, ending = (words[-1][:-1], "(?:y|ies)") if key.endswith("y") else (words[-1], "(?:s|es)?")
    spelled = [re.escape(word) for word in (*words[:-1], stem)]
    first = len(words[0]) if len(words) > 1 else len(stem)
    rest = "".join((r"\s*-?\s*" if ascii_lowered else r"\s*[-‐‑–]?\s*") + word for word in spelled[1:])
    return re.compile(spelled[0] + rf"(?<![^\W_][\s\S]{{{first}}})" + rest + ending + r"(?![^\W_])",
                      0 if ascii_lowered else re.IGNORECASE)
