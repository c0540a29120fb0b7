"""Where the browser's search time goes: a V8 CPU profile of the first search
(index load included) and of the 50 benchmark queries, summed by function.

    python bench/profile_search.py bench/out/run-10000/site bench/out/run-10000/content [--top 25]

Uses Debian's chromium through Playwright (no browser download) and the Chrome
DevTools Protocol's Profiler (sampling every 100 µs). Self time is time spent in
the function itself; "(program)", "(garbage collector)" and "(idle)" are V8's own
buckets. Also times the pieces of loading the index file by hand: reading and
compiling the script, the JSON.parse it runs, and lunr.Index.load.

Since issue 28 the site ships the index in shards (assets/search/), and this profile of the whole
index's script (assets/search-index.js, which a site no longer has) needs a site built before it;
bench/search_bench.py measures what the shards load.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run_bench import CHROMIUM_ARGS, INIT_SCRIPT, ONE_QUERY, WATCH_FIRST_RESULT, query_words  # noqa: E402


def summarize(profile: dict, top: int) -> list[tuple[float, str]]:
    nodes = {node["id"]: node for node in profile["nodes"]}
    self_us: dict[int, float] = defaultdict(float)
    deltas = profile.get("timeDeltas", [])
    samples = profile.get("samples", [])
    for index, node_id in enumerate(samples):
        # a sample's time is the delta to the next sample
        self_us[node_id] += deltas[index + 1] if index + 1 < len(deltas) else 0
    by_function: dict[str, float] = defaultdict(float)
    for node_id, micros in self_us.items():
        frame = nodes[node_id]["callFrame"]
        url = frame.get("url", "").rsplit("/", 1)[-1]
        name = frame.get("functionName") or "(anonymous)"
        where = f"{url}:{frame.get('lineNumber', 0) + 1}" if url else ""
        by_function[f"{name} {where}".strip()] += micros / 1000
    total = sum(by_function.values())
    rows = sorted(((ms, name) for name, ms in by_function.items()), reverse=True)[:top]
    print(f"  total sampled: {total:.0f} ms")
    for ms, name in rows:
        print(f"  {ms:8.1f} ms  {100 * ms / total:5.1f}%  {name}")
    return rows


# Pieces of loading the index, timed separately in a fresh page: fetching the file
# as text is refused from file://, so the script is injected twice: once as is, and
# once after the JSON text was handed over, to separate compiling the 24 MB string
# literal from JSON.parse.
PIECES = """
async () => {
  const load = (src) => new Promise((resolve, reject) => {
    const tag = document.createElement("script");
    tag.src = src; tag.onload = resolve; tag.onerror = reject; document.head.appendChild(tag);
  });
  const assets = new URL("assets/", location.href);
  const originalParse = JSON.parse;
  let parseMs = 0, text = null;
  JSON.parse = function (s) {
    const t = performance.now(); const v = originalParse(s); parseMs += performance.now() - t; text = s; return v;
  };
  let t = performance.now();
  await load(new URL("search-index.js", assets).href);
  const scriptMs = performance.now() - t;
  JSON.parse = originalParse;
  await load(new URL("lunr.js", assets).href);
  t = performance.now();
  lunr.Index.load(globalThis.proceedingsSearchData.index);
  const indexMs = performance.now() - t;
  const data = globalThis.proceedingsSearchData;
  const sizes = {};
  for (const key of Object.keys(data)) sizes[key] = JSON.stringify(data[key]).length;
  sizes.invertedIndex = JSON.stringify(data.index.invertedIndex).length;
  sizes.fieldVectors = JSON.stringify(data.index.fieldVectors).length;
  return {script_total_ms: scriptMs, json_parse_ms: parseMs, read_and_compile_ms: scriptMs - parseMs,
          index_load_ms: indexMs, json_chars: text.length, sizes: sizes};
}
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("site", type=Path)
    parser.add_argument("content", type=Path)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    url = (args.site / "index.html").resolve().as_uri()
    words = query_words(args.content)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        try:
            for attempt in range(3):
                context = browser.new_context()
                page = context.new_page()
                page.goto(url, wait_until="load")
                print(f"index load pieces (fresh page {attempt + 1}):", page.evaluate(PIECES))
                context.close()

            context = browser.new_context()
            page = context.new_page()
            page.add_init_script(INIT_SCRIPT)
            page.goto(url, wait_until="load")
            cdp = context.new_cdp_session(page)
            cdp.send("Profiler.enable")
            cdp.send("Profiler.setSamplingInterval", {"interval": 100})
            page.evaluate(WATCH_FIRST_RESULT)
            cdp.send("Profiler.start")
            page.keyboard.press("/")
            page.keyboard.type(words[0])
            end = page.evaluate("window.__bench.firstResult")
            start = page.evaluate("window.__bench.keydown")
            profile = cdp.send("Profiler.stop")["profile"]
            print(f"\nfirst results in {end - start:.0f} ms; self time by function:")
            summarize(profile, args.top)

            page.evaluate(ONE_QUERY, "warmup")
            cdp.send("Profiler.start")
            timings = [page.evaluate(ONE_QUERY, w) for w in words]
            profile = cdp.send("Profiler.stop")["profile"]
            searches = sorted(t["search"] for t in timings if t["search"] is not None)
            print(f"\n{len(words)} queries, search + render median {searches[len(searches) // 2]:.1f} ms; "
                  "self time by function (idle and the 60 ms debounce waits included as (idle)):")
            summarize(profile, args.top)
            context.close()
        finally:
            browser.close()


if __name__ == "__main__":
    main()
