"""Each page's Paper kept by the build cache: a page unchanged since an earlier build is not validated again.

``to_paper`` makes a Paper of a page's text and file name alone (its record key, ``cache_records.keep_paper_key``,
says so), and validating 10,000 front matters field by field was a fifth of a warm build. So each Paper a
page made is kept (``EntryCache`` "papers") under that key, with what parsing it said, as a typed record
(model/paper_codec.py); the code's digest is in every key. A page whose text or name changed has another key
and is parsed again; a page that does not parse, or whose text is not at hand, is parsed every time; a record
of another shape (or one the codec does not read back) is parsed again and made anew.
"""

from __future__ import annotations

from pathlib import Path

from generator.content.pages import PageDoc
from generator.model.paper_codec import SHAPE_ERRORS, diagnostic_of, diagnostic_record, paper_of, paper_record
from generator.pipeline.rendering import Parsed, parse_page
from generator.runtime.cache import BuildCache, EntryCache, digest
from generator.runtime.cache_records import keep_paper_key

KIND = "papers"


def parse_pages(docs: dict[Path, PageDoc], content_dir: Path, before: dict[Path, Parsed],
                store: BuildCache | None = None) -> dict[Path, Parsed]:
    """Every page's Parsed: the last pass's for a page not read again (``before``, the same doc), the build
    cache's for a page whose text an earlier build parsed, else parsed now (and kept)."""
    known = EntryCache(store, KIND, plain=True, later=True) if store is not None and store.enabled else None
    keys: dict[Path, str] = {}
    for path, doc in docs.items():
        last = before.get(path)
        if not (last is not None and last.doc is doc):
            keys[path] = digest("page", doc.text_digest, doc.path.name) if known is not None and doc.text_digest else ""
    # The records taken a shard at a time (``take_each``): in the pages' order every shard was read within the
    # first few hundred pages, and a large volume's records were all held while they were made into papers.
    made: dict[Path, Parsed] = {}
    if known is not None:
        paths: dict[str, list[Path]] = {}
        for path, key in keys.items():
            if key:
                paths.setdefault(key, []).append(path)
        for key, record in known.take_each([key for key, same in paths.items() for _ in same]):
            path = paths[key].pop()
            found = _from_record(docs[path], record, key)
            if found is not None:
                made[path] = found
    parsed: dict[Path, Parsed] = {}
    for path, doc in docs.items():
        if path not in keys:
            parsed[path] = before[path]
            continue
        key = keys[path]
        found = made.pop(path, None)
        if found is None:
            found = parse_page(path, content_dir, doc)
            if key and found.paper is not None:
                _keep(known, key, found)
        parsed[path] = found
    if known is not None:
        known.save()
    return parsed


def _from_record(doc: PageDoc, record: object, key: str) -> Parsed | None:
    if record is None:
        return None
    try:
        made: list
        problems: list[list]
        made, problems = record  # type: ignore[misc]
        paper = paper_of(made, doc.path, doc.body)
        diagnostics = tuple(diagnostic_of(problem) for problem in problems)
    except SHAPE_ERRORS:  # (an older build's shape: parsed again)
        return None
    keep_paper_key(paper, key)  # to_paper's: what the paper is made of
    return Parsed(doc, paper, diagnostics)


def _keep(known: EntryCache | None, key: str, parsed: Parsed) -> None:
    assert known is not None and parsed.paper is not None
    try:
        record = [paper_record(parsed.paper, parsed.doc.body), [diagnostic_record(d) for d in parsed.diagnostics]]
    except TypeError:  # a value the record would not give back as it is: parsed every time
        return
    known.put(key, record)
