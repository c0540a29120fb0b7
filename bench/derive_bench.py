"""The cold build's derive work alone, in this process: each paper's key phrases (as one table where the tree makes
one, derive/phrase_table.py, else as sets), the volume's own topics from them, and the titles of the abstracts that
come without one (CPU seconds; a busy machine moves wall times, CPU time less).

    python bench/derive_bench.py /work/corp/c10k [--source DIR] [--rounds 2]

``--source`` measures another tree's generator (``git archive main | tar -x -C DIR``): alternate the two trees'
runs for an A/B. Prints a digest of what each part found, so that two trees' runs show they found the same.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import inspect
import os
import pickle
import sys
import time
import unicodedata
from pathlib import Path
from typing import Any, Callable

_source = sys.argv[sys.argv.index("--source") + 1] if "--source" in sys.argv else str(Path(__file__).parent.parent)
sys.path.insert(0, str(Path(_source).resolve()))

from generator.derive import phrases, titles  # noqa: E402
from generator.derive.own_topics import own_topics  # noqa: E402
from generator.latex import AbstractRenderer  # noqa: E402  (one name in every tree since the renderer moved)
from generator.sources import find_sources, read_source  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("content", type=Path)
    parser.add_argument("--source", help="the tree whose generator/ to measure (default: this repository)")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    entries = [entry for path in find_sources(args.content) for entry in read_source(path, path.name).entries]
    texts = [unicodedata.normalize("NFKC", f"{entry.title}\n{entry.text}") for entry in entries]
    renderer = AbstractRenderer()
    plains = [renderer.render(entry.text).plain for entry in entries]  # what titles are derived from
    # A tree from before session 17 finds them one at a time; one from before session 22 as sets, not a table.
    many = getattr(phrases, "phrase_table", None) or getattr(phrases, "phrases_of_many", None)

    def find() -> Any:
        pairs = [(entry.title, entry.text) for entry in entries]
        return many(pairs) if many else [phrases.phrases_of(title, text) for title, text in pairs]

    tree = Path(inspect.getfile(phrases)).parents[1]
    for number in range(1, args.rounds + 1):
        spent, found = _cpu(find)
        chosen_in, chosen = _cpu(functools.partial(own_topics, found, texts))
        titled_in, titled = _cpu(lambda: [titles.title_candidates(plain) for plain in plains])
        print(f"{args.content.name} round {number}: phrases {spent:.2f}, own topics {chosen_in:.2f}, titles "
              f"{titled_in:.2f} CPU-s (load {os.getloadavg()[0]:.1f}); digest "
              f"{_digest((chosen.names, chosen.per_paper, titled))} [generator from {tree}]", flush=True)


def _cpu(work: Callable[[], Any]) -> tuple[float, Any]:
    start = time.process_time()
    result = work()
    return time.process_time() - start, result


def _digest(value: Any) -> str:
    return hashlib.sha256(pickle.dumps(value)).hexdigest()[:12]


if __name__ == "__main__":
    main()
