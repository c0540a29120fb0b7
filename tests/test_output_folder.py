"""A build killed at any point, or unable to write, leaves a site the next run can trust."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

# Runs the CLI with one step of the writer replaced by "do part of it, then die like kill -9".
KILLER = r"""
import os, sys
import generator.pipeline.output as output
point = sys.argv[1]
if point == "before":
    original = output._write
    output._write = lambda path, data: os._exit(9)
elif point == "during":
    count = {"n": 0}
    original = output._write
    def dying(path, data):
        count["n"] += 1
        if count["n"] == 10:
            os._exit(9)
        original(path, data)
    output._write = dying
elif point == "after":
    def half_swap(staging, out_dir):
        old = output._sibling(out_dir, "old")
        out_dir.rename(old)
        os._exit(9)
    output._swap = half_swap
from generator.commands.cli import main
sys.exit(main(sys.argv[2:]))
"""


def run_cli(*args: str, kill_at: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-c", KILLER, kill_at, *args] if kill_at else [sys.executable, "-m", "generator", *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)


def snapshot(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("point", ["before", "during", "after"])
def test_killed_build_then_next_build_leaves_a_complete_site(seed_content, tmp_path, point):
    out = tmp_path / "site"
    assert run_cli("build", "--content", str(seed_content), "--out", str(out)).returncode == 0
    good = snapshot(out)
    replace_title = sorted((seed_content / "papers").glob("*.md"))[0]
    replace_title.write_text(replace_title.read_text(encoding="utf-8").replace("title: ", "title: 'New: ' # ", 1),
                             encoding="utf-8")

    killed = run_cli("build", "--content", str(seed_content), "--out", str(out), kill_at=point)
    assert killed.returncode == 9
    if point != "after":
        assert snapshot(out) == good, "a killed build changed the published site"

    again = run_cli("build", "--content", str(seed_content), "--out", str(out))
    assert again.returncode == 0, again.stderr
    repaired = snapshot(out)
    assert set(repaired) == set(good)
    assert b"New:" in repaired["index.html"]
    assert not any(p.name.startswith(".site.") for p in tmp_path.iterdir()), "staging or old folders left behind"


def test_read_only_output_folder_keeps_the_previous_site(seed_content, tmp_path, monkeypatch):
    """CI runs as root, which ignores permissions, so the refusal is simulated where it would happen."""
    from generator.pipeline import output
    from generator.commands.build import build
    from generator.errors import OutputError
    from generator.commands.reporter import Reporter

    out = tmp_path / "site"
    build(seed_content, out, Reporter())
    good = snapshot(out)

    def read_only(staging, out_dir):
        raise PermissionError(13, "Permission denied", str(out_dir))

    monkeypatch.setattr(output, "_swap", read_only)
    with pytest.raises(OutputError, match="Permission denied") as info:
        build(seed_content, out, Reporter())
    assert "previous site is unchanged" in str(info.value)
    assert snapshot(out) == good


def test_full_output_folder_keeps_the_previous_site(seed_content, tmp_path, monkeypatch):
    """A write error (disk full) midway: nothing of the new site is published."""
    from generator.pipeline import output
    from generator.commands.build import build
    from generator.errors import OutputError
    from generator.commands.reporter import Reporter

    out = tmp_path / "site"
    build(seed_content, out, Reporter())
    good = snapshot(out)
    calls = {"n": 0}
    original = output._write

    def filling(path, data):
        calls["n"] += 1
        if calls["n"] > 5:
            raise OSError(28, "No space left on device", str(path))
        original(path, data)

    monkeypatch.setattr(output, "_write", filling)
    # Unchanged files are hard-linked from the current site, not written: refuse links here,
    # as a file system without them does, so that this build writes every file.
    monkeypatch.setattr(output, "_link", lambda source, target: False)
    with pytest.raises(OutputError, match="No space left on device"):
        build(seed_content, out, Reporter())
    assert snapshot(out) == good
    assert not (tmp_path / ".site.staging").exists()
