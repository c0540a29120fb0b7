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
import sys
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path

from generator.runtime.cache import DIGEST_SIZE, BuildCache, digest, digest_of, framed, framed_digest
from generator.runtime.cache_records import paper_key
from generator.runtime.kept import KeptByIdentity
from generator.model.paper import RenderedPaper
from generator.render.outputs import Ids
from generator.render.theme import Theme, theme_files

KIND = "site"
Digests = Callable[[], "Inputs"]  # each output's input digest, worked out when asked


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


def site_digest(*shared: str, shape: dict[str, Ids | None], papers: Sequence[RenderedPaper]) -> str:
    """What every page may show beyond its own papers: the ``shared`` inputs (theme, config, volume,
    the templates' shared context), which files exist and which papers each shows, and the papers'
    order (their numbers). The generator's code is in the key the record is kept under (``_key``).
    Digested a file at a time (``digest_of``): a large volume's layout, joined, was tens of MB, twice."""
    layout = (f"{path}\0{'*' if deps is None else ','.join(sorted(deps))}" for path, deps in shape.items())
    return digest_of(chain(shared, layout, ["\0".join(p.paper.id for p in papers)]))


@dataclass(frozen=True)
class Inputs:
    """Each listed output's digest of its inputs (``input_digests``), in the listing's order: the outputs' own
    names, and the digests as one bytes object, ``DIGEST_SIZE`` each. (A dict of hex strings beside the last
    site's record read as JSON dicts was, for a 50,000-paper volume's 165,000 files, 100 MB and more at the
    warm build's peak.)"""

    names: list[str]
    digests: bytes

    def __len__(self) -> int:
        return len(self.names)

    def digest(self, index: int) -> bytes:
        return self.digests[index * DIGEST_SIZE:(index + 1) * DIGEST_SIZE]

    def as_dict(self) -> dict[str, str]:
        """Name → hex digest (tests)."""
        return {name: self.digest(index).hex() for index, name in enumerate(self.names)}


def input_digests(site: str, outputs: Iterable, papers: Sequence[RenderedPaper],
                  related: dict[str, tuple[str, ...]]) -> Inputs:
    """Each output's digest of its inputs: the site's, and its papers' (their related papers included).
    Each is ``digest(site, *its papers' digests)``, made of those parts as ``digest`` frames them, each framed
    once: a paper shows on a few files each, and framing its digest again for each was most of the work."""
    per_paper = {p.paper.id: digest(paper_key(p.paper), *related.get(p.paper.id, ())) for p in papers}
    each = {key: framed(value) for key, value in per_paper.items()}
    head, missing = framed(site), framed("")
    every = framed_digest(head + b"".join(each.values()))
    names: list[str] = []
    made = bytearray()
    for output in outputs:
        names.append(output.path)
        made += every if output.deps is None else framed_digest(
            head + b"".join([each.get(key, missing) for key in sorted(output.deps)]))
    return Inputs(names, bytes(made))


_RECORD = b"proceedings site record 1\n"  # then the count of files, the names' length; names, digests, identities
_ID = 3  # an identity's numbers: inode, size, modification time in nanoseconds


@dataclass
class LastSite:
    """What the cache recorded of the site last built into ``out_dir``: each file's name (UTF-8, each ended by
    a NUL), its input digest (``DIGEST_SIZE`` bytes) and its identity after the swap (``_ID`` numbers), as three
    flat blocks in one entry of bytes: a large volume's record is read into three objects, not a dict of 165,000
    names to digests and another to lists of numbers. The names and digests are read in place in the record's
    bytes (``data``, from ``names`` to ``inputs`` and on), not copied out of it."""

    out_dir: Path
    data: bytes = b""
    names: int = 0  # where the names start in ``data``
    inputs: int = 0  # where the names end and the digests start
    count: int = 0
    identities: array = field(default_factory=lambda: array("q"))

    @classmethod
    def load(cls, store: BuildCache, out_dir: Path) -> LastSite:
        data = store.load_bytes(KIND, _key(store, out_dir)) if store.enabled else None
        return cls.read(out_dir, data or b"")

    @classmethod
    def read(cls, out_dir: Path, data: bytes) -> LastSite:
        """The record in ``data`` (``_record``'s bytes); an empty one for bytes of another shape."""
        head = len(_RECORD) + 16
        if not data.startswith(_RECORD) or len(data) < head:
            return cls(out_dir)
        count = int.from_bytes(data[len(_RECORD):len(_RECORD) + 8], "little")
        size = int.from_bytes(data[len(_RECORD) + 8:head], "little")
        ends = head + size + count * DIGEST_SIZE
        if len(data) - head - size != count * (DIGEST_SIZE + 8 * _ID) or data.count(b"\0", head, head + size) != count:
            return cls(out_dir)
        identities = array("q")
        identities.frombytes(memoryview(data)[ends:])
        if sys.byteorder == "big":
            identities.byteswap()
        return cls(out_dir, data, head, head + size, count, identities)

    def __len__(self) -> int:
        return self.count

    def _names(self) -> Iterator[str]:
        start = self.names
        while start < self.inputs:
            end = self.data.index(b"\0", start)
            yield self.data[start:end].decode("utf-8", "surrogatepass")
            start = end + 1

    def _same_names(self, names: list[str]) -> bool:
        """Whether the record names these files in this order (read in place: no copy of every name joined)."""
        if len(names) != self.count:
            return False
        start = self.names
        for name in names:
            encoded = name.encode("utf-8", "surrogatepass") + b"\0"
            if not self.data.startswith(encoded, start):
                return False
            start += len(encoded)
        return start == self.inputs

    def digest(self, at: int) -> bytes:
        start = self.inputs + at * DIGEST_SIZE
        return self.data[start:start + DIGEST_SIZE]

    def identity(self, at: int) -> tuple[int, ...]:
        return tuple(self.identities[at * _ID:(at + 1) * _ID])

    def unchanged(self, inputs: Inputs) -> Iterator[tuple[int, int]]:
        """Each of ``inputs``' files (its place there) that the site holds as made from the same inputs and not
        touched since, with its place in the record. Read in the record's order; a listing of the same files in
        the same order (a warm build's) needs no lookup by name."""
        if self._same_names(inputs.names):
            places: Iterable[tuple[int, int]] = ((at, at) for at in range(len(inputs)))
        else:
            where = {name: index for index, name in enumerate(inputs.names)}
            places = ((where[name], at) for at, name in enumerate(self._names()) if name in where)
        for index, at in places:
            if self.digest(at) != inputs.digest(index):
                continue
            if _identity(os.path.join(self.out_dir, inputs.names[index])) == self.identity(at):
                yield index, at

    def intact(self) -> bool:
        """Whether every file recorded is on disk as the build that recorded it left it."""
        return len(self) > 0 and all(_identity(os.path.join(self.out_dir, name)) == self.identity(at)
                                     for at, name in enumerate(self._names()))

    @staticmethod
    def save(store: BuildCache, out_dir: Path, inputs: Inputs, last: LastSite | None = None,
             at: array | None = None) -> None:
        """Record the site just published: each file's inputs and identity. ``at``: for each of ``inputs``' files
        this build hard-linked from the ``last`` site, its place in that record (else -1): the same inode, size and
        time, not asked again."""
        if not store.enabled:
            return
        names, digests, identities = [], bytearray(), array("q")
        for index, name in enumerate(inputs.names):
            place = at[index] if at is not None else -1
            found = last.identity(place) if last is not None and place >= 0 else _identity(os.path.join(out_dir, name))
            if found is not None:
                names.append(name)
                digests += inputs.digest(index)
                identities.extend(found)
        store.store_bytes(KIND, _key(store, out_dir), _record(names, bytes(digests), identities))


def _joined(names: list[str]) -> bytes:
    return "".join(f"{name}\0" for name in names).encode("utf-8", "surrogatepass")


def _record(names: list[str], digests: bytes, identities: array) -> bytes:
    joined = _joined(names)
    if sys.byteorder == "big":
        identities.byteswap()
    return b"".join((_RECORD, len(names).to_bytes(8, "little"), len(joined).to_bytes(8, "little"), joined, digests,
                     identities.tobytes()))


def _key(store: BuildCache, out_dir: Path) -> str:
    return store.key(KIND, str(out_dir.resolve()))


def _identity(path: str) -> tuple[int, ...] | None:
    try:
        info = os.lstat(path)
    except OSError:
        return None
    return info.st_ino, info.st_size, info.st_mtime_ns
