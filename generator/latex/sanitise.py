"""The second gate for an abstract that kept HTML tags: nh3 (ammonia, html5ever) over its HTML.

htmltags.py already lets only ``em i b strong sub sup code br p ul ol li`` through, without
attributes and balanced. When an abstract kept one, its whole rendered HTML is parsed again
by nh3, a browser-grade parser and sanitiser, with an allow-list of exactly the tags and
attributes this renderer writes: the abstract's subset, its own Markdown and LaTeX output
(links, small capitals, error marks) and MathML. Whatever a bug upstream let through that is
not on the list goes, and the fragment comes out well formed, so it cannot reach into the page
around it. Abstracts without tags skip this (nothing of theirs is HTML).
"""

from __future__ import annotations

import nh3

from .htmltags import ALLOWED
from .mathml import ALLOWED_ATTRS as MATH_ATTRS
from .mathml import ALLOWED_TAGS as MATH_TAGS

LINK_SCHEMES = frozenset(("http", "https", "mailto", "ftp"))  # the renderer's validate_link allows these
# The renderer's own output besides the abstract's subset: Markdown quotes and links, LaTeX styles.
RENDERER_TAGS = frozenset(("a", "blockquote", "span", "u"))
_MARK = frozenset(("class", "title"))  # an error or unknown-macro mark explains itself in its title

_CLEANER = nh3.Cleaner(
    tags=set(ALLOWED | RENDERER_TAGS | MATH_TAGS),
    attributes={"a": {"href"}, "span": set(_MARK), "ol": {"start"}, "merror": set(MATH_ATTRS | _MARK),
                "mi": set(MATH_ATTRS | _MARK), **{tag: set(MATH_ATTRS) for tag in MATH_TAGS - {"merror", "mi"}}},
    url_schemes=set(LINK_SCHEMES),
    link_rel=None,
    strip_comments=True,
)


def sanitise(html: str) -> str:
    """``html`` re-parsed and cleaned by nh3 with the renderer's allow-list."""
    return _CLEANER.clean(html)
