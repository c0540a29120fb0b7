"""A formatted reference in APA style (7th edition), as PMLR offers one to copy beside its BibTeX.

    Lovelace, A., & Babbage, C. (2026). Title of the paper. In E. Editor (Ed.), *Proceedings title*
    (Vol. 247, pp. 13–24). Publisher. https://doi.org/10.1234/abc

Titles are kept as the paper writes them (APA's sentence case would lower acronyms no rule can tell
from words). ``apa`` gives the plain text to copy and the same reference as HTML, the proceedings' title
in italics, everything from the content escaped.
"""

from __future__ import annotations

from collections.abc import Iterable

from markupsafe import Markup, escape

from .reading import Name, Reference, split_name

MAX_AUTHORS = 20  # APA names up to 20; past that the first 19, an ellipsis and the last


def initials(given: str) -> str:
    """"Ada Augusta" → "A. A."; "Jean-Paul" → "J.-P."."""
    return " ".join("-".join(f"{part[0]}." for part in word.split("-") if part) for word in given.split())


def author_name(name: str) -> str:
    """"Family, G." (APA's form in the author list)."""
    return _author(split_name(name))


def _author(parts: Name) -> str:
    if parts.literal:
        return parts.literal
    text = f"{parts.family}, {initials(parts.given)}"
    return f"{text}, {parts.suffix}" if parts.suffix else text


def _editor(parts: Name) -> str:
    """"G. Family" (APA's form for editors)."""
    if parts.literal:
        return parts.literal
    return " ".join(part for part in (initials(parts.given), parts.family) if part) + (
        f", {parts.suffix}" if parts.suffix else "")


def name_list(names: list[str], pair: str = ", & ") -> str:
    """Names joined as APA joins them; ``pair`` between two (authors ", & ", editors " & ")."""
    if len(names) > MAX_AUTHORS:
        return ", ".join(names[:MAX_AUTHORS - 1]) + ", . . . " + names[-1]
    if len(names) <= 2:
        return pair.join(names)
    return ", ".join(names[:-1]) + ", & " + names[-1]


def _sentence(text: str) -> str:
    text = text.strip()
    return text if not text or text[-1] in ".?!" else text + "."


def apa(ref: Reference) -> tuple[str, Markup]:
    """The reference as plain text and as HTML."""
    parts = _parts(ref)
    head, title, where, after, tail = parts
    text = _text(ref, parts)
    html_parts = [escape(head), escape(title),
                  # As Markup("{}<i>{}</i>{}").format would write it, without its formatter's per-call work.
                  Markup(f"{escape(where)}<i>{escape(ref.container)}</i>{escape(after)}"), *map(escape, tail)]
    html = Markup(" ".join(part for part in html_parts if part))  # each part Markup: Markup.join's text
    return text, html


def apa_text(ref: Reference) -> str:
    """The reference as plain text (``apa``'s, without its HTML: the volume's file has the text only)."""
    return _text(ref, _parts(ref))


def _text(ref: Reference, parts: tuple[str, str, str, str, tuple[str, str]]) -> str:
    head, title, where, after, tail = parts
    return " ".join(part for part in (head, title, f"{where}{ref.container}{after}", *tail) if part)


def _parts(ref: Reference) -> tuple[str, str, str, str, tuple[str, str]]:
    """(head, title, "In …" before the container, what follows it, (publisher, link)): the reference's parts."""
    authors = name_list(list(map(_author, ref.author_names)))
    year = f"({ref.year or 'n.d.'})."
    head = f"{_sentence(authors)} {year}" if authors else ""
    title = _sentence(ref.title)
    if not authors:  # APA moves the title to the author's place
        head, title = f"{title} {year}", ""
    editors = list(map(_editor, ref.editor_names))
    where = "In "
    if editors:
        where += f"{name_list(editors, ' & ')} ({'Ed.' if len(editors) == 1 else 'Eds.'}), "
    first, last = ref.pages
    details = ref.details
    volume = details["volume"]
    pages = (f"pp. {first}–{last}" if last != first else f"p. {first}") if first else ""
    detail = f"Vol. {volume}, {pages}" if volume and pages else f"Vol. {volume}" if volume else pages
    doi, publisher = details["doi"], details["publisher"]
    after = (f" ({detail})" if detail else "") + "."
    return head, title, where, after, (_sentence(publisher) if publisher else "", f"https://doi.org/{doi}" if doi
                                       else ref.url)


def volume_apa(texts: Iterable[str]) -> bytes:
    """Every paper's reference, one a line, in proceedings order (a reference list to paste)."""
    # Each line encoded on its own: the references never exist as one str (4 bytes a character once
    # a single one lies beyond U+FFFF), as papers_json does.
    return b"".join(f"{text}\n".encode("utf-8") for text in texts)
