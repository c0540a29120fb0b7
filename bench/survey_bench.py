"""The load stage alone: ``load_project`` (sources, the volume's survey: taxonomy scores, own topics) on a copy.

    python bench/survey_bench.py /work/corp/c10k [--jobs 2] [--source bench/out/src-<sha>]

Prints the wall time, the CPU time of this process and of its workers, and what the survey decided. A build's
wall time on a busy machine says little; the CPU split says what runs on the critical path. ``--source`` measures
another tree's generator (e.g. one ``run_bench.py --rev`` exported, or ``git archive REV | tar -x -C DIR``); a
tree from before issue 43 takes no executor, and its survey runs in this process whatever ``--jobs`` says.
"""

from __future__ import annotations

import argparse
import inspect
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

_source = sys.argv[sys.argv.index("--source") + 1] if "--source" in sys.argv else str(Path(__file__).parent.parent)
sys.path.insert(0, str(Path(_source).resolve()))

from generator.content.project import load_project  # noqa: E402
from generator.reporter import Reporter  # noqa: E402
from generator.runtime.executor import Executor  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("content", type=Path)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--source", help="the tree whose generator/ to measure (default: this repository)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        content = Path(folder) / "content"
        shutil.copytree(args.content, content, ignore=shutil.ignore_patterns(".proceedings-cache", "papers"))
        given = {"executor": Executor(args.jobs)} if "executor" in inspect.signature(load_project).parameters else {}
        wall, cpu = time.perf_counter(), time.process_time()
        project = load_project(content, Reporter(), **given)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    topics, tree = project.topics, Path(inspect.getfile(load_project)).parents[1]
    print(f"load project ({args.content.name}, jobs={args.jobs if given else 'inline'}): wall {wall:.2f} s, "
          f"CPU here {cpu:.2f} s, in workers {workers.ru_utime + workers.ru_stime:.2f} s; taxonomy fits: "
          f"{topics.fits}, own topics: {len(topics.own)} [generator from {tree}]")


if __name__ == "__main__":
    main()
