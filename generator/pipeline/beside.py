"""The pages read and parsed beside the project's loading, on the other core.

A warm build spends about as long loading the project (the config, the abstract lists, the volume's
topics from the cache) as reading its pages and parsing them into papers, and the two do not depend on
each other: reading a page needs only its file and the front matter cache, parsing it only the page.
So when every page is to be read and there are many, forked workers claim chunks of the pages while
this process loads the project, and this process claims the chunks left once it has loaded it
(``Executor.claimed`` with ``before``). The sync then gets the pages as read, and the papers stage
the papers as parsed: a page the sync writes is read and parsed again, as before (``Parsed.doc`` is
no longer the page's). The front matter cache's records a worker used or made come back with its
chunk (``EntryCache.share``), so the cache is saved as if this process had read every page.

Nothing here runs where the pages are read one way or the other anyway: on one core, for a volume
too small for workers, or too large (the size policy's fresh processes: a worker's chunks are held
in this process beside the project's loading, which a volume of that size may not afford).
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, TypeVar

from generator.content.pages import PageDoc, page_paths, read_pages
from generator.content.project import Project, load_project
from generator.pipeline.rendering import Parsed, parse_page
from generator.runtime.cache import EntryCache, paper_key
from generator.runtime.executor import Executor
from generator.runtime.sizes import Cost

if TYPE_CHECKING:
    from generator.pipeline.stages import Pipeline

T = TypeVar("T")
Share = tuple[dict[str, int], dict[str, dict], set[str]]  # EntryCache.share


@dataclass
class EarlyPages:
    """Every page as read, and as parsed, in name order."""

    docs: dict[Path, PageDoc]
    parsed: dict[Path, Parsed]
    known: EntryCache  # the front matter cache they were read with (the pages stage saves it)


def load_and_read(p: Pipeline) -> Project:
    """The project loaded, and when a build reads every page, those pages read and parsed meanwhile (kept in
    ``p.early``, with the front matter cache they were read with, for the pages stage)."""
    load = functools.partial(p.timed, "load project", load_project, p.content_dir, p.reporter, p.options.base_url,
                             store=p.store, executor=p.executor, derive=p.options.derive)
    p.early = None
    if p.options.keep or not p.store.enabled or (p.state.docs is not None and p.now.pages is not None):
        return load()
    start = time.perf_counter()
    project, p.early = load_beside_pages(load, p.content_dir, p.executor, EntryCache(p.store, "front-matter",
                                                                                     plain=True))
    if p.early is not None:  # what reading them cost beyond the project's loading
        p.reporter.stage("read pages", time.perf_counter() - start - p.reporter.timings["load project"])
    return project


def front_cache(p: Pipeline) -> EntryCache:
    """The front matter cache the pages were read with while the project loaded, or a new one."""
    return p.early.known if p.early is not None else EntryCache(p.store, "front-matter", plain=True)


def load_beside_pages(load: Callable[[], T], content_dir: Path, executor: Executor,
                      known: EntryCache | None) -> tuple[T, EarlyPages | None]:
    """``load()``'s result, and every page read and parsed meanwhile by workers (and by this process once
    ``load`` is done); None for the pages where they are better read by the pages stage as usual."""
    if known is None:  # no front matter cache to read with: the pages stage reads the pages as it always did
        return load(), None
    paths = page_paths(content_dir)
    workers = executor.workers(Cost.LIGHT, len(paths))
    if workers < 2 or executor.fresh(len(paths)):
        return load(), None
    size = executor.policy.chunk(len(paths), workers)
    chunks = [paths[i : i + size] for i in range(0, len(paths), size)]
    loaded: list[T] = []
    done = executor.claimed(functools.partial(_read_and_parse, content_dir, known), chunks, workers,
                            before=lambda: loaded.append(load()))
    early = EarlyPages({}, {}, known)
    for docs, parsed, share in done:
        early.docs.update(docs)
        early.parsed.update(parsed)
        known.take(share)
    return loaded[0], early


def _read_and_parse(content_dir: Path, known: EntryCache, paths: list[Path]
                    ) -> tuple[dict[Path, PageDoc], dict[Path, Parsed], Share]:
    """A chunk of pages read (their front matter from ``known`` where it has it) and parsed, with what ``known``
    learnt meanwhile (a worker's copy of it is not the build's)."""
    docs = read_pages(content_dir, only=paths, known=known)
    parsed = {path: parse_page(path, content_dir, doc) for path, doc in docs.items()}
    for page in parsed.values():
        if page.paper is not None:
            paper_key(page.paper)  # the digest its rendering is cached under, kept on it: made here, not in the build's
    return docs, parsed, known.share()
