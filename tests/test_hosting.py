"""A build near a host's limits says so (issues 29, 43): GitHub Pages' 1 GB on disk, Cloudflare Pages' 20,000 files."""

from __future__ import annotations

import os
import subprocess

from generator.commands.build import build
from generator.reporter import Reporter
from generator.pipeline import hosting
from generator.pipeline.hosting import host_warnings, kind, on_disk, site_size


def test_site_size_counts_what_du_reports_by_part_and_by_kind(tmp_path):
    """On disk as ``du -s --block-size=1`` counts it (a small file takes a whole block, a folder its own), and
    the bytes the files hold (``du -sb`` less the folders' entries); by top-level part and by kind of file."""
    site = tmp_path / "site"
    (site / "papers").mkdir(parents=True)
    (site / "papers" / "a.html").write_bytes(b"x" * 300)
    (site / "papers" / "b.html").write_bytes(b"x" * 9000)
    (site / "authors").mkdir()
    for name in "abc":
        (site / "authors" / f"{name}.xml").write_bytes(b"x" * 100)
    (site / "assets" / "search").mkdir(parents=True)
    (site / "assets" / "search" / "t0.js").write_bytes(b"x" * 100)
    (site / "index.html").write_bytes(b"x" * 50)
    os.link(site / "index.html", site / "404.html")  # one file twice: du counts it once
    size = site_size(site)
    du = subprocess.run(["du", "-s", "--block-size=1", str(site)], capture_output=True, text=True, check=True)
    assert size.bytes == int(du.stdout.split()[0])
    assert (size.apparent, size.files) == (9_750, 7)
    block = on_disk(os.stat(site / "index.html"))  # the file system's smallest allocation (4 KB on most)
    assert size.kinds["authors/*.xml"] == 3 * block and size.counts["authors/*.xml"] == 3
    assert size.counts["papers/*.html"] == 2 and size.counts["search/*.js"] == 1
    assert size.counts["index.html"] + size.counts["404.html"] == 1  # whichever du meets first
    assert size.parts["papers"] == on_disk(os.stat(site / "papers")) + size.kinds["papers/*.html"]
    assert size.heaviest_kinds(1) == [("papers/*.html", size.kinds["papers/*.html"], 2)]


def test_a_kind_is_a_folder_and_an_extension():
    assert kind(("papers", "a-b.html")) == "papers/*.html"
    assert kind(("tags", "learning.2.html")) == "tags/*.html"
    assert kind(("2024", "assets", "reading", "r7.js")) == "reading/*.js"
    assert kind(("proceedings.csl.json",)) == "proceedings.csl.json"


def test_a_small_site_is_not_warned_about(tmp_path):
    (tmp_path / "index.html").write_bytes(b"x" * 1000)
    assert host_warnings(site_size(tmp_path)) == []


def test_a_build_near_the_limits_warns_naming_the_heaviest_parts_and_the_remedy(seed_content, tmp_path, monkeypatch):
    monkeypatch.setattr(hosting, "SITE_BYTES", 100_000)
    monkeypatch.setattr(hosting, "SITE_FILES", 30)
    reporter = Reporter()
    build(seed_content, tmp_path / "site", reporter)
    messages = [w.message for w in reporter.warnings if "limit" in w.message]
    assert len(messages) == 2, messages
    size = site_size(tmp_path / "site")
    assert f"the site is {size.bytes / 1e3:.3g} KB on disk, past GitHub Pages' limit of 100 KB" in messages[0]
    heaviest = ", ".join(f"{name} {weight / 1e3:.3g} KB" for name, weight in size.heaviest(3))
    assert f"heaviest: {heaviest}" in messages[0] and "papers" in heaviest and "papers_per_page" in messages[0]
    # The kinds of file that weigh most, with their counts: what to make lighter, and what costs a block a file.
    kinds = ", ".join(f"{name} {weight / 1e3:.3g} KB in {files:,} files"
                      for name, weight, files in size.heaviest_kinds())
    assert f"heaviest kinds of file: {kinds}" in messages[0] and "papers/*.html" in kinds
    assert f"the site has {size.files:,} files, past Cloudflare Pages' limit of 30 files" in messages[1]
    assert (tmp_path / "site" / "index.html").is_file(), "a warning never stops the build"


def test_the_bundled_site_is_far_from_every_limit(seed_content, tmp_path):
    reporter = Reporter()
    build(seed_content, tmp_path / "site", reporter)
    assert not [w for w in reporter.warnings if "limit" in w.message]
