"""Typed template contexts (generator/render/contexts.py): docs/themes.md's variable tables are made from
them, and every page type hands its template exactly the variables its TypedDict names."""

from __future__ import annotations

import collections
import re
import os
import subprocess
import sys

import pytest
from jinja2 import meta

from series_fixtures import SMALL, make_series
from conftest import REPO
from contents_fixtures import colt2020_csv, colt2020_ics
from generator.commands.build import build
from generator.reporter import Reporter
from generator.render import contents
from generator.render.contexts import CONTEXTS, DOCS, PARTIALS, documented, required, table, variables
from generator.render.filters import install_functions
from generator.render.html import SiteRenderer
from generator.render.theme import TEMPLATE_NAMES, Theme, default_theme_dir

DEFAULT = default_theme_dir()
LAYOUTS = {"base.html", "series-base.html"}  # extended, never rendered by a page type


def test_the_docs_tables_are_the_typed_contexts():
    text = DOCS.read_text(encoding="utf-8")
    assert documented(text) == text, "run `python -m generator.render.contexts` and commit docs/themes.md"


def test_a_description_changed_in_code_changes_the_docs_table():
    made = table(CONTEXTS["tag.html"], "variable")
    assert "| `tag` | the topic: `tag.name`, `tag.slug` |" in made
    assert "| `previous`, `next` |" in table(CONTEXTS["paper.html"], "variable")  # one description, one row
    assert set(variables(CONTEXTS["tag.html"])) == {"tag", "papers", "count", "pagination", "feed"}
    assert required(CONTEXTS["index.html"]) == {"papers", "award_count"}  # the rest: split or not


def test_every_page_template_has_a_context():
    assert set(CONTEXTS) == set(TEMPLATE_NAMES) - LAYOUTS


@pytest.fixture
def rendered(monkeypatch) -> dict[str, set[frozenset[str]]]:
    """The variables each template is rendered with (beside ``site`` and ``root``), recorded."""
    seen: dict[str, set[frozenset[str]]] = collections.defaultdict(set)
    render = SiteRenderer.render

    def recording(self, template, root, **context):
        seen[template].add(frozenset(context))
        return render(self, template, root, **context)

    monkeypatch.setattr(SiteRenderer, "render", recording)
    return seen


def test_every_page_type_hands_its_template_the_variables_its_context_names(rendered, tmp_path, monkeypatch):
    monkeypatch.setattr(contents, "CONTENTS_PAPERS", 20)  # the contents split into pages, as a large volume's
    monkeypatch.setattr(contents, "PAGE_PAPERS", 12)
    volume = tmp_path / "volume"
    volume.mkdir()
    (volume / "papers.csv").write_text(colt2020_csv(count=30), encoding="utf-8")
    (volume / "colt.ics").write_bytes(colt2020_ics().encode("utf-8"))  # a programme: programme.html
    (volume / "proceedings.yaml").write_text("title: Learning Theory\ndate: 2026-06-30\n", encoding="utf-8")
    build(volume, tmp_path / "site", Reporter(), cache=False)
    page = next((volume / "papers").glob("*.md"))  # a page renamed: a redirect from its old address
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("\nslug: ", "\nold_slugs: [an-old-address]\nslug: ", 1), encoding="utf-8")
    build(volume, tmp_path / "site", Reporter(), cache=False)
    build(make_series(tmp_path, SMALL), tmp_path / "series", Reporter(), cache=False)
    assert set(rendered) == set(CONTEXTS)
    for template, calls in rendered.items():
        names = set(variables(CONTEXTS[template]))
        needed = required(CONTEXTS[template])
        for given in calls:
            assert needed <= given <= names, (template, sorted(given))


def test_a_context_names_no_variable_the_page_type_does_not_give(rendered, tmp_path):
    """The other way round: a TypedDict naming a variable no page type gives fails the test above."""
    build(make_series(tmp_path, SMALL), tmp_path / "series", Reporter(), cache=False)
    given = set().union(*rendered["people.html"])
    assert given == set(variables(CONTEXTS["people.html"]))


def test_what_every_page_shares_is_what_the_page_types_declare(tmp_path):
    """The context every page shares beyond its own (the topics' and authors' addresses, the sessions' words,
    where each group's heading is) is filled from the page types' ``shows``, none of it by the renderer itself:
    a page type that declares nothing puts nothing there."""
    from generator.render.outputs import SiteParts
    from generator.render.page_types import PAGE_TYPES
    from generator.render.people_topics import group_tags
    from test_publish import published

    volume = tmp_path / "volume"
    volume.mkdir()
    (volume / "papers.csv").write_text(colt2020_csv(count=12), encoding="utf-8")  # topics, authors, sessions
    _, papers, site, config = published(volume)
    renderer = SiteRenderer(Theme.for_content(volume), config, site)
    before = dict(renderer.shared)
    renderer.listing(papers)
    filled = {name for name, value in renderer.shared.items() if value != before.get(name)}
    parts = SiteParts(papers, group_tags(papers), renderer.people.people)
    declared = {name: value for page_type in PAGE_TYPES if page_type.shows is not None
                for name, value in page_type.shows(renderer, parts).shared.items()}
    assert {"tag_urls", "author_urls", "group_links"} <= filled <= set(declared), (filled, sorted(declared))
    assert {name: renderer.shared[name] for name in declared} == declared


def test_the_contexts_module_writes_the_tables_in(tmp_path):
    docs = tmp_path / "themes.md"
    text = DOCS.read_text(encoding="utf-8")
    docs.write_text(text.replace("| `tag` | the topic:", "| `tag` | stale words:"), encoding="utf-8")
    subprocess.run([sys.executable, "-m", "generator.render.contexts", str(docs)], check=True,
                   env={**os.environ, "PYTHONPATH": str(REPO)})
    assert docs.read_text(encoding="utf-8") == text


def test_each_partial_names_what_it_reads_of_the_page_that_includes_it():
    """A partial's TypedDict (``PARTIALS``) names exactly the variables it reads that it does not set itself
    and that are not the environment's globals: the page's context it needs."""
    theme = Theme((DEFAULT / "templates",), (DEFAULT / "static",))
    env = install_functions(theme.environment())
    partials = sorted(path.name for path in (DEFAULT / "templates").glob("_*.html"))
    assert sorted(PARTIALS) == partials
    for name in partials:
        source = (DEFAULT / "templates" / name).read_text(encoding="utf-8")
        own = set(re.findall(r"{%-? *(?:set|for|import [^%]* as|macro) +(\w+)", source))
        read = meta.find_undeclared_variables(env.parse(source)) - set(env.globals) - own
        assert read == set(variables(PARTIALS[name])), name
