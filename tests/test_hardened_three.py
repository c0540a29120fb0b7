"""Hardening round three (issue 27): what loses a person's work or leaves a site no build can mend."""

from __future__ import annotations

import json

import pytest

from generator.commands.cli import main


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


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    from conftest import copy_content
    from test_serve import Served

    root = tmp_path_factory.mktemp("serve-three")
    server = Served(copy_content(root / "content"), root / "site")
    yield server
    server.stop()


def ask(port: int, path: str, headers: dict) -> int:
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.putrequest("GET", path, skip_host=True)
    for name, value in headers.items():
        connection.putheader(name, value)
    connection.endheaders()
    status = connection.getresponse().status
    connection.close()
    return status


@pytest.mark.parametrize("host, status", [("evil.example:{port}", 403), ("127.0.0.1.evil.example", 403),
                                          ("localhost:{port}", 200), ("127.0.0.1:{port}", 200),
                                          ("[::1]:{port}", 200)])
@pytest.mark.parametrize("path", ["/index.html", "/livereload.js", "/forcereload"])
def test_serve_answers_only_to_its_own_host_name(served, host, status, path):
    """A DNS-rebinding page (its own name resolved to 127.0.0.1) sends its name as Host: refused."""
    assert ask(served.port, path, {"Host": host.format(port=served.port)}) == status


@pytest.mark.parametrize("origin, status", [("http://evil.example", 403), ("http://127.0.0.1:{port}", 101)])
def test_the_reload_socket_is_for_this_servers_own_pages(served, origin, status):
    handshake = {"Host": f"127.0.0.1:{served.port}", "Connection": "Upgrade", "Upgrade": "websocket",
                 "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
                 "Origin": origin.format(port=served.port)}
    assert ask(served.port, "/livereload", handshake) == status


def test_past_50000_addresses_the_sitemap_is_an_index_of_sitemaps_the_series_names_directly():
    import xml.etree.ElementTree as ET

    from generator.publish.feeds import volume_sitemap_names, volume_sitemaps
    from generator.series.layout import SeriesVolume, leaf_sitemaps
    from generator.series.pages import series_sitemaps
    from generator.model.volume import Volume

    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    volume = Volume("Big", base_url="https://example.org/big/")
    paths = [f"papers/p{n}.html" for n in range(100_001)] + ["404.html", "papers.json"]
    files = volume_sitemaps(paths, volume)
    assert list(files) == volume_sitemap_names(paths) == ["sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml",
                                                          "sitemap.xml"]
    counts = [len(ET.fromstring(files[f"sitemap-{n}.xml"]).findall("s:url", ns)) for n in (1, 2, 3)]
    assert counts == [50_000, 50_000, 1]  # 404.html and papers.json are not pages of the sitemap
    index = [loc.text for loc in ET.fromstring(files["sitemap.xml"]).findall("s:sitemap/s:loc", ns)]
    assert index == [f"https://example.org/big/sitemap-{n}.xml" for n in (1, 2, 3)]
    small = volume_sitemaps(["index.html"], volume)
    assert list(small) == ["sitemap.xml"] and b"<urlset" in small["sitemap.xml"]
    # A sitemap index may not name another index: the series names the volume's sitemaps of pages.
    assert leaf_sitemaps(files) == ("sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml")
    series = Volume("Series", base_url="https://example.org/")
    big = SeriesVolume("big", volume, (), "", leaf_sitemaps(files))
    small_one = SeriesVolume("small", volume, (), "", leaf_sitemaps(small))
    made = series_sitemaps(series, [big, small_one], ["index.html"])
    named = [loc.text for loc in ET.fromstring(made["sitemap.xml"]).findall("s:sitemap/s:loc", ns)]
    assert named == ["https://example.org/sitemap-archive.xml", "https://example.org/big/sitemap-1.xml",
                     "https://example.org/big/sitemap-2.xml", "https://example.org/big/sitemap-3.xml",
                     "https://example.org/small/sitemap.xml"]


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
