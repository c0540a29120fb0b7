"""What each page is written in, for the vote that picks a volume's language when its config names none.

The vote (content/project.py ``with_papers_language``) counts every page: its title and the start of its
abstract. Reading the head of 10,000 pages costs a warm build a second or more, for a vote that comes out
the same as last time. So the build cache keeps each page's vote (its language and the entry it holds)
under the page's identity on disk (inode, size, modification and change times): a page whose identity did
not move is not opened. ``--no-cache`` reads every page, as before.
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path
from typing import Any

from generator.runtime.cache import BuildCache
from generator.runtime.executor import INLINE, Executor
from generator.runtime.sizes import Cost
from generator.content.pages import is_page
from generator.text.cjk import language_of

KIND = "page-languages"
PAGE_HEAD = 8192  # of a page, what the vote reads: its title and the start of its abstract
_SOURCE_LINE = re.compile(r"^source:[ \t]*['\"]?([^'\"\n]+?)['\"]?[ \t]*$", re.MULTILINE)
_TITLE_LINE = re.compile(r"^title:[ \t]*(.*)$", re.MULTILINE)
_ENTRY_LINE = re.compile(r"^entry:[ \t]*(\d+)[ \t]*$", re.MULTILINE)

PageKey = tuple[str, int] | str  # the source entry a page holds, or its file name when it holds none


def page_languages(pages_dir: Path, store: BuildCache | None = None,
                   executor: Executor = INLINE) -> dict[PageKey, str]:
    """Each page's language (``language_of`` its title and abstract head, "" when not known), keyed by the
    source entry it holds (``(source, entry)``) or by its file name; from ``store`` for pages it knows. The
    others are read by the ``executor``'s processes (a build without its cache reads every page)."""
    if not pages_dir.is_dir():
        return {}
    cache = store if store is not None and store.enabled else None
    key = cache.key(KIND, str(pages_dir.resolve())) if cache is not None else ""
    known = _known(cache.load_json(KIND, key)) if cache is not None else {}
    votes: dict[PageKey, str] = {}
    seen: dict[str, list[Any]] = {}
    pages = _pages(pages_dir)
    unknown = [name for name, identity in pages if name not in known or known[name][:4] != identity]
    read = dict(zip(unknown, executor.map(functools.partial(_votes, pages_dir), unknown, Cost.LIGHT)))
    for name, identity in pages:
        record = known.get(name)
        if record is None or record[:4] != identity:
            vote = read[name]
            if vote is None:
                continue
            record = [*identity, *vote]
        source, entry, language = record[4:]
        votes[(source, entry) if source else name] = language
        seen[name] = record
    if cache is not None and seen != known:
        cache.store_json(KIND, key, seen, plain=True)
    return votes


def _pages(pages_dir: Path) -> list[tuple[str, list[int]]]:
    """Each page's file name and identity, in name order: the files ``page_paths`` reads (a link out of the
    content folder, a FIFO or a folder is none of them)."""
    found = []
    with os.scandir(pages_dir) as entries:
        for entry in entries:
            if not entry.name.endswith(".md"):
                continue
            try:
                if not entry.is_file() or (entry.is_symlink() and not is_page(pages_dir.parent, Path(entry.path))):
                    continue
                info = entry.stat()
            except OSError:
                continue
            found.append((entry.name, [info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns]))
    return sorted(found)


def _votes(pages_dir: Path, names: list[str]) -> list[tuple[str, int, str] | None]:
    return [_vote(pages_dir / name) for name in names]


def _vote(path: Path) -> tuple[str, int, str] | None:
    """(source, entry, language) of one page ("" and 0 for a page that holds no entry); None: unreadable."""
    try:
        with path.open("rb") as handle:
            text = handle.read(PAGE_HEAD).decode("utf-8", "ignore")
    except OSError:
        return None
    head, _, body = text.partition("\n---\n")
    source, entry, title = _SOURCE_LINE.search(head), _ENTRY_LINE.search(head), _TITLE_LINE.search(head)
    language = language_of(f"{title.group(1) if title else ''}\n{body}")  # the keys' Latin letters are no vote
    return (source.group(1), int(entry.group(1)), language) if source and entry else ("", 0, language)


def _known(value: Any) -> dict[str, list[Any]]:
    """The cache's records (``[inode, size, mtime, ctime, source, entry, language]`` by file name) that have
    the shape this module writes; any other page is read again."""
    if not isinstance(value, dict):
        return {}
    return {name: record for name, record in value.items()
            if type(record) is list and len(record) == 7 and type(record[4]) is str and type(record[5]) is int
            and type(record[6]) is str}
