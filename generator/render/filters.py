"""The template functions and filters of our themes (docs/themes.md lists them), installed once in each
Jinja environment; those that need the build's data read it from the render's context
(``SiteRenderer.shared``, render/html.py)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import Any

import jinja2
from markupsafe import Markup

from generator.derive.people import name_key, own_key
from generator.model.details import is_web_link
from generator.model.paper import Author
from generator.render.escaping import escape as _escaped
from generator.render.paginate import AUTHORS_IN_LISTS
from generator.text.cjk import excerpt, language_of
from generator.text.slugs import slugify
from jinja2.runtime import Context

TEASER_LENGTH = 220
# Images a browser shows in an <img>. SVG is one, but a content folder's SVG is never published (it could
# run script when opened by itself: model/details.DOCUMENT_TYPES), so only another site's can be one.
IMAGE_TYPES = frozenset({"png", "jpg", "jpeg", "gif", "webp", "svg"})
_BARE_NUMBER = re.compile(r"\d{1,4}[A-Za-z]?")
_new_markup = str.__new__


@functools.lru_cache(maxsize=4)  # a paper page asks twice: its description and og:description
def teaser(plain: str, length: int = TEASER_LENGTH) -> str:
    """The start of the abstract for the page's description (cjk.excerpt: display columns, so a CJK
    character takes two)."""
    return excerpt(plain, length)


def link_href(link: str, root: str) -> str:
    """A detail link in a page at ``root``: a web address as it is, a path inside the site from the root."""
    return link if is_web_link(link) else root + link


def _lang_attribute(site_language: str, text: str) -> Markup:
    """`` lang="ja"`` for a paper's text in a CJK language other than the site's, so that it gets
    its language's fonts and glyph forms; empty when the language is the site's or not known."""
    found = _lang_code(site_language, text)
    return Markup(f' lang="{found}"') if found else Markup("")


def _lang_code(site_language: str, text: str) -> str:
    """The language (``ja``) of a paper's text in a CJK language other than the site's, else ""."""
    found = language_of(text)
    return "" if not found or found == site_language.split("-")[0].lower() else found


def install_functions(env: jinja2.Environment) -> jinja2.Environment:
    """Our filters and functions, once per environment (docs/themes.md lists them). Those that need
    the build's data read it from the render's context (``SiteRenderer.shared``)."""
    env.globals["authors_in_lists"] = AUTHORS_IN_LISTS
    env.globals["author_url"] = _author_url
    env.filters.update(tag_url=_tag_url, topic=_topic, lang_attr=_lang_attr, teaser=teaser, href=link_href,
                       lang_code=_lang_code_filter, meta_tags=meta_tags)
    env.tests.update(bare_number=is_bare_number, site_image=is_site_image)
    return env


def meta_tags(tags: Iterable[Any]) -> Markup:
    """``{{ meta | meta_tags }}``: a paper page's meta tags (each ``attribute``, ``key``, ``content``, escaped), a
    ``<meta>`` and a newline each: the bytes a ``{% for %}`` over them printed, made in one pass (a paper page's
    head looped over its tags and printed three values of each: a tenth of its template's time)."""
    return _new_markup(Markup, "".join(f'{_meta_opening(tag.attribute, tag.key)}{_escaped(tag.content)}">\n'
                                       for tag in tags))


@functools.lru_cache(maxsize=256, typed=True)  # typed: a Markup key is not escaped as the str of its text is
def _meta_opening(attribute: str, key: str) -> str:
    """``<meta name="citation_title" content="``, escaped once for every page: a volume's tags have a few dozen
    attributes and keys between them, each escaped again on every paper page before (half of the filter's time)."""
    return f'<meta {_escaped(attribute)}="{_escaped(key)}" content="'


def is_bare_number(value: object) -> bool:
    """``{% if name is bare_number %}``: a session, day or room named by its number alone (ISMIR's "1", "3B"),
    which the theme names in the site's language ("Session 1")."""
    return isinstance(value, str) and bool(_BARE_NUMBER.fullmatch(value.strip()))


def is_site_image(link: object) -> bool:
    """``{% if link is site_image %}``: a link to an image published with the site (a path, not an address:
    an image from another site would be a request outside the site), by its extension or, with none, as
    a thumbnail column gives it."""
    if not isinstance(link, str) or not link or is_web_link(link):
        return False
    name = link.split("#", 1)[0].split("?", 1)[0].rsplit("/", 1)[-1]
    return "." not in name or name.rsplit(".", 1)[1].lower() in IMAGE_TYPES


@jinja2.pass_context
def _tag_url(context: Context, name: str) -> str:
    """``{{ name | tag_url }}``: the page of a topic, from its name in any case."""
    # Not .get(key, default): the default would slugify every name, found or not (half a contents page's time).
    found = context["tag_urls"].get(name.casefold())
    return found if found is not None else f"tags/{slugify(name)}.html"


@jinja2.pass_context
def _author_url(context: Context, author: Author | str) -> str:
    """``author_url(author)``: the page of the person a paper's author is, relative to the root; from a
    name alone, the page of the first person of that name."""
    author = Author(author) if isinstance(author, str) else author
    urls: dict[str, str] = context["author_urls"]
    rules = context["people_rules"]
    return urls.get(own_key(author, rules)) or urls.get(name_key(author.name, rules), "authors/index.html")


@jinja2.pass_context
def _topic(context: Context, name: str) -> str:
    """``{{ name | topic }}``: a topic's name in the interface language; its page keeps its address."""
    names: dict[str, str] = context["topic_names"]
    return names.get(name, name)


@jinja2.pass_context
def _lang_attr(context: Context, text: str) -> Markup:
    return _lang_attribute(context["site"].language, text)


@jinja2.pass_context
def _lang_code_filter(context: Context, text: str) -> str:
    return _lang_code(context["site"].language, text)
