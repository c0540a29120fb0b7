"""The Chinese and Japanese fixtures (tests/fixtures/cjk/) as records and rendered papers."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

from generator.commands.build import build
from generator.reporter import Reporter

FIXTURES = Path(__file__).parent / "fixtures" / "cjk"
ZH_PAPERS = FIXTURES / "zh" / "papers.jsonl"
ZH_LIST = FIXTURES / "zh" / "abstracts.txt"
JA_CSV = FIXTURES / "ja" / "papers.csv"


def built(root: Path, sources: list[Path], config: str) -> Path:
    """A site built from copies of ``sources`` with ``config`` as proceedings.yaml, with no error."""
    content = root / "content"
    content.mkdir(parents=True)
    for source in sources:
        shutil.copy(source, content / source.name)
    (content / "proceedings.yaml").write_text(config, encoding="utf-8")
    reporter = Reporter()
    build(content, root / "site", reporter)
    assert not reporter.errors, reporter.errors
    return root / "site"


def zh_records() -> list[dict]:
    """Chinese papers with titles, authors and keywords (JSON Lines, as a venue exports them)."""
    with open(ZH_PAPERS, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def zh_untitled() -> list[str]:
    """The untitled Chinese abstracts of the plain list (its first line is the proceedings title)."""
    return ZH_LIST.read_text(encoding="utf-8").split("\n\n")[1:]


def ja_records() -> list[dict]:
    """The Japanese Mini-Conf papers.csv, titled rows only."""
    with open(JA_CSV, encoding="utf-8", newline="") as rows:
        return [row for row in csv.DictReader(rows) if row["title"]]


def search_records() -> list[dict]:
    """Both languages as the search tests' records: title, abstract, tags."""
    zh = [{"title": r["title"], "abstract": r["abstract"], "tags": r["keywords"]} for r in zh_records()]
    ja = [{"title": r["title"], "abstract": r["abstract"], "tags": r["keywords"].split("|")} for r in ja_records()]
    return zh + ja
