"""The build cache: work a previous build did, kept for a build whose inputs are the same.

A warm rebuild of 10,000 unchanged papers spends most of its time redoing
work whose inputs did not move: rendering abstracts, relating papers,
building the search index. This cache keeps the results of the last build
in ``<content>/.proceedings-cache/`` (beside the pages, never in the site;
it ignores itself for git) and hands them back when the inputs match.

It can never make a wrong site:

* every entry is keyed by a digest of *all* its inputs, and every key
  includes a digest of the generator's own source code, the versions of the
  libraries that shape the output, and the Python version, so an edit to the
  renderer or an upgrade is a miss, not a stale hit;
* every entry file carries a digest of its payload, checked on reading: a
  truncated or altered file is a miss (and is removed);
* entries are plain JSON or bytes, never pickles: a cache that came with
  someone else's content folder cannot run code;
* a cache that cannot be read or written (read-only folder, disk full) is
  a miss and never fails the build.

Each kind of entry keeps only its latest key, so the folder does not grow.
``proceedings build --no-cache`` neither reads nor writes it; deleting the
folder is always safe.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import platform
import tempfile
from functools import lru_cache
from importlib import metadata
from pathlib import Path, PurePath
from typing import Any

CACHE_DIR = ".proceedings-cache"
FORMAT = 1
_MAGIC = b"proceedings-cache"
# Libraries whose version can change a byte of the site.
_LIBRARIES = ("markdown-it-py", "mdit-py-plugins", "latex2mathml", "pylatexenc", "lunr", "Jinja2", "MarkupSafe",
              "PyYAML", "mkdocs")
_GENERATOR = Path(__file__).resolve().parent
_README = (b"This folder is a cache of proceedings builds (rendered abstracts, related papers, the search\n"
           b"index). Deleting it is always safe; `proceedings build --no-cache` ignores it.\n")


def digest(*parts: str | bytes) -> str:
    """A hex digest of the parts, each length-prefixed so that ("ab", "c") ≠ ("a", "bc")."""
    hasher = hashlib.blake2b(digest_size=20)
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        hasher.update(len(data).to_bytes(8, "little"))
        hasher.update(data)
    return hasher.hexdigest()


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
        if path.is_file() and path.suffix in (".py", ".yaml", ".json", ".txt"):
            parts += [path.relative_to(_GENERATOR).as_posix(), path.read_bytes()]
    return digest(*parts)


class BuildCache:
    """Digest-keyed entries in one folder; ``BuildCache(None)`` is a cache that always misses."""

    def __init__(self, folder: Path | None):
        self.folder = folder
        self.hits: list[str] = []
        self.misses: list[str] = []

    @classmethod
    def for_content(cls, content_dir: Path, enabled: bool = True) -> BuildCache:
        return cls(content_dir / CACHE_DIR if enabled else None)

    @property
    def enabled(self) -> bool:
        return self.folder is not None

    def key(self, *parts: str | bytes) -> str:
        return digest(code_digest(), *parts)

    # -- bytes ------------------------------------------------------------------

    def load_bytes(self, kind: str, key: str) -> bytes | None:
        data = self._read(self._path(kind, key))
        (self.hits if data is not None else self.misses).append(kind)
        return data

    def store_bytes(self, kind: str, key: str, data: bytes) -> None:
        if self.folder is None:
            return
        try:
            self._prepare()
            target = self._path(kind, key)
            header = b"%s %d %s\n" % (_MAGIC, FORMAT, digest(data).encode())
            _write_atomically(target, header, data)
            for other in self.folder.glob(f"{kind}-*"):  # one entry per kind: the latest
                if other != target:
                    other.unlink(missing_ok=True)
        except OSError:
            pass  # a cache that cannot be written is only slower

    # -- JSON -------------------------------------------------------------------

    def load_json(self, kind: str, key: str) -> Any:
        data = self.load_bytes(kind, key)
        if data is None:
            return None
        try:
            return json.loads(data)
        except ValueError:  # cannot happen with a checked digest, unless our own writer was wrong
            self.hits.pop()
            self.misses.append(kind)
            return None

    def store_json(self, kind: str, key: str, value: Any) -> None:
        if self.folder is not None:
            self.store_bytes(kind, key, json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())

    # -- files --------------------------------------------------------------------

    def _path(self, kind: str, key: str) -> Path:
        assert self.folder is not None
        return self.folder / f"{kind}-{key}"

    def _read(self, path: Path | None) -> bytes | None:
        if self.folder is None:
            return None
        try:
            with open(path, "rb") as handle:
                header = handle.readline(200)
                data = handle.read()
        except OSError:
            return None
        fields = header.split()
        if len(fields) != 3 or fields[0] != _MAGIC or fields[1] != str(FORMAT).encode() \
                or fields[2] != digest(data).encode():
            path.unlink(missing_ok=True)  # damaged: never trusted, never read again
            return None
        return data

    def _prepare(self) -> None:
        assert self.folder is not None
        self.folder.mkdir(parents=True, exist_ok=True)
        for name, text in ((".gitignore", b"*\n"), ("README", _README),
                           ("CACHEDIR.TAG", b"Signature: 8a477f597d28d172789f06886806bc55\n")):
            if not (self.folder / name).exists():
                _write_atomically(self.folder / name, text)


def _write_atomically(path: Path, *chunks: bytes) -> None:
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            for chunk in chunks:
                handle.write(chunk)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


class EntryCache:
    """One cache entry holding many small records, each under its own digest (rendered abstracts).

    ``get`` and ``put`` work in memory; ``save`` writes the records this build used (and only
    those, so the entry does not grow), and writes nothing when every record was found.
    """

    def __init__(self, cache: BuildCache, kind: str, *key_parts: str):
        self.cache, self.kind = cache, kind
        self.key = cache.key(kind, *key_parts)
        found = cache.load_json(kind, self.key) if cache.enabled else None
        self._found: dict[str, Any] = found if isinstance(found, dict) else {}
        self._used: dict[str, Any] = {}
        self._changed = False

    def get(self, record_key: str) -> Any:
        value = self._found.get(record_key)
        if value is not None:
            self._used[record_key] = value
        return value

    def put(self, record_key: str, value: Any) -> None:
        self._used[record_key] = value
        self._changed = True

    def save(self) -> None:
        if self._changed or len(self._used) != len(self._found):
            self.cache.store_json(self.kind, self.key, self._used)
        self._found = {}


# -- rendered papers as cache records ----------------------------------------------

def paper_key(paper: Any) -> str:
    """A paper's record key: every field of it, so any edit is a miss. Of its page file, only the
    name counts: the same content folder given as ``content`` or as an absolute path is one cache."""
    values = [getattr(paper, name) for name in _field_names(type(paper))]
    return digest(repr([value.name if isinstance(value, PurePath) else value for value in values]))


@lru_cache(maxsize=None)
def _field_names(kind: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(kind))


def rendered_record(rendered: Any, diagnostics: list) -> dict | None:
    """A RenderedPaper (less its Paper) and the problems found rendering it, as JSON; None if not plain text."""
    values = {f.name: getattr(rendered, f.name) for f in dataclasses.fields(rendered) if f.name != "paper"}
    problems = [[d.level, d.message, d.path, d.line] for d in diagnostics]
    if not all(isinstance(v, str) for v in values.values()) \
            or not all(isinstance(p, (str, type(None))) for _, _, p, _ in problems):
        return None
    return {"fields": values, "problems": problems}


def from_rendered_record(paper: Any, record: Any, rendered_type: type, diagnostic_type: type) -> tuple | None:
    """(RenderedPaper, diagnostics) again from a record, or None when the record does not fit the type."""
    try:
        names = {f.name for f in dataclasses.fields(rendered_type)} - {"paper"}
        fields = record["fields"]
        if set(fields) != names:
            return None  # RenderedPaper gained or lost a field since: render again
        return (rendered_type(paper=paper, **fields),
                [diagnostic_type(level, message, path, line) for level, message, path, line in record["problems"]])
    except (TypeError, KeyError, ValueError):
        return None
