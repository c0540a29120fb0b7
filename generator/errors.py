"""The one error hierarchy, and the diagnostics a build collects.

Every error a user can fix is a ``ProceedingsError``: the CLI prints it as
``file:line: message`` and exits non-zero, never with a traceback.
"""

from __future__ import annotations

import reprlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# A value quoted in a message: enough to recognise it, never a megabyte (nor a YAML alias bomb's expansion).
_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 80
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = _SHORT.maxset = 5
_SHORT.maxlevel = 2


def shown(value: Any) -> str:
    """``repr(value)`` cut short for a message: long strings, lists and deep structures end in ``...``."""
    return _SHORT.repr(value)


def _location(path: Path | str | None, line: int | None) -> str:
    if path is None:
        return ""
    return f"{path}:{line}: " if line else f"{path}: "


class ProceedingsError(Exception):
    """A problem the user can fix, located in a file when we know where."""

    def __init__(self, message: str, *, path: Path | str | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def __str__(self) -> str:
        return f"{_location(self.path, self.line)}{self.message}"


class ConfigError(ProceedingsError):
    """proceedings.yaml is unreadable or invalid; the build cannot start."""


class ContentError(ProceedingsError):
    """An abstract list or a paper page is malformed."""


class ThemeError(ProceedingsError):
    """A template is missing or broken; no page can be trusted."""


class OutputError(ProceedingsError):
    """The site could not be written; the previous site is left as it was."""


# Diagnostic codes, for what output counts and groups rather than reads from the message's words.
SKIPPED = "record-skipped"  # a source's record no page shows: it could not be read or holds nothing to show
REPEAT = "record-repeat"  # a record published once, from the earlier record it repeats
NOT_PUBLISHED = (SKIPPED, REPEAT)


@dataclass(frozen=True)
class Diagnostic:
    """A warning, a per-paper error or a note ("info"), collected rather than raised."""

    level: str  # "warning", "error" or "info"
    message: str
    path: Path | str | None = None
    line: int | None = None
    code: str = ""  # one of the codes above, or "" (not yet given one)
    count: int = 1  # the records it stands for (a file's repeats of another file are one warning)

    def __str__(self) -> str:
        return f"{_location(self.path, self.line)}{self.level}: {self.message}"

    @classmethod
    def from_error(cls, error: ProceedingsError) -> "Diagnostic":
        return cls("error", error.message, error.path, error.line)
