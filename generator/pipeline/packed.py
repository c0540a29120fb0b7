"""Papers as a fresh template worker holds them: whole, each long text packed until a template reads it.

A template worker is sent every paper (pipeline/shares.py): a theme's list item may show any field of any
paper, so no cut-down copy will do. Most of a paper's memory is its abstract, held three times (as written,
its HTML, its plain text: 3–4 KB a paper, 170 MB of a 50,000-paper volume) and read only by the pages that
show it: a list item asks whether there is one and its language, a paper's own page shows it. So each
paper's three texts are kept as one zlib blob (the three say nearly the same words: a fifth of their size)
and unpacked when read, the last few papers' kept unpacked (a list item reads two of them, a paper's page
each several times).

A packed paper is the paper: it is a ``RenderedPaper`` (and its ``paper`` a ``Paper``) whose fields read the
same values, equal to another packed copy of the same paper, and ``dataclasses.replace`` gives a packed copy.
"""

from __future__ import annotations

import dataclasses
import functools
import zlib
from typing import Any

from generator.model.paper import Paper, RenderedPaper

_BLOB = "_packed_texts"  # the instance's attribute holding (the blob, each text's length in bytes)
_RECENT = 32  # papers whose texts are kept unpacked (a page's neighbours, a list page's item being rendered)


def packed(paper: RenderedPaper) -> RenderedPaper:
    """``paper`` with its abstract's three texts packed into one blob (the same blob for its ``paper``)."""
    if isinstance(paper, _PackedRendered):
        return paper
    texts = [paper.paper.abstract.encode("utf-8"), paper.abstract_html.encode("utf-8"),
             paper.abstract_plain.encode("utf-8")]
    blob = (zlib.compress(b"".join(texts), 6), tuple(len(text) for text in texts))
    inner = object.__new__(_PackedPaper)
    inner.__dict__.update({key: value for key, value in vars(paper.paper).items() if key != "abstract"})
    inner.__dict__[_BLOB] = blob
    outer = object.__new__(_PackedRendered)
    outer.__dict__.update({key: value for key, value in vars(paper).items()
                           if key not in ("abstract_html", "abstract_plain")})
    outer.__dict__.update({"paper": inner, _BLOB: blob})
    return outer


@functools.lru_cache(maxsize=_RECENT)
def _unpacked(data: bytes, lengths: tuple[int, ...]) -> tuple[str, ...]:
    raw = zlib.decompress(data)
    texts, start = [], 0
    for length in lengths:
        texts.append(raw[start:start + length].decode("utf-8"))
        start += length
    return tuple(texts)


def _text(instance: Any, index: int) -> str:
    data, lengths = instance.__dict__[_BLOB]
    return _unpacked(data, lengths)[index]


def _same(one: Any, other: Any, base: type) -> Any:
    """Whether ``other`` is the paper ``one`` is, as ``base``'s own equality says (a dataclass's compares
    objects of one class only: a packed copy would not equal the paper it was packed from)."""
    if not isinstance(other, base):
        return NotImplemented
    return all(getattr(one, f.name) == getattr(other, f.name) for f in dataclasses.fields(base) if f.compare)


class _PackedPaper(Paper):
    """A ``Paper`` whose ``abstract`` (Markdown + LaTeX, as written) is unpacked when read."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:  # dataclasses.replace: a packed copy
        made = Paper(*args, **kwargs)
        self.__dict__.update(vars(made))
        self.__dict__.pop("abstract")
        self.__dict__[_BLOB] = (zlib.compress(made.abstract.encode("utf-8")), (len(made.abstract.encode("utf-8")),))

    @property
    def abstract(self) -> str:
        return _text(self, 0)

    def __eq__(self, other: object) -> Any:
        return _same(self, other, Paper)

    __hash__ = Paper.__hash__


class _PackedRendered(RenderedPaper):
    """A ``RenderedPaper`` whose abstract's HTML and plain text are unpacked when read."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:  # dataclasses.replace: a packed copy
        self.__dict__.update(vars(packed(RenderedPaper(*args, **kwargs))))

    @property
    def abstract_html(self) -> str:
        return _text(self, 1)

    @property
    def abstract_plain(self) -> str:
        return _text(self, 2)

    def __eq__(self, other: object) -> Any:
        return _same(self, other, RenderedPaper)

    __hash__ = RenderedPaper.__hash__
