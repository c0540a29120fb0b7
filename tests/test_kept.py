"""What a process made of a file, kept under the file's identity (generator/runtime/kept.py): made again for an
edit in place, a file saved by replacing it, and a file changed so lately that its identity cannot tell."""

from __future__ import annotations

from pathlib import Path

from generator.runtime import kept
from generator.runtime.kept import KeptByIdentity


def counting() -> tuple[KeptByIdentity[str], list[str]]:
    made: list[str] = []

    def make(path: str) -> str:
        made.append(path)
        return Path(path).read_text(encoding="utf-8")

    return KeptByIdentity(make), made


def test_a_settled_file_is_read_once_for_each_state_of_it(tmp_path, monkeypatch):
    monkeypatch.setattr(kept, "SETTLED", 0)  # every file counts as changed long enough ago
    texts, made = counting()
    path = tmp_path / "base.html"
    path.write_text("one", encoding="utf-8")
    assert texts(str(path)) == texts(str(path)) == "one" and len(made) == 1
    path.write_text("one, two", encoding="utf-8")  # in place: another size and time
    assert texts(str(path)) == "one, two" and len(made) == 2
    other = tmp_path / "saved.html"
    other.write_text("one, six", encoding="utf-8")
    other.replace(path)  # saved by replacing it: another inode
    assert texts(str(path)) == "one, six" and len(made) == 3


def test_a_file_changed_within_the_clocks_tick_is_read_every_time(tmp_path):
    """Two edits of the same length within one tick of the file system's clock leave the same identity: a file
    changed less than SETTLED ago is not kept, so the second edit is read."""
    texts, made = counting()
    path = tmp_path / "base.html"
    path.write_text("first", encoding="utf-8")
    assert texts(str(path)) == "first"
    path.write_text("again", encoding="utf-8")
    assert texts(str(path)) == "again" and texts(str(path)) == "again" and len(made) == 3
