"""A build killed at any point, or unable to write, leaves a site the next run can trust."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import REPO
from generator.commands.build import build
from generator.commands.cli import main
from generator.reporter import Reporter
from record_fixtures import jsonl_content, records

# Runs the CLI with one step of the writer replaced by "do part of it, then die like kill -9".
KILLER = r"""
import os, sys
import generator.runtime.output as output
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


@pytest.mark.slow
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
    from generator.runtime import output
    from generator.commands.build import build
    from generator.errors import OutputError
    from generator.reporter import Reporter

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
    from generator.runtime import output
    from generator.commands.build import build
    from generator.errors import OutputError
    from generator.reporter import Reporter

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


# -- 7. forked workers die with their build ----------------------------------------------------------

def _running(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status  # a zombie has ended, whoever is left to reap it


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
@pytest.mark.parametrize("runner", ["in_parallel", "BackgroundRunner"])
def test_forked_workers_do_not_outlive_a_killed_build(runner):
    import signal
    import subprocess
    import sys
    import time

    script = f"""
import os, sys, time
from generator.runtime import background
job = lambda: (sys.stdout.write(str(os.getpid()) + "\\n"), sys.stdout.flush(), time.sleep(60))
if "{runner}" == "in_parallel":
    background.in_parallel(job)
else:
    background.BackgroundRunner().submit(job, print)
time.sleep(60)
"""
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                              cwd=Path(__file__).resolve().parent.parent)
    worker = 0
    try:
        worker = int(parent.stdout.readline())
        assert _running(worker)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 5
        while _running(worker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _running(worker), "the forked worker outlived its killed parent"
    finally:
        parent.kill()
        if worker and _running(worker):
            os.kill(worker, signal.SIGKILL)


# -- 6. two builds into one output folder ------------------------------------------------------------

def test_a_second_build_into_the_same_folder_waits_for_the_first(tmp_path):
    import fcntl
    import threading

    content = jsonl_content(tmp_path, records())
    site = tmp_path / "site"
    messages: list[str] = []

    class Listening(Reporter):
        def info(self, message: str) -> None:
            messages.append(message)

    with open(tmp_path / ".site.lock", "a+b") as held:  # another build holds the folder
        fcntl.flock(held, fcntl.LOCK_EX)
        second = threading.Thread(target=build, args=(content, site, Listening()))
        second.start()
        second.join(timeout=3)
        assert second.is_alive() and not site.exists()
        assert messages == [f"another build is writing {site}/; waiting for it to finish"]
    second.join(timeout=60)
    assert (site / "index.html").is_file() and (site / "papers.json").is_file()


@pytest.mark.slow
def test_two_builds_at_once_both_publish_a_whole_site_and_later_builds_work(tmp_path):
    import subprocess
    import sys

    content = jsonl_content(tmp_path, records())
    build(content, tmp_path / "site", Reporter())  # pages exist: both builds only write the site
    command = [sys.executable, "-m", "generator", "build", "--content", str(content), "--out", str(tmp_path / "site")]
    cwd = Path(__file__).resolve().parent.parent
    runs = [subprocess.Popen(command, cwd=cwd, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    assert [run.wait(timeout=120) for run in runs] == [0, 0], [run.stderr.read() for run in runs]
    assert (tmp_path / "site" / "index.html").is_file() and (tmp_path / "site" / "papers.json").is_file()
    assert not list(tmp_path.glob(".site.staging")) and not list(tmp_path.glob(".site.old"))
    assert subprocess.run(command, cwd=cwd, capture_output=True).returncode == 0


def test_a_killed_builds_lock_and_staging_do_not_block_the_next(tmp_path):
    content = jsonl_content(tmp_path, records())
    (tmp_path / ".site.lock").write_bytes(b"")  # left by a build killed while it held the lock
    (tmp_path / ".site.staging" / "papers").mkdir(parents=True)
    reporter = Reporter()
    build(content, tmp_path / "site", reporter)
    assert not reporter.errors and (tmp_path / "site" / "index.html").is_file()
    assert not (tmp_path / ".site.staging").exists()



def _staged(out: Path, marker: bytes, files: int = 0) -> None:
    """A site of three files published into ``out`` through a ``Staging``, as a build publishes one of
    ``files`` files."""
    from generator.runtime.output import Staging

    staging = Staging(out)
    staging.open()
    for name in ("index.html", "papers.json", "papers/a.html"):
        staging.write(name, marker + name.encode())
    staging.publish(files)


def _gone_soon(folder: Path) -> bool:
    deadline = time.monotonic() + 30
    while any(folder.glob(".site.*")) and time.monotonic() < deadline:
        time.sleep(0.02)
    return not any(folder.glob(".site.*"))


def test_a_large_replaced_site_is_removed_aside_by_a_process_the_build_does_not_wait_for(tmp_path, monkeypatch,
                                                                                         large_sizes):
    from generator.runtime import aside

    out = tmp_path / "site"
    _staged(out, b"old ")
    monkeypatch.setattr(aside.shutil, "rmtree", lambda *args, **kwargs: pytest.fail("removed by the build"))
    _staged(out, b"new ", files=3)
    assert (out / "papers" / "a.html").read_bytes() == b"new papers/a.html"
    assert not (tmp_path / ".site.old").exists() and not (tmp_path / ".site.staging").exists()
    assert _gone_soon(tmp_path), "the replaced site was not removed"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_a_small_replaced_site_is_removed_before_publish_returns(tmp_path):
    out = tmp_path / "site"
    _staged(out, b"old ")
    _staged(out, b"new ", files=3)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]
    assert (out / "index.html").read_bytes() == b"new index.html"


def test_a_removal_aside_left_unfinished_is_finished_by_the_next_build(tmp_path):
    left = tmp_path / ".site.gone-123-456" / "papers"  # its process killed before it was done
    left.mkdir(parents=True)
    (left / "a.html").write_bytes(b"old")
    _staged(tmp_path / "site", b"new ")
    assert _gone_soon(tmp_path) and sorted(p.name for p in tmp_path.iterdir()) == ["site"]

# -- A content folder that takes no more writes ------------------------------------------------------------

@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS], ids=["full", "read-only"])
@pytest.mark.parametrize("command", ["build", "import"])
def test_a_full_or_read_only_content_folder_is_one_line_naming_the_page(tmp_path, monkeypatch, capsys, code,
                                                                        command):
    # Tests run as root, where chmod stops no write: the write itself is made to fail as the disk would.
    from generator.content import page_writes
    from generator.runtime import output

    def refuse(path, *args, **kwargs):
        raise OSError(code, os.strerror(code), str(path))

    content = tmp_path / "content"
    content.mkdir()
    source = tmp_path / "list.txt"
    source.write_text("Workshop\n\nWe study quasars and their spectra in depth.\n", encoding="utf-8")
    if command == "build":
        (content / "list.txt").write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(page_writes, "write_atomically", refuse)  # (the sync's pages: content/page_writes.py)
    monkeypatch.setattr(output, "write_atomically", refuse)
    args = (["build", "--content", str(content), "--out", str(tmp_path / "site")] if command == "build"
            else ["import", str(source), "--content", str(content)])
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    (line,) = [line for line in err.splitlines() if os.strerror(code) in line]
    assert line.startswith("error: ") and "papers/" in line and ".md" in line and "cannot write the page" in line


def test_an_import_that_cannot_copy_its_source_in_is_one_line(tmp_path, monkeypatch, capsys):
    from generator.commands import cli

    def refuse(source, target):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(target))

    source = tmp_path / "list.txt"
    source.write_text("Workshop\n\nWe study quasars and their spectra in depth.\n", encoding="utf-8")
    monkeypatch.setattr(cli.shutil, "copyfile", refuse)
    assert main(["import", str(source), "--content", str(tmp_path / "content")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "content/list.txt: cannot copy the source in (No space left on device)" in err


# -- How a file is written ------------------------------------------------------------------------------

def test_a_staged_file_is_written_at_once_and_an_unchanged_one_linked(tmp_path):
    """Into the staging folder (no reader sees it) a file is written whole with the permissions any new file
    gets; once a site exists, a file with its current bytes is a link to the current one, a changed one new."""
    from generator.runtime.output import Staging

    umask = os.umask(0)
    os.umask(umask)
    out = tmp_path / "site"
    first = Staging(out)
    first.open()
    first.write("index.html", b"<p>home</p>")
    first.write("papers/deep/a.html", b"A" * 70_000)
    first.write("papers.json", b"[]")
    first.publish()
    assert (out / "papers" / "deep" / "a.html").read_bytes() == b"A" * 70_000
    assert stat.S_IMODE((out / "index.html").stat().st_mode) == 0o666 & ~umask

    second = Staging(out)
    second.open()
    second.write("index.html", b"<p>home</p>")
    second.write("papers/deep/a.html", b"B" * 70_000)
    assert (second.path / "index.html").stat().st_ino == (out / "index.html").stat().st_ino
    changed = Path("papers", "deep", "a.html")
    assert (second.path / changed).stat().st_ino != (out / changed).stat().st_ino
    assert (second.path / changed).read_bytes() == b"B" * 70_000
    second.discard()


def test_write_atomically_replaces_the_file_whole_and_leaves_no_temporary_file(tmp_path):
    """A page written over its last version (the sync): the new bytes, private as before, nothing beside it;
    a temporary name a killed run left under this process's id is not in the way."""
    from generator.runtime.output import write_atomically

    page = tmp_path / "papers" / "a.md"
    write_atomically(page, b"first")
    write_atomically(page, b"second, longer")
    assert page.read_bytes() == b"second, longer"
    assert stat.S_IMODE(page.stat().st_mode) == 0o600
    assert sorted(p.name for p in page.parent.iterdir()) == ["a.md"]
    stale = page.parent / f".a.md.{os.getpid()}.tmp"
    stale.write_bytes(b"half a page")
    write_atomically(page, b"third", folder_made=True)
    assert page.read_bytes() == b"third"
    assert sorted(p.name for p in page.parent.iterdir()) == [stale.name, "a.md"]
