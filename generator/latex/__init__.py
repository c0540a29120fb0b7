"""Abstracts that mix Markdown and LaTeX → HTML with MathML, and plain text.

Built as markdown-it plugins: math rules (math.py), LaTeX text commands
(textmode.py), typography (typography.py), problem reporting (problems.py);
renderer.py assembles them.
"""

from .model import MacroDef, RenderedAbstract, TexProblem
from .renderer import AbstractRenderer

__all__ = ["AbstractRenderer", "MacroDef", "RenderedAbstract", "TexProblem"]
