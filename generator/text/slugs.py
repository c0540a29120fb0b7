"""URL-safe slugs that stay short and unique.

A slug is made of lower-case ASCII words and, for Chinese, Japanese and Korean
titles, the CJK characters themselves ("基于扩散模型的图像生成", "lora-微调"):
readable to the people the proceedings are for, stable (no transliteration
guesses a reading that a later version would guess differently), and served
as they are by GitHub Pages, any web server and file:// (a browser sends them
percent-encoded as UTF-8). Text in other scripts is folded to ASCII as before,
so an English title's slug is what it always was.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

from generator.text import cjk

# Names Windows keeps for devices, with or without an extension (``con.md`` too): a clone holding one
# cannot be checked out there. A slug that would be one gets "-1" (a second paper of that name "-1-2").
DEVICE_NAMES = frozenset({"con", "prn", "aux", "nul", *(f"com{n}" for n in range(1, 10)),
                          *(f"lpt{n}" for n in range(1, 10))})
# Most file systems allow 255 bytes (not characters) per name; this leaves room for "-999.html".
MAX_BYTES = 240
MAX_LENGTH = 60  # display columns: a CJK character takes two, so a slug holds up to 30 of them
# Where a CJK run may be cut short rather than in the middle of a word: after a particle
# that ends a phrase (的 "of", の, を, に…), or before a conjunction (与/和 "and", と, や).
_CUT_AFTER = "的之のをにでがはへも"
_CUT_BEFORE = "与和及或とや"
_ASCII_WORD = re.compile(r"[a-z0-9]+")
_LIST_PAGE = re.compile(r"index(?:-\d+)?")
# Latin letters that Unicode does not decompose into a base letter and a mark (NFKD leaves "Ł" whole).
LATIN_FOLDS = str.maketrans({"Ł": "L", "ł": "l", "Ø": "O", "ø": "o", "Æ": "AE", "æ": "ae", "Œ": "OE",
                              "œ": "oe", "ß": "ss", "Đ": "D", "đ": "d", "Þ": "Th", "þ": "th", "ı": "i"})


def slugify(text: str, max_length: int = MAX_LENGTH) -> str:
    """Lowercase words joined by hyphens, cut at a word boundary; CJK runs are words as written."""
    words = slug_words(text)
    slug = ""
    for word in words:
        candidate = f"{slug}-{word}" if slug else word
        if cjk.width(candidate) > max_length:
            if not slug and cjk.has_cjk(word):
                slug = _shorten_run(word, max_length)
            break
        slug = candidate
    return not_a_device(slug or (_shorten_run(words[0], max_length) if words else "paper"))


def not_a_device(slug: str) -> str:
    """``slug``, or ``slug-1`` when it is a name Windows keeps for a device."""
    return f"{slug}-1" if slug.split(".")[0] in DEVICE_NAMES else slug


def file_safe(slug: str) -> tuple[str, str]:
    """A slug given by hand made a name every file system takes, and why it had to change ("" when
    it did not): not a device name, and at most ``MAX_BYTES`` bytes, cut at a hyphen when one is near."""
    size = len(slug.encode("utf-8"))
    if size > MAX_BYTES:
        cut = slug.encode("utf-8")[:MAX_BYTES].decode("utf-8", "ignore")
        head = cut.rsplit("-", 1)[0] if "-" in cut[len(cut) // 2:] else cut
        return not_a_device(head.strip("-")), f"is {size:,} bytes long, past the {MAX_BYTES} a file name may take"
    if not_a_device(slug) != slug:
        return not_a_device(slug), "is a name Windows keeps for a device (CON, AUX, NUL, COM1…)"
    return slug, ""


def slug_words(text: str) -> list[str]:
    """The words of a slug: ASCII letters and digits (accents folded away), and CJK runs."""
    if not cjk.has_cjk(unicodedata.normalize("NFKC", text)):
        return _ascii_words(text)
    words: list[str] = []
    for position, piece in enumerate(cjk.split_runs(unicodedata.normalize("NFKC", text))):
        words += [piece] if position % 2 else _ascii_words(piece)
    return words


def _ascii_words(text: str) -> list[str]:
    """Latin words without their accents ("Łojasiewicz" → "lojasiewicz"); other scripts dropped."""
    ascii_text = unicodedata.normalize("NFKD", text.translate(LATIN_FOLDS)).encode("ascii", "ignore").decode("ascii")
    return _ASCII_WORD.findall(ascii_text.lower())


def _shorten_run(word: str, max_length: int) -> str:
    """A word longer than a slug may be: a CJK run cut after a phrase's end in its second half,
    else where it fills the slug; an ASCII word simply cut."""
    head = ""
    for char in word:
        if cjk.width(head + char) > max_length:
            break
        head += char
    if cjk.has_cjk(head):
        for at in range(len(head) - 1, len(head) // 2, -1):
            if head[at - 1] in _CUT_AFTER or head[at] in _CUT_BEFORE:
                return head[:at]
    return head


def list_page_name(slug: str) -> bool:
    """Whether ``slug`` is the name of a page of a folder's index (``index``, ``index-2``…, as
    render/paginate.py's ``paginate`` names them), which no person or topic may take."""
    return _LIST_PAGE.fullmatch(slug) is not None


def unique(slug: str, taken: set[str]) -> str:
    """``slug``, or ``slug-2``, ``slug-3``… whichever is free."""
    if slug not in taken:
        return slug
    number = 2
    while f"{slug}-{number}" in taken:
        number += 1
    return f"{slug}-{number}"


def slug_or_digest(text: str, prefix: str) -> str:
    """``slugify(text)``, or ``prefix-<digest>`` for text with neither ASCII letters and digits
    nor CJK characters ("محمد"), so that such names get distinct, stable addresses instead of a
    shared fallback."""
    if slug_words(text):
        return slugify(text)
    return f"{prefix}-{hashlib.sha256(text.strip().encode('utf-8')).hexdigest()[:8]}"
