"""Templates compiled once: kept in the process, and sealed into the user's cache folder for the next process.

jinja compiles a template's source to Python code each time an environment loads it. A build makes a new
environment, ``serve`` one each time a template changes, and every ``proceedings`` command is a new process;
compiling the bundled theme is 0.3 CPU-s. Compiled code is kept under the template's name, file and what the
compiler read of the environment, and used only for the same source (jinja's checksum).

In the user's cache folder (``$XDG_CACHE_HOME/proceedings/templates/``, never a content folder) each file is
the compiled code sealed with this user's secret (runtime/sealed.py), in a folder of this generator's code
and libraries' digest (runtime/cache.py's ``code_digest``): code that is not this user's, or was compiled by
another version, is never run. A file that cannot be read or written is compiling again, never an error.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import os
import shutil
import tempfile
import time
import weakref
from pathlib import Path
from typing import Any, Mapping

import jinja2
from jinja2.bccache import Bucket, BytecodeCache
from jinja2.utils import _PassArg

from generator.runtime.cache import code_digest
from generator.runtime.sealed import key_file, secret_key

STALE = 86_400  # seconds: another version's folder unused this long is removed when a new one is made


class _CompiledTemplates(BytecodeCache):
    """Each template compiled once per process, not once per environment: a build makes a new environment,
    and so does serve when a template changes, and compiling the theme was a quarter of a small build. And
    once per user, not once per process: what a process compiled is sealed into the user's cache folder
    (``_Stored``), where the next ``proceedings`` process finds it (the theme's 41 templates: 0.3 CPU-s).

    A compiled template is kept under its name and file and what the compiler read of the environment (its
    syntax, extensions, and each filter's and test's name and what it is passed), and used only for the same
    source (jinja's checksum): an edited template is compiled again."""

    def __init__(self) -> None:
        self._code: dict[str, tuple[str, object]] = {}
        # Each environment's part of the key, with what it was worked out from: every template an environment
        # loads asks for it, and working it out (each filter's ``_PassArg``, sorted, repr'd) was a tenth of a
        # small build; comparing what it read, object by object, is a hundredth of that.
        self._settings: weakref.WeakKeyDictionary[jinja2.Environment, tuple[tuple[object, ...], str]] = \
            weakref.WeakKeyDictionary()

    def get_bucket(self, environment: jinja2.Environment, name: str, filename: str | None, source: str) -> Bucket:
        key = self.get_cache_key(name, filename) + self._settings_key(environment)
        bucket = Bucket(environment, key, self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def _settings_key(self, environment: jinja2.Environment) -> str:
        """``_compiled_by(environment)`` as text, worked out again only when what it reads has changed."""
        read = _read_by_compiler(environment)
        known = self._settings.get(environment)
        if known is None or known[0] != read:
            known = (read, repr(_compiled_by(environment)))
            self._settings[environment] = known
        return known[1]

    def load_bytecode(self, bucket: Bucket) -> None:
        checksum, code = self._code.get(bucket.key, (None, None))
        if checksum == bucket.checksum:
            bucket.code = code  # type: ignore[assignment]  # a code object, immutable: shared as it is
            return
        stored = _STORED.read(bucket.key)
        if stored is not None:
            bucket.bytecode_from_string(stored)  # jinja's own checks: its format, Python's, the same source
            if bucket.code is not None:
                self._code[bucket.key] = (bucket.checksum, bucket.code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._code[bucket.key] = (bucket.checksum, bucket.code)
        _STORED.write(bucket.key, bucket.bytecode_to_string())


def _compiled_by(environment: jinja2.Environment) -> tuple[object, ...]:
    """What jinja's compiler reads of an environment besides the template (jinja2/compiler.py)."""
    def passed(functions: Mapping[str, Any]) -> tuple[tuple[str, object], ...]:
        return tuple(sorted((name, _PassArg.from_obj(function)) for name, function in functions.items()))

    return (_syntax(environment), environment.autoescape, environment.optimized, environment.is_async,
            environment.undefined, getattr(environment, "newstyle_gettext", None),
            tuple(sorted(environment.extensions)), passed(environment.filters), passed(environment.tests))


def _read_by_compiler(environment: jinja2.Environment) -> tuple[object, ...]:
    """The objects ``_compiled_by`` reads, as they are: equal (the same filter and test functions, the same
    settings) when its answer is the same."""
    return (_syntax(environment), environment.autoescape, environment.optimized, environment.is_async,
            environment.undefined, getattr(environment, "newstyle_gettext", None), tuple(environment.extensions),
            tuple(environment.filters.items()), tuple(environment.tests.items()))


def _syntax(environment: jinja2.Environment) -> tuple[object, ...]:
    return (environment.block_start_string, environment.block_end_string, environment.variable_start_string,
            environment.variable_end_string, environment.comment_start_string, environment.comment_end_string,
            environment.line_statement_prefix, environment.line_comment_prefix, environment.trim_blocks,
            environment.lstrip_blocks, environment.newline_sequence, environment.keep_trailing_newline)




class _Stored:
    """Compiled templates sealed into the user's cache folder: a file per key, an HMAC of its bytes first."""

    def read(self, key: str) -> bytes | None:
        place = _place()
        if place is None:
            return None
        try:
            sealed = (place[0] / _name(key)).read_bytes()
        except OSError:
            return None
        seal, payload = sealed[:32], sealed[32:]
        return payload if hmac.compare_digest(seal, _seal(place[1], payload)) else None

    def write(self, key: str, payload: bytes) -> None:
        place = _place()
        if place is None:
            return
        folder, secret = place
        try:
            if not folder.is_dir():
                folder.mkdir(parents=True, exist_ok=True)
                _remove_stale(folder)
            fd, temporary = tempfile.mkstemp(dir=folder, prefix=".", suffix=".tmp")  # private, renamed whole
            with os.fdopen(fd, "wb") as handle:
                handle.write(_seal(secret, payload) + payload)
            os.replace(temporary, folder / _name(key))
        except OSError:
            pass


def _place() -> tuple[Path, bytes] | None:
    """This version's folder in the user's cache and the user's secret; None when no secret can be had."""
    return _place_in(key_file())


@functools.lru_cache(maxsize=8)  # the user's cache folder, as XDG_CACHE_HOME says now (tests move it)
def _place_in(key: Path) -> tuple[Path, bytes] | None:
    secret = secret_key(key)
    return None if secret is None else (key.parent / "templates" / code_digest()[:32], secret)


def _name(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _seal(secret: bytes, payload: bytes) -> bytes:
    return hmac.new(secret, payload, hashlib.sha256).digest()


def _remove_stale(folder: Path) -> None:
    """Other versions' folders nobody compiled into for a day (a checkout in use keeps its own)."""
    now = time.time()
    for other in folder.parent.iterdir():
        try:
            if other != folder and other.is_dir() and now - other.stat().st_mtime > STALE:
                shutil.rmtree(other, ignore_errors=True)
        except OSError:
            pass


_STORED = _Stored()
COMPILED = _CompiledTemplates()
