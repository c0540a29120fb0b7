"""The merge rules: pages follow the list, and a person's edits always win."""

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from generator.content.merge import Derived, plan_sync
from generator.content.pages import read_page, render_page, split_front_matter
from generator.sources.plainlist import parse
from generator.text.yamlutil import load_mapping
from generator.errors import ContentError
from generator.runtime.executor import Executor

ABSTRACTS = [
    "We introduce Alpha, a method for sorting. It is fast and simple to use in practice.",
    "We present Beta, a benchmark for counting things in images of cluttered rooms.",
    "Gamma studies the geometry of loss landscapes in deep networks with skip connections.",
]


def fake_derive(entries):
    """Deterministic stand-in for title derivation: the first three words."""
    return [_fake(entry.text) for entry in entries]


def _fake(text):
    title = " ".join(text.split()[:3]).rstrip(",.")
    return Derived(title, ("Topic " + text.split()[2].rstrip(","),), alternatives=(title + " bis",))


def sync(content: Path, abstracts, tags_version="v1"):
    text = "Test Proceedings\n\n" + "\n\n".join(abstracts) + "\n"
    (content / "list.txt").write_text(text, encoding="utf-8")
    source = parse(text, "list.txt")
    docs = [read_page(p) for p in sorted((content / "papers").glob("*.md"))] if (content / "papers").exists() else []
    plan = plan_sync(content, [source], docs, fake_derive, tags_version)
    plan.apply()
    return plan


def pages(content: Path) -> dict[str, dict]:
    result = {}
    for path in sorted((content / "papers").glob("*.md")):
        front, body, _ = split_front_matter(path.read_text(encoding="utf-8"))
        meta, _ = load_mapping(front, path, ContentError)
        result[path.name] = {**meta, "body": body.strip()}
    return result


def edit(path: Path, **changes) -> None:
    doc = read_page(path)
    body = changes.pop("body", doc.body)
    path.write_text(render_page({**doc.meta, **changes}, body), encoding="utf-8")


@pytest.fixture
def content(tmp_path):
    folder = tmp_path / "content"
    folder.mkdir()
    sync(folder, ABSTRACTS)
    return folder


def test_first_import_creates_one_page_per_entry(content):
    made = pages(content)
    assert len(made) == 3
    assert sorted(p["id"] for p in made.values()) == ["1", "2", "3"]
    assert [p["order"] for p in sorted(made.values(), key=lambda p: p["order"])] == [1, 2, 3]
    for page in made.values():
        assert page["slug"] + ".md" in made
        assert page["source"] == "list.txt"
        assert page["body"] in ABSTRACTS


def test_resync_of_the_same_list_changes_nothing(content):
    before = {p.name: p.read_bytes() for p in (content / "papers").iterdir()}
    plan = sync(content, ABSTRACTS)
    assert plan.changes == []
    assert {p.name: p.read_bytes() for p in (content / "papers").iterdir()} == before


def test_edited_title_survives_every_later_sync(content):
    path = content / "papers" / "we-introduce-alpha.md"
    edit(path, title="Alpha: Sorting Made Simple")
    sync(content, ABSTRACTS)
    fixed = [ABSTRACTS[0].replace("sorting", "sorting lists")] + ABSTRACTS[1:]
    sync(content, fixed)
    page = pages(content)["we-introduce-alpha.md"]
    assert page["title"] == "Alpha: Sorting Made Simple"
    assert page["body"] == fixed[0]  # the body still follows the list
    assert page["slug"] == "we-introduce-alpha" and page["id"] == "1"


def test_typo_fix_in_the_list_keeps_page_id_and_url(content):
    before = pages(content)["we-present-beta.md"]
    fixed = (ABSTRACTS[:1] + [ABSTRACTS[1].replace("counting", "countign").replace("cluttered", "clutterd")]
             + ABSTRACTS[2:])
    plan = sync(content, fixed)
    after = pages(content)
    assert set(after) == {"we-introduce-alpha.md", "we-present-beta.md", "gamma-studies-the.md"}
    assert after["we-present-beta.md"]["id"] == before["id"]
    assert after["we-present-beta.md"]["body"] == fixed[1]
    assert [c.action for c in plan.changes] == ["update"]


def test_appended_entry_gets_a_new_page(content):
    plan = sync(content, ABSTRACTS + ["Delta proposes a new optimizer for sparse transformers."])
    assert [(c.action, c.path.name) for c in plan.changes] == [("create", "delta-proposes-a.md")]
    page = pages(content)["delta-proposes-a.md"]
    assert page["id"] == "4" and page["order"] == 4


def test_removed_entry_loses_its_generated_page(content):
    plan = sync(content, ABSTRACTS[:2])
    assert [(c.action, c.path.name) for c in plan.changes] == [("remove", "gamma-studies-the.md")]
    assert "gamma-studies-the.md" not in pages(content)


def test_removed_entry_keeps_an_edited_page_with_a_warning(content):
    path = content / "papers" / "gamma-studies-the.md"
    edit(path, tags=["Loss landscapes"])
    plan = sync(content, ABSTRACTS[:2])
    assert plan.changes == []
    assert path.exists()
    assert any("kept it" in d.message and "tags" in d.message for d in plan.diagnostics)


def test_changed_entry_with_hand_edited_body_keeps_the_body_and_warns(content):
    path = content / "papers" / "we-introduce-alpha.md"
    edit(path, body="My own rewrite of the Alpha abstract, which must never be lost.")
    changed = [ABSTRACTS[0].replace("fast", "very fast")] + ABSTRACTS[1:]
    plan = sync(content, changed)
    assert (pages(content)["we-introduce-alpha.md"]["body"]
            == "My own rewrite of the Alpha abstract, which must never be lost.")
    assert any("edited by hand" in d.message for d in plan.diagnostics)


def test_edited_tags_survive_a_taxonomy_change(content):
    edit(content / "papers" / "we-present-beta.md", tags=["Counting"])
    sync(content, ABSTRACTS, tags_version="v2")
    made = pages(content)
    assert made["we-present-beta.md"]["tags"] == ["Counting"]
    assert made["we-introduce-alpha.md"]["generated"]["taxonomy"] == "v2"


def test_reordered_list_updates_order_but_not_identity(content):
    before = pages(content)
    sync(content, list(reversed(ABSTRACTS)))
    after = pages(content)
    for name, page in after.items():
        assert page["id"] == before[name]["id"]
    assert after["gamma-studies-the.md"]["order"] == 1


def test_page_with_broken_front_matter_is_never_rewritten_nor_duplicated(content):
    path = content / "papers" / "we-present-beta.md"
    broken = path.read_text(encoding="utf-8").replace("title:", "title: [unclosed", 1)
    path.write_text(broken, encoding="utf-8")
    plan = sync(content, ABSTRACTS)
    assert plan.changes == []
    assert path.read_text(encoding="utf-8") == broken


def test_nothing_a_person_wrote_is_lost_over_many_syncs(content):
    alpha = content / "papers" / "we-introduce-alpha.md"
    edit(alpha, title="Alpha", tags=["Sorting"], body="Hand-written abstract.")
    for variant in (ABSTRACTS, ABSTRACTS[1:], ABSTRACTS + ["Epsilon is new here and different."], ABSTRACTS):
        sync(content, variant)
        page = pages(content)["we-introduce-alpha.md"]
        assert (page["title"], page["tags"], page["body"]) == ("Alpha", ["Sorting"], "Hand-written abstract.")


@pytest.mark.slow  # 2,001 pages, read in this process and on two forked workers
def test_pages_read_on_two_cores_are_the_pages_read_on_one(tmp_path):
    from generator.content.pages import read_pages

    papers = tmp_path / "papers"
    papers.mkdir()
    for n in range(2_001):
        meta = {"id": str(n), "title": f"Paper {n}", "slug": f"paper-{n}", "tags": ["a"], "order": n}
        (papers / f"paper-{n}.md").write_text(render_page(meta, f"Abstract {n}."), encoding="utf-8")
    (papers / "paper-7.md").write_text("---\ntitle: [unclosed\n---\n\nBody\n", encoding="utf-8")
    one, two = read_pages(tmp_path, Executor(1)), read_pages(tmp_path, Executor(2))
    assert list(one) == list(two)
    for path in one:
        a, b = one[path], two[path]
        assert (a.meta, a.body, a.lines, str(a.error)) == (b.meta, b.body, b.lines, str(b.error))
    assert "papers/paper-7.md:3: invalid YAML" in str(two[papers / "paper-7.md"].error)


_PRINTABLE = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40).filter(str.isprintable)


@settings(max_examples=200, deadline=None)
@given(title=_PRINTABLE, tags=st.lists(_PRINTABLE, max_size=4), order=st.integers(-10**12, 10**12),
       body=st.text(max_size=200), extra=st.dictionaries(st.sampled_from(["pdf", "session", "uid"]), _PRINTABLE))
def test_a_written_page_is_the_page_read_back(tmp_path_factory, title, tags, order, body, extra):
    """A cold build takes the pages it writes as written (pages.written_page) instead of parsing their YAML
    again: that must be exactly what reading the file gives, or the page is read."""
    from generator.runtime.output import write_atomically
    from generator.content.pages import read_page, render_page, written_page

    meta = {"id": "7", "title": title, "slug": "a-b", "tags": tags, **extra, "order": order,
            "generated": {"text": "c65fb173cb04", "title": title}}
    path = tmp_path_factory.mktemp("page") / "a-b.md"
    text = render_page(meta, body)
    write_atomically(path, text.encode("utf-8"))
    written, read = written_page(path, meta, text), read_page(path)
    assert written is not None and read.error is None
    assert (written.meta, written.lines, written.body, written.body_line) == \
        (read.meta, read.lines, read.body, read.body_line)


def test_a_page_with_a_line_break_in_its_front_matter_is_read_back(tmp_path):
    from generator.content.pages import render_page, written_page

    meta = {"id": "1", "title": "Two\nlines", "order": 1}
    assert written_page(tmp_path / "x.md", meta, render_page(meta, "Abstract.")) is None
