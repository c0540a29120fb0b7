"""The page checkers the browser tests share: axe-core and the Nu HTML Checker (vnu.jar).

axe-core comes from the PyPI package axe-playwright-python, which bundles it. vnu.jar comes from the
npm package vnu-jar, pinned below, installed once into ~/.cache/proceedings-tests/vnu (npm's own cache
makes a reinstall quick) and run with Java 17 or newer. Without them the tests that need them skip,
except under CI=true, where they fail. The fixtures reach every module through conftest.py.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import unavailable

IMPACTS = {"serious", "critical"}


@pytest.fixture(scope="module")
def axe():
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        unavailable("axe-playwright-python is not installed (pip install -e '.[test]')")
    return Axe()


def violations(axe, page, where: str) -> list[str]:
    found = axe.run(page, options={"resultTypes": ["violations"]}).response["violations"]
    return [f"{where}: {v['id']} ({v['impact']}) {v['help']} — " + "; ".join(
                f"{' '.join(node['target'])}: {node['failureSummary'].splitlines()[-1].strip()}"
                for node in v["nodes"][:3]) + (f" (and {len(v['nodes']) - 3} more)" if len(v["nodes"]) > 3 else "")
            for v in found if v["impact"] in IMPACTS]


VNU_JAR_VERSION = "26.9.27"
# Where vnu.jar is installed, once: PROCEEDINGS_TEST_TOOLS, else .tools/ in the repository (git ignores it);
# never the user's home, and not the session's temporary cache either (it would be downloaded every run).
TOOLS = Path(os.environ.get("PROCEEDINGS_TEST_TOOLS") or Path(__file__).resolve().parents[2] / ".tools")
CACHE = TOOLS / "vnu"


def install_vnu() -> Path:
    # One install at a time: two test workers installing at once leave a half-written jar the other runs.
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _install_vnu()


def _install_vnu() -> Path:
    jar = CACHE / VNU_JAR_VERSION / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
    if jar.is_file():
        return jar
    npm = shutil.which("npm")
    if not npm:
        unavailable("npm is not installed, so vnu.jar cannot be (apt-get install -y npm)")
    # --ignore-scripts: vnu-jar's postinstall would download a Java runtime; we use the system's.
    # --cache: npm's own download cache beside it, not ~/.npm.
    done = subprocess.run([npm, "install", "--no-save", "--ignore-scripts", "--no-audit", "--no-fund",
                           "--cache", str(TOOLS / "npm-cache"), "--prefix", str(jar.parents[4]),
                           f"vnu-jar@{VNU_JAR_VERSION}"],
                          capture_output=True, text=True, timeout=300)
    if done.returncode or not jar.is_file():
        unavailable(f"npm could not install vnu-jar@{VNU_JAR_VERSION}: {done.stderr.strip()[-500:]}")
    return jar


@pytest.fixture(scope="session")
def vnu(tmp_path_factory):
    """A function that checks files with vnu.jar and returns its messages."""
    java = shutil.which("java")
    if not java:
        unavailable("Java is not installed, so vnu.jar cannot run (apt-get install -y default-jre-headless)")
    jar = install_vnu()

    def check(files: list[Path], *options: str) -> list[dict]:
        done = subprocess.run([java, "-jar", str(jar), "--format", "json", "--stdout", *options, *map(str, files)],
                              capture_output=True, text=True, timeout=300)
        try:
            return json.loads(done.stdout)["messages"]
        except (ValueError, KeyError):
            pytest.fail(f"vnu.jar did not report (exit {done.returncode}): {done.stderr.strip()[-1000:]}")
    return check


def report(messages: list[dict], site: Path) -> list[str]:
    lines = []
    for m in messages:
        where = Path(m.get("url", "").removeprefix("file:")).resolve()
        name = where.relative_to(site.resolve()).as_posix() if where.is_relative_to(site.resolve()) else m.get("url")
        extract = " ".join(m.get("extract", "").split())
        lines.append(f"{name} line {m.get('lastLine', '?')}: {m['message']}"
                     + (f" — in “{extract}”" if extract else ""))
    return lines
