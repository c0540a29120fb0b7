"""The BibTeX blocks bibtexparser refuses but BibTeX reads: kept, each with a warning naming its line.

bibtexparser is stricter than BibTeX in four ways, and each used to cost a paper (PMLR's own files have
all four):

- a field given twice (``section`` twice, an ``@proceedings``' ``shortname`` twice): BibTeX keeps the
  first value ("I'm ignoring …'s extra field"), and so does this;
- a key used twice: both entries are kept as papers (publish/bibtex.py gives the later one the citation
  key ``key-2``; pages are matched by text when ids repeat: records.py);
- an ``@string`` defined twice: the later definition is used, as BibTeX uses it;
- an entry it cannot split is read again here as BibTeX reads it: every brace counts, with or without
  a backslash before it (BibTeX has no escapes: ``H\\{o}gsgaard`` opens a group and closes it), and an
  entry whose braces never close ends where the next block starts (bibtexparser stops it at a line
  that begins with ``@``): it keeps every field read up to there, the open groups closed.
"""

from __future__ import annotations

import bisect
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import bibtexparser
from bibtexparser import model

from generator import diagnostics as codes

Warn = Callable[..., None]  # (message, 1-based line, code=…, fields…)

# bibtexparser does not count a brace after a backslash; BibTeX counts every brace. Hidden behind this mark
# while bibtexparser splits the file, `\{` and `\}` count as BibTeX counts them, then are put back.
_HIDDEN = "\x01"

_START = re.compile(r"@\s*([A-Za-z][\w:-]*)\s*([{(])")
_NAME = re.compile(r"\s*([^\s=,{}()\"#]+)\s*")
# A line that starts a field, where a value whose brace never closes is taken to end.
_FIELD_LINE = re.compile(r"\n[ \t]*[A-Za-z][\w-]*[ \t]*=[ \t]*[{\"]")
_BARE_END = frozenset(',})#"( \t\r\n')


@dataclass
class Blocks:
    """What BibTeX reads of a file: its entries and ``@string``s, in file order."""

    entries: list[model.Entry] = field(default_factory=list)
    strings: list[model.String] = field(default_factory=list)


def read_blocks(text: str, warn: Warn, skip: Warn) -> Blocks:
    """The entries and strings of a .bib, as BibTeX reads them; ``skip`` hears of a block that is not read."""
    text = text.replace(_HIDDEN, "").replace("\\{", _HIDDEN + "{").replace("\\}", _HIDDEN + "}")
    # bibtexparser logs each block it cannot parse; they are recovered here, or reported with their line.
    logger = logging.getLogger("bibtexparser")
    level, logger.level = logger.level, logging.CRITICAL
    try:
        # Without bibtexparser's own string middleware: it leaves `a # "b"` and `jun` as written.
        library = bibtexparser.parse_string(text, parse_stack=[])
    finally:
        logger.setLevel(level)
    found = recover(library, text, warn, skip)
    keyed: list[model.Entry | model.String] = [*found.entries, *found.strings]
    for block in keyed:
        block.key = block.key.replace(_HIDDEN, "\\")
    for string in found.strings:
        string.value = string.value.replace(_HIDDEN, "\\")
    for entry in found.entries:
        for field_ in entry.fields:
            field_.value = field_.value.replace(_HIDDEN, "\\")
    return found


def recover(library: bibtexparser.Library, text: str, warn: Warn, skip: Warn) -> Blocks:
    """The library's entries and strings, with those bibtexparser failed on recovered."""
    found = Blocks(list(library.entries), list(library.strings))
    lines = text.split("\n")
    anchors = sorted(block.start_line for block in library.blocks
                     if not isinstance(block, model.ImplicitComment) and block.start_line is not None)
    for block in library.failed_blocks:
        kept = _recovered(block, lines, anchors, warn, skip)
        if isinstance(kept, model.String):
            found.strings.append(kept)
        elif kept is not None:
            found.entries.append(kept)  # type: ignore[arg-type]  # what is not a @string is an entry
    # Field names are BibTeX's in any case (BibDesk writes `Author`): one spelling, each field once.
    found.entries = sorted((first_values(entry, warn) for entry in found.entries),
                           key=lambda entry: entry.start_line or 0)
    found.strings.sort(key=lambda string: string.start_line or 0)
    return found


def _recovered(block: model.ParsingFailedBlock, lines: list[str], anchors: list[int], warn: Warn,
               skip: Warn) -> model.Block | None:
    line = (block.start_line or 0) + 1
    if isinstance(block, model.DuplicateFieldKeyBlock):
        return block.ignore_error_block
    if isinstance(block, model.DuplicateBlockKeyBlock):
        kept = block.ignore_error_block
        if isinstance(kept, model.String):
            warn(f"@string {kept.key} is defined again here; the later definition is used, as BibTeX uses it", line,
                 code=codes.BIB_STRING_REDEFINED, subject=kept.key)
        return kept
    if isinstance(block, model.ParsingFailedBlock) and block.start_line is not None:
        after = bisect.bisect_right(anchors, block.start_line)
        end = anchors[after] if after < len(anchors) else len(lines)
        entry = read_entry("\n".join(lines[block.start_line:end]), block.start_line, warn, len(lines))
        if entry is not None:
            return entry
    skip(f"cannot parse this BibTeX block ({reason(block)}); skipped it", line)
    return None


def first_values(entry: model.Entry, warn: Warn) -> model.Entry:
    """``entry`` with each field once, named in lower case, its first value; a warning for each repeat."""
    seen: dict[str, model.Field] = {}
    for field_ in entry.fields:
        name = field_.key.lower()
        if name not in seen:
            seen[name] = model.Field(name, field_.value, field_.start_line)
            continue
        at = (field_.start_line if field_.start_line is not None else entry.start_line or 0) + 1
        same = "the same value" if _bare(field_.value) == _bare(seen[name].value) else "another value"
        warn(f"@{entry.entry_type}{{{entry.key}}} gives `{field_.key}` again, with {same}: the first value is "
             f"kept, as BibTeX keeps it", at, code=codes.BIB_REPEATED_FIELD, paper=entry.key, subject=name)
    return model.Entry(entry.entry_type, entry.key, list(seen.values()), entry.start_line, entry.raw)


def _bare(value: object) -> str:
    return " ".join(str(value).strip().strip('{}"').split())


def read_entry(text: str, first_line: int, warn: Warn, total_lines: int = 0) -> model.Entry | None:
    """The entry at the start of ``text`` (a file's lines from ``first_line``, 0-based), read as BibTeX
    reads it; None when ``text`` holds no ``@type{key,`` to read. ``total_lines``: the file's."""
    start = _START.search(text)
    if start is None:
        return None
    close = "}" if start.group(2) == "{" else ")"
    key_end = _key_end(text, start.end(), close)
    key = text[start.end():key_end].strip()
    if not key or any(char in key for char in "{}=\"") or text[key_end:key_end + 1] != ",":
        return None
    scan = _Scan(text, first_line, close)
    fields = scan.fields(key_end + 1)
    if scan.unclosed_entry or scan.unclosed_values:
        # Braces that never balance: a value may have run on through the fields after it (`title = {Half,`
        # then `author = {…}`). Read again, each value stopped where a line starts the next field.
        scan = _Scan(text, first_line, close, fenced=True)
        fields = scan.fields(key_end + 1)
    entry = f"@{start.group(1)}{{{key}}}"
    after = first_line + text.count("\n") + 2  # the line of the block after, if any
    until = f"the next block (line {after})" if after <= total_lines else "the end of the file"
    for opened, cut in scan.unclosed_values:
        warn(f"{entry}: the brace opened here never closes; the value is read up to line {cut} (where the "
             f"next field or entry starts), the other fields as written", opened, code=codes.BIB_UNCLOSED_BRACE,
             paper=key)
    if scan.unclosed_entry and not scan.unclosed_values:
        warn(f"{entry} never closes its braces; read up to {until}", first_line + 1, code=codes.BIB_UNCLOSED_ENTRY,
             paper=key)
    return model.Entry(start.group(1), key, fields, first_line + _line_of(text, start.start()), text)


class _Scan:
    """Fields of one entry, scanned as BibTeX scans them, and where its braces never close."""

    def __init__(self, text: str, first_line: int, close: str, fenced: bool = False):
        self.text, self.first_line, self.close = text, first_line, close
        self.fenced = fenced  # a group never runs past a line that starts a field
        self.fields_at = [match.start() for match in _FIELD_LINE.finditer(text)]  # where such lines start
        self.unclosed_values: list[tuple[int, int]] = []  # (line its group opens, its last line), 1-based
        self.unclosed_entry = False

    def fields(self, at: int) -> list[model.Field]:
        found: list[model.Field] = []
        while True:
            at = _skip(self.text, at, " \t\r\n,")
            if at >= len(self.text):
                self.unclosed_entry = True
                return found
            if self.text[at] == self.close:
                return found
            name = _NAME.match(self.text, at)
            if name is None or self.text[name.end():name.end() + 1] != "=":
                return found  # BibTeX skips the rest of an entry it cannot read; the fields so far stay
            value, at = self.value(name.end() + 1)
            found.append(model.Field(name.group(1), value, self.first_line + _line_of(self.text, name.start())))

    def value(self, at: int) -> tuple[str, int]:
        """``"a" # b # {c}`` as written, and where it ends."""
        begin = at = _skip(self.text, at, " \t\r\n")
        while at < len(self.text):
            end = self.piece(at)
            if end is None:
                return self.unclosed(begin)
            at = _skip(self.text, end, " \t\r\n")
            if self.text[at:at + 1] != "#":
                return self.text[begin:end], at
            at = _skip(self.text, at + 1, " \t\r\n")
        return self.text[begin:].rstrip(), at

    def unclosed(self, begin: int) -> tuple[str, int]:
        """A value whose group never closes: up to the next line that starts a field (``author = {``),
        else to the end of the entry, its groups closed there."""
        end = self.next_field(begin)
        value = self.text[begin:end].rstrip().removesuffix(",").rstrip()
        self.unclosed_values.append((self.first_line + _line_of(self.text, begin) + 1,
                                     self.first_line + _line_of(self.text, begin + len(value)) + 1))
        depth = sum(1 if char == "{" else -1 for char in value if char in "{}")
        closing = "}" * max(depth, 0) if value.startswith("{") else "}" * max(depth, 0) + '"'
        return value + closing, end

    def next_field(self, at: int) -> int:
        """Where the first line after ``at`` that starts a field begins, else the end of the text."""
        index = bisect.bisect_right(self.fields_at, at)
        return self.fields_at[index] if index < len(self.fields_at) else len(self.text)

    def piece(self, at: int) -> int | None:
        opener = self.text[at]
        if opener not in '{"':
            end = at
            while end < len(self.text) and self.text[end] not in _BARE_END:
                end += 1
            return max(end, at + 1)
        depth, fence = 0, self.next_field(at) if self.fenced else len(self.text)
        for index in range(at + 1, fence):
            char = self.text[index]
            if char == "{":
                depth += 1
            elif char == "}" and depth > 0:
                depth -= 1
            elif char == ("}" if opener == "{" else '"') and depth == 0:
                return index + 1
        return None


def _key_end(text: str, at: int, close: str) -> int:
    end = at
    while end < len(text) and text[end] not in ("," + close + "\n"):
        end += 1
    return end


def _skip(text: str, at: int, chars: str) -> int:
    while at < len(text) and text[at] in chars:
        at += 1
    return at


def _line_of(text: str, at: int) -> int:
    return text.count("\n", 0, at)


def reason(block: model.Block) -> str:
    error = getattr(block, "error", None)
    message = str(error).strip() if error else ""
    # bibtexparser adds a note for programmers ("Note: The entry … is available as `failed_block…`").
    return message.splitlines()[0].split(". Note:")[0] if message else "syntax error"
