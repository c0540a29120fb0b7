"""The plain abstract list: a title line, then abstracts separated by blank lines."""

from __future__ import annotations

from pathlib import Path

from generator.errors import ContentError
from generator.model import Entry, SourceList


def read(path: Path, name: str) -> SourceList:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ContentError(f"cannot read the list: {exc.strerror}", path=name) from None
    return parse(decode(raw, name), name, path)


def decode(raw: bytes, name: str) -> str:
    """UTF-8 (a BOM is dropped); other bytes are an error naming the line."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ContentError(
            f"byte 0x{raw[exc.start]:02x} is not UTF-8; save the file as UTF-8", path=name, line=line
        ) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def parse(text: str, name: str, path: Path | None = None) -> SourceList:
    lines = text.split("\n")
    title_index = next((i for i, line in enumerate(lines) if line.strip()), None)
    if title_index is None:
        raise ContentError("the list is empty; its first line should be the proceedings title", path=name, line=1)
    title = lines[title_index].strip()
    entries = tuple(_entries(lines, title_index + 1, name))
    return SourceList(path=path or Path(name), title=title, entries=entries)


def _entries(lines: list[str], start: int, name: str):
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
            yield Entry("\n".join(block), name, index, block_line)
            block = []
    if block:
        yield Entry("\n".join(block), name, index + 1, block_line)
