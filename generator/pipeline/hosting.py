"""What the hosts a site is published on accept, checked on the staged site before it is swapped in.

GitHub Pages refuses a published site over 1 GB; Cloudflare Pages takes at most 20,000 files in
one deployment. A build that comes near either says so, with the parts that weigh most and what
would make them lighter, so that the limit is not first met by a failed deployment.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

SITE_BYTES = 1_000_000_000  # GitHub Pages: "Published GitHub Pages sites may be no larger than 1 GB"
SITE_FILES = 20_000  # Cloudflare Pages: files in one deployment (GitHub Pages sets no count)
NEAR = 0.8  # a site at 80% of a limit is warned about: the next volume or a few more papers reach it

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
    bytes: int
    files: int
    parts: Counter  # top-level name → bytes under it

    def heaviest(self, count: int = 3) -> list[tuple[str, int]]:
        return self.parts.most_common(count)


def site_size(folder: Path) -> SiteSize:
    """Bytes and files under ``folder`` (a hard-linked file counts in full: a host stores every copy)."""
    total = files = 0
    parts: Counter = Counter()
    for top, _dirs, names in os.walk(folder):
        part = Path(top).relative_to(folder).parts
        for name in names:
            size = os.stat(os.path.join(top, name), follow_symlinks=False).st_size
            total, files = total + size, files + 1
            parts[part[0] if part else name] += size
    return SiteSize(total, files, parts)


def host_warnings(size: SiteSize) -> list[str]:
    """A warning for each host limit the site is near or past, saying what to make lighter."""
    found = []
    if size.bytes >= NEAR * SITE_BYTES:
        heavy = ", ".join(f"{name} {_size(weight)}" for name, weight in size.heaviest())
        advice = "; ".join(LIGHTER[name] for name, _ in size.heaviest() if name in LIGHTER)
        found.append(f"the site is {_size(size.bytes)}, {'past' if size.bytes > SITE_BYTES else 'near'} "
                     f"GitHub Pages' limit of {_size(SITE_BYTES)} for a published site; heaviest: {heavy}"
                     + (f"; {advice}" if advice else ""))
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
