"""The renderer a project holds: renders abstracts and titles, remembering each abstract's rendering.

Making one is cheap: its engine (renderer.py: markdown-it with the LaTeX plugins, the math converter,
pylatexenc) is imported and built when it first renders something. A build whose abstracts all come from
the cache (a warm build) never loads them.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from .model import MacroDef, RenderedAbstract

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

    from .renderer import Engine

REMEMBERED = 20_000  # renderings kept for a second ``render`` of the same text
# Text that no rule of the engine acts on: words of ASCII letters and digits with these marks, one space between
# them, not starting with a digit, a hyphen or a plus (a list's ``1.``, ``-`` or ``+``), no ``--`` (a dash), no
# ``''`` (a closing double quote). No Markdown (``*_`[]<>&#``, a line break), no LaTeX (``\$~{}^``), no quote
# to pair (a lone ``'`` stays as written without a ``‘`` or a backtick), nothing escaped (``"&<>``): its HTML is
# the text itself, in a paragraph alone for an abstract, and its plain text the text. ``!`` opens no image without
# a ``[``, ``%`` is shown as written, ``?=@|`` start no rule. About half of a real volume's abstracts are such
# text (c10k: 5,533 of 10,000; without ``'%?!=+@|`` 4,640), and most titles; tests/test_plain_abstracts.py holds
# the engine to it. The characters are one class and the spaces, the start and the end tested apart: a class
# alone is the engine's tightest loop (twice as fast).
_PLAIN_CHARS = re.compile(r"[A-Za-z0-9,.;:()/ '%?!=+@|-]+")


def _is_plain(text: str) -> bool:
    """Whether an abstract is text no rule of the engine acts on."""
    return _is_plain_line(text.strip())


def _is_plain_line(text: str) -> bool:
    """Whether ``text`` as it is (no space at either end, none doubled) is text no rule of the engine acts on."""
    return (bool(_PLAIN_CHARS.fullmatch(text)) and text[0] not in "0123456789-+ " and text[-1] != " "
            and "  " not in text and "--" not in text and "''" not in text)


class AbstractRenderer:
    """Renders abstracts (and titles) that mix Markdown and LaTeX.

    ``macros`` (from the config) extend and override the built-in author
    macros of builtins.py.
    """

    def __init__(self, macros: Mapping[str, MacroDef] | None = None):
        self._macros = macros
        # A build renders each new abstract twice (to derive its title, then for its page):
        # results are immutable, so the second time is a lookup, also for those derived in a worker.
        self._known: dict[str, RenderedAbstract] = {}

    @functools.cached_property
    def _engine(self) -> Engine:
        from .renderer import Engine

        return Engine(self._macros)

    def prepare(self, texts: Iterable[str]) -> None:
        """Import and build the engine now if one of ``texts`` needs it (most volumes: the first abstract with
        math): processes forked afterwards share it rather than each building its own (0.14 CPU-s apiece)."""
        if not all(map(_is_plain, texts)):
            self._engine  # noqa: B018

    @property
    def _md(self) -> MarkdownIt:
        """The markdown-it parser (a test reads its tokens)."""
        return self._engine.md

    def render(self, text: str, remember: bool = True) -> RenderedAbstract:
        """Block rendering: paragraphs (and the odd list or quote). ``remember`` False: a rendering made now is
        not kept (the last render of a text: keeping it would push out one still to be asked for, and hold it)."""
        found = self._known.get(text)
        if found is None:
            found = self._render(text)
            if remember:
                self.remember(text, found)
        return found

    def _render(self, text: str) -> RenderedAbstract:
        if _is_plain(text):
            plain = text.strip()
            return RenderedAbstract(f"<p>{plain}</p>\n", plain, ())
        return self._engine.render(text)

    def remember(self, text: str, rendered: RenderedAbstract) -> None:
        """Keep ``text``'s rendering (made here or in a forked worker) for the next ``render`` of it."""
        if len(self._known) >= REMEMBERED:  # the oldest goes: a build renders in proceedings order
            self._known.pop(next(iter(self._known), ""), None)
        self._known[text] = rendered

    @property
    def macros(self) -> Mapping[str, MacroDef] | None:
        """The config's macros it renders with (a fresh process's renderer is made from them)."""
        return self._macros

    def knows(self, text: str) -> bool:
        """Whether ``render(text)`` finds a rendering kept (made here, or sent back from a forked worker)."""
        return text in self._known

    def forget(self) -> None:
        """Drop the renderings kept for a second ``render``: none is coming (a build's abstracts are done)."""
        self._known = {}

    def render_inline(self, text: str) -> RenderedAbstract:
        """One line without a paragraph: for paper titles, which may contain math."""
        if _is_plain_line(text):
            return RenderedAbstract(text, text, ())
        return self._engine.render_inline(text)
