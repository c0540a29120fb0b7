"""A large volume's build lets the person's and topic's feeds' kept entries go once it has written those feeds
(issue 43: at 50,000 papers they were tens of MB of the build, held to the end of the render stage)."""

from __future__ import annotations

from test_shares import site_files, volume

from generator.commands.build import build
from generator.publish import feeds
from generator.render.html import SiteRenderer
from generator.reporter import Reporter


def test_forgetting_the_entries_keeps_every_other_fragment():
    kept = {(feeds._FEED_ENTRY, "p1", "", "2026"): b"<entry/>", ("once", "nav"): "<nav/>", "x": 1}
    feeds.forget_entries(kept)
    assert kept == {("once", "nav"): "<nav/>", "x": 1}


def test_a_large_volumes_build_lets_the_feed_entries_go_after_its_own_files_and_makes_the_same_site(
        tmp_path, large_sizes, monkeypatch):
    content = volume(tmp_path)
    (content / "proceedings.yaml").write_text("title: Shares 2026\ndate: 2026-06-01\n", encoding="utf-8")
    build(content, tmp_path / "one", Reporter(), jobs=1, cache=False)
    assert (tmp_path / "one" / "tags").is_dir() and list((tmp_path / "one" / "authors").glob("*.xml"))
    seen: list[tuple[int, int]] = []
    real = SiteRenderer.feeds_written

    def feeds_written(self):
        before = sum(isinstance(key, tuple) and key[0] == feeds._FEED_ENTRY for key in self.fragments)
        real(self)
        seen.append((before, sum(isinstance(key, tuple) and key[0] == feeds._FEED_ENTRY for key in self.fragments)))

    monkeypatch.setattr(SiteRenderer, "feeds_written", feeds_written)
    build(content, tmp_path / "two", Reporter(), jobs=2, cache=False)  # the fresh template worker's path
    assert len(seen) == 1 and seen[0][0] == 36 and seen[0][1] == 0, seen  # every paper's entry, then none
    assert site_files(tmp_path / "two") == site_files(tmp_path / "one")
