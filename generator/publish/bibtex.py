"""BibTeX: one ``@inproceedings`` entry per paper, and the whole volume as one .bib file.

A title is written from the same tokens the page is rendered from, so it
says what the page says: text is the plain text, escaped for BibTeX; math
stays LaTeX, as ``{$…$}`` (braced, so a bibliography style's case change
leaves it alone). BibTeX counts every brace, escaped or not, so a literal
brace is written ``\\textbraceleft{}``, never ``\\{``: a field's braces
always balance, whatever the title holds.

Math is written as LaTeX only when every command in it is one the site's math
renderer knows (an allow-list: symbols, fonts, fractions, environments…): a
citation is compiled by whoever cites the paper, so ``\\def``, ``\\input`` or
``\\immediate\\write18`` must never reach it. Other math is written as its plain
text, and the page is warned about.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from generator.errors import shown
from generator.latex import MacroDef
from generator.latex.spaces import collapse
from generator.model.paper import DETAILS, RenderedPaper
from generator.model.schema import Field
from generator.sources.bibstrings import month_macro
from generator.model.volume import Volume

from .reading import Reference, reference_of
from generator import diagnostics as codes

if TYPE_CHECKING:
    from markdown_it.token import Token

CITED = tuple(field for field in DETAILS if field.cite.bibtex)  # the details a BibTeX entry carries
# The places of the entry's own fields; each cited detail's ``Cite.bibtex_at`` puts it among them.
_TITLE_AT, _BOOKTITLE_AT, _ISBN_AT, _ISSN_AT, _URL_AT, _NOTE_AT = 0, 2, 17, 18, 50, 70

_SPECIALS = {
    "\\": r"\textbackslash{}", "{": r"\textbraceleft{}", "}": r"\textbraceright{}",
    "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
}
_SPECIAL = re.compile(r"[\\{}&%$#_~^]")
# In math these are still specials when not escaped: % starts a comment, $ ends the math, & and # fail.
_MATH_SPECIAL = re.compile(r"(?<!\\)([%&#$])")
_WORD = re.compile(r"([^\W_]+(?:[-'’][^\W_]+)*)")
_TEXT_TOKENS = frozenset(("text", "text_special", "code_inline", "tex_error"))
_BREAK_TOKENS = frozenset(("softbreak", "hardbreak"))


@functools.cache
def citable_commands() -> frozenset[str]:
    """What math in a citation may use: the commands the math renderer knows, and environments (matrices).
    (Asked when an entry is written: the renderer's tables import latex2mathml, which a warm build never runs.)"""
    from generator.latex.mathnames import KNOWN

    return KNOWN | {"begin", "end"}


_COMMAND = re.compile(r"\\([A-Za-z@]+)")
_AND = re.compile(r"\sand\s", re.IGNORECASE)  # in a name: braced whole (``_author``)
# TeX reads ^^5c as a backslash: a command spelled so that no scan of the text finds it.
_HIDDEN_CHARACTER = "^^"
# What the typography's core rule pairs as quotes (latex/typography.py: a straight quote closes one only after
# an opening one): a title without these keeps its quote marks as written.
_QUOTE_OPENERS = ("‘", "“", "''", "’’")


def escape(text: str) -> str:
    """Plain text as a BibTeX field value: every special character escaped."""
    return _SPECIAL.sub(lambda match: _SPECIALS[match.group()], text)


def protect_case(text: str) -> str:
    """Escape ``text``, bracing words with a capital after their first letter ("LoRA", "2RDM").

    Bibliography styles lower-case titles; braces keep acronyms as written.
    """
    if _SPECIAL.search(text) is None:  # most titles: nothing to escape, only words to brace (the same text)
        return _WORD.sub(_brace_cased, text)
    pieces = _WORD.split(text)  # words at odd places
    return "".join(f"{{{escape(p)}}}" if n % 2 and any(map(str.isupper, p[1:])) else escape(p)
                   for n, p in enumerate(pieces))


def _brace_cased(word: re.Match[str]) -> str:
    """A word braced when it has a capital after its first letter (``protect_case``)."""
    text = word.group()
    return f"{{{text}}}" if any(map(str.isupper, text[1:])) else text


class BibTeX:
    """Writes entries for one volume; the Markdown parser is built once."""

    def __init__(self, volume: Volume, macros: Mapping[str, MacroDef] | None = None,
                 warn: Callable[..., None] | None = None):
        self.volume = volume
        self._warn = warn
        # Imported here, as they are needed: a warm build keeps its citation files and never writes an entry.
        from generator.latex.math import MATH_TYPES
        from generator.latex.plaintext import MathText
        from generator.latex.renderer import build_markdown

        self._math_types = MATH_TYPES

        # The math rule expands the site's own macros, which a reader's LaTeX would not know.
        self._md = build_markdown(macros)
        # Where the parser's text rule stops: the characters at which an inline rule may start (math, a
        # command, emphasis…).
        self._special = self._md.inline.terminator_re.search
        self._math_text = MathText()

    def entry(self, paper: RenderedPaper, key: str | None = None) -> str:
        """The paper's entry, under ``key`` (``unique_keys``' for it) or else its own citation key."""
        return self.text(reference_of(paper, self.volume, key or self.volume.citation_key(paper)))

    def text(self, ref: Reference) -> str:
        """The entry of a reference (``reference_of``'s)."""
        # (place, field, value): the fixed fields, then each detail the schema cites at its own place.
        fields = [(_TITLE_AT, "title", self.title(ref.markup, ref.page)),
                  (_BOOKTITLE_AT, "booktitle", escape(ref.container))]
        if ref.url:
            fields.append((_URL_AT, "url", _url(ref.url)))
        fields += [(at, name, value) for at, name, value in ((_ISBN_AT, "isbn", ref.isbn),
                                                              (_ISSN_AT, "issn", ref.issn)) if value]
        details = ref.details
        for field in CITED:
            value = details[field.name]
            if value and (value := _bibtex_value(field, value)):  # (an empty detail writes nothing: not asked)
                fields.append((field.cite.bibtex_at, field.cite.bibtex, value))
        if ref.note:  # a retraction travels with the reference
            fields.append((_NOTE_AT, "note", escape(ref.note)))
        body = "".join(f"  {name} = {_braced(name, value)},\n" for _, name, value in sorted(fields, key=lambda f: f[0]))
        return f"@inproceedings{{{ref.key},\n{body}}}\n"

    def title(self, source: str, page: str = "") -> str:
        """A paper title (Markdown + LaTeX, as the page's front matter has it) as a BibTeX value;
        ``page`` names it in a warning about math a citation may not carry."""
        source = collapse(source)
        if self._plain(source):  # most titles: the parser would give them back as one text token
            return collapse(protect_case(source))
        tokens = self._md.parseInline(source, {})
        children = tokens[0].children if tokens else []
        return collapse("".join(self._piece(token, page) for token in children or ()))

    def _plain(self, source: str) -> bool:
        """Whether ``source`` (collapsed) is plain text to the parser: no character any inline rule starts at,
        no quote the typography pairs, nothing the normaliser replaces. A title is parsed for its page's entry,
        its block's and the volume's .bib (issue 43: the parse was most of an entry's time)."""
        # A colon, a hyphen (two are a dash): where the parser's text rule stops but no rule of ours starts alone,
        # so the parser takes them as text (most titles not plain otherwise hold one); replaced by a letter.
        return (self._special(source.replace(":", "a").replace("-", "a")) is None and "--" not in source
                and "\0" not in source
                and not any(quote in source for quote in _QUOTE_OPENERS))

    def _piece(self, token: Token, page: str) -> str:
        if token.type in _TEXT_TOKENS:
            return protect_case(token.content)
        if token.type in _BREAK_TOKENS:
            return " "
        if token.type in self._math_types:
            return self._math(token.meta["latex"], page)
        return ""  # emphasis and link markers: their text comes as text tokens

    def _math(self, latex: str, page: str) -> str:
        latex = collapse(latex)
        refused = uncitable(latex)
        if refused:
            if self._warn is not None:
                self._warn(f"the title's math {shown(latex)} uses {refused}, which a citation may not carry "
                           "(TeX that defines commands or reads and writes files): written as plain text in "
                           "the BibTeX", page, code=codes.CITATION_REFUSED_TEX, subject=refused, value=latex)
            return protect_case(self._math_text(latex))
        if not _balanced(latex):
            return protect_case(self._math_text(latex))
        return "{$" + _MATH_SPECIAL.sub(r"\\\1", latex) + "$}"


def unique_keys(papers: Iterable[RenderedPaper], volume: Volume) -> dict[str, str]:
    """Paper id → its citation key, none repeated in the volume: two .bib sources may share a key, and
    BibTeX (comparing keys without case) keeps only the first entry of a key. The first paper in
    proceedings order keeps it; a later one gets ``key-2``, ``key-3``… whichever is free."""
    wanted = [(paper.paper.id, volume.citation_key(paper)) for paper in papers]
    taken = {key.casefold() for _, key in wanted}
    seen: set[str] = set()
    keys = {}
    for paper_id, key in wanted:
        if key.casefold() in seen:
            number = 2
            while f"{key}-{number}".casefold() in taken:
                number += 1
            key = f"{key}-{number}"
            taken.add(key.casefold())
        seen.add(key.casefold())
        keys[paper_id] = key
    return keys


def uncitable(latex: str) -> str:
    """The commands of ``latex`` a citation may not carry, listed ("" when there are none)."""
    refused = [f"\\{name}" for name in dict.fromkeys(_COMMAND.findall(latex)) if name not in citable_commands()]
    if _HIDDEN_CHARACTER in latex:
        refused.append(_HIDDEN_CHARACTER)
    return ", ".join(refused)


def _braced(name: str, value: str) -> str:
    """A value as written after ``=``: braced, but a month as BibTeX's own macro (``jun``), which
    a bibliography style prints in its own language and form."""
    macro = month_macro(value) if name == "month" else None
    return macro or f"{{{value}}}"


def _bibtex_value(field: Field, value: Any) -> str:
    """A detail as a BibTeX value: names joined with "and", links and DOIs verbatim, text escaped."""
    if field.kind == "authors":
        value = tuple(author.name for author in value)
    if field.kind in ("authors", "names"):
        return " and ".join(_author(name) for name in value)
    if field.kind in ("link", "doi"):
        return _url(value) if value else ""
    return ", ".join(map(escape, value)) if isinstance(value, tuple) else escape(value)


def volume_bib(entries: Iterable[str]) -> bytes:
    """Every paper's entry, in proceedings order, as one UTF-8 .bib file."""
    # Each entry encoded on its own: the volume never exists as one str (papers_json's reason).
    return b"\n".join(entry.encode("utf-8") for entry in entries)


def _balanced(latex: str) -> bool:
    """Braces as BibTeX counts them: every one, escaped or not."""
    depth = 0
    for char in latex:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def _author(name: str) -> str:
    # " and " separates names in BibTeX; a name that contains it is braced whole.
    value = escape(collapse(name))
    if _AND.search(value):
        return f"{{{value}}}"
    if "," in value:  # "John Smith, Jr." is "Smith, Jr., John" to BibTeX; other commas are braced
        base, suffix = value.rsplit(",", 1)
        if " " in base.strip() and "," not in base:
            given, family = base.strip().rsplit(" ", 1)
            return f"{family}, {suffix.strip()}, {given}"
        return f"{{{value}}}"
    return value


def _url(url: str) -> str:
    # A URL is printed verbatim by \url; only braces could upset BibTeX itself.
    return url.replace("{", "%7B").replace("}", "%7D")

