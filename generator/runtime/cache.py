"""The build cache: work a previous build did, kept for a build whose inputs are the same.

A warm rebuild of unchanged papers would spend most of its time redoing work whose inputs did not move: rendering
abstracts, relating papers, building the search index. This cache keeps the results of the last build in
``<content>/.proceedings-cache/`` (beside the pages, never in the site; it ignores itself for git) and hands them
back when the inputs match.

It can never make a wrong site:

* every entry is keyed by a digest of *all* its inputs, and every key includes a digest of the generator's own
  source code, the versions of the libraries that shape the output, and the Python version, so an edit to the
  renderer or an upgrade is a miss, not a stale hit;
* every entry file carries a digest of its payload, checked on reading: a truncated or altered file is a miss (and
  is removed). The digest is keyed with a secret of this user's (``cache-key`` in ``$XDG_CACHE_HOME/proceedings/``,
  never in the content folder), so a cache that came with someone else's content folder — committed, or forged to
  publish its own HTML — is a miss too: only a cache this user's builds wrote is trusted (runtime/sealed.py);
* entries are plain JSON or bytes, never pickles: a cache that came with someone else's content folder cannot run
  code;
* a cache that cannot be read or written (read-only folder, disk full) is a miss and never fails the build.

Each kind of entry keeps only its latest key, so the folder does not grow. No step holds a large entry as one
string: the rendered abstracts (JSON that ``json`` would hold several times over while reading it) are split into up
to 256 shard files read only when a record of theirs is asked for, and the search index is written and read in
chunks. ``proceedings build --no-cache`` neither reads nor writes it; deleting the folder is always safe.
"""

from __future__ import annotations

import hashlib
import json
import platform
from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import chain
from importlib import metadata
from pathlib import Path
from typing import Any

import orjson

from generator.runtime.cache_writes import EntryWrite, LaterWrites
from generator.runtime.sealed import (FORMAT, copy_checked, copy_in, header_of, key_file, read_checked, remove,
                                       secret_key, write_atomically, write_pieces)

CACHE_DIR = ".proceedings-cache"
# Libraries whose version can change a byte of the site.
_LIBRARIES = ("markdown-it-py", "mdit-py-plugins", "latex2mathml", "pylatexenc", "lunr", "Jinja2", "MarkupSafe",
              "PyYAML", "mkdocs", "Babel")
_GENERATOR = Path(__file__).resolve().parent.parent  # the whole package
_README = (b"This folder is a cache of proceedings builds (rendered abstracts, related papers, the search\n"
           b"index). Deleting it is always safe; `proceedings build --no-cache` ignores it.\n")


DIGEST_SIZE = 20  # bytes of a digest (``digest``'s hex is twice as long)


def digest(*parts: str | bytes) -> str:
    """A hex digest of the parts, each length-prefixed so that ("ab", "c") ≠ ("a", "bc")."""
    # one call: a warm build makes 7 a paper
    return hashlib.blake2b(b"".join(map(framed, parts)), digest_size=DIGEST_SIZE).hexdigest()


def framed_digest(framed_parts: bytes) -> bytes:
    """``digest`` of parts already ``framed`` and joined, as bytes (``bytes.fromhex`` of ``digest``'s)."""
    return hashlib.blake2b(framed_parts, digest_size=DIGEST_SIZE).digest()


def framed(part: str | bytes) -> bytes:
    """A part as ``digest`` hashes it: its length (8 bytes, little-endian), then its bytes. Where digests are
    made of the same parts many times over (pipeline/reuse.py), each part is framed once."""
    data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
    return len(data).to_bytes(8, "little") + data


def digest_of(parts: Iterable[str | bytes]) -> str:
    """``digest(*parts)``, the parts read one at a time: for many large ones (a volume's texts), which it
    neither holds all at once nor joins."""
    made = hashlib.blake2b(digest_size=DIGEST_SIZE)
    for part in parts:
        made.update(framed(part))
    return made.hexdigest()


@lru_cache(maxsize=1)
def code_digest() -> str:
    """The generator's source and theme-independent dependencies: what every key starts from."""
    parts: list[str | bytes] = [str(FORMAT), platform.python_version()]
    for name in _LIBRARIES:
        try:
            parts.append(f"{name}={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            parts.append(f"{name}=none")
    for path in sorted(_GENERATOR.rglob("*")):
        if path.is_file() and path.suffix in (".py", ".yaml", ".json", ".txt", ".po"):
            parts += [path.relative_to(_GENERATOR).as_posix(), path.read_bytes()]
    return digest(*parts)


class BuildCache:
    """Digest-keyed entries in one folder; ``BuildCache(None)`` is a cache that always misses."""

    def __init__(self, folder: Path | None):
        # Without the user's secret no entry could be told from a forged one: no cache at all.
        self.folder = folder if secret_key(key_file()) is not None else None
        self.hits: list[str] = []
        self.misses: list[str] = []
        self.later = LaterWrites()  # entries saved ``later`` (runtime/cache_writes.py): ``aside``, ``settle``

    @classmethod
    def for_content(cls, content_dir: Path, enabled: bool = True) -> BuildCache:
        return cls(content_dir / CACHE_DIR if enabled else None)

    @property
    def enabled(self) -> bool:
        return self.folder is not None

    def key(self, *parts: str | bytes) -> str:
        return digest(code_digest(), *parts)

    def key_of(self, parts: Iterable[str | bytes]) -> str:
        """``key(*parts)``, the parts read one at a time (a volume's texts: never all held at once)."""
        return digest_of(chain([code_digest()], parts))

    # -- bytes ------------------------------------------------------------------
    def load_bytes(self, kind: str, key: str) -> bytes | None:
        self.later.settle(kind)
        data = self._read(self._path(kind, key))
        (self.hits if data is not None else self.misses).append(kind)
        return data

    def store_bytes(self, kind: str, key: str, data: bytes) -> None:
        if self.folder is not None:
            self._store(kind, key, lambda target: write_atomically(target, header_of(data), data))

    # -- large files, in chunks ---------------------------------------------------
    def copy_out(self, kind: str, key: str, target: Path) -> bool:
        """Copy an entry's bytes to ``target`` without holding them in memory; False (and
        nothing written) when the entry is missing or damaged."""
        self.later.settle(kind)
        found = self.folder is not None and copy_checked(self._path(kind, key), target)
        (self.hits if found else self.misses).append(kind)
        return found

    def store_file(self, kind: str, key: str, source: Path) -> None:
        """Keep the bytes of the file ``source`` as an entry, read in chunks."""
        if self.folder is not None:
            self._store(kind, key, lambda target: copy_in(source, target))

    def store_pieces(self, kind: str, key: str, pieces: Iterable[bytes], size: int) -> None:
        """Keep ``size`` bytes given in ``pieces`` as an entry (as ``store_bytes``), each written as it comes."""
        if self.folder is not None:
            self._store(kind, key, lambda target: write_pieces(target, pieces, size))

    # -- JSON -------------------------------------------------------------------
    def load_json(self, kind: str, key: str) -> Any:
        data = self.load_bytes(kind, key)
        if data is None:
            return None
        try:
            return json_loads(data)
        except ValueError:  # cannot happen with a checked digest, unless our own writer was wrong
            self.hits.pop()
            self.misses.append(kind)
            return None

    def store_json(self, kind: str, key: str, value: Any, plain: bool = False) -> None:
        """``plain``: the caller knows ``value`` holds no NaN or infinite number (``_json_bytes``)."""
        if self.folder is not None:
            self.store_bytes(kind, key, _json_bytes(value, plain))

    # -- files --------------------------------------------------------------------
    def _path(self, kind: str, key: str) -> Path:
        assert self.folder is not None
        return self.folder / f"{kind}-{key}"

    def _store(self, kind: str, key: str, write: Any) -> None:
        """Write one entry with ``write(path)`` and drop the kind's other entries."""
        self.later.settle(kind)
        try:
            self._prepare()
            target = self._path(kind, key)
            write(target)
            self.drop_others(kind, target)
        except OSError:
            pass  # a cache that cannot be written is only slower

    def drop_others(self, kind: str, keep: Path) -> None:
        """One entry per kind: the latest (a file, or a folder of shards)."""
        assert self.folder is not None
        for other in self.folder.glob(f"{kind}-*"):
            if other != keep:
                remove(other)

    def _read(self, path: Path) -> bytes | None:
        return read_checked(path) if self.folder is not None else None

    def _prepare(self) -> None:
        assert self.folder is not None
        self.folder.mkdir(parents=True, exist_ok=True)
        for name, text in ((".gitignore", b"*\n"), ("README", _README),
                           ("CACHEDIR.TAG", b"Signature: 8a477f597d28d172789f06886806bc55\n")):
            if not (self.folder / name).exists():
                write_atomically(self.folder / name, text)


def _json_bytes(value: Any, plain: bool = False) -> bytes:
    """Compact UTF-8 JSON. A cache entry is ours alone, so its bytes need not be ``json``'s: a ``plain`` value
    (no NaN or infinity, which orjson would write as null) goes through orjson, in C and several times faster,
    and reads back the same; what orjson refuses (a number past 64 bits, a key that is not a string) through
    ``json``."""
    if plain:
        try:
            return orjson.dumps(value)
        except TypeError:  # orjson.JSONEncodeError
            pass
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def json_loads(data: bytes) -> Any:
    """JSON read by orjson, or by ``json`` what orjson refuses that ``json`` wrote (NaN, a lone surrogate)."""
    try:
        return orjson.loads(data)
    except ValueError:  # orjson.JSONDecodeError
        return json.loads(data)


class EntryCache:
    """One cache entry holding many small records, each under its own digest (rendered abstracts).

    The entry is a folder of up to 256 shard files (by the first byte of a digest of the record
    key), each a checksummed JSON object read the first time one of its records is asked for:
    no step holds the whole entry as one string. ``get`` and ``put`` work in memory; ``save``
    writes the records this build used (and only those, so the entry does not grow), rewriting
    only the shards whose records changed, and forgets them all. ``take`` is ``get`` for a record the
    caller keeps as its own: the entry lets it go at once (a large volume's records are a hundred MB that a
    warm build reads once and rewrites none of), and reads it again from its shard's file if that shard
    must be written.
    """

    def __init__(self, cache: BuildCache, kind: str, *key_parts: str, plain: bool = False, later: bool = False):
        self.cache, self.kind = cache, kind
        self.plain = plain  # no record holds NaN or infinity (``_json_bytes``)
        self.later = later  # ``save`` leaves the files to ``cache.later`` (a pipeline's stage: it settles them)
        self.key = cache.key(kind, *key_parts)
        self._found: dict[str, dict[str, Any]] = {}  # shard → its records on disk, once read
        self._used: dict[str, dict[str, Any]] = {}  # shard → the records this build used or made
        self._sizes: dict[str, int] = {}  # shard → how many records its file held when read
        self._changed: set[str] = set()

    @property
    def folder(self) -> Path | None:
        return self.cache._path(self.kind, self.key) if self.cache.enabled else None

    def get(self, record_key: str) -> Any:
        shard = _shard(record_key)
        value = self._shard_records(shard).get(record_key)
        if value is None and self._used.get(shard, {}).get(record_key) is _TAKEN:
            return self._load(shard).get(record_key)  # taken before: its file still has it
        if value is not None:
            self._used.setdefault(shard, {})[record_key] = value
        return value

    def take(self, record_key: str) -> Any:
        """``get``'s record, which the entry then holds no more: the caller's own to keep or change."""
        shard = _shard(record_key)
        value = self._shard_records(shard).pop(record_key, None)
        if value is None and self._used.get(shard, {}).get(record_key) is _TAKEN:
            return self._load(shard).get(record_key)  # taken twice (two entries of the same text)
        if value is not None:
            self._used.setdefault(shard, {})[record_key] = _TAKEN
        return value

    def take_each(self, record_keys: Iterable[str]) -> Iterator[tuple[str, Any]]:
        """``take`` of each key (None: not kept), a shard at a time: in the callers' order a large volume's keys fell in
        every shard within the first few hundred, and all the records were held until taken (150 MB at 50,000)."""
        for record_key in sorted(record_keys, key=_shard):  # (stable: the callers' order within a shard)
            yield record_key, self.take(record_key)

    def keep(self, record_key: str) -> None:
        """The record is this build's, taken later or never: ``save`` keeps it (a shard only kept is left as it is)."""
        self._used.setdefault(_shard(record_key), {}).setdefault(record_key, _TAKEN)

    def _shard_records(self, shard: str) -> dict[str, Any]:
        found = self._found.get(shard)
        if found is None:
            found = self._found[shard] = self._load(shard)
            self._sizes[shard] = len(found)
        return found

    def put(self, record_key: str, value: Any) -> None:
        shard = _shard(record_key)
        self._used.setdefault(shard, {})[record_key] = value
        self._changed.add(shard)

    def save(self) -> None:
        """Each shard written as it is made; ``later``: left to ``cache.later`` (runtime/cache_writes.py), its bytes
        made now, as many as ``LaterWrites.room`` holds (a large volume's entries are not held whole)."""
        folder = self.folder
        if folder is not None:
            self.cache.later.settle(self.kind)
            try:
                room, held = self.cache.later.room() if self.later else 0, []
                for name, data in self._shards(folder):
                    if len(data) <= room:
                        held.append((name, data))
                        room -= len(data)
                    else:
                        write_atomically(folder / name, header_of(data), data)
                if held:  # (the child drops the kind's other entries once it has written them)
                    self.cache.later.keep(EntryWrite(self.kind, folder, tuple(held), self.cache.drop_others))
                else:
                    self.cache.drop_others(self.kind, folder)
            except OSError:  # a cache that cannot be written is only slower
                pass
        self._found, self._used, self._sizes, self._changed = {}, {}, {}, set()

    def _load(self, shard: str) -> dict[str, Any]:
        folder = self.folder
        self.cache.later.settle(self.kind)
        data = read_checked(folder / shard) if folder is not None else None
        try:
            found = json_loads(data) if data is not None else None
        except ValueError:  # cannot happen with a checked digest, unless our own writer was wrong
            found = None
        return found if isinstance(found, dict) else {}

    def _shards(self, folder: Path) -> Iterator[tuple[str, bytes]]:
        """The folder made and rid of shards no record of this build is in; each shard to write, with its bytes."""
        self.cache._prepare()
        if folder.is_file() or folder.is_symlink():
            folder.unlink()
        folder.mkdir(exist_ok=True)
        for path in folder.iterdir():  # shards no record of this build is in
            if path.name not in self._used:
                remove(path)
        for shard, used in self._used.items():
            if shard not in self._changed and shard not in self._sizes:
                continue  # kept, never read (``keep``): its file holds every record this build took from it
            if shard in self._changed or len(used) != self._sizes.get(shard, 0):
                if any(value is _TAKEN for value in used.values()):  # taken: read again from the file, as used
                    on_disk = self._load(shard)
                    used = {key: on_disk[key] if value is _TAKEN else value for key, value in used.items()
                            if value is not _TAKEN or key in on_disk}
                yield shard, _json_bytes(used, self.plain)


_TAKEN = object()  # a record used as its shard's file holds it, taken by the caller (``EntryCache.take``)


def _shard(record_key: str) -> str:
    return hashlib.blake2b(record_key.encode("utf-8", "surrogatepass"), digest_size=1).hexdigest()
