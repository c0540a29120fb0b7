"""``proceedings build``: the pipeline (pipeline.py) run once into a staging folder swapped in for the site.

Per-paper problems are collected and reported together; config, theme and output
problems stop the build and leave the previous site untouched.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from generator.merge import Change
from generator.people_file import Rules
from generator.pipeline import Options, Pipeline
from generator.reporter import Reporter
from generator.sinks import StagingSink


@dataclass
class BuildResult:
    papers: int = 0
    files: int = 0
    kept: int = 0  # files of the last site kept as they were: their inputs did not change
    changes: list[Change] = field(default_factory=list)


def build(content_dir: Path, out_dir: Path, reporter: Reporter, base_url: str | None = None,
          jobs: int | None = None, cache: bool = True, series: str = "", people: Rules | None = None) -> BuildResult:
    """``series``: the title of the archive this volume is built into (archive.py), linked from its pages;
    ``people``: the archive's people.yaml."""
    options = Options(base_url=base_url, jobs=jobs or 0, cache=cache, series=series, people=people or Rules())
    sink = StagingSink(out_dir)
    run = Pipeline(content_dir, sink, options).run(reporter)
    return BuildResult(papers=len(run.rendered), files=len(run.files), kept=sink.kept, changes=run.changes)
