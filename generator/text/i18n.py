"""Interface text: gettext catalogues for the templates' words, and dates, by language.

The templates are written in English, the source language; every other
language is a catalogue ``locales/<locale>/LC_MESSAGES/messages.po``, read
with Babel and compiled in memory at build time (no ``.mo`` file is kept).
The config's ``language`` tag picks the catalogue by language and script
(``zh-CN``, ``zh-Hans`` and ``zh`` all mean Simplified Chinese); a language
without a catalogue gets the English interface, and the ``lang`` attribute
still says what the config says.
"""

from __future__ import annotations

import datetime as dt
import functools
import gettext
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup
from babel import Locale, UnknownLocaleError
from babel.core import get_global, parse_locale
from babel.dates import format_date, format_interval
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"
DOMAIN = "messages"
SOURCE_LOCALE = "en"  # the language the templates are written in
# Numbers tried to find an example of each CLDR plural category (few, many…) of a language.
_PLURAL_SAMPLES = (*range(0, 200), 1_000, 1_000_000)


def N_(message: str) -> str:
    """Marks a message the Python code shows (not a template) for ``pybabel extract``; translated where used."""
    return message


# The proceedings' title when neither the config nor a source names one, in the interface's language.
DEFAULT_TITLE = N_("Proceedings")
# Languages a volume's papers can make its interface: Chinese and Japanese, told apart by kana
# (text/cjk.py, ``language_of``), each with a catalogue.
LANGUAGE_OF_SCRIPT = {"ja": "ja", "zh": "zh-CN"}


@dataclass(frozen=True)
class Interface:
    """The language the reader sees the site's own words in."""

    locale: Locale
    translations: gettext.NullTranslations

    @property
    def tag(self) -> str:
        """BCP 47 tag of the interface language: ``en``, ``zh-Hans-CN``."""
        return str(self.locale).replace("_", "-")


@functools.cache  # asked for every volume's title on every page of a series that lists it
def default_title(tag: str) -> str:
    """"Proceedings" in the language ``tag`` names (論文集, 论文集), English where it has no catalogue."""
    return interface(tag).translations.gettext(DEFAULT_TITLE)


def catalogue_locales() -> list[str]:
    """The locales that ship a catalogue, e.g. ``["zh_CN"]`` (English needs none)."""
    return list(_shipped_catalogues())


@functools.cache  # the package's own files: every build asked twice (its interface), each a search of the folder
def _shipped_catalogues() -> tuple[str, ...]:
    return tuple(sorted(p.parent.parent.name for p in LOCALES_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")))


def catalogue_for(tag: str) -> str | None:
    """The locale whose interface a language tag gets: ``en``, a catalogue's name, or None (no catalogue)."""
    wanted = _language_and_script(tag)
    if wanted is None:
        return None
    for name in (SOURCE_LOCALE, *catalogue_locales()):
        if _language_and_script(name) == wanted:
            return name
    return None


def same_language(first: str, second: str) -> bool:
    """Whether two language tags name the same language and script: zh-CN, zh-Hans and zh do."""
    wanted = _language_and_script(first)
    return wanted is not None and wanted == _language_and_script(second)


def interface(tag: str) -> Interface:
    """The interface for a configured language; English when it has no catalogue."""
    name = catalogue_for(tag) or SOURCE_LOCALE
    if name == SOURCE_LOCALE:
        return Interface(Locale.parse(SOURCE_LOCALE), gettext.NullTranslations())
    return Interface(Locale.parse(name), load_translations(name))


@functools.cache
def load_translations(name: str) -> Translations:
    """A catalogue, compiled in memory; fuzzy and empty translations are left out (English shows)."""
    path = LOCALES_DIR / name / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as po:
        catalog = read_po(po, locale=name, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


def install(env: jinja2.Environment, ui: Interface) -> None:
    """Give templates ``_``/``gettext``/``ngettext``/``pgettext``, ``plural_forms``, ``format_date`` and
    ``format_days``.

    The environment must have been made with the ``jinja2.ext.i18n`` extension.
    """
    env.install_gettext_translations(ui.translations, newstyle=True)  # type: ignore[attr-defined]
    # jinja's ``_`` calls ``gettext`` through the context, which calls the catalogue through it again:
    # three calls where one does, for every string of every page: a build's most frequent call.
    env.globals["_"] = env.globals["gettext"] = _direct_gettext(ui.translations)
    env.globals["pgettext"] = _direct_pgettext(ui.translations)
    env.globals["interface_language"] = ui.tag
    env.globals["plural_forms"] = functools.partial(plural_forms, ui)
    # Every page shows the same date or two: babel formats each once, not once a page.
    env.filters["format_date"] = functools.lru_cache(maxsize=64)(functools.partial(_format_date, ui.locale))
    env.filters["format_days"] = functools.lru_cache(maxsize=8)(functools.partial(_format_days, ui.locale))


def _direct_gettext(translations: gettext.NullTranslations) -> Any:
    """jinja's newstyle ``gettext`` (escaped when autoescaping, always %-formatted), each message
    looked up in the catalogue once."""
    lookup = functools.lru_cache(maxsize=None)(translations.gettext)

    @jinja2.pass_eval_context
    def direct_gettext(eval_ctx: Any, string: str, /, **variables: Any) -> str:
        text = lookup(string)
        if not variables and "%" not in text:  # formatting would change nothing
            return Markup(text) if eval_ctx.autoescape else text
        return (Markup(text) if eval_ctx.autoescape else text) % variables

    return direct_gettext


def _direct_pgettext(translations: gettext.NullTranslations) -> Any:
    """jinja's newstyle ``pgettext`` (the message's context is a variable too: ``%(context)s``), each
    message looked up once, as ``_direct_gettext``."""
    lookup = functools.lru_cache(maxsize=None)(translations.pgettext)

    @jinja2.pass_eval_context
    def direct_pgettext(eval_ctx: Any, context: str, string: str, /, **variables: Any) -> str:
        text = lookup(context, string)
        if not variables and "%" not in text:  # formatting would change nothing
            return Markup(text) if eval_ctx.autoescape else text
        return (Markup(text) if eval_ctx.autoescape else text) % {"context": context, **variables}

    return direct_pgettext


def plural_forms(ui: Interface, singular: str, plural: str, **variables: Any) -> dict[str, str]:
    """A counted message in each CLDR plural category of the language, for scripts in the page.

    ``%(count)s`` becomes ``{count}``; a script picks the form with
    ``Intl.PluralRules(interface_language).select(count)`` and fills it in.
    """
    rule = ui.locale.plural_form
    forms: dict[str, str] = {}
    for category in sorted(rule.tags | {"other"}):
        sample = next((n for n in _PLURAL_SAMPLES if rule(n) == category), None)
        if sample is not None:
            text = ui.translations.ngettext(singular, plural, sample)
            forms[category] = text % {"count": "{count}", **variables}
    return forms


def _format_date(locale: Locale, value: dt.date | str | None, format: str = "long") -> str:
    """A date as the language writes it: ``December 6, 2026``, ``2026年12月6日``."""
    if not value:
        return ""
    date = dt.date.fromisoformat(value) if isinstance(value, str) else value
    return format_date(date, format=format, locale=locale)


def _format_days(locale: Locale, days: tuple[dt.date, dt.date]) -> str:
    """A meeting's days as the language writes a span: ``Jun 30 – Jul 3, 2024``, ``2024年6月30日～7月3日``."""
    first, last = days
    return format_interval(first, last, "yMMMd", locale=locale) if first != last else format_date(
        first, format="medium", locale=locale)


@functools.lru_cache(maxsize=1024)  # a build compares the same few tags again and again (its interface, its topics)
def _language_and_script(tag: str) -> tuple[str, str] | None:
    try:
        locale = Locale.parse(tag.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        return None
    return locale.language, locale.script or _likely_script(locale)


def _likely_script(locale: Locale) -> str:
    """The script a language is written in where the tag does not say: zh-TW → Hant, zh → Hans."""
    likely = get_global("likely_subtags")
    for key in (f"{locale.language}_{locale.territory}", locale.language):
        if key in likely:
            return parse_locale(likely[key])[2] or ""
    return ""
