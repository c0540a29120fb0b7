"""The MathML elements and attributes a rendered formula may keep (latex/mathml.py sanitises with them); a module
of its own so that reading rendered HTML (latex/tree.py: the search's previews) does not import latex2mathml."""

from __future__ import annotations

ALLOWED_TAGS = frozenset("""
    math mrow mi mn mo mtext mspace ms msub msup msubsup munder mover munderover
    mfrac msqrt mroot mstyle mpadded mphantom menclose mtable mtr mtd mlabeledtr
    merror mmultiscripts mprescripts none semantics annotation
""".split())

ALLOWED_ATTRS = frozenset("""
    xmlns display mathvariant stretchy fence form separator lspace rspace accent
    accentunder columnalign columnspacing columnlines rowspacing rowlines minsize
    maxsize movablelimits largeop symmetric width height depth linethickness
    scriptlevel displaystyle notation open close mathsize linebreak
""".split())
