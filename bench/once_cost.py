"""What ``{% once %}`` costs beside rendering a small body every time (issue 43, session 18).

    python bench/once_cost.py [--pages 2000] [--rounds 7]

Renders a paper page's related list (5 links a page, each paper linked from several pages: 80% of the links
met before) with the theme's environment options, once rendering every link and once wrapping each in
``{% once paper.id, root %}`` with a build's fragments, alternating, and prints the least CPU time a page of
each. A link is a few escapes: remembering it costs what rendering it does, so the theme does not wrap it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import jinja2  # noqa: E402

from generator.render.fragments import OnceExtension  # noqa: E402

PLAIN = ('{% for other in related %}\n<li><a href="{{ root }}{{ other.url }}">{{ other.title_html | safe }}</a></li>\n'
         '{% endfor %}')
ONCE = ('{% for other in related %}\n{% once other.paper.id, root %}\n<li><a href="{{ root }}{{ other.url }}">'
        '{{ other.title_html | safe }}</a></li>\n{% endonce %}\n{% endfor %}')


class Linked:
    """A paper as a link shows it."""

    def __init__(self, number: int):
        self.id, self.url = str(number), f"papers/p{number}.html"
        self.title_html = f"Title <em>{number}</em> &amp; more"
        self.paper = self


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    env = jinja2.Environment(extensions=[OnceExtension], autoescape=True, trim_blocks=True, lstrip_blocks=True)
    templates = {"every time": env.from_string(PLAIN), "once": env.from_string(ONCE)}
    papers = [Linked(n) for n in range(args.pages)]
    pages = [[papers[(n * 7 + k * 13) % args.pages] for k in range(5)] for n in range(args.pages)]
    best = dict.fromkeys(templates, float("inf"))
    made: dict[str, list[str]] = {}
    for _ in range(args.rounds):
        for name, template in templates.items():
            fragments: dict = {}
            start = time.process_time()
            made[name] = [template.render(related=related, root="../", _fragments=fragments) for related in pages]
            best[name] = min(best[name], time.process_time() - start)
    assert made["every time"] == made["once"]
    for name, seconds in best.items():
        print(f"  {name:10} {seconds * 1e6 / args.pages:7.1f} µs a page of 5 links")


if __name__ == "__main__":
    main()
