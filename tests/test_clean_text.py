"""Unicode at the edge (generator/text/cleantext.py): text from a source or a page is NFC, without control or
invisible characters, and hostile Unicode never reaches the site."""

from __future__ import annotations

import unicodedata

from hypothesis import example, given
from hypothesis import strategies as st
from record_fixtures import build

from generator.text import cleantext


# -- Unicode at the edge ------------------------------------------------------------------------------

def _clean_as_it_was(text: str, lines: bool = False) -> str:
    """The rule before its fast paths (every character tested in Python): what clean() must still give."""
    if text.isascii() and text.isprintable():
        return text
    text = unicodedata.normalize("NFC", text)
    text = (cleantext._LINE_CONTROLS if lines else cleantext._ONE_LINE_CONTROLS).sub(
        lambda m: " " if m.group() in cleantext._SPACES else "", text)
    text = cleantext._INVISIBLE.sub("", text)
    if any(joiner in text for joiner in cleantext._JOINERS):
        text = cleantext._joiners(text)
    if any(char in cleantext._OPENERS or char in cleantext._CLOSERS for char in text):
        text = cleantext._paired_bidi(text)
    return text


TRICKY = "\x00\x1b\t\n\r\x7f\x85\u200b\u200c\u200d\u2060\ufeff\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069" \
         "e\u0301é مي क्ष👩 aZ "


@given(st.text(alphabet=st.one_of(st.sampled_from(TRICKY), st.characters())), st.booleans())
@example("line one\r\nline\x7ftwo\x01", True)
@example("plain ascii", False)
def test_clean_gives_what_the_character_by_character_rule_gave(text, lines):
    assert cleantext.clean(text, lines) == _clean_as_it_was(text, lines)


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
