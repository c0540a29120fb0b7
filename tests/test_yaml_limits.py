"""YAML from the content (pages' front matter, proceedings.yaml): an alias bomb is refused with its file and
line, and a huge value is quoted short in a message."""

from __future__ import annotations

import pytest

from generator.commands.build import build
from generator.reporter import Reporter

from record_fixtures import jsonl_content, records, run_cli


# -- 3. YAML alias bombs --------------------------------------------------------------------------

ALIAS_BOMB = ('a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
              + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [{','.join([f'*{chr(97 + i)}'] * 9)}]\n" for i in range(8)))


def test_an_alias_bomb_in_a_page_is_an_error_of_that_page_only(tmp_path):
    content = jsonl_content(tmp_path, records())
    build(content, tmp_path / "site", Reporter())
    page = sorted((content / "papers").glob("*.md"))[0]
    page.write_text(page.read_text(encoding="utf-8").replace("---\nid:", "---\n" + ALIAS_BOMB + "id:", 1),
                    encoding="utf-8")
    reporter = Reporter()
    build(content, tmp_path / "site", reporter)
    (error,) = reporter.errors
    assert str(error.path) == f"papers/{page.name}" and error.line and "expands to more than" in error.message
    assert len(list((tmp_path / "site" / "papers").glob("*.html"))) == 3  # the broken one keeps its last page


def test_an_alias_bomb_in_the_config_stops_the_build_with_a_message(tmp_path):
    content = jsonl_content(tmp_path, records(), config="title: Bomb\n" + ALIAS_BOMB)
    status, err = run_cli("check", "--content", str(content))
    assert status == 2 and "proceedings.yaml:" in err and "expands to more than" in err and len(err) < 500


@pytest.mark.slow  # a front matter of 60,000 numbers, read twice
def test_a_huge_value_is_quoted_short_in_a_message(tmp_path):
    content = jsonl_content(tmp_path, records())
    build(content, tmp_path / "site", Reporter())
    page = sorted((content / "papers").glob("*.md"))[0]
    text = page.read_text(encoding="utf-8").split("generated:")[0] + "---\nA hand-made page.\n"  # not synced
    page.write_text(text.replace("\norder: 1\n", f"\norder: {list(range(60_000))}\n"), encoding="utf-8")
    reporter = Reporter()
    build(content, tmp_path / "site", reporter)
    (error,) = reporter.errors
    assert "must be a whole number, not [0, 1, 2, 3, 4, ...]" in error.message and len(error.message) < 200
