"""The sync's outcome kept by the build cache: the same sources and pages are not paired and compared again.

The sync (content/merge.py) is a function of the sources' entries, every page's text and file name, the
tags' version and the code: when none of them moved since a build whose sync changed no page, it changes
none again, and says what it said then. So a sync that wrote nothing and derived nothing keeps what it said
(``BuildCache`` "sync", one record) under a digest of those inputs: the sources' (``Project.sources_key``,
made of each file's bytes and how it is read), each page's name and text digest, the tags' version. Any edit
to a source or a page, a page added or removed, a reading the cache does not keep (a source that looked for
a linked file) or a page whose text is not at hand: the sync is worked out as before. A first build's sync, which
made every page of a volume that had none from its entry and said nothing, keeps the same record for the pages it
wrote: synced again, they change nothing (tests/test_kept_papers.py holds every fixture volume to that). A page
the sync does not hand on as read (its front matter holds a character that is not printable: an author's invisible
mark, as real exports have) is digested from the text it wrote, which the next build reads back the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from generator.content.merge import Deriver, Derived, SyncPlan
from generator.content.pages import PageDoc
from generator.content.project import Project
from generator.model.paper import Entry
from generator.model.paper_codec import SHAPE_ERRORS, diagnostic_of, diagnostic_record
from generator.pipeline.rendering import sync_pages
from generator.reporter import Reporter
from generator.runtime.cache import BuildCache
from generator.runtime.cache import digest as full_digest
from generator.runtime.executor import INLINE, Executor
from generator.text.yamlutil import as_lf

KIND = "sync"


def kept_sync(project: Project, reporter: Reporter, docs: dict[Path, PageDoc], deriver: Deriver,
              apply: bool = True, executor: Executor = INLINE, store: BuildCache | None = None) -> SyncPlan:
    """``sync_pages``, or what it said when an earlier build's sync of the same inputs changed nothing."""
    key = sync_key(store, project, docs) if store is not None and docs else ""
    if key:
        assert store is not None
        said = _said(store.load_json(KIND, key))
        if said is not None:
            for diagnostic in said:
                reporter.report(diagnostic)
            return SyncPlan(diagnostics=said)
    asked: list[int] = []

    def derive(entries: Sequence[Entry]) -> list[Derived]:
        asked.append(len(entries))
        return deriver(entries)

    plan = sync_pages(project, reporter, docs, derive, apply, executor)
    if key and not plan.changes and not any(asked):
        assert store is not None
        store.store_json(KIND, key, [diagnostic_record(d) for d in plan.diagnostics])
    elif store is not None and apply and not docs and _first(plan):
        # A first build's pages, each made from its entry: syncing them again changes nothing and says nothing
        # (tests/test_kept_papers.py syncs every fixture volume's twice), so the next build need not.
        made = _key(store, project, _written_pages(plan))
        if made:
            store.store_json(KIND, made, [])
    return plan


def _first(plan: SyncPlan) -> bool:
    """Whether the plan made every page of a volume that had none, silently: what the next build reads is
    exactly those pages."""
    return bool(plan.changes) and not plan.diagnostics and all(change.action == "create" for change in plan.changes)


def _written_pages(plan: SyncPlan) -> list[tuple[str, str]]:
    """Each page the plan wrote, by name, with the digest of its text as the next build reads it: from the page
    as read back (``SyncPlan.written``), else from the text it wrote (a few pages: see the module's doc)."""
    read = {path: doc.text_digest for path, (doc, _) in plan.written.items()}
    changes = sorted(plan.changes, key=lambda change: change.path.name)
    return [(change.path.name, read.get(change.path) or full_digest(as_lf(change.page_text()))) for change in changes]


def sync_key(store: BuildCache, project: Project, docs: dict[Path, PageDoc]) -> str:
    """What the sync's outcome is kept under; "" when it cannot be (no cache, a source or page not digested)."""
    if not all(doc.text_digest for doc in docs.values()):
        return ""
    return _key(store, project, [(doc.path.name, doc.text_digest) for doc in docs.values()])


def _key(store: BuildCache, project: Project, pages: list[tuple[str, str]]) -> str:
    if not store.enabled or not project.sources_key:
        return ""
    return store.key_of([KIND, project.sources_key, project.tags_version(), str(len(pages)),
                         *(part for page in pages for part in page)])


def _said(record: object) -> list | None:
    if not isinstance(record, list):
        return None
    try:
        return [diagnostic_of(made) for made in record]
    except SHAPE_ERRORS:
        return None
