"""The paper schema: what each field of a paper is, declared once.

``model.Details`` declares every detail of a paper (authors, links, citation
fields…) with ``detail(...)``: its type (``Kind``), the names sources spell
it with, whether a BibTeX source's TeX becomes Unicode, how a citation uses
it and whether ``papers.json`` carries it. Everything that reads or writes a
field derives from that one line: the record readers' column names
(``sources/records.py``), validation (``details.py``), the front matter's
keys and order (``content/pages.py``), the BibTeX reader and writer, the meta tags,
``papers.json`` and ``Details.links`` (the links the templates show). The
few fields a paper has beside its details (id, title, abstract, keywords)
are ``ENTRY_FIELDS`` below, in the same terms.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

# authors: names with affiliation and ORCID; names: plain names (editors); list: short texts (a session,
# a track), one may be written as a plain string; text: one string; link: an http(s) URL or a path inside
# the site (a file of the content folder, published with the site); doi: a DOI, kept bare; labelled: links each
# with its label, (label, link) pairs (a `links:` pattern over a source's column: "Talk" → its SlidesLive page).
Kind = Literal["authors", "names", "list", "text", "link", "doi", "labelled"]
LIST_KINDS = frozenset({"authors", "names", "list", "labelled"})  # a tuple in Details; the others a str
SCHEMA_KEY = "schema"  # where a dataclass field's metadata holds its Field
LAST = 100  # the place of a citation field that gives none: after the established ones


@dataclasses.dataclass(frozen=True)
class Cite:
    """How a citation uses a field: written into the paper's BibTeX entry, its ``citation_*`` meta tags."""

    bibtex: str = ""  # the BibTeX field it is written as ("" none)
    # Its place in the entry: title 0, author 1, booktitle 2, url 50 (the writer's own); ties keep declaration order.
    bibtex_at: int = LAST
    # (tag, Details attribute its value is read from): ``pages`` gives citation_firstpage from ``first_page``.
    meta: tuple[tuple[str, str], ...] = ()
    meta_at: int = LAST  # among the meta tags after citation_conference_title; citation_abstract_html_url is last
    volume: str = ""  # the Volume attribute (dotted) that stands in when the paper gives none: "source.publisher"


@dataclasses.dataclass(frozen=True)
class Field:
    kind: Kind
    # The column and key names sources use (compared lower case, spaces and dashes as ``_``); () is its own name.
    aliases: tuple[str, ...] = ()
    tex: bool = False  # a BibTeX source's TeX (``{\\"o}``) becomes Unicode; names always do, math never
    cite: Cite = Cite()
    public: bool = True  # written into papers.json
    name: str = ""  # the attribute's name (``fields_of`` fills it in)

    @property
    def names(self) -> tuple[str, ...]:
        """What a source may call the field."""
        return self.aliases or (self.name,)


def detail(kind: Kind, *aliases: str, tex: bool = False, cite: Cite = Cite(), public: bool = True) -> Any:
    """A Details attribute declared with its schema (its default: empty)."""
    default: Any = () if kind in LIST_KINDS else ""
    return dataclasses.field(default=default, metadata={SCHEMA_KEY: Field(kind, aliases, tex, cite, public)})


def fields_of(cls: type) -> tuple[Field, ...]:
    """The schema of a dataclass declared with ``detail``, in declaration order."""
    return tuple(dataclasses.replace(f.metadata[SCHEMA_KEY], name=f.name) for f in dataclasses.fields(cls))


# The fields of a record that are the paper itself rather than its details (model.Entry's own).
ENTRY_FIELDS = (
    Field("text", ("id", "uid", "paper_id", "key"), name="id"),
    Field("text", ("title",), tex=True, name="title"),
    Field("text", ("abstract", "summary"), name="abstract"),  # TeX stays: the renderer shows it
    Field("list", ("keywords", "keyword", "tags"), tex=True, name="keywords"),
    # The venue's own classification (ISMIR's `primary_subject`, ICWSM's `topic`): the paper's topics, before
    # its keywords; a hierarchical name (`MIR tasks -> music transcription`) gives its last part (sources/subjects.py).
    Field("list", ("primary_subject", "subjects", "subject", "topics", "topic", "research_area",
                   "area", "subject_areas", "subject_area"), tex=True, name="subjects"),
    Field("list", ("secondary_subject", "secondary_subjects", "secondary_areas", "secondary_area"), tex=True,
          name="secondary_subjects"),
)
