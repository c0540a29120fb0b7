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
from generator.runtime.collector import build_pace
from generator.runtime.output import Staging, check_replaceable, staged_site
from generator.pipeline.stages import Options, Pipeline
from generator.reporter import Reporter
from generator.series.layout import Layout, Member, SeriesVolume, load_layout, member_reporter
from generator.series.site import PARTS, SeriesSite
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
    unchanged: list[str] = field(default_factory=list)  # a series' volumes whose every file was kept: nothing moved
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
        rendered = len(self.built) - len(self.unchanged)  # an unchanged volume's pipeline ran, and rendered nothing
        built = f"{rendered} volume{'' if rendered == 1 else 's'} built"
        return (f"built a series of {len(self.volumes)} volumes, {self.papers} papers "
                f"({built}{unchanged}, {self.files} files{kept}) into {out_dir}/")


def build(content_dir: Path, out_dir: Path, reporter: Reporter, base_url: str | None = None,
          jobs: int | None = None, cache: bool = True) -> SiteResult:
    """Build a content folder, a volume or a series, into ``out_dir``."""
    with build_pace():  # millions of objects that live to the end: the collector need not walk them often
        return _build(content_dir, out_dir, reporter, base_url, jobs, cache)


def _build(content_dir: Path, out_dir: Path, reporter: Reporter, base_url: str | None, jobs: int | None,
           cache: bool) -> SiteResult:
    layout = load_layout(content_dir, reporter, base_url)
    check_replaceable(out_dir, content_dir)
    with staged_site(out_dir, reporter.info) as staging:
        run = _Build(layout, staging, reporter, Options(base_url=base_url, jobs=jobs or 0, cache=cache))
        for member in layout.members:
            run.volume(member)
        run.series()
        size = site_size(staging.path)
        for warning in host_warnings(size):
            reporter.warn(warning, code=codes.HOST_LIMIT)
        staging.publish(size.files)
    return run.published()


class _Build:
    """One build of a layout's volumes into ``staging``, and of a series' own pages (series/site.py)."""

    def __init__(self, layout: Layout, staging: Staging, reporter: Reporter, options: Options):
        self.layout, self.staging, self.reporter, self.options = layout, staging, reporter, options
        self.site = SeriesSite(layout, staging.path / PARTS, options.cache) if layout.series else None
        self.result = SiteResult(series=layout.series is not None)
        self.sinks: list[StagingSink] = []
        self.series_files = 0  # a series' own files

    def volume(self, member: Member) -> None:
        """One volume, into its part of the staging folder, by its own pipeline (whose cache and the files it
        keeps make an unchanged volume cheap). In a series, a volume that cannot be built is reported and keeps
        its last build; alone, its error stops the build."""
        options = replace(self.options, base_url=self.layout.base_url(member, self.options.base_url),
                          series=self.layout.options_series(), people=self.layout.people)
        out = self.staging.out_dir / member.prefix if member.prefix else self.staging.out_dir
        sink = StagingSink(out, self.staging.part(member.prefix))
        pipeline = Pipeline(member.content_dir, sink, options)
        reporter = member_reporter(self.reporter, member)
        try:
            run = pipeline.run(reporter)
        except ProceedingsError as exc:
            if self.site is None:
                raise
            self._failed(member, exc, pipeline)
            return
        assert run.project is not None
        if self.site is not None:
            self.site.add(member.prefix, run.project.volume, run.rendered, run.files, pipeline.store)
            if sink.kept and not sink.rendered:
                self.result.unchanged.append(member.prefix)
        self.result.built[member.prefix] = BuildResult(len(run.rendered), len(run.files), sink.kept, run.changes,
                                                       run.project.volume.undated(run.rendered))
        self.sinks.append(sink)

    def _failed(self, member: Member, exc: ProceedingsError, pipeline: Pipeline) -> None:
        assert self.site is not None
        carried = self.staging.carry(member.prefix)
        kept = "its last build stays published" if carried else "it has no earlier build"
        self.reporter.error(f"volume {member.prefix} not built: {exc.message} ({kept})",
                            exc.path or member.content_dir, exc.line, code=codes.VOLUME_NOT_BUILT,
                            subject=member.prefix, value=exc.code)
        if carried:
            self.site.carried(member.prefix, self.staging.path / member.prefix, pipeline.store)

    def series(self) -> None:
        """A series' own pages and papers.json, once every volume is in."""
        if self.site is None:
            return
        try:
            files = self.site.files(self.reporter.warn)
            for name, data in files.items():
                self.staging.write(name, data)
            with open(self.staging.path / "papers.json", "wb") as out:
                out.writelines(self.site.papers_json())
        finally:
            self.site.close()
        self.series_files = len(files) + 1
        self.result.volumes = self.site.newest_first()
        self.result.undated_volumes = dict(self.site.undated)

    def published(self) -> SiteResult:
        """The result, once the site is swapped in: the files are where they stay, their identities recorded."""
        for sink in self.sinks:
            sink.record()
        result, built = self.result, self.result.built.values()
        result.papers = (sum(len(v.papers) for v in result.volumes) if result.series
                         else sum(b.papers for b in built))
        result.files = sum(b.files for b in built) + self.series_files
        result.kept = sum(b.kept for b in built)
        result.undated = sum(b.undated for b in built)
        result.changes = [change for b in built for change in b.changes]
        return result
