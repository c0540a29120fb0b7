"""The files that grow with every paper (papers.json, the citation files) are written a paper at a time, never
whole in memory (issue 43: at 50,000 papers papers.json is 75 MB, the RIS file 70 MB), with the same bytes, and
linked from the current site when they did not change, as every other file is."""

from __future__ import annotations

import json
import os
import stat

import pytest

from generator.commands.build import build
from generator.publish.formats import FileLayout, citation_formats
from generator.render.records import papers_json, papers_json_chunks
from generator.reporter import Reporter
from generator.runtime.output import Staging

WHOLE_VOLUME = ("papers.json", "proceedings.bib", "proceedings.ris", "proceedings.csl.json", "proceedings.apa.txt")


@pytest.mark.parametrize("layout", [FileLayout(), FileLayout("[\n", ",\n", "\n]\n", "[]\n"),
                                    *(f.layout for f in citation_formats(lambda ref: ""))])
def test_a_layouts_pieces_are_its_head_texts_and_tail(layout):
    texts = ["first", "zweite — 2", "第三"]
    pieces = list(layout.chunks(texts))
    assert b"".join(pieces) == (layout.head + layout.between.join(texts) + layout.tail).encode("utf-8")
    assert len(pieces) == 2 * len(texts) + 1  # a text at a time: none holds the whole file
    assert b"".join(layout.chunks([])) == layout.empty.encode("utf-8") == layout.join(iter(()))


def test_papers_json_is_made_a_paper_at_a_time(seed_site):
    assert b"".join(papers_json_chunks([])) == papers_json([]) == b"[\n\n]\n"  # as it always was
    whole = (seed_site / "papers.json").read_bytes()
    records = json.loads(whole)
    lines = whole.split(b"\n")
    assert lines[0] == b"[" and lines[-2:] == [b"]", b""] and len(lines) == len(records) + 3


def _staged(out, files: dict[str, list[bytes]]) -> Staging:
    staging = Staging(out)
    staging.open()
    for name, pieces in files.items():
        staging.write_chunks(name, iter(pieces))
    return staging


def test_pieces_are_written_as_one_file_and_linked_when_the_current_site_has_the_same_bytes(tmp_path):
    umask = os.umask(0)
    os.umask(umask)
    out = tmp_path / "site"
    big = [b"x" * 700_000, b"y" * 700_000, b"z"]  # past the write buffer: written in more than one call
    _staged(out, {"papers.json": big, "proceedings.ris": [b"TY  - CPAPER\r\n", b"ER  - \r\n"],
                  "a/empty.txt": []}).publish()
    assert (out / "papers.json").read_bytes() == b"".join(big)
    assert (out / "proceedings.ris").read_bytes() == b"TY  - CPAPER\r\nER  - \r\n"
    assert (out / "a" / "empty.txt").read_bytes() == b""
    assert stat.S_IMODE((out / "papers.json").stat().st_mode) == 0o666 & ~umask

    second = _staged(out, {
        "papers.json": [b"x" * 300_000, b"x" * 400_000 + b"y" * 700_000 + b"z"],  # the same bytes cut elsewhere
        "proceedings.ris": [b"TY  - CPAPER\r\n"],  # the current file's start only
        "a/empty.txt": [b"new"],  # the current file is empty
    })
    assert (second.path / "papers.json").stat().st_ino == (out / "papers.json").stat().st_ino
    for name, data in (("proceedings.ris", b"TY  - CPAPER\r\n"), ("a/empty.txt", b"new")):
        assert (second.path / name).stat().st_ino != (out / name).stat().st_ino
        assert (second.path / name).read_bytes() == data
    assert sorted(p.name for p in second.path.iterdir()) == ["a", "papers.json", "proceedings.ris"]
    second.publish()
    longer = _staged(out, {"proceedings.ris": [b"TY  - CPAPER\r\n", b"ER  - \r\n"]})  # the current file and more
    assert (longer.path / "proceedings.ris").read_bytes() == b"TY  - CPAPER\r\nER  - \r\n"
    assert (longer.path / "proceedings.ris").stat().st_ino != (out / "proceedings.ris").stat().st_ino
    longer.discard()


def test_a_build_writes_the_whole_volume_files_in_pieces_and_links_those_an_edit_left_alone(seed_content, tmp_path,
                                                                                          monkeypatch):
    """Built from the CLI's build: the whole-volume files never pass whole through ``Staging.write``; after an
    edit to an abstract, papers.json is new and the CSL-JSON (which holds no abstract) the current site's file."""
    whole: list[str] = []
    write = Staging.write

    def recording(self, name, data):
        whole.append(name)
        write(self, name, data)

    monkeypatch.setattr(Staging, "write", recording)
    out = tmp_path / "site"
    build(seed_content, out, Reporter())
    assert {name for name in WHOLE_VOLUME if (out / name).is_file()} == set(WHOLE_VOLUME)
    assert not set(WHOLE_VOLUME) & set(whole), "a whole-volume file was made whole in memory"
    assert "index.html" in whole
    before = {name: ((out / name).stat().st_ino, (out / name).read_bytes()) for name in WHOLE_VOLUME}

    page = sorted((seed_content / "papers").glob("*.md"))[0]
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("\nabstract: ", "\nabstract: Edited. ", 1) if "\nabstract: " in text
                    else text + "\nEdited.\n", encoding="utf-8")
    build(seed_content, out, Reporter())
    after = {name: ((out / name).stat().st_ino, (out / name).read_bytes()) for name in WHOLE_VOLUME}
    assert after["papers.json"][1] != before["papers.json"][1] and b"Edited." in after["papers.json"][1]
    assert after["proceedings.csl.json"] == before["proceedings.csl.json"]  # linked: the same inode and bytes
    assert json.loads(after["papers.json"][1]) and json.loads(after["proceedings.csl.json"][1])
