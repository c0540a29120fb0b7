"""A paper keeps its page and its address through edits: an unreadable page keeps its entry and its edits, a
near-identical placeholder never takes another paper's address, edited abstracts find their own pages."""

from __future__ import annotations

import json

import pytest

from record_fixtures import build


@pytest.mark.parametrize("damage", ["windows-1252 byte", "cut mid-way", "emptied"])
def test_a_page_that_cannot_be_read_keeps_its_entry_and_its_edits(seed_content, tmp_path, capsys, damage):
    assert build(seed_content, tmp_path / "site") == 0
    pages = sorted((seed_content / "papers").glob("*.md"))
    page = pages[3]
    lines = page.read_bytes().split(b"\n")
    edited = b"\n".join(b"title: Hand-edited title" if line.startswith(b"title:") else line for line in lines)
    damaged = {"windows-1252 byte": edited.replace(b"Hand-edited ", b"Hand-\xe9dited ", 1),
               "cut mid-way": edited[:200], "emptied": b""}[damage]
    page.write_bytes(damaged)
    assert build(seed_content, tmp_path / "site") == 1  # the page is named as an error
    err = capsys.readouterr().err
    assert page.name in err
    assert sorted((seed_content / "papers").glob("*.md")) == pages  # no second page for its entry
    assert page.read_bytes() == damaged  # and the page itself is left as the person saved it
    page.write_bytes(edited)  # mended
    assert build(seed_content, tmp_path / "site") == 0
    assert sorted((seed_content / "papers").glob("*.md")) == pages
    html = (tmp_path / "site" / "papers" / f"{page.stem}.html").read_text(encoding="utf-8")
    assert "Hand-edited" in html  # same address, the edit kept


def test_a_different_paper_with_a_near_identical_placeholder_never_takes_an_address(tmp_path, capsys):
    content = tmp_path / "content"
    content.mkdir()
    csv = content / "program.csv"
    rows = ["UID,title,authors,abstract", "p1,Sparse Kernels for Quasars,Jane Doe,Quasar spectra are fitted.",
            "K1,Keynote: Learning from Alice,Alice Example,Abstract to be announced (keynote 1)."]
    csv.write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert build(content, tmp_path / "site") == 0
    alice = tmp_path / "site" / "papers" / "keynote-learning-from-alice.html"
    assert "Alice Example" in alice.read_text(encoding="utf-8")
    rows[2] = "K2,Keynote: Robots with Bob,Bob Example,Abstract to be announced (keynote 2)."
    csv.write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert build(content, tmp_path / "site") == 0
    assert not alice.exists()  # K1 left the programme: its address goes, never to show K2
    bob = (tmp_path / "site" / "papers" / "keynote-robots-with-bob.html").read_text(encoding="utf-8")
    assert "Bob Example" in bob


def test_a_placeholder_with_another_title_and_no_ids_never_takes_an_address(tmp_path):
    """Without ids, the title decides: a keynote replaced by another whose abstract is the same placeholder a
    digit apart is another paper, so the first keynote's address goes and the second gets its own."""
    content = tmp_path / "content"
    content.mkdir()
    jsonl = content / "papers.jsonl"
    paper = {"title": "Sparse Kernels for Quasars", "abstract": "Quasar spectra are fitted with sparse kernels."}
    alice = {"title": "Keynote: Learning from Alice", "abstract": "Abstract to be announced (keynote 1)."}
    jsonl.write_text("\n".join(json.dumps(r) for r in (paper, alice)) + "\n", encoding="utf-8")
    assert build(content, tmp_path / "site") == 0
    alice_page = tmp_path / "site" / "papers" / "keynote-learning-from-alice.html"
    assert alice_page.exists()
    bob = {"title": "Keynote: Robots with Bob", "abstract": "Abstract to be announced (keynote 2)."}
    jsonl.write_text("\n".join(json.dumps(r) for r in (paper, bob)) + "\n", encoding="utf-8")
    assert build(content, tmp_path / "site") == 0
    assert not alice_page.exists()
    assert "Robots with Bob" in (tmp_path / "site" / "papers" / "keynote-robots-with-bob.html").read_text(
        encoding="utf-8")


def test_a_revised_abstract_with_a_corrected_title_keeps_its_address(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    jsonl = content / "papers.jsonl"
    record = {"title": "Deep Nets for Grpahs", "abstract": "We study deep networks on graphs and their depth."}
    jsonl.write_text(json.dumps(record) + "\n", encoding="utf-8")
    assert build(content, tmp_path / "site") == 0
    record = {"title": "Deep Nets for Graphs", "abstract": "We study deep networks on graphs and their depths."}
    jsonl.write_text(json.dumps(record) + "\n", encoding="utf-8")
    assert build(content, tmp_path / "site") == 0
    page = (tmp_path / "site" / "papers" / "deep-nets-for-grpahs.html").read_text(encoding="utf-8")
    assert "Deep Nets for Graphs" in page and "their depths" in page


# -- 5. matching changed abstracts to their pages -------------------------------------------------------

def synthetic_abstracts(count: int, seed: int = 7) -> list[str]:
    """Abstracts of a shared vocabulary (every text has common words and a few rare ones), as a venue's are."""
    import random

    rng = random.Random(seed)
    common = "we the of model models learning data show method results propose and a to in".split()
    rare = [f"{a}{b}{c}" for a in ("ka", "lo", "mi", "nu", "po", "ra", "si", "tu") for b in ("bel", "cor", "dan",
            "fen", "gor", "hal", "jin", "kev") for c in ("ix", "um", "on", "ea", "ot", "ar")]
    return [" ".join(rng.choice(common if rng.random() < 0.5 else rare) for _ in range(80)) + "."
            for _ in range(count)]


def test_edited_abstracts_are_matched_to_their_pages_without_comparing_every_pair(tmp_path, monkeypatch):
    import difflib

    from generator.content import matching
    from test_merge import pages, sync

    content = tmp_path / "content"
    content.mkdir()
    abstracts = synthetic_abstracts(150)
    sync(content, abstracts)
    ids = {page["body"]: page["id"] for page in pages(content).values()}
    edited = [text.replace(" ", "  the ", 3) + " Revised." if n % 3 == 0 else text for n, text in enumerate(abstracts)]
    compared = []

    class Counting(difflib.SequenceMatcher):
        def __init__(self, *args, **kwargs):
            compared.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(matching.difflib, "SequenceMatcher", Counting)
    plan = sync(content, edited)
    assert {change.action for change in plan.changes} == {"update"} and len(plan.changes) == 50
    after = {page["body"]: page["id"] for page in pages(content).values()}
    assert [after[new] for new in edited] == [ids[old] for old in abstracts], "every edit kept its page"
    assert len(compared) <= 50 * 8, "each edited entry is compared with a few pages, not with all 150"
