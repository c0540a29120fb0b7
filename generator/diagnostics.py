"""The registry of diagnostic codes: each warning, error and note a command reports has one.

A code names a kind of problem the way ruff's rule codes do: the reporter groups by it, ``check``
reads it, and a person can search for it in docs/diagnostics.md (made from this module:
``python -m generator.diagnostics > docs/diagnostics.md``). The message is for a person and may be
reworded or translated; the code is the contract and never changes once published.
A ``Diagnostic`` with a code that is not registered here cannot be made (errors.py).
"""

from __future__ import annotations

from dataclasses import dataclass

LEVELS = ("error", "warning", "info")


@dataclass(frozen=True)
class Code:
    name: str  # kebab-case, its first word the area: config, source, bib, table, record, page, latex…
    level: str  # "error", "warning" or "info"
    meaning: str  # one line for docs/diagnostics.md


REGISTRY: dict[str, Code] = {}


class UnknownCode(ValueError):
    """A diagnostic made with no code, a code not registered, or another level than its code's."""


def _code(name: str, level: str, meaning: str) -> str:
    assert name not in REGISTRY and level in LEVELS, name
    REGISTRY[name] = Code(name, level, meaning)
    return name


def checked(code: str, level: str) -> Code:
    """``code``'s entry, or ``UnknownCode`` when it has none or is registered at another level."""
    known = REGISTRY.get(code)
    if known is None:
        raise UnknownCode(f"diagnostic code {code!r} is not in generator/diagnostics.py" if code
                          else "a diagnostic needs a code from generator/diagnostics.py")
    if known.level != level:
        raise UnknownCode(f"diagnostic code {code!r} is registered as {known.level}, reported as {level}")
    return known


# -- errors: what stops a command, a volume or a page -------------------------------------------------
COMMAND_INVALID = _code("command-invalid", "error", "a command's arguments, or the folder it was given, cannot be used")
CONFIG_INVALID = _code("config-invalid", "error", "proceedings.yaml cannot be read or holds an invalid value")
CONTENT_INVALID = _code("content-invalid", "error", "a list, a page or a content file cannot be read")
THEME_INVALID = _code("theme-invalid", "error", "a template is missing or broken")
OUTPUT_FAILED = _code("output-failed", "error", "the site could not be written; the previous one is left as it was")
VOLUME_NOT_BUILT = _code("volume-not-built", "error", "a volume of a series failed; its last build is carried over")
VOLUME_FOLDER_INVALID = _code("volume-folder-invalid", "error", "a series' folder cannot be a volume's address")
PAGE_INVALID = _code("page-invalid", "error", "a page's front matter is missing or invalid; the page is not built")
SOURCE_INVALID = _code("source-invalid", "error", "a source file cannot be read as its format (no header, empty, "
                       "not text)")
PAGE_ID_CLASH = _code("page-id-clash", "error", "two pages give the same id or slug; the later is not built")
REBUILD_FAILED = _code("rebuild-failed", "error", "serve's rebuild crashed; the last good site is still served")

# -- config and content files -----------------------------------------------------------------------
CONFIG_UNKNOWN_KEY = _code("config-unknown-key", "warning", "proceedings.yaml has a key the generator does not know")
CONFIG_NO_CATALOGUE = _code("config-no-catalogue", "warning", "`language` has no translation of the interface")
PEOPLE_UNKNOWN_KEY = _code("people-unknown-key", "warning", "people.yaml has a key other than same and different")
LINK_OUTSIDE = _code("link-outside", "warning", "a content file or folder is a link to outside; not read")
WORKFLOW_INSTALL_UNKNOWN = _code("workflow-install-unknown", "warning",
                                 "the publishing workflow does not know where to install Proceedings from")

# -- reading sources: the file as a whole -----------------------------------------------------------
ENCODING_DECLARED = _code("encoding-declared", "info", "a file was read in the encoding its byte-order mark names")
ENCODING_GUESSED = _code("encoding-guessed", "warning", "a file is not UTF-8; it was read in a guessed encoding")
TABLE_DELIMITER = _code("table-delimiter", "info", "a table's cells are separated by another character than its "
                        "extension says")
TABLE_IGNORED_COLUMNS = _code("table-ignored-columns", "warning", "a table's columns the generator does not read")
TABLE_NO_ABSTRACT = _code("table-no-abstract", "warning", "a table has no abstract column")
TABLE_EXTRA_CELLS = _code("table-extra-cells", "warning", "a row has more cells than the header names")
TABLE_ROW_UNCLOSED = _code("table-row-unclosed", "warning", "a row's quote never closes; its first line is read alone")
JSON_IGNORED_KEYS = _code("json-ignored-keys", "warning", "a JSON Lines record's keys the generator does not read")
SOURCE_LINE_BREAKS = _code("source-line-breaks", "warning", "`\\n` runs were read as line breaks from the file's "
                           "evidence")
SOURCE_SESSION_SUBJECTS = _code("source-session-subjects", "warning", "a subject column holds session names; "
                                "they are not made topics")
SOURCE_LINKS_LEFT_OUT = _code("source-links-left-out", "warning", "links into the venue's own site that name no "
                              "file here were left out")

# -- reading sources: one record --------------------------------------------------------------------
RECORD_SKIPPED = _code("record-skipped", "warning", "a record cannot be read or holds nothing to show; no page "
                       "shows it")
RECORD_REPEAT = _code("record-repeat", "warning", "a record repeats an earlier one and is published once")
RECORD_FIELD_INVALID = _code("record-field-invalid", "warning", "a record's field is not valid; it is left out")
RECORD_ID_REPEATED = _code("record-id-repeated", "warning", "two records share an id; they are matched by their "
                           "text instead")

# -- BibTeX -------------------------------------------------------------------------------------------
BIB_REPEATED_FIELD = _code("bib-repeated-field", "warning", "an entry gives a field twice; the first value is kept")
BIB_STRING_REDEFINED = _code("bib-string-redefined", "warning", "an @string is defined again; the later is used")
BIB_UNCLOSED_BRACE = _code("bib-unclosed-brace", "warning", "a brace never closes; the value is read up to the "
                           "next field")
BIB_UNCLOSED_ENTRY = _code("bib-unclosed-entry", "warning", "an entry never closes its braces")
BIB_STRING_BOMB = _code("bib-string-bomb", "warning", "@string macros expand past the cap; later values are "
                        "left as written")
BIB_DATE_INVALID = _code("bib-date-invalid", "warning", "an @proceedings date is not YYYY-MM-DD; left out")

# -- the programme: calendar files and the papers' sessions --------------------------------------------
PROGRAMME_EVENT_SKIPPED = _code("programme-event-skipped", "warning", "a calendar's event or a programme row "
                                "cannot be read (no start, no title, an unknown zone); skipped")
PROGRAMME_EVENT_CANCELLED = _code("programme-event-cancelled", "info", "a calendar's event is cancelled "
                                  "(STATUS:CANCELLED); left out")
PROGRAMME_EVENT_PARTIAL = _code("programme-event-partial", "warning", "an event is read in part: its end cannot "
                                "be read, or only a repeating event's first time is kept")
PROGRAMME_SESSION_UNMATCHED = _code("programme-session-unmatched", "warning", "no event of the calendar is a "
                                    "session the papers name; its papers' own rows place it")
PROGRAMME_SESSION_LINKED = _code("programme-session-linked", "info", "a session is joined to events through "
                                 "the calendar's links to it")
PROGRAMME_PAPER_UNKNOWN = _code("programme-paper-unknown", "warning", "a programme's event lists a paper that "
                                "is no paper of the volume")
PROGRAMME_MAP_UNMATCHED = _code("programme-map-unmatched", "warning", "a `sessions:` entry names no paper's "
                                "session, or no event of the calendar")

# -- the map of the papers ------------------------------------------------------------------------------
MAP_PROJECTION_INVALID = _code("map-projection-invalid", "warning", "the venue's papers_projection.json, or an "
                               "entry of it, cannot be read; what cannot be read is left out")
MAP_PROJECTION_MISSING = _code("map-projection-missing", "warning", "papers_projection.json leaves out some papers: "
                               "each is placed beside its related papers, or listed under the map")

# -- the sanity checks over a volume (dates, names, titles) --------------------------------------------
DATE_YEAR_MISMATCH = _code("date-year-mismatch", "warning", "a date of the volume or meeting is in another year "
                           "than the volume's")
DATE_ORDER = _code("date-order", "warning", "the meeting's end is before its start")
DATE_PUBLISHED = _code("date-published", "warning", "the volume came out neither in its year nor the year after")
PAPER_YEAR_MISMATCH = _code("paper-year-mismatch", "warning", "papers give a year other than the volume's")
NAME_NOT_A_NAME = _code("name-not-a-name", "warning", "an author's or editor's name is no person's name")
NAME_TWO_ORDERS = _code("name-two-orders", "warning", "one name is written family name first in one place and "
                        "given name first in another")
NAME_UNCLEAR = _code("name-unclear", "warning", "the rule cannot tell whether papers under one name are one "
                     "person")
NAME_VARIANT = _code("name-variant", "warning", "two spellings likely name one person")
TITLE_CAPITALS = _code("title-capitals", "warning", "a title is in capitals only")
TOPIC_FALLBACK = _code("topic-fallback", "warning", "no tag of the taxonomy matches a paper; it gets the fallback")
TOPIC_TAXONOMY_UNFIT = _code("topic-taxonomy-unfit", "warning", "the taxonomy fits too few papers; it tags none")

# -- pages --------------------------------------------------------------------------------------------
PAGE_UNKNOWN_KEY = _code("page-unknown-key", "warning", "a page's front matter has a key the generator does "
                         "not know")
PAGE_FIELD_INVALID = _code("page-field-invalid", "warning", "a page's field is not valid; it is left out")
PAGE_SLUG_UNSAFE = _code("page-slug-unsafe", "warning", "a page's slug cannot be an address; another is used")
PAGE_KEPT_PREVIOUS = _code("page-kept-previous", "warning", "a page does not parse; the site shows it as last "
                           "built")
PAGE_LINK_MISSING = _code("page-link-missing", "warning", "a page links a document that is not in the content "
                          "folder")
PAGE_OLD_SLUG = _code("page-old-slug", "warning", "an old slug is another paper's; no redirect is written")
MERGE_UNREADABLE = _code("merge-unreadable", "warning", "a page cannot be read, so its entry gets no new page")
MERGE_KEPT_EDIT = _code("merge-kept-edit", "warning", "the source changed, but the page was edited by hand: "
                        "the edit is kept")
MERGE_ORPHAN_KEPT = _code("merge-orphan-kept", "warning", "a page's entry left the list, but the page was edited "
                          "by hand: kept")

# -- LaTeX in titles and abstracts --------------------------------------------------------------------
LATEX_UNKNOWN_MACRO = _code("latex-unknown-macro", "warning", "a macro that is not defined; shown as its name")
LATEX_MACRO_GUESSED = _code("latex-macro-guessed", "warning", "an undefined macro rendered by a guessed "
                            "meaning; pin or correct it under `macros:`")
LATEX_ENVIRONMENT = _code("latex-environment", "warning", "an unknown environment, or one edge of a known one "
                          "without the other")
LATEX_MISSING_ARGUMENT = _code("latex-missing-argument", "warning", "a command without its argument (or \\left "
                               "without \\right); shown as written")
LATEX_MATH_ERROR = _code("latex-math-error", "warning", "math that cannot be rendered; shown as written")
LATEX_MATH_MARKED = _code("latex-math-marked", "warning", "math rendered with a part marked (an empty fraction, "
                          "a double script)")
LATEX_TOO_MUCH = _code("latex-too-much", "warning", "a formula or an abstract's math past the size cap; shown "
                       "as written")
LATEX_TOO_DEEP = _code("latex-too-deep", "warning", "commands, lists or quotes nested past the cap; shown as "
                       "written")
CITATION_REFUSED_TEX = _code("citation-refused-tex", "warning", "a title's math holds TeX a citation may not "
                             "carry; written as plain text")
FEED_NO_DATE = _code("feed-no-date", "warning", "the site has a base URL but no date, so no feed is written")
DOI_DEPOSIT_INVALID = _code("doi-deposit-invalid", "error", "the Crossref deposit would be rejected (no publisher, "
                            "date, base URL or depositor, a DOI twice, a paper without authors); nothing is written")
DOI_MISSING = _code("doi-missing", "warning", "the volume registers DOIs but a paper has none (check)")

# -- check's own look at the lists and the built site -------------------------------------------------
ENTRY_DIRECTION_OVERRIDE = _code("entry-direction-override", "warning", "an entry holds direction-override "
                                 "characters")
ENTRY_TOO_LONG = _code("entry-too-long", "warning", "an entry is far longer than an abstract")
ENTRY_REFUSED_LINK = _code("entry-refused-link", "warning", "an entry has a javascript:, vbscript: or data: link")
ENTRY_HTML = _code("entry-html", "warning", "an entry has HTML outside the tags an abstract may use")
SCHOLAR_RULE = _code("scholar-rule", "warning", "the pages break one of Google Scholar's inclusion rules")
SCHOLAR_SITEMAP = _code("scholar-sitemap", "warning", "the sitemap is missing or too large for Scholar")
SCHOLAR_ROBOTS = _code("scholar-robots", "warning", "robots.txt keeps Scholar from the papers")
SCHOLAR_PDF_SHARED = _code("scholar-pdf-shared", "warning", "two papers give the same PDF")
SCHOLAR_PDF_TITLE = _code("scholar-pdf-title", "warning", "a PDF's first page does not show its paper's title")

# -- the built site -------------------------------------------------------------------------------
HOST_LIMIT = _code("host-limit", "warning", "the site exceeds a static host's limit")
SERIES_LINK_FOLDER = _code("series-link-folder", "warning", "a series' folder is a link; not built as a volume")

NOT_PUBLISHED = (RECORD_SKIPPED, RECORD_REPEAT)  # the records no page shows: counted on the summary line


def markdown() -> str:
    """docs/diagnostics.md: every code, its level and meaning, in the registry's order."""
    lines = ["# Diagnostics", "",
             "Every warning, error and note that `build`, `import`, `check` and `serve` report carries a stable",
             "code, besides its message (which may be reworded or translated) and its place (`file:line`). It also",
             "names what it is about: `paper` (the record's id or the page's), `subject` (the macro, the name, the",
             "field, the column) and `value` (what was found, such as a guessed macro's body).", "",
             "Without `-v` the console prints the first 30 warnings, then one line per code for the others:",
             "", "```text", "359 more warnings not shown (-v shows all):",
             "  133 × topic-fallback: no tag of the taxonomy matches a paper; it gets the fallback (a.csv:4, …)",
             "```", "",
             "`check` reads codes and fields (its list of undefined and guessed macros comes from",
             "`latex-unknown-macro` and `latex-macro-guessed`), never the wording; `--strict` fails a run on",
             "any warning. This page is generated from `generator/diagnostics.py`",
             "(`python -m generator.diagnostics > docs/diagnostics.md`); a test keeps them equal.", "",
             "| Code | Level | Meaning |", "| --- | --- | --- |"]
    lines += [f"| `{code.name}` | {code.level} | {_cell(code.meaning)} |" for code in REGISTRY.values()]
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


if __name__ == "__main__":
    print(markdown(), end="")
