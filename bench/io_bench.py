"""The build's reading of pages and cache, each old way beside the new one in one process (issue 43).

    python bench/io_bench.py CONTENT [--rounds 3]

CONTENT is a content folder a build has written pages (and a build cache) into. Each round times,
interleaved, so that load from other processes weighs on both alike:

* front matter: libyaml (``yamlutil.load_mapping``) beside the fast reader (``text/frontfast.py``), on
  every page's front matter (already read from disk);
* the language vote: the head of every page read (what each build did) beside ``page_languages`` with
  the build cache (a warm build: nothing changed, no page opened);
* the build cache's JSON: ``json`` beside orjson, reading and writing every front-matter shard.

The best round of each is printed, in ms for the whole volume.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from generator.content.page_language import _vote, page_languages  # noqa: E402
from generator.content.pages import page_paths, split_front_matter  # noqa: E402
from generator.errors import ContentError  # noqa: E402
from generator.runtime.cache import BuildCache  # noqa: E402
from generator.runtime.sealed import read_checked  # noqa: E402
from generator.text.frontfast import read_front  # noqa: E402
from generator.text.yamlutil import load_mapping, read_utf8  # noqa: E402


def timed(func) -> float:
    start = time.perf_counter()
    func()
    return (time.perf_counter() - start) * 1000


def heads(paths: list[Path]) -> None:
    """What every build did for the vote: each page's head read, its entry and language found."""
    for path in paths:
        _vote(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("content", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    paths = page_paths(args.content)
    fronts = [split_front_matter(read_utf8(path, path, ContentError))[0] or "" for path in paths]
    store = BuildCache.for_content(args.content)
    page_languages(args.content / "papers", store)  # the cache's record of every page, as a build leaves it
    shards = [data for folder in (store.folder or args.content).glob("front-matter-*") for shard in folder.iterdir()
              if (data := read_checked(shard)) is not None]
    values = [json.loads(data) for data in shards]
    work = {
        "front matter, libyaml": lambda: [load_mapping(text, "p", ContentError, 2) for text in fronts],
        "front matter, fast reader": lambda: [read_front(text, 2) or load_mapping(text, "p", ContentError, 2)
                                              for text in fronts],
        "language vote, every page's head read": lambda: heads(paths),
        "language vote, from the build cache": lambda: page_languages(args.content / "papers", store),
        "cache shards read, json": lambda: [json.loads(data) for data in shards],
        "cache shards read, orjson": lambda: [orjson.loads(data) for data in shards],
        "cache shards written, json": lambda: [json.dumps(v, ensure_ascii=False, separators=(",", ":")).encode()
                                               for v in values],
        "cache shards written, orjson": lambda: [orjson.dumps(v) for v in values],
    }
    best = dict.fromkeys(work, float("inf"))
    for _ in range(args.rounds):  # interleaved: each round times every way once
        for name, func in work.items():
            best[name] = min(best[name], timed(func))
    print(f"{len(paths):,} pages, {len(shards)} front-matter shards")
    for name, ms in best.items():
        print(f"  {name:<42} {ms:9.1f} ms")


if __name__ == "__main__":
    main()
