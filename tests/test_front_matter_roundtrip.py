"""Front matter through libyaml both ways (generator/text/yamlutil.py: PyYAML's CSafeLoader and CSafeDumper):
what the tool writes reads back as the values it wrote, for every kind of field; and a page a person edited
(their title, their quoting, their comments) stays byte for byte what they wrote across builds, warm, from the
cache and without it."""

from __future__ import annotations

import shutil
import yaml

from conftest import BUNDLED_CONTENT, cli
from generator.content.pages import read_page, render_page, written_page
from generator.runtime.output import write_atomically
from generator.text import yamlutil

# Every kind of value a page holds, with what YAML would take for something else if written bare.
META = {
    "id": "0042",  # digits: a string, not 42
    "title": "Über “quotes”: it's a 'test' — with \"double\" quotes, a colon: and #hash",
    "slug": "uber-quotes",
    "old_slugs": ["older-slug", "2024"],
    "authors": ["Zoë Müller", "山田 太郎", "O'Brien, Dara", "- leading dash", "@handle"],
    "tags": ["yes", "no", "null", "1.0", "0x1F", "~", "on", "* star", "& anchor", "! tag", "`code`", "%", "2026-12-06"],
    "pdf": "https://example.org/p?a=1&b=[2]#frag",
    "session": "Poster session: 14:30–16:00",
    "note": "two lines\nof text\n\twith a tab",
    "emoji": "🧪 chemistry ⚗️",
    "blank": "",
    "spaces": "  padded  ",
    "order": -7,
    "entry": 0,
    "big": 10**15,
    "source": "list: one.txt",
    "generated": {"text": "2b6e62023a4b", "title": "b133e6cc8a8e", "tags": "a24590a120ad"},
}


def test_libyaml_reads_and_writes_the_front_matter():
    assert yaml.__with_libyaml__
    assert issubclass(yamlutil._Loader, yaml.CSafeLoader) and yamlutil._Dumper is yaml.CSafeDumper


def test_every_kind_of_field_reads_back_as_written(tmp_path):
    text = render_page(META, "An abstract with $x^2$ and 日本語.\n\nA second paragraph.")
    path = tmp_path / "uber-quotes.md"
    write_atomically(path, text.encode("utf-8"))
    doc = read_page(path)
    assert doc.error is None and doc.meta == META and list(doc.meta) == list(META)
    assert doc.body == "An abstract with $x^2$ and 日本語.\n\nA second paragraph."
    lines = text.split("\n")
    assert doc.lines == {key: 1 + next(n for n, line in enumerate(lines) if line.startswith(f"{key}:")) for key in META}
    assert "日本語" in text and "\\u" not in text  # Unicode written as itself, never escaped
    # The same text again from the same values: what a resync that changes nothing compares with.
    assert render_page(doc.meta, doc.body) == text
    taken = written_page(path, META, text)  # a page with a line break in a value is read, not taken as written
    assert taken is None


PERSON_PAGE = """---
# My notes on this paper: keep them.
id: '13'
title: "D2C — my own title"   # edited by hand
slug: d2c-differentiable-diffusion-conditioning
tags:
  - Optimization
  - 'Physics & scientific ML'
order: 13
source: neurips-2026.txt
entry: 13
generated:  # the tool's fingerprints, in block style
  {text: 2b6e62023a4b, title: b133e6cc8a8e, tags: a24590a120ad, body: 2b6e62023a4b,
   taxonomy: d40fdfb9905b/missing}
---

My own abstract,
over two lines.
"""


def test_a_persons_page_stays_byte_for_byte_across_builds(seed_content, tmp_path):
    page = seed_content / "papers" / "d2c-differentiable-diffusion-conditioning.md"
    page.write_text(PERSON_PAGE, encoding="utf-8")
    before = {path.name: path.read_bytes() for path in (seed_content / "papers").glob("*.md")}
    site = tmp_path / "site"
    for extra in ((), (), ("--no-cache",)):  # first build, warm from the cache, and without it
        result = cli("build", "--content", str(seed_content), "--out", str(site), *extra)
        assert result.returncode == 0, result.stderr
        after = {path.name: path.read_bytes() for path in (seed_content / "papers").glob("*.md")}
        assert after == before
    html = (site / "papers" / "d2c-differentiable-diffusion-conditioning.html").read_text(encoding="utf-8")
    assert "D2C — my own title" in html and "My own abstract" in html


def test_pages_written_by_a_build_are_read_back_as_the_same_pages(tmp_path):
    """Pages the first build wrote, read by the next one (from the cache, or parsed): the same site."""
    content = tmp_path / "content"
    shutil.copytree(BUNDLED_CONTENT, content,
                    ignore=shutil.ignore_patterns(".proceedings-cache", "papers"))
    runs = []
    for extra in ((), (), ("--no-cache",)):
        site = tmp_path / f"site-{len(runs)}"
        assert cli("build", "--content", str(content), "--out", str(site), *extra).returncode == 0
        runs.append({p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()})
        if len(runs) == 1:
            pages = {path.name: path.read_bytes() for path in (content / "papers").glob("*.md")}
    assert runs[0] == runs[1] == runs[2]
    assert pages == {path.name: path.read_bytes() for path in (content / "papers").glob("*.md")}
