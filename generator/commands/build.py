"""``proceedings build``: every volume's pipeline (pipeline/stages.py) run into one staging folder, swapped in whole.

A one-volume site is one volume at prefix ""; a series is many, each under its folder's name, and
its own pages beside them (series/pages.py). The output folder's lock is held from the first page
synced to the swap, so two builds take turns. Per-paper problems are collected and reported
together; config, theme and output problems stop the build and leave the previous site untouched;
in a series, a volume that cannot be built keeps its last build and the others go on.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from generator.errors import ProceedingsError
from generator.model.config import CONFIG_NAME
from generator.content.merge import Change
from generator.pipeline.hosting import host_warnings, site_size
from generator.pipeline.output import Staging, check_replaceable, staged_site
from generator.pipeline.stages import Options, Pipeline
from generator.commands.reporter import Reporter
from generator.series.layout import Layout, Member, SeriesVolume, load_layout, member_reporter
from generator.series.writer import SeriesWriter
from generator.pipeline.sinks import StagingSink
from generator import diagnostics as codes


@dataclass
class BuildResult:
    papers: int = 0
    files: int = 0
    kept: int = 0  # files of the last site kept as they were: their inputs did not change
    changes: list[Change] = field(default_factory=list)
    undated: int = 0  # papers whose citations have no year (no date or year in the volume or the paper)


@dataclass
class SiteResult(BuildResult):
    """What a build did, over all its volumes."""

    built: dict[str, BuildResult] = field(default_factory=dict)  # prefix → its volume's build ("" alone)
    volumes: list[SeriesVolume] = field(default_factory=list)  # a series' volumes, as its pages list them
    unchanged: list[str] = field(default_factory=list)  # a series' volumes carried over whole: nothing moved
    undated_volumes: dict[str, int] = field(default_factory=dict)  # a series' volumes → their undated papers
    series: bool = False

    def date_note(self) -> str:
        """Said once, beside the summary: the volumes whose citations will say "n.d.", and the key that fixes it."""
        fix = f"add `date: YYYY-MM-DD` (the proceedings' date) to {CONFIG_NAME}"
        if not self.series:
            if not self.undated:
                return ""
            some = "" if self.undated == self.papers else f" {self.undated} of {self.papers} papers:"
            return (f"note: the volume has no date:{some} citations will say “n.d.” (no year in BibTeX, RIS, "
                    f"CSL-JSON or the meta tags); {fix}")
        undated = sorted(prefix for prefix, count in self.undated_volumes.items() if count)
        if not undated:
            return ""
        return (f"note: {len(undated)} of {len(self.volumes)} volumes have no date ({', '.join(undated)}): their "
                f"citations will say “n.d.”; {fix} in each one's folder")

    def summary(self, out_dir: Path) -> str:
        kept = f" ({self.kept} kept unchanged)" if self.kept else ""
        if not self.series:
            return f"built {self.papers} papers, {self.files} files{kept} into {out_dir}/"
        unchanged = f", {len(self.unchanged)} unchanged" if self.unchanged else ""
        built = f"{len(self.built)} volume{'' if len(self.built) == 1 else 's'} built"
        return (f"built an archive of {len(self.volumes)} volumes, {self.papers} papers "
                f"({built}{unchanged}, {self.files} files{kept}) into {out_dir}/")


def build(content_dir: Path, out_dir: Path, reporter: Reporter, base_url: str | None = None,
          jobs: int | None = None, cache: bool = True) -> SiteResult:
    """Build a content folder, a volume or a series, into ``out_dir``."""
    layout = load_layout(content_dir, reporter, base_url)
    check_replaceable(out_dir, content_dir)
    with staged_site(out_dir, reporter.info) as staging:
        run = _Build(layout, staging, reporter, Options(base_url=base_url, jobs=jobs or 0, cache=cache))
        for member in layout.members:
            run.volume(member)
        run.series()
        for warning in host_warnings(site_size(staging.path)):
            reporter.warn(warning, code=codes.HOST_LIMIT)
        staging.publish()
    return run.published()


class _Build:
    """One build of a layout's volumes into ``staging``, and of a series' own pages."""

    def __init__(self, layout: Layout, staging: Staging, reporter: Reporter, options: Options):
        self.layout, self.staging, self.reporter, self.options = layout, staging, reporter, options
        self.writer = SeriesWriter(layout, staging, options.cache) if layout.series else None
        self.result = SiteResult(series=layout.series is not None)
        self.sinks: list[StagingSink] = []
        self.series_files = 0  # a series' own files
        self.unchanged_files: dict[str, int] = {}  # a series' volumes carried over whole: their files

    def volume(self, member: Member, reuse: bool = True) -> None:
        """One volume, into its part of the staging folder (in a series, its last build when nothing it is
        made from moved). In a series, a volume that cannot be built is reported and keeps its last build;
        alone, its error stops the build."""
        options = replace(self.options, base_url=self.layout.base_url(member, self.options.base_url),
                          series=self.layout.options_series(), people=self.layout.people)
        out = self.staging.out_dir / member.prefix if member.prefix else self.staging.out_dir
        sink = StagingSink(out, self.staging.part(member.prefix))
        pipeline = Pipeline(member.content_dir, sink, options)
        writer = self.writer
        if writer is not None and reuse:
            known = writer.reuse(member, writer.inputs(member, options), pipeline.store)
            if known is not None:
                self.unchanged_files[member.prefix] = known.get("files", 0)
                return
        reporter = member_reporter(self.reporter, member)
        try:
            run = pipeline.run(reporter)
        except ProceedingsError as exc:
            if writer is None:
                raise
            carried = self.staging.carry(member.prefix)
            kept = "its last build stays published" if carried else "it has no earlier build"
            self.reporter.error(f"volume {member.prefix} not built: {exc.message} ({kept})",
                                exc.path or member.content_dir, exc.line, code=codes.VOLUME_NOT_BUILT,
                                subject=member.prefix, value=exc.code)
            writer.carried(member)
            return
        if writer is not None:
            assert run.project is not None
            # A build that wrote pages said what creating them says; the next one, reading them, says less:
            # let it run and be the one recorded.
            inputs = "" if run.changes else writer.inputs(member, options)
            writer.add(member, run.project.volume, run.rendered, run.files, inputs, reporter.diagnostics)
        self.result.built[member.prefix] = BuildResult(len(run.rendered), len(run.files), sink.kept, run.changes,
                                                       run.project.volume.undated(run.rendered) if run.project else 0)
        self.sinks.append(sink)

    def series(self) -> None:
        """A series' own pages, once every volume is in (the newest volume built after all if it was carried
        over: the series' feed is made of its papers)."""
        if self.writer is None:
            return
        again = self.writer.newest_unrendered()
        if again is not None and again in self.unchanged_files:  # (one that failed to build is not tried twice)
            self.writer.drop(again)
            del self.unchanged_files[again]
            self.volume(next(m for m in self.layout.members if m.prefix == again), reuse=False)
        self.writer.say_again(self.reporter)
        self.result.volumes, self.series_files = self.writer.finish(self.reporter)
        self.result.unchanged = list(self.unchanged_files)
        self.result.undated_volumes = dict(self.writer.undated)

    def published(self) -> SiteResult:
        """The result, once the site is swapped in: the files are where they stay, their identities recorded."""
        for sink in self.sinks:
            sink.record()
        result, built = self.result, self.result.built.values()
        result.papers = (sum(len(v.papers) for v in result.volumes) if result.series
                         else sum(b.papers for b in built))
        result.files = sum(b.files for b in built) + sum(self.unchanged_files.values()) + self.series_files
        result.kept = sum(b.kept for b in built)
        result.undated = sum(b.undated for b in built)
        result.changes = [change for b in built for change in b.changes]
        return result

