"""The greedy set cover that own_topics.py chooses topics by, one pick a few array operations (issue 43).

It was a lazy greedy over a heap of ``(-gain, key)``: pop the top, recompute its gain, choose it when the gain
still reaches the next entry's (stale) one, else push it back with the new gain. On c10k that popped 69,000
entries, a Python sum over each one's papers, to choose 581 topics. Here each pick reads every key's gain at
once (weight × papers not covered yet, counts kept up to date as papers are covered) and works out which key
that heap would have chosen, and which entries it would have popped and pushed back meanwhile, so that the
choice is the same, ties included (the heap's choice among equal gains depends on its stale entries: the
reference in tests/own_topics_reference.py is held to this one by tests/test_set_cover.py):

- ``best`` is the largest gain. Every entry whose stale gain exceeds it is popped first (stale gains
  descending, keys ascending); the last of them is chosen if its gain is ``best`` (nothing above it is left),
  and the others are pushed back with their gains (an entry with none left is dropped).
- Otherwise the entries at ``best`` are popped in key order, up to the first whose gain is ``best``: chosen.
"""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Ints = npt.NDArray[np.int64]
    Floats = npt.NDArray[np.float64]


def greedy_cover(holders: dict[str, list[int]], weight: dict[str, float], covered: list[bool]) -> list[str]:
    """Keys chosen until every paper not ``covered`` that some key holds is covered: each time the key whose
    weight × papers it would cover is largest (``holders``: each key's distinct papers, indices into
    ``covered``)."""
    import numpy as np

    keys = list(holders)
    sizes = np.fromiter(map(len, holders.values()), dtype=np.int64, count=len(keys))
    papers = np.fromiter(chain.from_iterable(holders.values()), dtype=np.int64, count=int(sizes.sum()))
    owner = np.repeat(np.arange(len(keys), dtype=np.int64), sizes)  # the key of each of ``papers``
    done = np.array(covered, dtype=bool)
    still = ~done[papers]
    left = len(np.unique(papers[still]))
    if not left:
        return []
    starts = np.zeros(len(keys) + 1, dtype=np.int64)
    np.cumsum(sizes, out=starts[1:])
    uncovered = np.bincount(owner[still], minlength=len(keys))  # each key's papers not covered yet
    by_paper = np.argsort(papers, kind="stable")
    keys_of_paper, paper_starts = owner[by_paper], np.searchsorted(papers[by_paper], np.arange(len(done) + 1))
    rank = np.empty(len(keys), dtype=np.int64)  # the keys' order as strings: the heap's tie-break
    rank[sorted(range(len(keys)), key=keys.__getitem__)] = np.arange(len(keys))
    # The heap's entries by key: their stale gains (the weights × sizes it started with), -inf once out of it.
    weights: Floats = np.array([weight[key] for key in keys], dtype=np.float64)
    stale: Floats = weights * sizes
    chosen: list[str] = []
    while left:
        gains: Floats = weights * uncovered
        pick, popped = _pick(gains, stale, rank)
        stale[popped] = gains[popped]  # pushed back with their gains; dropped with none (below)
        stale[popped[gains[popped] <= 0]] = -np.inf
        stale[pick] = -np.inf
        chosen.append(keys[pick])
        mine = papers[starts[pick] : starts[pick + 1]]
        new = mine[~done[mine]]
        done[new] = True
        left -= len(new)
        np.subtract.at(uncovered, keys_of_paper[_ranges(paper_starts[new], paper_starts[new + 1])], 1)
    return chosen


def _pick(gains: Floats, stale: Floats, rank: Ints) -> tuple[int, Ints]:
    """The entry the lazy heap chooses (a place in these arrays), and those it pops and pushes back first."""
    import numpy as np

    best = gains.max()
    above = np.flatnonzero(stale > best)
    if len(above):
        lowest = above[stale[above] == stale[above].min()]
        last = int(lowest[np.argmax(rank[lowest])])  # popped last of them: the lowest stale gain, the last key
        if gains[last] == best:
            return last, above[above != last]
    # Every entry above is back at its gain, ``best`` at most: those now at ``best`` are popped in key order up to
    # the first whose gain is ``best`` (there is one: the key with the largest gain is at ``best`` now).
    level = np.concatenate([above[gains[above] == best], np.flatnonzero(stale == best)])
    full = level[gains[level] == best]
    first = int(full[np.argmin(rank[full])])
    before = level[rank[level] < rank[first]]
    return first, np.concatenate([above, before])


def _ranges(starts: Ints, ends: Ints) -> Ints:
    """The indices start..end-1 of every pair, one after the other."""
    import numpy as np

    lengths = ends - starts
    offsets = np.repeat(starts - np.cumsum(lengths) + lengths, lengths)
    ranges: Ints = np.arange(int(lengths.sum()), dtype=np.int64) + offsets
    return ranges
