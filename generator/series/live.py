"""The dev server's site for any content folder: one ``LiveSite`` per volume, under its prefix.

A one-volume site is one ``LiveSite`` at prefix ""; a series has one per volume and its own pages,
made from the volumes' kept runs after every pass by the ``SeriesSite`` a build uses (series/site.py).
A change inside a volume's folder reruns that volume's pipeline from the first stage it invalidates
and then the series' pages; a change to the series itself (its ``proceedings.yaml``, its theme, a volume added or
removed) lays the series out again. The served files are a view over the volumes' in-memory sites
and the series' own (``SiteFiles``), so ``serve.SiteApp`` serves a series as it serves a volume.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Callable

from generator.errors import Diagnostic, ProceedingsError
from generator.pipeline.live import LiveSite, Rebuild
from generator.runtime.output import SITE_MARKERS, write_changed
from generator.reporter import Reporter
from generator.series.layout import Layout, load_layout
from generator.series.site import SeriesSite
from generator.render.theme import default_theme_dir


class LiveSeries:
    def __init__(self, content_dir: Path, out_dir: Path, base_url: str | None = None,
                 on_search_ready: Callable[[float], None] | None = None):
        self.content_dir, self.out_dir, self.base_url = content_dir.resolve(), out_dir, base_url
        self.on_search_ready = on_search_ready
        self.layout: Layout | None = None
        self.members: dict[str, LiveSite] = {}  # prefix → the volume's live site
        self.own: dict[str, bytes] = {}  # the series' own files
        self.files = SiteFiles(self)
        self._errors: list[Diagnostic] = []  # the series' own problems, or a crash (serve._guard)
        self.site: SeriesSite | None = None  # the series' collections and own files (None: one volume)

    @property
    def errors(self) -> list[Diagnostic]:
        """Every problem shown in the browser: the series' own, and each volume's naming its folder."""
        found = list(self._errors)
        for prefix, live in self.members.items():
            found += [_within(prefix, d) for d in live.errors]
        return found

    @errors.setter
    def errors(self, errors: list[Diagnostic]) -> None:
        self._errors = errors

    @property
    def search_lag(self) -> float | None:
        lags = [live.search_lag for live in self.members.values() if live.search_lag is not None]
        return max(lags) if lags else None

    def watched_roots(self) -> list[Path]:
        return sorted({self.content_dir, default_theme_dir().resolve()})

    def build_all(self) -> Rebuild:
        """Lay the content folder out again and build every volume, then the series' pages."""
        began, reporter = time.perf_counter(), Reporter()
        self.close()
        try:
            layout = load_layout(self.content_dir, reporter, self.base_url)
        except ProceedingsError as exc:
            reporter.report(Diagnostic.from_error(exc))
            self._errors, self.layout, self.site = reporter.errors, None, None
            return Rebuild(["full build"], time.perf_counter() - began, diagnostics=reporter.diagnostics, failed=True)
        self.layout = layout
        # The series' parts in memory, as the rest of the served site: nothing is written outside the output
        # folder, so a server killed by any signal (SIGKILL, a terminal closed) leaves no folder behind.
        self.site = SeriesSite(layout, None, papers_of_all=True) if layout.series is not None else None
        self.members = {m.prefix: LiveSite(m.content_dir, self.out_dir / m.prefix if m.prefix else self.out_dir,
                                           layout.base_url(m, self.base_url), self.on_search_ready,
                                           series=layout.options_series(), people=layout.people)
                        for m in layout.members}
        self._remove_gone_volumes()
        passes = {prefix: live.build_all() for prefix, live in self.members.items()}
        return self._finish(["full build"], began, reporter, passes)

    def rebuild(self, changed: set[Path]) -> Rebuild:
        if self.layout is None:
            return self.build_all()
        if self.layout.series is None:  # one volume: it classifies every change itself (theme folders too)
            self._errors = []
            return self.members[""].rebuild(changed)
        by_member, whole = self._route(changed)
        if whole:
            return self.build_all()
        began = time.perf_counter()
        passes = {prefix: self.members[prefix].rebuild(paths) for prefix, paths in by_member.items()}
        if not any(result.kinds for result in passes.values()):
            return Rebuild([], 0.0)
        return self._finish(sorted({k for r in passes.values() for k in r.kinds}), began, Reporter(), passes)

    def settle(self) -> Rebuild | None:
        """The volumes' related papers worked out in the background, shown (LiveSite.settle)."""
        settled = {prefix: result for prefix, live in self.members.items() if (result := live.settle()) is not None}
        if not settled:
            return None
        if self.layout is None or self.layout.series is None:
            return next(iter(settled.values()))
        return _combined(["related papers"], 0.0, settled, [])

    def wait_for_search(self) -> None:
        for live in self.members.values():
            live.wait_for_search()

    def close(self) -> None:
        for live in self.members.values():
            live.close()
        if self.site is not None:
            self.site.close()

    # -- inside ---------------------------------------------------------------------------

    def _route(self, changed: set[Path]) -> tuple[dict[str, set[Path]], bool]:
        """The changed paths by the volume they are in; True when one touches the series itself."""
        by_member: dict[str, set[Path]] = {}
        folders = {live.content_dir: prefix for prefix, live in self.members.items()}
        out = self.out_dir.resolve()
        for path in changed:
            resolved = path.resolve()
            if resolved == out or out in resolved.parents:
                continue  # our own writes
            member = next((folders[p] for p in (resolved, *resolved.parents) if p in folders), None)
            if member is not None and not self.members[member].content_dir.is_dir():
                return by_member, True  # a volume removed
            if member is not None:
                by_member.setdefault(member, set()).add(path)
            elif self.content_dir in resolved.parents or resolved == self.content_dir:
                parts = resolved.relative_to(self.content_dir).parts
                if parts and not any(part.startswith(".") for part in parts) and not path.is_dir():
                    return by_member, True  # the series' config or theme, or a volume added
            else:  # the default theme: every volume classifies it
                for prefix in self.members:
                    by_member.setdefault(prefix, set()).add(path)
        return by_member, False

    def _finish(self, kinds: list[str], began: float, reporter: Reporter, passes: dict[str, Rebuild]) -> Rebuild:
        before = bool(self._errors)
        self._errors = []
        try:
            self._series_pages(reporter, passes)
        except ProceedingsError as exc:
            reporter.report(Diagnostic.from_error(exc))
            self._errors = reporter.errors
        result = _combined(kinds, time.perf_counter() - began, passes, reporter.diagnostics)
        result.cleared = result.cleared or (before and not self._errors)
        return result

    def _series_pages(self, reporter: Reporter, rebuilt: Iterable[str]) -> None:
        """The series' own files (series/site.py, as ``build`` makes them) from the volumes' kept runs, those
        ``rebuilt`` this pass handed over again, mirrored to the output folder."""
        if self.site is None:
            return
        for prefix in rebuilt:
            live = self.members[prefix]
            project = live.pipeline.state.project
            if project is None:  # a volume that fails to build is left out until it builds again
                self.site.remove(prefix)
            else:
                self.site.add(prefix, project.volume, live.pipeline.state.rendered, live.files)
        files = self.site.files(reporter.warn)
        files["papers.json"] = b"".join(self.site.papers_json())
        write_changed(self.out_dir, self.own, files)
        self.own = files

    def _remove_gone_volumes(self) -> None:
        """A volume folder removed from the content leaves the mirrored site too (only folders a build made)."""
        if self.layout is None or self.layout.series is None or not self.out_dir.is_dir():
            return
        for child in self.out_dir.iterdir():
            if (child.is_dir() and child.name not in self.members
                    and all((child / marker).is_file() for marker in SITE_MARKERS)):
                shutil.rmtree(child)


class SiteFiles(Mapping):
    """The served site: a name under a volume's prefix is that volume's file, any other the series' own."""

    def __init__(self, live: LiveSeries):
        self.live = live

    def _split(self, name: str) -> tuple[Mapping[str, bytes], str]:
        members = self.live.members
        if "" in members:
            return members[""].files, name
        prefix, _, rest = name.partition("/")
        if rest and prefix in members:
            return members[prefix].files, rest
        return self.live.own, name

    def __getitem__(self, name: str) -> bytes:
        files, rest = self._split(name)
        return files[rest]

    def __iter__(self) -> Iterator[str]:
        yield from self.live.own
        for prefix, live in self.live.members.items():
            yield from (f"{prefix}/{name}" if prefix else name for name in live.files)

    def __len__(self) -> int:
        return len(self.live.own) + sum(len(live.files) for live in self.live.members.values())


def _within(prefix: str, diagnostic: Diagnostic) -> Diagnostic:
    if not prefix or diagnostic.path is None:
        return diagnostic
    return replace(diagnostic, path=Path(prefix) / diagnostic.path)


def _combined(kinds: list[str], seconds: float, passes: dict[str, Rebuild], own: list[Diagnostic]) -> Rebuild:
    """One console line for the volumes' passes and the series' pages."""
    diagnostics = [_within(prefix, d) for prefix, result in passes.items() for d in result.diagnostics] + own
    return Rebuild(kinds, seconds, rendered=sum(r.rendered for r in passes.values()),
                   written=sum(r.written for r in passes.values()), removed=sum(r.removed for r in passes.values()),
                   diagnostics=diagnostics, failed=any(r.failed for r in passes.values()),
                   cleared=any(r.cleared for r in passes.values()))
