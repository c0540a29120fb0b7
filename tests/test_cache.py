"""The build cache (generator/runtime/cache.py) and the streaming site writer: a cached build makes the
same bytes as an uncached one, skips only work whose inputs did not change, and a damaged,
foreign or unwritable cache is never trusted and never fails a build."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from generator.pipeline import rendering as rendering_module
from generator.runtime import cache as cache_module
from generator.runtime import sealed
from generator.derive import related as related_module
from generator import search as search_module
from generator.runtime.background import in_parallel
from generator.runtime.executor import Executor
from generator.commands.build import build
from generator.runtime.cache import CACHE_DIR, BuildCache, EntryCache
from generator.errors import ThemeError
from generator.reporter import Reporter


def snapshot(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def run(content: Path, out: Path, cache: bool = True) -> Reporter:
    """One job: the search index is then built in this process, where the test can count it."""
    reporter = Reporter()
    build(content, out, reporter, jobs=1, cache=cache)
    assert not reporter.errors, reporter.errors
    return reporter


class Forbidden:
    """Stands in for work a cached build must not redo; counts the calls a test allows."""

    def __init__(self, real=None, allowed: int = 0):
        self.real, self.allowed, self.calls = real, allowed, 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        if self.calls > self.allowed:
            raise AssertionError("a cached result was worked out again")
        return self.real(*args, **kwargs)


@pytest.fixture
def forbid(monkeypatch):
    """Make rendering, relating and indexing fail unless allowed: a passing build used the cache."""
    related_module.forget_texts()  # the in-process answer serve relies on must not help here

    def install(renders: int = 0, relate: bool = False, index: bool = False) -> dict[str, Forbidden]:
        guards = {
            "render": Forbidden(rendering_module.render_paper, renders),
            "relate": Forbidden(related_module._neighbours, int(relate)),
            "index": Forbidden(search_module.index_job, int(index)),
        }
        monkeypatch.setattr(rendering_module, "render_paper", guards["render"])
        monkeypatch.setattr(related_module, "_neighbours", guards["relate"])
        monkeypatch.setattr(search_module, "index_job", guards["index"])
        return guards

    yield install
    related_module.forget_texts()


def test_an_unchanged_rebuild_skips_the_work_and_makes_the_same_bytes(seed_content, tmp_path, forbid):
    run(seed_content, tmp_path / "uncached", cache=False)
    assert not (seed_content / CACHE_DIR).exists(), "--no-cache must not write a cache"
    first = run(seed_content, tmp_path / "site")
    assert (seed_content / CACHE_DIR / ".gitignore").read_text() == "*\n"

    forbid()
    second = run(seed_content, tmp_path / "site")
    assert snapshot(tmp_path / "site") == snapshot(tmp_path / "uncached")
    assert [str(d) for d in second.diagnostics] == [str(d) for d in first.diagnostics], \
        "warnings found while rendering must be reported again from the cache"


def test_an_edited_paper_is_rendered_again_and_the_rest_comes_from_the_cache(seed_content, tmp_path, forbid):
    run(seed_content, tmp_path / "site")
    page = sorted((seed_content / "papers").glob("*.md"))[3]
    page.write_text(page.read_text(encoding="utf-8") + "\nA sentence added about $x^2$ quokkas.\n",
                    encoding="utf-8")

    run(seed_content, tmp_path / "uncached", cache=False)
    guards = forbid(renders=1, relate=True, index=True)
    run(seed_content, tmp_path / "site")
    assert guards["render"].calls == 1 and guards["relate"].calls == 1 and guards["index"].calls == 1
    assert snapshot(tmp_path / "site") == snapshot(tmp_path / "uncached")
    shipped = [path.read_bytes() for path in (tmp_path / "site" / "assets" / "search").glob("t*.js")]
    assert any(b'\\"quokka\\"' in data for data in shipped)  # the term (quoted inside the JSON text), in its shard


def test_other_generator_code_misses_the_whole_cache(seed_content, tmp_path, forbid, monkeypatch):
    run(seed_content, tmp_path / "site")
    monkeypatch.setattr(cache_module, "code_digest", lambda: "another version of the generator")
    guards = forbid(renders=10_000, relate=True, index=True)
    run(seed_content, tmp_path / "site")
    assert guards["render"].calls == 19 and guards["relate"].calls == 1 and guards["index"].calls == 1


def test_a_changed_config_renders_every_abstract_again(seed_content, tmp_path, forbid):
    run(seed_content, tmp_path / "site")
    config = seed_content / "proceedings.yaml"
    # A macro no abstract uses: every abstract is rendered again (the renderer changed), but the
    # plain texts come out the same, so related papers and the search index are still found.
    text = config.read_text(encoding="utf-8")
    assert "\nmacros:\n" in text
    config.write_text(text.replace("\nmacros:\n", "\nmacros:\n  quokka: '\\mathbb{Q}'\n"), encoding="utf-8")
    guards = forbid(renders=10_000)
    run(seed_content, tmp_path / "site")
    assert guards["render"].calls == 19


def test_a_config_field_that_shapes_only_pages_keeps_every_abstract_from_the_cache(seed_content, tmp_path, forbid):
    """The description shapes pages, not abstracts (model/config.py declares it): a new one re-renders no
    abstract, and the site is the one a build without the cache makes."""
    run(seed_content, tmp_path / "site")
    config = seed_content / "proceedings.yaml"
    text = config.read_text(encoding="utf-8")
    assert "\ndescription: " in text
    config.write_text(text.replace("\ndescription: ", "\ndescription: Quokkas. "), encoding="utf-8")
    run(seed_content, tmp_path / "uncached", cache=False)
    guards = forbid()
    run(seed_content, tmp_path / "site")
    assert guards["render"].calls == 0
    assert snapshot(tmp_path / "site") == snapshot(tmp_path / "uncached")
    assert b"Quokkas. Abstracts" in (tmp_path / "site" / "index.html").read_bytes()


@pytest.mark.parametrize("damage", ["flip a byte", "truncate", "empty", "garbage header"])
def test_a_damaged_cache_is_ignored_and_replaced(uncached_seed_site, seed_content, tmp_path, damage, forbid):
    run(seed_content, tmp_path / "site")
    entries = [p for p in (seed_content / CACHE_DIR).iterdir() if "-" in p.name]
    assert {p.name.rsplit("-", 1)[0] for p in entries} == {"abstracts", "front-matter", "papers", "related", "repeats",
                                                                   "search", "site", "sources", "survey", "sync",
                                                                   "volume-topics"}
    files = [f for p in entries for f in ([p] if p.is_file() else sorted(p.iterdir()))]  # abstracts: shards
    assert len(files) > 3
    for entry in files:
        data = entry.read_bytes()
        entry.write_bytes({"flip a byte": data[:-10] + bytes([data[-10] ^ 1]) + data[-9:],
                           "truncate": data[: len(data) // 2], "empty": b"",
                           "garbage header": b"proceedings-cache 2 0000\n" + data}[damage])

    guards = forbid(renders=10_000, relate=True, index=True)
    run(seed_content, tmp_path / "site")
    assert guards["render"].calls == 19 and guards["relate"].calls == 1 and guards["index"].calls == 1
    assert snapshot(tmp_path / "site") == snapshot(uncached_seed_site)
    forbid()  # the damaged entries were replaced by good ones
    run(seed_content, tmp_path / "site")


def test_a_well_formed_entry_of_the_wrong_shape_is_not_trusted(uncached_seed_site, seed_content, tmp_path, forbid):
    """Related papers pointing out of range or at the paper itself (a cache from elsewhere) are worked out again."""
    run(seed_content, tmp_path / "site")
    store = BuildCache.for_content(seed_content)
    (entry,) = (seed_content / CACHE_DIR).glob("related-*")
    key = entry.name.split("-", 1)[1]
    store.store_json("related", key, [[n, 99_999] for n in range(19)])
    guards = forbid(relate=True)
    run(seed_content, tmp_path / "site")
    assert guards["relate"].calls == 1
    assert snapshot(tmp_path / "site") == snapshot(uncached_seed_site)


def test_a_rendered_abstract_of_another_shape_is_rendered_again(uncached_seed_site, seed_content, tmp_path, forbid):
    """A cached rendering whose fields are not RenderedPaper's (kept by a build whose RenderedPaper had other
    fields) is a miss: the abstract is rendered again, not a crash (found by mypy, pipeline/rendering.py)."""
    run(seed_content, tmp_path / "site")
    (folder,) = (seed_content / CACHE_DIR).glob("abstracts-*")
    shard = sorted(folder.iterdir())[0]
    records = json.loads(shard.read_bytes().split(b"\n", 1)[1])
    for record in records.values():
        record["fields"]["a_field_gone_since"] = ""
    data = json.dumps(records).encode()
    sealed.write_atomically(shard, sealed.header_of(data), data)  # sealed with this user's key: trusted
    guards = forbid(renders=len(records))
    run(seed_content, tmp_path / "site")
    assert guards["render"].calls == len(records) > 0
    assert snapshot(tmp_path / "site") == snapshot(uncached_seed_site)


def test_an_unwritable_cache_only_makes_the_build_slower(seed_content, tmp_path, uncached_seed_site):
    (seed_content / CACHE_DIR).write_text("a file where the cache folder should be")
    run(seed_content, tmp_path / "site")
    assert snapshot(tmp_path / "site") == snapshot(uncached_seed_site)


def test_entry_cache_keeps_only_the_records_a_build_used(tmp_path):
    store = BuildCache(tmp_path / "cache")
    first = EntryCache(store, "things", "v1")
    first.put("a", 1)
    first.put("b", 2)
    first.save()
    second = EntryCache(store, "things", "v1")
    assert second.get("a") == 1 and second.get("c") is None
    second.save()
    assert EntryCache(store, "things", "v1").get("b") is None, "an unused record must not be kept forever"
    assert EntryCache(store, "things", "v2").get("a") is None, "another key part is another entry"
    assert len(list((tmp_path / "cache").glob("things-*"))) == 1, "one entry per kind"


def test_the_cache_never_loads_pickles(tmp_path):
    for module in (cache_module, sealed):
        source = Path(module.__file__).read_text(encoding="utf-8")
        assert "pickle" not in source.replace("never pickles", "")
    store = BuildCache(tmp_path)
    store.store_json("x", "k", {"a": [1, "ü"]})
    header, payload = (tmp_path / "x-k").read_bytes().split(b"\n", 1)
    assert header.startswith(b"proceedings-cache 2 ") and json.loads(payload) == {"a": [1, "ü"]}


# -- the streaming writer -------------------------------------------------------------

def test_unchanged_files_are_linked_from_the_previous_site_and_changed_ones_written(seed_content, tmp_path):
    site = tmp_path / "site"
    run(seed_content, site)
    before = {name: (site / name).stat().st_ino for name in ("404.html", "search.html", "papers.json")}
    papers = seed_content / "papers"
    page = sorted(papers.glob("*.md"))[0]
    page.write_text(page.read_text(encoding="utf-8").replace("title: ", "title: 'New: ' # ", 1), encoding="utf-8")
    run(seed_content, site)
    assert (site / "404.html").stat().st_ino == before["404.html"]
    assert (site / "search.html").stat().st_ino == before["search.html"]
    assert (site / "papers.json").stat().st_ino != before["papers.json"]
    assert b"New:" in (site / "papers.json").read_bytes()
    assert not any(p.name.startswith(".site.") for p in tmp_path.iterdir())


def test_a_template_failing_midway_leaves_the_previous_site_and_no_staging(seed_content, tmp_path, monkeypatch):
    site = tmp_path / "site"
    run(seed_content, site)
    good = snapshot(site)
    calls = {"n": 0}
    real = rendering_module.SiteRenderer.render

    def failing(self, template, root, **context):
        calls["n"] += 1
        if calls["n"] == 12:
            raise ThemeError("template paper.html failed: boom")
        return real(self, template, root, **context)

    monkeypatch.setattr(rendering_module.SiteRenderer, "render", failing)
    with pytest.raises(ThemeError, match="boom"):  # without the cache: every page is rendered again
        build(seed_content, site, Reporter(), cache=False)
    assert snapshot(site) == good
    assert not any(p.name.startswith(".site.") for p in tmp_path.iterdir()), "staging folder left behind"


# -- forked work ------------------------------------------------------------------------

def _fail_in_child():
    raise OSError(28, "No space left on device", "site/.site.staging/x.html")


def test_an_error_in_a_forked_job_is_raised_in_the_parent():
    with pytest.raises(OSError, match="No space left on device") as info:
        in_parallel(_fail_in_child)()
    assert info.value.filename == "site/.site.staging/x.html"
    assert Executor(2).chunks(lambda chunk: [x * 2 for x in chunk], [[1, 2], [3], [4, 5]]) == [[2, 4], [6], [8, 10]]


def test_a_cancelled_forked_job_stops():
    started = time.monotonic()
    pending = in_parallel(lambda: time.sleep(30))
    pending.cancel()
    assert time.monotonic() - started < 10


def test_a_forked_job_ends_when_done_though_its_result_outgrows_the_pipe():
    """Its result is read as it comes: the child does not wait, holding its memory, until it is asked for
    (the search index's child through the whole render stage, issue 29)."""
    pending = in_parallel(lambda: "x" * 4_000_000)  # far more than a pipe's buffer
    deadline = time.monotonic() + 20
    while pending._process.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not pending._process.is_alive()
    assert pending() == "x" * 4_000_000


def test_free_heap_pages_go_back_to_the_system_before_each_fork(monkeypatch):
    from generator.runtime import background

    released = []
    monkeypatch.setattr(background, "release_free_memory", lambda: released.append(True))
    assert in_parallel(lambda: 7)() == 7 and released == [True]
    if os.path.exists("/lib/x86_64-linux-gnu/libc.so.6"):  # glibc: malloc_trim is there to call
        assert background._MALLOC_TRIM is not None


def test_a_large_volumes_build_maps_its_large_blocks_apart(seed_content, tmp_path, monkeypatch):
    """A build of a volume large enough that memory counts before time has glibc map each block of 1 MiB or more
    apart, given back when freed (issue 43: about 90 MB of the 50,000-paper build's peak, relating papers); a
    small volume's build leaves glibc's default."""
    from generator.runtime import background, sizes

    calls = []
    monkeypatch.setattr(background, "_MALLOPT", lambda *args: calls.append(args) or 1)
    build(seed_content, tmp_path / "small", Reporter(), jobs=2)
    assert calls == []
    monkeypatch.setattr(sizes, "current", lambda: sizes.LARGE)
    build(seed_content, tmp_path / "large", Reporter(), jobs=2)
    assert calls and set(calls) == {(-3, 1 << 20)}
    if os.path.exists("/lib/x86_64-linux-gnu/libc.so.6"):  # glibc: mallopt is there to call
        assert background._libc("mallopt") is not None


def test_a_failing_share_in_this_process_stops_the_forked_shares(tmp_path):
    marker = tmp_path / "written-after-the-failure"

    def work(chunk):
        if chunk == ["here"]:
            raise ValueError("this process failed")
        time.sleep(1.5)
        marker.write_text("too late")
        return chunk

    with pytest.raises(ValueError):
        Executor(2).chunks(work, [["here"], ["there"]])
    time.sleep(2)
    assert not marker.exists(), "a forked share went on writing after the build failed"
    assert os.getpid()  # still here


# -- large entries, never held whole ------------------------------------------------------

def test_records_are_kept_in_shards_read_only_when_asked_for(tmp_path):
    store = BuildCache(tmp_path / "cache")
    first = EntryCache(store, "things", "v1")
    for n in range(300):
        first.put(f"key{n}", {"n": n, "text": "é𝑥"})
    first.save()
    (folder,) = (tmp_path / "cache").glob("things-*")
    shards = sorted(folder.iterdir())
    assert 100 < len(shards) <= 256 and all(len(p.name) == 2 for p in shards)
    for shard in shards:  # each shard is a checked entry of its own
        header, payload = shard.read_bytes().split(b"\n", 1)
        assert header == b"proceedings-cache 2 " + sealed.payload_digest(payload).encode()

    second = EntryCache(store, "things", "v1")
    assert second.get("key7") == {"n": 7, "text": "é𝑥"}
    assert len(second._found) == 1, "one record asked for: one shard read"


def test_a_save_rewrites_only_the_shards_that_changed_and_drops_unused_ones(tmp_path):
    store = BuildCache(tmp_path / "cache")
    first = EntryCache(store, "things", "v1")
    for n in range(300):
        first.put(f"key{n}", n)
    first.save()
    (folder,) = (tmp_path / "cache").glob("things-*")
    before = {p.name: p.stat().st_ino for p in folder.iterdir()}

    second = EntryCache(store, "things", "v1")
    assert all(second.get(f"key{n}") == n for n in range(300))
    second.put("key0", "changed")
    second.save()
    after = {p.name: p.stat().st_ino for p in folder.iterdir()}
    assert after.keys() == before.keys()
    assert [name for name in after if after[name] != before[name]] == [cache_module._shard("key0")]

    third = EntryCache(store, "things", "v1")
    assert third.get("key0") == "changed"
    third.save()  # only key0's shard was used: the others go
    assert [p.name for p in folder.iterdir()] == [cache_module._shard("key0")]
    assert EntryCache(store, "things", "v1").get("key1") is None


def test_a_taken_record_is_the_callers_and_a_shard_written_again_reads_it_back_from_its_file(tmp_path):
    """``take`` (a warm build's pages and abstracts): the entry lets the record go; a save that writes nothing
    new rewrites no shard, and one that must rewrite a shard (a record changed, or only some of it used) writes
    the taken records as its file held them."""
    store = BuildCache(tmp_path / "cache")
    first = EntryCache(store, "things", "v1")
    for n in range(300):
        first.put(f"key{n}", {"n": n, "text": "é𝑥"})
    first.save()
    (folder,) = (tmp_path / "cache").glob("things-*")
    before = {p.name: p.stat().st_ino for p in folder.iterdir()}

    second = EntryCache(store, "things", "v1")
    taken = [second.take(f"key{n}") for n in range(300)]
    assert taken == [{"n": n, "text": "é𝑥"} for n in range(300)]
    assert not any(second._found.values()), "the entry still holds taken records"
    taken[1]["n"] = "changed by its taker"  # the caller's own: the entry's file is not changed by it
    assert second.take("key1") == {"n": 1, "text": "é𝑥"} == second.get("key1"), "taken twice: read again"
    assert second.take("missing") is None
    second.save()
    assert {p.name: p.stat().st_ino for p in folder.iterdir()} == before, "nothing new: no shard written"

    by_shard: dict[str, list[int]] = {}
    for n in range(300):
        by_shard.setdefault(cache_module._shard(f"key{n}"), []).append(n)
    shard, (one, other, *_) = next((name, ns) for name, ns in by_shard.items() if len(ns) >= 3)
    third = EntryCache(store, "things", "v1")
    assert third.take(f"key{one}") == {"n": one, "text": "é𝑥"} and third.take(f"key{other}")["n"] == other
    third.save()  # that shard partly used: written again with its two records, read back from its file
    fourth = EntryCache(store, "things", "v1")
    assert fourth.get(f"key{one}") == {"n": one, "text": "é𝑥"} and fourth.get(f"key{other}")["n"] == other
    assert fourth._sizes[shard] == 2 and [p.name for p in folder.iterdir()] == [shard]


def test_a_damaged_shard_loses_only_its_own_records(tmp_path):
    store = BuildCache(tmp_path / "cache")
    first = EntryCache(store, "things", "v1")
    for n in range(300):
        first.put(f"key{n}", n)
    first.save()
    (folder,) = (tmp_path / "cache").glob("things-*")
    damaged = folder / cache_module._shard("key5")
    damaged.write_bytes(damaged.read_bytes()[:-3] + b"99}")
    second = EntryCache(store, "things", "v1")
    found = {n for n in range(300) if second.get(f"key{n}") == n}
    lost = {n for n in range(300) if cache_module._shard(f"key{n}") == damaged.name}
    assert 5 in lost and found == set(range(300)) - lost
    assert not damaged.exists(), "a damaged shard is removed"


def test_large_bytes_entries_are_copied_in_chunks_and_checked(tmp_path):
    store = BuildCache(tmp_path / "cache")
    source = tmp_path / "index.js"
    source.write_bytes(bytes(range(256)) * 20_000)
    store.store_file("search", "k1", source)
    assert store.load_bytes("search", "k1") == source.read_bytes(), "the same format as store_bytes"
    assert store.copy_out("search", "k1", tmp_path / "out" / "copy.js")
    assert (tmp_path / "out" / "copy.js").read_bytes() == source.read_bytes()
    store.store_bytes("search", "k2", b"another")
    assert not store.copy_out("search", "k1", tmp_path / "missing.js"), "one entry per kind"
    assert store.copy_out("search", "k2", tmp_path / "k2.js") and (tmp_path / "k2.js").read_bytes() == b"another"
    entry = tmp_path / "cache" / "search-k2"
    entry.write_bytes(entry.read_bytes()[:-1] + b"X")
    assert not store.copy_out("search", "k2", tmp_path / "bad.js") and not entry.exists()
    assert not (tmp_path / "bad.js").exists()
    assert not BuildCache(None).copy_out("search", "k2", tmp_path / "none.js")


def test_the_index_script_in_pieces_is_the_script_whole():
    data = {"version": 1, "docs": [[f"t<{n}>\"é𝑥\u2028", "u", [n], "</script>"] for n in range(5_000)],
            "tags": [["a", None]], "index": {"invertedIndex": [[f"w{n}", {"_index": n}] for n in range(4_500)],
                                               "fieldVectors": [], "version": "2.3.9"}}
    payload = json.dumps(data, ensure_ascii=True, sort_keys=True, separators=(",", ":"))
    literal = json.dumps(payload.replace("<", "\\u003c"))
    whole = f"globalThis.{search_module.GLOBAL_NAME}=JSON.parse({literal});\n"
    assert search_module.index_script(data) == whole.encode("ascii")
    assert len(list(search_module.index_script_chunks(data))) > 10



def test_front_matter_an_earlier_build_parsed_is_not_parsed_again(seed_content, monkeypatch):
    """A warm build reads 50,000 pages: YAML is most of it, so each front matter is kept in the cache by
    the digest of its text; a page whose front matter changed, or that JSON cannot hold, is parsed."""
    from generator.content import page_doc as page_doc_module
    from generator.content import pages as pages_module

    def read(known: bool = True):
        entries = EntryCache(BuildCache.for_content(seed_content), "front-matter") if known else None
        docs = pages_module.read_pages(seed_content, known=entries)
        fields(docs)  # each front matter asked for, as the sync does
        if entries is not None:
            entries.save()  # as the pipeline does, once the pages stage is done
        return docs

    def fields(docs):
        return {path: (doc.meta, doc.lines, doc.body, doc.body_line) for path, doc in docs.items()}

    first = read()
    edited, odd = sorted(first)[0], sorted(first)[1]
    edited.write_text(edited.read_text(encoding="utf-8").replace("title: ", "title: 'Edited: ' # ", 1),
                      encoding="utf-8")
    odd.write_text(odd.read_text(encoding="utf-8").replace("\nslug:", "\nextra: !!set {a, b}\nslug:", 1),
                   encoding="utf-8")
    parsed: list[str] = []
    real = page_doc_module.load_mapping

    def counting(text, path, *args, **kwargs):
        parsed.append(str(path))
        return real(text, path, *args, **kwargs)

    monkeypatch.setattr(page_doc_module, "load_mapping", counting)
    read()  # the set is not JSON: never kept
    parsed.clear()
    second = read()
    assert parsed == [f"papers/{odd.name}"]
    expected = fields(read(known=False))
    assert fields(second) == expected and expected[edited][0]["title"].startswith("Edited:")


def test_pages_a_cold_build_wrote_are_read_without_parsing_their_yaml(tmp_path, monkeypatch):
    from conftest import write_list
    from generator.content import page_doc as page_doc_module
    from generator.content import pages as pages_module

    content = tmp_path / "content"
    content.mkdir()
    write_list(content / "list.txt", "A workshop", [f"We study problem {n} with $x^{n}$ and a new method."
                                                   for n in range(4)])
    run(content, tmp_path / "site")
    parsed: list[str] = []
    real = page_doc_module.load_mapping
    monkeypatch.setattr(page_doc_module, "load_mapping", lambda text, path, *a, **k: parsed.append(path) or
                        real(text, path, *a, **k))
    docs = pages_module.read_pages(content, known=EntryCache(BuildCache.for_content(content), "front-matter"))
    assert len(docs) == 4 and all(doc.meta for doc in docs.values()) and parsed == []
    monkeypatch.setattr(page_doc_module, "load_mapping", real)
    assert {p: (d.meta, d.lines) for p, d in docs.items()} == \
        {p: (d.meta, d.lines) for p, d in pages_module.read_pages(content).items()}


def test_a_digest_is_of_its_parts_each_length_prefixed():
    import hashlib

    from generator.runtime.cache import digest

    def by_hand(*parts: bytes) -> str:
        hasher = hashlib.blake2b(digest_size=20)
        for part in parts:
            hasher.update(len(part).to_bytes(8, "little") + part)
        return hasher.hexdigest()

    assert digest("ab", "c") == by_hand(b"ab", b"c") != digest("a", "bc")
    assert digest(b"\x00", "é", "\ud800") == by_hand(b"\x00", "é".encode(), "\ud800".encode("utf-8", "surrogatepass"))


def test_a_digest_of_parts_read_one_at_a_time_is_the_digest_of_them_all(tmp_path):
    """Related papers, the map and the search index digest a volume's texts a paper at a time (never all held):
    the same keys as before, so that a cache an earlier build left still serves."""
    parts = ["related", "4", "Title", "An abstract with ∑ and \udcff", b"bytes", ""]
    assert cache_module.digest_of(iter(parts)) == cache_module.digest(*parts)
    assert cache_module.digest_of(["ab", "c"]) != cache_module.digest_of(["a", "bc"])
    store = BuildCache(tmp_path / CACHE_DIR)
    assert store.key_of(part for part in parts) == store.key(*parts)
