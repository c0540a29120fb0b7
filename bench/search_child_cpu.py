#!/usr/bin/env python3
"""CPU of the search index's child (records → every file under assets/search/), two trees A/B, interleaved.

    python bench/search_child_cpu.py CONTENT [--source DIR …] [--rounds 3] [--turns 2]

Runs this tree's pipeline up to the rendered papers once (on a copy of CONTENT: the build writes pages), and
keeps what the child is given as a forked build gives it: each paper's ``IndexRecord``, the topics' pages and
names, and the titles' and abstracts' words split by the render stage (``terms.remember``). Then, ``--turns``
times, each tree in turn (this one, then each ``--source``: a tree exported with
``git archive REV generator themes | tar -x -C DIR``) loads them in a fresh interpreter and makes the index's
files ``--rounds`` times, each in a forked child as the build forks it, and prints the child's CPU (user +
system) and a digest of the files (the same digest: the same bytes). Issue 43, session 23.
"""

from __future__ import annotations

import argparse
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

CHILD = r"""
import hashlib, os, pickle, resource, sys
import generator
from generator.search.payload import IndexRecord
from generator.search.shards import record_files
remember = sys.modules["generator.search.terms"].remember
records, urls, names, known = pickle.load(open(sys.argv[1], "rb"))
records = [IndexRecord(*record) for record in records]
for text, found in known.items():
    remember(text, found)
times = []
for _ in range(int(sys.argv[2])):
    read, write = os.pipe()
    if os.fork() == 0:
        use = resource.getrusage(resource.RUSAGE_SELF)
        made = hashlib.sha256()
        for name, data in record_files(iter(records), urls, names):
            made.update(name.encode() + b"\0" + data)
        end = resource.getrusage(resource.RUSAGE_SELF)
        cpu = end.ru_utime + end.ru_stime - use.ru_utime - use.ru_stime
        os.write(write, f"{cpu:.2f} {made.hexdigest()[:12]}".encode())
        os._exit(0)
    os.wait()
    times.append(os.read(read, 100).decode())
print(f"{os.path.dirname(os.path.dirname(generator.__file__))}: " + ", ".join(times))
"""


def dump(content: Path, target: Path) -> None:
    """What the child is given, for this tree's pipeline, pickled into ``target``."""
    sys.path.insert(0, str(REPO))
    from generator.pipeline.sinks import NullSink
    from generator.pipeline.stages import Options, Pipeline, site_papers
    from generator.render.people_topics import tag_urls
    from generator.reporter import Reporter
    from generator.search.payload import index_record
    split = sys.modules["generator.search.terms"].terms

    pipeline = Pipeline(content, NullSink(), Options(jobs=1))
    state = pipeline.run(Reporter(), until="rendered")
    papers = site_papers(pipeline)
    known = {text: split(text) for paper in papers for text in (paper.title_plain, paper.abstract_plain)}
    assert state.project is not None
    with open(target, "wb") as handle:
        pickle.dump(([tuple(index_record(p)) for p in papers], tag_urls(papers), state.project.topic_names(), known),
                    handle)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("content", type=Path)
    parser.add_argument("--source", type=Path, action="append", default=[])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--turns", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        content = Path(work) / "content"
        shutil.copytree(args.content, content)
        given = Path(work) / "given.pickle"
        dump(content, given)
        for _ in range(args.turns):
            for tree in [REPO, *args.source]:
                env = {**os.environ, "PYTHONPATH": str(tree.resolve())}
                subprocess.run([sys.executable, "-c", CHILD, str(given), str(args.rounds)], env=env, check=True,
                               cwd=work)


if __name__ == "__main__":
    main()
