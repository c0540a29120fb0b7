"""``{% once key, … %}…{% endonce %}``: a part of a template rendered once per key in a build (issue 29).

A site shows the same things on thousands of pages: the header, search box and footer of every page at one
depth, a paper's item in each topic and author list that names it. Jinja evaluates them again on every page;
this tag renders its body the first time a build meets its keys (and its place in the template) and gives the
same text every later time, as Hugo's ``partialCached`` and Flask-Caching's ``{% cache %}`` do.

The body must depend only on its keys and on what is the same for every page of the build (``site``, the
topic and author addresses, the interface language): a page's other variables are not part of the key.
The remembered text lives in the render's ``_fragments`` dict, which ``SiteRenderer`` makes afresh for each
build (and serve for each pass): a template rendered without one renders the body every time.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable
from typing import Any

from jinja2 import nodes
from jinja2.ext import Extension
from jinja2.parser import Parser
from markupsafe import Markup

FRAGMENTS = "_fragments"  # the context variable holding a build's remembered fragments
_blocks = itertools.count()


class OnceExtension(Extension):
    tags = {"once"}

    def parse(self, parser: Parser) -> nodes.Node:
        lineno = next(parser.stream).lineno
        keys: list[nodes.Expr] = []
        while parser.stream.current.type != "block_end":
            if keys:
                parser.stream.expect("comma")
            keys.append(parser.parse_expression())
        body = parser.parse_statements(("name:endonce",), drop_needle=True)
        # Two `once` blocks with the same keys are two fragments, on one line too: the block is part of the key.
        place = nodes.Const(f"{parser.name}:{lineno}:{next(_blocks)}")
        call = self.call_method("_once", [place, nodes.Tuple(keys, "load"), nodes.ContextReference()])
        return nodes.CallBlock(call, [], [], body).set_lineno(lineno)

    @staticmethod
    def _once(place: str, keys: tuple[Hashable, ...], context: Any, caller: Callable[[], Markup]) -> Markup:
        remembered = context.get(FRAGMENTS)
        if remembered is None:
            return caller()
        key = (place, keys)
        found: Markup | None = remembered.get(key)
        if found is None:
            found = remembered[key] = caller()
        return found
