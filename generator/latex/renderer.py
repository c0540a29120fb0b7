"""The abstract renderer's engine: one markdown-it parser with the LaTeX plugins.

One parse per abstract gives one token stream; the HTML and the plain text
are both rendered from it. The parser is built once per renderer; all
per-render state lives in the ``env`` dict, so a renderer can be reused and
shared.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_core.normalize import NEWLINES_RE

from .htmltags import HTML_KEY, html_plugin
from .math import math_plugin
from .model import MacroDef, RenderedAbstract
from .plaintext import MathText, collapse, inline_text, plain_text
from .problems import ENV_KEY, GUESSES_KEY, problems_plugin
from .sanitise import LINK_SCHEMES, sanitise
from .structure import structure_plugin
from .textmode import textmode_plugin
from .typography import typography_plugin

# Markdown that abstracts do not use and that would mis-render them: a `#` or a
# line of dashes is not a heading, indented lines are not code, "[1]: x" is not
# a link definition, and images are never live. HTML is read inline only (htmltags.py
# keeps a safe subset): an HTML block would take its lines out of Markdown and LaTeX.
DISABLED_RULES = ["heading", "lheading", "code", "fence", "hr", "reference", "html_block", "image"]

# A link in an abstract goes to a web page or an address. markdown-it's own check refuses
# javascript:, vbscript:, file: and data:, but lets data:image/png through; we allow only
# LINK_SCHEMES (and links without one), so nothing else ever becomes an href.
_SCHEME = re.compile(r"([a-z][a-z0-9+.\-]*):")


def validate_link(url: str) -> bool:
    """Whether ``url`` (already normalized by markdown-it) may become an href."""
    scheme = _SCHEME.match(url.strip().lower())
    return scheme is None or scheme.group(1) in LINK_SCHEMES


def build_markdown(macros: Mapping[str, MacroDef] | None = None) -> MarkdownIt:
    """The markdown-it instance: CommonMark minus DISABLED_RULES plus our plugins."""
    md = MarkdownIt("commonmark", {"html": True, "xhtmlOut": False})
    md.disable(DISABLED_RULES)
    md.core.ruler.at("normalize", normalize)
    md.validateLink = validate_link  # type: ignore[method-assign]
    md.use(math_plugin, macros=macros)
    md.use(textmode_plugin, macros=macros)
    md.use(structure_plugin)
    md.use(html_plugin)
    md.use(typography_plugin)
    md.use(problems_plugin)
    return md


def normalize(state: StateCore) -> None:
    """markdown-it's first core rule (line ends as ``\\n``, NUL as U+FFFD), its two passes made only over a text
    that holds such a character: most abstracts hold none, and a substring scan is ten times as fast."""
    if "\r" in state.src:
        state.src = NEWLINES_RE.sub("\n", state.src)
    if "\0" in state.src:
        state.src = state.src.replace("\0", "\ufffd")


class Engine:
    """The parser with its plugins and the plain-text converter: what rendering an abstract needs, built
    when an ``AbstractRenderer`` (abstract_renderer.py) first renders one."""

    def __init__(self, macros: Mapping[str, MacroDef] | None = None):
        self.md = build_markdown(macros)
        self._math_text = functools.lru_cache(maxsize=4096)(MathText())

    def render(self, text: str) -> RenderedAbstract:
        env: dict = {}
        tokens = self.md.parse(text.strip(), env)
        html = self.md.renderer.render(tokens, self.md.options, env)
        if env.get(HTML_KEY):
            html = sanitise(html)
        return RenderedAbstract(html, plain_text(tokens, self._math_text), tuple(env.get(ENV_KEY, ())),
                                tuple(env.get(GUESSES_KEY, ())))

    def render_inline(self, text: str) -> RenderedAbstract:
        env: dict = {}
        tokens = self.md.parseInline(collapse(text), env)
        html = self.md.renderer.render(tokens, self.md.options, env)
        if env.get(HTML_KEY):
            html = sanitise(html)
        children = tokens[0].children if tokens else []
        return RenderedAbstract(html, collapse(inline_text(children or (), self._math_text)),
                                tuple(env.get(ENV_KEY, ())), tuple(env.get(GUESSES_KEY, ())))
