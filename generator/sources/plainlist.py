"""The plain abstract list: a title line, then abstracts separated by blank lines."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from generator.text.cleantext import clean
from generator import diagnostics as codes
from generator.errors import ContentError, Diagnostic
from generator.model.paper import Entry, SourceList
from generator.sources.encoding import read_text, with_note
from generator.sources.jsonlines import MAX_RECORD_BYTES


def read(path: Path, name: str, links: object = None) -> SourceList:
    """``links`` is the other readers' (a plain list has none)."""
    decoded = read_text(path, name)
    return with_note(parse(decoded.text, name, path), decoded, name)


def parse(text: str, name: str, path: Path | None = None) -> SourceList:
    lines = [clean(line) for line in text.split("\n")]  # a line of invisible characters is blank
    title_index = next((i for i, line in enumerate(lines) if line.strip()), None)
    if title_index is None:
        raise ContentError("the list is empty; its first line should be the proceedings title", path=name, line=1,
                           code=codes.SOURCE_INVALID)
    title = lines[title_index].strip()
    read = list(_entries(lines, title_index + 1, name))
    entries = tuple(entry for entry in read if isinstance(entry, Entry))
    skipped = tuple(entry for entry in read if isinstance(entry, Diagnostic))
    return SourceList(path=path or Path(name), title=title, entries=entries, diagnostics=skipped)


def _entries(lines: list[str], start: int, name: str) -> Iterator[Entry | Diagnostic]:
    """Group non-blank lines into entries; lines inside an entry join with a newline."""
    block: list[str] = []
    block_line = 0
    index = 0
    for number, line in enumerate(lines[start:], start=start + 1):
        if line.strip():
            if not block:
                block_line = number
            block.append(line.strip())
            continue
        if block:
            index += 1
            yield _entry(block, name, index, block_line)
            block = []
    if block:
        yield _entry(block, name, index + 1, block_line)


def _entry(block: list[str], name: str, index: int, line: int) -> Entry | Diagnostic:
    """An abstract, or why it is skipped: a paragraph has the cap a JSON Lines record has (a whole file
    with no blank line is no abstract, and would take minutes and gigabytes to derive and render)."""
    size = sum(len(text.encode("utf-8")) + 1 for text in block)
    if size > MAX_RECORD_BYTES:
        return Diagnostic("warning", f"this paragraph is {size:,} bytes, past the {MAX_RECORD_BYTES:,} an abstract "
                          "may take (a whole file with no blank line?); skipped it", name, line,
                          code=codes.RECORD_SKIPPED)
    return Entry("\n".join(block), name, index, line)
