"""`proceedings check`: every validation a build makes, without writing anything.

For an organiser's own CI: the config, the lists, the pages, the LaTeX of
every abstract, links in abstracts and the theme's templates. It runs the
build's pipeline into a sink that keeps nothing, planning the sync without
applying it. It must cope with the longest lists, so it never derives
titles for entries that have no page yet (it only renders their abstracts) and
tries the templates on a sample of the papers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from generator.model.config import CONFIG_NAME
from generator.errors import Diagnostic
from generator.latex.guesses import advice, pin_line
from generator.latex.htmltags import parse_tag
from generator.content.matching import entry_digest
from generator.latex.model import TexProblem
from generator.content.merge import Change
from generator.model.paper import Author, Entry, RenderedPaper
from generator.content.pages import PAGES_DIR
from generator.derive.people import group
from generator.derive.sanity import Place, orders_across
from generator.derive.people_file import Rules
from generator.pipeline.stages import Options, Pipeline
from generator.content.project import Project
from generator.publish import crossref
from generator.publish.bibtex import BibTeX
from generator.reporter import Reporter
from generator.commands.scholar import robots_findings, scholar_check
from generator.publish.feeds import ROBOTS_PATH
from generator.series.layout import load_layout, member_reporter
from generator.pipeline.sinks import NullSink
from generator import diagnostics as codes

# Plan the sync without writing, derive nothing, try the templates on a sample, keep the pages for a look,
# make no search index.
CHECKING = Options(cache=False, write_pages=False, derive=False, sample=True, keep=True, search=False)

LONG_ABSTRACT = 20_000  # characters; real abstracts stay under ~3,000
# Control characters are dropped as a list is read (generator/text/cleantext.py); overrides closed in the entry stay.
_CONTROL = re.compile(r"[\u202a-\u202e\u2066-\u2069]")
# A link the renderer refuses: "javascript:alert(1)", "data:text/html,…"; not prose ("streaming data: given…").
_REFUSED_LINK = re.compile(r"\b(?:javascript|vbscript):\S|\bdata:[a-z]+/[\w.+-]+[;,]", re.IGNORECASE)
# HTML an author may paste (a tag with or without attributes, a comment); "p<0.05" and "a<b and c>d" are not.
_HTML = re.compile(r"<!--|</?(?:a|b|i|u|em|strong|br|p|div|span|sub|sup|img|script|style|iframe|object|embed|svg|"
                   r"math|link|meta|form|input|code|pre|ul|ol|li|table|tr|td|h[1-6])(?:\s+[\w-]+\s*=[^<>]*)?\s*/?>",
                   re.IGNORECASE)

PLACES_SHOWN = 5


@dataclass(frozen=True)
class CheckResult:
    papers: int
    entries: int
    pending: dict[str, int]  # what a build would do to the pages: create/update/remove → count
    undefined: dict[str, list[str]] = field(default_factory=dict)  # macro name → pages or list lines using it
    guessed: dict[str, list[str]] = field(default_factory=dict)  # r"\fhat as \hat{f}" → pages or list lines
    # Each paper (a page's, or a list entry's that has no page yet) beside its authors: a series' people.
    authors: tuple[tuple[object, tuple[Author, ...]], ...] = field(default=(), repr=False, compare=False)


def check(content_dir: Path, reporter: Reporter, people: Rules | None = None, site: Path | None = None,
          prefix: str = "") -> CheckResult:
    """``people``: the series' people.yaml when the volume is one of a series', which then reports
    its people across volumes itself. ``site``: the built site, whose pages (the volume's at ``prefix``)
    are checked against Google Scholar's rules (commands/scholar.py)."""
    options = CHECKING if people is None else replace(CHECKING, people=people)
    run = Pipeline(content_dir, NullSink(), options).run(reporter)
    project = run.project
    assert project is not None and run.docs is not None
    entries = [entry for source in project.sources for entry in source.entries]
    check_entries(entries, reporter)
    known = {made.text for doc in run.docs.values() if (made := doc.generated)}
    new = [e for e in entries if entry_digest(e) not in known]
    render_entries(new, project, reporter)
    check_citations(project, run.rendered, reporter)
    check_dois(project, run.rendered, reporter)
    everyone: list[RenderedPaper | Entry] = [*run.rendered, *new]
    authors = tuple((paper, paper.details.authors) for paper in everyone)
    if people is None:  # the build warns of the author pages' people with every paper; check sees a sample
        group(authors, project.people, "authors").report(reporter.warn)
    undefined = undefined_macros(reporter.diagnostics)
    guessed = undefined_macros(reporter.diagnostics, codes.LATEX_MACRO_GUESSED)
    report_undefined_macros(undefined, reporter)
    report_guessed_macros(guessed, reporter)
    if site is not None:
        scholar_check(site, prefix, run.rendered, run.docs, content_dir, reporter)
    return CheckResult(len(run.papers), len(entries), pending_counts(run.changes), undefined, guessed, authors)


def undefined_macros(diagnostics: list[Diagnostic], code: str = codes.LATEX_UNKNOWN_MACRO) -> dict[str, list[str]]:
    """Each undefined macro the renderer marked, with the pages (or list lines) that use it; with
    ``LATEX_MACRO_GUESSED``, each macro rendered by a guess, keyed by its name and guess (``fhat as \\hat{f}``).
    Read from the diagnostics' codes and fields, never their wording."""
    used: dict[str, dict[str, None]] = {}
    for diagnostic in diagnostics:
        if diagnostic.code == code and diagnostic.subject and diagnostic.place:
            guessed = code == codes.LATEX_MACRO_GUESSED
            key = f"{diagnostic.subject} as {diagnostic.value}" if guessed else diagnostic.subject
            used.setdefault(key, {})[diagnostic.place] = None
    return {name: list(places) for name, places in sorted(used.items())}


def report_undefined_macros(undefined: dict[str, list[str]], reporter: Reporter) -> None:
    """One line per macro: who uses it, and the config line that would define it."""
    for name, places in undefined.items():
        reporter.info(f"undefined macro \\{name}, {_used_by(places)}; to define it, add under macros: in "
                      f"{CONFIG_NAME}:  {name}: '…'")


def report_guessed_macros(guessed: dict[str, list[str]], reporter: Reporter) -> None:
    """One line per guessed macro: its guess, who uses it, and the config line that pins or corrects it."""
    for key, places in guessed.items():
        name, body = key.split(" as ", 1)
        reporter.info(f"guessed \\{name} as {body}, {_used_by(places)}; to pin or correct it, add under macros: "
                      f"in {CONFIG_NAME}:  {pin_line(name, body)}")


def _used_by(places: list[str]) -> str:
    shown = ", ".join(places[:PLACES_SHOWN])
    more = f" and {len(places) - PLACES_SHOWN} more" if len(places) > PLACES_SHOWN else ""
    return f"used by {len(places)} paper{'s' if len(places) > 1 else ''} ({shown}{more})"


def check_entries(entries: list[Entry], reporter: Reporter) -> None:
    """Problems of the list itself: direction overrides, giant entries, refused links, HTML.
    (Repeated records are found while loading, for build and check alike: sources/duplicates.py.)"""
    for entry in entries:
        where, paper = (entry.source, entry.line), entry.uid or str(entry.index)
        if _CONTROL.search(entry.text):
            reporter.warn(f"entry {entry.index} contains direction-override characters; they are shown as "
                          "written (each is closed in the entry)", *where, code=codes.ENTRY_DIRECTION_OVERRIDE,
                          paper=paper)
        if len(entry.text) > LONG_ABSTRACT:
            reporter.warn(f"entry {entry.index} is {len(entry.text):,} characters long; is it one abstract?", *where,
                          code=codes.ENTRY_TOO_LONG, paper=paper, value=str(len(entry.text)))
        if link := _REFUSED_LINK.search(entry.text):
            reporter.warn(f"entry {entry.index} has a javascript:, vbscript: or data: link; it is shown as text",
                          *where, code=codes.ENTRY_REFUSED_LINK, paper=paper, value=link.group())
        html = next((found for found in _HTML.finditer(entry.text) if parse_tag(found.group()) is None), None)
        if html:  # the allowed subset (em, b, ul, li…) renders; any other tag is shown as written
            reporter.warn(f"entry {entry.index} has HTML ({html.group()[:40]}) outside the tags an abstract may use; "
                          "it is shown as text, not as markup", *where, code=codes.ENTRY_HTML, paper=paper,
                          value=html.group()[:40])


def pending_counts(changes: list[Change]) -> dict[str, int]:
    """What a build would create, update or remove."""
    counts: dict[str, int] = {}
    for change in changes:
        counts[change.action] = counts.get(change.action, 0) + 1
    return counts


def render_entries(entries: list[Entry], project: Project, reporter: Reporter) -> None:
    """Render the abstracts of list entries without a page yet, reporting LaTeX problems by line."""
    for entry in entries:
        result = project.renderer.render(entry.text)
        paper = entry.uid or str(entry.index)
        for problem in _each_once(result.problems):
            reporter.warn(f"entry {entry.index}: {problem.message}", entry.source, entry.line, code=problem.code,
                          paper=paper, subject=problem.subject, value=problem.value)
        for guessed in result.guesses:
            reporter.warn(f"entry {entry.index}: {guessed.message}; {advice(guessed)}", entry.source, entry.line,
                          code=guessed.code, paper=paper, subject=guessed.subject, value=guessed.value)


def _each_once(problems: tuple[TexProblem, ...]) -> list[TexProblem]:
    """The first problem of each message (the same macro undefined thrice in an abstract is one warning)."""
    first: dict[str, TexProblem] = {}
    for problem in problems:
        first.setdefault(problem.message, problem)
    return list(first.values())


def check_citations(project: Project, papers: list[RenderedPaper], reporter: Reporter) -> None:
    """Every paper's BibTeX entry, as a build writes it: math a citation may not carry is warned about."""
    writer = BibTeX(project.volume, project.config.macros, reporter.warn)
    for paper in papers:
        writer.entry(paper)


def check_dois(project: Project, papers: list[RenderedPaper], reporter: Reporter) -> None:
    """When the volume registers DOIs (``doi:``): what would make the build refuse its deposit, and each paper
    the deposit would leave out for want of a DOI (its source gives none and the pattern makes none: ``{key}``
    of a paper whose source has no id)."""
    if not crossref.wanted(project.volume):
        return
    for path, problem in crossref.problems(papers, project.volume):  # what the build would refuse
        reporter.error(problem, path, code=codes.DOI_DEPOSIT_INVALID, subject="doi")
    for paper in papers:
        if not paper.details.doi:
            reporter.warn("no DOI: the Crossref deposit leaves this paper out (give it `doi:`, or a `doi: {pattern}` "
                          "every paper fills)", f"{PAGES_DIR}/{paper.paper.path.name}", code=codes.DOI_MISSING,
                          subject="doi")


@dataclass(frozen=True)
class SiteCheck:
    """``check`` over a content folder's volumes (one, or a series')."""

    results: dict[str, CheckResult]  # prefix → its volume's check ("" alone)
    series: bool

    def lines(self) -> list[str]:
        return [f"{prefix}/: {summary(result)}" for prefix, result in self.results.items()] if self.series else []

    def summary(self) -> str:
        if not self.series:
            return summary(next(iter(self.results.values())))
        total = sum(result.papers for result in self.results.values())
        return f"checked a series of {len(self.results)} volumes, {total} pages"


def check_site(content_dir: Path, reporter: Reporter, site: Path | None = None) -> SiteCheck:
    """Every volume of a content folder checked as a build would build it, its messages naming its folder;
    with ``site``, the built site too: its pages against Google Scholar's rules, its robots.txt."""
    layout = load_layout(content_dir, reporter)
    if site is not None and (site / "index.html").is_file():
        for problem in robots_findings(site):
            reporter.warn(f"Google Scholar: {problem}", ROBOTS_PATH, code=codes.SCHOLAR_ROBOTS)
    if layout.series is None:
        return SiteCheck({"": check(content_dir, reporter, site=site)}, False)
    results = {m.prefix: check(m.content_dir, member_reporter(reporter, m), people=layout.people, site=site,
                               prefix=m.prefix) for m in layout.members}
    # The people pages' warnings, from every volume's papers (newest folder first, as the series lists them).
    papers = (((prefix, paper), authors) for prefix, result in reversed(results.items())
              for paper, authors in result.authors)
    group(papers, layout.people, "people").report(reporter.warn)
    orders_across(((prefix, author.name, _place(prefix, paper)) for prefix, result in results.items()
                   for paper, authors in result.authors for author in authors), layout.people, reporter.warn)
    return SiteCheck(results, True)


def _place(prefix: str, paper: object) -> Place:
    """Where an author of a checked paper is written: its page, or its list's line when it has no page yet."""
    if isinstance(paper, RenderedPaper):
        return Place(f"{prefix}/{PAGES_DIR}/{paper.paper.path.name}", None)
    assert isinstance(paper, Entry)
    return Place(f"{prefix}/{paper.source}", paper.line)


def summary(result: CheckResult) -> str:
    pending = ", ".join(f"{count} to {action}" for action, count in sorted(result.pending.items())) or "none"
    return (f"checked {result.entries} list entries and {result.papers} pages (page changes a build would make: "
            f"{pending})")
