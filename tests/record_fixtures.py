"""Helpers of tests that build a small volume from records: JSON Lines content of three papers, the CLI
in this process, a source's warnings."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path


from generator.commands.cli import main


ABSTRACTS = ["We learn the edges of a graph with linear memory and show it on ten benchmarks.",
             "We count things in images of cluttered rooms with a detector trained on synthetic data.",
             "A study of how diffusion models memorise their training images, and how to stop them."]


def jsonl_content(tmp_path: Path, records: list[dict], config: str = "title: Hardened 2026\n") -> Path:
    content = tmp_path / "content"
    content.mkdir(exist_ok=True)
    (content / "proceedings.yaml").write_text(config, encoding="utf-8")
    (content / "papers.jsonl").write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return content


def records(**first) -> list[dict]:
    return [dict({"id": f"p{n}", "title": f"Paper {n}", "abstract": text}, **(first if n == 1 else {}))
            for n, text in enumerate(ABSTRACTS, start=1)]


def run_cli(*args: str) -> tuple[int, str]:
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr):
        status = main(list(args))
    return status, stderr.getvalue()


def build(content, site) -> int:
    return main(["build", "--content", str(content), "--out", str(site)])


def names(entry) -> list[str]:
    return [author.name for author in entry.details.authors]


def warnings(source) -> list[tuple[int, str]]:
    return [(d.line, d.message) for d in source.diagnostics]
