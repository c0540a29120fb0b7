"""Our MathML against KaTeX's, on the math of real abstracts: symbols and structure.

    python bench/katex_compare.py [FILES...] [--katex-dir DIR] [--examples N]

KaTeX comes from npm, installed by this script into ``--katex-dir`` (default
``bench/out/katex``, outside the package: never a project dependency) with
``npm install katex``. Every math span of the abstracts (default: the shared NeurIPS and
ICLR corpora) is rendered by our renderer; the LaTeX it converted (macros expanded, damage
repaired) goes to KaTeX's MathML output, so the two converters see the same source.
On each distinct span both render, the two trees are compared after normalising what
does not change what a reader sees:

- *symbols*: the text of every token element in order, with ``mathvariant`` applied as
  Unicode's mathematical letters (we write 𝐱 where KaTeX writes ``<mi mathvariant="bold">x``),
  invisible operators (function application) and spaces dropped, and the few characters that
  both use for one symbol made one (``‖``/``∥``, ``−``/``-``, a combining or spacing accent);
- *structure*: the nesting of layout elements (fractions, roots, scripts, tables, accents)
  with grouping ``mrow``s flattened; a script is a script whether set as ``msub`` or
  ``munder`` (limits move in display math).

It reports the spans rendered by each, the spans both render, and the share identical in
symbols, in structure and in both, with examples of each kind of difference.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import unicodedata
from collections import Counter
from pathlib import Path
from xml.etree import ElementTree

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from generator.latex import AbstractRenderer  # noqa: E402
from generator.latex.mathfix import _styled  # noqa: E402
from generator.latex.renderer import build_markdown  # noqa: E402

CORPORA = REPO.parent / "shared" / "corpora"
DEFAULT_FILES = [CORPORA / "neurips-2010-2018.jsonl", CORPORA / "iclr-2020.jsonl"]
KATEX_VERSION = "0.19.1"
NS = "{http://www.w3.org/1998/Math/MathML}"

_NODE = r"""
const katex = require(process.argv[1]);
const lines = require("fs").readFileSync(0, "utf8").split("\n").filter(Boolean);
for (const line of lines) {
  const {latex, display} = JSON.parse(line);
  try {
    const out = katex.renderToString(latex, {output: "mathml", displayMode: display, throwOnError: true,
                                             strict: "ignore", trust: false});
    console.log(JSON.stringify({mathml: out}));
  } catch (e) {
    console.log(JSON.stringify({error: String(e.message || e).slice(0, 200)}));
  }
}
"""

TOKENS = frozenset("mi mo mn mtext ms".split())
SCRIPTS = {"munder": "msub", "mover": "msup", "munderover": "msubsup"}
INVISIBLE = frozenset("\u2061\u2062\u2063\u2064\u200b\u00a0 \u2009\u2005\u2002\u2003\u200a\u2004\u205f")
# Elements that only group or space: flattened or dropped.
# Characters both converters use for one symbol: a minus, a divides bar, a norm's double bar, a prime,
# \\perp (unicode-math's ⟂, KaTeX's ⊥),
# and the accent marks (we put \\widehat on the combining mark, where math fonts keep its wide forms).
_SAME = str.maketrans({"−": "-", "∣": "|", "′": "'", "∥": "‖", "\u0302": "^", "\u0303": "~", "˜": "~",
                       "ˆ": "^", "\u2192": "→", "\u20d7": "→", "ˉ": "¯", "⟂": "⊥"})
_PAIRS = frozenset((":=", "=:"))
GROUPS = frozenset("mrow mstyle mpadded semantics math mphantom".split())


def install_katex(directory: Path) -> Path:
    module = directory / "node_modules" / "katex"
    if not (module / "package.json").exists():
        directory.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "install", "--no-save", "--no-audit", "--no-fund", f"katex@{KATEX_VERSION}"],
                       cwd=directory, check=True, capture_output=True)
    return module


def our_spans(paths: list[Path]) -> dict[tuple[str, bool], str | None]:
    """(converted LaTeX, display) → our MathML, or None when we mark or refuse the span."""
    md = build_markdown()
    AbstractRenderer()  # the same configuration as a build
    spans: dict[tuple[str, bool], str | None] = {}
    for path in paths:
        for line in path.read_text(encoding="utf-8").split("\n"):
            if not line.strip():
                continue
            tokens = md.parse((json.loads(line).get("abstract") or "").strip(), {})
            for block in tokens:
                for token in block.children or ():
                    if token.type in ("math_inline", "math_display"):
                        key = (token.meta["latex"], token.type == "math_display")
                        spans[key] = None if token.meta.get("problems") else token.meta["mathml"]
                    elif token.type == "tex_error" and token.content.startswith(("$", "\\(", "\\[")):
                        spans[(token.content, False)] = None
    return spans


def katex_spans(module: Path, keys: list[tuple[str, bool]]) -> list[str | None]:
    stdin = "\n".join(json.dumps({"latex": latex, "display": display}) for latex, display in keys) + "\n"
    done = subprocess.run(["node", "-e", _NODE, str(module)], input=stdin, capture_output=True, text=True, check=True)
    return [json.loads(line).get("mathml") for line in done.stdout.splitlines()]


def parse(mathml: str) -> ElementTree.Element:
    """The ``<math>`` element (KaTeX wraps it in a ``span``), namespaces and annotations dropped."""
    start = mathml.index("<math")
    root = ElementTree.fromstring(mathml[start : mathml.rindex("</math>") + len("</math>")])
    for element in root.iter():
        element.tag = element.tag.replace(NS, "")
    for element in list(root.iter()):  # KaTeX keeps the source as an annotation
        for child in list(element):
            if child.tag == "annotation":
                element.remove(child)
    return root


def symbols(element: ElementTree.Element, inherited: str | None = None) -> list[str]:
    variant = element.get("mathvariant", inherited)  # KaTeX sets \\bm{108} on an mstyle
    if element.tag not in TOKENS or len(element):  # KaTeX nests tokens: <mi><mn mathvariant=…>
        return [symbol for child in element for symbol in symbols(child, variant)]
    text = unicodedata.normalize("NFC", "".join(element.itertext()))  # KaTeX nests <mi> in <mo>
    if variant and variant != "normal":
        try:
            text = "".join(_styled(char, variant) for char in text)
        except KeyError:
            pass
    text = "".join(char for char in text if char not in INVISIBLE).translate(_SAME)
    # We set := as one relation where KaTeX writes two operators: the same two symbols.
    return list(text) if text in _PAIRS else [text] if text else []


def structure(element: ElementTree.Element) -> str:
    """Layout elements and their children, grouping flattened; tokens as ``t``."""
    if element.tag in TOKENS:
        text = "".join(char for char in "".join(element.itertext()) if char not in INVISIBLE)
        return "t t" if text in _PAIRS else "t" if text else ""
    if element.tag in ("mspace", "none", "mprescripts"):
        return ""
    children = [part for part in (structure(child) for child in element) if part]
    if element.tag in GROUPS or element.tag == "menclose":
        return " ".join(children)
    tag = SCRIPTS.get(element.tag, element.tag)
    return f"{tag}({', '.join(children)})"


def compare(ours: str, theirs: str) -> tuple[bool, bool]:
    a, b = parse(ours), parse(theirs)
    return symbols(a) == symbols(b), structure(a) == structure(b)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, default=DEFAULT_FILES)
    parser.add_argument("--katex-dir", type=Path, default=REPO / "bench" / "out" / "katex")
    parser.add_argument("--examples", type=int, default=5)
    args = parser.parse_args()
    module = install_katex(args.katex_dir)
    spans = our_spans(args.files)
    keys = list(spans)
    theirs = katex_spans(module, keys)
    ours_ok = sum(1 for key in keys if spans[key] is not None)
    katex_ok = sum(1 for mathml in theirs if mathml is not None)
    both = [(key, spans[key], mathml) for key, mathml in zip(keys, theirs) if spans[key] is not None and mathml]
    counts: Counter[str] = Counter()
    examples: dict[str, list[str]] = {"symbols": [], "structure": []}
    for (latex, _display), ours, katex in both:
        same_symbols, same_structure = compare(ours, katex)
        counts["symbols"] += same_symbols
        counts["structure"] += same_structure
        counts["both"] += same_symbols and same_structure
        for kind, same in (("symbols", same_symbols), ("structure", same_structure)):
            if not same and len(examples[kind]) < args.examples:
                a, b = parse(ours), parse(katex)
                detail = (f"{symbols(a)} vs {symbols(b)}" if kind == "symbols" else f"{structure(a)} vs {structure(b)}")
                examples[kind].append(f"{latex[:70]!r}: {detail[:300]}")
    total = len(both) or 1
    print(f"KaTeX {KATEX_VERSION}; {len(keys):,} distinct math spans in {', '.join(p.name for p in args.files)}")
    print(f"rendered: ours {ours_ok:,} ({100 * ours_ok / len(keys):.1f}%), KaTeX {katex_ok:,} "
          f"({100 * katex_ok / len(keys):.1f}%), both {len(both):,}")
    for kind in ("symbols", "structure", "both"):
        print(f"identical {kind:10} {counts[kind]:6,} of {len(both):,} ({100 * counts[kind] / total:.2f}%)")
    for kind, lines in examples.items():
        if lines:
            print(f"differences in {kind}:")
            print("\n".join(f"  {line}" for line in lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
