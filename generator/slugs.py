"""URL-safe slugs that stay short and unique."""

from __future__ import annotations

import hashlib
import re
import unicodedata

MAX_LENGTH = 60
# Latin letters that Unicode does not decompose into a base letter and a mark (NFKD leaves "Ł" whole).
_LATIN_FOLDS = str.maketrans({"Ł": "L", "ł": "l", "Ø": "O", "ø": "o", "Æ": "AE", "æ": "ae", "Œ": "OE",
                              "œ": "oe", "ß": "ss", "Đ": "D", "đ": "d", "Þ": "Th", "þ": "th", "ı": "i"})


def to_ascii(text: str) -> str:
    """Latin letters without their accents ("Łojasiewicz" → "Lojasiewicz"); other scripts dropped."""
    return unicodedata.normalize("NFKD", text.translate(_LATIN_FOLDS)).encode("ascii", "ignore").decode("ascii")


def slugify(text: str, max_length: int = MAX_LENGTH) -> str:
    """ASCII lowercase words joined by hyphens, cut at a word boundary."""
    ascii_text = to_ascii(text)
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
    ascii_text = to_ascii(text)
    if re.search(r"[A-Za-z0-9]", ascii_text):
        return slugify(text)
    return f"{prefix}-{hashlib.sha256(text.strip().encode('utf-8')).hexdigest()[:8]}"
