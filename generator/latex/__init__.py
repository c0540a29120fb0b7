"""Abstracts that mix Markdown and LaTeX → HTML with MathML, and plain text.

Built as markdown-it plugins: math rules (math.py), LaTeX text commands
(textmode.py, with citations.py, textgroups.py and textmath.py for math that
lost its dollars), lists and paragraphs (structure.py), typography
(typography.py), the HTML subset an abstract may carry (htmltags.py, then nh3 in
sanitise.py), problem reporting (problems.py); renderer.py assembles them (and
abstract_renderer.py, what a project holds, imports it when it first renders).
Math is converted by latex2mathml (mathml.py) and corrected (mathfix.py);
undefined.py shows undefined macros as their names in place and sets \\text{…} as text;
builtins.py holds the macros authors define for themselves, guesses.py the
meaning of conventional ones nothing defines (each guess reported), repair.py fixes
damaged math source (and writes amsmath environments latex2mathml lacks as
ones it has); citekeys.py reads a citation key as authors and year. tree.py
gives a title's MathML as data for search.js.
"""

from __future__ import annotations

from .abstract_renderer import AbstractRenderer
from .model import MacroDef, RenderedAbstract, TexProblem

__all__ = ["AbstractRenderer", "MacroDef", "RenderedAbstract", "TexProblem"]

