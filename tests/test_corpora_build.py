"""The abstract lists build without an error: the fixture, and the real ones when they are there.

Each corpus (tests/corpora.py; JSON Lines with an "abstract" field, kept exactly as scraped: LaTeX,
stray markup, cut-off abstracts, CRLF) becomes a plain list, as an organiser would paste it: the
proceedings title on the first line, one abstract per paragraph, the blank lines inside an abstract
dropped. Warnings are allowed (they are the organiser's to-do list); run with ``-s`` to see them by kind.
"""

from __future__ import annotations

import collections
import json
import re
from pathlib import Path

import pytest

import corpora
from generator.commands.build import build
from generator.reporter import Reporter

pytestmark = pytest.mark.slow  # starts whole processes: CI runs it, the fast lane does not

# corpus → keep every n-th abstract
CORPUS_FILES = {"fixture": 1, "iclr-2020.jsonl": 1, "neurips-2010-2018.jsonl": 1}


def abstract_list(corpus: Path, every: int) -> str:
    """The corpus as a plain list: title line, then abstracts separated by one blank line."""
    abstracts = []
    # Split on newlines only: str.splitlines() would also split inside an abstract at U+2028.
    for number, line in enumerate(filter(None, corpus.read_text(encoding="utf-8").split("\n"))):
        text = json.loads(line).get("abstract") or ""
        lines = [part.strip() for part in text.splitlines() if part.strip()]
        if number % every == 0 and lines:
            abstracts.append("\n".join(lines))
    return f"Proceedings of {corpus.stem}\n\n" + "\n\n".join(abstracts) + "\n"


def kind(message: str) -> str:
    """A warning without what is particular to one paper: its title, macro name or entry."""
    message = re.sub(r" in “.*”$", "", message)
    message = re.sub(r"“.*”", "“…”", message)
    message = re.sub(r"\\[A-Za-z]+", r"\\…", message)
    return re.sub(r"'[^']*'", "'…'", message)


@pytest.mark.parametrize("name", sorted(CORPUS_FILES))
def test_corpus_builds_without_errors(tmp_path, name):
    corpus = corpora.path(name)
    content = tmp_path / "content"
    content.mkdir()
    (content / f"{corpus.stem}.txt").write_text(abstract_list(corpus, CORPUS_FILES[name]), encoding="utf-8")
    reporter = Reporter()
    result = build(content, tmp_path / "site", reporter)
    assert reporter.errors == []
    listed = abstract_list(corpus, CORPUS_FILES[name]).split("\n\n")[1:]
    entries = len({" ".join(text.split()).casefold() for text in listed})  # a repeated abstract is published once
    repeats = [d for d in reporter.warnings if "repeats the abstract" in d.message]
    assert len(repeats) == len(listed) - entries
    assert result.papers == entries
    assert len(json.loads((tmp_path / "site" / "papers.json").read_text(encoding="utf-8"))) == entries
    kinds = collections.Counter(kind(d.message) for d in reporter.warnings)
    print(f"\n{name}: {entries} abstracts, {len(reporter.warnings)} warnings")
    for message, count in kinds.most_common():
        print(f"  {count:5}  {message}")
