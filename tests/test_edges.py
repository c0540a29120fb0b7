"""The input edge (issue 27): what a source or a page may hold, read as the tools that wrote it read it."""

from __future__ import annotations

import errno
import os
import time

import pytest

from generator.commands.cli import main
from generator.sources import bibtex


def build(content, site) -> int:
    return main(["build", "--content", str(content), "--out", str(site)])


def names(entry) -> list[str]:
    return [author.name for author in entry.details.authors]


def warnings(source) -> list[tuple[int, str]]:
    return [(d.line, d.message) for d in source.diagnostics]


# -- BibTeX strings, resolved as BibTeX resolves them -------------------------------------------------

STRINGS = r"""@string{first = "Jane"}
@String{FULL = first # " Doe"}
@string{venue = "Small " # {Models}}
@inproceedings{a, title = "On " # venue, author = full # " and " # "Richard Roe",
  month = jun, year = 2026, abstract = {We study x.}}
@inproceedings{b, title = {Plain}, month = {Dec}, pages = 1 # "--" # 9, abstract = "Quoted " # {and braced.}}
"""


def test_bibtex_concatenation_strings_from_strings_and_month_macros():
    source = bibtex.parse(STRINGS, "x.bib")
    a, b = source.entries
    assert a.title == "On Small Models"
    assert names(a) == ["Jane Doe", "Richard Roe"]
    assert a.details.month == "June" and a.details.year == "2026"  # `jun` is BibTeX's own macro
    assert b.details.month == "Dec" and b.details.pages == "1--9"
    assert b.text == "Quoted and braced."
    assert warnings(source) == []


def test_bibtex_month_is_written_back_as_its_macro(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    (content / "papers.bib").write_text(STRINGS, encoding="utf-8")
    assert build(content, tmp_path / "site") == 0
    bib = (tmp_path / "site" / "proceedings.bib").read_text(encoding="utf-8")
    assert "  month = jun,\n" in bib and "  month = dec,\n" in bib
    assert "{jun}" not in bib and "#" not in bib
    assert "Jane Doe and Richard Roe" in bib


def test_an_exponential_string_bomb_stops_with_a_warning_naming_its_line():
    lines = ['@string{s0 = "xxxxxxxxxx"}'] + [f"@string{{s{n} = s{n - 1} # s{n - 1}}}" for n in range(1, 60)]
    text = "\n".join(lines) + "\n@inproceedings{bomb, title = s59, abstract = {x}}\n" \
        "@inproceedings{fine, title = {Fine}, abstract = {We study y.}}\n"
    started = time.perf_counter()
    source = bibtex.parse(text, "bomb.bib")
    assert time.perf_counter() - started < 10
    assert [e.uid for e in source.entries][-1] == "fine"
    assert all(len(e.title) < 10_000 for e in source.entries)
    (warning,) = warnings(source)
    assert warning[0] == 20 and "@string" in warning[1] and "10,000,000 characters" in warning[1]


def test_a_chain_of_100000_strings_stops_with_a_warning():
    lines = ['@string{s0 = "word "}'] + [f"@string{{s{n} = s{n - 1} # \"word \"}}" for n in range(1, 100_000)]
    text = "\n".join(lines) + "\n@inproceedings{fine, title = {Fine}, abstract = {We study y.}}\n"
    source = bibtex.parse(text, "chain.bib")
    assert [e.uid for e in source.entries] == ["fine"]
    (warning,) = warnings(source)
    assert "@string" in warning[1] and 1_000 < warning[0] < 100_000


# -- Unicode at the edge ------------------------------------------------------------------------------

def test_clean_text_normalises_and_drops_what_cannot_be_seen():
    from generator.text.cleantext import clean

    assert clean("Ame\u0301lie") == "Amélie"  # NFC
    assert clean("Jane\u200b Doe\u2060\ufeff") == "Jane Doe"
    assert clean("Bad\x01 \x1b[31mTitle\x7f\x85x") == "Bad [31mTitle x"
    assert clean("line one\n\tline two", lines=True) == "line one\n\tline two"
    assert clean("line one\nline two") == "line one line two"
    # ZWJ and ZWNJ where a script needs them: Persian, Devanagari, emoji sequences; nowhere else.
    assert clean("می\u200cخواهم") == "می\u200cخواهم"
    assert clean("क्\u200dष") == "क्\u200dष"
    assert clean("👩\u200d🔬") == "👩\u200d🔬"
    assert clean("\u200dJane\u200c Doe\u200d") == "Jane Doe"
    assert clean("Ja\u200dne") == "Jane"
    # Bidi controls: a pair closed in the same text stays (it cannot reach past it); an unpaired one goes.
    assert clean("\u202eAlice") == "Alice"
    assert clean("\u2067عربي\u2069 Doe") == "\u2067عربي\u2069 Doe"
    assert clean("\u202bא\u202c and \u2066b") == "\u202bא\u202c and b"
    assert clean("x\u202c\u2069y") == "xy"
    assert clean("\u200b\u200d\u2060") == ""


HOSTILE = [
    {"id": "p1", "title": "Re\u0301seaux \x01of\x1b[2J Graphs\x7f", "abstract": "We study\x1b graphs.",
     "authors": ["\u202eAlice Example", "Ame\u0301lie Doe", "\u200b\u200d\u2060", "Bob Example"],
     "keywords": ["Re\u0301seaux", "\u200b"]},
    {"id": "p2", "title": "Second Paper", "abstract": "We study trees.",
     "authors": ["Amélie Doe", "Bob\u200b Example"], "keywords": ["Réseaux"]},
]


def test_hostile_unicode_never_reaches_the_site(tmp_path, capsys):
    import json

    content = tmp_path / "content"
    content.mkdir()
    (content / "papers.jsonl").write_text("".join(json.dumps(r) + "\n" for r in HOSTILE), encoding="utf-8")
    assert build(content, tmp_path / "site") == 0
    assert "author 3 has no name" in capsys.readouterr().err
    site = tmp_path / "site"
    for path in [*site.rglob("*.html"), *site.rglob("*.json"), site / "proceedings.bib"]:
        text = path.read_text(encoding="utf-8")
        for char in "\x01\x1b\x7f\u202e\u200b\u200d\u2060":
            assert char not in text, (path.name, repr(char))
        assert "e\u0301" not in text, path.name
    authors = sorted(p.name for p in (site / "authors").glob("*.html"))
    assert authors == ["alice-example.html", "amelie-doe.html", "bob-example.html", "index.html"]
    assert [p.name for p in (site / "tags").glob("reseaux*.html")] == ["reseaux.html"]
    page = (site / "papers" / "reseaux-of-2j-graphs.html").read_text(encoding="utf-8")
    assert "<title>Réseaux of[2J Graphs" in page


def test_a_page_edited_with_hostile_unicode_is_read_clean(seed_content, tmp_path):
    assert build(seed_content, tmp_path / "site") == 0
    page = sorted((seed_content / "papers").glob("*.md"))[0]
    lines = [('title: "Caf\\u0065\\u0301 \\x1b[1m\\u202eTalk"' if line.startswith("title:") else line)
             for line in page.read_text(encoding="utf-8").rstrip("\n").split("\n")]
    page.write_text("\n".join(lines) + " Zero\u200bwidth\x7f end.\n", encoding="utf-8")
    assert build(seed_content, tmp_path / "site") == 0
    html = (tmp_path / "site" / "papers" / f"{page.stem}.html").read_text(encoding="utf-8")
    assert "<title>Café [1mTalk" in html and "Zerowidth end." in html
    assert "\x1b" not in html and "\u202e" not in html and "\x7f" not in html


# -- ORCID check digit --------------------------------------------------------------------------------

def test_an_orcid_with_a_bad_check_digit_is_warned_about_and_left_out():
    import json

    from generator.sources import jsonlines

    authors = [{"name": "Jane Doe", "orcid": "0000-0002-1825-0097"},  # ORCID's own example: valid
               {"name": "Josiah Carberry", "orcid": "https://orcid.org/0000-0002-1825-0096"},  # one digit off
               {"name": "Ann Ex", "orcid": "0000-0002-9079-593x"}]  # X: a check digit of 10
    lines = [json.dumps({"title": "One", "abstract": "x"}), json.dumps({"title": "Two", "authors": authors})]
    source = jsonlines.parse("\n".join(lines) + "\n", "p.jsonl")
    orcids = [author.orcid for author in source.entries[1].details.authors]
    assert orcids == ["0000-0002-1825-0097", "", "0000-0002-9079-593X"]
    assert warnings(source) == [(2, "“Two”: `authors` author 2 (Josiah Carberry): ORCID '0000-0002-1825-0096' has a "
                                    "wrong check digit (a typo?); left out")]


# -- File names the tool writes -------------------------------------------------------------------------

DEVICES = {"con", "prn", "aux", "nul", *(f"com{n}" for n in range(1, 10)), *(f"lpt{n}" for n in range(1, 10))}


def test_a_slug_is_never_a_windows_device_name():
    from generator.text.slugs import slugify, slug_or_digest

    for name in ["CON", "aux", "Nul", "PRN", "COM1", "com9", "LPT1", "lpt9"]:
        assert slugify(name) == f"{name.lower()}-1"
        assert slug_or_digest(name, "person") == f"{name.lower()}-1"
    assert slugify("Con Artists") == "con-artists" and slugify("COM10") == "com10"


def test_device_names_never_become_page_or_site_files(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    rows = ["UID,title,authors,keywords,abstract"] + [
        f"p{n},{title},{title} Doe,{title},We study {title} in depth as number {n}."
        for n, title in enumerate(["CON", "AUX", "NUL", "PRN", "COM1", "LPT1", "con"])]
    (content / "papers.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert build(content, tmp_path / "site") == 0
    written = [*(content / "papers").iterdir(), *(tmp_path / "site").rglob("*")]
    assert len(list((content / "papers").glob("*.md"))) == 7
    assert not [p for p in written if p.name.split(".")[0].lower() in DEVICES]
    assert (content / "papers" / "con-1.md").is_file() and (content / "papers" / "con-1-2.md").is_file()


def test_an_over_long_slug_is_cut_to_what_a_file_system_allows(seed_content, tmp_path, capsys):
    import re

    page = sorted((seed_content / "papers").glob("*.md"))[0]
    long_slug = "基于扩散模型的图像生成" * 10  # 110 characters, 330 bytes
    page.write_text(re.sub(r"^slug: .*$", f"slug: {long_slug}", page.read_text(encoding="utf-8"), count=1,
                           flags=re.M), encoding="utf-8")
    assert build(seed_content, tmp_path / "site") == 0
    err = capsys.readouterr().err
    assert f"papers/{page.name}" in err and "`slug`" in err and "bytes" in err
    names = [p.name for p in (tmp_path / "site").rglob("*")]
    assert max(len(name.encode("utf-8")) for name in names) <= 255
    assert any(name.startswith("基于扩散模型的图像生成") for name in names)


def test_a_file_the_site_cannot_take_is_named_by_its_place_in_the_site(seed_content, tmp_path, monkeypatch, capsys):
    import errno

    from generator.runtime import output

    def refuse(path, data):
        raise OSError(errno.ENAMETOOLONG, "File name too long", str(path))

    monkeypatch.setattr(output, "_write", refuse)
    assert build(seed_content, tmp_path / "site") == 2
    err = capsys.readouterr().err
    assert ".site.staging" not in err and f"{tmp_path / 'site'}/" in err and "File name too long" in err


# -- Citation keys unique across the volume ---------------------------------------------------------------

def test_two_bib_files_sharing_a_key_never_repeat_it_in_proceedings_bib(tmp_path):
    import re

    content = tmp_path / "content"
    content.mkdir()
    (content / "a.bib").write_text("@inproceedings{doe2026, title = {Quasars}, abstract = {We fit quasars.}}\n"
                                   "@inproceedings{Roe2026, title = {Comets}, abstract = {We track comets.}}\n",
                                   encoding="utf-8")
    (content / "b.bib").write_text("@inproceedings{doe2026, title = {Proteins}, abstract = {We fold proteins.}}\n"
                                   "@inproceedings{roe2026, title = {Pulsars}, abstract = {We time pulsars.}}\n",
                                   encoding="utf-8")
    assert build(content, tmp_path / "site") == 0
    site = tmp_path / "site"
    keys = re.findall(r"^@inproceedings\{([^,]+),", (site / "proceedings.bib").read_text(encoding="utf-8"), re.M)
    assert keys == ["doe2026", "Roe2026", "doe2026-2", "roe2026-2"]  # BibTeX compares keys without case
    assert "@inproceedings{doe2026-2," in (site / "papers" / "proteins.html").read_text(encoding="utf-8")
    assert "@inproceedings{doe2026," in (site / "papers" / "quasars.html").read_text(encoding="utf-8")


# -- A content folder that takes no more writes ------------------------------------------------------------

@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS], ids=["full", "read-only"])
@pytest.mark.parametrize("command", ["build", "import"])
def test_a_full_or_read_only_content_folder_is_one_line_naming_the_page(tmp_path, monkeypatch, capsys, code,
                                                                        command):
    # Tests run as root, where chmod stops no write: the write itself is made to fail as the disk would.
    from generator.content import merge
    from generator.runtime import output

    def refuse(path, *args, **kwargs):
        raise OSError(code, os.strerror(code), str(path))

    content = tmp_path / "content"
    content.mkdir()
    source = tmp_path / "list.txt"
    source.write_text("Workshop\n\nWe study quasars and their spectra in depth.\n", encoding="utf-8")
    if command == "build":
        (content / "list.txt").write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(merge, "write_atomically", refuse)
    monkeypatch.setattr(output, "write_atomically", refuse)
    args = (["build", "--content", str(content), "--out", str(tmp_path / "site")] if command == "build"
            else ["import", str(source), "--content", str(content)])
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    (line,) = [line for line in err.splitlines() if os.strerror(code) in line]
    assert line.startswith("error: ") and "papers/" in line and ".md" in line and "cannot write the page" in line


def test_an_import_that_cannot_copy_its_source_in_is_one_line(tmp_path, monkeypatch, capsys):
    from generator.commands import cli

    def refuse(source, target):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(target))

    source = tmp_path / "list.txt"
    source.write_text("Workshop\n\nWe study quasars and their spectra in depth.\n", encoding="utf-8")
    monkeypatch.setattr(cli.shutil, "copyfile", refuse)
    assert main(["import", str(source), "--content", str(tmp_path / "content")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "content/list.txt: cannot copy the source in (No space left on device)" in err


# -- A huge JSON Lines record ------------------------------------------------------------------------------

def test_a_100_mb_json_lines_record_is_skipped_with_a_warning_and_10_mb_is_read(tmp_path):
    import json

    from generator.sources import jsonlines

    path = tmp_path / "papers.jsonl"
    with path.open("wb") as handle:
        handle.write(json.dumps({"title": "One", "abstract": "We study one thing."}).encode() + b"\r\n")
        handle.write(b'{"title": "Huge", "abstract": "')
        for _ in range(100):
            handle.write(b"word " * 200_000)  # 1 MB at a time: 100 MB on one line
        handle.write(b'"}\n')
        handle.write(json.dumps({"title": "Ten", "abstract": "ten " * 2_500_000}).encode() + b"\n")
        handle.write(json.dumps({"title": "Last", "abstract": "We study the last thing."}).encode() + b"\n")
    source = jsonlines.read(path, "papers.jsonl")
    assert [(e.title, e.line) for e in source.entries] == [("One", 1), ("Ten", 3), ("Last", 4)]
    assert len(source.entries[1].text) > 9_000_000
    (warning,) = warnings(source)
    assert warning[0] == 2 and "100,000,0" in warning[1] and "skipped it" in warning[1]


def test_json_lines_line_ends_beside_a_bad_byte(tmp_path):
    # A lone CR ends a line, whatever other line holds a byte that is not UTF-8.
    from generator.sources import jsonlines

    path = tmp_path / "p.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"title": "A"}\r{"title": "B"}\r\n{"title": "Caf\xe9"}\n{"title": "D"}')
    source = jsonlines.read(path, "p.jsonl")
    assert [(e.title, e.line) for e in source.entries] == [("A", 1), ("B", 2), ("D", 4)]
    assert warnings(source) == [(3, "byte 0xe9 on this line is not UTF-8; skipped the line (save the file as UTF-8)")]
