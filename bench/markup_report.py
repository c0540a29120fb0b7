"""What a reader of a built site sees of markup: literal HTML tags, TeX ties, unknown macros.

    python bench/markup_report.py SITE_DIR [SITE_DIR ...] [--examples N]

Each SITE_DIR is a built volume (or a series: every ``papers/*.html`` below it is read).
For each paper page the report takes the text a reader sees (tags stripped, entities
unescaped, <script>/<style>/<template> left out, the ``title`` attributes of marks left
out) and counts:

- literal HTML tags: ``<em>``, ``</li>``, ``<br/>``… shown as text (any HTML element name);
- visible ``~``: a tilde that is not part of a web address (``http://x.org/~user`` keeps its);
- unknown macros: pages with an element marked ``tex-unknown`` or ``tex-error``;
  ``undefined macro`` marks are counted on their own, as the issue's target names them.

The search documents (``assets/search/d*.js``) and ``papers.json`` are checked for literal
tags too: a search snippet shows the abstract's plain text. Prints one line per measure, the
share of pages, and a few examples of each.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path

# Element names a reader would recognise as HTML markup left in the text.
_TAG_NAMES = ("a|abbr|b|big|blockquote|br|center|code|div|em|font|h[1-6]|hr|i|img|li|ol|p|pre|s|script|"
              "small|span|strike|strong|style|sub|sup|table|td|th|tr|tt|u|ul|iframe|object|embed|svg")
LITERAL_TAG = re.compile(r"</?(?:" + _TAG_NAMES + r")\b[^<>]{0,200}?/?>", re.IGNORECASE)
_URL = re.compile(r"\b(?:https?|ftp)://\S+|\bwww\.\S+")
_HIDDEN = frozenset(("script", "style", "template"))
_MARK_CLASSES = ("tex-unknown", "tex-error")
_ACCENTS = frozenset(("mover", "munder", "munderover"))


class _Visible(HTMLParser):
    """The visible text of a page, and the marks (``class`` and ``title``) it carries."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.marks: list[tuple[str, str]] = []
        self._hidden = 0
        self._accents = 0  # inside MathML <mover>/<munder>: a ~ there is \\tilde's accent, not a tie

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            self._hidden += 1
        elif tag in _ACCENTS:
            self._accents += 1
        values = dict(attrs)
        classes = (values.get("class") or "").split()
        for name in _MARK_CLASSES:
            if name in classes:
                self.marks.append((name, values.get("title") or ""))

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN and self._hidden:
            self._hidden -= 1
        elif tag in _ACCENTS and self._accents:
            self._accents -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.text.append(data.replace("~", "\u02dc") if self._accents else data)


def visible(page: str) -> _Visible:
    parser = _Visible()
    parser.feed(page)
    parser.close()
    return parser


def visible_tildes(text: str) -> list[str]:
    """Each ``~`` outside a web address, with a little context."""
    text = _URL.sub(" ", text)
    return [text[max(0, at - 30) : at + 20] for at in (m.start() for m in re.finditer("~", text))]


def page_report(path: Path) -> dict[str, list[str]]:
    seen = visible(path.read_text(encoding="utf-8"))
    text = " ".join(seen.text)
    found: dict[str, list[str]] = {
        "literal HTML tag": [m.group() for m in LITERAL_TAG.finditer(text)],
        "visible ~": visible_tildes(text),
        "unknown macro": [title for name, title in seen.marks if "undefined macro" in title],
        "any TeX mark": [f"{name}: {title}" for name, title in seen.marks],
    }
    return found


def search_texts(site: Path) -> list[tuple[str, str]]:
    """(where, text) of each string a search result or papers.json shows."""
    out: list[tuple[str, str]] = []
    for shard in sorted(site.glob("**/assets/search/d*.js")):
        body = shard.read_text(encoding="utf-8")
        start, end = body.find('JSON.parse("'), body.rfind('")')
        if start < 0 or end < 0:
            continue
        for doc in json.loads(json.loads('"' + body[start + 12 : end] + '"')):
            out += [(f"{shard.relative_to(site)}", value) for value in doc if isinstance(value, str)]
    for listing in sorted(site.glob("**/papers.json")):
        for paper in json.loads(listing.read_text(encoding="utf-8")):
            out += [(str(listing.relative_to(site)), paper.get(key) or "") for key in ("title", "abstract")]
    return out


def report(sites: list[Path], examples: int) -> dict[str, int]:
    pages = sorted(page for site in sites for page in site.glob("**/papers/*.html"))
    hits: dict[str, list[tuple[Path, list[str]]]] = defaultdict(list)
    for page in pages:
        for measure, found in page_report(page).items():
            if found:
                hits[measure].append((page, found))
    searchable = [(where, text) for site in sites for where, text in search_texts(site)]
    tagged = [(where, m.group()) for where, text in searchable for m in LITERAL_TAG.finditer(html.unescape(text))]
    total = max(len(pages), 1)
    print(f"{len(pages)} paper pages in {', '.join(str(site) for site in sites)}")
    counts = {}
    for measure in ("literal HTML tag", "visible ~", "unknown macro", "any TeX mark"):
        found = hits.get(measure, [])
        count = sum(len(items) for _, items in found)
        counts[measure] = len(found)
        print(f"  {measure:18} {len(found):5} pages ({100 * len(found) / total:5.2f}%), {count} places")
        for page, items in found[:examples]:
            print(f"      {page.name}: {', '.join(repr(item[:70]) for item in items[:3])}")
    counts["search literal tags"] = len(tagged)
    print(f"  {'search/papers.json':18} {len(tagged):5} literal tags in {len(searchable)} texts")
    for where, tag in tagged[:examples]:
        print(f"      {where}: {tag!r}")
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sites", nargs="+", type=Path, help="built site folders")
    parser.add_argument("--examples", type=int, default=5, help="examples shown per measure")
    args = parser.parse_args(argv)
    missing = [site for site in args.sites if not site.is_dir()]
    if missing:
        print(f"not a folder: {', '.join(map(str, missing))}", file=sys.stderr)
        return 2
    report(args.sites, args.examples)
    return 0


if __name__ == "__main__":
    sys.exit(main())
