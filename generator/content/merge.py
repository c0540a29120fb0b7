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

import difflib
import json
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from generator.pipeline.background import map_in_parallel
from generator.model.details import details_to_meta
from generator.errors import ContentError, Diagnostic
from generator.model.paper import DETAIL_FIELDS, Entry, SourceList
from generator.content.matching import WordIndex, another_paper, normalized
from generator.pipeline.output import write_atomically
from generator.model.corrections import OLD_SLUGS
from generator.content.pages import (FRONT_MATTER, PAGES_DIR, SLUG, Fingerprints, PageDoc, digest, front_key,
                                     last_published_slug, render_page, written_page)
from generator.text.slugs import slugify, unique
from generator.derive.titles import pick_title
from generator import diagnostics as codes

# Two versions of an entry this similar are the same paper (a typo fix, a reworded sentence).
SIMILAR = 0.8
WRITE_IN_PARALLEL = 2_000  # pages; fewer are written by this process


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

    def apply(self, jobs: int = 1) -> None:
        """Write the pages (on ``jobs`` cores when there are many: YAML is slow to write) and remove pages.

        A content folder that takes no more writes (full, read-only) is one error naming the page."""
        try:
            self._apply(jobs)
        except OSError as exc:
            raise ContentError(f"cannot write the page ({exc.strerror or exc}): is the content folder full or "
                               "read-only? Pages written before it are kept; run again once it can be written",
                               path=os.fsdecode(exc.filename) if exc.filename else None) from None

    def _apply(self, jobs: int) -> None:
        for change in self.changes:
            if change.action == "remove":
                change.path.unlink(missing_ok=True)
        writes = [change for change in self.changes if change.action != "remove"]
        workers = jobs if len(writes) >= WRITE_IN_PARALLEL else 1
        for change, doc in zip(writes, map_in_parallel(_write_pages, writes, workers)):
            if doc is not None:
                self.written[change.path] = doc


def _write_pages(changes: list[Change]) -> list[tuple[PageDoc, str] | None]:
    """Write each page; a created page comes back as read (and its front matter's key), unless its YAML
    must be read to know."""
    docs: list[tuple[PageDoc, str] | None] = []
    for change in changes:
        text = change.page_text()
        write_atomically(change.path, text.encode("utf-8"))
        doc = written_page(change.path, change.meta, text) if change.meta is not None else None
        docs.append((doc, front_key(text)) if doc is not None else None)
    return docs


def plan_sync(content_dir: Path, sources: list[SourceList], docs: list[PageDoc],
              derive: Deriver, tags_version: str = "") -> SyncPlan:
    """Work out which pages to create, update and remove for these lists."""
    return _Sync(content_dir, docs, derive, tags_version).run(sources)


class _Sync:
    def __init__(self, content_dir: Path, docs: list[PageDoc], derive: Deriver, tags_version: str):
        self.content_dir = content_dir
        self.derive = derive
        self.tags_version = tags_version
        self.plan = SyncPlan()
        # path → page, in name order; a dict so that taking a page is O(1) at 10,000 pages
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
        self._index: WordIndex | None = None  # the unmatched pages by word, made when first needed
        self.unreadable: list[PageDoc] = []  # pages that cannot be read and were matched to no entry

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

    # -- matching ---------------------------------------------------------

    def _match(self, entries: list[Entry]) -> tuple[list[tuple[Entry, PageDoc]], list[Entry]]:
        """Pair entries with pages: by the source's own id, then by text, then by similar text."""
        # An id that two records (or two pages) share cannot say which is which: those match by text.
        page_ids = Counter(_uid_key(d) for d in self.unmatched.values() if _uid_key(d))
        shared = {key for key, count in page_ids.items() if count > 1}
        shared |= {key for key, count in Counter((e.source, e.uid) for e in entries if e.uid).items() if count > 1}
        by_uid = {_uid_key(d): d for d in self.unmatched.values() if _uid_key(d) and _uid_key(d) not in shared}
        by_text: dict[str, list[PageDoc]] = {}
        for doc in self.unmatched.values():
            by_text.setdefault(_text_key(doc), []).append(doc)
        pairs, by_text_entries, leftover = [], [], []
        # Every id first: a new entry whose abstract equals another paper's must not take that paper's page.
        for entry in entries:
            doc = by_uid.get((entry.source, entry.uid)) if entry.uid else None  # (a shared id is not in it)
            if doc is None or doc.path not in self.unmatched:  # not found, or a second entry with this id
                by_text_entries.append(entry)
            else:
                by_text[_text_key(doc)].remove(doc)
                pairs.append((entry, self._take(doc)))
        for entry in by_text_entries:
            candidates = by_text.get(entry_digest(entry))
            if candidates:
                pairs.append((entry, self._take(candidates.pop(_same_place(candidates, entry)))))
            else:
                leftover.append(entry)
        # A page that cannot be read, whose text is not known: it keeps the entry at its place, this build.
        broken = {(d.salvaged.get("source"), d.salvaged.get("entry")): d for d in self.unmatched.values()
                  if d.error and d.salvaged.get("entry")}
        new_entries = []
        for entry in leftover:
            doc = broken.get((entry.source, str(entry.index)))
            if doc is not None and doc.path in self.unmatched:
                pairs.append((entry, self._take(doc)))
                continue
            doc = self._closest(entry)
            if doc is None:
                new_entries.append(entry)
            else:
                pairs.append((entry, self._take(doc)))
        return pairs, new_entries

    def _take(self, doc: PageDoc) -> PageDoc:
        del self.unmatched[doc.path]
        return doc

    def _closest(self, entry: Entry) -> PageDoc | None:
        """The unmatched page of the same list whose text is nearest, if near enough.

        Only the few pages that share the most distinctive words with the entry are compared
        (``WordIndex``): comparing every changed entry with every page was quadratic (a third of
        2,000 abstracts edited took minutes). The comparison itself is unchanged.
        """
        if not entry.text.strip():
            return None  # a paper without an abstract is found by its id or its title only
        if self._index is None:
            self._index = WordIndex(list(self.unmatched.values()))
        wanted = normalized(entry.text)
        # The likeliest page first: once it is found, the others mostly fail the quick bounds. Ties
        # go to the later page, as they did when every page was compared in order.
        best, best_ratio, best_place = None, SIMILAR, -1
        for place, doc in self._index.candidates(wanted, self.unmatched):
            if doc.meta.get("source") not in (entry.source, None) or another_paper(entry.uid, entry.title, doc):
                continue
            matcher = difflib.SequenceMatcher(None, wanted, normalized(doc.body), autojunk=False)
            if matcher.real_quick_ratio() < best_ratio or matcher.quick_ratio() < best_ratio:
                continue
            ratio = matcher.ratio()
            if ratio > best_ratio or (ratio == best_ratio and place > best_place):
                best, best_ratio, best_place = doc, ratio, place
        return best

    # -- actions ----------------------------------------------------------

    def _create(self, entry: Entry) -> None:
        derived = self.derived[id(entry)]
        title = self._title(derived, self.titles)
        owner = self._unreadable_owner(slugify(title))
        if owner is not None:
            self._warn(owner, f"cannot be read, and may be the page of entry {entry.index} of {entry.source} "
                              f"(line {entry.line}): that entry gets no new page until this one can be read "
                              f"(fix the file, or delete it to make a new page)", codes.MERGE_UNREADABLE, entry.uid)
            return
        self.titles.add(title)
        slug = unique(slugify(title), self.slugs)
        self.slugs.add(slug)
        meta: dict[str, Any] = {"id": str(self.next_id), "title": title, "slug": slug,
                                "tags": list(derived.tags), **details_to_meta(entry.details)}
        if entry.uid:
            meta["uid"] = entry.uid
        meta.update({"order": self.order[id(entry)], "source": entry.source, "entry": entry.index})
        generated = Fingerprints(entry_digest(entry), digest(title), digest(list(derived.tags)), digest(entry.text),
                                 self.tags_version)
        if _metadata_digest(entry) != _NO_METADATA:
            generated.meta, generated.details = _metadata_digest(entry), _details_digest(meta)
        meta["generated"] = generated.as_dict()
        meta = _in_page_order(meta)
        self.next_id += 1
        path = self.content_dir / PAGES_DIR / f"{slug}.md"
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
        if (gen.meta or _NO_METADATA) != _metadata_digest(entry):
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
        if entry.title and entry.title != title and (gen.meta or _NO_METADATA) != _metadata_digest(entry):
            self._warn(doc, f"entry {entry.index} of {entry.source} changed, but the page's title was edited "
                            f"by hand: kept it (the source's title is “{entry.title}”)", codes.MERGE_KEPT_EDIT,
                       entry.uid, "title")

    def _refresh_details(self, doc: PageDoc, meta: dict, gen: Fingerprints, entry: Entry, notes: list[str]) -> None:
        """The source's authors, links… changed: take them, unless a person edited the page's."""
        gen.meta = _metadata_digest(entry)
        if entry.uid and meta.get("uid") != entry.uid:
            meta["uid"] = entry.uid
            notes.append("uid")
        wanted = details_to_meta(entry.details)
        if _details_digest(meta) not in (gen.details or _NO_DETAILS, _details_digest(wanted)):
            self._warn(doc, f"entry {entry.index} of {entry.source} has new details (authors, links…), but the "
                            "page's were edited by hand: kept the page's", codes.MERGE_KEPT_EDIT, entry.uid,
                       "details")
            return
        if _details_of(meta) != wanted:
            for key in DETAIL_FIELDS:
                meta.pop(key, None)
            meta.update(wanted)
            notes.append("details")
        gen.details = _details_digest(wanted)

    def _refreshes(self, meta: dict, gen: Fingerprints, entry: Entry) -> tuple[bool, bool]:
        """Whether the title and the tags are the tool's and due for a refresh."""
        entry_changed = gen.text != entry_digest(entry) or (gen.meta or _NO_METADATA) != _metadata_digest(entry)
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
        if _details_digest(doc.meta) != (gen.details or _NO_DETAILS):
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


def _canonical(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _metadata_digest(entry: Entry) -> str:
    """What the source says about a paper besides its abstract (title, keywords, details, id)."""
    return digest(_canonical([entry.title, list(entry.keywords), details_to_meta(entry.details), entry.uid]))


def _details_of(meta: dict[str, Any]) -> dict[str, Any]:
    return {key: meta[key] for key in DETAIL_FIELDS if key in meta}


def _details_digest(meta: dict[str, Any]) -> str:
    return digest(_canonical(_details_of(meta)))


_NO_METADATA = digest(_canonical(["", [], {}, ""]))
_NO_DETAILS = digest(_canonical({}))


def entry_digest(entry: Entry) -> str:
    """What a page remembers of its entry, to find it again: the abstract; for a paper without one
    (a keynote, a demo), its title."""
    return digest(entry.text) if entry.text.strip() else digest("\x1ftitle\x1f" + normalized(entry.title))


def _same_place(candidates: list[PageDoc], entry: Entry) -> int:
    """Of pages with the same text (an abstract listed twice), the one made from this entry, so
    that a second build does not swap their order; else the first."""
    for index, doc in enumerate(candidates):
        if doc.meta.get("source") == entry.source and doc.meta.get("entry") == entry.index:
            return index
    return 0


def _text_key(doc: PageDoc) -> str:
    """The fingerprint of the list entry a page came from (as its broken front matter still says it,
    else its body, for a page that does not parse)."""
    made = doc.generated
    return (made.text if made else "") or doc.salvaged.get("text") or digest(doc.body)


def _uid_key(doc: PageDoc) -> tuple[str, str] | None:
    """(source, the source's id) of a page, also of one whose front matter does not parse."""
    meta = doc.meta if not doc.error else doc.salvaged
    uid = meta.get("uid")
    return (meta.get("source"), str(uid)) if uid not in (None, "") else None


def _number(value) -> int:
    try:
        return int(str(value))
    except (TypeError, ValueError):
        return 0


def _display(path: Path, content_dir: Path) -> Path:
    try:
        return path.relative_to(content_dir)
    except ValueError:
        return path
