"""Console output, kept out of the build core (Lektor's reporter idea).

The build calls a ``Reporter``; the CLI decides what a person sees.
"""

from __future__ import annotations

import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, TextIO

from generator.diagnostics import NOT_PUBLISHED, REGISTRY
from generator.errors import Diagnostic

# What a terminal would act on rather than show: C0 and C1 controls (ESC starts colour, cursor and
# OSC sequences; CR overwrites the line) and the direction overrides. A line break stays a line break.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """``text`` with every control character shown as an escape (``\\x1b``), never acted on."""
    return _CONTROL.sub(lambda match: match.group().encode("unicode_escape").decode("ascii"), text)


class Reporter:
    """Collects diagnostics and stage timings; prints nothing."""

    def __init__(self) -> None:
        self.diagnostics: list[Diagnostic] = []
        self.timings: dict[str, float] = {}

    def report(self, diagnostic: Diagnostic) -> None:
        self.diagnostics.append(diagnostic)

    def warn(self, message: str, path: Path | str | None = None, line: int | None = None, *, code: str,
             **fields: Any) -> None:
        """A warning of kind ``code`` (generator/diagnostics.py); ``fields``: paper, subject, value."""
        self.report(Diagnostic("warning", message, path, line, code, **fields))

    def error(self, message: str, path: Path | str | None = None, line: int | None = None, *, code: str,
              **fields: Any) -> None:
        self.report(Diagnostic("error", message, path, line, code, **fields))

    def info(self, message: str) -> None:
        """A line of progress for a person; silent by default."""

    def say(self, message: str) -> None:
        """A line the command itself prints (what changed, its summary): never held back."""
        self.info(message)

    def stage(self, name: str, seconds: float) -> None:
        self.timings[name] = seconds

    def progress(self, stage: str, done: int, total: int) -> None:
        """``done`` of ``total`` items of a long stage; shown only on a terminal."""

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.level == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.level == "warning"]

    @property
    def not_published(self) -> list[Diagnostic]:
        """The diagnostics of records no page shows (skipped, or repeats published once)."""
        return [d for d in self.diagnostics if d.code in NOT_PUBLISHED]


class ConsoleReporter(Reporter):
    """Prints diagnostics as they come, and info lines unless quiet.

    On a terminal, long stages show a progress line (done/total, rate) that
    the next message overwrites; piped output never gets one. Without ``verbose``,
    what a large build prints stays within a screen: past ``WARNINGS_SHOWN``
    warnings and ``NOTES_SHOWN`` notes, the others are counted, not printed, and
    summarised by their code, one line per kind — but a record not published is printed past that, up to
    ``NOT_PUBLISHED_SHOWN`` of them (the summary line counts them all).
    """

    WARNINGS_SHOWN = 30
    NOT_PUBLISHED_SHOWN = 5
    NOTES_SHOWN = 8
    KINDS_SHOWN = 5  # lines of the summary of warnings not shown, one per code
    PLACES_SHOWN = 3  # the first places of each kind

    def __init__(self, stream: TextIO | None = None, *, verbose: bool = False, quiet: bool = False):
        super().__init__()
        self.stream = stream or sys.stderr
        self.verbose = verbose
        self.quiet = quiet
        self.live = self.stream.isatty() and not quiet
        self._progress_shown = False
        self._last_progress = 0.0
        self._stage_start: dict[str, float] = {}
        self._hidden: list[Diagnostic] = []
        self._shown = Counter[str]()  # "warning", "not published", "note" → lines printed

    def report(self, diagnostic: Diagnostic) -> None:
        super().report(diagnostic)
        if diagnostic.level == "info":
            self._note(str(diagnostic))
        elif diagnostic.level == "error" or self.verbose or self._room(diagnostic):
            self._print(str(diagnostic))
        else:
            self._hidden.append(diagnostic)

    def _room(self, diagnostic: Diagnostic) -> bool:
        """Whether a warning is printed (without ``verbose``), counting it if so."""
        kind = "not published" if diagnostic.code in NOT_PUBLISHED else "warning"
        if self._shown["warning"] < self.WARNINGS_SHOWN:
            kind = "warning"
        elif kind == "warning" or self._shown[kind] >= self.NOT_PUBLISHED_SHOWN:
            return False
        self._shown[kind] += 1
        return True

    def info(self, message: str) -> None:
        self._note(message)

    def say(self, message: str) -> None:
        if not self.quiet:
            self._print(message)

    def _note(self, message: str) -> None:
        if self.quiet:
            return
        if self.verbose or self._shown["note"] < self.NOTES_SHOWN:
            self._shown["note"] += 1
            self._print(message)
        else:
            self._shown["notes hidden"] += 1

    def stage(self, name: str, seconds: float) -> None:
        super().stage(name, seconds)
        if self.verbose:
            self._print(f"  {name:<18} {seconds * 1000:8.1f} ms")

    def progress(self, stage: str, done: int, total: int) -> None:
        if not self.live:
            return
        now = time.monotonic()
        start = self._stage_start.setdefault(stage, now)
        if done < total and now - self._last_progress < 0.1:
            return  # ten updates a second are plenty
        self._last_progress = now
        rate = done / (now - start) if now > start else 0.0
        self.stream.write(f"\r\x1b[K{stage}: {done:,}/{total:,} ({rate:,.0f}/s)")
        self.stream.flush()
        self._progress_shown = True

    def summary(self) -> str:
        """How many warnings and notes went unprinted, then one line per kind (code) of the warnings:
        its count, its meaning and its first places."""
        notes = self._shown["notes hidden"]
        if not self._hidden and not notes:
            return ""
        hidden = [f"{len(self._hidden)} more warnings"] if self._hidden else []
        hidden += [f"{notes} more notes"] if notes else []
        kinds = by_code(self._hidden)
        lines = [f"{' and '.join(hidden)} not shown (-v shows all)" + (":" if kinds else "")]
        for code, found in list(kinds.items())[: self.KINDS_SHOWN]:
            places = list(dict.fromkeys(d.place for d in found if d.place))
            first = ", ".join(places[: self.PLACES_SHOWN]) + (", …" if len(places) > self.PLACES_SHOWN else "")
            lines.append(f"  {len(found)} × {code}: {REGISTRY[code].meaning}" + (f" ({first})" if first else ""))
        if len(kinds) > self.KINDS_SHOWN:
            others = sum(len(found) for found in list(kinds.values())[self.KINDS_SHOWN:])
            lines.append(f"  and {others} of {len(kinds) - self.KINDS_SHOWN} other kind(s) (docs/diagnostics.md "
                         "lists every code)")
        return "\n".join(lines)

    def _print(self, line: str) -> None:
        if self._progress_shown:
            self.stream.write("\r\x1b[K")
            self._progress_shown = False
        print(printable(line), file=self.stream)


def not_published(diagnostics: list[Diagnostic], shown: int = 5) -> str:
    """"3 records not published (a.bib:55, b.csv:3, …)" for the diagnostics of records no page shows."""
    records = sum(d.count for d in diagnostics)
    if not records:
        return ""
    places = [d.place for d in diagnostics[:shown]]
    more = ", …" if len(diagnostics) > shown else ""
    return f"{records} record{'' if records == 1 else 's'} not published ({', '.join(places)}{more})"


def by_code(diagnostics: list[Diagnostic]) -> dict[str, list[Diagnostic]]:
    """The diagnostics by code, the most frequent kind first (the first met first among equals)."""
    kinds: dict[str, list[Diagnostic]] = {}
    for diagnostic in diagnostics:
        kinds.setdefault(diagnostic.code, []).append(diagnostic)
    return dict(sorted(kinds.items(), key=lambda kind: -len(kind[1])))
