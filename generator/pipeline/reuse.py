"""Keeping the files of the last built site whose inputs did not move.

A warm build of unchanged papers used to render every page again to write the same
bytes. Now each output gets a digest of everything it is made from (``input_digests``): the
site-wide inputs (generator code, theme files, config, volume, what every page shares, the site's
shape and the papers' order) and the records of the papers it shows (``Output.deps``) with their
related papers. After a build the cache keeps, for that output folder, each file's digest and its
identity on disk (inode, size, modification time); the next build into the same folder hard-links a
file whose digest and identity are both unchanged instead of rendering it (``LastSite``).

A file edited by hand, or written by ``serve`` since, has another identity and is rendered again;
``--no-cache`` neither reads nor writes the record; a record that cannot be read is a miss.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.runtime.cache import BuildCache, digest, paper_key
from generator.runtime.kept import KeptByIdentity
from generator.model.paper import RenderedPaper
from generator.render.theme import Theme, theme_files

KIND = "site"
Digests = Callable[[], dict[str, str]]  # output name → input digest, worked out when asked


def theme_digest(theme: Theme) -> str:
    """Every template and static file of the theme (the user's and the default), by name and bytes."""
    parts: list[str | bytes] = []
    for folder in (*theme.template_dirs, *theme.static_dirs):
        parts.append(str(folder))
        for name, path, _ in theme_files(folder):
            parts += [name, _file_digest(path)]
    return digest(*parts)


def _digest_of_file(path: str) -> str:
    with open(path, "rb") as file:
        return digest(file.read())


_file_digest = KeptByIdentity(_digest_of_file)  # each theme file digested once for each state of it


def site_digest(*shared: str, shape: dict[str, frozenset[str] | None], papers: Sequence[RenderedPaper]) -> str:
    """What every page may show beyond its own papers: the ``shared`` inputs (theme, config, volume,
    the templates' shared context), which files exist and which papers each shows, and the papers'
    order (their numbers). The generator's code is in the key the record is kept under (``_key``)."""
    layout = [f"{path}\0{'*' if deps is None else ','.join(sorted(deps))}" for path, deps in shape.items()]
    return digest(*shared, *layout, "\0".join(p.paper.id for p in papers))


def input_digests(site: str, outputs: Iterable, papers: Sequence[RenderedPaper],
                  related: dict[str, tuple[str, ...]]) -> dict[str, str]:
    """Output name → digest of its inputs: the site's, and its papers' (their related papers included)."""
    per_paper = {p.paper.id: digest(paper_key(p.paper), *related.get(p.paper.id, ())) for p in papers}
    every = digest(site, *per_paper.values())
    return {output.path: every if output.deps is None
            else digest(site, *(per_paper.get(key, "") for key in sorted(output.deps)))
            for output in outputs}


@dataclass
class LastSite:
    """What the cache recorded of the site last built into ``out_dir``."""

    out_dir: Path
    inputs: dict[str, str]  # name → input digest
    identities: dict[str, list[int]]  # name → [inode, size, mtime_ns] after the swap

    @classmethod
    def load(cls, store: BuildCache, out_dir: Path) -> LastSite:
        record: Any = store.load_json(KIND, _key(store, out_dir)) if store.enabled else None
        try:
            return cls(out_dir, dict(record["inputs"]), dict(record["identities"]))
        except (TypeError, KeyError, ValueError):
            return cls(out_dir, {}, {})

    def unchanged(self, name: str, inputs: str) -> bool:
        """Whether the site's file ``name`` was made from these inputs and has not been touched since."""
        if self.inputs.get(name) != inputs:
            return False
        return _identity(os.path.join(self.out_dir, name)) == self.identities.get(name)

    def intact(self) -> bool:
        """Whether every file recorded is on disk as the build that recorded it left it."""
        return bool(self.identities) and all(_identity(os.path.join(self.out_dir, name)) == identity
                                             for name, identity in self.identities.items())

    @staticmethod
    def save(store: BuildCache, out_dir: Path, inputs: dict[str, str],
             kept: dict[str, list[int]] | None = None) -> None:
        """Record the site just published: each file's inputs and identity. ``kept``: the identities of the
        files this build hard-linked from the last site, the same inode, size and time: not asked again."""
        if not store.enabled:
            return
        kept = kept or {}
        identities = {name: found for name in inputs
                      if (found := kept.get(name) or _identity(os.path.join(out_dir, name))) is not None}
        store.store_json(KIND, _key(store, out_dir),
                         {"inputs": {name: inputs[name] for name in identities}, "identities": identities},
                         plain=True)


def _key(store: BuildCache, out_dir: Path) -> str:
    return store.key(KIND, str(out_dir.resolve()))


def _identity(path: str) -> list[int] | None:
    try:
        info = os.lstat(path)
    except OSError:
        return None
    return [info.st_ino, info.st_size, info.st_mtime_ns]

