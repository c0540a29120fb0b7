"""The one error hierarchy, and the diagnostics a build collects.

Every error a user can fix is a ``ProceedingsError``: the CLI prints it as
``file:line: message`` and exits non-zero, never with a traceback.
"""

from __future__ import annotations

import reprlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator import diagnostics as codes
from generator.diagnostics import checked

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
    """A problem the user can fix, located in a file when we know where; ``code`` says its kind
    (generator/diagnostics.py), by default its class's."""

    code = codes.COMMAND_INVALID

    def __init__(self, message: str, *, path: Path | str | None = None, line: int | None = None,
                 code: str | None = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        if code is not None:
            checked(code, "error")
            self.code = code

    def __str__(self) -> str:
        return f"{_location(self.path, self.line)}{self.message}"


class ConfigError(ProceedingsError):
    """proceedings.yaml is unreadable or invalid; the build cannot start."""

    code = codes.CONFIG_INVALID


class ContentError(ProceedingsError):
    """An abstract list or a paper page is malformed."""

    code = codes.CONTENT_INVALID


class ThemeError(ProceedingsError):
    """A template is missing or broken; no page can be trusted."""

    code = codes.THEME_INVALID


class OutputError(ProceedingsError):
    """The site could not be written; the previous site is left as it was."""

    code = codes.OUTPUT_FAILED


@dataclass(frozen=True)
class Diagnostic:
    """A warning, a per-paper error or a note ("info"), collected rather than raised.

    ``code`` (generator/diagnostics.py) says its kind: output groups by it and ``check`` reads it, never the
    message, which is for a person. One made without a registered code, or at another level than its
    code's, raises ``UnknownCode``. The fields name what it is about, for tools: ``paper`` (its page or its
    list entry), ``subject`` (the macro, the name, the field, the column…) and ``value`` (what was found)."""

    level: str  # "warning", "error" or "info"
    message: str
    path: Path | str | None = None
    line: int | None = None
    code: str = ""  # required: the default only lets the fields keep their order (an empty code raises)
    count: int = 1  # the records it stands for (a file's repeats of another file are one warning)
    paper: str = ""
    subject: str = ""
    value: str = ""

    def __post_init__(self) -> None:
        checked(self.code, self.level)

    def __str__(self) -> str:
        return f"{_location(self.path, self.line)}{self.level}: {self.message}"

    @property
    def place(self) -> str:
        """``file:line``, or the file alone, or "" for a diagnostic of no file."""
        if self.path is None:
            return ""
        return f"{self.path}:{self.line}" if self.line else str(self.path)

    @classmethod
    def from_error(cls, error: ProceedingsError) -> "Diagnostic":
        return cls("error", error.message, error.path, error.line, error.code)

    def to_record(self) -> list:
        """As JSON (the build cache and a series' record of a volume keep what it said)."""
        return [self.level, self.message, None if self.path is None else str(self.path), self.line, self.code,
                self.count, self.paper, self.subject, self.value]

    @classmethod
    def from_record(cls, record: list) -> "Diagnostic":
        """Again from ``to_record``; a record without a registered code (an older build's) raises ``UnknownCode``."""
        return cls(*record)
