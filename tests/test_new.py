"""`proceedings new`: a folder that builds as it is, links that resolve, a workflow that installs the tool.

The generated workflow also runs every check of tests/test_workflow.py (schema,
zizmor, least privilege, pins): that module is parametrized over it.
"""

from __future__ import annotations

import os
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
import yaml

from conftest import REPO, cli
from generator.commands import scaffold
from generator.commands.cli import main
from generator.commands.scaffold import PLACEHOLDER, InstallSource, NewProject

TITLE = "Workshop on Tidy Proceedings 2026"
SOURCE = "git+https://github.com/example/proceedings@v0.1.0"
EXPECTED = {".github/dependabot.yml", ".github/workflows/pages.yml", ".gitignore", "README.md",
            ".github/ISSUE_TEMPLATE/correction.yml", ".github/workflows/correction.yml",
            "content/proceedings.yaml", "content/workshop-on-tidy-proceedings-2026.txt"}
BASE_URL = "https://example.github.io/workshop/"


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def new(folder: Path, *options: str) -> int:
    return main(["new", str(folder), *options])


def install_step(folder: Path) -> dict:
    workflow = yaml.safe_load((folder / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8"))
    return next(s for s in workflow["jobs"]["build"]["steps"] if s["name"] == "Install Proceedings")


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("new") / "workshop"
    assert new(folder, "--title", TITLE, "--install", SOURCE) == 0
    return folder


@pytest.fixture(scope="module", params=[None, BASE_URL])
def built(request, project, tmp_path_factory) -> tuple[Path, str]:
    """The new folder's site, without a base URL and with one as on Pages; and the base URL."""
    content = copy_folder(project / "content", tmp_path_factory.mktemp("built") / "content")
    out = content.parent / "site"
    options = ["--base-url", request.param] if request.param else []
    assert main(["build", "--content", str(content), "--out", str(out), *options]) == 0
    return out, request.param or ""


def test_writes_a_repository_shaped_folder(project):
    assert set(files_of(project)) == EXPECTED
    listed = (project / "content" / "workshop-on-tidy-proceedings-2026.txt").read_text(encoding="utf-8")
    first, *abstracts = listed.strip().split("\n\n")
    assert first == TITLE and 2 <= len(abstracts) <= 3
    assert "$" in listed and "**" in listed
    assert yaml.safe_load((project / "content" / "proceedings.yaml").read_text(encoding="utf-8")) == {"title": TITLE}
    ignored = [line for line in (project / ".gitignore").read_text(encoding="utf-8").splitlines()
               if not line.startswith("#")]
    assert ignored == ["/site/", "/.site.*"]


def test_builds_without_errors_or_warnings(project, tmp_path, capsys):
    copy = copy_folder(project, tmp_path / "workshop")
    assert main(["build", "--content", str(copy / "content"), "--out", str(tmp_path / "site")]) == 0
    err = capsys.readouterr().err
    assert "built 3 papers" in err and "(0 errors, 0 warnings)" in err, err
    assert len(list((copy / "content" / "papers").glob("*.md"))) == 3


def test_builds_from_the_command_line_as_the_readme_says(project, tmp_path):
    copy = copy_folder(project, tmp_path / "workshop")
    result = cli("build", cwd=copy)  # from the folder, with the defaults: content/ → site/ (a process: test_cli)
    assert result.returncode == 0, result.stderr
    assert "built 3 papers" in result.stderr and "(0 errors, 0 warnings)" in result.stderr
    assert (copy / "site" / "index.html").is_file()


def test_git_add_takes_the_sources_and_pages_not_the_site(project, tmp_path):
    if not scaffold._git(tmp_path, "--version"):
        pytest.skip("git is not installed")
    copy = copy_folder(project, tmp_path / "workshop")
    assert cli("build", cwd=copy).returncode == 0
    subprocess.run(["git", "init", "-q", str(copy)], check=True)
    status = scaffold._git(copy, "status", "--porcelain", "--untracked-files=all")
    added = sorted(line[3:] for line in status.splitlines())
    assert set(added) == EXPECTED | {f"content/papers/{p.name}" for p in (copy / "content" / "papers").iterdir()}


def test_the_title_appears(built):
    site, _ = built
    index = (site / "index.html").read_text(encoding="utf-8")
    assert f"<title>{TITLE}" in index or f"{TITLE}</title>" in index
    assert TITLE in Page.parse(site / "index.html").h1


def test_every_internal_link_resolves(built):
    site, base_url = built
    pages = sorted(site.rglob("*.html"))
    assert len(pages) >= 6
    broken = [f"{page.relative_to(site)}: {link}" for page in pages for link in Page.parse(page).links
              if not resolves(site, base_url, page, link)]
    assert not broken, broken


def test_install_source_lands_in_the_workflow(project):
    step = install_step(project)
    assert step["env"]["PROCEEDINGS"] == SOURCE
    assert step["run"] == 'python -m pip install "$PROCEEDINGS"'
    readme = (project / "README.md").read_text(encoding="utf-8")
    line = (project / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8").splitlines()
    number = int(readme.split("Line ", 1)[1].split()[0])
    assert line[number - 1].strip() == f'PROCEEDINGS: "{SOURCE}"', "the README names the line to change"
    assert f'python -m pip install "{SOURCE}"' in readme
    assert "[Proceedings](https://github.com/example/proceedings)" in readme


def test_the_readme_walks_from_a_list_to_a_live_site(project):
    readme = (project / "README.md").read_text(encoding="utf-8")
    for step in ("content/workshop-on-tidy-proceedings-2026.txt", "proceedings build", "site/index.html",
                 "git init", "git push", "GitHub Actions", "proceedings serve"):
        assert step in readme, step
    assert readme.index("proceedings build") < readme.index("git push") < readme.index("GitHub Actions")


def test_unknown_source_is_a_placeholder_the_workflow_refuses(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(scaffold, "detect_install", lambda: None)
    assert new(tmp_path / "w", "--title", TITLE) == 0
    assert "warning: where the workflow installs Proceedings from is not known" in capsys.readouterr().err
    step = install_step(tmp_path / "w")
    assert step["env"]["PROCEEDINGS"] == PLACEHOLDER
    refused = subprocess.run(["bash", "-c", step["run"]], env={**os.environ, "PROCEEDINGS": PLACEHOLDER},
                             capture_output=True, text=True)
    assert refused.returncode == 1 and "::error file=.github/workflows/pages.yml::" in refused.stdout
    assert "Change it before you publish" in (tmp_path / "w" / "README.md").read_text(encoding="utf-8")


def test_title_defaults_to_the_folder_name(tmp_path):
    assert new(tmp_path / "ICML_2026-workshop", "--install", SOURCE) == 0
    assert (tmp_path / "ICML_2026-workshop" / "content" / "icml-2026-workshop.txt").read_text(
        encoding="utf-8").startswith("ICML 2026 Workshop\n")


def test_a_title_without_latin_letters_names_the_list_abstracts(tmp_path):
    assert new(tmp_path / "w", "--title", "机器学习研讨会", "--install", SOURCE) == 0
    assert (tmp_path / "w" / "content" / "abstracts.txt").read_text(encoding="utf-8").startswith("机器学习研讨会\n")


def test_a_title_with_quotes_and_colons_stays_valid_yaml(tmp_path):
    title = 'NeurIPS: "Tidy" Workshop # 1'
    assert new(tmp_path / "w", "--title", title, "--install", SOURCE) == 0
    config = yaml.safe_load((tmp_path / "w" / "content" / "proceedings.yaml").read_text(encoding="utf-8"))
    assert config == {"title": title}


def test_non_empty_folder_refused_and_left_alone(tmp_path, capsys):
    folder = tmp_path / "taken"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    before = files_of(folder)
    assert new(folder, "--title", TITLE, "--install", SOURCE) == 2
    err = capsys.readouterr().err
    assert "not empty (notes.txt)" in err and "nothing was written" in err and "Traceback" not in err
    assert files_of(folder) == before and sorted(p.name for p in folder.iterdir()) == ["notes.txt"]


def test_a_file_in_the_way_is_refused(tmp_path, capsys):
    (tmp_path / "file").write_text("mine", encoding="utf-8")
    assert new(tmp_path / "file", "--install", SOURCE) == 2
    assert "is not a folder" in capsys.readouterr().err
    assert (tmp_path / "file").read_text(encoding="utf-8") == "mine"


@pytest.mark.parametrize("options, message", [
    (["--title", "two\nlines"], "one line"),
    (["--title", "two\u2028lines"], "one line"),
    (["--title", "  "], "the title is empty"),
    (["--install", "proceedings; ${{ github.token }}"], "--install wants a pip requirement"),
    (["--install=--index-url=https://evil.example/"], "--install wants a pip requirement"),
    (["--install", "git+https://me:secret@github.com/o/r"], "user name or token"),
])
def test_bad_options_exit_2_with_a_message(tmp_path, capsys, options, message):
    assert new(tmp_path / "w", *options) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "w").exists()


def test_an_empty_folder_is_fine(tmp_path):
    (tmp_path / "w").mkdir()
    assert new(tmp_path / "w", "--install", SOURCE) == 0
    assert set(files_of(tmp_path / "w")) == EXPECTED - {"content/workshop-on-tidy-proceedings-2026.txt"} | {
        "content/w.txt"}


def test_deterministic(tmp_path):
    for name in ("one", "two"):
        assert new(tmp_path / name / "workshop", "--title", TITLE, "--install", SOURCE) == 0
    assert files_of(tmp_path / "one" / "workshop") == files_of(tmp_path / "two" / "workshop")


def test_from_the_command_line(tmp_path):
    result = cli("new", "workshop", "--title", TITLE, "--install", SOURCE, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "created 'Workshop on Tidy Proceedings 2026' in workshop/" in result.stderr
    assert set(files_of(tmp_path / "workshop")) == EXPECTED
    refused = cli("new", "workshop", cwd=tmp_path)
    assert refused.returncode == 2 and refused.stderr.startswith("error: workshop: is not empty")


def test_workflow_pins_match_this_repository():
    """The template's actions are this repository's (Dependabot updates those: keep the copy in step)."""
    def uses(text: str) -> list[str]:
        return [line.strip() for line in text.splitlines() if line.strip().startswith("uses:")]

    ours = (REPO / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8")
    template = scaffold_template("github/workflows/pages.yml")
    assert uses(template) == uses(ours)
    assert scaffold_template("github/dependabot.yml") == (REPO / ".github" / "dependabot.yml").read_text(
        encoding="utf-8")


def test_templates_ship_as_package_data():
    tomllib = pytest.importorskip("tomllib")
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert "scaffold_templates/**/*" in pyproject["tool"]["setuptools"]["package-data"]["generator"]
    for template, _ in scaffold.FILES:
        assert not any(part.startswith(".") for part in template.split("/")), "globs skip dot-files"
        assert (REPO / "generator" / "scaffold_templates" / template).is_file()


# --- where Proceedings comes from ------------------------------------------------------------

@pytest.mark.parametrize("remote, url", [
    ("https://github.com/org/proceedings.git", "https://github.com/org/proceedings.git"),
    ("https://user:token@github.com/org/proceedings", "https://github.com/org/proceedings"),
    ("git@github.com:org/proceedings.git", "https://github.com/org/proceedings.git"),
    ("ssh://git@github.com:22/org/proceedings.git", "https://github.com/org/proceedings.git"),
    ("/home/me/proceedings", None),
    ("file:///home/me/proceedings", None),
])
def test_public_url(remote, url):
    assert scaffold.public_url(remote) == url


def test_installed_from_git_means_that_url_at_that_commit():
    direct = {"url": "https://github.com/org/proceedings", "vcs_info": {"vcs": "git", "commit_id": "a" * 40}}
    assert scaffold.from_vcs_install(direct).spec == f"git+https://github.com/org/proceedings@{'a' * 40}"


def test_a_checkout_means_its_origin_at_head_once_pushed(tmp_path):
    if not scaffold._git(tmp_path, "--version"):
        pytest.skip("git is not installed")
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'proceedings'\n", encoding="utf-8")
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "x"],
                 ["remote", "add", "origin", "git@github.com:org/proceedings.git"]):
        subprocess.run([*git, *args], check=True)
    assert scaffold.from_checkout(tmp_path).spec == "git+https://github.com/org/proceedings.git"  # not pushed
    subprocess.run([*git, "update-ref", "refs/remotes/origin/main", "HEAD"], check=True)
    head = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    assert scaffold.from_checkout(tmp_path).spec == f"git+https://github.com/org/proceedings.git@{head}"
    assert scaffold.from_checkout(tmp_path / "elsewhere") is None


def test_rendering_is_a_pure_function_of_title_and_source():
    project = NewProject(TITLE, InstallSource(SOURCE, "a test"))
    assert scaffold.render(project) == scaffold.render(project)
    assert set(scaffold.render(project)) == EXPECTED


# --- helpers ------------------------------------------------------------------------------------

def copy_folder(source: Path, target: Path) -> Path:
    for name, data in files_of(source).items():
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        (target / name).write_bytes(data)
    return target


def scaffold_template(name: str) -> str:
    return (REPO / "generator" / "scaffold_templates" / name).read_text(encoding="utf-8")


class Page(HTMLParser):
    """The links (a/link href, script/img src, form action) and the first h1's text of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.h1 = ""
        self._in_h1 = False

    @classmethod
    def parse(cls, path: Path) -> "Page":
        page = cls()
        page.feed(path.read_text(encoding="utf-8"))
        return page

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        for name in ("href", "src", "action"):
            if values.get(name) is not None and tag in ("a", "link", "script", "img", "form", "source"):
                self.links.append(values[name])
        self._in_h1 = self._in_h1 or (tag == "h1" and not self.h1)

    def handle_endtag(self, tag):
        self._in_h1 = self._in_h1 and tag != "h1"

    def handle_data(self, data):
        if self._in_h1:
            self.h1 += data


def resolves(site: Path, base_url: str, page: Path, link: str) -> bool:
    """An internal link names a file of the site; external ones (another host, mailto:) are not judged.

    Root-absolute links (404.html's, which a server shows at any depth) start at the base URL's path,
    or at the server's root without a base URL.
    """
    if base_url and link.startswith(base_url):
        link = urlsplit(base_url).path + link[len(base_url):]
    parts = urlsplit(link)
    if parts.scheme or parts.netloc:
        return True
    if not parts.path:
        return True  # "#id" or "?q": the page itself
    path = unquote(parts.path)
    if path.startswith("/"):
        base_path = urlsplit(base_url).path or "/"
        if not path.startswith(base_path):
            return False
        target = site / path[len(base_path):]
    else:
        target = page.parent / path
    target = (target / "index.html" if path.endswith("/") else target).resolve()
    return target.is_file() and site.resolve() in target.parents


def test_the_readme_shows_importing_a_venues_own_files(project):
    readme = (project / "README.md").read_text(encoding="utf-8")
    for command in ("proceedings import papers.csv", "proceedings import volume.bib",
                    "proceedings import papers.jsonl"):
        assert command in readme, command
    assert "never published" in readme  # review columns stay private
