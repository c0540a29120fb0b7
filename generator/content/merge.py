"""Keep the Markdown pages in step with the sources without losing edits.

Each generated page records, under ``generated``, fingerprints of what the
tool last wrote (the source entry, title, tags, body, details). A value whose
fingerprint still matches is the tool's to update; one that differs was
edited by a person and wins. The plan is computed first and applied after,
so ``import --dry-run`` shows exactly what ``build`` would do.

Titles and tags the tool makes up are derived for all entries that need them
in one batch (``Deriver``), which may run in parallel; titles are made unique
afterwards, in proceedings order, so the result does not depend on that.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from generator.runtime.executor import INLINE, Executor
from generator.model.details import details_to_meta
from generator.errors import Diagnostic
from generator.model.paper import DETAIL_FIELDS, Entry, SourceList
from generator.content.matching import PageMatcher, entry_digest
from generator.content.page_writes import PageWrites, page_errors, write_pages
from generator.model.corrections import OLD_SLUGS
from generator.content.fingerprints import (NO_DETAILS, NO_METADATA, Fingerprints, details_digest, details_of, digest,
                                            metadata_digest)
from generator.content.pages import FRONT_MATTER, PAGES_DIR, SLUG, PageDoc, last_published_slug, render_page
from generator.text.slugs import slugify, unique
from generator import diagnostics as codes



@dataclass(frozen=True)
class Derived:
    """The title and tags the tool gives an entry. ``title`` is the best candidate; when another
    paper has it, the first free one of ``alternatives`` is used (then a numbered one)."""

    title: str
    tags: tuple[str, ...]
    alternatives: tuple[str, ...] = ()
    given: bool = False  # the source named the title: used as is, even if another paper has it


# entries → their titles and tags, in the same order; no shared state, so it may run in parallel
Deriver = Callable[[Sequence[Entry]], list[Derived]]


@dataclass(frozen=True)
class Change:
    action: str  # create | update | remove
    path: Path
    detail: str
    text: str | None = None  # the new file content, for an update
    meta: dict[str, Any] | None = None  # a created page's front matter and abstract, written out when applied
    body: str = ""

    def page_text(self) -> str:
        """The file's new content (create and update)."""
        return render_page(self.meta, self.body) if self.meta is not None else self.text or ""


@dataclass
class SyncPlan:
    changes: list[Change] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # pages created, as read (pages.written_page), with the key of their front matter (pages.front_key)
    written: dict[Path, tuple[PageDoc, str]] = field(default_factory=dict)
    later: PageWrites = field(default_factory=PageWrites)  # pages a child writes (content/page_writes.py)

    def apply(self, executor: Executor = INLINE) -> None:
        """Write the pages (by the ``executor``: on every core when there are many; YAML is slow to write)
        and remove pages. Some may be written by a child beside what follows: ``later.settle`` waits for them.

        A content folder that takes no more writes (full, read-only) is one error naming the page."""
        with page_errors():
            self._apply(executor)

    def _apply(self, executor: Executor) -> None:
        for change in self.changes:
            if change.action == "remove":
                change.path.unlink(missing_ok=True)
        writes = [change for change in self.changes if change.action != "remove"]
        for folder in {change.path.parent for change in writes}:  # once, not asked for again on every page
            folder.mkdir(parents=True, exist_ok=True)
        made, self.later = write_pages(writes, executor)
        for change, doc in zip(writes, made):
            if doc is not None:
                self.written[change.path] = doc


def plan_sync(content_dir: Path, sources: list[SourceList], docs: list[PageDoc],
              derive: Deriver, tags_version: str = "") -> SyncPlan:
    """Work out which pages to create, update and remove for these lists."""
    return _Sync(content_dir, docs, derive, tags_version).run(sources)


class _Sync:
    def __init__(self, content_dir: Path, docs: list[PageDoc], derive: Deriver, tags_version: str):
        self.content_dir = content_dir
        self.pages = content_dir / PAGES_DIR
        self.derive = derive
        self.tags_version = tags_version
        self.plan = SyncPlan()
        # path → page, in name order; a dict so that taking a page costs the same however many there are
        self.unmatched = {d.path: d for d in sorted(docs, key=lambda d: d.path.name)}
        self.titles = {str(d.meta.get("title")) for d in docs if d.meta.get("title")}
        self.slugs = {str(d.meta.get("slug") or d.salvaged.get("slug")) for d in docs
                      if d.meta.get("slug") or d.salvaged.get("slug")}
        self.slugs |= {d.path.stem for d in docs}
        # An address a paper had before still leads to it: a new paper never takes it.
        self.slugs |= {str(old) for d in docs if isinstance(d.meta.get(OLD_SLUGS), list) for old in d.meta[OLD_SLUGS]}
        # A page that does not parse keeps its id too: a new page never takes it.
        self.next_id = 1 + max((_number(d.meta.get("id") or d.salvaged.get("id")) for d in docs), default=0)
        self.derived: dict[int, Derived] = {}  # id(entry) → its derived title and tags
        self.refreshes: dict[int, tuple[bool, bool]] = {}  # id(entry) → refresh its title, its tags
        self.unreadable: list[PageDoc] = []  # pages that cannot be read and were matched to no entry
        self._metadata: dict[int, str] = {}  # id(entry) → metadata_digest, asked for twice a page

    def run(self, sources: list[SourceList]) -> SyncPlan:
        entries = _in_proceedings_order(sources)
        pairs, new_entries = self._match(entries)
        # One numbering across every source, so that two lists never share a number: the sources in the
        # order their pages already have (a source imported later comes after, never renumbering the rest),
        # new sources in file name order.
        ranked = _sources_in_page_order(sources, pairs)
        self.order = {id(entry): number for number, entry in enumerate(_in_proceedings_order(ranked), start=1)}
        # Whether each page's title and tags are due for a refresh, worked out once for both steps below.
        self.refreshes = {id(entry): self._refreshes(doc.meta, doc.generated, entry)
                          for entry, doc in pairs if not doc.error and doc.generated}
        wanted = [entry for entry, _ in pairs if any(self.refreshes.get(id(entry), ()))] + new_entries
        self.derived = {id(entry): derived for entry, derived in zip(wanted, self.derive(wanted))}
        for entry, doc in pairs:
            self._update(entry, doc)
        self.unreadable = [doc for doc in self.unmatched.values() if doc.error]
        for entry in new_entries:
            self._create(entry)
        for doc in list(self.unmatched.values()):
            self._retire(doc)
        self.plan.changes.sort(key=lambda c: (c.action, c.path.name))
        return self.plan

    def _metadata_digest(self, entry: Entry, details: dict[str, Any] | None = None) -> str:
        found = self._metadata.get(id(entry))
        if found is None:
            found = self._metadata[id(entry)] = metadata_digest(entry, details)
        return found

    # -- matching ---------------------------------------------------------

    def _match(self, entries: list[Entry]) -> tuple[list[tuple[Entry, PageDoc]], list[Entry]]:
        """Pair entries with pages (content/matching.py); the pages left are ``self.unmatched``."""
        return PageMatcher(self.unmatched).pairs(entries)

    # -- actions ----------------------------------------------------------

    def _create(self, entry: Entry) -> None:
        derived = self.derived[id(entry)]
        title = self._title(derived, self.titles)
        slugged = slugify(title)
        owner = self._unreadable_owner(slugged)
        if owner is not None:
            self._warn(owner, f"cannot be read, and may be the page of entry {entry.index} of {entry.source} "
                              f"(line {entry.line}): that entry gets no new page until this one can be read "
                              f"(fix the file, or delete it to make a new page)", codes.MERGE_UNREADABLE, entry.uid)
            return
        self.titles.add(title)
        slug = unique(slugged, self.slugs)
        self.slugs.add(slug)
        details = details_to_meta(entry.details)  # (made once: the metadata's digest reads it too)
        meta: dict[str, Any] = {"id": str(self.next_id), "title": title, "slug": slug,
                                "tags": list(derived.tags), **details}
        if entry.uid:
            meta["uid"] = entry.uid
        meta.update({"order": self.order[id(entry)], "source": entry.source, "entry": entry.index})
        found = entry_digest(entry)  # the abstract's digest, as its body's is, for an entry with an abstract
        generated = Fingerprints(found, digest(title), digest(list(derived.tags)),
                                 found if entry.text.strip() else digest(entry.text), self.tags_version)
        if self._metadata_digest(entry, details) != NO_METADATA:
            generated.meta, generated.details = self._metadata_digest(entry), details_digest(meta)
        meta["generated"] = generated.as_dict()
        meta = _in_page_order(meta)
        self.next_id += 1
        path = self.pages / f"{slug}.md"
        detail = f"new page for entry {entry.index} of {entry.source} (line {entry.line})"
        self.plan.changes.append(Change("create", path, detail, meta=meta, body=entry.text))

    def _unreadable_owner(self, slug: str) -> PageDoc | None:
        """A page that cannot be read, matched to no entry, whose name is this slug or a numbered one of it
        (``slug-2``): the entry that would get this slug may be its own (its text is not known)."""
        for doc in self.unreadable:
            for name in {doc.path.stem, doc.salvaged.get("slug", "")}:
                if name == slug or (name.startswith(slug + "-") and name[len(slug) + 1:].isdigit()):
                    return doc
        return None

    @staticmethod
    def _title(derived: Derived, taken: set[str]) -> str:
        if derived.given:
            return derived.title
        from generator.derive.titles import pick_title  # (imported here: see project._title_candidates)

        return pick_title([derived.title, *derived.alternatives], taken)

    def _update(self, entry: Entry, doc: PageDoc) -> None:
        if doc.error or not doc.generated:
            return  # broken or hand-made pages are never rewritten; the build reports them
        meta, body, notes = dict(doc.meta), doc.body, []
        gen = doc.generated.copy()
        refresh_title, refresh_tags = self.refreshes[id(entry)]
        if not refresh_title:
            self._keep_edited_title(doc, gen, entry)
        if gen.text != entry_digest(entry):
            if digest(body) == gen.body:
                body, gen.body = entry.text, digest(entry.text)
                notes.append("abstract")
            else:
                self._warn(doc, f"entry {entry.index} of {entry.source} changed, but the page's abstract "
                                "was edited by hand: kept the page's abstract", codes.MERGE_KEPT_EDIT, entry.uid,
                           "abstract")
            gen.text = entry_digest(entry)
        if (gen.meta or NO_METADATA) != self._metadata_digest(entry):
            self._refresh_details(doc, meta, gen, entry, notes)
        self._regenerate(meta, gen, entry, refresh_title, refresh_tags, notes)
        keep_old_slug(doc, meta, gen, notes)
        for key, value in (("order", self.order[id(entry)]), ("entry", entry.index), ("source", entry.source)):
            if meta.get(key) != value:
                meta[key] = value
                notes.append(key)
        if gen != doc.generated and not notes:  # a person's edit kept: remember the source's change, warn once
            notes.append("the record of what the source says")
        if notes:
            meta["generated"] = gen.as_dict()
            text = render_page(_in_page_order(meta), body)
            self.plan.changes.append(Change("update", doc.path, "updated " + ", ".join(notes), text))

    def _keep_edited_title(self, doc: PageDoc, gen: Fingerprints, entry: Entry) -> None:
        """The source gives a title and says something new, but a person's title stays: say so."""
        title = doc.meta.get("title")
        if entry.title and entry.title != title and (gen.meta or NO_METADATA) != self._metadata_digest(entry):
            self._warn(doc, f"entry {entry.index} of {entry.source} changed, but the page's title was edited "
                            f"by hand: kept it (the source's title is “{entry.title}”)", codes.MERGE_KEPT_EDIT,
                       entry.uid, "title")

    def _refresh_details(self, doc: PageDoc, meta: dict, gen: Fingerprints, entry: Entry, notes: list[str]) -> None:
        """The source's authors, links… changed: take them, unless a person edited the page's."""
        gen.meta = self._metadata_digest(entry)
        if entry.uid and meta.get("uid") != entry.uid:
            meta["uid"] = entry.uid
            notes.append("uid")
        wanted = details_to_meta(entry.details)
        if details_digest(meta) not in (gen.details or NO_DETAILS, details_digest(wanted)):
            self._warn(doc, f"entry {entry.index} of {entry.source} has new details (authors, links…), but the "
                            "page's were edited by hand: kept the page's", codes.MERGE_KEPT_EDIT, entry.uid,
                       "details")
            return
        if details_of(meta) != wanted:
            for key in DETAIL_FIELDS:
                meta.pop(key, None)
            meta.update(wanted)
            notes.append("details")
        gen.details = details_digest(wanted)

    def _refreshes(self, meta: dict, gen: Fingerprints, entry: Entry) -> tuple[bool, bool]:
        """Whether the title and the tags are the tool's and due for a refresh."""
        entry_changed = gen.text != entry_digest(entry) or (gen.meta or NO_METADATA) != self._metadata_digest(entry)
        title_owned = digest(meta.get("title", "")) == gen.title
        tags_owned = digest(meta.get("tags") or []) == gen.tags
        return (title_owned and entry_changed,
                tags_owned and (entry_changed or gen.taxonomy != self.tags_version))

    def _regenerate(self, meta: dict, gen: Fingerprints, entry: Entry, refresh_title: bool, refresh_tags: bool,
                    notes: list[str]) -> None:
        """Refresh the title and tags the tool owns; leave a person's alone."""
        if not (refresh_title or refresh_tags):
            return
        derived = self.derived[id(entry)]
        if refresh_title:
            title = self._title(derived, self.titles - {meta.get("title")})
            if title != meta.get("title"):
                self.titles.discard(meta.get("title"))
                self.titles.add(title)
                meta["title"], gen.title = title, digest(title)
                notes.append("title")
        if refresh_tags:
            if gen.taxonomy != self.tags_version:
                gen.taxonomy = self.tags_version
                notes.append("taxonomy version")
            if list(derived.tags) != meta.get("tags"):
                meta["tags"], gen.tags = list(derived.tags), digest(derived.tags)
                notes.append("tags")

    def _retire(self, doc: PageDoc) -> None:
        """A page whose entry left the list: remove it unless a person edited it."""
        if doc.error or not doc.generated:
            return
        gen = doc.generated
        edited = [name for name, value, made in (("title", doc.meta.get("title", ""), gen.title),
                                                  ("tags", doc.meta.get("tags") or [], gen.tags),
                                                  ("abstract", doc.body, gen.body)) if digest(value) != made]
        if details_digest(doc.meta) != (gen.details or NO_DETAILS):
            edited.append("details")
        if edited:
            self._warn(doc, "its entry is no longer in the list, but the page was edited by hand "
                            f"({', '.join(edited)}): kept it; delete the file to remove the paper",
                       codes.MERGE_ORPHAN_KEPT, subject=", ".join(edited))
            return
        self.plan.changes.append(Change("remove", doc.path, "its entry was removed from the list"))

    def _warn(self, doc: PageDoc, message: str, code: str, paper: str = "", subject: str = "") -> None:
        self.plan.diagnostics.append(Diagnostic("warning", message, _display(doc.path, self.content_dir), None, code,
                                                paper=paper, subject=subject))


def keep_old_slug(doc: PageDoc, meta: dict[str, Any], gen: Fingerprints, notes: list[str]) -> None:
    """A slug that moved since the page was last published (a person edited it): the address it had goes
    into ``old_slugs``, so that the build leaves a page there leading to the new one. The person's slug is
    never touched; a page whose slug did not move is not rewritten."""
    slug, before = meta.get("slug"), last_published_slug(doc)
    if not isinstance(slug, str) or slug == before or not SLUG.match(slug):
        return
    old = meta.get(OLD_SLUGS)
    old = [str(item) for item in old] if isinstance(old, list) else []  # a broken value: to_paper warns of it
    if before not in old and SLUG.match(before):
        old.append(before)
    if slug in old:  # back to an address it had: it is the paper's own again
        old.remove(slug)
    if old:
        meta[OLD_SLUGS] = old
    else:
        meta.pop(OLD_SLUGS, None)
    gen.slug = slug
    notes.append("old_slugs")


def _in_page_order(meta: dict[str, Any]) -> dict[str, Any]:
    """Known keys in ``FRONT_MATTER`` order, then a person's own keys as they were, then ``generated``."""
    ordered = {key: meta[key] for key in FRONT_MATTER[:-1] if key in meta}
    ordered.update((key, value) for key, value in meta.items() if key not in ordered and key != "generated")
    if "generated" in meta:
        ordered["generated"] = meta["generated"]
    return ordered


def _in_proceedings_order(sources: list[SourceList]) -> list[Entry]:
    return [entry for source in sources for entry in source.entries]


def _sources_in_page_order(sources: list[SourceList], pairs: list[tuple[Entry, PageDoc]]) -> list[SourceList]:
    """The sources by the first ``order`` their matched pages hold; a source with no page yet after them all
    (a stable sort: file name order among equals)."""
    first: dict[str, int] = {}
    for entry, doc in pairs:
        order = doc.meta.get("order") if not doc.error else None
        if isinstance(order, int) and not isinstance(order, bool):
            first[entry.source] = min(order, first.get(entry.source, order))
    never = float("inf")
    return sorted(sources, key=lambda s: first.get(s.entries[0].source, never) if s.entries else never)


def _number(value: object) -> int:
    try:
        return int(str(value))
    except (TypeError, ValueError):
        return 0


def _display(path: Path, content_dir: Path) -> Path:
    try:
        return path.relative_to(content_dir)
    except ValueError:
        return path
