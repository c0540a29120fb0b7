"""The checks every Pages workflow we ship must pass: this repository's and the one `proceedings new` writes.

check-jsonschema and zizmor come with the ``test`` extra. Without them a check
is skipped with the reason, except in CI (``CI=true``), where a missing tool
fails: CI must not pass by skipping the audit.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NoReturn

import pytest

REPO = Path(__file__).resolve().parent.parent
ZIZMOR_CONFIG = REPO / ".github" / "zizmor.yml"  # our pinning policy, applied to every workflow we ship


def tool(name: str) -> str:
    """The tool's path (the running Python's scripts folder first), or skip/fail when absent."""
    search = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    found = shutil.which(name, path=search)
    if found:
        return found
    missing(name)


def missing(name: str) -> NoReturn:
    message = f"{name} is not installed (python -m pip install -e '.[test]')"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


def schema_problems(path: Path, schema: str = "vendor.github-workflows") -> str:
    """check-jsonschema against one of its vendored schemas (offline): empty when valid. Its command line runs
    in this process (click's runner): a process of its own would only add an interpreter's start-up."""
    try:
        from check_jsonschema import main
        from click.testing import CliRunner
    except ImportError:
        missing("check-jsonschema")
    with contextlib.chdir(path.parent):
        result = CliRunner().invoke(main, ["--builtin-schema", schema, str(path)])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return "" if result.exit_code == 0 else result.output


def zizmor_findings(root: Path) -> list[dict]:
    """zizmor --offline over ``root/.github/`` (workflows and Dependabot), under our policy."""
    result = subprocess.run([tool("zizmor"), "--offline", "--config", str(ZIZMOR_CONFIG), "--format", "json",
                             ".github/"], capture_output=True, text=True, cwd=root)
    assert result.returncode in (0, 10, 11, 12, 13, 14), result.stderr  # 1x: findings, judged by the caller
    return json.loads(result.stdout or "[]")
