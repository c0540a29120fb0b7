"""``tex_error`` tokens: how a snippet we could not render is shown and reported.

Text-mode rules create them directly; the math converter turns failed math
tokens into them, and lists on a math token the undefined macros it marked in
place. One core rule then collects every problem, in document order, into
``env["tex_problems"]``, so nothing is reported twice or lost; and each macro rendered
by a guessed meaning, once, into ``env["tex_guesses"]``.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from generator.diagnostics import LATEX_UNKNOWN_MACRO as UNKNOWN_MACRO

from .model import TexProblem

ENV_KEY = "tex_problems"
GUESSES_KEY = "tex_guesses"  # macros rendered by a guessed meaning (guesses.py): reported, not marked


def push_error(state: StateInline, source: str, message: str, code: str, subject: str = "") -> Token:
    """Push a token that shows ``source`` verbatim, flagged with ``message``; ``code``: its kind
    (generator/diagnostics.py), ``subject``: the command it is about."""
    token = state.push("tex_error", "span", 0)
    mark_error(token, source, message, code, subject)
    return token


def mark_error(token: Token, source: str, message: str, code: str, subject: str = "") -> None:
    """Turn any inline token into a ``tex_error`` for ``source``."""
    token.type = "tex_error"
    token.tag = "span"
    token.content = source
    token.meta = {"problem": TexProblem(message, source, code, subject)}


UNKNOWN_CLASS = "tex-unknown"  # an undefined macro shown as its name, in the text's own style


def push_unknown(state: StateInline, name: str, message: str, source: str = "", code: str = UNKNOWN_MACRO) -> Token:
    """Push a token that shows an undefined macro as its ``name`` (no backslash), reported as ``message``
    (with ``source`` and ``code``: an environment's edge, shown as nothing)."""
    token = state.push("tex_error", "span", 0)
    token.content = name
    token.meta = {"problem": TexProblem(message, source or "\\" + name, code, name), "unknown": True}
    return token


def render_error(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:  # markdown-it's rule
    token = tokens[idx]
    problem: TexProblem = token.meta["problem"]
    if token.meta.get("unknown"):
        if not token.content:
            return ""
        return (f'<span class="{UNKNOWN_CLASS}" title="{html.escape(problem.message)}">'
                f"{html.escape(token.content, quote=False)}</span>")
    return (f'<span class="tex-error" title="{html.escape(problem.message)}">'
            f"{html.escape(problem.source, quote=False)}</span>")


def collect(state: StateCore) -> None:
    """Core rule: gather the problems of all ``tex_error`` tokens into the env."""
    found: list[TexProblem] = state.env.setdefault(ENV_KEY, [])
    guessed: dict[TexProblem, None] = state.env.setdefault(GUESSES_KEY, {})
    for block in state.tokens:
        for token in block.children or ():
            if token.type == "tex_error" or (token.meta and "problem" in token.meta):
                found.append(token.meta["problem"])  # an error shown as written, or an unknown macro as its name
                continue
            if token.meta and "problems" in token.meta:  # math rendered with undefined macros marked
                found.extend(token.meta["problems"])
            if token.meta and "guesses" in token.meta:  # each guess once per abstract
                guessed.update(dict.fromkeys(token.meta["guesses"]))


def problems_plugin(md: MarkdownIt) -> None:
    md.add_render_rule("tex_error", render_error)
    md.core.ruler.push("tex_problems", collect)
