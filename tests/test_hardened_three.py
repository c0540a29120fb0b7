"""Hardening round three (issue 27): what loses a person's work or leaves a site no build can mend."""

from __future__ import annotations

import pytest

from generator.cli import main


def build(content, site) -> int:
    return main(["build", "--content", str(content), "--out", str(site)])


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
