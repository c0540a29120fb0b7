"""Keep the Markdown pages in step with the abstract lists without losing edits.

Each generated page records, under ``generated``, fingerprints of what the
tool last wrote (the list entry, title, tags, body). A value whose
fingerprint still matches is the tool's to update; one that differs was
edited by a person and wins. The plan is computed first and applied after,
so ``import --dry-run`` shows exactly what ``build`` would do.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from generator.errors import Diagnostic
from generator.model import Entry, SourceList
from generator.output import write_atomically
from generator.pages import PAGES_DIR, PageDoc, digest, render_page
from generator.slugs import slugify, unique

# Two versions of an entry this similar are the same paper (a typo fix, a reworded sentence).
SIMILAR = 0.8


@dataclass(frozen=True)
class Derived:
    title: str
    tags: tuple[str, ...]


# entry text, titles already taken → the generated title and tags
Deriver = Callable[[str, set[str]], Derived]


@dataclass(frozen=True)
class Change:
    action: str  # create | update | remove
    path: Path
    detail: str
    text: str | None = None  # the new file content, for create and update


@dataclass
class SyncPlan:
    changes: list[Change] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def apply(self) -> None:
        for change in self.changes:
            if change.action == "remove":
                change.path.unlink(missing_ok=True)
            else:
                write_atomically(change.path, (change.text or "").encode("utf-8"))


def plan_sync(content_dir: Path, sources: list[SourceList], docs: list[PageDoc],
              derive: Deriver, tags_version: str = "") -> SyncPlan:
    """Work out which pages to create, update and remove for these lists."""
    return _Sync(content_dir, docs, derive, tags_version).run(sources)


def _normalized(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


class _Sync:
    def __init__(self, content_dir: Path, docs: list[PageDoc], derive: Deriver, tags_version: str):
        self.content_dir = content_dir
        self.derive = derive
        self.tags_version = tags_version
        self.plan = SyncPlan()
        # path → page, in name order; a dict so that taking a page is O(1) at 10,000 pages
        self.unmatched = {d.path: d for d in sorted(docs, key=lambda d: d.path.name)}
        self.titles = {str(d.meta.get("title")) for d in docs if d.meta.get("title")}
        self.slugs = {str(d.meta.get("slug")) for d in docs if d.meta.get("slug")}
        self.slugs |= {d.path.stem for d in docs}
        self.next_id = 1 + max((_number(d.meta.get("id")) for d in docs), default=0)

    def run(self, sources: list[SourceList]) -> SyncPlan:
        pairs, new_entries = self._match(sources)
        for entry, doc in pairs:
            self._update(entry, doc)
        for entry in new_entries:
            self._create(entry)
        for doc in list(self.unmatched.values()):
            self._retire(doc)
        self.plan.changes.sort(key=lambda c: (c.action, c.path.name))
        return self.plan

    # -- matching ---------------------------------------------------------

    def _match(self, sources: list[SourceList]) -> tuple[list[tuple[Entry, PageDoc]], list[Entry]]:
        entries = [entry for source in sources for entry in source.entries]
        by_text: dict[str, list[PageDoc]] = {}
        for doc in self.unmatched.values():
            by_text.setdefault(_text_key(doc), []).append(doc)
        pairs, leftover = [], []
        for entry in entries:
            candidates = by_text.get(digest(entry.text))
            if candidates:
                pairs.append((entry, self._take(candidates.pop(_same_place(candidates, entry)))))
            else:
                leftover.append(entry)
        new_entries = []
        for entry in leftover:
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
        """The unmatched page of the same list whose text is nearest, if near enough."""
        wanted = _normalized(entry.text)
        best, best_ratio = None, SIMILAR
        for doc in self.unmatched.values():
            if doc.meta.get("source") not in (entry.source, None):
                continue
            matcher = difflib.SequenceMatcher(None, wanted, _normalized(doc.body), autojunk=False)
            if matcher.real_quick_ratio() < best_ratio or matcher.quick_ratio() < best_ratio:
                continue
            ratio = matcher.ratio()
            if ratio >= best_ratio:
                best, best_ratio = doc, ratio
        return best

    # -- actions ----------------------------------------------------------

    def _create(self, entry: Entry) -> None:
        derived = self.derive(entry.text, self.titles)
        self.titles.add(derived.title)
        slug = unique(slugify(derived.title), self.slugs)
        self.slugs.add(slug)
        meta = {
            "id": str(self.next_id),
            "title": derived.title,
            "slug": slug,
            "tags": list(derived.tags),
            "order": entry.index,
            "source": entry.source,
            "entry": entry.index,
            "generated": _fingerprints(entry.text, derived.title, derived.tags, entry.text, self.tags_version),
        }
        self.next_id += 1
        path = self.content_dir / PAGES_DIR / f"{slug}.md"
        detail = f"new page for entry {entry.index} of {entry.source} (line {entry.line})"
        self.plan.changes.append(Change("create", path, detail, render_page(meta, entry.text)))

    def _update(self, entry: Entry, doc: PageDoc) -> None:
        if doc.error or not doc.generated:
            return  # broken or hand-made pages are never rewritten; the build reports them
        meta, body, notes = dict(doc.meta), doc.body, []
        gen = dict(doc.generated)
        entry_changed = gen.get("text") != digest(entry.text)
        if entry_changed:
            if digest(body) == gen.get("body"):
                body, gen["body"] = entry.text, digest(entry.text)
                notes.append("abstract")
            else:
                self._warn(doc, f"entry {entry.index} of {entry.source} changed, but the page's abstract "
                                "was edited by hand: kept the page's abstract")
            gen["text"] = digest(entry.text)
        self._regenerate(meta, gen, entry, entry_changed, notes)
        for key, value in (("order", entry.index), ("entry", entry.index), ("source", entry.source)):
            if meta.get(key) != value:
                meta[key] = value
                notes.append(key)
        if notes:
            meta["generated"] = gen
            text = render_page(meta, body)
            self.plan.changes.append(Change("update", doc.path, "updated " + ", ".join(notes), text))

    def _regenerate(self, meta: dict, gen: dict, entry: Entry, entry_changed: bool, notes: list[str]) -> None:
        """Refresh the title and tags the tool owns; leave a person's alone."""
        title_owned = digest(meta.get("title", "")) == gen.get("title")
        tags_owned = digest(meta.get("tags") or []) == gen.get("tags")
        refresh_title = title_owned and entry_changed
        refresh_tags = tags_owned and (entry_changed or gen.get("taxonomy") != self.tags_version)
        if not (refresh_title or refresh_tags):
            return
        others = self.titles - {meta.get("title")}
        derived = self.derive(entry.text, others)
        if refresh_title and derived.title != meta.get("title"):
            self.titles.discard(meta.get("title"))
            self.titles.add(derived.title)
            meta["title"], gen["title"] = derived.title, digest(derived.title)
            notes.append("title")
        if refresh_tags:
            if gen.get("taxonomy") != self.tags_version:
                gen["taxonomy"] = self.tags_version
                notes.append("taxonomy version")
            if list(derived.tags) != meta.get("tags"):
                meta["tags"], gen["tags"] = list(derived.tags), digest(derived.tags)
                notes.append("tags")

    def _retire(self, doc: PageDoc) -> None:
        """A page whose entry left the list: remove it unless a person edited it."""
        if doc.error or not doc.generated:
            return
        gen = doc.generated
        edited = [
            name for name, value in (("title", doc.meta.get("title", "")), ("tags", doc.meta.get("tags") or []),
                                     ("abstract", doc.body))
            if digest(value) != gen.get("body" if name == "abstract" else name)
        ]
        if edited:
            self._warn(doc, "its entry is no longer in the list, but the page was edited by hand "
                            f"({', '.join(edited)}): kept it; delete the file to remove the paper")
            return
        self.plan.changes.append(Change("remove", doc.path, "its entry was removed from the list"))

    def _warn(self, doc: PageDoc, message: str) -> None:
        self.plan.diagnostics.append(Diagnostic("warning", message, _display(doc.path, self.content_dir)))


def _fingerprints(text: str, title: str, tags, body: str, tags_version: str) -> dict[str, str]:
    return {"text": digest(text), "title": digest(title), "tags": digest(list(tags)),
            "body": digest(body), "taxonomy": tags_version}


def _same_place(candidates: list[PageDoc], entry: Entry) -> int:
    """Of pages with the same text (an abstract listed twice), the one made from this entry, so
    that a second build does not swap their order; else the first."""
    for index, doc in enumerate(candidates):
        if doc.meta.get("source") == entry.source and doc.meta.get("entry") == entry.index:
            return index
    return 0


def _text_key(doc: PageDoc) -> str:
    """The fingerprint of the list entry a page came from (its body, for a broken page)."""
    return doc.generated.get("text") or digest(doc.body)


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
