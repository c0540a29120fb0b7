"""What "the volume at a glance" (glance.html) costs: its size, and the CPU time of counting and drawing it.

    python bench/glance_bench.py --synthetic 10000          # a large venue's shape: affiliations, sessions…
    python bench/glance_bench.py --content bench/out/content-10k   # a content folder, read as a build reads it

``--synthetic N`` makes N papers as tests/test_glance.py's ``synthetic`` does (400 topics, 300 sessions, 12 tracks,
5 days, 3,000 institutions, 1 to 30 authors). ``--content DIR`` runs the build's pipeline on DIR up to the rendered
papers (no site written) and then draws that volume's page. Either way it prints the page's bytes (and gzip), and
the CPU seconds of the counts (``glance_charts``) and of rendering the template, best of ``--repeat`` runs: the
time the build spends on the page, to set beside a whole build's.
"""

from __future__ import annotations

import argparse
import gzip
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from generator.model.config import Config  # noqa: E402
from generator.model.volume import Volume  # noqa: E402
from generator.render.glance import glance_charts, glance_files  # noqa: E402
from generator.render.html import SiteRenderer  # noqa: E402
from generator.render.outputs import SiteParts  # noqa: E402
from generator.render.people_topics import group_tags  # noqa: E402
from generator.render.site_info import SiteInfo  # noqa: E402
from generator.render.theme import Theme  # noqa: E402
from generator.reporter import Reporter  # noqa: E402


def volume_papers(content: Path):
    from generator.pipeline.sinks import NullSink
    from generator.pipeline.stages import Options, Pipeline
    run = Pipeline(content, NullSink(), Options(cache=False)).run(Reporter(), until="rendered")
    return run.rendered, run.project.volume, run.project.config, Theme.for_content(content)


def best(repeat: int, work) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--synthetic", type=int, default=0)
    parser.add_argument("--content", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if args.content:
        papers, volume, config, theme = volume_papers(args.content)
    else:
        from test_glance import synthetic
        papers, volume, config, theme = synthetic(args.synthetic or 10_000), Volume("Big"), Config(), None
    renderer = SiteRenderer(theme or Theme.for_content(Path("/nonexistent")), config, SiteInfo(volume, len(papers)))
    renderer.listing(papers)  # the shared context a build's listing makes (topic pages, the contents' links)
    parts = SiteParts(papers, group_tags(papers), [])
    counting = best(args.repeat, lambda: glance_charts(parts, renderer.shared["group_links"]))
    [(_, render)] = glance_files(renderer, parts)
    render()  # the templates compiled once, as a build does for every page
    drawing = best(args.repeat, render)
    page = render()
    print(f"{len(papers)} papers: glance.html {len(page):,} bytes ({len(gzip.compress(page, 9)):,} gzip); "
          f"counting {counting:.3f} s, rendering {drawing:.3f} s CPU (best of {args.repeat})")


if __name__ == "__main__":
    main()
