"""What each kind of page costs the template stage, in CPU time per page (issue 29).

    python bench/template_cost.py CONTENT [--source DIR] [--rounds 3] [--theme DIR]

Copies CONTENT to bench/out/template-cost/ (its pages are kept if it has them; the build cache is not),
runs a real build in this process up to the template stage (jobs=1, no cache) with the stage's writing
left out, then renders every output of each kind (paper pages, author pages, topic pages, contents pages,
the whole-volume files and the rest) ``--rounds`` times and reports the least CPU time of each kind, in
total and per file. CPU time (``time.process_time``) rather than wall time: on a shared machine it moves
far less with the load. ``--source DIR`` measures another tree's generator and themes (e.g. a commit
exported with ``git archive REV generator themes | tar -x -C DIR``), for an A/B in one sitting; ``--theme
DIR`` adds a theme folder (``templates/``, ``static/``) to the copy, to try a template change.

Before each kind and round the ``{% once %}`` fragments are forgotten, so every round renders what a build
renders: a paper's list item once for all the lists of that kind, then reused; the collector runs at the
build's pace meanwhile, as in a build.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import shutil
import sys
import time
from collections import defaultdict
from pathlib import Path

BENCH = Path(__file__).resolve().parent
_source = sys.argv[sys.argv.index("--source") + 1] if "--source" in sys.argv else str(BENCH.parent)
sys.path.insert(0, str(Path(_source).resolve()))

from generator.commands.build import build  # noqa: E402
from generator.reporter import Reporter  # noqa: E402
from generator.pipeline import stages  # noqa: E402

KINDS = ("papers", "authors", "tags", "contents")


def kind_of(path: str, whole: bool) -> str:
    if whole:
        return "whole-volume files"
    top = path.split("/")[0] if "/" in path else ""
    return top if top in KINDS else "other files"


def captured_outputs(content: Path, theme: Path | None) -> list:
    work = BENCH / "out" / "template-cost"
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(content, work / "content", ignore=shutil.ignore_patterns(".proceedings-cache*"))
    if theme is not None:
        shutil.copytree(theme, work / "content" / "theme", dirs_exist_ok=True)
    captured: list = []

    def keep(outputs, sink, reporter, *how, **more):  # whatever else the stage passes (its executor, shares)
        captured.extend(outputs)
        return []

    stages.render_outputs = keep  # the stage lists its outputs; rendering them is what this measures
    build(work / "content", work / "site", Reporter(), jobs=1, cache=False)
    return captured


def _build_pace() -> contextlib.AbstractContextManager:
    """The collector at a build's pace (runtime/collector.py), as the build renders and floors.py measures: at
    CPython's, its full collections walked the captured build's heap in the middle of the rendering (the contents
    pages 0.59 CPU-s at CPython's pace, 0.36 at the build's). A tree from before the pace collects as CPython does."""
    try:
        from generator.runtime.collector import build_pace
    except ImportError:
        return contextlib.nullcontext()
    return build_pace()


def forget_fragments() -> None:
    """Empty what the site's renderers remembered (a tree from before ``{% once %}`` has nothing to forget)."""
    from generator.render.html import SiteRenderer

    for renderer in (o for o in gc.get_objects() if isinstance(o, SiteRenderer)):
        if isinstance(getattr(renderer, "fragments", None), dict):
            renderer.fragments.clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("content", type=Path)
    parser.add_argument("--source", help="the tree whose generator/ and themes/ are measured")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--theme", type=Path)
    args = parser.parse_args()
    kinds: dict[str, list] = defaultdict(list)
    for output in captured_outputs(args.content, args.theme):
        kinds[kind_of(output.path, output.deps is None)].append(output)
    print(f"generator from {Path(_source).resolve()}")
    total = 0.0
    for kind in (*KINDS, "whole-volume files", "other files"):
        outputs = kinds.get(kind, [])
        if not outputs:
            continue
        rounds = []
        for _ in range(args.rounds):
            forget_fragments()
            with _build_pace():
                start = time.process_time()
                for output in outputs:
                    output.render()
                rounds.append(time.process_time() - start)
        least = min(rounds)
        total += least
        print(f"  {kind:20} {len(outputs):7,} files  {least:7.2f} s CPU  {1000 * least / len(outputs):8.3f} ms each")
    print(f"  {'all':20} {sum(map(len, kinds.values())):7,} files  {total:7.2f} s CPU")


if __name__ == "__main__":
    main()
