"""A test run touches neither the repository's built site nor the user's home (tests/conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import conftest
from conftest import GUARDED, REAL_CACHE, REPO, SESSION_HOME, copy_content, scratch_folder, snapshot
from generator.commands.build import build
from generator.reporter import Reporter
from generator.runtime.cache import key_file


def test_tests_run_in_an_empty_folder_outside_the_repository():
    # `proceedings check` without --site reads ./site: run from the repository, a test would check the
    # site a developer built there (the README's order: build, then test) instead of its own.
    assert not Path.cwd().resolve().is_relative_to(REPO)
    assert not Path("site").exists() and not Path("content").exists()


def test_the_build_cache_key_lives_in_the_sessions_cache_not_the_users(tmp_path):
    session = Path(os.environ[SESSION_HOME])
    assert key_file().is_relative_to(session) and not key_file().is_relative_to(REAL_CACHE)
    before = snapshot(GUARDED)
    content = copy_content(tmp_path / "content")
    reporter = Reporter()
    build(content, tmp_path / "site", reporter)
    assert not reporter.errors
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "generator", "build", "--content", str(content),
                           "--out", str(tmp_path / "again")], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert key_file().is_file(), "the build made its cache key in the session's cache"
    assert snapshot(GUARDED) == before, "a build wrote into the real user cache"


def test_temporary_files_are_in_memory_only_where_the_user_named_no_place(tmp_path, monkeypatch, request):
    """A tmpfs (/dev/shm) holds the session's folder, and every tmp_path in it unless --basetemp says where they
    go; TMPDIR keeps both where it says; a folder that is missing, or too small, is not taken."""
    session = Path(os.environ[SESSION_HOME])
    named = any(arg.startswith("--basetemp") for arg in request.config.invocation_params.args)
    assert tmp_path.is_relative_to(session) == (session.is_relative_to(conftest.RAM_FOLDER) and not named)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    assert scratch_folder() is None
    monkeypatch.delenv("TMPDIR")
    monkeypatch.setattr(conftest, "RAM_FOLDER", tmp_path / "no-such-folder")
    assert scratch_folder() is None
    monkeypatch.setattr(conftest, "RAM_FOLDER", tmp_path)
    monkeypatch.setattr(conftest, "RAM_ROOM", 1 << 60)  # more room than any machine has
    assert scratch_folder() is None
    monkeypatch.setattr(conftest, "RAM_ROOM", 1)
    assert scratch_folder() == (tmp_path if sys.platform.startswith("linux") else None)
