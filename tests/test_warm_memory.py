"""What a warm build holds at once (bench/RESULTS.md, issue 43: the 50,000-paper warm build's peaks): the
cache's renderings taken a shard at a time (``EntryCache.take_each``), the last site's record and the
listing's input digests as flat blocks of bytes (pipeline/reuse.py), with the same files kept and rendered; and
the listing itself: each file's papers as a sorted tuple, slotted outputs, an author page's JSON-LD made when it
renders."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from generator.pipeline import rendering
from generator.pipeline.reuse import DIGEST_SIZE, Inputs, LastSite, input_digests
from generator.pipeline.sinks import StagingSink
from generator.render.outputs import Output, PaperIds
from generator.reporter import Reporter
from generator.runtime.cache import BuildCache, EntryCache


def _holding_one_shard_at_a_time(monkeypatch) -> list[str]:
    """Every shard an ``EntryCache`` reads; each read fails the test if another shard still holds a record."""
    read: list[str] = []
    real = EntryCache._load

    def load(self, shard):
        held = [other for other, records in self._found.items() if records and other != shard]
        assert not held, f"shard {shard} read while {held} still hold records not yet taken"
        read.append(shard)
        return real(self, shard)

    monkeypatch.setattr(EntryCache, "_load", load)
    return read


def test_take_each_reads_a_shard_at_a_time_and_takes_every_key(tmp_path, monkeypatch):
    store = BuildCache(tmp_path / "cache")
    first = EntryCache(store, "things", "v1")
    for n in range(600):
        first.put(f"key{n}", {"n": n})
    first.save()
    (folder,) = (tmp_path / "cache").glob("things-*")
    before = {p.name: p.stat().st_ino for p in folder.iterdir()}

    read = _holding_one_shard_at_a_time(monkeypatch)
    second = EntryCache(store, "things", "v1")
    asked = [f"key{n}" for n in range(599, -1, -1)] + ["missing"]
    taken = dict(second.take_each(asked))
    assert taken == {**{f"key{n}": {"n": n} for n in range(600)}, "missing": None}
    assert len(read) == len(set(read)) == len(before), "each shard read once"
    second.save()
    assert {p.name: p.stat().st_ino for p in folder.iterdir()} == before, "nothing new: no shard written"


def test_take_each_leaves_the_records_not_asked_for(tmp_path):
    store = BuildCache(tmp_path / "cache")
    first = EntryCache(store, "things", "v1")
    for n in range(50):
        first.put(f"key{n}", n)
    first.save()
    second = EntryCache(store, "things", "v1")
    assert dict(second.take_each(["key0"])) == {"key0": 0}
    assert all(second.get(f"key{n}") == n for n in range(1, 50))
    second.save()
    third = EntryCache(store, "things", "v1")
    assert all(third.get(f"key{n}") == n for n in range(50)), "a taken record is written back as its file held it"


def test_renderings_from_the_cache_are_taken_a_shard_at_a_time(tmp_path, monkeypatch):
    """A warm build's render abstracts stage: in the papers' order, each paper's record fell in another shard,
    and within the first few hundred papers every shard's records were read and held (the whole entry, 150 MB
    of objects at 50,000 papers) until their papers came. Now one shard's at a time, with the same renderings."""
    from generator.latex import AbstractRenderer
    from generator.model.paper import Paper
    from generator.pipeline.packed import packed

    papers = [Paper(f"p{n}", f"p{n}", f"Title {n}", f"Abstract *number* {n} with $x_{n}$." if n % 7 == 0
                    else f"Abstract number {n}.", (), n, "papers.txt", n, Path(f"papers/p{n}.md"))
              for n in range(600)]
    store = BuildCache(tmp_path / "cache")
    made = rendering.render_papers(papers, AbstractRenderer(), Reporter(), cache=EntryCache(store, "abstracts", "v1"))
    read = _holding_one_shard_at_a_time(monkeypatch)
    cache = EntryCache(store, "abstracts", "v1")
    again = rendering.render_papers(papers, AbstractRenderer(), Reporter(), cache=cache, pack=packed)
    assert len(read) > 200, "the renderings did not come from the cache"
    assert {path: done.paper for path, done in again.items()} == {path: done.paper for path, done in made.items()}
    assert all(again[paper.path].source is paper for paper in papers)
    assert not any(cache._found.values()), "the cache still holds the records it gave"


def _site(tmp_path: Path, names: list[str]) -> tuple[Path, list[Output]]:
    out = tmp_path / "site"
    for name in names:
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(name.encode())
    return out, [Output(name, lambda name=name: name.encode(), frozenset({name[0]})) for name in names]


def _inputs(names: list[str], moved: str = "") -> Inputs:
    return Inputs(names, b"".join(bytes([len(name) + (name == moved)]) * DIGEST_SIZE for name in names))


def test_the_last_sites_record_reads_back_and_says_which_files_are_unchanged(tmp_path):
    names = ["index.html", "papers/a.html", "papers/b.html", "tags/x.html", "café.html"]
    out, _ = _site(tmp_path, names)
    store = BuildCache(tmp_path / "cache")
    LastSite.save(store, out, _inputs(names))
    last = LastSite.load(store, out)
    assert len(last) == len(names) and last.intact()
    assert [index for index, _ in last.unchanged(_inputs(names))] == [0, 1, 2, 3, 4]
    # Another listing: files gone, one new, another order (each found by name); one made from other inputs now.
    listed = ["new.html", "tags/x.html", "papers/b.html", "café.html", "index.html"]
    found = {listed[index]: at for index, at in last.unchanged(_inputs(listed, moved="papers/b.html"))}
    assert found == {"tags/x.html": 3, "café.html": 4, "index.html": 0}
    (out / "index.html").write_bytes(b"edited by hand")  # another size: not the file recorded
    assert 0 not in dict(last.unchanged(_inputs(names))) and not last.intact()


def test_a_record_of_another_shape_keeps_nothing(tmp_path):
    names = ["index.html"]
    out, _ = _site(tmp_path, names)
    store = BuildCache(tmp_path / "cache")
    LastSite.save(store, out, _inputs(names))
    record = LastSite.load(store, out)
    data = store.load_bytes("site", store.key("site", str(out.resolve())))
    assert data is not None and LastSite.read(out, data) == record
    for other in (b"", b'{"inputs": {}, "identities": {}}', data[:-1], data + b"\0", data.replace(b"\0", b"/")):
        assert list(LastSite.read(out, other).unchanged(_inputs(names))) == [], other


def test_a_build_links_the_unchanged_files_it_is_asked_for_and_records_every_listed_one(tmp_path):
    """``keep_unchanged`` gets some of the listed outputs, in the listing's order: of those, the unchanged are
    linked and the others rendered; the record then holds every listed file, the linked ones with the identity
    compared, which is the published file's."""
    names = ["index.html", "papers/a.html", "papers/b.html", "tags/x.html", "tags/y.html"]
    out, outputs = _site(tmp_path, names)
    store = BuildCache(tmp_path / "cache")
    LastSite.save(store, out, _inputs(names))
    sink = StagingSink(out)
    with sink.session(Reporter()):
        wanted = [outputs[0], outputs[2], outputs[3]]  # (papers/a.html and tags/y.html: not asked for)
        render = sink.keep_unchanged(wanted, lambda: _inputs(names, moved="papers/b.html"), store)
        assert [output.path for output in render] == ["papers/b.html"] and (sink.kept, sink.rendered) == (2, 1)
        for output in render:
            sink.write(output.path, b"rendered again")
        sink.finish(["index.html", "papers/b.html", "tags/x.html"], {})
    assert (out / "papers/b.html").read_bytes() == b"rendered again" and not (out / "papers/a.html").exists()
    last = LastSite.load(store, out)
    assert last.intact() and len(last) == 3
    assert [index for index, _ in last.unchanged(_inputs(names, moved="papers/b.html"))] == [0, 2, 3]


def test_the_input_digests_are_each_outputs_in_the_listings_order(seed_content):
    from generator.pipeline.sinks import NullSink
    from generator.pipeline import stages
    from generator.runtime.cache import digest
    from generator.runtime.cache_records import paper_key

    state = stages.Pipeline(seed_content, NullSink()).run(Reporter(), until="rendered")
    papers = state.rendered
    outputs = [Output("whole.json", bytes), Output("one.html", bytes, frozenset({papers[1].paper.id})),
               Output("none.html", bytes, frozenset()), Output("gone.html", bytes, frozenset({"no-such-paper"}))]
    related = {papers[1].paper.id: (papers[0].paper.id,)}
    inputs = input_digests("site", outputs, papers, related)
    per_paper = {p.paper.id: digest(paper_key(p.paper), *related.get(p.paper.id, ())) for p in papers}
    assert inputs.names == ["whole.json", "one.html", "none.html", "gone.html"]
    assert inputs.as_dict() == {"whole.json": digest("site", *per_paper.values()),
                                "one.html": digest("site", per_paper[papers[1].paper.id]),
                                "none.html": digest("site"), "gone.html": digest("site", "")}


def test_a_files_papers_are_a_sorted_tuple_that_answers_the_listings_questions():
    ids = PaperIds(["b", "a", "c", "a"])
    assert ids == ("a", "b", "c") and hash(ids) == hash(("a", "b", "c")) and PaperIds() == ()
    assert "b" in ids and "d" not in ids and bool(ids) and not PaperIds()
    assert ids.isdisjoint({"d", "e"}) and not ids.isdisjoint(frozenset({"c"}))
    assert ids & {"c", "a", "x"} == frozenset({"a", "c"}) and not ids & set()
    assert ",".join(sorted(ids)) == "a,b,c"  # the layout's digest reads them so (pipeline/reuse.py site_digest)


def _colt(tmp_path: Path) -> Path:
    """COLT 2020's papers.csv (tests/contents_fixtures.py: 117 papers, their authors, 20 sessions)."""
    from contents_fixtures import colt2020_csv

    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "papers.csv").write_text(colt2020_csv(), encoding="utf-8")
    return tmp_path / "content"


def _listed(content: Path):
    from generator.pipeline import stages
    from generator.pipeline.rendering import site_renderer
    from generator.pipeline.sinks import NullSink

    state = stages.Pipeline(content, NullSink()).run(Reporter(), until="rendered")
    assert state.project is not None
    return site_renderer(state.project, state.rendered), state.rendered


def test_the_listing_holds_each_files_papers_in_a_few_bytes(tmp_path):
    """A large volume's warm build holds every listed file at once (86,000 at 50,000 papers): its papers as a
    frozenset were a hash table each (216 bytes for one paper, 730 for a paper page's eight), and
    each ``Output`` a ``__dict__``."""
    renderer, papers = _listed(_colt(tmp_path))
    outputs = renderer.outputs(papers)
    shown = [output for output in outputs if output.deps]
    assert len(shown) > len(papers), "a page for each paper, and the lists"
    for output in outputs:
        assert not hasattr(output, "__dict__"), output.path
        if output.deps is not None:
            assert list(output.deps) == sorted(set(output.deps)), output.path
            assert sys.getsizeof(output.deps) <= sys.getsizeof(()) + 8 * len(output.deps), output.path
    page = next(output for output in outputs if output.path == papers[1].url)
    assert set(page.deps or ()) >= {papers[0].paper.id, papers[1].paper.id, papers[2].paper.id}


def test_an_author_pages_json_ld_is_made_when_it_renders_not_when_listed(tmp_path, monkeypatch):
    from generator.publish import jsonld

    renderer, papers = _listed(_colt(tmp_path))
    made: list[str] = []
    real = jsonld.author_page

    def author_page(name, *args):
        made.append(name)
        return real(name, *args)

    monkeypatch.setattr(jsonld, "author_page", author_page)
    outputs = renderer.outputs(papers)
    authors = [output for output in outputs if output.path.startswith("authors/") and output.path.endswith(".html")
               and not output.path.startswith("authors/index")]
    assert authors and made == [], "no person's JSON-LD made while the site is listed"
    page = authors[0].render()
    assert made and made[0].encode("utf-8") in page and b'"@type":"Person"' in page


def test_a_build_times_its_listing_and_its_keeping_of_unchanged_files(seed_content, tmp_path):
    from generator.commands.build import build

    for _ in range(2):  # cold, then warm: every file kept
        reporter = Reporter()
        build(seed_content, tmp_path / "site", reporter)
    assert {"list outputs", "keep unchanged", "render templates"} <= reporter.timings.keys()


@given(st.lists(st.text(max_size=6), unique=True, max_size=8), st.text(), st.data())
def test_each_files_input_digest_is_the_digest_of_the_site_and_its_papers_digests(ids, site, data):
    """``input_digests`` frames each paper's digest once for all the files that show it: the same digests as
    ``digest(site, *its papers' digests)``, a paper no longer in the volume as ""."""
    from types import SimpleNamespace

    from generator.runtime.cache import digest

    papers = [SimpleNamespace(paper=SimpleNamespace(id=key, _paper_key=f"record {n}")) for n, key in enumerate(ids)]
    related = {key: tuple(data.draw(st.lists(st.sampled_from(ids), max_size=4))) for key in ids}
    deps = data.draw(st.lists(st.one_of(st.none(), st.frozensets(st.sampled_from([*ids, "gone"]))), max_size=6))
    outputs = [Output(f"file-{n}.html", bytes, shown) for n, shown in enumerate(deps)]
    per_paper = {p.paper.id: digest(p.paper._paper_key, *related[p.paper.id]) for p in papers}
    assert input_digests(site, outputs, papers, related).as_dict() == {
        output.path: digest(site, *per_paper.values()) if output.deps is None
        else digest(site, *(per_paper.get(key, "") for key in sorted(output.deps))) for output in outputs}
