"""The build cache cannot be poisoned: a forged entry is not published, the key is never half written, and a
cache sealed with another user's secret is not trusted."""

from __future__ import annotations

import json
import os
from pathlib import Path


from generator.commands.build import build
from generator.reporter import Reporter

from record_fixtures import jsonl_content, records


# -- 9. the build cache cannot be poisoned ------------------------------------------------------------

def test_a_forged_cache_entry_is_not_published(tmp_path, monkeypatch):
    from generator.runtime import cache as cache_module

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    content = jsonl_content(tmp_path, records())
    build(content, tmp_path / "site", Reporter())
    assert (tmp_path / "user-cache" / "proceedings" / "cache-key").stat().st_mode & 0o077 == 0
    refresh = '<meta http-equiv="refresh" content="0;url=https://evil.example/">'
    forged = 0
    for shard in (content / cache_module.CACHE_DIR).glob("abstracts-*/*"):
        records_ = json.loads(shard.read_bytes().split(b"\n", 1)[1])
        for record in records_.values():
            record["fields"]["abstract_html"] = refresh
            forged += 1
        payload = json.dumps(records_).encode()
        # What anyone can compute: the format's header with a digest made without the user's secret.
        header = b"proceedings-cache %d %s\n" % (cache_module.FORMAT, cache_module.digest(payload).encode())
        shard.write_bytes(header + payload)
    assert forged == 3
    build(content, tmp_path / "site", Reporter())
    pages = " ".join(p.read_text(encoding="utf-8") for p in (tmp_path / "site" / "papers").glob("*.html"))
    assert "evil.example" not in pages and "linear memory" in pages


def test_the_cache_key_never_appears_half_written(tmp_path, monkeypatch):
    """Two processes making the key at once (two first builds, two test workers): neither finds an
    empty key file, which would read as no key and turn its cache off; the first key linked wins."""
    from generator.runtime import sealed as cache  # the user's secret and the sealed files (runtime/sealed.py)

    path = tmp_path / "proceedings" / "cache-key"
    seen, urandom = [], os.urandom
    monkeypatch.setattr(cache.os, "urandom", lambda n: seen.append(path.exists()) or urandom(n))
    key = cache.secret_key.__wrapped__(path)
    assert seen == [False], "the key file was there before its bytes were"
    assert len(key) == 32 and path.read_bytes() == key and path.stat().st_mode & 0o077 == 0

    theirs, other = b"t" * 32, tmp_path / "other" / "cache-key"
    link = os.link
    # Another process links its key between this one's check and its link: this one reads theirs.
    monkeypatch.setattr(cache.os, "link", lambda source, to: (Path(to).write_bytes(theirs), link(source, to)))
    assert cache.secret_key.__wrapped__(other) == theirs
    assert sorted(p.name for p in other.parent.iterdir()) == ["cache-key"], "no private copy is left behind"


def test_a_cache_made_with_another_users_secret_is_not_trusted(tmp_path, monkeypatch):
    from generator.runtime.cache import BuildCache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "alice"))
    BuildCache(tmp_path / "cache").store_json("x", "k", {"html": "<p>alice</p>"})
    assert BuildCache(tmp_path / "cache").load_json("x", "k") == {"html": "<p>alice</p>"}
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "mallory"))
    assert BuildCache(tmp_path / "cache").load_json("x", "k") is None
