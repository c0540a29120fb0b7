"""The citation writers as they were before issue 43's session 23 wrote each record with fewer calls: every
value through its own helper, each name split again by each format, a MODS record indented then stripped.
``tests/test_citation_writers.py`` holds the writers to these, byte for byte, for any reference."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from markupsafe import Markup, escape

from generator.publish.apa import MAX_AUTHORS, initials
from generator.publish.endnote import _MONTHS
from generator.publish.reading import _PRIVATE, Reference, split_name
from generator.publish.ris import one_line


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(value: str) -> str:
    return _NOT_XML.sub("", value).replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def private_use(ref: Reference) -> frozenset[str]:
    return frozenset(_PRIVATE.findall("".join(_texts(ref))))


def _texts(value: Any) -> list[str]:
    found: list[str] = []
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, (tuple, list)):
            todo.extend(item)
        elif isinstance(item, Mapping):
            todo.extend(item.values())
        elif hasattr(item, "__dict__"):
            todo.extend(vars(item).values())
    return found


def ris_name(name: str) -> str:
    """"Family, Given[, Suffix]" as RIS writes an author; a name that stays whole as it is."""
    parts = split_name(name)
    if parts.literal:
        return parts.literal
    return ", ".join(part for part in (parts.family, parts.given, parts.suffix) if part)


def ris_record(ref: Reference) -> str:
    """The paper's record, as UTF-8 text ending in a newline."""
    date = ref.date.strftime("%Y/%m/%d/") if ref.date else ""
    tags: list[tuple[str, str]] = [("TY", "CPAPER"), ("ID", ref.key), ("TI", ref.title)]
    tags += [("AU", ris_name(author.name)) for author in ref.authors]
    tags += [("AD", author.affiliation) for author in ref.authors if author.affiliation]
    tags += [("T2", ref.container), ("PY", ref.year), ("DA", date), ("SP", ref.first_page),
             ("EP", ref.last_page if ref.last_page != ref.first_page else ""), ("VL", ref["volume"])]
    tags += [("A2", ris_name(editor)) for editor in ref["editors"]]
    tags += [("T3", ref.series), ("PB", ref["publisher"]), ("CY", ref["address"]), ("SN", ref.isbn or ref.issn),
             ("DO", ref["doi"]), ("UR", ref.url), ("L1", ref["pdf"]), ("N1", ref.note),
             ("AB", ref.abstract)]
    tags += [("KW", keyword) for keyword in ref.keywords]
    lines = [f"{tag}  - {line}" for tag, value in tags if (line := one_line(value))]
    return "\r\n".join([*lines, "ER  - ", ""])


def endnote_record(ref: Reference, abstract: bool = False) -> str:
    """The paper's record (lines ending in a newline); its abstract (``%X``) only for a paper alone (its Cite box,
    a reading list), as for MODS and the volume's CSL-JSON."""
    pages = "-".join(page for page in dict.fromkeys((ref.first_page, ref.last_page)) if page)
    tags: list[tuple[str, str]] = [("%0", "Conference Paper"), ("%T", ref.title)]
    tags += [("%A", ris_name(author.name)) for author in ref.authors]
    tags += [("%+", author.affiliation) for author in ref.authors if author.affiliation]
    tags += [("%E", ris_name(editor)) for editor in ref["editors"]]
    day = f"{_MONTHS[ref.date.month - 1]} {ref.date.day}" if ref.date else ""
    # The DOI as an address too: EndNote takes %R for it, bibutils only a doi.org address.
    doi_link = f"https://doi.org/{ref['doi']}" if ref["doi"] else ""
    tags += [("%B", ref.container), ("%S", ref.series), ("%D", ref.year), ("%8", day), ("%V", ref["volume"]),
             ("%P", pages), ("%I", ref["publisher"]), ("%C", ref["address"]), ("%@", ref.isbn or ref.issn),
             ("%R", ref["doi"]), ("%U", doi_link), ("%U", ref.url), ("%F", ref.key), ("%Z", ref.note),
             ("%X", ref.abstract if abstract else "")]
    tags += [("%K", keyword) for keyword in ref.keywords]
    return "".join(f"{tag} {line}\n" for tag, value in tags if (line := one_line(value)))



def _element(tag: str, value: str, indent: int, attributes: str = "") -> list[str]:
    return [f"{' ' * indent}<{tag}{attributes}>{xml_text(value)}</{tag}>"] if value else []


def _name(name: str, role: str, indent: int, affiliation: str = "", orcid: str = "") -> list[str]:
    pad = " " * indent
    parts = split_name(name)
    if parts.literal:
        named = _element("namePart", parts.literal, indent + 2)
    else:
        named = [*_element("namePart", parts.given, indent + 2, " type='given'"),
                 *_element("namePart", parts.family, indent + 2, " type='family'"),
                 *_element("namePart", parts.suffix, indent + 2, " type='termsOfAddress'")]
    return [f"{pad}<name type='personal'>", *named, *_element("affiliation", affiliation, indent + 2),
            *_element("nameIdentifier", orcid, indent + 2, " type='orcid'"),
            # A name without a role is an author (MODS and bibutils read it so): a role for an editor only, since
            # a paper's record in a browser's block repeats it for every author (issue 42: 0.3 KB a paper).
            *([f"{pad}  <role><roleTerm authority='marcrelator' type='text'>{role}</roleTerm></role>"]
              if role != "author" else []), f"{pad}</name>"]


def _date(ref: Reference) -> str:
    return ref.date.isoformat() if ref.date else ref.year


def _host(ref: Reference) -> list[str]:
    lines = ["  <relatedItem type='host'>", "    <titleInfo>", *_element("title", ref.container, 6),
             "    </titleInfo>"]
    for editor in ref["editors"]:
        lines += _name(editor, "editor", 4)
    origin = [*_element("dateIssued", _date(ref), 6), *_element("publisher", ref["publisher"], 6)]
    if ref["address"]:
        origin += ["      <place>", *_element("placeTerm", ref["address"], 8, " type='text'"), "      </place>"]
    lines += ["    <originInfo>", *origin, "    </originInfo>"] if origin else []
    lines.append("    <genre authority='marcgt'>conference publication</genre>")
    if ref.series:
        lines += ["    <relatedItem type='series'>", "      <titleInfo>", *_element("title", ref.series, 8),
                  "      </titleInfo>", "    </relatedItem>"]
    lines += _element("identifier", ref.isbn, 4, " type='isbn'")
    lines += _element("identifier", ref.issn, 4, " type='issn'")
    return [*lines, "  </relatedItem>"]


def _part(ref: Reference) -> list[str]:
    lines = _element("date", _date(ref), 4)
    if ref["volume"]:
        lines += ["    <detail type='volume'>", *_element("number", ref["volume"], 6), "    </detail>"]
    if ref.first_page:
        lines += ["    <extent unit='page'>", *_element("start", ref.first_page, 6),
                  *_element("end", ref.last_page if ref.last_page != ref.first_page else "", 6), "    </extent>"]
    return ["  <part>", *lines, "  </part>"] if lines else []


def mods_record(ref: Reference, abstract: bool = False) -> str:
    """The paper's ``<mods>`` record, as the volume's collection holds it (ending in a newline): without its
    abstract, as the volume's CSL-JSON (csl.py says why: at 10,000 papers, 10 MB more of the site); with it
    (``abstract``) for a paper alone, as its Cite box and a reading list export it."""
    # The key once, as the citekey identifier bibutils reads (a record's ID attribute would repeat it).
    lines = ["<mods>", "  <titleInfo>", *_element("title", ref.title, 4),
             "  </titleInfo>"]
    for author in ref.authors:
        lines += _name(author.name, "author", 2, author.affiliation, author.orcid)
    lines += ["  <originInfo>", *_element("dateIssued", _date(ref), 4), "  </originInfo>"] if _date(ref) else []
    lines += ["  <typeOfResource>text</typeOfResource>", *_host(ref)]
    lines += _element("abstract", ref.abstract, 2) if abstract else []
    lines += [line for keyword in ref.keywords for line in ("  <subject>", *_element("topic", keyword, 4),
                                                            "  </subject>")]
    lines += [*_element("note", ref.note, 2), *_element("identifier", ref.key, 2, " type='citekey'"),
              *_element("identifier", ref["doi"], 2, " type='doi'")]
    links = [*_element("url", ref.url, 4), *_element("url", ref["pdf"], 4, " access='raw object'")]
    lines += ["  <location>", *links, "  </location>"] if links else []
    # One line a record, without indentation, attributes in single quotes: a browser's record holds this text in
    # a JSON string inside a script's JSON, where every line break, space and double quote costs again.
    return "".join(line.strip() for line in [*lines, *_part(ref), "</mods>"]) + "\n"




def csl_name(name: str) -> dict[str, str]:
    parts = split_name(name)
    if parts.literal:
        return {"literal": parts.literal}
    return {key: value for key, value in (("family", parts.family), ("given", parts.given),
                                          ("suffix", parts.suffix)) if value}


def csl_item(ref: Reference, abstract: bool = False) -> dict[str, Any]:
    """The paper as a CSL-JSON item (keys in a fixed order: the same paper gives the same bytes); with its
    ``abstract`` for a paper alone (a Cite box's download, a reading list), not in the volume's file."""
    if ref.date:
        issued: dict[str, Any] | None = {"date-parts": [[ref.date.year, ref.date.month, ref.date.day]]}
    else:
        issued = {"date-parts": [[int(ref.year)]]} if ref.year.isdigit() else None
    pages = f"{ref.first_page}-{ref.last_page}" if ref.last_page and ref.last_page != ref.first_page else ref.first_page
    item: dict[str, Any] = {
        "id": ref.key, "type": "paper-conference", "title": ref.title,
        "author": [csl_name(author.name) for author in ref.authors],
        "editor": [csl_name(editor) for editor in ref["editors"]],
        "container-title": ref.container, "collection-title": ref.series, "issued": issued,
        "volume": ref["volume"], "page": pages, "publisher": ref["publisher"], "publisher-place": ref["address"],
        "ISBN": ref.isbn, "ISSN": ref.issn, "DOI": ref["doi"], "URL": ref.url,
        "keyword": ", ".join(ref.keywords), "note": ref.note, "abstract": ref.abstract if abstract else "",
    }
    return {key: value for key, value in item.items() if value}


def author_name(name: str) -> str:
    """"Family, G." (APA's form in the author list)."""
    parts = split_name(name)
    if parts.literal:
        return parts.literal
    text = f"{parts.family}, {initials(parts.given)}"
    return f"{text}, {parts.suffix}" if parts.suffix else text


def editor_name(name: str) -> str:
    """"G. Family" (APA's form for editors)."""
    parts = split_name(name)
    if parts.literal:
        return parts.literal
    return " ".join(part for part in (initials(parts.given), parts.family) if part) + (
        f", {parts.suffix}" if parts.suffix else "")


def name_list(names: list[str], pair: str = ", & ") -> str:
    """Names joined as APA joins them; ``pair`` between two (authors ", & ", editors " & ")."""
    if len(names) > MAX_AUTHORS:
        return ", ".join(names[:MAX_AUTHORS - 1]) + ", . . . " + names[-1]
    if len(names) <= 2:
        return pair.join(names)
    return ", ".join(names[:-1]) + ", & " + names[-1]


def _sentence(text: str) -> str:
    text = text.strip()
    return text if not text or text[-1] in ".?!" else text + "."


def apa(ref: Reference) -> tuple[str, Markup]:
    """The reference as plain text and as HTML."""
    authors = name_list([author_name(author.name) for author in ref.authors])
    year = f"({ref.year or 'n.d.'})."
    head = f"{_sentence(authors)} {year}" if authors else ""
    title = _sentence(ref.title)
    if not authors:  # APA moves the title to the author's place
        head, title = f"{title} {year}", ""
    editors = [editor_name(name) for name in ref["editors"]]
    where = "In "
    if editors:
        where += f"{name_list(editors, ' & ')} ({'Ed.' if len(editors) == 1 else 'Eds.'}), "
    parts = [f"Vol. {ref['volume']}" if ref["volume"] else "",
             (f"pp. {ref.first_page}–{ref.last_page}" if ref.last_page != ref.first_page else f"p. {ref.first_page}")
             if ref.first_page else ""]
    detail = ", ".join(part for part in parts if part)
    link = f"https://doi.org/{ref['doi']}" if ref["doi"] else ref.url
    after = (f" ({detail})" if detail else "") + "."
    tail = [_sentence(ref["publisher"]) if ref["publisher"] else "", link]
    text_parts = [head, title, f"{where}{ref.container}{after}", *tail]
    html_parts = [escape(head), escape(title),
                  # As Markup("{}<i>{}</i>{}").format would write it, without its formatter's per-call work.
                  Markup(f"{escape(where)}<i>{escape(ref.container)}</i>{escape(after)}"), *map(escape, tail)]
    text = " ".join(part for part in text_parts if part)
    html = Markup(" ".join(part for part in html_parts if part))  # each part Markup: Markup.join's text
    return text, html


