"""What the hosts a site is published on accept, checked on the staged site before it is swapped in.

GitHub Pages refuses a published site over 1 GB; Cloudflare Pages takes at most 20,000 files in
one deployment. A build that comes near either says so, with the parts and the kinds of file that
weigh most and what would make them lighter, so that the limit is not first met by a failed deployment.

A site's size is counted as ``du -s`` counts it (issue 43): the blocks the file system gives each file
and folder, so that a small file costs a whole block (4 KB on most disks), and a file hard-linked twice
within the site once. Beside it, the bytes the files hold (``du -sb``, what an upload sends).
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

SITE_BYTES = 1_000_000_000  # GitHub Pages: "Published GitHub Pages sites may be no larger than 1 GB"
SITE_FILES = 20_000  # Cloudflare Pages: files in one deployment (GitHub Pages sets no count)
NEAR = 0.8  # a site at 80% of a limit is warned about: the next volume or a few more papers reach it
BLOCK = 512  # the unit of st_blocks (POSIX), whatever the file system's block

# What makes each part lighter, by the part's name (a top-level file or folder of the site).
LIGHTER = {
    "papers": "the paper pages are one per paper: a series of smaller sites (one per volume, each "
              "published on its own) stays within the limit",
    "tags": "a bigger papers_per_page in proceedings.yaml makes fewer topic pages; auto_tags: never "
            "leaves out the taxonomy's topics",
    "authors": "a bigger papers_per_page in proceedings.yaml makes fewer author pages",
}


@dataclass(frozen=True)
class SiteSize:
    bytes: int  # on disk, as du -s counts (blocks allocated, folders included)
    files: int
    parts: Counter  # top-level name → bytes on disk under it
    apparent: int = 0  # the bytes the files hold (du -sb without the folders' own entries)
    kinds: Counter = field(default_factory=Counter)  # kind of file (see ``kind``) → bytes on disk
    counts: Counter = field(default_factory=Counter)  # kind of file → files

    def heaviest(self, count: int = 3) -> list[tuple[str, int]]:
        return self.parts.most_common(count)

    def heaviest_kinds(self, count: int = 3) -> list[tuple[str, int, int]]:
        """The kinds of file that weigh most: (kind, bytes on disk, files)."""
        return [(name, weight, self.counts[name]) for name, weight in self.kinds.most_common(count)]


def kind(relative: tuple[str, ...]) -> str:
    """A file's kind: its folder's name and its extension (``papers/*.html``, ``reading/*.js``), or at the
    site's top its own name (``papers.json``): a volume's files of one kind share a folder, and the volumes
    of a series share their folders' names."""
    name = relative[-1]
    if len(relative) == 1:
        return name
    return f"{relative[-2]}/*{os.path.splitext(name)[1]}"


def on_disk(stat: os.stat_result) -> int:
    """The bytes a file takes on disk: its allocated blocks (its length where the system tells none)."""
    return stat.st_blocks * BLOCK if hasattr(stat, "st_blocks") else stat.st_size


def site_size(folder: Path) -> SiteSize:
    """Bytes on disk and files under ``folder``, by top-level part and by kind of file."""
    total = files = apparent = 0
    parts: Counter = Counter()
    kinds: Counter = Counter()
    counts: Counter = Counter()
    seen: set[tuple[int, int]] = set()
    for top, _dirs, names in os.walk(folder):
        part = Path(top).relative_to(folder).parts
        weight = on_disk(os.lstat(top))  # a folder's own entry: du counts it, the site's root too
        total += weight
        if part:
            parts[part[0]] += weight
        for name in names:
            stat = os.lstat(os.path.join(top, name))
            if stat.st_nlink > 1 and (stat.st_dev, stat.st_ino) in seen:
                continue
            seen.add((stat.st_dev, stat.st_ino))
            weight, files, apparent = on_disk(stat), files + 1, apparent + stat.st_size
            total += weight
            parts[part[0] if part else name] += weight
            kinds[kind((*part, name))] += weight
            counts[kind((*part, name))] += 1
    return SiteSize(total, files, parts, apparent, kinds, counts)


def host_warnings(size: SiteSize) -> list[str]:
    """A warning for each host limit the site is near or past, saying what to make lighter."""
    found = []
    if size.bytes >= NEAR * SITE_BYTES:
        heavy = ", ".join(f"{name} {_size(weight)}" for name, weight in size.heaviest())
        kinds = ", ".join(f"{name} {_size(weight)} in {files:,} files"
                          for name, weight, files in size.heaviest_kinds())
        advice = "; ".join(LIGHTER[name] for name, _ in size.heaviest() if name in LIGHTER)
        found.append(f"the site is {_size(size.bytes)} on disk, {'past' if size.bytes > SITE_BYTES else 'near'} "
                     f"GitHub Pages' limit of {_size(SITE_BYTES)} for a published site; heaviest: {heavy}; "
                     f"heaviest kinds of file: {kinds}" + (f"; {advice}" if advice else ""))
    if size.files >= NEAR * SITE_FILES:
        found.append(f"the site has {size.files:,} files, {'past' if size.files > SITE_FILES else 'near'} "
                     f"Cloudflare Pages' limit of {SITE_FILES:,} files in one deployment (GitHub Pages and "
                     "Netlify set none); a host with such a limit needs the volume split into a series of "
                     "sites published apart")
    return found


def _size(size: float) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if size >= scale:
            return f"{size / scale:.3g} {unit}"
    return f"{size:.0f} bytes"
