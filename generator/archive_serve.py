"""`proceedings serve` on an archive: build it, serve the folder, rebuild what a change touches.

A change inside a volume's folder rebuilds that volume (with its build cache, so only
what changed in it is rendered again) and then the archive's pages, which list people
and volumes; a change to the series' own proceedings.yaml or theme rebuilds every
volume. The browser reloads after each rebuild; a failed rebuild leaves the site as it
was and is reported, and the server keeps serving.
"""

from __future__ import annotations

import webbrowser
from pathlib import Path

from generator.archive import ArchiveResult, archive_changes, build_archive
from generator.errors import ProceedingsError
from generator.reporter import Reporter
from generator.serve import POLL_INTERVAL, QUIET_PERIOD, check_port
from generator.watch import Watcher


class ArchiveLive:
    """The archive as the dev server keeps it: built once, then rebuilt volume by volume."""

    def __init__(self, content_dir: Path, out_dir: Path, reporter: Reporter, base_url: str | None = None):
        self.content_dir, self.out_dir, self.reporter, self.base_url = content_dir, out_dir, reporter, base_url

    def build_all(self) -> ArchiveResult:
        return build_archive(self.content_dir, self.out_dir, self.reporter, self.base_url)

    def relevant(self, changed: set[Path]) -> set[Path]:
        """Changes a reader could see: not the output, the build cache, staging folders or editors' litter."""
        out = self.out_dir.resolve()
        root = self.content_dir.resolve()
        kept = set()
        for path in changed:
            if path.is_dir():  # a folder's own event comes with those of the files changed in it
                continue
            resolved = path.resolve()
            if resolved == out or out in resolved.parents:
                continue
            try:
                parts = resolved.relative_to(root).parts
            except ValueError:
                parts = resolved.parts[-1:]
            if not any(part.startswith(".") for part in parts):
                kept.add(path)
        return kept

    def rebuild(self, changed: set[Path]) -> ArchiveResult | None:
        """Rebuild the volumes ``changed`` belongs to (all, for a change to the series itself)."""
        changed = self.relevant(changed)
        if not changed:
            return None
        only = archive_changes(self.content_dir, changed)
        return build_archive(self.content_dir, self.out_dir, self.reporter, self.base_url, only=only)


def serve_archive(content_dir: Path, out_dir: Path, host: str, port: int, open_browser: bool,
                  reporter: Reporter, base_url: str | None = None) -> int:
    from livereload import Server
    from livereload.handlers import LiveReloadHandler
    from tornado import ioloop

    check_port(host, port)
    live = ArchiveLive(content_dir, out_dir, reporter, base_url)
    result = live.build_all()
    reporter.info(f"built an archive of {len(result.volumes)} volumes, {result.papers} papers")
    watcher = Watcher([content_dir])
    watcher.start()

    def tick() -> None:
        changed = watcher.take(QUIET_PERIOD)
        if not changed:
            return
        try:
            rebuilt = live.rebuild(changed)
        except ProceedingsError as exc:  # the site stays as it was; the next save tries again
            reporter.error(f"rebuild failed: {exc}")
            return
        if rebuilt is not None:
            reporter.info(f"rebuilt {', '.join(sorted(rebuilt.built)) or 'the archive pages'}")
            LiveReloadHandler.reload_waiters(path="/")

    server = Server()
    server.watch(str(content_dir / ".proceedings-unwatched"), delay="forever")  # we watch, not livereload
    ioloop.PeriodicCallback(tick, POLL_INTERVAL * 1000).start()
    url = f"http://{host}:{port}/"
    reporter.info(f"serving the archive {out_dir}/ at {url} (watching {content_dir}; Ctrl+C stops)")
    if open_browser:
        ioloop.IOLoop.current().call_later(0.5, lambda: webbrowser.open(url))
    try:
        server.serve(root=str(out_dir), port=port, host=host, debug=False, restart_delay=0)
    finally:
        watcher.stop()
    return 0
