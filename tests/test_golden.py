"""Golden files: the seed site's pages, byte for byte.

After an intended change, regenerate with
    python -m pytest tests/test_golden.py --update-golden
and review the diff of tests/golden/.
"""

import shutil
from pathlib import Path

GOLDEN = Path(__file__).parent / "golden" / "seed"


def site_files(site: Path) -> dict[str, bytes]:
    """Generated pages and data; theme assets are copied verbatim and not golden."""
    return {
        p.relative_to(site).as_posix(): p.read_bytes()
        for p in sorted(site.rglob("*"))
        if p.is_file() and p.relative_to(site).parts[0] != "assets"
    }


def test_seed_site_matches_golden_files(seed_site, update_golden):
    actual = site_files(seed_site)
    if update_golden:
        shutil.rmtree(GOLDEN, ignore_errors=True)
        for name, data in actual.items():
            (GOLDEN / name).parent.mkdir(parents=True, exist_ok=True)
            (GOLDEN / name).write_bytes(data)
    expected = site_files(GOLDEN)
    assert sorted(actual) == sorted(expected), "the set of generated files changed (run with --update-golden)"
    changed = [name for name in actual if actual[name] != expected[name]]
    assert not changed, f"pages differ from tests/golden/seed (run with --update-golden and review): {changed}"


def test_bundled_pages_are_up_to_date(seed_content):
    """content/papers/ is what the generator makes of the list: building changes nothing."""
    from generator.pipeline import sync_project
    from generator.project import load_project
    from generator.reporter import Reporter

    reporter = Reporter()
    plan = sync_project(load_project(seed_content, reporter), reporter, apply=False)
    assert plan.changes == [], "content/papers/ is stale: run `proceedings build` and commit the pages"
