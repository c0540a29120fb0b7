"""The value types of the LaTeX renderer's public API."""

from __future__ import annotations

from dataclasses import dataclass

from generator.model.config import MacroDef  # the config's type, part of this API

__all__ = ["MacroDef", "RenderedAbstract", "TexProblem"]


@dataclass(frozen=True)
class TexProblem:
    """Something in an abstract that could not be rendered as the author meant."""

    message: str
    source: str
    code: str  # its kind (generator/diagnostics.py): what a warning about it carries
    subject: str = ""  # the macro's name (no backslash), the command's, the environment's
    value: str = ""  # what was made of it: a guessed macro's body


@dataclass(frozen=True)
class RenderedAbstract:
    """An abstract (or a title) as HTML and as plain Unicode text, plus its problems."""

    html: str
    plain: str
    problems: tuple[TexProblem, ...]
    # Macros rendered by a guessed meaning (guesses.py): on the page as guessed, reported to be pinned.
    guesses: tuple[TexProblem, ...] = ()
