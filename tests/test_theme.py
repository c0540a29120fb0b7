"""A content folder's own theme: templates and static files that replace or extend the default ones."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import REPO, cli, write_list
from generator.commands.build import build
from generator.errors import ThemeError
from generator.reporter import Reporter
from generator.render.theme import TEMPLATE_NAMES, Theme, default_theme_dir, theme_files

DEFAULT = REPO / "themes" / "default"
ABSTRACTS = [
    "We study **sparse** attention for long documents and show a $2\\times$ speed-up on $n$ tokens.",
    "A benchmark of optimisation methods for training large language models with little memory.",
    "Diffusion models for weather forecasting that respect conservation of mass and energy.",
]


@pytest.fixture
def content(tmp_path) -> Path:
    folder = tmp_path / "content"
    folder.mkdir()
    write_list(folder / "workshop.txt", "Sparse Methods Workshop", ABSTRACTS)
    return folder


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def template(content: Path, name: str, text: str) -> Path:
    return write(content / "theme" / "templates" / name, text)


def built(content: Path) -> Path:
    out = content.parent / "site"
    reporter = Reporter()
    build(content, out, reporter)
    assert not reporter.errors, reporter.errors
    return out


def snapshot(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def read(site: Path, name: str) -> str:
    return (site / name).read_text(encoding="utf-8")


def a_paper(site: Path) -> str:
    return read(site, sorted(p.relative_to(site).as_posix() for p in (site / "papers").glob("*.html"))[0])


# -- templates ----------------------------------------------------------------------------------------


def test_every_documented_template_exists_in_the_default_theme():
    for name in TEMPLATE_NAMES:
        assert (default_theme_dir() / "templates" / name).is_file(), name


def test_a_template_can_be_replaced_whole(content):
    template(content, "tags.html", "<!DOCTYPE html>\n<title>{{ site.title }}</title>\n"
                                   "<p>{{ tags | length }} topics:"
                                   "{% for page in tags %} {{ page.tag.name }}{% endfor %}</p>\n")
    site = built(content)
    topics = read(site, "tags/index.html")
    assert topics.startswith("<!DOCTYPE html>\n<title>Sparse Methods Workshop</title>\n<p>")
    assert "site-header" not in topics  # nothing of the default tags.html or base.html is left
    assert "site-header" in read(site, "index.html")  # the other pages keep the default theme


def test_a_template_can_extend_the_default_and_change_one_block(content):
    template(content, "paper.html", '{% extends "default/paper.html" %}\n'
                                    "{% block title %}Paper {{ paper.paper.order }} of {{ site.title }}"
                                    "{% endblock %}\n")
    site = built(content)
    paper = a_paper(site)
    assert re.search(r"<title>Paper \d of Sparse Methods Workshop</title>", paper)
    # Every other block is the default's: the abstract, the citation, the neighbours.
    for kept in ('<h2 id="abstract-heading">Abstract</h2>', 'class="bibtex"', 'class="prev-next"', "site-footer"):
        assert kept in paper, kept


def test_an_extended_base_reaches_every_page(content):
    template(content, "base.html", '{% extends "default/base.html" %}\n{% block head %}{{ super() }}'
                                   '<link rel="stylesheet" href="{{ root }}assets/extra.css">{% endblock %}\n')
    site = built(content)
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 5
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert "assets/extra.css" in html, page.relative_to(site)
        assert "assets/cite.css" in html or not page.parent.name == "papers"  # paper.html's own head block


def test_override_templates_speak_the_configured_language(content):
    write(content / "proceedings.yaml", "language: zh-CN\n")
    template(content, "index.html", '{% extends "default/index.html" %}\n'
                                    '{% block content %}<p class="mine">{{ _("Papers") }}: '
                                    "{{ papers | length }}</p>{{ super() }}{% endblock %}\n")
    home = read(built(content), "index.html")
    assert '<p class="mine">论文列表: 3</p>' in home and '<ol class="paper-list"' in home


def test_a_partial_can_be_overridden_too(content):
    template(content, "_pagination.html", "<nav class=\"mine\">{{ pagination.number }}/{{ pagination.count }}</nav>\n")
    site = built(content)
    topic = sorted(p.relative_to(site).as_posix() for p in (site / "tags").glob("*.html") if p.name != "index.html")[0]
    assert '<nav class="mine">1/1</nav>' in read(site, topic)


# -- static files -------------------------------------------------------------------------------------


def test_static_files_are_replaced_and_added(content):
    write(content / "theme" / "static" / "style.css", "body { color: rebeccapurple; }\n")
    write(content / "theme" / "static" / "extra.css", ".mine { color: teal; }\n")
    write(content / "theme" / "static" / "img" / "logo.svg", "<svg xmlns='http://www.w3.org/2000/svg'/>\n")
    site = built(content)
    assert read(site, "assets/style.css") == "body { color: rebeccapurple; }\n"
    assert read(site, "assets/extra.css") == ".mine { color: teal; }\n"
    assert (site / "assets" / "img" / "logo.svg").is_file()
    assert (site / "assets" / "search.js").read_bytes() == (DEFAULT / "static" / "search.js").read_bytes()


def test_theme_lists_user_folders_first(content):
    template(content, "index.html", "x")
    write(content / "theme" / "static" / "style.css", "x")
    theme = Theme.for_content(content)
    assert theme.template_dirs[0] == content / "theme" / "templates"
    assert theme.static_files()["style.css"] == content / "theme" / "static" / "style.css"


# -- mistakes -----------------------------------------------------------------------------------------


def test_a_syntax_error_names_the_file_and_line_and_keeps_the_previous_site(content):
    site = built(content)
    before = snapshot(site)
    broken = template(content, "tag.html",
                      '{% extends "default/tag.html" %}\n\n{% block content %}{% if %}{% endblock %}\n')
    with pytest.raises(ThemeError) as info:
        build(content, site, Reporter())
    assert str(info.value).startswith(f"{broken}:3: template syntax error"), str(info.value)
    assert snapshot(site) == before


def test_an_error_while_rendering_names_the_file_and_line_and_keeps_the_previous_site(content):
    site = built(content)
    before = snapshot(site)
    template(content, "paper.html", '{% extends "default/paper.html" %}\n{% block title %}\n'
                                    "{{ paper.no_such_field.name }}{% endblock %}\n")
    with pytest.raises(ThemeError) as info:
        build(content, site, Reporter())
    message = str(info.value)
    assert "theme/templates/paper.html:3:" in message and "no_such_field" in message, message
    assert snapshot(site) == before


def test_a_template_extending_itself_gets_a_hint(content):
    template(content, "paper.html", '{% extends "paper.html" %}\n')
    with pytest.raises(ThemeError, match=r'paper.html:1: RecursionError.*extends "default/NAME"'):
        built(content)


def test_extending_a_missing_template_says_which(content):
    template(content, "index.html", '{% extends "default/home.html" %}\n')
    with pytest.raises(ThemeError, match="default/home.html"):
        built(content)


def test_the_cli_reports_a_broken_override_without_a_traceback(content, tmp_path):
    """The command line's ``main`` in this process (an exception would escape it and fail the test); a process's
    exit 2 without a traceback is tests/test_bad_input.py's."""
    template(content, "index.html", "{% extends 'base.html' %}\n{% block content %}{{ nope( }}{% endblock %}\n")
    result = cli("build", "--content", str(content), "--out", str(tmp_path / "site"))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "theme/templates/index.html:2:" in result.stderr, result.stderr


def test_a_themes_files_are_listed_as_sorted_rglob_lists_them_and_a_link_out_is_not_published(tmp_path):
    """The theme's files (its digest, its static files) are walked with os.scandir: the same files in the same
    order as ``sorted(folder.rglob("*"))`` with ``is_file()``, and a link out of the theme still not published."""
    static = tmp_path / "content" / "theme" / "static"
    for name in ("a/b.css", "a-c/z.js", "a.b", ".hidden", "sub/deep/f.css"):
        write(static / name, name)
    write(tmp_path / "outside" / "secret.txt", "secret")
    (static / "leak.txt").symlink_to(tmp_path / "outside" / "secret.txt")
    (static / "alias.css").symlink_to(static / "a" / "b.css")
    (static / "folder-link").symlink_to(tmp_path / "outside")  # a link to a folder: not entered, as rglob
    (static / "broken.css").symlink_to(static / "nowhere.css")
    listed = [p.relative_to(static).as_posix() for p in sorted(static.rglob("*")) if p.is_file()]
    assert [name for name, _, _ in theme_files(static)] == listed
    assert listed == [".hidden", "a/b.css", "a-c/z.js", "a.b", "alias.css", "leak.txt", "sub/deep/f.css"]
    published = Theme.for_content(tmp_path / "content").static_files()
    assert "leak.txt" not in published and published["alias.css"] == static / "alias.css"
    assert published["a/b.css"] == static / "a" / "b.css" and "style.css" in published  # the default's too


def test_the_themes_digest_moves_with_every_edit_of_a_file_and_only_then(tmp_path):
    """A build's digest of its theme (pipeline/reuse.py) keeps each file's digest under its identity: an edit
    in place of the same length, or a file saved by replacing it, moves it; a file left alone does not."""
    from generator.pipeline.reuse import theme_digest

    sheet = write(tmp_path / "content" / "theme" / "static" / "extra.css", ".a { color: red; }\n")
    theme = Theme.for_content(tmp_path / "content")
    first = theme_digest(theme)
    assert theme_digest(theme) == first
    sheet.write_text(".b { color: red; }\n", encoding="utf-8")  # the same length, in place
    second = theme_digest(theme)
    assert second != first
    replacement = write(tmp_path / "extra.css", ".a { color: red; }\n")
    replacement.replace(sheet)  # as an editor saves: another file, by name the same
    assert theme_digest(theme) == first != second


# -- live editing -------------------------------------------------------------------------------------


def test_a_template_is_compiled_once_a_process_and_again_once_edited(content, monkeypatch):
    """Builds in one process (serve, a series' volumes) share what the theme's templates compile to; an
    edited template, or one read by an environment whose filters are passed other things, is compiled anew."""
    import jinja2

    from generator.render.filters import install_functions

    compiled: list[str] = []
    compile_template = jinja2.Environment.compile

    def counting(self, source, name=None, filename=None, *args, **kwargs):
        compiled.append(name)
        return compile_template(self, source, name, filename, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    override = template(content, "paper.html", '{% extends "default/paper.html" %}'
                                               "{% block content %}first-edit{{ super() }}{% endblock %}")
    first = snapshot(built(content))
    assert "paper.html" in compiled
    compiled.clear()
    assert snapshot(built(content)) == first and compiled == []
    override.write_text(override.read_text(encoding="utf-8").replace("first-edit", "second-edit"), encoding="utf-8")
    assert "second-edit" in a_paper(built(content)) and compiled == ["paper.html"]
    compiled.clear()
    # An edit of the same length, the file rewritten in place (its text is kept under its identity): read again.
    override.write_text(override.read_text(encoding="utf-8").replace("second-edit", "thirds-edit"), encoding="utf-8")
    assert "thirds-edit" in a_paper(built(content)) and compiled == ["paper.html"]
    compiled.clear()
    environment = install_functions(Theme.for_content(content).environment())
    environment.get_template("default/paper.html")
    assert compiled == []
    environment = install_functions(Theme.for_content(content).environment())
    environment.filters["teaser"] = jinja2.pass_context(lambda context, text, *args: text)
    environment.get_template("default/paper.html")  # it writes `| teaser`
    assert compiled == ["paper.html"]  # the default theme's, as its loader names it
    # The same environment, its filter passed something else after it loaded the template: compiled anew.
    compiled.clear()
    environment.filters["teaser"] = jinja2.pass_eval_context(lambda context, text, *args: text)
    environment.cache.clear()
    environment.get_template("default/paper.html")
    assert compiled == ["paper.html"]


def test_a_live_site_renders_an_edited_override_and_static_file_again_and_keeps_its_pages_through_a_broken_one(
        content):
    """What serve does on saving a theme's file, in this process: the live site (pipeline/live.py) that serve
    rebuilds with each saved file it is told of (the watcher: tests/test_serve.py's shared server)."""
    from generator.pipeline.live import LiveSite

    override = template(content, "paper.html", '{% extends "default/paper.html" %}\n'
                                               '{% block body_class %}paper first-edit{% endblock %}\n')
    sheet = write(content / "theme" / "static" / "extra.css", ".first-edit {}\n")
    live = LiveSite(content, content.parent / "site")
    try:
        live.build_all()
        papers = [p.relative_to(content).with_suffix(".html").as_posix() for p in (content / "papers").glob("*.md")]
        assert len(papers) == 3 and all(b"first-edit" in live.files[p] for p in papers)
        override.write_text(override.read_text(encoding="utf-8").replace("first-edit", "second-edit"), encoding="utf-8")
        assert not live.rebuild({override.resolve()}).failed
        assert all(b"second-edit" in live.files[p] for p in papers)
        write(sheet, ".second-edit {}\n")
        live.rebuild({sheet.resolve()})
        assert live.files["assets/extra.css"] == b".second-edit {}\n"
        override.write_text('{% extends "default/paper.html" %}\n{% block title %}{% if %}{% endblock %}\n',
                            encoding="utf-8")
        live.rebuild({override.resolve()})
        assert any("theme/templates/paper.html:2" in str(error) for error in live.errors), live.errors
        assert b"second-edit" in live.files[papers[0]]  # the last good pages are still served
    finally:
        live.close()


def test_a_template_compiled_by_one_process_is_read_by_the_next_from_the_users_cache(content, tmp_path,
                                                                                     monkeypatch):
    """What a process compiled is sealed into the user's cache folder (render/compiled.py): the next process
    compiles nothing; a file altered there is not run but compiled again, and so is an edited template."""
    import jinja2

    from generator.render import compiled as compiled_module

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    made: list[str] = []
    compile_template = jinja2.Environment.compile
    monkeypatch.setattr(jinja2.Environment, "compile", lambda self, source, name=None, *args, **kwargs: (
        made.append(name), compile_template(self, source, name, *args, **kwargs))[1])

    def in_a_new_process(run: int) -> dict[str, bytes]:
        """A build of every page (no build cache) by a process that has compiled nothing yet."""
        monkeypatch.setattr(compiled_module.COMPILED, "_code", {})
        made.clear()
        reporter = Reporter()
        build(content, tmp_path / f"site-{run}", reporter, cache=False)
        assert not reporter.errors
        return snapshot(tmp_path / f"site-{run}")

    first = in_a_new_process(1)
    stored = sorted((tmp_path / "user-cache" / "proceedings" / "templates").glob("*/*"))
    assert "paper.html" in made and len(stored) == len(made) > 20
    assert in_a_new_process(2) == first and made == []
    for path in stored:  # altered by someone else: its seal no longer matches, so it is not run
        data = path.read_bytes()
        path.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    assert in_a_new_process(3) == first and len(made) == len(stored)
    template(content, "paper.html", '{% extends "default/paper.html" %}{% block content %}mine{% endblock %}')
    in_a_new_process(4)
    assert "mine" in a_paper(tmp_path / "site-4") and made == ["paper.html"]  # only the override is new


@pytest.mark.slow  # a serve process of its own (3 CPU-s): the live site's test above does the same in process
def test_serve_re_renders_when_an_override_is_edited(content):
    from test_serve import Served, wait_for

    override = template(content, "paper.html", '{% extends "default/paper.html" %}\n'
                                               '{% block body_class %}paper first-edit{% endblock %}\n')
    write(content / "theme" / "static" / "extra.css", ".first-edit {}\n")
    server = Served(content, content.parent / "site")
    try:
        papers = [p.relative_to(content).with_suffix(".html").as_posix() for p in (content / "papers").glob("*.md")]
        assert len(papers) == 3 and "first-edit" in server.page(papers[0])
        override.write_text(override.read_text(encoding="utf-8").replace("first-edit", "second-edit"), encoding="utf-8")
        wait_for(lambda: all("second-edit" in server.page(p) for p in papers), "the edited override never showed")
        write(content / "theme" / "static" / "extra.css", ".second-edit {}\n")
        wait_for(lambda: "second-edit" in server.page("assets/extra.css"), "the edited static file never showed")
        override.write_text('{% extends "default/paper.html" %}\n{% block title %}{% if %}{% endblock %}\n',
                            encoding="utf-8")
        wait_for(lambda: "theme/templates/paper.html:2" in server.page("index.html"),
                 "a broken override was not shown in the browser")
        assert "second-edit" in server.page(papers[0])  # the last good pages are still served
    finally:
        server.stop()


# -- the documentation --------------------------------------------------------------------------------


def test_docs_list_every_template_and_the_variables_it_gets():
    docs = (REPO / "docs" / "themes.md").read_text(encoding="utf-8")
    for name in TEMPLATE_NAMES:
        assert f"### `{name}`" in docs, f"docs/themes.md does not describe {name}"
    for variable in ("site", "root", "paper", "papers", "pagination", "tag", "tags", "count", "meta", "bibtex",
                     "related", "previous", "next", "feed_url", "teaser", "tag_url", "format_date", "_"):
        assert f"`{variable}`" in docs, variable
    assert "docs/themes.md" in (REPO / "README.md").read_text(encoding="utf-8")


def test_docs_blocks_are_the_default_templates_blocks():
    """The blocks docs/themes.md offers for extending are the ones the templates define."""
    docs = (REPO / "docs" / "themes.md").read_text(encoding="utf-8")
    base = (DEFAULT / "templates" / "base.html").read_text(encoding="utf-8")
    for block in re.findall(r"{% block (\w+) %}", base):
        assert f"`{block}`" in docs, block


def test_a_full_copy_of_the_default_theme_builds_the_same_site(content, tmp_path):
    plain = snapshot(built(content))
    shutil.copytree(DEFAULT, content / "theme")
    out = tmp_path / "copy"
    build(content, out, Reporter())
    assert snapshot(out) == plain
