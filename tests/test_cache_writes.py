"""Cache entries saved ``later`` (runtime/cache_writes.py): written by a forked child beside the build's next
stages, or here when few; byte for byte what a save at once writes; never read half-written; all on disk when a
pass ends, failed or not."""

from __future__ import annotations

import dataclasses
import os
import pickle
from pathlib import Path

import pytest

from generator.commands.build import build
from generator.pipeline import stages
from generator.reporter import Reporter
from generator.runtime.executor import Executor
from generator.runtime import sizes
from generator.runtime.sizes import SizePolicy
from generator.runtime.cache import CACHE_DIR, BuildCache, EntryCache


def _records(count: int) -> dict[str, dict]:
    return {f"paper-{n}": {"fields": {"title": f"Title {n} é", "abstract": "x" * (n % 97)}, "n": n}
            for n in range(count)}


def _save(folder: Path, records: dict[str, dict], later: bool) -> EntryCache:
    entry = EntryCache(BuildCache(folder), "abstracts", "v1", plain=True, later=later)
    for key, value in records.items():
        entry.put(key, value)
    entry.save()
    return entry


def _files(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*"))
            if path.is_file()}


ASIDE = Executor(2, SizePolicy(write_aside_from=1))  # any entry's files by a forked child


@pytest.mark.parametrize("aside_files", [1, 10_000])  # by a forked child; here (too few files to fork for)
def test_an_entry_saved_later_is_written_as_one_saved_at_once(tmp_path, aside_files):
    records = _records(2_000)
    _save(tmp_path / "now", records, later=False)
    later = _save(tmp_path / "later", records, later=True)
    assert not list(later.folder.iterdir())  # (only its folder made: the files are kept as bytes)
    later.cache.later.aside(Executor(2, SizePolicy(write_aside_from=aside_files)))
    assert (later.cache.later.job is not None) == (aside_files == 1)
    later.cache.later.settle()
    assert later.cache.later.job is None and not later.cache.later.kept
    assert len(_files(tmp_path / "now")) > 200
    assert _files(tmp_path / "later") == _files(tmp_path / "now")


def test_reading_a_kind_waits_for_its_entry_and_no_other(tmp_path):
    records = _records(500)
    saved = _save(tmp_path, records, later=True)
    store = saved.cache
    other = EntryCache(store, "papers", plain=True)
    assert other.get("paper-1") is None and store.later.kept  # another kind: nothing written for it
    store.later.aside(ASIDE)
    again = EntryCache(store, "abstracts", "v1", plain=True)
    assert again.get("paper-7") == records["paper-7"]  # the child waited for, its files read
    assert store.later.job is None
    kept = EntryCache(store, "abstracts", "v1", plain=True, later=True)
    kept.put("paper-1", {"n": 1})
    kept.save()
    assert store.load_bytes("abstracts", "x") is None and not store.later.kept  # kept entry written on asking


def test_a_newer_entry_of_a_kind_drops_the_older_in_order(tmp_path):
    store = BuildCache(tmp_path)
    for version in ("v1", "v2"):
        entry = EntryCache(store, "abstracts", version, plain=True, later=True)
        entry.put("a", {"version": version})
        entry.save()
    store.later.aside(ASIDE)
    store.later.settle()
    assert [path.name.startswith("abstracts-") for path in tmp_path.iterdir() if path.is_dir()] == [True]
    assert EntryCache(store, "abstracts", "v2", plain=True).get("a") == {"version": "v2"}


def test_a_child_that_cannot_write_fails_nothing(tmp_path):
    saved = _save(tmp_path, _records(300), later=True)
    os.chmod(saved.folder, 0o500)
    try:
        saved.cache.later.aside(ASIDE)
        saved.cache.later.settle()
    finally:
        os.chmod(saved.folder, 0o700)
    if os.geteuid() != 0:  # (root writes anyway)
        assert not list(saved.folder.iterdir())


@pytest.mark.parametrize("failing_stage, saved", [("programme", ("front-matter", "papers")),  # kept, not aside
                                                   ("render", ("front-matter", "papers", "abstracts"))])
def test_a_failed_build_leaves_the_entries_its_stages_saved_on_disk(seed_content, tmp_path, monkeypatch,
                                                                   failing_stage, saved):
    monkeypatch.setitem(sizes.NAMED, "default", SizePolicy(write_aside_from=1))  # the seed volume's: by a child

    def failing(p):
        raise RuntimeError("a stage after the entries were saved")

    monkeypatch.setattr(stages, "STAGES", tuple(stages.Stage(stage.name, failing, stage.writes)
                                                if stage.name == failing_stage else stage for stage in stages.STAGES))
    with pytest.raises(RuntimeError):
        build(seed_content, tmp_path / "site", Reporter(), jobs=2)
    cache = seed_content / CACHE_DIR
    for kind in saved:
        entries = [path for path in cache.iterdir() if path.name.startswith(kind + "-")]
        assert len(entries) == 1 and list(entries[0].iterdir()), kind


def test_a_cache_sent_to_another_process_takes_none_of_this_ones_writes(tmp_path):
    saved = _save(tmp_path, _records(300), later=True)
    saved.cache.later.aside(ASIDE)
    sent = pickle.loads(pickle.dumps(saved.cache))
    assert sent.folder == saved.cache.folder and sent.later.job is None and not sent.later.kept
    saved.cache.later.settle()


def test_a_writing_child_that_dies_leaves_a_miss_not_a_failed_build(tmp_path):
    """A cache that cannot be written only makes the next build slower: the child killed mid-entry (here it
    ends itself after its first shard) fails no settle, and what it wrote reads as a miss or a whole shard."""
    records = _records(2_000)
    saved = _save(tmp_path, records, later=True)
    store = saved.cache
    entry = store.later.kept[0]
    store.later.kept[0] = dataclasses.replace(entry, shards=entry.shards[:1],
                                              drop_others=lambda kind, folder: os._exit(3))
    store.later.aside(ASIDE)
    assert store.later.job is not None
    store.later.settle()  # (raised "a parallel build step died" before)
    assert store.later.job is None
    again = EntryCache(BuildCache(tmp_path), "abstracts", "v1", plain=True)
    found = {key: again.get(key) for key in records}
    assert 0 < sum(value is not None for value in found.values()) < len(records)
    assert all(value is None or value == records[key] for key, value in found.items())


def test_an_entry_past_the_room_for_held_bytes_is_written_as_it_is_made(tmp_path, monkeypatch):
    """A large volume's entries are not held whole for the child (``LaterWrites.room``): the shards past it are
    written at once, the rest by the child; the files are those a save at once writes."""
    from generator.runtime import cache_writes

    records = _records(2_000)
    now = _save(tmp_path / "now", records, later=False)
    shards = sorted(path.stat().st_size for path in now.folder.iterdir())
    monkeypatch.setattr(cache_writes, "LATER_BYTES", sum(shards[: len(shards) // 2]))
    later = _save(tmp_path / "later", records, later=True)
    on_disk = len(list(later.folder.iterdir()))
    held = len(later.cache.later.kept[0].shards)
    assert 0 < on_disk < len(shards) and held and on_disk + held == len(shards)
    assert later.cache.later.room() >= 0
    later.cache.later.aside(ASIDE)
    later.cache.later.settle()
    assert _files(tmp_path / "later") == _files(tmp_path / "now")
