"""Themes: template and static search paths, user overrides first (Pelican, Zola).

A content directory may carry ``theme/templates`` and ``theme/static``; a
template there shadows the default one of the same name and can extend it
as ``default/<name>``.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import posixpath
import stat
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Callable, MutableMapping, NoReturn

import jinja2
from jinja2.debug import rewrite_traceback_stack
from jinja2.loaders import split_template_path

from generator.runtime.kept import KeptByIdentity
from generator.text import i18n
from generator.render import escaping
from generator.render.compiled import COMPILED
from generator.render.fragments import OnceExtension

# The fixed, documented set of page templates a theme provides.
TEMPLATE_NAMES = ("base.html", "index.html", "contents.html", "paper.html", "tag.html", "tags.html", "author.html",
                  "authors.html", "404.html", "search.html", "redirect.html", "reading-list.html", "awards.html",
                  "glance.html",
                  "programme.html",
                  "map.html",
                  # A series' own pages (series/pages.py); a volume never renders them.
                  "series-base.html", "series.html", "series-search.html", "series-reading-list.html",
                  "people.html", "person.html", "series-glance.html")

# The names a series' pages had before (``archive*.html``): a theme's template of the old name is found where the
# new one is asked for, and the other way round, folder by folder, so a theme written for either keeps working.
OLD_NAMES = {"series-base.html": "archive-base.html", "series.html": "archive.html",
             "series-search.html": "archive-search.html", "series-reading-list.html": "archive-reading-list.html"}
_ALIASES = {**OLD_NAMES, **{old: new for new, old in OLD_NAMES.items()}}


@functools.cache  # where the running package is does not move; every build asked (importlib's search of sys.path)
def default_theme_dir() -> Path:
    """The bundled theme: inside the installed package, or themes/ in a source checkout."""
    spec = importlib.util.find_spec("generator._themes")
    if spec and spec.submodule_search_locations:
        for location in spec.submodule_search_locations:
            if (Path(location) / "default").is_dir():
                return Path(location) / "default"
    return Path(__file__).resolve().parents[2] / "themes" / "default"


@dataclass(frozen=True)
class Theme:
    template_dirs: tuple[Path, ...]  # first wins
    static_dirs: tuple[Path, ...]  # first wins

    @classmethod
    def for_content(cls, content_dir: Path) -> "Theme":
        default = default_theme_dir()
        user = content_dir / "theme"
        templates = [d for d in (user / "templates", default / "templates") if d.is_dir()]
        static = [d for d in (user / "static", default / "static") if d.is_dir()]
        return cls(tuple(templates), tuple(static))

    def environment(self, ui: i18n.Interface | None = None) -> jinja2.Environment:
        """The templates' environment, speaking ``ui``'s language (English when not given)."""
        default = _TemplateLoader(str(self.template_dirs[-1]))
        loader = jinja2.ChoiceLoader([
            _TemplateLoader([str(d) for d in self.template_dirs]),
            jinja2.PrefixLoader({"default": default}),
        ])
        env = _Environment(
            loader=loader,
            extensions=["jinja2.ext.i18n", OnceExtension],
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
            # An environment is made again when a template changes (serve); checking each template's
            # file on every page would cost a stat per include per page.
            auto_reload=False,
            # Every template kept in a plain dict: a theme has a few dozen, and each include, import and
            # extends of every page looked them up in an LRU cache's lock and list (a tenth of a paper page).
            cache_size=-1,
            bytecode_cache=COMPILED,
        )
        i18n.install(env, ui or i18n.interface(i18n.SOURCE_LOCALE))
        env.filters["safe"] = escaping.mark_safe  # Jinja's, the same Markup made faster (render/escaping.py)
        return env

    def static_files(self) -> dict[str, Path]:
        """Relative name → file, the user's copy shadowing the default's."""
        files: dict[str, Path] = {}
        for directory in reversed(self.static_dirs):
            root = directory.resolve()
            for name, path, linked in theme_files(directory):
                # A symlink out of the theme would publish (and serve) a file from elsewhere. A file reached
                # through no link (theme_files follows none to a folder) is inside: no need to resolve it.
                if not linked or root in Path(path).resolve().parents:
                    files[name] = directory / name
        return dict(sorted(files.items()))


def theme_files(folder: Path) -> list[tuple[str, str, bool]]:
    """The files under ``folder`` as ``sorted(folder.rglob("*"))`` lists them (folders that are links not
    entered, a link to a file kept): each one's name relative to ``folder`` (``/``-separated), its path, and
    whether it is a link. Every build reads its theme twice (its digest, its static files): walked with
    ``os.scandir`` and strings, not ``pathlib`` objects, which made that a fifth of a small build."""
    found: list[tuple[str, str, bool]] = []

    def walk(directory: str, prefix: str) -> None:
        try:
            with os.scandir(directory) as entries:
                listed = list(entries)
        except PermissionError:  # as rglob: a folder it may not read holds nothing
            return
        for entry in listed:
            name = prefix + entry.name
            if entry.is_dir(follow_symlinks=False):
                walk(entry.path, name + "/")
            elif entry.is_file():  # a link to a file counts, as Path.is_file says
                found.append((name, entry.path, entry.is_symlink()))

    walk(str(folder), "")
    return sorted(found, key=lambda file: file[0].split("/"))  # as paths sort: part by part




class _TemplateLoader(jinja2.FileSystemLoader):
    """A template that is not UTF-8 is a template error naming its file and line, not a crash; a series' page
    template is found in each folder by its name or its old one (``OLD_NAMES``), the first folder winning."""

    def get_source(self, environment: jinja2.Environment,
                   template: str) -> tuple[str, str, Callable[[], bool]]:
        alias = _ALIASES.get(template)
        if alias is None:
            return self._source(environment, template)
        for directory in self.searchpath:
            for name in (template, alias):
                if (Path(directory) / name).is_file():
                    return _TemplateLoader(directory, self.encoding)._source(environment, name)
        raise jinja2.TemplateNotFound(template)

    def _source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        """jinja's ``FileSystemLoader.get_source``, the file read only when it is not the one read before."""
        pieces = split_template_path(template)
        for directory in self.searchpath:
            filename = posixpath.join(directory, *pieces)  # as jinja: no "drive:" breaking out of the folder
            try:
                info = os.stat(filename)
            except (OSError, ValueError):
                continue
            if stat.S_ISREG(info.st_mode):
                break
        else:
            paths = ", ".join(repr(p) for p in self.searchpath)
            raise jinja2.TemplateNotFound(template, f"{template!r} not found in search "
                                                    f"{'path' if len(self.searchpath) == 1 else 'paths'}: {paths}")
        try:
            text = _TEXTS(filename, info) if self.encoding == "utf-8" else _read(filename, self.encoding)
        except UnicodeDecodeError as exc:
            path = next(Path(d) / template for d in self.searchpath if (Path(d) / template).is_file())
            line = path.read_bytes()[: exc.start].count(b"\n") + 1
            raise jinja2.TemplateSyntaxError(f"byte 0x{exc.object[exc.start]:02x} is not UTF-8; save the "
                                             "template as UTF-8", line, template, str(path)) from None
        mtime = info.st_mtime

        def uptodate() -> bool:
            try:
                return os.path.getmtime(filename) == mtime
            except OSError:
                return False

        return text, os.path.normpath(filename), uptodate


def _read(filename: str, encoding: str = "utf-8") -> str:
    with open(filename, encoding=encoding) as file:
        return file.read()


# Each template's text, read again only when its file changed: every build (and serve's, on each edit) loads
# every template it renders, and opening and reading each was a tenth of a small build.
_TEXTS = KeptByIdentity(_read)


_SELF_EXTENDS_HINT = ("; does a template extend or include itself? To build on the default template of the "
                      "same name, write {% extends \"default/NAME\" %}")


class _Template(jinja2.Template):
    """A compiled template that escapes what it prints with ``escaping.escape``: markupsafe's escaping, the same
    text and type, without ``Markup.__new__``'s checks for a plain string or a copy of a ``Markup`` (a tenth of a
    page's time). The template's code names ``escape`` from its namespace when it runs."""

    @classmethod
    def _from_namespace(cls, environment: jinja2.Environment, namespace: MutableMapping[str, Any],
                        globals: MutableMapping[str, Any]) -> jinja2.Template:
        namespace["escape"] = escaping.escape
        return super()._from_namespace(environment, namespace, globals)


class _Environment(jinja2.Environment):
    """An error raised while a template runs (an undefined name, a failing filter, ``1/0``, a
    macro calling itself) becomes a template error naming the template file and line."""

    template_class = _Template

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        """A template's globals as one dict, not Jinja's ChainMap over the environment's: every render copies
        them into its context, and every ``{% import %}`` compares their names with the context's, which a
        ChainMap does key by key in Python (a sixth of a paper page's time). Our environment's globals are all
        installed when it is made (theme.environment, filters.install_functions), before a template loads."""
        return {**self.globals, **(d or {})}

    def handle_exception(self, source: str | None = None) -> NoReturn:
        error = rewrite_traceback_stack(source=source)
        if isinstance(error, jinja2.TemplateSyntaxError):
            raise error
        where = _template_frame(error.__traceback__)
        location = f"{where[0]}:{where[1]}: " if where else ""
        if isinstance(error, jinja2.TemplateNotFound):  # an extends or include of a missing template
            detail = f"no template named {error.name!r}"
        else:
            detail = str(error) if isinstance(error, jinja2.TemplateError) else f"{type(error).__name__}: {error}"
        if isinstance(error, RecursionError):
            detail += _SELF_EXTENDS_HINT
        raise jinja2.TemplateRuntimeError(location + detail) from error


def _template_frame(traceback: TracebackType | None) -> tuple[str, int] | None:
    """The innermost frame of the traceback that is a template line (jinja rewrites those)."""
    found = None
    while traceback is not None:
        filename = traceback.tb_frame.f_code.co_filename
        if not filename.endswith(".py") and os.path.isfile(filename):
            found = (filename, traceback.tb_lineno)
        traceback = traceback.tb_next
    return found
