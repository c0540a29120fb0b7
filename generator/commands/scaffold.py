"""`proceedings new`: a repository-shaped folder that builds as it is.

The files come from templates shipped in the package (``scaffold_templates/``),
rendered with the title and the install source: the pip requirement the
Pages workflow installs Proceedings from. Unless ``--install`` names one, it
is where this copy of Proceedings came from (a Git URL it was installed from,
or the ``origin`` of the checkout it runs from); failing that, a placeholder
that the workflow refuses with a message naming the line to change.

Everything is rendered before anything is written, into a new or empty
folder only, and no file is ever overwritten.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import re
import subprocess
import unicodedata
from dataclasses import dataclass
from importlib import metadata, resources
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

import jinja2

from generator.errors import ProceedingsError
from generator.model.config import check_repository
from generator.text.slugs import slugify

PLACEHOLDER = "git+https://github.com/OWNER/REPO"
WORKFLOW = ".github/workflows/pages.yml"
INSTALL_KEY = "PROCEEDINGS:"

# Template (in the package) → file written; {list} is the list's name. Templates carry no
# dot-files: package data globs skip them.
FILES: tuple[tuple[str, str], ...] = (
    ("README.md", "README.md"),
    ("gitignore", ".gitignore"),
    ("github/workflows/pages.yml", WORKFLOW),
    ("github/dependabot.yml", ".github/dependabot.yml"),
    # Corrections from readers (issue 42): the form the site's links open, and the workflow applying its issues.
    ("github/ISSUE_TEMPLATE/correction.yml", ".github/ISSUE_TEMPLATE/correction.yml"),
    ("github/workflows/correction.yml", ".github/workflows/correction.yml"),
    ("content/proceedings.yaml", "content/proceedings.yaml"),
    ("content/list.txt", "content/{list}.txt"),
)

# What a pip requirement or URL needs, and nothing a shell or GitHub would read inside
# double quotes ($ ` " \ !) or as an expression (${{ }}).
_SPEC = re.compile(r"[A-Za-z0-9._~:/?#\[\]@&+,;=%<>^*() -]+")
_CREDENTIALS = re.compile(r"://[^/@]+@")
_SCP_REMOTE = re.compile(r"^[\w.-]+@([\w.-]+):(.+)$")  # git@github.com:owner/repo.git


@dataclass(frozen=True)
class InstallSource:
    """The pip requirement the workflow installs Proceedings from, and how it was chosen."""

    spec: str
    origin: str  # completes "This is …" in the new README
    known: bool = True


@dataclass(frozen=True)
class NewProject:
    title: str
    install: InstallSource
    volume: str = ""  # a series' first volume (its folder under content/); "" for one volume
    repository: str = ""  # the site's GitHub repository (owner/name) when known: corrections open issues there

    @property
    def list_name(self) -> str:
        """The list's file name without ``.txt``: the title's slug."""
        folded = unicodedata.normalize("NFKD", self.title)
        return slugify(self.title) if any(c.isascii() and c.isalnum() for c in folded) else "abstracts"


# --- choosing the title and the install source ----------------------------------------

def check_title(title: str) -> str:
    title = title.strip()
    if not title:
        raise ProceedingsError("the title is empty")
    if any(unicodedata.category(c)[0] == "C" or unicodedata.category(c) in ("Zl", "Zp") for c in title):
        raise ProceedingsError(f"the title must be one line of text, without control characters: {title!r}")
    return title


def default_title(target: Path) -> str:
    """The folder's name as words: ``my-workshop`` → ``My Workshop`` (``ICML_2026`` → ``ICML 2026``)."""
    words = re.split(r"[-_\s]+", target.resolve().name)
    return " ".join(w.capitalize() if w.islower() else w for w in words if w) or "Proceedings"


def check_spec(spec: str) -> str:
    spec = spec.strip()
    if not spec or spec.startswith("-") or not _SPEC.fullmatch(spec):
        raise ProceedingsError(f"--install wants a pip requirement such as proceedings==0.1.0 or "
                               f"git+https://github.com/OWNER/REPO@v0.1.0, without quotes, $, \\, ! "
                               f"or braces; got {spec!r}")
    if _CREDENTIALS.search(spec):
        raise ProceedingsError("--install carries a user name or token, and the workflow is committed: "
                               "use an address anyone may read")
    return spec


def choose_install(spec: str | None) -> InstallSource:
    if spec is not None:
        return InstallSource(check_spec(spec), "the source given to `proceedings new --install`")
    return detect_install() or InstallSource(PLACEHOLDER, "a placeholder", known=False)


def detect_install() -> InstallSource | None:
    """Where this copy of Proceedings came from, as a requirement GitHub's runner can install."""
    direct = _direct_url()
    if direct and "vcs_info" in direct:
        return from_vcs_install(direct)
    root = _file_path(direct["url"]) if direct and "dir_info" in direct else _package_checkout()
    return from_checkout(root) if root else None


def from_vcs_install(direct: dict) -> InstallSource | None:
    """``pip install git+URL``: that URL at the commit installed (PEP 610's direct_url.json)."""
    vcs = direct["vcs_info"]
    url = public_url(direct.get("url", ""))
    if vcs.get("vcs") != "git" or not url or not vcs.get("commit_id"):
        return None
    return InstallSource(f"git+{url}@{vcs['commit_id']}",
                         "the Git repository this copy of Proceedings was installed from, at the same commit")


def from_checkout(root: Path) -> InstallSource | None:
    """A Git checkout of Proceedings with a public ``origin``: origin at HEAD, if HEAD was pushed."""
    top = _git(root, "rev-parse", "--show-toplevel")
    if not (root / "pyproject.toml").is_file() or not top or Path(top).resolve() != root.resolve():
        return None
    url = public_url(_git(root, "remote", "get-url", "origin") or "")
    head = _git(root, "rev-parse", "HEAD")
    if not url or not head:
        return None
    if _git(root, "branch", "--remotes", "--contains", head):
        return InstallSource(f"git+{url}@{head}",
                             "the `origin` of the Proceedings checkout `new` ran from, at the same commit")
    return InstallSource(f"git+{url}", "the `origin` of the Proceedings checkout `new` ran from, at its "
                                       "default branch (the checkout's commit was not pushed)")


def public_url(remote: str) -> str | None:
    """An https address for a Git remote, without user name or token; None for a local one."""
    scp = _SCP_REMOTE.match(remote)
    if scp:
        remote = f"https://{scp.group(1)}/{scp.group(2)}"
    parts = urlsplit(remote)
    if parts.scheme not in ("https", "http", "ssh") or not parts.hostname:
        return None
    url = urlunsplit(("https", parts.hostname, parts.path, "", ""))
    return url if _SPEC.fullmatch(url) else None


def _direct_url() -> dict | None:
    try:
        text = metadata.distribution("proceedings").read_text("direct_url.json")
        return json.loads(text) if text else None
    except (metadata.PackageNotFoundError, ValueError):
        return None


def _file_path(url: str) -> Path | None:
    parts = urlsplit(url)
    return Path(unquote(parts.path)) if parts.scheme == "file" else None


def _package_checkout() -> Path | None:
    """The checkout the package is imported from (a source tree, not site-packages)."""
    root = Path(__file__).resolve().parents[2]
    return root if (root / "pyproject.toml").is_file() else None


def _git(root: Path, *args: str) -> str | None:
    try:
        result = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return result.stdout.strip() if result.returncode == 0 else None


# --- rendering and writing ----------------------------------------------------------------

def choose_repository(given: str | None, target: Path) -> str:
    """``--repository``, else the GitHub repository of the Git checkout the folder is made in (its ``origin``),
    else ""."""
    if given is not None:
        try:
            return check_repository(given)
        except ValueError as exc:
            raise ProceedingsError(f"--repository {exc}") from None
    place = target
    while not place.exists() and place != place.parent:
        place = place.parent
    return github_repository(_git(place, "remote", "get-url", "origin") or "")


def github_repository(remote: str) -> str:
    """``owner/name`` of a GitHub remote (https or ssh), else ""."""
    url = public_url(remote) or ""
    parts = urlsplit(url)
    if parts.hostname != "github.com":
        return ""
    try:
        return check_repository(parts.path.strip("/"))
    except ValueError:
        return ""


def create(target: Path, title: str | None, install: str | None,
           series: bool = False, repository: str | None = None) -> tuple[NewProject, list[str]]:
    """Check, choose, render, write: the new project and the files written (relative paths).
    ``series``: a series, whose content folder holds the series' proceedings.yaml and
    one example volume, ``content/<this year>/``."""
    refuse_unless_empty(target)
    title = check_title(title if title is not None else default_title(target))
    project = NewProject(title, choose_install(install), str(dt.date.today().year) if series else "",
                         choose_repository(repository, target))
    files = render_series(project) if series else render(project)
    write_new(target, files)
    return project, list(files)


def render(project: NewProject, content: str = "content") -> dict[str, str]:
    """Every file of the new folder: path relative to it → text (``content``: where the list will be)."""
    environment = _environment()
    context = {"title": project.title, "origin": "", "year": title_year(project.title), "install": project.install.spec,
               "install_known": project.install.known, "install_origin": project.install.origin,
               "list_path": f"{content}/{project.list_name}.txt", "tool": _tool_link(project.install.spec),
               "repository": project.repository}
    context["install_line"] = _line_of(_render(environment, "github/workflows/pages.yml", context), INSTALL_KEY)
    files = {target.format(list=project.list_name): _render(environment, template, context)
             for template, target in FILES}
    return dict(sorted(files.items()))


def volume_config(title: str, origin: str = "") -> str:
    """A volume's proceedings.yaml, as `new` writes it: the title, and every other key commented out to fill.
    ``origin`` says where a title the tool made came from ("the file name ismir-2024-papers.csv")."""
    return _render(_environment(), "content/proceedings.yaml", {"title": title, "origin": origin,
                                                                 "year": title_year(title), "repository": ""})


def title_year(title: str) -> str:
    """The year a title names ("ISMIR 2024"), for the config's example dates; 2026 when it names none."""
    found = re.findall(r"(?<!\d)(?:19|20)\d\d(?!\d)", title)
    return found[-1] if found else "2026"


def write_volume_config(content_dir: Path, title: str, origin: str = "") -> Path | None:
    """``proceedings.yaml`` in a content folder that has none (``import``); None, and nothing written, when
    one is there already: a config is never overwritten."""
    path = content_dir / "proceedings.yaml"
    try:
        with path.open("x", encoding="utf-8", newline="\n") as stream:
            stream.write(volume_config(title, origin))
    except FileExistsError:
        return None
    except OSError as error:
        raise ProceedingsError(f"could not write: {error.strerror}", path=path) from None
    return path


SERIES_CONFIG = """\
# The series: its title and description head the series' home page. Each folder beside
# this file is a volume (its own sources, papers/ and proceedings.yaml) and is built into
# the site under the same path. Add a volume: `proceedings import FILE --content content/2027`.
title: {title}
# description: One sentence shown under the title on the series' home page.
# base_url: https://YOUR-NAME.github.io/YOUR-REPO/   # leave out for GitHub Pages: the workflow passes it
{repository}"""


def render_series(project: NewProject) -> dict[str, str]:
    """A series' files: those of one volume, moved into ``content/<volume>/`` and titled with the
    volume, under the series' own proceedings.yaml."""
    volume = NewProject(f"{project.title} {project.volume}", project.install, repository=project.repository)
    files = {}
    for name, text in render(volume, f"content/{project.volume}").items():
        if name.startswith("content/"):
            name = f"content/{project.volume}/{name.removeprefix('content/')}"
        files[name] = text
    repository = (f"repository: {project.repository}   # people's \"Suggest a correction\" opens an issue form there\n"
                  if project.repository else "")
    files["content/proceedings.yaml"] = SERIES_CONFIG.format(title=json.dumps(project.title, ensure_ascii=False),
                                                             repository=repository)
    return dict(sorted(files.items()))


def write_new(target: Path, files: dict[str, str]) -> None:
    """Write ``files`` into ``target``, which must be new or empty; never overwrite a file."""
    refuse_unless_empty(target)
    try:
        for relative, text in files.items():
            path = target / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("x", encoding="utf-8", newline="\n") as stream:
                stream.write(text)
    except FileExistsError as error:
        raise ProceedingsError("appeared while writing; it was left as it was", path=error.filename) from None
    except OSError as error:
        raise ProceedingsError(f"could not write: {error.strerror}", path=error.filename or target) from None


def refuse_unless_empty(target: Path) -> None:
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        raise ProceedingsError("is not a folder; nothing was written", path=target)
    if target.is_dir():
        present = sorted(p.name for p in target.iterdir())
        if present:
            shown = ", ".join(present[:3]) + (", …" if len(present) > 3 else "")
            raise ProceedingsError(f"is not empty ({shown}); `proceedings new` writes only into a new or empty "
                                   f"folder, so nothing was written", path=target)


@functools.cache  # one a process: the templates below are compiled once, not on every command
def _environment() -> jinja2.Environment:
    # <<…>> and <%…%>: the templates hold GitHub's ${{ … }}, LaTeX's $…$ and YAML, which Jinja's
    # default delimiters would read.
    environment = jinja2.Environment(
        variable_start_string="<<", variable_end_string=">>", block_start_string="<%", block_end_string="%>",
        comment_start_string="<#", comment_end_string="#>", trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True, undefined=jinja2.StrictUndefined, autoescape=False)
    environment.filters["quoted"] = lambda text: json.dumps(text, ensure_ascii=False)  # a YAML/shell string
    return environment


def _render(environment: jinja2.Environment, name: str, context: dict) -> str:
    source = resources.files("generator").joinpath("scaffold_templates", *name.split("/"))
    return _compiled(environment, source.read_text(encoding="utf-8")).render(context)


@functools.lru_cache(maxsize=64)  # a template's text → what it compiles to (the same text, the same code)
def _compiled(environment: jinja2.Environment, text: str) -> jinja2.Template:
    return environment.from_string(text)


def _line_of(text: str, key: str) -> int:
    return next((n for n, line in enumerate(text.splitlines(), 1) if line.strip().startswith(key)), 0)


def _tool_link(spec: str) -> str:
    """A Markdown link to the repository behind a ``git+https://…@ref`` requirement, else the name."""
    if not spec.startswith("git+https://") or spec == PLACEHOLDER:
        return "Proceedings"
    address = spec[len("git+https://"):].split("#")[0].split("@")[0].removesuffix(".git")
    return f"[Proceedings](https://{address})"
