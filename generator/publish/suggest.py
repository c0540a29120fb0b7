""""Suggest a correction": the link on every paper and person page (issue 42).

With the site's repository known (``repository: owner/name``, else GitHub Actions' ``GITHUB_REPOSITORY``), the
link opens the repository's issue form ``correction.yml`` (written by `proceedings new`) with its ``record``
field filled by the page's current values (model/suggestion.py): GitHub fills an issue form's field from the
query parameter named after its id. ``proceedings correct`` applies the issue the form makes. Without a
repository, the link writes to the volume's ``contact`` (a ``mailto:`` with the same record); without either,
there is none. It is a link: the page asks nothing of any server.

The link carries the paper's title and authors, not its abstract (model/suggestion.py says why): a page stays
light, and a link far under the 8 KB GitHub accepts (a ``mailto:`` under the 2,000 characters mail programs
keep, but for a paper of dozens of authors).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from generator.derive.people import People, Person
from generator.model.paper import RenderedPaper
from generator.model.suggestion import (FORM, NOTE_LABEL, RECORD_FIELD, RECORD_LABEL, Authorship, author_record,
                                        fingerprint, paper_record, paper_values, person_record)
from generator.model.volume import Volume
from generator.text.yamlutil import dump

ISSUE_LIMIT = 8000  # characters of an issue link: GitHub answers a longer one with an error (tests hold it)
TITLE_LIMIT = 120  # characters of the issue's title taken from the paper's


def page_file(paper: RenderedPaper) -> str:
    """The paper's page in the content folder, as the record names it (``papers/<name>.md``)."""
    name = getattr(paper.paper.path, "name", "")
    return f"papers/{name}" if name else ""


def paper_link(paper: RenderedPaper, volume: Volume) -> str:
    """The paper page's "Suggest a correction" address, or "" when the volume names neither a repository nor
    a contact."""
    if not (volume.repository or volume.contact):
        return ""
    values = paper_values(paper.paper.title, paper.details.authors, paper.paper.abstract)
    record = paper_record(paper.paper.id, page_file(paper), values)
    return _address(volume, f"Correction: {_short(paper.title_plain)}", dump(record))


def person_link(person: Person[RenderedPaper], people: People[RenderedPaper] | None, volume: Volume) -> str:
    """A person page's "Suggest a correction" address (their name and ORCID in each of their papers), or ""."""
    if not (volume.repository or volume.contact) or people is None:
        return ""
    places = [Authorship(paper.paper.id, page_file(paper), place, fingerprint(author_record(author)))
              for paper in person.papers for place, author in enumerate(paper.details.authors, 1)
              if people.of(author) is person]
    return person_address(volume, person.name, person_record(person.name, person.orcid, places))


def person_address(volume: Volume, name: str, record: dict[str, Any]) -> str:
    """The address of a person's record (a volume's author page, a series' person page), or "". A person of
    more papers than a link holds (GitHub refuses one past ``ISSUE_LIMIT``) has the first that fit listed and
    ``more_papers`` counted: ``correct`` says so, and their page's next link, once it is applied, lists the rest."""
    if not (volume.repository or volume.contact):
        return ""
    subject = f"Correction: {_short(name)}"
    made = _address(volume, subject, dump(record))
    papers = list(record["papers"])
    low, high = 0, len(papers)
    while len(made) > ISSUE_LIMIT and low < high:  # the most papers that fit
        middle = (low + high) // 2
        trial = _address(volume, subject, dump(_listing(record, papers, middle)))
        if len(trial) <= ISSUE_LIMIT:
            low, made = middle + 1, trial
        else:
            high = middle
    return made if len(made) <= ISSUE_LIMIT else _address(volume, subject, dump(_listing(record, papers, 0)))


def _listing(record: dict[str, Any], papers: list[Any], count: int) -> dict[str, Any]:
    """The record listing the first ``count`` papers and counting the others (``more_papers``)."""
    listed = {key: value for key, value in record.items() if key != "was"}
    listed["papers"] = papers[:count]
    listed["more_papers"] = len(papers) - count
    return {**listed, "was": record["was"]}


def _address(volume: Volume, subject: str, record: str) -> str:
    if volume.repository:
        query = {"template": FORM, "title": subject, RECORD_FIELD: record}
        return f"https://github.com/{volume.repository}/issues/new?{_query(query)}"
    body = f"### {RECORD_LABEL}\n\n```yaml\n{record}```\n\n### {NOTE_LABEL}\n\n"
    return f"mailto:{quote(volume.contact, safe='@')}?{_query({'subject': subject, 'body': body})}"


def _query(values: dict[str, str]) -> str:
    # %20 for a space, never "+": a mail program reads "+" as itself.
    return "&".join(f"{key}={quote(value, safe='')}" for key, value in values.items())


def _short(text: str) -> str:
    return text if len(text) <= TITLE_LIMIT else text[:TITLE_LIMIT - 1].rstrip() + "…"

