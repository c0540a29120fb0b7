"""The value types of the LaTeX renderer's public API."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MacroDef:
    """A user macro from the config: ``body`` is LaTeX and may use ``#1``..``#9``."""

    body: str
    nargs: int = 0


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
