"""The names of the files a site has: no person or topic takes an index page's name, look-alike names are one
page, a slug is never a Windows device name nor longer than a file system allows."""

from __future__ import annotations

import json


from record_fixtures import build


def test_no_person_or_topic_takes_the_name_of_an_index_page(tmp_path):
    """An author named "Index 2" gets a page of their own; authors/index-2.html stays page 2 of the index."""
    content = tmp_path / "content"
    content.mkdir()
    records = [{"id": f"p{n}", "title": f"Paper number {n}", "abstract": f"Abstract {n} about graphs.",
                "authors": [f"Author{n}x{k} Family{n}x{k}" for k in range(10)], "keywords": ["Index"]}
               for n in range(41)]
    records[0]["authors"].append("Index 2")
    (content / "papers.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert build(content, tmp_path / "site") == 0
    authors = tmp_path / "site" / "authors"
    page_two = (authors / "index-2.html").read_text(encoding="utf-8")
    assert "Family9x9" in page_two or "Family40x0" in page_two  # the index's second page of 400 names
    own = (authors / "author-index-2.html").read_text(encoding="utf-8")
    assert "Paper number 0" in own and "Index 2" in own
    assert 'href="../authors/author-index-2.html"' in (authors / "index.html").read_text(encoding="utf-8")
    topic = tmp_path / "site" / "tags" / "topic-index.html"
    assert "Paper number 7" in topic.read_text(encoding="utf-8")


def test_look_alike_topics_and_names_are_one_page_each(tmp_path):
    """NFC and NFD spellings, and a zero-width space inside a word, are one topic and one author."""
    content = tmp_path / "content"
    content.mkdir()
    nfc, nfd, hidden = "Caf\u00e9 Networks", "Cafe\u0301 Networks", "Caf\u00e9 Net\u200bworks"
    names = ("Jos\u00e9 Garc\u00eda", "Jose\u0301 Garci\u0301a", "Jos\u00e9 Gar\u200bc\u00eda")
    rows = ["UID,title,authors,abstract,keywords"] + [
        f"p{n},Paper {n} on cafes,{name},Abstract {n} about queues.,{keyword}"
        for n, (name, keyword) in enumerate(zip(names, (nfc, nfd, hidden)))]
    (content / "papers.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert build(content, tmp_path / "site") == 0
    tags = sorted(p.name for p in (tmp_path / "site" / "tags").glob("*.html"))
    assert tags == ["cafe-networks.html", "index.html"], tags
    topic = (tmp_path / "site" / "tags" / "cafe-networks.html").read_text(encoding="utf-8")
    assert all(f"Paper {n} on cafes" in topic for n in range(3))
    authors = sorted(p.name for p in (tmp_path / "site" / "authors").glob("*.html"))
    assert authors == ["index.html", "jose-garcia.html"], authors


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
