"""URL-safe slugs that stay short and unique."""

from __future__ import annotations

import hashlib
import re
import unicodedata

MAX_LENGTH = 60


def slugify(text: str, max_length: int = MAX_LENGTH) -> str:
    """ASCII lowercase words joined by hyphens, cut at a word boundary."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    words = re.findall(r"[a-z0-9]+", ascii_text.lower())
    slug = ""
    for word in words:
        candidate = f"{slug}-{word}" if slug else word
        if len(candidate) > max_length:
            break
        slug = candidate
    return slug or (words[0][:max_length] if words else "paper")


def unique(slug: str, taken: set[str]) -> str:
    """``slug``, or ``slug-2``, ``slug-3``… whichever is free."""
    if slug not in taken:
        return slug
    number = 2
    while f"{slug}-{number}" in taken:
        number += 1
    return f"{slug}-{number}"


def slug_or_digest(text: str, prefix: str) -> str:
    """``slugify(text)``, or ``prefix-<digest>`` for text with no ASCII letters or digits ("张伟"),
    so that such names get distinct, stable addresses instead of a shared fallback."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    if re.search(r"[A-Za-z0-9]", ascii_text):
        return slugify(text)
    return f"{prefix}-{hashlib.sha256(text.strip().encode('utf-8')).hexdigest()[:8]}"
