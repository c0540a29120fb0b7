"""What the templates' autoescaping calls for every ``{{ … }}``, faster for the two kinds it nearly always meets.

A compiled template escapes each value it prints with ``markupsafe.escape`` and marks a ``| safe`` one with
``Markup(value)``: both go through ``Markup.__new__`` in Python (an ``__html__`` check on a plain string), and
``escape`` of a value that is already ``Markup`` makes a copy of it. A paper page prints about fifty values;
those calls were a tenth of a template's time (issue 43). ``escape`` here gives the same text and type: a ``str``
is escaped by markupsafe's own escaping and made ``Markup`` without ``__new__``'s checks, a ``Markup`` is already
what escaping it gives back, and anything else (a number, an object with ``__html__``, an undefined name) goes
to markupsafe as before. ``theme.py`` puts it in each compiled template's namespace and ``safe`` among the
filters; ``tests/test_escaping.py`` holds both to markupsafe's for any text.
"""

from __future__ import annotations

from typing import Any, Callable, cast

import markupsafe
from markupsafe import Markup

def _replaced(text: str, /) -> str:
    """markupsafe's five replacements, spelled out (``_escape_text`` when markupsafe does not name its own)."""
    return (text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;").replace("'", "&#39;")
            .replace('"', "&#34;"))


# markupsafe's escaping of a str's characters (its C speedups when built), without the Markup it wraps it in: its
# name is markupsafe 3's (its names for it have moved between releases), else the same replacements spelled out.
_escape_text: Callable[[str], str] = getattr(markupsafe, "_escape_inner", _replaced)

_new_str = str.__new__


def escape(value: Any, /) -> Markup:
    """``markupsafe.escape(value)``: the same text, as ``Markup``."""
    kind = type(value)
    if kind is str:
        return _new_str(Markup, _escape_text(value))
    if kind is Markup:
        return cast(Markup, value)
    return markupsafe.escape(value)


def mark_safe(value: Any, /) -> Markup:
    """Jinja's ``safe`` filter (``Markup(value)``): the same text, as ``Markup``."""
    kind = type(value)
    if kind is Markup:
        return cast(Markup, value)
    if kind is str:
        return _new_str(Markup, value)
    return Markup(value)
