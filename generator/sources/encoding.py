"""A source's bytes as text: UTF-8 first (the fast path, and what the README asks for), else the encoding
charset-normalizer detects, said once.

Spreadsheets save CSV in the system's code page (Windows-1252 in Western Europe, Shift_JIS in Japan) or as
"Unicode text" (UTF-16, with or without a byte-order mark). Guessing from a list of encodings would misread
what the list leaves out; charset-normalizer weighs every codec Python has by how readable the text comes out.

- A byte-order mark says the encoding (UTF-8, UTF-16 or UTF-32).
- A file that is UTF-8 throughout, with no NUL byte, is UTF-8.
- A file that is UTF-8 but for some lines (a row pasted from another program) keeps UTF-8, and those lines
  are read in the encoding detected for them, each named in the note.
- Any other file (NUL bytes are UTF-16's ASCII) is read in the encoding detected for the whole of it. Where
  Windows-1252 reads the bytes exactly as the detected codec does, it is named (Western text often reads the
  same in cp1250 and cp1252, and cp1252 is what Western spreadsheets write).
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass, replace
from pathlib import Path

from generator.text.yamlutil import as_lf, read_raw
from generator.errors import ContentError, Diagnostic
from generator.model.paper import SourceList
from generator import diagnostics as codes

_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF8, "utf-8-sig"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
_TIE = 0.01  # charset-normalizer's "chaos" (0 = reads cleanly): two codecs this close read the text as well
_FALLBACK = "cp1252"  # for lines no codec reads better: every byte but five is a character in it
_NAMES = {"cp1252": "Windows-1252", "latin_1": "Latin-1", "iso8859_1": "Latin-1", "utf_16": "UTF-16",
          "utf_16_le": "UTF-16 (little-endian, no byte-order mark)",
          "utf_16_be": "UTF-16 (big-endian, no byte-order mark)", "utf-16": "UTF-16", "utf-32": "UTF-32",
          "utf_8": "UTF-8", "cp932": "Shift_JIS", "shift_jis": "Shift_JIS", "cp1250": "Windows-1250",
          "cp1251": "Windows-1251", "gb18030": "GB18030", "big5": "Big5", "euc_jp": "EUC-JP"}


@dataclass(frozen=True)
class Decoded:
    text: str  # LF line ends, no byte-order mark
    encoding: str  # Python's name of the codec the file (or most of it) was read with
    note: str = ""  # what to say about it, once, naming the lines read otherwise; "" for plain UTF-8
    line: int | None = None  # the first line the note is about
    level: str = "warning"  # "info" when the file itself says its encoding (a byte-order mark)


class NotText(ValueError):
    """Bytes no text encoding reads (a binary file)."""

    def __init__(self, line: int, byte: int):
        super().__init__(f"byte 0x{byte:02x} on line {line}")
        self.line, self.byte = line, byte


def read_text(path: Path, name: str) -> Decoded:
    """A source file's text; a file that cannot be read, or is not text, raises ``ContentError`` naming it."""
    try:
        return decode(read_raw(path, name, ContentError))
    except NotText as exc:
        raise ContentError(f"byte 0x{exc.byte:02x} is not UTF-8, and no other text encoding reads the file "
                           "(is it a binary file?); save it as UTF-8 text", path=name, line=exc.line,
                           code=codes.SOURCE_INVALID) from None


def with_note(source: SourceList, decoded: Decoded, name: str) -> SourceList:
    """``source`` (read from the file ``name``) with what its encoding says, first."""
    if not decoded.note:
        return source
    code = codes.ENCODING_DECLARED if decoded.level == "info" else codes.ENCODING_GUESSED
    note = Diagnostic(decoded.level, decoded.note, name, decoded.line, code, value=decoded.encoding)
    return replace(source, diagnostics=(note, *source.diagnostics))


def decode(raw: bytes) -> Decoded:
    """``raw`` as text; ``NotText`` when no encoding reads it (a file that is UTF-8 but for some lines is
    always read: those lines in Windows-1252 at worst)."""
    for bom, marked in _BOMS:
        if raw.startswith(bom):
            said = "" if marked == "utf-8-sig" else f"read as {name(marked)}, as its byte-order mark says"
            return Decoded(as_lf(raw.decode(marked, "replace")).removeprefix("\ufeff"), marked, said, 1, "info")
    if b"\x00" not in raw:
        try:
            return Decoded(as_lf(raw.decode("utf-8")), "utf-8")
        except UnicodeDecodeError:
            pass
        mixed = _mostly_utf8(raw)
        if mixed is not None:
            return mixed
    codec = _detect(raw)
    line, byte = _first_not_utf8(raw)
    if codec is None:
        raise NotText(line, byte)
    return Decoded(as_lf(raw.decode(codec, "replace")).removeprefix("\ufeff"), codec,
                   f"not UTF-8 (byte 0x{byte:02x} here is the first that is not): read as {name(codec)}, the "
                   "encoding the file appears to be in (if accents or names look wrong on the site, save it as "
                   "UTF-8)", line)


def name(codec: str) -> str:
    """A codec as a person knows it: ``cp1252`` → Windows-1252."""
    return _NAMES.get(codec.lower(), codec.replace("_", "-").upper())


def _first_not_utf8(raw: bytes) -> tuple[int, int]:
    """The line and value of the first byte that is not UTF-8 (a NUL counts: text has none)."""
    at = raw.find(b"\x00")
    if at < 0:
        try:
            raw.decode("utf-8")
            return 1, 0
        except UnicodeDecodeError as exc:
            at = exc.start
    return raw.count(b"\n", 0, at) + 1, raw[at]


def _detect(raw: bytes) -> str | None:
    """The codec that reads ``raw`` best; of those that read it as cleanly, Windows-1252, when it is one
    (a short Western text reads as cleanly in mac_latin2 or cp1250, whose letters differ where it matters)."""
    import charset_normalizer  # here: 90 ms of every build's start, for the rare file that is not UTF-8

    matches = charset_normalizer.from_bytes(raw)
    best = matches.best()
    if best is None:
        return None
    clean = [match for match in matches if match.chaos <= best.chaos + _TIE]
    if any(_FALLBACK in (codec.lower() for codec in match.could_be_from_charset) for match in clean):
        return _FALLBACK
    return best.encoding


def _mostly_utf8(raw: bytes) -> Decoded | None:
    """A UTF-8 file with some lines in another encoding, or None when UTF-8 is not the file's encoding
    (fewer lines show it, by characters outside ASCII, than fail to decode)."""
    lines = raw.split(b"\n")
    bad: list[int] = []
    shown = 0
    for number, line in enumerate(lines):
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:
            bad.append(number)
            continue
        shown += not line.isascii()
    if shown < len(bad):
        return None
    codec = _detect(b"\n".join(lines[n] for n in bad)) or _FALLBACK
    if codec.replace("-", "_").startswith(("utf_16", "utf_32")):
        codec = _FALLBACK  # a line of a UTF-8 file is not UTF-16
    others = set(bad)
    text = [_line(line, codec) if n in others else line.decode("utf-8") for n, line in enumerate(lines)]
    where = _lines(bad)
    return Decoded(as_lf("\n".join(text)), "utf-8", f"{where} not UTF-8 like the rest of the file: read as "
                   f"{name(codec)} (save the file as UTF-8 to be sure)", bad[0] + 1)


def _line(line: bytes, codec: str) -> str:
    try:
        return line.decode(codec)
    except UnicodeDecodeError:
        return line.decode("latin-1")  # every byte is a character: nothing of the line is lost


def _lines(numbers: list[int]) -> str:
    shown = ", ".join(str(n + 1) for n in numbers[:5]) + (f" and {len(numbers) - 5} more" if len(numbers) > 5 else "")
    return f"line {shown} is" if len(numbers) == 1 else f"lines {shown} are"
