"""One executor (runtime/executor.py) chosen by one size policy (runtime/sizes.py): work runs inline,
forked or in a fresh process as the policy says, the bytes are the same whichever way, and no other module
starts a process or compares a size."""

from __future__ import annotations

import dataclasses
import functools
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import REPO, cli, copy_content
from generator.latex import abstract_renderer
from generator.commands.build import build
from generator.reporter import Reporter
from generator.errors import ProceedingsError
from generator.runtime import background
from generator.runtime import executor as executor_module
from generator.runtime import sizes
from generator.runtime.executor import Executor
from generator.runtime.sizes import DEFAULT, LARGE, Cost

MARK = "set in this process"


def _pids(items: list[int]) -> list[int]:
    return [os.getpid() for _ in items]


def _sees_mark(items, suffix: str) -> tuple[bool, int, list[str]]:
    """A fed job: whether it sees what the test set in this process, where it ran, and its items."""
    return hasattr(executor_module, "_test_mark"), os.getpid(), [f"{item}{suffix}" for item in items]


def test_the_policy_is_the_default_unless_the_environment_names_another(monkeypatch):
    monkeypatch.delenv(sizes.ENVIRONMENT, raising=False)
    assert sizes.current() == DEFAULT and Executor(2).policy == DEFAULT
    monkeypatch.setenv(sizes.ENVIRONMENT, "Large")
    assert sizes.current() == LARGE and Executor(2).policy == LARGE
    monkeypatch.setenv(sizes.ENVIRONMENT, "huge")
    with pytest.raises(ProceedingsError, match="PROCEEDINGS_SIZES='huge'.*default, large"):
        Executor(2)


def test_the_policy_splits_costly_work_sooner_than_cheap_work_and_goes_fresh_for_large_volumes():
    assert DEFAULT.heavy_split < DEFAULT.light_split < DEFAULT.fresh_from
    assert DEFAULT.splits(Cost.HEAVY, DEFAULT.heavy_split) and not DEFAULT.splits(Cost.HEAVY, DEFAULT.heavy_split - 1)
    assert not DEFAULT.splits(Cost.LIGHT, DEFAULT.heavy_split)
    assert DEFAULT.fresh(DEFAULT.fresh_from) and not DEFAULT.fresh(DEFAULT.fresh_from - 1)
    assert DEFAULT.beside(DEFAULT.beside_from) and not DEFAULT.beside(DEFAULT.beside_from - 1)
    assert DEFAULT.beside_from < DEFAULT.fresh_from
    assert LARGE.splits(Cost.LIGHT, 1) and LARGE.fresh(1) and LARGE.beside(1)


def _slow_pids(items: list[int]) -> list[int]:
    time.sleep(0.01)  # a chunk takes long enough that the forked worker claims its share
    return _pids(items)


def test_few_items_stay_in_this_process_and_many_are_split_over_forked_workers():
    here = os.getpid()
    items = list(range(DEFAULT.heavy_split - 1))
    assert set(Executor(2, DEFAULT).map(_slow_pids, items, Cost.HEAVY)) == {here}
    split = Executor(2, DEFAULT).map(_slow_pids, list(range(DEFAULT.heavy_split)), Cost.HEAVY)
    assert len(split) == DEFAULT.heavy_split and here in split and len(set(split)) == 2
    # The order of the items is kept across the shares.
    assert Executor(2, LARGE).map(lambda share: [n * 2 for n in share], list(range(9)), Cost.LIGHT) == \
        [n * 2 for n in range(9)]


def _chunk_of(items: list[int]) -> tuple[int, list[int]]:
    time.sleep(0.01)
    return os.getpid(), items


def test_work_whose_result_is_one_value_a_chunk_is_cut_in_fewer_chunks_than_map_cuts():
    """``map_chunks``: one result per chunk, in order; one chunk where ``map`` would stay here, else fewer and
    larger chunks than ``map``'s (each chunk's result repeats what it shares with the others)."""
    here = os.getpid()
    few = list(range(DEFAULT.heavy_split - 1))
    assert Executor(2, DEFAULT).map_chunks(_chunk_of, few, Cost.HEAVY) == [(here, few)]
    assert Executor(1, LARGE).map_chunks(_chunk_of, list(range(99)), Cost.HEAVY) == [(here, list(range(99)))]
    items = list(range(DEFAULT.heavy_split * 4))
    done = Executor(2, DEFAULT).map_chunks(_chunk_of, items, Cost.HEAVY)
    size = DEFAULT.chunk(len(items), 2, joined=True)
    assert [chunk for _, chunk in done] == [items[i : i + size] for i in range(0, len(items), size)]
    assert len(done) == 2 * DEFAULT.joined_claims and here in {pid for pid, _ in done}
    assert size > DEFAULT.chunk(len(items), 2)


def test_one_core_runs_everything_in_this_process_whatever_the_size():
    inline = Executor(1, LARGE)
    here = os.getpid()
    assert set(inline.map(_pids, list(range(50)), Cost.HEAVY)) == {here}
    assert inline.chunks(_pids, [[1], [2]]) == [[here], [here]]
    assert inline.start(os.getpid)() == here
    assert inline.feed(_sees_mark, ["a"], "!", papers=10**6)()[1] == here
    assert not inline.fresh(10**6) and inline.workers(Cost.HEAVY, 10**6) == 1


def test_a_fed_job_is_forked_for_a_small_volume_and_fresh_for_a_large_one(monkeypatch):
    monkeypatch.setattr(executor_module, "_test_mark", MARK, raising=False)
    sees, pid, got = Executor(2, DEFAULT).feed(_sees_mark, ["a", "b"], "!", papers=DEFAULT.fresh_from - 1)()
    assert sees and pid != os.getpid() and got == ["a!", "b!"], "a small volume's job is forked"
    sees, pid, got = Executor(2, DEFAULT).feed(_sees_mark, ["a", "b"], "?", papers=DEFAULT.fresh_from)()
    assert not sees and pid != os.getpid() and got == ["a?", "b?"], "a large volume's job holds nothing of ours"


def test_a_fed_job_of_a_tiny_volume_runs_here_when_its_result_is_asked_for():
    """Below ``beside_from`` papers (a handful of pages) the search index is not worth a process: it runs
    in this one, when publish asks for it, and makes what a forked job makes."""
    ran: list[int] = []

    def job(items, suffix):
        ran.append(os.getpid())
        return [f"{item}{suffix}" for item in items]

    pending = Executor(2, DEFAULT).feed(job, ["a", "b"], "!", papers=DEFAULT.beside_from - 1)
    assert ran == [] and not pending.running, "nothing runs before its result is asked for"
    assert pending() == ["a!", "b!"] and ran == [os.getpid()]
    _, pid, got = Executor(2, DEFAULT).feed(_sees_mark, ["a"], "?", papers=DEFAULT.beside_from)()
    assert pid != os.getpid() and got == ["a?"], "from beside_from papers it has a process of its own"



def site_files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_large_volumes_paths_make_the_bytes_one_process_makes(tmp_path, monkeypatch):
    """The bundled volume built with every large-volume path (pages derived, written and read by forked
    workers, papers related by them, the abstracts, the search index and the template workers in fresh
    processes) is byte for byte the volume built in this process alone."""
    split: list[str] = []  # the work the executor split over forked workers, by its function's name
    fresh: list[str] = []  # the jobs it started in fresh processes
    real_map, real_fresh = Executor.map, executor_module.in_fresh_process

    def mapped(self, func, items, cost, *rest):
        if self.workers(cost, len(items)) > 1:
            split.append(getattr(func, "func", func).__name__)  # a partial by its function's name
        return real_map(self, func, items, cost, *rest)

    def started(job, *args, **kwargs):
        fresh.append(job.__name__)
        return real_fresh(job, *args, **kwargs)

    monkeypatch.setattr(Executor, "map", mapped)
    monkeypatch.setattr(executor_module, "in_fresh_process", started)
    # The sync keeps a few renderings only (a large volume's last 20,000 of 50,000): the others are made again.
    monkeypatch.setattr(abstract_renderer, "REMEMBERED", 2)
    sites = {}
    for name, jobs in (("inline", 1), ("large", 2)):
        content = copy_content(tmp_path / name / "content")
        shutil.rmtree(content / "papers")  # every page derived and written anew
        if name == "large":
            monkeypatch.setenv(sizes.ENVIRONMENT, "large")
        reporter = Reporter()
        build(content, tmp_path / name / "site", reporter, jobs=jobs, cache=False)
        assert not reporter.errors, reporter.errors
        sites[name] = site_files(tmp_path / name / "site")
        if name == "inline":
            assert not split and not fresh
    assert {"_scores", "derive_chunk", "_write_pages"} <= set(split), split  # _scores: the volume survey
    assert sorted(fresh) == ["index_job", "render_abstracts_share", "render_share"], fresh
    assert sites["large"] == sites["inline"]


def test_a_policy_the_environment_misnames_is_a_message_not_a_traceback(tmp_path, monkeypatch):
    content = copy_content(tmp_path / "content")
    monkeypatch.setenv(sizes.ENVIRONMENT, "tiny")  # read when a build asks for its policy, not at start-up
    done = cli("build", "--content", str(content), "--out", str(tmp_path / "site"))
    assert done.returncode != 0
    assert "PROCEEDINGS_SIZES='tiny'" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow
def test_no_process_the_build_starts_imports_from_the_current_folder(tmp_path):
    """A build run from inside a content repository that holds a `multiprocessing/` and a `selectors` module
    (hostile, or a name clash): the fork server was started with `python -c`, which put the current folder
    first on its import path and ran that code (then the build died with a traceback)."""
    content = copy_content(tmp_path / "content")
    marker = tmp_path / "ran"
    for module in ("multiprocessing/__init__.py", "selectors.py", "socket.py"):
        path = content / module
        path.parent.mkdir(exist_ok=True)
        path.write_text(f"open({str(marker)!r}, 'a').write({module!r} + '\\n')\nraise SystemExit(3)\n",
                        encoding="utf-8")
    launcher = tmp_path / "bin" / "proceedings"  # as the installed command: its own folder on the path, not the cwd
    launcher.parent.mkdir()
    launcher.write_text("import sys\nfrom generator.commands.cli import main\n\nif __name__ == '__main__':\n"
                        "    sys.exit(main())\n", encoding="utf-8")  # as pip writes a console script
    env = {**os.environ, sizes.ENVIRONMENT: "large", "PYTHONPATH": str(REPO)}
    env.pop("PYTHONSAFEPATH", None)
    done = subprocess.run([sys.executable, str(launcher), "build", "--content", ".", "--out", str(tmp_path / "site")],
                          cwd=content, env=env, capture_output=True, text=True, timeout=600)
    assert not marker.exists(), marker.read_text(encoding="utf-8")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert (tmp_path / "site" / "index.html").is_file()


def test_no_module_but_the_executor_starts_a_process_or_holds_a_size_threshold():
    """Processes start in runtime/background.py and runtime/fresh.py, on runtime/executor.py's word; sizes live
    in sizes.py."""
    package = REPO / "generator"
    starts = re.compile(r"\b(in_parallel|in_fresh_process|multiprocessing|os\.fork)\b")
    threshold = re.compile(r"^[A-Z_]*(PARALLEL|FRESH)[A-Z_]* = ", re.MULTILINE)
    own = {"background.py", "fresh.py", "executor.py", "sizes.py"}  # by name: whichever package holds them
    for path in package.rglob("*.py"):
        if path.name in own:
            continue
        text = path.read_text(encoding="utf-8")
        assert not starts.search(text), f"{path.relative_to(REPO)} starts a process itself"
        assert not threshold.search(text), f"{path.relative_to(REPO)} holds a size threshold of its own"


# -- work that balances itself ------------------------------------------------------------

def _stalls_first_in_a_worker(parent: int, chunk: list[int]) -> list[tuple[int, int]]:
    """Each item with the process that did it; a forked worker's first chunk stalls (a page that takes long)."""
    if os.getpid() != parent and not hasattr(_stalls_first_in_a_worker, "stalled"):
        _stalls_first_in_a_worker.stalled = True  # type: ignore[attr-defined]
        time.sleep(4)
    elif os.getpid() == parent:
        time.sleep(0.02)  # the whole list takes this process about 1.3 s
    return [(item * 2, os.getpid()) for item in chunk]


def test_split_work_is_claimed_chunk_by_chunk_by_whichever_process_frees_up():
    """A worker held up by its first chunk leaves the others to this process, which claims them as it frees up
    (cut in two halves, this process would do half and then wait on the worker); the result is in order."""
    here = os.getpid()
    items = list(range(2_000))
    done = Executor(2, LARGE).map(functools.partial(_stalls_first_in_a_worker, here), items, Cost.LIGHT)
    assert [value for value, _ in done] == [item * 2 for item in items]
    chunk = LARGE.chunk(len(items), 2)
    by_worker = [pid for _, pid in done[::chunk] if pid != here]
    # Cut in halves, the worker would have had 32 of the 64 chunks; it claimed one (none if it started late).
    assert len(by_worker) <= 1, f"the held-up worker did {len(by_worker)} chunks"
    assert sum(pid == here for _, pid in done) >= len(items) - chunk


def test_progress_is_told_in_this_process_up_to_every_item():
    told: list[tuple[int, int]] = []
    Executor(2, LARGE).map(_slow_pids, list(range(300)), Cost.HEAVY, lambda done, total: told.append((done, total)))
    assert told and told[-1] == (300, 300) and [d for d, _ in told] == sorted(d for d, _ in told)
    told.clear()
    Executor(1, LARGE).map(_pids, list(range(300)), Cost.HEAVY, lambda done, total: told.append((done, total)))
    assert told[-1] == (300, 300) and len(told) > 1


def test_a_worker_that_fails_stops_the_claiming_and_its_error_is_raised_here():
    def work(chunk):
        if os.getpid() != here:
            raise ValueError("a worker failed")
        time.sleep(0.01)
        return chunk

    here = os.getpid()
    with pytest.raises(ValueError, match="a worker failed"):
        Executor(2, LARGE).map(work, list(range(200)), Cost.HEAVY)


def test_forked_template_workers_claim_chunks_and_make_the_bytes_one_process_makes(tmp_path, monkeypatch):
    """The render stage on the forked path (the templates split, no fresh process): the whole-volume files in
    this process while the workers claim chunks of the others; the site is the one a single process makes."""
    claimed: list[int] = []
    real = background.Claims.__iter__

    def counted(self):
        claimed.append(self.total)
        return real(self)

    monkeypatch.setattr(background.Claims, "__iter__", counted)
    forked = dataclasses.replace(LARGE, fresh_from=10**9)  # split from one item, never a fresh process
    sites = {}
    for name, jobs in (("inline", 1), ("forked", 2)):
        content = copy_content(tmp_path / name / "content")
        monkeypatch.setattr(sizes, "current", lambda: forked)
        reporter = Reporter()
        build(content, tmp_path / name / "site", reporter, jobs=jobs, cache=False)
        assert not reporter.errors, reporter.errors
        sites[name] = site_files(tmp_path / name / "site")
        assert bool(claimed) == (name == "forked")
    assert sites["forked"] == sites["inline"]


def _puts_then_waits(go, put) -> None:
    put("first")
    if not go.wait(20):  # the parent sets it once it holds the first part, the job still running
        raise RuntimeError("the first part never reached the parent")
    put("second")


def test_a_worker_sends_each_part_of_its_result_back_as_it_is_made():
    """A forked worker's parts reach this process while it still works (a worker that held its share of a
    stage's results to the end held hundreds of MB of a large volume's renderings), in the order put."""
    import multiprocessing

    go = multiprocessing.get_context("fork").Event()
    pending = background.in_parallel_parts(functools.partial(_puts_then_waits, go))
    deadline = time.monotonic() + 20
    while pending.received < 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert pending.received == 1 and pending.running
    go.set()
    assert pending() == ["first", "second"]


def test_without_fork_a_job_putting_parts_runs_here_when_asked(monkeypatch):
    monkeypatch.setattr(background, "_fork_context", lambda: None)
    pending = background.in_parallel_parts(lambda put: [put(n) for n in range(3)] and None)
    assert pending() == [0, 1, 2]


def _tripled_where(items: list[int]) -> list[tuple[int, int]]:
    time.sleep(0.01)
    return [(item * 3, os.getpid()) for item in items]


def test_split_work_comes_back_whole_and_in_order_when_workers_send_it_chunk_by_chunk():
    here = os.getpid()
    done = Executor(2, LARGE).map(_tripled_where, list(range(400)), Cost.HEAVY)
    assert [value for value, _ in done] == [item * 3 for item in range(400)]
    assert any(pid != here for _, pid in done)
