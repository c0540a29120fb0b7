"""Writing the site atomically: build beside it, then swap.

The new site is written to a staging folder next to the output folder and
swapped in with two renames, so a reader never sees half a site and a
failed build leaves the previous one in place. A run killed between the
renames leaves ``.<name>.old``, which the next run puts back or clears.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from generator.errors import OutputError

# A folder we are allowed to replace holds these (or is empty, or absent).
SITE_MARKERS = ("index.html", "papers.json")


def _sibling(out_dir: Path, suffix: str) -> Path:
    return out_dir.parent / f".{out_dir.name}.{suffix}"


def recover(out_dir: Path) -> None:
    """Finish or undo a swap that a killed run left half done."""
    old, staging = _sibling(out_dir, "old"), _sibling(out_dir, "staging")
    if old.exists():
        if out_dir.exists():
            shutil.rmtree(old)
        else:
            old.rename(out_dir)
    if staging.exists():
        shutil.rmtree(staging)


def check_replaceable(out_dir: Path, content_dir: Path) -> None:
    out, content = out_dir.resolve(), content_dir.resolve()
    if out == content or out in content.parents:
        raise OutputError("the output folder would contain the content folder; choose another --out", path=out_dir)
    if out_dir.is_dir() and any(out_dir.iterdir()):
        if not all((out_dir / marker).exists() for marker in SITE_MARKERS):
            raise OutputError(
                "this folder is not empty and was not built by proceedings; refusing to replace it "
                "(remove it or choose another --out)", path=out_dir,
            )


def write_site(out_dir: Path, files: dict[str, bytes], static: dict[str, Path]) -> None:
    """Write every file to a staging folder, then swap it in for ``out_dir``."""
    recover(out_dir)
    staging = _sibling(out_dir, "staging")
    try:
        staging.mkdir(parents=True)
        for name, source in static.items():
            _copy(source, staging / name)
        for name, data in files.items():
            _write(staging / name, data)
        _swap(staging, out_dir)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise OutputError(f"cannot write the site ({exc.strerror or exc}); the previous site is unchanged",
                          path=exc.filename or out_dir) from None


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def _copy(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)


def _swap(staging: Path, out_dir: Path) -> None:
    old = _sibling(out_dir, "old")
    if out_dir.exists():
        out_dir.rename(old)
    staging.rename(out_dir)
    if old.exists():
        shutil.rmtree(old)


def write_changed(out_dir: Path, before: dict[str, bytes], after: dict[str, bytes],
                  remove: bool = True) -> tuple[int, int]:
    """Write the files whose bytes changed, each atomically; drop the ones that went away.

    Used by the dev server between full builds. Returns (written, removed).
    """
    written = removed = 0
    try:
        for name, data in after.items():
            if before.get(name) != data:
                write_atomically(out_dir / name, data)
                written += 1
        for name in (set(before) - set(after)) if remove else ():
            (out_dir / name).unlink(missing_ok=True)
            removed += 1
    except OSError as exc:
        raise OutputError(f"cannot write the site ({exc.strerror or exc})", path=exc.filename or out_dir) from None
    return written, removed


def write_atomically(path: Path, data: bytes) -> None:
    """Write via a temporary file and rename, so a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
