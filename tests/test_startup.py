"""What a command imports: only what it runs (the command's start-up is part of every build's time).

Each case runs in a fresh interpreter (``sys.modules`` of this test process holds everything already) and
reports the modules it loaded. ``--version`` loads no pipeline; a warm build of plain lists loads neither
BibTeX's parser, nor icalendar (no programme), nor the title rules (every page is written), which the first
build of the same volume does load for the titles it derives.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import write_list

REPO = Path(__file__).resolve().parent.parent
WATCHED = ("generator.pipeline.stages", "generator.derive.titles", "generator.sources.bibtex", "bibtexparser",
           "icalendar", "jinja2", "markdown_it", "latex2mathml", "pylatexenc", "urllib.request")
HARNESS = """
import contextlib, io, json, sys
from generator.commands.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    try:
        status = main(sys.argv[2:])
    except SystemExit as exit:
        status = exit.code
print(json.dumps({"status": status, "loaded": [name for name in json.loads(sys.argv[1]) if name in sys.modules]}))
"""


def loaded(*args: str, cwd: Path) -> set[str]:
    """The WATCHED modules a fresh ``proceedings ARGS`` loaded (it must succeed)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", HARNESS, json.dumps(WATCHED), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300, check=True)
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["status"] == 0, done.stderr
    return set(report["loaded"])


def test_version_loads_no_pipeline(tmp_path):
    assert loaded("--version", cwd=tmp_path) == set()


def test_a_warm_build_loads_only_what_it_uses(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    write_list(content / "abstracts.txt", "Workshop on Quiet Rebuilds 2026", [
        "We study caches for static site generators and show that a rebuild of an unchanged volume "
        "can keep every file it wrote before.",
        "This paper introduces LazyLoad, a method that imports a library only when a build needs it.",
    ])
    first = loaded("build", "--content", "content", "--out", "site", cwd=tmp_path)
    assert {"generator.pipeline.stages", "generator.derive.titles", "jinja2"} <= first  # titles derived, pages made
    assert {"markdown_it", "latex2mathml", "pylatexenc"} <= first  # abstracts rendered, citations written
    warm = loaded("build", "--content", "content", "--out", "site", cwd=tmp_path)
    assert "generator.pipeline.stages" in warm
    assert not warm & {"generator.derive.titles", "generator.sources.bibtex", "bibtexparser", "icalendar"}
    # Every abstract's rendering from the cache, every citation file kept: no Markdown or LaTeX engine loaded.
    assert not warm & {"markdown_it", "latex2mathml", "pylatexenc"}
    assert "urllib.request" not in warm  # (with http.client, email and ssl: xml.sax.saxutils brought it, 13 ms)
    assert (tmp_path / "site" / "index.html").is_file()
