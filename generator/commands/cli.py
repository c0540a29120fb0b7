"""The command line: parses arguments, calls the core, maps errors to exit codes.

Exit status: 0 success (warnings allowed), 1 content errors (other pages
were still built), 2 a problem that stopped the command (config, theme,
output, usage).
"""

from __future__ import annotations

import argparse
import functools
import os
import shutil
import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from generator import __version__
from generator.errors import ProceedingsError
from generator.reporter import ConsoleReporter, Reporter, not_published, printable
from generator.runtime.blas import one_thread
from generator import diagnostics as codes

# Each command imports the modules it runs when it runs (``run_build`` the whole pipeline, ``run_new`` the
# scaffold): ``--version``, ``--help`` or ``new`` need not load a build's libraries (Jinja2, markdown-it…).
if TYPE_CHECKING:
    from generator.content.merge import Change
    from generator.content.project import Project


def main(argv: list[str] | None = None) -> int:
    one_thread()  # before a command's modules import numpy: OpenBLAS starts its threads as it loads
    args = _parser().parse_args(argv)
    reporter = ConsoleReporter(verbose=getattr(args, "verbose", False))
    try:
        code: int = args.command(args, reporter)
        return code
    except ProceedingsError as exc:
        print(printable(f"error: {exc}"), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def run() -> NoReturn:
    """The command line as a process of its own (``python -m generator``, the ``proceedings`` script): ``main``,
    then the process ends at once, its output flushed. The interpreter's own exit frees every object one by one
    (a build's millions: 0.2 s of a warm build's 2.5, up to a second of a build without its cache at 10,000
    papers, bench/RESULTS.md), memory the system takes back whole anyway. By then every file the command wrote
    is closed, and nothing is left to wait for: its forked workers ended with their stages, and a child still
    alive (serve's background job) ends with its parent (runtime/background.py ``die_with``)."""
    leave(main())


def leave(code: int) -> NoReturn:
    """End this process now with ``code``, its output flushed, without the interpreter's teardown (``run``)."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:  # (a reader gone: the interpreter's own exit says so, as it would have)
        raise SystemExit(code) from None
    os._exit(code)


@functools.cache  # parsing leaves a parser as it was; making one was 3 ms of every command run in a process
def _parser() -> argparse.ArgumentParser:
    return make_parser()


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="proceedings",
        description="Turn a list of conference abstracts into a browsable, searchable proceedings website.",
    )
    parser.add_argument("--version", action="version", version=f"proceedings {__version__}")
    commands = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")

    build_parser = commands.add_parser("build", help="build the site from a content folder",
                                       description="Sync the Markdown pages with the abstract lists, "
                                                   "then write the static site.")
    _content_option(build_parser)
    build_parser.add_argument("--out", type=Path, default=Path("site"), help="output folder (default: site)")
    build_parser.add_argument("--base-url", help="absolute URL the site will be published at "
                                                 "(overrides base_url in proceedings.yaml)")
    _verbose_option(build_parser, "; and each stage's time")
    build_parser.add_argument("--no-cache", dest="cache", action="store_false",
                              help="neither use nor update the build cache (CONTENT/.proceedings-cache)")
    build_parser.add_argument("--jobs", type=int, metavar="N",
                              help="processes to use (default: one per core); --jobs 1 builds in this process only")
    _strict_option(build_parser)
    build_parser.set_defaults(command=run_build)

    serve_parser = commands.add_parser("serve", help="build, serve and rebuild on every change",
                                       description="Build the site, serve it, watch the content folder and "
                                                   "the theme, rebuild what changed and reload the browser.")
    _content_option(serve_parser)
    serve_parser.add_argument("--out", type=Path, default=Path("site"), help="output folder (default: site)")
    serve_parser.add_argument("--host", default="127.0.0.1",
                              help="address to listen on (default: 127.0.0.1, this machine only)")
    serve_parser.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    serve_parser.add_argument("--open", action="store_true", help="open the site in a browser")
    serve_parser.add_argument("--base-url", help="as for build")
    serve_parser.set_defaults(command=run_serve)

    check_parser = commands.add_parser("check", help="validate everything, write nothing",
                                       description="Run every validation of a build (config, lists, pages, "
                                                   "LaTeX, templates) without writing a site or a page.")
    _content_option(check_parser)
    check_parser.add_argument("--site", type=Path, default=None,
                              help="the built site to check against Google Scholar's inclusion rules "
                                   "(default: site, when it has been built)")
    _verbose_option(check_parser)
    _strict_option(check_parser)
    check_parser.set_defaults(command=run_check)

    import_parser = commands.add_parser("import", help="turn a source of abstracts into Markdown pages",
                                        description="Copy SOURCE into the content folder (if it is not there) "
                                                    "and create, update or remove its Markdown pages.")
    import_parser.add_argument("list", type=Path, metavar="SOURCE",
                               help="the abstracts: a plain list (.txt), BibTeX (.bib), CSV (.csv), TSV (.tsv) "
                                    "or JSON Lines (.jsonl)")
    _content_option(import_parser)
    import_parser.add_argument("--dry-run", action="store_true", help="report what would change; write nothing")
    _verbose_option(import_parser)
    _strict_option(import_parser)
    import_parser.set_defaults(command=run_import)

    new_parser = commands.add_parser("new", help="start a new proceedings: a folder ready for GitHub Pages",
                                     description="Write a new or empty folder with an example abstract list, "
                                                 "proceedings.yaml, a GitHub Pages workflow and a README; "
                                                 "it builds as it is.")
    new_parser.add_argument("dir", type=Path, metavar="DIR", help="the folder to create (new or empty)")
    new_parser.add_argument("--title", help="proceedings title (default: the folder's name)")
    new_parser.add_argument("--install", metavar="SPEC",
                            help="pip requirement the workflow installs Proceedings from, e.g. "
                                 "git+https://github.com/OWNER/REPO@v0.1.0 (default: where this copy came from)")
    new_parser.add_argument("--series", action="store_true",
                            help="a series: the series' proceedings.yaml and one example volume, "
                                 "content/<this year>/ (add more volumes beside it)")
    # The flag's first name, kept so that scripts written for it go on working.
    new_parser.add_argument("--archive", dest="series", action="store_true", help=argparse.SUPPRESS)
    new_parser.add_argument("--repository", metavar="OWNER/NAME",
                            help="the site's GitHub repository, where readers suggest corrections (default: the "
                                 "folder's git origin, when it is on GitHub)")
    new_parser.set_defaults(command=run_new)

    correct_parser = commands.add_parser("correct", help="apply a reader's correction (an issue) to the pages",
                                         description="Read the record of a \"Suggest a correction\" issue (its "
                                                     "Markdown body, or the issue as JSON) and apply the values "
                                                     "the reader changed to the page, as a hand edit; print the "
                                                     "diff.")
    correct_parser.add_argument("issue", type=Path, metavar="ISSUE",
                                help="the issue: its body as Markdown, or JSON with a body "
                                     "(gh issue view N --json body)")
    _content_option(correct_parser)
    correct_parser.add_argument("--dry-run", action="store_true", help="print the diff; write nothing")
    correct_parser.set_defaults(command=run_correct)
    return parser


def _verbose_option(parser: argparse.ArgumentParser, also: str = "") -> None:
    shown = ConsoleReporter
    parser.add_argument("-v", "--verbose", action="store_true",
                        help=f"print every warning, note and page changed{also} (without -v: the first "
                             f"{shown.WARNINGS_SHOWN} warnings, then counts by kind; every record not published "
                             f"is counted in the last line either way)")


def _strict_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 on warnings too (a record skipped, a link left out…), not only on errors")


def _content_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--content", type=Path, default=Path("content"),
                        help="content folder: abstract lists, pages, proceedings.yaml (default: content)")


def run_build(args: argparse.Namespace, reporter: ConsoleReporter) -> int:
    if args.jobs is not None and args.jobs < 1:
        raise ProceedingsError("--jobs must be at least 1")
    from generator.commands.build import build

    result = build(args.content, args.out, reporter, base_url=args.base_url, cache=args.cache, jobs=args.jobs)
    report_changes(result.changes, args.content, reporter, verbose=args.verbose)
    if note := result.date_note():
        reporter.say(note)
    return finish(result.summary(args.out), reporter, args.strict)


def run_serve(args: argparse.Namespace, reporter: ConsoleReporter) -> int:
    from generator.commands.serve import serve

    return serve(args.content, args.out, args.host, args.port, args.open, reporter, base_url=args.base_url)


def run_check(args: argparse.Namespace, reporter: ConsoleReporter) -> int:
    from generator.commands.check import check_site

    site = args.site if args.site is not None else (Path("site") if (Path("site") / "index.html").is_file() else None)
    checked = check_site(args.content, reporter, site)
    for line in checked.lines():
        reporter.say(line)
    return finish(checked.summary(), reporter, args.strict)


def run_import(args: argparse.Namespace, reporter: ConsoleReporter) -> int:
    from generator.sources import READERS

    source = args.list
    if source.suffix.lower() not in READERS:
        raise ProceedingsError(f"unknown source format {source.suffix!r} (known: {', '.join(READERS)})",
                               path=source)
    if not source.is_file():
        raise ProceedingsError("no such file", path=source)
    created = not args.content.exists()
    try:
        return _import(args, source, reporter, created)
    except BaseException:
        if created and args.content.is_dir() and not any(args.content.iterdir()):
            args.content.rmdir()  # a failed import into a new folder leaves no empty folder behind
        raise


def _import(args: argparse.Namespace, source: Path, reporter: ConsoleReporter, created: bool) -> int:
    from generator.content.project import load_project
    from generator.pipeline.rendering import sync_project

    project = load_project(args.content, reporter, incoming=source)
    if created:  # importing into a new proceedings
        if not args.dry_run:
            args.content.mkdir(parents=True)
        reporter.say(f"{'would create' if args.dry_run else 'created'} {args.content}/")
    target = args.content / source.name
    copying = not target.exists() or source.resolve() != target.resolve()
    plan = sync_project(project, reporter, apply=not args.dry_run)
    if copying and not args.dry_run:
        try:
            shutil.copyfile(source, target)
        except OSError as exc:  # a full or read-only content folder: one line, no traceback
            raise ProceedingsError(f"cannot copy the source in ({exc.strerror or exc}): is the content folder "
                                   "full or read-only?", path=target) from None
    if copying:
        verb = "would copy" if args.dry_run else "copied"
        reporter.say(f"{verb} {source} to {target}")
    report_changes(plan.changes, args.content, reporter, dry_run=args.dry_run, verbose=args.verbose)
    write_config(project, args.content, reporter, args.dry_run)
    return finish("dry run: nothing written" if args.dry_run else "import done", reporter, args.strict)


def write_config(project: Project, content_dir: Path, reporter: Reporter, dry_run: bool) -> None:
    """A folder without proceedings.yaml gets one with the volume's title (the one a build would show) and
    the other keys commented out to fill; an existing one is never touched."""
    from generator.commands.scaffold import write_volume_config
    from generator.model.config import CONFIG_NAME
    from generator.model.volume import title_origin
    from generator.text.i18n import default_title

    path = content_dir / CONFIG_NAME
    if path.exists():
        return
    title = project.volume.title
    origin = title_origin(project.sources, title if title != default_title(project.config.language) else "")
    if dry_run:
        reporter.say(f"would write {path} (title: {title!r})")
    elif write_volume_config(content_dir, title, origin) is not None:
        reporter.say(f"wrote {path} (title: {title!r}, from {origin or 'nothing: give it yours'}; the other "
                      "keys are there to fill, commented out)")


def run_new(args: argparse.Namespace, reporter: ConsoleReporter) -> int:
    from generator.commands.scaffold import WORKFLOW, create

    project, files = create(args.dir, args.title, args.install, series=args.series, repository=args.repository)
    for name in files:
        reporter.say(f"  create {args.dir / name}")
    if not project.install.known:
        reporter.warn("where the workflow installs Proceedings from is not known: set PROCEEDINGS before "
                      "publishing (README.md says how), or run `new` again with --install SPEC",
                      path=args.dir / WORKFLOW, code=codes.WORKFLOW_INSTALL_UNKNOWN)
    reporter.say(f"next: cd {args.dir} && proceedings build, then open site/index.html; "
                  f"README.md says how to publish")
    return finish(f"created {project.title!r} in {args.dir}/", reporter)


def run_correct(args: argparse.Namespace, reporter: ConsoleReporter) -> int:
    from generator.commands.correct import correct, write

    correction = correct(args.issue, args.content)
    diff = correction.diff(args.content)
    if diff:
        sys.stdout.write(diff)  # the pages' own text: a person reviews it as a diff
    if not correction.texts:
        return finish("nothing to correct: the record's values are the pages' own", reporter)
    if not args.dry_run:
        write(correction)
    for note in correction.notes:
        reporter.say(f"  {'would correct' if args.dry_run else 'corrected'} {note}")
    verb = "would change" if args.dry_run else "changed"
    return finish(f"{verb} {len(correction.texts)} page{'s' * (len(correction.texts) != 1)}", reporter)


CHANGES_SHOWN = 10  # pages changed, each named; past that (a first build), counted (-v names each)


def report_changes(changes: list[Change], content_dir: Path, reporter: Reporter, dry_run: bool = False,
                   verbose: bool = False) -> None:
    if not changes:
        reporter.say("pages: no changes")
        return
    prefix = "would " if dry_run else ""
    listed = verbose or len(changes) <= CHANGES_SHOWN
    for change in changes if listed else ():
        reporter.say(f"  {prefix}{change.action} {_relative(change.path, content_dir)}: {change.detail}")
    counts = {action: sum(c.action == action for c in changes) for action in ("create", "update", "remove")}
    reporter.say("pages: " + ", ".join(f"{prefix}{a} {n}" for a, n in counts.items() if n)
                 + ("" if listed else " (-v names each)"))


def _relative(path: Path, base: Path) -> str:
    try:
        return str(path.relative_to(base))
    except ValueError:
        return str(path)


def finish(summary: str, reporter: Reporter, strict: bool = False) -> int:
    """Exit 1 when content was lost (an error: a page that could not be built), or on any warning
    with ``strict``; warnings alone (a record skipped, a link left out) exit 0, summarised by file. The
    last line counts every record not published and names the first."""
    hidden = reporter.summary() if isinstance(reporter, ConsoleReporter) else ""
    if hidden:
        reporter.say(hidden)
    errors, warnings = len(reporter.errors), len(reporter.warnings)
    if warnings:
        by_file = Counter(str(d.path) if d.path else "other" for d in reporter.warnings)
        listed = ", ".join(f"{name} ({count})" for name, count in by_file.most_common(8))
        reporter.say(f"warnings by file: {listed}" + ("" if strict else "; --strict makes them fail the run"))
    lost = not_published(reporter.not_published)
    reporter.say(f"{summary} ({errors} errors, {warnings} warnings)" + (f"; {lost}" if lost else ""))
    return 1 if errors or (strict and warnings) else 0


if __name__ == "__main__":
    raise SystemExit(main())
