"""Golden files: the seed site's pages and a small series's, byte for byte.

After an intended change, regenerate both with
    python -m pytest tests/test_golden.py --update-golden
and review the diff of tests/golden/ (seed/: the bundled content; series/: three volumes of
tests/series_fixtures.py, built with the command line as a user would).
"""

import difflib
import shutil
from pathlib import Path

from series_fixtures import SMALL, make_series
from generator.commands.cli import main

GOLDEN = Path(__file__).parent / "golden"


def site_files(site: Path) -> dict[str, bytes]:
    """Generated pages and data; theme assets (a site's and each volume's) are copied verbatim and not golden."""
    return {
        p.relative_to(site).as_posix(): p.read_bytes()
        for p in sorted(site.rglob("*"))
        if p.is_file() and "assets" not in p.relative_to(site).parts
    }


def first_difference(name: str, expected: bytes, actual: bytes) -> str:
    """A short unified diff of one file, so that a failure shows what moved without opening it."""
    lines = difflib.unified_diff(expected.decode("utf-8", "replace").splitlines(),
                                 actual.decode("utf-8", "replace").splitlines(),
                                 f"golden/{name}", f"built/{name}", n=1, lineterm="")
    return "\n".join(list(lines)[:30])


def assert_matches_golden(actual: dict[str, bytes], name: str, update: bool) -> None:
    golden = GOLDEN / name
    if update:
        shutil.rmtree(golden, ignore_errors=True)
        for path, data in actual.items():
            (golden / path).parent.mkdir(parents=True, exist_ok=True)
            (golden / path).write_bytes(data)
    expected = site_files(golden)
    assert sorted(actual) == sorted(expected), (
        f"the set of generated files changed (run with --update-golden): "
        f"new {sorted(set(actual) - set(expected))}, gone {sorted(set(expected) - set(actual))}")
    changed = [path for path in actual if actual[path] != expected[path]]
    assert not changed, (f"pages differ from tests/golden/{name} (run with --update-golden and review): {changed}\n"
                         + first_difference(changed[0], expected[changed[0]], actual[changed[0]]))


def test_seed_site_matches_golden_files(seed_site, update_golden):
    assert_matches_golden(site_files(seed_site), "seed", update_golden)


def test_series_site_matches_golden_files(tmp_path, update_golden):
    content = make_series(tmp_path, SMALL)
    assert main(["build", "--content", str(content), "--out", str(tmp_path / "site"), "--no-cache"]) == 0
    assert_matches_golden(site_files(tmp_path / "site"), "series", update_golden)


def test_bundled_pages_are_up_to_date(seed_content):
    """content/papers/ is what the generator makes of the list: building changes nothing."""
    from generator.pipeline.rendering import sync_project
    from generator.content.project import load_project
    from generator.reporter import Reporter

    reporter = Reporter()
    plan = sync_project(load_project(seed_content, reporter), reporter, apply=False)
    assert plan.changes == [], "content/papers/ is stale: run `proceedings build` and commit the pages"
