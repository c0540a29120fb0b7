"""``proceedings build``: every volume's pipeline (pipeline.py) run into one staging folder, swapped in whole.

A one-volume site is one volume at prefix ""; a series is many, each under its folder's name, and
its own pages beside them (series_pages.py). The output folder's lock is held from the first page
synced to the swap, so two builds take turns. Per-paper problems are collected and reported
together; config, theme and output problems stop the build and leave the previous site untouched;
in a series, a volume that cannot be built keeps its last build and the others go on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from generator.errors import ProceedingsError
from generator.merge import Change
from generator.output import Staging, check_replaceable, staged_site
from generator.pipeline import Options, Pipeline
from generator.reporter import Reporter
from generator.series import Layout, Member, SeriesVolume, load_layout, member_reporter
from generator.series_pages import SeriesWriter
from generator.sinks import StagingSink


@dataclass
class BuildResult:
    papers: int = 0
    files: int = 0
    kept: int = 0  # files of the last site kept as they were: their inputs did not change
    changes: list[Change] = field(default_factory=list)


@dataclass
class SiteResult(BuildResult):
    """What a build did, over all its volumes."""

    built: dict[str, BuildResult] = field(default_factory=dict)  # prefix → its volume's build ("" alone)
    volumes: list[SeriesVolume] = field(default_factory=list)  # a series' volumes, as its pages list them
    series: bool = False

    def summary(self, out_dir: Path) -> str:
        kept = f" ({self.kept} kept unchanged)" if self.kept else ""
        if not self.series:
            return f"built {self.papers} papers, {self.files} files{kept} into {out_dir}/"
        return (f"built an archive of {len(self.volumes)} volumes, {self.papers} papers "
                f"({len(self.built)} volumes built, {self.files} files{kept}) into {out_dir}/")


def build(content_dir: Path, out_dir: Path, reporter: Reporter, base_url: str | None = None,
          jobs: int | None = None, cache: bool = True) -> SiteResult:
    """Build a content folder, a volume or a series, into ``out_dir``."""
    layout = load_layout(content_dir, reporter, base_url)
    check_replaceable(out_dir, content_dir)
    result = SiteResult(series=layout.series is not None)
    sinks = []
    with staged_site(out_dir, reporter.info) as staging:
        writer = SeriesWriter(layout, staging, cache) if layout.series else None
        for member in layout.members:
            sink = StagingSink(out_dir / member.prefix if member.prefix else out_dir, staging.part(member.prefix))
            built = build_member(layout, member, sink, staging, reporter, base_url, jobs, cache, writer)
            if built is not None:
                result.built[member.prefix] = built
                sinks.append(sink)
        series_files = 0
        if writer is not None:
            result.volumes, series_files = writer.finish(reporter)
        staging.publish()
    for sink in sinks:  # the files are where they will stay: their identities can be recorded
        sink.record()
    _count(result, series_files)
    return result


def build_member(layout: Layout, member: Member, sink: StagingSink, staging: Staging, reporter: Reporter,
                 base_url: str | None, jobs: int | None, cache: bool,
                 writer: SeriesWriter | None) -> BuildResult | None:
    """One volume, into its part of the staging folder. In a series, a volume that cannot be built is
    reported and keeps its last build (None); alone, its error stops the build."""
    options = Options(base_url=layout.base_url(member, base_url), jobs=jobs or 0, cache=cache,
                      series=layout.options_series())
    try:
        run = Pipeline(member.content_dir, sink, options).run(member_reporter(reporter, member))
    except ProceedingsError as exc:
        if writer is None:
            raise
        carried = staging.carry(member.prefix)
        kept = "its last build stays published" if carried else "it has no earlier build"
        reporter.error(f"volume {member.prefix} not built: {exc.message} ({kept})", exc.path or member.content_dir,
                       exc.line)
        writer.carried(member)
        return None
    if writer is not None:
        assert run.project is not None
        writer.add(member, run.project.volume, run.rendered, run.files)
    return BuildResult(papers=len(run.rendered), files=len(run.files), kept=sink.kept, changes=run.changes)


def _count(result: SiteResult, series_files: int) -> None:
    built = result.built.values()
    result.papers = sum(len(v.papers) for v in result.volumes) if result.series else sum(b.papers for b in built)
    result.files = sum(b.files for b in built) + series_files
    result.kept = sum(b.kept for b in built)
    result.changes = [change for b in built for change in b.changes]
