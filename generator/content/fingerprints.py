"""What the tool last wrote on a page, fingerprinted: the ``generated`` block that tells the tool's values
(updated when the source changes) from a person's edits (kept). content/merge.py compares them."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass
from typing import Any

from generator.model.details import Details, details_to_meta
from generator.model.paper import DETAIL_FIELDS, Entry


def digest(value: Any) -> str:
    """A short fingerprint of a generated value, to tell later whether a person changed it."""
    text = "\x1f".join(value) if isinstance(value, (list, tuple)) else str(value)
    return hashlib.sha256(text.strip().encode("utf-8")).hexdigest()[:12]


@dataclass
class Fingerprints:
    """The ``generated`` block of a page the tool made: digests of what it wrote, so that a later sync
    tells the tool's values (updated when the source changes) from a person's (kept)."""

    text: str = ""  # the entry the page came from (``matching.entry_digest``)
    title: str = ""
    tags: str = ""
    body: str = ""  # the abstract
    taxonomy: str = ""  # the version of what the tags were derived with
    meta: str = ""  # the entry's metadata (authors, links…), for a source that has any
    details: str = ""  # the details written from it
    # The slug the page was last published at, once it differs from the one it was made with (the file's
    # name): a slug edited since is an address that moved (content/merge.py keeps it in ``old_slugs``).
    slug: str = ""

    @classmethod
    def of(cls, value: Any) -> Fingerprints | None:
        """From front matter; None for a page without one (a person's own page)."""
        if not isinstance(value, dict) or not value:
            return None
        return cls(**{key: str(value[key]) for key in FINGERPRINT_KEYS if value.get(key) is not None})

    def as_dict(self) -> dict[str, str]:
        """For front matter, in field order; ``meta`` and ``details`` only when the source had metadata,
        ``slug`` only once it moved."""
        # Its fields are strings: read one by one (``dataclasses.asdict`` deep-copies, a page made at a time).
        return {key: value for key in FINGERPRINT_KEYS
                if (value := getattr(self, key)) or key not in ("meta", "details", "slug")}

    def copy(self) -> Fingerprints:
        return dataclasses.replace(self)


FINGERPRINT_KEYS = tuple(f.name for f in dataclasses.fields(Fingerprints))


def canonical(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def metadata_digest(entry: Entry, details: dict[str, Any] | None = None) -> str:
    """What the source says about a paper besides its abstract (title, keywords, details, id). ``details``: its
    ``details_to_meta``, when the caller made it already."""
    if not (entry.title or entry.keywords or entry.uid) and entry.details == _NO_DETAILS:
        return NO_METADATA  # a plain list's entry: the same digest, without JSON and a hash for each of thousands
    details = details_to_meta(entry.details) if details is None else details
    return digest(canonical([entry.title, list(entry.keywords), details, entry.uid]))


def details_of(meta: dict[str, Any]) -> dict[str, Any]:
    return {key: meta[key] for key in DETAIL_FIELDS if key in meta}


def details_digest(meta: dict[str, Any]) -> str:
    return digest(canonical(details_of(meta)))


NO_METADATA = digest(canonical(["", [], {}, ""]))
_NO_DETAILS = Details()
NO_DETAILS = digest(canonical({}))
