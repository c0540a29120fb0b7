"""`pip install .` into a fresh virtual environment gives a working tool."""

import pytest
import subprocess
import venv

from conftest import REPO, copy_content

pytestmark = pytest.mark.slow  # starts whole processes: CI runs it, the fast lane does not


def test_installed_tool_builds_from_another_directory(tmp_path):
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    install = subprocess.run([str(python), "-m", "pip", "install", "-q", str(REPO)],
                             capture_output=True, text=True, timeout=900)
    assert install.returncode == 0, install.stderr[-3000:]
    elsewhere = tmp_path / "elsewhere"
    content = copy_content(elsewhere / "content")
    result = subprocess.run([str(env_dir / "bin" / "proceedings"), "build"], cwd=elsewhere,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert (elsewhere / "site" / "index.html").is_file()
    assert (elsewhere / "site" / "assets" / "style.css").is_file(), "the default theme must travel in the package"
    assert len(list((elsewhere / "site" / "papers").glob("*.html"))) == 19
    assert content.exists()
