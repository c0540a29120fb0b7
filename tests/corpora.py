"""The abstracts the corpus tests read: a small fixture kept in the repository, and the real corpora
(``../shared/corpora``: 4,396 NeurIPS 2010–2018 and 687 ICLR 2020 abstracts) when they are beside it.

The fixture (``fixtures/corpus/abstracts.jsonl``) has the real files' shape and their quirks — math,
``\\emph``, ``--``, quotes, ``%``, ``&``, ``<``, CRLF and stray spaces, abstracts cut mid-sentence and
mid-formula, placeholders, math in titles, marks after authors' names — so every corpus test runs on a
fresh clone. A test that needs the real files' size skips with ``NEEDS_REAL`` as its reason.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
REAL = REPO.parent / "shared" / "corpora"
REAL_FILES = ("neurips-2010-2018.jsonl", "iclr-2020.jsonl")
FIXTURE = Path(__file__).parent / "fixtures" / "corpus" / "abstracts.jsonl"
# What a parametrized corpus test runs on: the fixture always, each real file when it is there.
NAMES = ("fixture", *REAL_FILES)
# The same, for a test whose fixture case runs in the fast lane: the real files (5,083 abstracts) are slow, as
# pyproject's marker says of every test that reads them.
FAST_FIXTURE = ("fixture", *(pytest.param(name, marks=pytest.mark.slow) for name in REAL_FILES))
NEEDS_REAL = "needs ../shared/corpora (the real NeurIPS/ICLR abstracts)"


def have_real() -> bool:
    return all((REAL / name).is_file() for name in REAL_FILES)


def path(name: str, why: str = "the whole file") -> Path:
    """The file of corpus ``name`` ("fixture" or a real file's name); skips, saying ``why``, when absent."""
    if name == "fixture":
        return FIXTURE
    if not (REAL / name).is_file():
        pytest.skip(f"{NEEDS_REAL}: {why}")
    return REAL / name


def read(file: Path, limit: int | None = None) -> list[dict]:
    """The records of a JSON Lines file, the first ``limit`` of them (split on newlines only, as
    ``str.splitlines`` would also split inside an abstract at U+2028)."""
    lines = [line for line in file.read_text(encoding="utf-8").split("\n") if line.strip()]
    return [json.loads(line) for line in lines[:limit]]


def records(limit: int | None = None) -> list[dict]:
    """The fixture's records, then the real corpora's when they are there: the first ``limit`` of all."""
    found = read(FIXTURE)
    if have_real():
        for name in REAL_FILES:
            found += read(REAL / name, None if limit is None else max(limit - len(found), 0))
    return found[:limit]
