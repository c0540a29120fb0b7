"""Console output, kept out of the build core (Lektor's reporter idea).

The build calls a ``Reporter``; the CLI decides what a person sees.
"""

from __future__ import annotations

import sys
from typing import TextIO

from generator.errors import Diagnostic


class Reporter:
    """Collects diagnostics and stage timings; prints nothing."""

    def __init__(self) -> None:
        self.diagnostics: list[Diagnostic] = []
        self.timings: dict[str, float] = {}

    def report(self, diagnostic: Diagnostic) -> None:
        self.diagnostics.append(diagnostic)

    def warn(self, message: str, path=None, line=None) -> None:
        self.report(Diagnostic("warning", message, path, line))

    def error(self, message: str, path=None, line=None) -> None:
        self.report(Diagnostic("error", message, path, line))

    def info(self, message: str) -> None:
        """A line of progress for a person; silent by default."""

    def stage(self, name: str, seconds: float) -> None:
        self.timings[name] = seconds

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.level == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.level == "warning"]


class ConsoleReporter(Reporter):
    """Prints diagnostics as they come, and info lines unless quiet."""

    def __init__(self, stream: TextIO | None = None, *, verbose: bool = False, quiet: bool = False):
        super().__init__()
        self.stream = stream or sys.stderr
        self.verbose = verbose
        self.quiet = quiet

    def report(self, diagnostic: Diagnostic) -> None:
        super().report(diagnostic)
        print(diagnostic, file=self.stream)

    def info(self, message: str) -> None:
        if not self.quiet:
            print(message, file=self.stream)

    def stage(self, name: str, seconds: float) -> None:
        super().stage(name, seconds)
        if self.verbose:
            print(f"  {name:<18} {seconds * 1000:8.1f} ms", file=self.stream)
