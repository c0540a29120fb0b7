"""Where a build's time goes, function by function (cProfile).

    python bench/profile_build.py bench/out/run-10000/content [--cold] [--jobs 1] [--top 30]
    python bench/profile_build.py bench/out/run-10000/content --part search   # the search index alone
    python bench/profile_build.py bench/out/run-10000/content --part sync     # cold page creation alone
    python bench/profile_build.py bench/out/run-10000/content --part relate   # related papers (+ citations) alone
    … --source bench/out/src-<sha>   # profile the generator exported by run_bench.py --rev
    … --memory [--cold]              # no profiler: memory after each stage of a real (2-job) build

Copies the content folder to bench/out/profile/ (so the corpus is left as it
was), then runs generator.commands.build.build() in this process under cProfile.
``--jobs 1`` (the default here) keeps every stage in this process: with more
jobs, work done in forked children (the other half of the abstracts, the search
index) is invisible to the profiler. ``--cold`` removes the Markdown pages first,
so the build creates them. Prints the stage times and the functions with the
most own time and most cumulative time; writes the .prof file beside the copy
(open it with `python -m pstats` or snakeviz).
"""

from __future__ import annotations

import argparse
import cProfile
import inspect
import io
import pstats
import shutil
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
# --source DIR measures another tree's generator (e.g. bench/out/src-<sha> that run_bench.py --rev exported).
_source = sys.argv[sys.argv.index("--source") + 1] if "--source" in sys.argv else str(BENCH.parent)
sys.path.insert(0, str(Path(_source).resolve()))

from generator.commands import build as build_module  # noqa: E402
from generator.reporter import Reporter  # noqa: E402


def prepare(content: Path, cold: bool, cache: bool = False) -> tuple[Path, Path]:
    work = BENCH / "out" / "profile"
    if work.exists():
        shutil.rmtree(work)
    # The build cache (generator/runtime/cache.py) is left out unless asked for: a profile shows the work.
    shutil.copytree(content, work / "content",
                    ignore=None if cache else shutil.ignore_patterns(".proceedings-cache"))
    if cold:
        shutil.rmtree(work / "content" / "papers", ignore_errors=True)
    else:
        # A warm build rewrites nothing in the content, but needs a previous site to replace.
        pass
    return work / "content", work / "site"


def report(profiler: cProfile.Profile, top: int, path: Path) -> None:
    profiler.dump_stats(path)
    for key in ("tottime", "cumulative"):
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.strip_dirs().sort_stats(key).print_stats(top)
        text = out.getvalue()
        print(f"\n---- top {top} by {key} ----")
        print(text[text.index("   ncalls"):] if "   ncalls" in text else text)


def _memory() -> str:
    fields = {}
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(("VmRSS", "VmHWM")):
                fields[line.split(":")[0]] = int(line.split()[1]) // 1024
    return f"RSS {fields.get('VmRSS', 0):,} MB (peak {fields.get('VmHWM', 0):,} MB)"


def memory_by_stage(content: Path, site: Path, jobs: int) -> None:
    """The build process's RSS after each stage, and the search child's when it is done."""
    from generator import search

    from generator.pipeline import stages as pipeline

    original_call = pipeline.Pipeline.timed

    def call(self, name, func, *args, **kwargs):
        result = original_call(self, name, func, *args, **kwargs)
        print(f"  after {name:<18} {self.reporter.timings[name]:7.2f} s   {_memory()}", flush=True)
        return result

    original_write = search.write_chunks

    def write_chunks(path, chunks):  # the last step of the search job (in its child, with jobs > 1)
        original_write(path, chunks)
        size = path.stat().st_size if path.exists() else 0
        print(f"  [search index written: {_memory()}, {size / 1e6:,.0f} MB script]", flush=True)

    pipeline.Pipeline.timed = call
    search.write_chunks = write_chunks
    start = time.perf_counter()
    build_module.build(content, site, Reporter(), jobs=jobs)
    print(f"build {time.perf_counter() - start:.1f} s (jobs={jobs}); at the end {_memory()}")


def candidate_statistics() -> None:
    """How much work related papers' candidate search does (it grows with the posting lists)."""
    try:
        from generator.derive import related
    except ImportError:
        return
    if not all(hasattr(related, name) for name in ("text_terms", "tfidf_vectors", "TOP_TERMS")):
        return
    texts = related_statistics_input
    vectors = related.tfidf_vectors([related.text_terms(title, abstract) for title, abstract in texts])
    weights = [v.as_dict() if hasattr(v, "as_dict") else v for v in vectors]  # a dict before session 10
    top = [sorted(v, key=lambda t: (-v[t], t))[: related.TOP_TERMS] for v in weights]
    index: dict[int, int] = {}
    for heaviest in top:
        for term in heaviest:
            index[term] = index.get(term, 0) + 1
    visited = sum(index[t] for heaviest in top for t in heaviest)
    print(f"related papers: {visited:,} posting entries visited ({visited / max(len(top), 1):,.0f} per paper); "
          f"longest posting lists {sorted(index.values(), reverse=True)[:5]}")


related_statistics_input: list[tuple[str, str]] = []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("content", type=Path)
    parser.add_argument("--cold", action="store_true", help="remove the pages first: the build creates them")
    parser.add_argument("--jobs", type=int, help="default 1 (all work in this process); with --memory, 2")
    parser.add_argument("--memory", action="store_true",
                        help="no profiler: print the process's memory after each stage of a real build")
    parser.add_argument("--part", choices=["build", "search", "sync", "relate"], default="build")
    parser.add_argument("--source", help="the tree whose generator/ to profile (default: this repository)")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--cache", action="store_true",
                        help="keep the content's build cache (.proceedings-cache): profile a cached rebuild")
    args = parser.parse_args()

    content, site = prepare(args.content, args.cold or args.part == "sync", args.cache)
    if args.memory:
        if not args.cold:  # a previous site, as a warm build has; made in another process, so as not to count
            import subprocess

            source = str(Path(_source).resolve())
            subprocess.run([sys.executable, "-m", "generator", "build", "--content", str(content), "--out", str(site)],
                           cwd=source, env={**__import__("os").environ, "PYTHONPATH": source},
                           check=False, capture_output=True)
            if not args.cache:
                shutil.rmtree(content / ".proceedings-cache", ignore_errors=True)
        memory_by_stage(content, site, args.jobs or 2)
        return
    args.jobs = args.jobs or 1
    if args.part != "build" or not args.cold:
        # The search part needs rendered papers and the warm build a previous site: build once, unprofiled.
        build_module.build(content, site, Reporter(), jobs=2)
        if not args.cache:
            shutil.rmtree(content / ".proceedings-cache", ignore_errors=True)
        if args.part == "sync":
            shutil.rmtree(content / "papers")
    try:  # related papers are cached per process (for serve): the unprofiled build above must not help
        from generator.derive import related

        getattr(related, "forget_texts", lambda: None)()
        getattr(related, "forget_vectors", lambda: None)()
    except ImportError:
        pass
    profiler = cProfile.Profile()
    reporter = Reporter()
    start = time.perf_counter()
    if args.part == "build":
        profiler.enable()
        build_module.build(content, site, reporter, jobs=args.jobs)
        profiler.disable()
    elif args.part == "sync":
        from generator.content.project import load_project, make_deriver
        from generator.pipeline.rendering import sync_pages
        from generator.runtime.executor import Executor

        executor = Executor(args.jobs)  # the deriver and the sync take the executor the build would give them
        # An older tree (--source) loads its project without one.
        given = {"executor": executor} if "executor" in inspect.signature(load_project).parameters else {}
        project = load_project(content, reporter, **given)
        profiler.enable()
        sync_pages(project, reporter, {}, make_deriver(project, reporter, executor), apply=True, executor=executor)
        profiler.disable()
    else:
        from generator.pipeline.stages import Options, Pipeline
        from generator.pipeline.rendering import site_renderer
        from generator.search import index_script, search_data
        from generator.pipeline.sinks import NullSink
        from generator.render.people_topics import tag_urls

        run = Pipeline(content, NullSink(), Options(jobs=2)).run(reporter, until="rendered")
        project, rendered = run.project, run.rendered
        start = time.perf_counter()
        profiler.enable()
        if args.part == "search":
            index_script(search_data(rendered, tag_urls(rendered)))
        else:  # relate: the related papers the site renderer's Publication works out
            site_renderer(project, rendered)
        profiler.disable()
        if args.part == "relate":
            related_statistics_input.extend((p.title_plain, p.abstract_plain) for p in rendered)
            candidate_statistics()
    wall = time.perf_counter() - start
    import generator

    kind = "cold" if args.cold or args.part == "sync" else "warm"
    print(f"{args.part} ({kind}, jobs={args.jobs}) under cProfile: {wall:.2f} s "
          f"[generator from {Path(generator.__file__).parent}]")
    for name, seconds in reporter.timings.items():
        print(f"  {name:<18} {seconds:8.2f} s")
    report(profiler, args.top, content.parent / f"{args.part}{'-cold' if args.cold else ''}.prof")


if __name__ == "__main__":
    main()
