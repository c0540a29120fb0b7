"""Tables for text-mode LaTeX: styles, symbols and accents (data, no parsing)."""

from __future__ import annotations

import unicodedata

# Commands with one argument that style it: name → (HTML tag, attributes).
# An empty tag means "just a group": the argument renders unstyled.
SMALLCAPS = ("span", (("class", "smallcaps"),))
STYLE_COMMANDS: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "emph": ("em", ()), "textit": ("em", ()), "textsl": ("em", ()),
    "textbf": ("strong", ()),
    "texttt": ("code", ()),
    "underline": ("u", ()),
    "textsc": SMALLCAPS,
    "textsuperscript": ("sup", ()), "textsubscript": ("sub", ()),
    "textrm": ("", ()), "textsf": ("", ()), "textup": ("", ()), "textmd": ("", ()),
    "textnormal": ("", ()), "text": ("", ()), "mbox": ("", ()),
}

# Old-style declarations (``{\em …}``): they style the rest of the enclosing group.
SWITCHES: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "em": ("em", ()), "it": ("em", ()), "sl": ("em", ()), "itshape": ("em", ()), "slshape": ("em", ()),
    "bf": ("strong", ()), "bfseries": ("strong", ()),
    "tt": ("code", ()), "ttfamily": ("code", ()),
    "sc": SMALLCAPS, "scshape": SMALLCAPS,
    "rm": ("", ()), "sf": ("", ()), "normalfont": ("", ()), "upshape": ("", ()), "mdseries": ("", ()),
}

# Symbols used inside words (Bj\o rn, Gro\ss e): like TeX, they eat the spaces after them.
LETTER_SYMBOLS = {
    "ss": "ß", "o": "ø", "O": "Ø", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ",
    "l": "ł", "L": "Ł", "i": "ı", "j": "ȷ", "aa": "å", "AA": "Å",
}

# Symbols used between words: they keep the following space, because abstracts
# typed for the web write "\ldots and", not "\ldots{} and".
WORD_SYMBOLS = {
    "ldots": "…", "dots": "…", "textellipsis": "…",
    "textendash": "–", "textemdash": "—",
    "S": "§", "P": "¶", "dag": "†", "ddag": "‡", "textdagger": "†", "textdaggerdbl": "‡",
    "copyright": "©", "textcopyright": "©", "textregistered": "®", "texttrademark": "™",
    "LaTeX": "LaTeX", "TeX": "TeX", "LaTeXe": "LaTeX2ε",
    "textasciitilde": "~", "textbackslash": "\\", "textasciicircum": "^",
    "textunderscore": "_", "textbar": "|", "textless": "<", "textgreater": ">",
    "textbullet": "•", "textdegree": "°", "pounds": "£", "textsterling": "£", "euro": "€",
    "textquoteleft": "‘", "textquoteright": "’", "textquotedblleft": "“", "textquotedblright": "”",
    "guillemotleft": "«", "guillemotright": "»",
    "quad": "\u2003", "qquad": "\u2003\u2003", "enspace": "\u2002", "thinspace": "\u2009",
    "textperiodcentered": "·", "textmu": "µ",
    "item": "•",  # an \item that no list holds (in a title; a paragraph's become a list: structure.py)
}

# Accent control symbols (\'e) and control words (\c{c}) → combining marks.
SYMBOL_ACCENTS = {
    "'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308",
    "~": "\u0303", "=": "\u0304", ".": "\u0307",
}
LETTER_ACCENTS = {
    "c": "\u0327", "v": "\u030c", "u": "\u0306", "H": "\u030b",
    "k": "\u0328", "r": "\u030a", "d": "\u0323", "b": "\u0331",
}

# Control symbols with a text meaning of their own; other ASCII punctuation
# (\% \& \$ \# \_ \{ \}) is left to markdown-it's escape rule, which already
# turns it into the character.
CONTROL_SYMBOLS = {" ": " ", "\n": " ", "\t": " ", ",": "\u2009", "-": "", "/": "", "@": ""}

# A dotless base takes the accent: \'{\i} is í.
DOTLESS = {"\\i": "i", "\\j": "j", "ı": "i", "ȷ": "j"}


def accented(base: str, mark: str) -> str:
    """Put ``mark`` on the first character of ``base`` and compose (NFC)."""
    if not base:
        return unicodedata.normalize("NFC", "\u00a0" + mark)
    return unicodedata.normalize("NFC", base[0] + mark) + base[1:]

# Layout commands with no meaning in a web page, and how many arguments they take.
IGNORED = {
    "noindent": 0, "indent": 0, "xspace": 0, "protect": 0, "relax": 0, "centering": 0,
    "smallskip": 0, "medskip": 0, "bigskip": 0, "hfill": 0, "vfill": 0, "newpage": 0,
    "clearpage": 0, "nobreak": 0, "break": 0, "maketitle": 0, "normalsize": 0, "small": 0,
    "footnotesize": 0, "large": 0, "label": 1, "vspace": 1, "hspace": 1, "phantom": 1,
    "allowbreak": 0,
    # math styles that reached text: what follows them is text, or math that textmath.py finds anyway
    "displaystyle": 0, "textstyle": 0, "scriptstyle": 0, "scriptscriptstyle": 0,
}

# Line and paragraph breaks. A \par that survives the paragraph split (structure.py),
# as in a title, is a break between words.
BREAKS = {"newline": "hardbreak", "linebreak": "hardbreak", "par": "softbreak"}
