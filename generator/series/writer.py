"""A series' files, made while its volumes are built into one staging folder (commands/build.py).

Each volume's papers.json records are written to a part file as soon as the volume is built (so the
series' papers are never all in memory), the newest volume's papers are kept for the feed, and the
series' pages are rendered once every volume is known.

What the series needs of each volume (its title, date, papers as listed, sitemaps, what its build
reported) is kept in the series' build cache with a digest of the volume's inputs. A volume whose
inputs did not move since, and whose published folder is as that build left it, is not built again:
its folder is carried into the new site whole and what it reported is said again, so a no-change
rebuild of a series costs a walk of its folders, not a build of each volume.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path
from typing import Iterable

from generator.pipeline.cache import BuildCache, code_digest, digest
from generator.errors import Diagnostic
from generator.model.paper import Author, RenderedPaper
from generator.pipeline.output import Staging
from generator.commands.reporter import Reporter
from generator.pipeline.reuse import LastSite, theme_digest
from generator.series.layout import Layout, Listing, Member, SeriesVolume, newest_first, volume_date
from generator.series.pages import join_records, series_files, series_records
from generator.render.records import paper_record
from generator.search.series import cached_series_index
from generator.render.theme import Theme, default_theme_dir
from generator.model.volume import Volume

PARTS = ".series-parts"  # in the staging folder; removed before the swap, a killed build's goes with it
CACHE_KIND = "series"
CACHE_FOLDER = ".proceedings-cache"


class SeriesWriter:
    def __init__(self, layout: Layout, staging: Staging, cache: bool = True):
        assert layout.series is not None
        self.layout, self.series, self.staging = layout, layout.series, staging
        self.volumes: list[SeriesVolume] = []
        self.newest: tuple[SeriesVolume, list[RenderedPaper]] | None = None
        self.parts = staging.path / PARTS
        self.parts.mkdir()
        self.store = BuildCache.for_content(layout.content_dir, enabled=cache)
        known = self.store.load_json(CACHE_KIND, self.store.key(CACHE_KIND)) if self.store.enabled else None
        self.known: dict = known if isinstance(known, dict) else {}
        self.seen: dict[str, dict] = {}
        self.part_digests: dict[str, str] = {}  # volume → digest of its part file's records
        self.unsaid: dict[str, list] = {}  # what the volumes carried over reported when last built
        self.undated: dict[str, int] = {}  # volume → its papers whose citations have no year
        self._shared: str | None = None

    # -- volumes ---------------------------------------------------------------------------

    def inputs(self, member: Member, options: object) -> str:
        """A digest of what the volume's site is made from: every file of its folder by name, size,
        modification time and inode (a save changes one of them), the default theme, the generator and
        the build's options. Equal inputs give the same site."""
        if self._shared is None:
            default = default_theme_dir()
            self._shared = digest(code_digest(), theme_digest(Theme((default / "templates",), (default / "static",))))
        parts = [self._shared, repr(options)]
        for path in _files(member.content_dir):
            info = path.lstat()
            parts.append(f"{path.relative_to(member.content_dir).as_posix()}\0{info.st_size}\0{info.st_mtime_ns}"
                         f"\0{info.st_ino}")
        return digest(*parts)

    def reuse(self, member: Member, inputs: str, volume_store: BuildCache) -> dict | None:
        """Carry an unchanged volume's last build into the site (``say_again`` repeats what it reported);
        its record (papers, files), or None when it must be built."""
        known = self.known.get(member.prefix)
        if not isinstance(known, dict) or known.get("inputs") != inputs or not volume_store.enabled:
            return None
        if not LastSite.load(volume_store, self.staging.out_dir / member.prefix).intact():
            return None  # a file of its published folder was edited or removed since
        if not self.staging.carry(member.prefix):
            return None
        entry = from_json(member.prefix, known)
        self._listed(entry, self._published_records(entry), known)
        if self.newest is None or entry.sort_key > self.newest[0].sort_key:
            self.newest = (entry, [])
        self.unsaid[member.prefix] = known.get("said", [])
        self.undated[member.prefix] = known.get("undated", 0)
        return known

    def add(self, member: Member, volume: Volume, papers: list[RenderedPaper], files: Iterable[str],
            inputs: str = "", said: Iterable[Diagnostic] = ()) -> None:
        """A volume just built: listed, its records written out, kept for the feed if it is the newest."""
        entry = SeriesVolume.of(member.prefix, volume, papers, files)
        undated = volume.undated(papers)
        record = {"inputs": inputs, "said": [d.to_record() for d in said],
                  "files": len(list(files)), "undated": undated}
        self.undated[member.prefix] = undated
        self._listed(entry, series_records(entry, (paper_record(p) for p in papers)), record)
        if self.newest is None or entry.sort_key > self.newest[0].sort_key:
            self.newest = (entry, papers)

    def carried(self, member: Member) -> None:
        """A volume that failed to build, its last build carried over: listed as it was last built."""
        known = self.known.get(member.prefix)
        if not isinstance(known, dict) or not (self.staging.path / member.prefix / "papers.json").is_file():
            return
        entry = from_json(member.prefix, known)
        self.undated[member.prefix] = known.get("undated", 0)
        self._listed(entry, self._published_records(entry), {**known, "inputs": ""})  # built again next time
        if self.newest is None or entry.sort_key > self.newest[0].sort_key:
            self.newest = (entry, [])

    def newest_unrendered(self) -> str | None:
        """The prefix of the newest volume when it was carried over and has a date: its feed needs its
        papers, so it must be built (None: the feed can be made)."""
        volumes = newest_first(self.volumes)
        if volumes and volumes[0].date and self.newest is not None and not self.newest[1]:
            return volumes[0].path
        return None

    def say_again(self, reporter: Reporter) -> None:
        """What the volumes carried over reported when they were built, said again (``--strict`` sees it)."""
        for said in self.unsaid.values():
            for record in said:
                try:
                    reporter.report(Diagnostic.from_record(record))
                except (TypeError, ValueError):
                    continue  # an older build's record, without a code: the volume's next build says it again
        self.unsaid = {}

    def drop(self, prefix: str) -> None:
        """Forget a volume carried over (it is about to be built after all)."""
        self.volumes = [v for v in self.volumes if v.path != prefix]
        self.seen.pop(prefix, None)
        self.unsaid.pop(prefix, None)
        self.undated.pop(prefix, None)
        self.newest = None
        for volume in newest_first(self.volumes)[:1]:
            self.newest = (volume, [])
        self.staging.clear(prefix)

    # -- the series' own files ---------------------------------------------------------------

    def finish(self, reporter: Reporter) -> tuple[list[SeriesVolume], int]:
        """The series' pages and papers.json, written into the staging folder; the volumes, newest first,
        and how many files."""
        try:
            volumes = newest_first(self.volumes)
            newest = self.newest[1] if self.newest and volumes and self.newest[0].path == volumes[0].path else None
            files = series_files(self.series, volumes, self.layout.content_dir, reporter.warn, newest,
                                 self.layout.people)
            for name, data in files.items():
                self.staging.write(name, data)
            with open(self.staging.path / "papers.json", "wb") as out:
                out.writelines(join_records(self._part(v.path) for v in volumes))
            search = self._search_files(volumes)
            for name, data in search.items():
                self.staging.write(name, data)
            if self.store.enabled:
                self.store.store_json(CACHE_KIND, self.store.key(CACHE_KIND), self.seen)
            return volumes, len(files) + 1 + len(search)
        finally:
            shutil.rmtree(self.parts, ignore_errors=True)

    def _search_files(self, volumes: list[SeriesVolume]) -> dict[str, bytes]:
        """The series' index (search/series.py) from the volumes' records, as the last build made it
        when no record moved."""
        key = [part for v in volumes for part in (v.path, self.part_digests[v.path])]
        runs = ((v.path, (json.loads(line) for line in self._part(v.path))) for v in volumes)
        return cached_series_index(self.store, key, runs)

    def _listed(self, entry: SeriesVolume, records: Iterable[bytes], record: dict) -> None:
        self.volumes.append(entry)
        hasher = hashlib.blake2b(digest_size=20)  # what the series' index is made of, told as it is written
        with open(self.parts / _part_name(entry.path), "wb") as part:
            for line in records:
                part.write(line + b"\n")
                hasher.update(line + b"\n")
        self.part_digests[entry.path] = hasher.hexdigest()
        self.seen[entry.path] = {**record, **to_json(entry)}

    def _published_records(self, entry: SeriesVolume) -> Iterable[bytes]:
        published = self.staging.path / entry.path / "papers.json"
        return series_records(entry, json.loads(published.read_text(encoding="utf-8")))

    def _part(self, prefix: str) -> Iterable[bytes]:
        with open(self.parts / _part_name(prefix), "rb") as part:
            for line in part:
                yield line.rstrip(b"\n")


def _part_name(prefix: str) -> str:
    return digest(prefix) + ".jsonl"  # a folder's name may be anything a file system allows


def _files(folder: Path) -> list[Path]:
    """Every file of a volume's folder but its build cache, in name order."""
    found = []
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d != CACHE_FOLDER)
        found += [Path(root) / name for name in sorted(names)]
    return found


def to_json(volume: SeriesVolume) -> dict:
    return {"title": volume.title, "description": volume.volume.description, "date": volume.date,
            "year": volume.year, "sitemaps": list(volume.sitemaps), "number": volume.number, "venue": volume.venue,
            "papers": [[p.id, p.url, p.title, p.year, [[a.name, a.affiliation, a.orcid, a.id] for a in p.authors],
                        p.page] for p in volume.papers]}


def from_json(path: str, data: dict) -> SeriesVolume:
    volume = Volume(data["title"], data["description"], date=volume_date(data["date"]))
    papers = tuple(Listing(id_, url, title, tuple(Author(*author) for author in authors), year, page)
                   for id_, url, title, year, authors, page in data["papers"])
    return SeriesVolume(path, volume, papers, data["year"], tuple(data["sitemaps"]), data["number"], data["venue"])
