"""Languages: the message catalogues, the language a config picks, and a Chinese build."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jinja2.ext
import pytest
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po
from babel.support import NullTranslations

from conftest import REPO, write_list
from generator.commands.build import build
from generator.model.config import load_config
from generator.text.i18n import (LOCALES_DIR, Interface, catalogue_for, catalogue_locales, install, interface,
                                 plural_forms)
from generator.reporter import Reporter

TEMPLATES = REPO / "themes" / "default" / "templates"
SEARCH_JS = REPO / "themes" / "default" / "static" / "search.js"
SEARCH_HITS_JS = SEARCH_JS.with_name("search-hits.js")  # the results, injected when a reader searches
SERIES_ONLY = {"searched", "searched_some", "volume_failed", "all_in_volume"}  # search across volumes
KEYWORDS = {**DEFAULT_KEYWORDS, "plural_forms": (1, 2)}  # as generator/locales/babel.cfg's command says
# As babel.cfg names it: a template using {% once %} cannot be read without it, and would yield no words.
EXTRACT_OPTIONS = {"extensions": "generator.render.fragments.OnceExtension"}
ABSTRACTS = [
    "We study **sparse** attention for long documents and show a $2\\times$ speed-up on $n$ tokens.",
    "A benchmark of optimisation methods for training large language models with little memory.",
]


# Python modules that show interface words themselves, marked N_ (the default title): babel.cfg reads them too.
PYTHON_MESSAGES = [REPO / "generator" / "text" / "i18n.py"]


def template_messages() -> dict[tuple[str, str | None], tuple[str, str]]:
    """(msgid, context) → (template, line) of every message the default templates (and PYTHON_MESSAGES) ask for."""
    found = {}
    sources = [(path, jinja2.ext.babel_extract) for path in sorted(TEMPLATES.glob("*.html"))]
    for path, method in [*sources, *((path, "python") for path in PYTHON_MESSAGES)]:
        with path.open("rb") as source:
            for line, message, _comments, context in extract(method, source, KEYWORDS, options=EXTRACT_OPTIONS):
                msgid = message if isinstance(message, str) else message[0]
                found.setdefault((msgid, context), (path.name, line))
    return found


def search_messages(site: Path) -> dict:
    """What the volume gives search.js to say: the JSON in assets/search-messages.js, which every page
    loads (a volume's search form carries none of its own)."""
    home = (site / "index.html").read_text(encoding="utf-8")
    assert '<script src="assets/search-messages.js" defer></script>' in home and "data-messages" not in home
    return script_messages(site)[0]


def script_messages(site: Path) -> tuple[dict, dict]:
    """The words of search.js and of cite.js (the Cite box's buttons, made by script), in that file."""
    script = (site / "assets" / "search-messages.js").read_text(encoding="utf-8")
    found = re.fullmatch(r"globalThis\.proceedingsSearchMessages = (.*);\n"
                         r"globalThis\.proceedingsCiteMessages = (.*);\n"
                         r"globalThis\.proceedingsReadingListMessages = (.*);\n", script, re.S)
    return json.loads(found.group(1)), json.loads(found.group(2)), json.loads(found.group(3))


def catalogue(name: str) -> Catalog:
    with (LOCALES_DIR / name / "LC_MESSAGES" / "messages.po").open("rb") as po:
        return read_po(po, locale=name)


# -- the catalogues ---------------------------------------------------------------------------------


def test_simplified_chinese_ships():
    assert "zh_CN" in catalogue_locales()


def test_templates_ask_for_their_words(tmp_path):
    messages = template_messages()
    assert ("Papers", None) in messages and ("← Previous", "paper") in messages
    assert ("%(count)s paper", None) in messages  # a {% trans %} block with a plural
    assert ("No papers match “%(query)s”.", None) in messages  # the search script's words


@pytest.mark.parametrize("name", catalogue_locales())
def test_every_template_message_is_translated(name):
    translated = catalogue(name)
    missing = []
    for (msgid, context), (template, line) in template_messages().items():
        message = translated.get(msgid, context=context)
        strings = (message.string if isinstance(message.string, tuple) else (message.string,)) if message else ("",)
        if message is None or message.fuzzy or not all(strings):
            missing.append(f"{template}:{line}: {msgid!r}" + (f" (context {context!r})" if context else ""))
    assert not missing, f"untranslated in {name}:\n" + "\n".join(missing)


@pytest.mark.parametrize("name", catalogue_locales())
def test_catalogue_has_no_stale_entries_and_passes_babels_checks(name):
    translated = catalogue(name)
    wanted = set(template_messages())
    stale = [(m.id, m.context) for m in translated if m.id and ((m.id if isinstance(m.id, str) else m.id[0]),
                                                               m.context) not in wanted]
    assert not stale, f"{name} translates messages no template asks for: {stale}"
    # Babel's checkers: python-format placeholders match the msgid, and plurals have every form.
    problems = [(m.id, [str(e) for e in errors]) for m, errors in translated.check()]
    assert not problems, problems


@pytest.mark.parametrize("name", catalogue_locales())
def test_plural_forms_match_the_language(name):
    translated = catalogue(name)
    assert translated.num_plurals == get_plural(name).num_plurals  # what gettext says of the language
    assert translated.plural_forms == get_plural(name).plural_forms
    for message in translated:
        if message.pluralizable:
            assert len(message.string) == translated.num_plurals, message.id


def test_chinese_translations_are_used():
    ui = interface("zh-CN")
    assert ui.translations.gettext("Papers") == "论文列表"
    assert ui.translations.ngettext("%(count)s paper", "%(count)s papers", 1) == "%(count)s 篇论文"
    assert ui.translations.pgettext("page", "Next →") != ui.translations.pgettext("paper", "Next →")


@pytest.mark.parametrize("source", [
    '{{ pgettext("paper", "Next →") }}|{{ pgettext("page", "Next →") }}|{{ _("Papers") }}',
    '{{ pgettext("x", "100%% of <%(name)s>", name="<b>&") }}|{{ _("%(count)s of <%(n)s>", count=3, n="<i>") }}',
    '{{ pgettext("in <here>", "said in %(context)s") }}|{{ pgettext("c", "%(context)s", context="<own>") }}',
])
@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_direct_gettext_and_pgettext_say_what_jinjas_own_say(source, language):
    """The theme's ``_`` and ``pgettext`` skip jinja's wrappers (text/i18n.py): the same words, escaped and
    formatted alike, the message's context a variable of its own unless given one."""
    ui = interface(language)
    said = []
    for direct in (True, False):
        env = jinja2.Environment(extensions=["jinja2.ext.i18n"], autoescape=True)
        if direct:
            install(env, ui)
        else:
            env.install_gettext_translations(ui.translations, newstyle=True)  # type: ignore[attr-defined]
        said.append(env.from_string(source).render())
    assert said[0] == said[1]
    assert "&lt;" in said[0] or "→" in said[0]


# -- which catalogue a language tag gets ------------------------------------------------------------


@pytest.mark.parametrize("tag, expected", [
    ("en", "en"), ("en-GB", "en"), ("zh-CN", "zh_CN"), ("zh-Hans", "zh_CN"), ("zh", "zh_CN"),
    ("zh-Hans-CN", "zh_CN"), ("zh-SG", "zh_CN"), ("zh-TW", None), ("zh-Hant", None), ("fr", None),
    ("tlh", None),
])
def test_language_tag_picks_a_catalogue(tag, expected):
    assert catalogue_for(tag) == expected


def test_a_language_without_a_catalogue_gets_the_english_interface():
    ui = interface("fr")
    assert ui.tag == "en" and ui.translations.gettext("Papers") == "Papers"


def load(tmp_path: Path, text: str):
    (tmp_path / "proceedings.yaml").write_text(text, encoding="utf-8")
    warnings = []
    return load_config(tmp_path, warnings.append), warnings


def test_config_warns_about_a_language_without_a_catalogue(tmp_path):
    config, warnings = load(tmp_path, "title: Atelier\nlanguage: fr\n")
    assert config.language == "fr"
    [warning] = warnings
    assert warning.path == tmp_path / "proceedings.yaml" and warning.line == 2
    assert "'fr'" in str(warning) and "English" in str(warning) and "zh-CN" in str(warning)
    assert str(warning).startswith(f"{tmp_path / 'proceedings.yaml'}:2: warning:")


@pytest.mark.parametrize("language", ["en", "en-US", "zh-CN", "zh-Hans", "zh"])
def test_config_is_quiet_about_languages_with_an_interface(tmp_path, language):
    assert load(tmp_path, f"language: {language}\n")[1] == []


# -- counted messages for the search script ---------------------------------------------------------


def test_plural_forms_give_one_form_per_cldr_category():
    english = plural_forms(interface("en"), "%(count)s paper", "%(count)s papers", topic="x")
    assert english == {"one": "{count} paper", "other": "{count} papers"}
    assert plural_forms(interface("zh-CN"), "%(count)s paper", "%(count)s papers") == {"other": "{count} 篇论文"}
    # Russian counts whole numbers in three categories (its "other" is for fractions only).
    russian = Interface(Locale.parse("ru"), NullTranslations())
    assert set(plural_forms(russian, "%(count)s paper", "%(count)s papers")) == {"one", "few", "many"}


def test_search_script_finds_every_message_it_shows(seed_site):
    messages = search_messages(seed_site)
    scripts = SEARCH_JS.read_text(encoding="utf-8") + SEARCH_HITS_JS.read_text(encoding="utf-8")
    used = set(re.findall(r'say\("(\w+)"', scripts))
    used |= {"none", "none_in", "matches", "matches_in", "in_topic"}  # countText picks one of these by name
    used -= SERIES_ONLY  # a series' box says these (test_series_build.py checks its page gives them)
    assert used <= set(messages), f"search.js shows messages the page does not give it: {used - set(messages)}"
    assert messages["language"] == "en" and messages["none"] == "No papers match “{query}”."


# -- a whole build --------------------------------------------------------------------------------


def small_content(tmp_path: Path, config: str, count: int = 2) -> Path:
    content = tmp_path / "content"
    content.mkdir()
    write_list(content / "workshop.txt", "Sparse Methods Workshop", ABSTRACTS[:count])
    (content / "proceedings.yaml").write_text(config, encoding="utf-8")
    return content


def built(tmp_path: Path, config: str, count: int = 2) -> tuple[Path, Reporter]:
    content = small_content(tmp_path, config, count)
    reporter = Reporter()
    build(content, tmp_path / "site", reporter)
    assert not reporter.errors, reporter.errors
    return tmp_path / "site", reporter


def test_chinese_build_speaks_chinese(tmp_path):
    site, reporter = built(tmp_path, "language: zh-CN\ndate: 2026-12-06\n")
    assert not reporter.warnings, reporter.warnings
    pages = {p.relative_to(site).as_posix(): p.read_text(encoding="utf-8") for p in site.rglob("*.html")}
    for name, html in pages.items():
        assert html.startswith('<!DOCTYPE html>\n<html lang="zh-CN">'), name
        assert ">论文列表</a>" in html, f"{name} has no Chinese papers-list link"
        assert "Skip to content" not in html and "Search papers" not in html, name
    home = pages["index.html"]
    assert '<p class="count">2 篇论文 · <a class="glance-link" href="glance.html">概览</a></p>' in home
    assert "2026年12月6日" in home and "由 Proceedings" in home
    # Both papers' pages, whichever order the file system lists them in: the first links the next, the second
    # the previous.
    papers = [html for name, html in pages.items() if name.startswith("papers/")]
    assert len(papers) == 2 and all('<h2 id="abstract-heading">摘要</h2>' in paper for paper in papers)
    assert sorted(("下一篇 →" in paper, "← 上一篇" in paper) for paper in papers) == [(False, True), (True, False)]
    assert "找不到页面" in pages["404.html"] and "个主题" in pages["tags/index.html"]
    messages = search_messages(site)
    assert messages["none"] == "没有与“{query}”匹配的论文。"
    cite, reading = script_messages(site)[1:]
    assert reading == {"label": "阅读列表", "add": "加入阅读列表", "remove": "从阅读列表中移除", "abstract": "摘要",
                       "bibtex": "BibTeX"}
    assert cite["copy_bibtex"] == "复制 BibTeX" and "Ctrl+C" in cite["selected"] and cite["selected"] != (
        "Selected: press Ctrl+C (⌘C on a Mac) to copy")
    assert not any("Copy BibTeX" in paper or "data-copied" in paper for paper in papers)  # made by cite.js


def test_other_languages_keep_their_lang_and_get_english_words(tmp_path):
    site, reporter = built(tmp_path, "language: fr\n")
    home = (site / "index.html").read_text(encoding="utf-8")
    assert '<html lang="fr">' in home and ">Papers</a>" in home
    assert any("no interface translation for language 'fr'" in str(w) for w in reporter.warnings)


def test_english_counts_and_dates(tmp_path):
    site, _ = built(tmp_path, "date: 2026-12-06\n", count=1)
    home = (site / "index.html").read_text(encoding="utf-8")
    assert '<p class="count">1 paper · <a class="glance-link" href="glance.html">At a glance</a></p>' in home
    assert "· December 6, 2026 · 1 paper · built with Proceedings" in home
    assert re.search(r'<p class="count">\d topics? across 1 paper</p>',
                     (site / "tags" / "index.html").read_text(encoding="utf-8"))
