"""Whole builds of hostile content folders: every class of issue 19 this bench's owner fixed.

    python bench/fuzz_build.py [--repo PATH] [--only NAME ...] [--authors N] [--papers N] [--edited N]

Each class makes a content folder in a temporary directory, runs ``python -m generator`` on it as an
organiser would (with ``PYTHONPATH=--repo``, so an older checkout can be measured the same way) and
reports the exit status, the wall time, the CPU time (user + system, with the forked workers it
waited for), the peak memory of the command, the size of the site and a
verdict: what must hold once the class is fixed. ``--repo`` an older checkout (``git archive``) gives
the "before" column of bench/RESULTS.md.

Classes: ``nul-link`` (``pdf: paper%00.pdf`` and a raw NUL), ``config-link`` (``pdf: proceedings.yaml``),
``symlink-out`` (a source and a page linked from outside the content folder), ``yaml-bomb-page`` and
``yaml-bomb-config`` (a billion-laughs alias bomb), ``authors`` (one paper with ``--authors`` authors),
``edited`` (``--papers`` abstracts, ``--edited`` of them changed, rebuilt), ``concurrent`` (two builds
into one ``--out``), ``kill-workers`` (``kill -9`` of a build while its forked workers run), ``tex-cite``
(``\\def``/``\\input`` in a title's math), ``cache-forgery`` (a cache shard forged to publish a
``<meta http-equiv=refresh>``), ``escapes`` (terminal escapes in a title) and ``serve`` (HEAD, POST,
``/forcereload`` from another site, a busy port); issue 27: ``page-bad-byte`` (pages saved with a bad
byte, cut or emptied), ``bib-string-bomb`` (each ``@string`` twice the one before, 59 deep),
``unicode-edge`` (control, zero-width and unpaired bidi characters, NFD spellings of a name),
``device-names`` (titles ``CON``, ``AUX``, ``NUL``…), ``long-slug`` (a page's slug of 110 CJK characters),
``bib-shared-key`` (three ``.bib`` files with one entry key),
``jsonl-huge-record`` (a 100 MB JSON Lines record) and ``jsonl-10mb-record`` (a 10 MB one, which must build).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpora" / "neurips-2010-2018.jsonl"
TIMEOUT = 300
MEMORY_LIMIT = 4 << 30  # bytes of address space per command: an unbounded one fails, not the machine
BOMB = ('a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
        + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [{','.join([f'*{chr(97 + i)}'] * 9)}]\n" for i in range(8)))
EVIL = '<meta http-equiv="refresh" content="0;url=https://evil.example/">'


class Run:
    """One command: exit status, seconds, peak memory (MB: its own, or a waited-for child's), output."""

    def __init__(self, repo: Path, args: list[str], cwd: Path, wait: bool = True):
        env = {**os.environ, "PYTHONPATH": str(repo), "XDG_CACHE_HOME": str(cwd / "user-cache")}
        self.out, self.err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
        self.start = time.perf_counter()
        self.process = subprocess.Popen([sys.executable, "-m", "generator", *args], cwd=cwd, env=env,
                                        stdout=self.out, stderr=self.err, preexec_fn=_limit_memory)
        if wait:
            self.finish()

    def finish(self) -> Run:
        timer = threading.Timer(TIMEOUT, self.process.kill)
        timer.start()
        try:
            _, code, usage = os.wait4(self.process.pid, 0)  # the child's own rusage, not every child's
        finally:
            timer.cancel()
        self.process.returncode = os.waitstatus_to_exitcode(code)
        self.status = self.process.returncode
        self.seconds = time.perf_counter() - self.start
        self.peak_mb = usage.ru_maxrss / 1024
        self.cpu = usage.ru_utime + usage.ru_stime  # steadier than wall time on a shared machine
        self.out.seek(0), self.err.seek(0)
        self.raw_err = self.err.read()
        self.output = (self.out.read() + self.raw_err).decode("utf-8", "replace")
        return self


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def corpus(count: int) -> list[dict]:
    records = []
    if CORPUS.exists():
        with CORPUS.open(encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                if record.get("abstract") and len(record["abstract"]) > 200:
                    records.append({"id": f"r{len(records)}", "title": record["title"], "abstract": record["abstract"],
                                    "authors": record.get("authors", [])[:8]})
                if len(records) == count:
                    break
    while len(records) < count:  # without the corpora: plain made-up abstracts
        n = len(records)
        records.append({"id": f"r{n}", "title": f"Paper {n}", "abstract": f"We study problem {n} " * 30})
    return records


def content(root: Path, records: list[dict], config: str = "title: Fuzz 2026\n") -> Path:
    folder = root / "content"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "proceedings.yaml").write_text(config, encoding="utf-8")
    (folder / "papers.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return folder


def size_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6 if folder.exists() else 0.0


def build(repo: Path, root: Path, *extra: str) -> Run:
    return Run(repo, ["build", "--content", "content", "--out", "site", *extra], root)


def page_count(root: Path) -> int:
    return len(list((root / "site" / "papers").glob("*.html")))


# -- the classes: each returns (the measured run, verdict) ------------------------------------------

def nul_link(repo: Path, root: Path, args) -> tuple[Run, str]:
    records = corpus(3)
    records[0]["pdf"], records[1]["pdf"] = "pdfs/paper%00.pdf", "pdfs/paper\x00.pdf"
    content(root, records)
    run = build(repo, root)
    checked = Run(repo, ["check", "--content", "content"], root)
    ok = run.status == 0 and page_count(root) == 3 and "control character" in checked.output
    return run, "ok: warned, 3/3 pages, check warns" if ok else f"FAIL (check exit {checked.status})"


def config_link(repo: Path, root: Path, args) -> tuple[Run, str]:
    records = corpus(2)
    records[0]["pdf"], records[1]["pdf"] = "proceedings.yaml", "papers.jsonl"
    content(root, records)
    run = build(repo, root)
    leaked = [name for name in ("proceedings.yaml", "papers.jsonl") if (root / "site" / name).exists()]
    return run, f"FAIL: published {', '.join(leaked)}" if leaked else "ok: not published, warned"


def symlink_out(repo: Path, root: Path, args) -> tuple[Run, str]:
    folder = content(root, corpus(2))
    outside = root / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("Secret\n\nA secret abstract from outside the content folder.\n")
    (folder / "secret.txt").symlink_to(outside / "secret.txt")
    run = build(repo, root)
    leaked = "secret abstract" in (root / "site" / "papers.json").read_text(encoding="utf-8") \
        if (root / "site" / "papers.json").exists() else False
    return run, "FAIL: the outside file was published" if leaked else "ok: not read, warned"


def yaml_bomb_page(repo: Path, root: Path, args) -> tuple[Run, str]:
    records = corpus(3)
    content(root, records)
    build(repo, root)
    for record in records:  # the sources change too: the sync then compares every page's details
        record["authors"] = ["Someone New"]
    content(root, records)
    page = sorted((root / "content" / "papers").glob("*.md"))[0]
    text = page.read_text(encoding="utf-8").replace("---\n", "---\n" + BOMB, 1)
    page.write_text(text.replace("\ntags: ", "\nauthors: *i\ntags: ", 1), encoding="utf-8")  # a key that is read
    run = build(repo, root)
    ok = run.status == 1 and page.name in run.output and "expands" in run.output and len(run.output) < 5_000
    return run, "ok: an error of that page, 3/3 pages" if ok else f"FAIL ({len(run.output):,} characters of output)"


def yaml_bomb_config(repo: Path, root: Path, args) -> tuple[Run, str]:
    content(root, corpus(3), config="title: Bomb\n" + BOMB + "description: *i\n")
    run = build(repo, root)
    ok = run.status == 2 and "proceedings.yaml:" in run.output and len(run.output) < 1_000
    return run, "ok: one line naming file and line" if ok else f"FAIL ({len(run.output):,} characters of output)"


def authors(repo: Path, root: Path, args) -> tuple[Run, str]:
    records = corpus(3)
    records[0]["authors"] = [f"Author Number{n}" for n in range(args.authors)]
    content(root, records)
    source = (root / "content" / "papers.jsonl").stat().st_size
    run = build(repo, root)
    site = size_mb(root / "site")
    return run, f"site {site:,.1f} MB from {source / 1e3:,.0f} KB of JSON"


def edited(repo: Path, root: Path, args) -> tuple[Run, str]:
    records = corpus(args.papers)
    content(root, records)
    first = build(repo, root)
    for record in records[:: max(1, args.papers // args.edited)][: args.edited]:
        # A revision: every tenth word changed, a sentence added; matched by its text (no id), as a
        # plain list's entries are, so the page is found by similarity.
        words = record["abstract"].split()
        for i in range(0, len(words) - 3, 10):
            words[i] = words[i + 3]
        record["abstract"] = " ".join(words) + " We revised this abstract."
        del record["id"]
    content(root, records)
    run = build(repo, root)
    changes = run.output.count(" update papers/")
    return run, f"{changes} pages updated in place (first build {first.seconds:.0f} s, CPU {first.cpu:.0f} s)"


def concurrent(repo: Path, root: Path, args) -> tuple[Run, str]:
    content(root, corpus(200))
    build(repo, root)
    page = sorted((root / "content" / "papers").glob("*.md"))[0]
    page.write_text(page.read_text(encoding="utf-8").replace("title: ", "title: 'Edited: ' # ", 1), encoding="utf-8")
    runs = [Run(repo, ["build", "--content", "content", "--out", "site", "--no-cache"], root, wait=False)
            for _ in range(2)]
    for run in runs:
        run.finish()
    whole = all((root / "site" / name).exists() for name in ("index.html", "papers.json"))
    later = build(repo, root)
    verdict = (f"exits {[r.status for r in runs]}, whole site: {whole}, a later build exits {later.status}")
    good = whole and later.status == 0 and all(run.status == 0 for run in runs)
    return runs[1], ("ok: " if good else "FAIL: ") + verdict


def page_bad_byte(repo: Path, root: Path, args) -> tuple[Run, str]:
    """Pages saved once with a Windows-1252 byte, cut mid-way, emptied (issue 27): no second page for
    their entries, and once they are mended a build exits 0 with the hand-edited title kept."""
    content(root, corpus(20))
    build(repo, root)
    pages = sorted((root / "content" / "papers").glob("*.md"))[:3]
    good = {page: page.read_bytes() for page in pages}
    edited = {page: data.replace(b"title: ", b"title: Edited ", 1) for page, data in good.items()}
    pages[0].write_bytes(edited[pages[0]].replace(b"Edited ", b"Edit\xe9d ", 1))
    pages[1].write_bytes(edited[pages[1]][:300])
    pages[2].write_bytes(b"")
    run = build(repo, root)
    made = len(list((root / "content" / "papers").glob("*.md")))
    for page, data in edited.items():
        page.write_bytes(data)
    later = build(repo, root)
    kept = sum(b"Edited" in page.read_bytes() for page in pages)
    verdict = f"{made} pages for 20 entries while broken, mended build exits {later.status}, {kept}/3 edits kept"
    return run, ("ok: " if made == 20 and later.status == 0 and kept == 3 else "FAIL: ") + verdict


def kill_workers(repo: Path, root: Path, args) -> tuple[Run, str]:
    content(root, corpus(4_000))  # titles derived on both cores: a forked worker busy for seconds
    run = Run(repo, ["build", "--content", "content", "--out", "site"], root, wait=False)
    workers: set[int] = set()
    deadline = time.monotonic() + TIMEOUT
    while not workers and run.process.poll() is None and time.monotonic() < deadline:
        workers = children(run.process.pid)
        time.sleep(0.05)
    time.sleep(0.5)  # well into its share
    workers = {pid for pid in workers if running(pid)}
    run.process.send_signal(signal.SIGKILL)
    run.finish()
    time.sleep(1.0)
    alive = [pid for pid in workers if running(pid)]
    for pid in alive:
        os.kill(pid, signal.SIGKILL)
    if not workers:
        return run, "no worker seen (the build ended first)"
    return run, f"FAIL: {len(alive)} of {len(workers)} workers alive 1 s later" if alive else \
        f"ok: {len(workers)} workers gone within 1 s"


def children(pid: int) -> set[int]:
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def running(pid: int) -> bool:
    try:
        return "\nState:\tZ" not in Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False


def tex_cite(repo: Path, root: Path, args) -> tuple[Run, str]:
    records = corpus(2)
    records[0]["title"] = r"Graphs $\def\x{\input{/etc/passwd}}$ and $\immediate\write18{id}$"
    content(root, records)
    run = build(repo, root)
    bib = (root / "site" / "proceedings.bib").read_text(encoding="utf-8")
    carried = [word for word in ("\\def", "\\input", "\\immediate", "\\write18") if word in bib]
    warned = "citation may not carry" in run.output
    return run, f"FAIL: the .bib carries {' '.join(carried)}" if carried else f"ok: none in the .bib, warned: {warned}"


def cache_forgery(repo: Path, root: Path, args) -> tuple[Run, str]:
    content(root, corpus(3))
    build(repo, root)
    sys.path.insert(0, str(repo))
    forged = 0
    try:
        from generator.runtime import cache as cache_module
        for shard in (root / "content" / cache_module.CACHE_DIR).glob("abstracts-*/*"):
            records = json.loads(shard.read_bytes().split(b"\n", 1)[1])
            for record in records.values():
                record["fields"]["abstract_html"] = EVIL
                forged += 1
            payload = json.dumps(records).encode()
            unkeyed = cache_module.digest(payload).encode()  # what anyone can compute
            shard.write_bytes(b"proceedings-cache %d %s\n" % (cache_module.FORMAT, unkeyed) + payload)
    finally:
        sys.path.remove(str(repo))
        for name in [name for name in sys.modules if name == "generator" or name.startswith("generator.")]:
            del sys.modules[name]
    run = build(repo, root)
    published = sum("evil.example" in p.read_text(encoding="utf-8") for p in (root / "site" / "papers").glob("*.html"))
    if published:
        return run, f"FAIL: {published} pages publish the forged HTML"
    return run, f"ok: {forged} forged records ignored"


def escapes(repo: Path, root: Path, args) -> tuple[Run, str]:
    records = corpus(2)
    records[0]["title"] = "\x1b[2K\x1b]0;pwned\x07Title with \\undefinedmacro"
    content(root, records)
    run = build(repo, root)
    raw = [name for name, code in (("ESC", b"\x1b"), ("BEL", b"\x07")) if code in run.raw_err]
    return run, f"FAIL: printed raw {', '.join(raw)}" if raw else "ok: printed escaped"


def serve(repo: Path, root: Path, args) -> tuple[Run, str]:
    content(root, corpus(3))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    run = Run(repo, ["serve", "--content", "content", "--out", "site", "--port", str(port)], root, wait=False)
    answers = {}
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not isinstance(answers.get("GET"), int):
            answers["GET"] = status(port, "GET")
            time.sleep(0.2)
        answers["HEAD"] = status(port, "HEAD")
        answers["POST"] = status(port, "POST")
        answers["forcereload from another site"] = status(port, "GET", "/forcereload",
                                                           {"Sec-Fetch-Site": "cross-site"})
        busy = Run(repo, ["serve", "--content", "content", "--out", "site2", "--port", str(port)], root)
        answers["busy port: lines of output"] = len(busy.output.strip().splitlines())
    finally:
        run.process.terminate()
        run.finish()
    good = {"GET": 200, "HEAD": 200, "POST": 405, "forcereload from another site": 403, "busy port: lines of output": 1}
    return run, ("ok: " if answers == good else "FAIL: ") + ", ".join(f"{k} {v}" for k, v in answers.items())


def status(port: int, method: str, path: str = "/", headers: dict | None = None) -> int | str:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request(method, path, headers=headers or {})
        return connection.getresponse().status
    except OSError as exc:  # a server that drops the connection (HEAD before the fix)
        return type(exc).__name__
    finally:
        connection.close()


def _one_bad_record(repo: Path, root: Path, name: str, data: bytes, words: str) -> tuple[Run, str]:
    """A source whose second record is ``data``'s bad one: the two good papers must be published, exit 0,
    and the warning name the record's line."""
    folder = root / "content"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data)
    run = build(repo, root)
    ok = run.status == 0 and page_count(root) >= 2 and words in run.output
    return run, f"ok: {page_count(root)} pages, exit 0" if ok else f"FAIL ({page_count(root)} pages)"


def _csv(bad_row: bytes) -> bytes:
    return b"UID,title,abstract\ng1,One,We study one thing.\n" + bad_row + b"\ng2,Two,We study another thing.\n"


def _jsonl(bad_line: bytes) -> bytes:
    good = [json.dumps({"title": t, "abstract": f"We study {t}."}).encode() for t in ("one", "two")]
    return b"\n".join([good[0], bad_line, good[1]]) + b"\n"


def csv_huge_cell(repo: Path, root: Path, args) -> tuple[Run, str]:
    return _one_bad_record(repo, root, "papers.csv", _csv(b"big,Big," + b"word " * 200_000), "papers.csv")


def csv_open_quote(repo: Path, root: Path, args) -> tuple[Run, str]:
    return _one_bad_record(repo, root, "papers.csv", _csv(b'bad,"Never closed,x'), "cannot be read")


def csv_bad_byte(repo: Path, root: Path, args) -> tuple[Run, str]:
    return _one_bad_record(repo, root, "papers.csv", _csv(b"bad,Caf\xe9,Latin-1."), "not UTF-8")


def jsonl_surrogate(repo: Path, root: Path, args) -> tuple[Run, str]:
    return _one_bad_record(repo, root, "papers.jsonl", _jsonl(b'{"title": "\\ud800", "abstract": "\\udfff x"}'),
                           "built 3 papers")


def jsonl_big_int(repo: Path, root: Path, args) -> tuple[Run, str]:
    return _one_bad_record(repo, root, "papers.jsonl", _jsonl(b'{"abstract": "x", "n": ' + b"9" * 100_000 + b"}"),
                           "digits")


def jsonl_deep(repo: Path, root: Path, args) -> tuple[Run, str]:
    deep = b'{"abstract": "x", "ignored": ' + b"[" * 500_000 + b"]" * 500_000 + b"}"
    return _one_bad_record(repo, root, "papers.jsonl", _jsonl(deep), "nested too deep")


def bib_deep_groups(repo: Path, root: Path, args) -> tuple[Run, str]:
    good = (b"@inproceedings{g1, title={One}, abstract={We study one.}}\n"
            b"@inproceedings{g2, title={Two}, abstract={Two.}}\n")
    deep = b"@inproceedings{d, title={" + b"{" * 20_000 + b"T" + b"}" * 20_000 + b"}, abstract={Deep.}}\n"
    return _one_bad_record(repo, root, "papers.bib", good + deep, "built 3 papers")


def bib_string_bomb(repo: Path, root: Path, args) -> tuple[Run, str]:
    bomb = b'@string{s0 = "xxxxxxxxxx"}\n' + b"".join(b"@string{s%d = s%d # s%d}\n" % (n, n - 1, n - 1)
                                                      for n in range(1, 60))
    good = (b"@inproceedings{g1, title = {One}, month = jun, abstract = {We study one.}}\n"
            b"@inproceedings{g2, title = s59, abstract = {Two.}}\n")
    return _one_bad_record(repo, root, "papers.bib", bomb + good, "@string macros here expand past")


def unicode_edge(repo: Path, root: Path, args) -> tuple[Run, str]:
    """Control, zero-width and unpaired bidi characters, NFD spellings: none may reach the site, and
    the two spellings of one name are one author."""
    records = corpus(2)
    records[0].update(title="Re\u0301seaux \x01of\x1b[2J Graphs\x7f",
                      authors=["\u202eAlice Example", "Ame\u0301lie Doe", "\u200b\u200d"], keywords=["Re\u0301seaux"])
    records[1].update(authors=["Amélie Doe", "Bob\u200b Example"], keywords=["Réseaux"])
    content(root, records)
    run = build(repo, root)
    site = root / "site"
    files = [*site.rglob("*.html"), *site.rglob("*.json"), site / "proceedings.bib"]
    leaked = sorted({repr(c) for path in files if path.is_file() for c in "\x01\x1b\x7f\u202e\u200b"
                     if c in path.read_text(encoding="utf-8", errors="replace")})
    people = len([p for p in (site / "authors").glob("*.html") if p.name != "index.html"])
    ok = run.status == 0 and not leaked and people == 3
    return run, "ok: none published, 3 authors" if ok else f"FAIL: {' '.join(leaked)}, {people} authors"


DEVICES = {"con", "prn", "aux", "nul", *(f"com{n}" for n in range(1, 10)), *(f"lpt{n}" for n in range(1, 10))}


def device_names(repo: Path, root: Path, args) -> tuple[Run, str]:
    records = [{"id": f"d{n}", "title": title, "keywords": [title], "authors": [title],
                "abstract": f"We study {title} as paper {n}."}
               for n, title in enumerate(["CON", "AUX", "NUL", "PRN", "COM1", "LPT1", "con.txt"])]
    folder = content(root, records)
    run = build(repo, root)
    bad = sorted(p.name for p in [*folder.rglob("*"), *(root / "site").rglob("*")]
                 if p.name.split(".")[0].lower() in DEVICES)
    return run, "ok: no device name written" if run.status == 0 and not bad else f"FAIL: {' '.join(bad[:6])}"


def long_slug(repo: Path, root: Path, args) -> tuple[Run, str]:
    folder = content(root, corpus(3))
    build(repo, root)
    page = sorted((folder / "papers").glob("*.md"))[0]
    lines = page.read_text(encoding="utf-8").split("\n")
    page.write_text("\n".join("slug: " + "基于扩散模型的图像生成" * 10 if line.startswith("slug:") else line
                              for line in lines), encoding="utf-8")
    run = build(repo, root)
    ok = run.status == 0 and page.name in run.output and ".staging" not in run.output and page_count(root) == 3
    return run, "ok: cut, named by its page" if ok else f"FAIL ({page_count(root)} pages)"


def bib_shared_key(repo: Path, root: Path, args) -> tuple[Run, str]:
    folder = content(root, [])
    for name, title in (("a.bib", "Quasars"), ("b.bib", "Proteins"), ("c.bib", "Comets")):
        entry = f"@inproceedings{{doe2026, title = {{{title}}}, abstract = {{We study {title}.}}}}\n"
        (folder / name).write_text(entry, encoding="utf-8")
    run = build(repo, root)
    bib = (root / "site" / "proceedings.bib").read_text(encoding="utf-8") if run.status == 0 else ""
    keys = [line.split("{", 1)[1].rstrip(",").lower() for line in bib.splitlines() if line.startswith("@")]
    ok = len(keys) == 3 and len(set(keys)) == 3
    return run, "ok: 3 keys, none repeated" if ok else f"FAIL: keys {', '.join(keys)}"


def jsonl_huge_record(repo: Path, root: Path, args) -> tuple[Run, str]:
    huge = b'{"title": "Huge", "abstract": "' + b"word " * 20_000_000 + b'"}'  # 100 MB on one line
    return _one_bad_record(repo, root, "papers.jsonl", _jsonl(huge), "papers.jsonl:2: warning: this line is")


def jsonl_10mb_record(repo: Path, root: Path, args) -> tuple[Run, str]:
    big = json.dumps({"title": "Big", "abstract": "We study big things. " * 500_000}).encode()  # 10.5 MB
    run, verdict = _one_bad_record(repo, root, "papers.jsonl", _jsonl(big), "built 3 papers")
    return run, verdict.replace("pages", "pages (the 10 MB one too)")


CLASSES = {"nul-link": nul_link, "config-link": config_link, "symlink-out": symlink_out,
           "yaml-bomb-page": yaml_bomb_page, "yaml-bomb-config": yaml_bomb_config, "authors": authors,
           "edited": edited, "concurrent": concurrent, "kill-workers": kill_workers, "tex-cite": tex_cite,
           "cache-forgery": cache_forgery, "escapes": escapes, "serve": serve, "page-bad-byte": page_bad_byte,
           # one record of a source (the readers): the others must be published, exit 0
           "csv-huge-cell": csv_huge_cell, "csv-open-quote": csv_open_quote, "csv-bad-byte": csv_bad_byte,
           "jsonl-surrogate": jsonl_surrogate, "jsonl-big-int": jsonl_big_int, "jsonl-deep": jsonl_deep,
           "bib-deep-groups": bib_deep_groups,
           # issue 27, the input edge
           "bib-string-bomb": bib_string_bomb, "unicode-edge": unicode_edge,
           "device-names": device_names, "long-slug": long_slug,
           "bib-shared-key": bib_shared_key, "jsonl-huge-record": jsonl_huge_record,
           "jsonl-10mb-record": jsonl_10mb_record}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, default=REPO, help="the checkout to run (default: this one)")
    parser.add_argument("--only", nargs="*", choices=list(CLASSES), help="run only these classes")
    parser.add_argument("--authors", type=int, default=5_000, help="authors of the huge paper (default 5,000)")
    parser.add_argument("--papers", type=int, default=2_000, help="abstracts of the `edited` class (default 2,000)")
    parser.add_argument("--edited", type=int, default=666, help="of them changed (default 666)")
    args = parser.parse_args()
    print(f"{'class':<18} {'exit':>4} {'seconds':>8} {'CPU s':>7} {'peak MB':>8} {'site MB':>8}  verdict")
    for name in args.only or CLASSES:
        with tempfile.TemporaryDirectory(prefix=f"fuzz-{name}-") as folder:
            run, verdict = CLASSES[name](args.repo.resolve(), Path(folder), args)
            print(f"{name:<18} {run.status:>4} {run.seconds:>8.1f} {run.cpu:>7.1f} {run.peak_mb:>8.0f} "
                  f"{size_mb(Path(folder) / 'site'):>8.1f}  {verdict}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
