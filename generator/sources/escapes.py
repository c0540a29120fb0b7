"""Line breaks that an export wrote as the two characters ``\\`` ``n``.

Mini-Conf's ``papers.csv`` (and JSON dumped from it) stores a cell's line
breaks as ``\\n``: ``…graphs.\\n\\nFurthermore, …``. Read as LaTeX they are
undefined macros that swallow the next word. But an abstract is LaTeX too, and
``\\nu``, ``\\nabla``, ``\\neq``, ``\\newline`` start with the same two
characters. TeX reads a control word as the longest run of letters after the
backslash, so we do the same: a run that names a command TeX or our renderer
knows is kept; ``\\n`` followed by anything else is a line break.

A run that is no known command but could be an author's own macro
(``\\norm``, lower case) is ambiguous; it is read as a line break only when
the export evidently escapes its line breaks: when the same text, or another
cell of the same file (``file_escapes``), has ``\\n`` breaks that cannot be TeX
(``\\n\\n``, ``\\n`` before a capital, a digit, a space or the end).
"""

from __future__ import annotations

import functools
import re

# Text-mode commands starting with n that a math table does not list.
_TEXT_COMMANDS = frozenset({"newline", "noindent", "nobreak", "nolinebreak", "newpage", "nocite", "normalfont",
                            "normalsize", "nopagebreak", "newcommand", "newtheorem", "nonumber", "notag",
                            "nolimits", "natural", "nmid", "nleq", "ngeq", "nsubseteq", "nsupseteq"})
_ESCAPED = re.compile(r"(?<!\\)\\n([A-Za-z]*)")  # not the n after LaTeX's own \\ break
# Evidence that this text escapes its line breaks: \n not followed by a lower-case letter.
_PLAIN_BREAK = re.compile(r"(?<!\\)(?:\\r\\n|\\n(?![a-z]))")
# \r\n as two escapes (a Windows export); \r alone is TeX's ring accent (\r{a} is å) and stays.
_CRLF = re.compile(r"(?<!\\)\\r(?=\\n)")


def is_tex_command(name: str) -> bool:
    return name in _TEXT_COMMANDS or name in _tex_commands()


@functools.cache
def _tex_commands() -> frozenset[str]:
    """The commands the math renderer knows, its macros and the text abbreviations: read when a text first holds
    a \\n that may be one (the renderer's tables import latex2mathml, which a build that renders nothing needs not)."""
    from generator.latex.builtins import MATH_MACROS, TEXT_ABBREVIATIONS
    from generator.latex.mathnames import KNOWN

    return frozenset(KNOWN) | frozenset(MATH_MACROS) | frozenset(TEXT_ABBREVIATIONS)


def shows_escaped_breaks(text: str) -> bool:
    """Whether ``text`` has a ``\\n`` that cannot be TeX: evidence that its writer escapes line breaks."""
    return bool(_PLAIN_BREAK.search(text))


def decided_breaks(runs: list[str]) -> str:
    """The warning that says which ``\\nword`` runs the file's evidence read as breaks."""
    named = ", ".join(f"`{run}`" for run in dict.fromkeys(runs))
    return (f"this file writes line breaks as \\n (as on this line), so {named} were read as a line break "
            "before a word, not as undefined macros")


def decode_line_breaks(text: str, file_escapes: bool = False, decided: list[str] | None = None) -> str:
    """``text`` with escaped line breaks made real; TeX commands starting with ``\\n`` kept. With
    ``file_escapes`` (another cell of the file shows escaped breaks) an ambiguous ``\\nword`` is a break too,
    and its ``\\nword`` is added to ``decided``."""
    if "\\n" not in text:
        return text
    own = shows_escaped_breaks(text)
    escapes_breaks = own or file_escapes
    if escapes_breaks:
        text = _CRLF.sub("", text)

    def replace(match: re.Match[str]) -> str:
        run = match.group(1)
        if not run:
            return "\n"
        if is_tex_command("n" + run):
            return match.group()
        if run[0].isupper() or own:
            return "\n" + run
        if escapes_breaks:
            if decided is not None:
                decided.append("\\n" + run)
            return "\n" + run
        return match.group()  # an author's own \n… macro, perhaps: the renderer reports it if undefined

    return _ESCAPED.sub(replace, text)
