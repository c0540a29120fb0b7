"""BLAS on one thread in a command's process (runtime/blas.py): asked for before numpy is first imported, so
OpenBLAS starts no pool of threads; a count the user set is kept."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import write_list

from generator.runtime import blas

REPO = Path(__file__).resolve().parent.parent
HARNESS = """
import contextlib, io, json, sys
from generator.commands.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    status = main(sys.argv[1:])
from threadpoolctl import threadpool_info
print(json.dumps({"status": status, "blas": [pool["num_threads"] for pool in threadpool_info()
                                              if pool["user_api"] == "blas"]}))
"""


def blas_threads(*args: str, cwd: Path, **environment: str) -> list[int]:
    """The thread count of each BLAS library loaded by a fresh ``proceedings ARGS`` (it must succeed)."""
    env = {name: value for name, value in os.environ.items() if name not in blas.VARIABLES}
    env.update(PYTHONPATH=str(REPO), **environment)
    done = subprocess.run([sys.executable, "-c", HARNESS, *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300, check=True)
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["status"] == 0, done.stderr
    return list(report["blas"])


def _content(tmp_path: Path) -> Path:
    content = tmp_path / "content"
    content.mkdir()
    write_list(content / "abstracts.txt", "Workshop on Quiet Cores 2026", [
        "We show that a thread pool started for one product of matrices spins on every core it was given.",
        "This paper asks a linear algebra library for one thread before it loads, and gets it.",
    ])
    return content


def test_a_build_loads_blas_on_one_thread(tmp_path):
    _content(tmp_path)
    threads = blas_threads("build", "--content", "content", "--out", "site", cwd=tmp_path)
    assert threads, "numpy's BLAS was not loaded: the build no longer imports numpy, and this test says nothing"
    assert set(threads) == {1}


def test_a_thread_count_the_user_set_is_kept(tmp_path):
    _content(tmp_path)
    threads = blas_threads("build", "--content", "content", "--out", "site", cwd=tmp_path, OPENBLAS_NUM_THREADS="2")
    assert 2 in threads


def test_one_thread_leaves_a_set_variable_as_it_is(monkeypatch):
    for name in blas.VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    blas.one_thread()
    assert [os.environ[name] for name in blas.VARIABLES] == ["1", "3", "1"]
