"""The floor under a build: how long this machine takes just to write a built site's files again.

    python bench/write_floor.py SITE [SITE…] [--rounds 3] [--workers 1 2] [--atomic]

For each SITE (a folder a build made), every file is read into memory first; then each round writes them
all into a fresh folder beside SITE's parent's temporary folder (the same file system as a build's staging
folder): the folders, then each file opened, written and closed, in one process or split over ``--workers``
forked processes. Nothing is parsed, rendered or compressed: what is left is the system's cost per file and
per byte, which no generator writing the same files can go under. The best round is kept (the machine is
shared). ``--atomic`` also writes each file as the sync writes a page (a temporary file, renamed over it).
Also timed: hard-linking every file into a fresh folder (what a warm build does for a file whose
inputs did not move) and listing them with their sizes and times (what it does to find them).

Reported per SITE and worker count: files, bytes, seconds, microseconds a file. Read a build's time beside
the floor for the same site: ``python -m generator build -v`` prints its stages.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from multiprocessing import get_context
from pathlib import Path


def read_site(site: Path) -> tuple[list[str], list[tuple[str, bytes]]]:
    """The site's folders (relative, parents first) and files with their bytes."""
    folders: list[str] = []
    files: list[tuple[str, bytes]] = []
    for root, dirs, names in os.walk(site):
        dirs.sort()
        relative = os.path.relpath(root, site)
        if relative != ".":
            folders.append(relative)
        for name in sorted(names):
            path = os.path.join(root, name)
            with open(path, "rb") as handle:
                files.append((os.path.join(relative, name) if relative != "." else name, handle.read()))
    return folders, files


def _write(target: str, files: list[tuple[str, bytes]]) -> None:
    for relative, data in files:
        with open(os.path.join(target, relative), "wb") as handle:
            handle.write(data)


def _write_atomically(target: str, files: list[tuple[str, bytes]]) -> None:
    """As the sync writes a page (runtime/output.py ``write_atomically``): a temporary file beside it, renamed."""
    for relative, data in files:
        path = os.path.join(target, relative)
        temporary = os.path.join(os.path.dirname(path), f".{os.path.basename(path)}.{os.getpid()}.tmp")
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        os.write(handle, data)
        os.close(handle)
        os.replace(temporary, path)


def write_all(target: Path, folders: list[str], files: list[tuple[str, bytes]], workers: int,
              atomic: bool = False) -> float:
    start = time.perf_counter()
    target.mkdir()
    for folder in folders:
        os.mkdir(target / folder)
    write = _write_atomically if atomic else _write
    if workers == 1:
        write(str(target), files)
    else:
        context = get_context("fork")
        parts = [files[n::workers] for n in range(workers)]
        processes = [context.Process(target=write, args=(str(target), part)) for part in parts]
        for process in processes:
            process.start()
        for process in processes:
            process.join()
    return time.perf_counter() - start


def link_all(source: Path, target: Path, folders: list[str], files: list[tuple[str, bytes]]) -> float:
    start = time.perf_counter()
    target.mkdir()
    for folder in folders:
        os.mkdir(target / folder)
    for relative, _ in files:
        os.link(source / relative, target / relative)
    return time.perf_counter() - start


def list_all(site: Path) -> float:
    start = time.perf_counter()
    count = 0
    for root, _, names in os.walk(site):
        for name in names:
            stat = os.stat(os.path.join(root, name))
            count += stat.st_size > 0
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sites", type=Path, nargs="+")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--atomic", action="store_true",
                        help="also write each file as the sync writes a page: a temporary file, renamed")
    args = parser.parse_args()
    for site in args.sites:
        folders, files = read_site(site)
        size = sum(len(data) for _, data in files)
        print(f"{site}: {len(files):,} files in {len(folders):,} folders, {size / 1e6:.1f} MB")
        scratch = Path(tempfile.mkdtemp(prefix="write-floor-", dir=site.resolve().parent))
        try:
            for workers, atomic in ((n, a) for a in ((False, True) if args.atomic else (False,)) for n in args.workers):
                best = float("inf")
                for round_ in range(args.rounds):
                    target = scratch / f"w{workers}-{round_}"
                    best = min(best, write_all(target, folders, files, workers, atomic))
                    shutil.rmtree(target)
                print(f"  write{' (temporary, renamed)' if atomic else ''}, {workers} process"
                      f"{'es' if workers > 1 else ''}: {best:.2f} s, {best / len(files) * 1e6:.0f} µs a file")
            best_link = min(link_all(site, scratch / f"l{n}", folders, files) for n in range(args.rounds))
            print(f"  hard-link every file: {best_link:.2f} s, {best_link / len(files) * 1e6:.0f} µs a file")
            best_list = min(list_all(site) for _ in range(args.rounds))
            print(f"  list and stat every file: {best_list:.2f} s")
        finally:
            shutil.rmtree(scratch)


if __name__ == "__main__":
    main()
