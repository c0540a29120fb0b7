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

A fresh template worker folds each paper further (``folded``): beside its abstract, every field a list does not
place it by or key its item with (its details and authors, its page's path, its source, its corrections…: about
2 KB and 30 objects a paper) is kept pickled in a second compressed blob, unpacked when a template reads one of
them: a list item reads them once a build (``{% once %}``), a paper's page a few times.
"""

from __future__ import annotations

import dataclasses
import functools
import pickle
import zlib
from typing import Any

from generator.model.paper import Paper, RenderedPaper

_BLOB = "_packed_texts"  # the instance's attribute holding (the blob, each text's length in bytes)
_RECENT = 32  # papers whose texts are kept unpacked (a page's neighbours, a list page's item being rendered)
_REST = "_folded_fields"  # a folded paper's attribute holding its other fields, pickled and compressed
# What a folded paper keeps unfolded: what lists key, order and title their items by, read for every item.
_KEPT = frozenset(("id", "slug", "title", "tags", "order", _BLOB))


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


def folded(paper: RenderedPaper) -> RenderedPaper:
    """``paper`` packed (``packed``), and its ``paper``'s fields but those lists read of every item (``_KEPT``)
    folded into a second blob, unpacked when read: the same values, a fraction of the objects."""
    paper = packed(paper)
    inner = paper.paper
    if isinstance(inner, _FoldedPaper):
        return paper
    state = vars(inner)
    rest = {key: value for key, value in state.items() if key not in _KEPT}
    outer = object.__new__(_PackedRendered)
    outer.__dict__.update(vars(paper))
    light = object.__new__(_FoldedPaper)
    light.__dict__.update({key: value for key, value in state.items() if key in _KEPT})
    light.__dict__[_REST] = zlib.compress(pickle.dumps(rest, pickle.HIGHEST_PROTOCOL), 6)
    outer.__dict__["paper"] = light
    return outer


@functools.lru_cache(maxsize=_RECENT)
def _unfolded(data: bytes) -> dict[str, Any]:
    found: dict[str, Any] = pickle.loads(zlib.decompress(data))
    return found


class _FoldedPaper(_PackedPaper):
    """A packed ``Paper`` whose fields but ``_KEPT`` are unpacked from one blob when read (``folded``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:  # dataclasses.replace: a folded copy
        made = object.__new__(_PackedRendered)
        made.__dict__["paper"] = _PackedPaper(*args, **kwargs)
        self.__dict__.update(vars(folded(made).paper))

    def __getattr__(self, name: str) -> Any:  # (an attribute the paper was given beyond its fields: its keys)
        if name.startswith("__") or _REST not in self.__dict__:
            raise AttributeError(name)
        try:
            return _unfolded(self.__dict__[_REST])[name]
        except KeyError:
            raise AttributeError(name) from None


def _folded_field(name: str) -> property:
    return property(lambda self: _unfolded(self.__dict__[_REST])[name])


for _field in dataclasses.fields(Paper):  # (a class attribute, a field's default, would hide ``__getattr__``)
    if _field.name not in _KEPT and _field.name != "abstract":
        setattr(_FoldedPaper, _field.name, _folded_field(_field.name))
