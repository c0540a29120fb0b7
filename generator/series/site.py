"""A series: one site of collections, each volume at its prefix, and the series' own files made from them.

``build`` (commands/build.py) and ``serve`` (series/live.py) take the same path: every volume is run by its
own pipeline (whose build cache and kept files make an unchanged volume cheap), and each volume, as its
pipeline made it (its typed ``Volume`` and rendered papers), is handed to one ``SeriesSite``, which makes
the series' own files (series/pages.py) from what it was handed. Nothing of a volume is read back from a
digest of its folder or a JSON copy, so whatever a theme may show of a volume is there on every build.

Each volume's papers.json records are written to a part file as soon as the volume is in (so a build never
holds the series' papers all in memory; serve, which holds its whole site in memory, holds them there too and
writes nothing outside its output folder, so a server killed by any signal leaves nothing behind); the series'
papers.json and its search index are made of those parts, the index from the series' build cache when no part
moved (a digest of every record it is made of).
A volume that fails to build keeps its last build: its folder is carried over, and it is listed as its last
good build listed it, kept whole (its typed ``SeriesVolume``) in the volume's own cache.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import pickle
import shutil
from pathlib import Path
from typing import IO, Callable, Iterable, Iterator

from generator.model.paper import RenderedPaper
from generator.model.volume import Volume
from generator.runtime.cache import BuildCache, digest
from generator.render.records import paper_record
from generator.search.series import cached_series_index
from generator.series.layout import Layout, SeriesVolume, newest_first
from generator.series.pages import join_records, series_files, series_records

PARTS = ".series-parts"  # in the staging folder; removed before the swap, a killed build's goes with it
LAST_GOOD = "series-volume"  # the kind of a volume's cache entry: the volume as its last good build listed it


class SeriesSite:
    """The series' collections (its volumes by prefix) and the series' own files.

    ``parts``: the folder of the volumes' part files (None: kept in memory, as serve keeps its whole site).
    ``papers_of_all``: keep every volume's rendered papers (serve, where the pipelines hold them anyway);
    else only the newest volume's, which the series' feed is made of."""

    def __init__(self, layout: Layout, parts: Path | None, cache: bool = True, papers_of_all: bool = False):
        assert layout.series is not None and layout.config is not None
        self.layout, self.parts, self.papers_of_all = layout, parts, papers_of_all
        if parts is not None:
            parts.mkdir(parents=True, exist_ok=True)
        self.held: dict[str, bytes] = {}  # volume → its part, when the parts are kept in memory
        self.store = BuildCache.for_content(layout.content_dir, enabled=cache)
        self.volumes: dict[str, SeriesVolume] = {}
        self.papers: dict[str, list[RenderedPaper]] = {}
        self.digests: dict[str, str] = {}  # volume → digest of its part file's records
        self.undated: dict[str, int] = {}  # volume → its papers whose citations have no year
        self._index: tuple[list[str], dict[str, bytes]] = ([], {})  # the last index made, and what it was made of

    def add(self, prefix: str, volume: Volume, papers: list[RenderedPaper], files: Iterable[str],
            store: BuildCache | None = None) -> SeriesVolume:
        """A volume just built, as its pipeline made it; kept whole in its own ``store`` for a build that fails."""
        entry = SeriesVolume.of(prefix, volume, papers, files)
        undated = volume.undated(papers)
        self._listed(entry, series_records(entry, (paper_record(p) for p in papers)), papers, undated)
        if store is not None and store.enabled:
            store.store_bytes(LAST_GOOD, store.key(LAST_GOOD, prefix), pickle.dumps((entry, undated)))
        return entry

    def carried(self, prefix: str, published: Path, store: BuildCache) -> bool:
        """A volume that failed to build, whose last build (``published``, its folder) is carried over: listed
        as that build listed it; False when there is no such build to list."""
        kept = store.load_bytes(LAST_GOOD, store.key(LAST_GOOD, prefix)) if store.enabled else None
        if kept is None or not (published / "papers.json").is_file():
            return False
        # The cache's entries are sealed with the user's own secret (runtime/cache.py): only our own build
        # wrote this one.
        try:
            entry, undated = pickle.loads(kept)
        except (pickle.UnpicklingError, AttributeError, ImportError, TypeError, ValueError):
            return False  # kept by a generator whose classes were since renamed
        records = json.loads((published / "papers.json").read_text(encoding="utf-8"))
        self._listed(entry, series_records(entry, records), [], undated)
        return True

    def remove(self, prefix: str) -> None:
        for held in (self.volumes, self.papers, self.digests, self.undated, self.held):
            held.pop(prefix, None)
        if self.parts is not None:
            (self.parts / _part_name(prefix)).unlink(missing_ok=True)

    def newest_first(self) -> list[SeriesVolume]:
        return newest_first(list(self.volumes.values()))

    # -- the series' own files --------------------------------------------------------------

    def files(self, warn: Callable[..., None]) -> dict[str, bytes]:
        """The series' pages, feed, sitemaps, assets and search index (papers.json is ``papers_json``)."""
        layout, volumes = self.layout, self.newest_first()
        assert layout.series is not None and layout.config is not None
        newest = self.papers.get(volumes[0].path) if volumes else None
        files = series_files(layout.config, layout.series, volumes, layout.content_dir, warn, newest, layout.people)
        files.update(self._search_files(volumes))
        return files

    def papers_json(self) -> Iterable[bytes]:
        """The series' papers.json, a line at a time: every volume's records, newest volume first."""
        return join_records(self._part(v.path) for v in self.newest_first())

    def close(self) -> None:
        self.held = {}
        if self.parts is not None:
            shutil.rmtree(self.parts, ignore_errors=True)

    def _search_files(self, volumes: list[SeriesVolume]) -> dict[str, bytes]:
        """The series' index (search/series.py), made again only when a record it is made of moved: editing a
        template or a volume's settings does not cost a new index."""
        key = [part for v in volumes for part in (v.path, self.digests[v.path])]
        if self._index[0] != key:
            runs = ((v.path, (json.loads(line) for line in self._part(v.path))) for v in volumes)
            self._index = (key, cached_series_index(self.store, key, runs))
        return self._index[1]

    def _listed(self, entry: SeriesVolume, records: Iterable[bytes], papers: list[RenderedPaper],
                undated: int) -> None:
        self.volumes[entry.path] = entry
        hasher = hashlib.blake2b(digest_size=20)  # what the series' index is made of, told as it is written
        with self._writing(entry.path) as part:
            for line in records:
                part.write(line + b"\n")
                hasher.update(line + b"\n")
        self.digests[entry.path] = hasher.hexdigest()
        self.undated[entry.path] = undated
        self.papers[entry.path] = papers
        if not self.papers_of_all:
            newest = self.newest_first()[0].path
            self.papers = {newest: self.papers[newest]}

    @contextlib.contextmanager
    def _writing(self, prefix: str) -> Iterator[IO[bytes]]:
        if self.parts is not None:
            with open(self.parts / _part_name(prefix), "wb") as part:
                yield part
            return
        held = io.BytesIO()
        yield held
        self.held[prefix] = held.getvalue()

    def _part(self, prefix: str) -> Iterable[bytes]:
        with open(self.parts / _part_name(prefix), "rb") if self.parts is not None else io.BytesIO(
                self.held[prefix]) as part:
            for line in part:
                yield line.rstrip(b"\n")


def _part_name(prefix: str) -> str:
    return digest(prefix) + ".jsonl"  # a folder's name may be anything a file system allows
