"""A build near a host's limits says so (issue 29): GitHub Pages' 1 GB, Cloudflare Pages' 20,000 files."""

from __future__ import annotations

from generator.commands.build import build
from generator.reporter import Reporter
from generator.pipeline import hosting
from generator.pipeline.hosting import host_warnings, site_size


def test_site_size_counts_every_file_by_its_top_level_part(tmp_path):
    (tmp_path / "papers").mkdir()
    (tmp_path / "papers" / "a.html").write_bytes(b"x" * 300)
    (tmp_path / "papers" / "b.html").write_bytes(b"x" * 200)
    (tmp_path / "assets" / "search").mkdir(parents=True)
    (tmp_path / "assets" / "search" / "t0.js").write_bytes(b"x" * 100)
    (tmp_path / "index.html").write_bytes(b"x" * 50)
    size = site_size(tmp_path)
    assert (size.bytes, size.files) == (650, 4)
    assert size.heaviest(3) == [("papers", 500), ("assets", 100), ("index.html", 50)]


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
    assert f"the site is {size.bytes / 1e3:.3g} KB, past GitHub Pages' limit of 100 KB" in messages[0]
    heaviest = ", ".join(f"{name} {weight / 1e3:.3g} KB" for name, weight in size.heaviest(3))
    assert f"heaviest: {heaviest}" in messages[0] and "papers" in heaviest and "papers_per_page" in messages[0]
    assert f"the site has {size.files:,} files, past Cloudflare Pages' limit of 30 files" in messages[1]
    assert (tmp_path / "site" / "index.html").is_file(), "a warning never stops the build"


def test_the_bundled_site_is_far_from_every_limit(seed_content, tmp_path):
    reporter = Reporter()
    build(seed_content, tmp_path / "site", reporter)
    assert not [w for w in reporter.warnings if "limit" in w.message]
