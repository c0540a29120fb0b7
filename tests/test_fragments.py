"""Issue 29: ``{% once %}`` renders a part of a template once per key in a build (render/fragments.py), and a
site built with it is the site built rendering every part every time."""

from __future__ import annotations

import shutil
from pathlib import Path

import jinja2
import pytest

from generator.commands.build import build
from generator.reporter import Reporter
from generator.render import html
from generator.render.fragments import FRAGMENTS, OnceExtension

VENUES = Path(__file__).parent / "fixtures" / "venues"


def environment(templates: dict[str, str]) -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.DictLoader(templates), extensions=[OnceExtension], autoescape=True)


class Counter:
    def __init__(self):
        self.calls = 0

    def __call__(self) -> int:
        self.calls += 1
        return self.calls


def test_a_body_is_rendered_once_per_key_and_given_again_after():
    env = environment({"page": "{% once key %}<b>{{ key }} {{ count() }}</b>{% endonce %}"})
    count, remembered = Counter(), {}
    page = env.get_template("page")
    shown = [page.render(key=key, count=count, **{FRAGMENTS: remembered}) for key in ("a", "b", "a", "a", "b")]
    assert shown == ["<b>a 1</b>", "<b>b 2</b>", "<b>a 1</b>", "<b>a 1</b>", "<b>b 2</b>"]
    assert count.calls == 2


def test_without_a_builds_fragments_the_body_is_rendered_every_time():
    env = environment({"page": "{% once %}{{ count() }}{% endonce %}"})
    count = Counter()
    assert [env.get_template("page").render(count=count) for _ in range(3)] == ["1", "2", "3"]


def test_two_blocks_with_the_same_keys_are_two_fragments():
    env = environment({"page": "{% once k %}{{ count() }}{% endonce %}-{% once k %}{{ count() }}{% endonce %}"})
    count, remembered = Counter(), {}
    assert env.get_template("page").render(k=1, count=count, **{FRAGMENTS: remembered}) == "1-2"
    assert env.get_template("page").render(k=1, count=count, **{FRAGMENTS: remembered}) == "1-2"


def test_a_remembered_fragment_stays_escaped_markup():
    env = environment({"page": "{% once %}{{ text }}{% endonce %}|{% once %}{{ text }}{% endonce %}"})
    shown = env.get_template("page").render(text="<script>", **{FRAGMENTS: {}})
    assert shown == "&lt;script&gt;|&lt;script&gt;"


def test_a_misspelt_block_is_a_template_syntax_error():
    with pytest.raises(jinja2.TemplateSyntaxError):
        environment({"page": "{% once a b %}x{% endonce %}"}).get_template("page")


def site_files(site: Path) -> dict[str, bytes]:
    return {path.relative_to(site).as_posix(): path.read_bytes() for path in sorted(site.rglob("*")) if path.is_file()}


def build_venue(root: Path) -> dict[str, bytes]:
    content = root / "content"
    content.mkdir(parents=True)
    shutil.copy(VENUES / "miniconf-2020-papers.csv", content / "papers.csv")
    (content / "proceedings.yaml").write_text("title: COLT 2020\n", encoding="utf-8")
    build(content, root / "site", Reporter(), jobs=1)
    return site_files(root / "site")


def test_a_site_built_remembering_fragments_is_the_site_built_without(tmp_path, monkeypatch):
    remembered = build_venue(tmp_path / "remembered")
    with monkeypatch.context() as patch:
        forgetful = _forgetful_build(tmp_path / "forgetful", patch)
    assert any(name.startswith("authors/") for name in remembered)  # author lists: items shown many times
    assert remembered.keys() == forgetful.keys()
    assert [name for name in remembered if remembered[name] != forgetful[name]] == []


def _forgetful_build(root: Path, patch: pytest.MonkeyPatch) -> dict[str, bytes]:
    calls = []

    class Forgetful(dict):
        def __setitem__(self, key, value):
            calls.append(key)  # asked to remember: the next page will render it again

    original = html.SiteRenderer.render

    def render(self, template, root_, **context):
        self.fragments = Forgetful()
        return original(self, template, root_, **context)

    patch.setattr(html.SiteRenderer, "render", render)
    files = build_venue(root)
    assert calls  # the templates do use {% once %}
    return files
