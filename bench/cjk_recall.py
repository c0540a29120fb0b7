"""How often a word taken from inside a Chinese or Japanese title finds its paper.

    python bench/cjk_recall.py [--longest 4]

Every run of 2–4 CJK characters inside each title of the test fixtures (a Japanese
Mini-Conf papers.csv and Chinese papers with titles, tests/fixtures/cjk/) is searched
for the way a reader's browser does it: the index built by generator/search/,
queried by the theme's search.js on lunr.js, in node. Prints the share that lists
the paper among the results. Needs node.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from cjk_fixtures import search_records  # noqa: E402
from test_search import rendered  # noqa: E402
from test_search_cjk import cjk_substrings  # noqa: E402

from generator import search  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--longest", type=int, default=4, help="longest word, in characters")
    args = parser.parse_args()
    papers = rendered(search_records())
    cases = [(n, word) for n, p in enumerate(papers) for word in cjk_substrings(p.title_plain, 2, args.longest)]
    with tempfile.TemporaryDirectory() as tmp:
        index, queries = Path(tmp, "search-index.js"), Path(tmp, "queries.json")
        index.write_bytes(search.index_script(search.search_data(papers, {})))
        queries.write_text(json.dumps([{"query": word} for _, word in cases]), encoding="utf-8")
        done = subprocess.run(["node", str(ROOT / "tests" / "js" / "load_index.mjs"), str(search.lunr_js_path()),
                               str(ROOT / "themes" / "default" / "static" / "search.js"), str(index), str(queries)],
                              capture_output=True, text=True, check=True)
    results = json.loads(done.stdout)["results"]
    found = sum(n in hits for (n, _), hits in zip(cases, results))
    print(f"{found} of {len(cases)} words of 2–{args.longest} characters from inside {len(papers)} titles "
          f"find their paper ({100 * found / len(cases):.1f}%)")


if __name__ == "__main__":
    main()
