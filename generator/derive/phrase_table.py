"""The candidate phrases of many papers as one table of integer ids (issue 43).

A volume's phrases were a ``PaperPhrases`` of five frozensets of strings for each paper: about 1.7 million set
entries for 10,000 abstracts, made in the survey's workers, pickled back to the build's process and counted there
key by key. Here each of the five is ``Rows``: the papers' key ids one after the other, with where each paper's
start, into one list of key ``names``. Counting a key's papers is ``np.bincount``, finding the papers of the keys
kept a sort, and a table pickles as a few arrays and the names once. ``PaperPhrases`` stays what a single paper's
phrases are (``row``), and a table is made of them too (``of``), so that both describe the same phrases.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields

import numpy as np
import numpy.typing as npt

from generator.derive.ngrams import Shapes
from generator.derive.phrases import PaperPhrases

Ints = npt.NDArray[np.int64]
Ids = npt.NDArray[np.int32]  # a key's id (half the bytes to pickle back and hold)
KINDS = tuple(field.name for field in fields(PaperPhrases))  # keys, in_title, heads, starts, repeated


@dataclass(frozen=True)
class Rows:
    """One set of keys per paper: paper p's key ids are ``ids[bounds[p]:bounds[p + 1]]``, each once."""

    bounds: Ints
    ids: Ids

    @staticmethod
    def of_codes(codes: Ints, size: int, papers: int) -> Rows:
        """Rows from distinct codes paper × ``size`` + key id, sorted."""
        paper = codes // size
        return Rows(np.searchsorted(paper, np.arange(papers + 1)).astype(np.int64), (codes % size).astype(np.int32))

    def papers(self) -> Ints:
        """The paper of each of ``ids``."""
        papers: Ints = np.repeat(np.arange(len(self.bounds) - 1, dtype=np.int64), np.diff(self.bounds))
        return papers

    def codes(self, size: int) -> Ints:
        """Each (paper, key) as paper × ``size`` + key id."""
        codes: Ints = self.papers() * size + self.ids
        return codes


@dataclass(frozen=True)
class PhraseTable:
    """The phrases of ``len(bounds) - 1`` papers: each kind of ``PaperPhrases`` as ``Rows`` of ids into ``names``,
    and the ``shapes`` of the names the n-grams' count made (ngrams.py; the others' words are 0: not known)."""

    names: list[str]
    shapes: Shapes
    keys: Rows
    in_title: Rows
    heads: Rows
    starts: Rows
    repeated: Rows

    def __len__(self) -> int:
        return len(self.keys.bounds) - 1

    def row(self, paper: int) -> PaperPhrases:
        """Paper ``paper``'s phrases as sets of keys."""
        def keys(rows: Rows) -> frozenset[str]:
            return frozenset(self.names[i] for i in rows.ids[rows.bounds[paper]:rows.bounds[paper + 1]].tolist())
        return PaperPhrases(*(keys(getattr(self, kind)) for kind in KINDS))

    def rows(self) -> list[PaperPhrases]:
        """Every paper's phrases as sets of keys, in order."""
        names = np.array(self.names, dtype=object)
        sets = []
        for kind in KINDS:
            rows = getattr(self, kind)
            spelled = names[rows.ids].tolist() if len(rows.ids) else []
            bounds = rows.bounds.tolist()
            sets.append([frozenset(spelled[start:end]) for start, end in zip(bounds, bounds[1:])])
        return [PaperPhrases(*mine) for mine in zip(*sets)]

    @staticmethod
    def of(papers: Sequence[PaperPhrases]) -> PhraseTable:
        """The table of papers' phrases given as sets."""
        index: dict[str, int] = {}
        kinds = []
        for kind in KINDS:
            found = [[index.setdefault(key, len(index)) for key in getattr(paper, kind)] for paper in papers]
            bounds = np.zeros(len(papers) + 1, dtype=np.int64)
            np.cumsum([len(ids) for ids in found], out=bounds[1:])
            kinds.append(Rows(bounds, np.fromiter((i for ids in found for i in ids), dtype=np.int32,
                                                  count=int(bounds[-1]))))
        return PhraseTable(list(index), with_unknown(None, len(index)), *kinds)

    @staticmethod
    def join(tables: Iterable[PhraseTable]) -> PhraseTable:
        """The tables' papers one after the other, their names made one list (a key named once)."""
        tables = list(tables)
        index: dict[str, int] = {}
        # Each table's ids as ids into the joined names (``setdefault``'s default is the length before it adds).
        mapped = [np.fromiter((index.setdefault(name, len(index)) for name in table.names), dtype=np.int32,
                              count=len(table.names)) for table in tables]
        kinds = []
        for kind in KINDS:
            parts = [getattr(table, kind) for table in tables]
            starts = np.cumsum([0] + [int(rows.bounds[-1]) for rows in parts])
            bounds = np.concatenate([np.zeros(1, dtype=np.int64)]
                                    + [rows.bounds[1:] + start for rows, start in zip(parts, starts)])
            ids = np.concatenate([np.zeros(0, dtype=np.int32)] + [ids[rows.ids] for rows, ids in zip(parts, mapped)])
            kinds.append(Rows(bounds.astype(np.int64), ids.astype(np.int32)))
        return PhraseTable(list(index), _joined_shapes(tables, mapped, len(index)), *kinds)


def _joined_shapes(tables: list[PhraseTable], mapped: list[Ids], size: int) -> Shapes:
    """The tables' shapes by the joined ids (a name has the same shape in every table that holds it)."""
    shapes = with_unknown(None, size)
    for table, ids in zip(tables, mapped):
        shapes.words[ids] = table.shapes.words
        shapes.generic[ids] = table.shapes.generic
        parts = table.shapes.parts
        shapes.parts[ids] = np.where(parts >= 0, ids[np.maximum(parts, 0)], -1)
    return shapes


def with_unknown(shapes: Shapes | None, more: int) -> Shapes:
    """``shapes`` (None: of no name) followed by those of ``more`` names not known (words 0, no parts)."""
    return Shapes.unknown(more) if shapes is None else Shapes.joined([shapes, Shapes.unknown(more)])
