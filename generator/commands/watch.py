"""File watching on top of watchdog: collect changed paths, hand them over in quiet bursts."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from generator.content.changes import is_litter


class Watcher(FileSystemEventHandler):
    """Remembers which files changed; ``take`` returns them once saving has paused."""

    def __init__(self, roots: list[Path]):
        self.roots = [root for root in roots if root.is_dir()]
        self._pending: set[Path] = set()
        self._last = 0.0
        self._lock = threading.Lock()
        self._observer = Observer()

    def start(self) -> None:
        for root in self.roots:
            self._observer.schedule(self, str(root), recursive=True)
        self._observer.start()

    def stop(self) -> None:
        self._observer.stop()
        self._observer.join(5)

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in ("opened", "closed_no_write"):
            return
        paths = [event.src_path, getattr(event, "dest_path", "")]
        changed = {Path(str(p)) for p in paths if p and not is_litter(Path(str(p)).name)}
        if changed:
            with self._lock:
                self._pending |= changed
                self._last = time.monotonic()

    def take(self, quiet: float) -> set[Path]:
        """The changed paths, if none has changed for ``quiet`` seconds (debounce)."""
        with self._lock:
            if not self._pending or time.monotonic() - self._last < quiet:
                return set()
            batch, self._pending = self._pending, set()
            return batch
