"""The topics a volume gets, against issue #38's targets, and what deciding them costs.

    python bench/topics_report.py CONTENT_OR_SOURCE [--ignore-subjects] [--papers 10000] [--show 30]

CONTENT_OR_SOURCE is a content folder or one source file (a Mini-Conf CSV, a .bib, JSON Lines…). The tags
are the ones a build gives (``derive_one``: the taxonomy where it fits the volume, else the key phrases
the papers share); ``--ignore-subjects`` drops the source's subjects and keywords first, as for a venue
that publishes none. Printed:

- the share of papers under the fallback topic ("Other topics"): target ≤ 5%;
- the number of topics (the fallback not counted): target ≥ 5;
- the share of topics named by words most of their papers use: a topic passes when its name (case, hyphens
  and a plural "s" aside; for Chinese and Japanese, its characters) is in the title or abstract of more
  than half of the papers it tags: target ≥ 80%. The taxonomy's names ("Optimization") are its own words,
  not the papers', so a volume it fits scores low here by design: the target is for the others.

``--papers N`` repeats the volume's papers (each copy's title numbered, so none is the same paper) up to N
and times the volume's topic decision (``survey``, with the key phrases where the taxonomy does not fit)
on them: what a build of that many papers spends before tagging each paper.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.reporter import Reporter  # noqa: E402
from generator.content.project import Project, derive_one, load_project  # noqa: E402
from generator.derive.volume_topics import is_front_matter, survey  # noqa: E402
from generator.model.paper import Entry  # noqa: E402
from generator.text.cjk import has_cjk  # noqa: E402


def project_of(path: Path, ignore_subjects: bool) -> Project:
    if path.is_dir():
        project = load_project(path, Reporter())
    else:
        project = load_project(Path(tempfile.mkdtemp()) / "content", Reporter(), incoming=path)
    if ignore_subjects:
        sources = [replace(s, entries=tuple(replace(e, keywords=()) for e in s.entries)) for s in project.sources]
        topics = survey(project.taxonomy, entries_of(sources), project.config.auto_tags)
        project = replace(project, sources=sources, topics=topics)
    return project


def entries_of(sources) -> list[Entry]:
    return [entry for source in sources for entry in source.entries]


def named_by_papers(name: str, texts: list[str]) -> bool:
    """Whether ``name`` is in more than half of ``texts``."""
    pattern = name_pattern(name)
    return sum(bool(pattern.search(normal(text))) for text in texts) * 2 > len(texts)


def name_pattern(name: str) -> re.Pattern[str]:
    name = normal(name)
    if has_cjk(name):
        return re.compile(re.escape(name))
    words = [re.escape(word) for word in name.split(" ")]
    words[-1] = words[-1].removesuffix("s") + "(?:s|es|y|ies)?" if len(words[-1]) > 3 else words[-1]
    return re.compile(r"(?<!\w)" + r" ?".join(words) + r"(?!\w)")


def normal(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(re.sub(r"[-‐‑–]", " ", text).split())


def report(project: Project, show: int) -> dict[str, float]:
    entries = entries_of(project.sources)
    started = time.process_time()
    tags = [derive_one(project, entry)[0].tags for entry in entries]
    derived = time.process_time() - started
    fallback = project.taxonomy.fallback
    papers = {}  # topic → texts of its papers
    for entry, names in zip(entries, tags):
        for name in names:
            papers.setdefault(name, []).append(f"{entry.title}\n{entry.text}")
    topics = {name: texts for name, texts in papers.items() if name != fallback}
    named = [name for name, texts in topics.items() if named_by_papers(name, texts)]
    other = len(papers.get(fallback, []))
    front = sum(is_front_matter(entry) for entry in entries)
    decided = project.topics
    how = "the taxonomy fits" if decided.fits else "the taxonomy does not fit: the papers' own key phrases"
    tagged = decided.tagged
    print(f"papers: {len(entries)} ({front} front matter); {how} "
          f"(matching none {decided.fell_back}/{tagged}, described clearly {decided.described}/{tagged})")
    print(f"under {fallback!r}: {other} ({other / len(entries):.1%})   target ≤ 5%")
    print(f"topics: {len(topics)}   target ≥ 5")
    print(f"named by words most of their papers use: {len(named)}/{len(topics)} "
          f"({len(named) / max(1, len(topics)):.0%})   target ≥ 80%")
    print(f"tagging each paper (derive_one, rendering included): {derived:.2f} s CPU")
    sizes = Counter({name: len(texts) for name, texts in topics.items()})
    print("largest topics:", "; ".join(f"{name} ({n})" for name, n in sizes.most_common(show)))
    return {"other": other / len(entries), "topics": len(topics), "named": len(named) / max(1, len(topics))}


def time_survey(project: Project, papers: int) -> None:
    """The volume's topic decision on ``papers`` papers: the volume's own, repeated with numbered titles."""
    entries = entries_of(project.sources)
    grown = [replace(entry, title=f"{entry.title} ({n // len(entries) + 1})" if n >= len(entries) else entry.title)
             for n, entry in ((n, entries[n % len(entries)]) for n in range(papers))]
    started = time.process_time()
    decided = survey(project.taxonomy, grown, project.config.auto_tags)
    spent = time.process_time() - started
    how = "taxonomy" if decided.fits else f"own key phrases, {len(decided.own)} topics"
    print(f"deciding the topics of {papers:,} papers ({how}): {spent:.2f} s CPU")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", type=Path, help="a content folder or a source file")
    parser.add_argument("--ignore-subjects", action="store_true", help="drop the source's subjects and keywords")
    parser.add_argument("--papers", type=int, default=0, help="also time the topic decision at this many papers")
    parser.add_argument("--show", type=int, default=25, help="how many of the largest topics to list")
    args = parser.parse_args()
    project = project_of(args.path, args.ignore_subjects)
    report(project, args.show)
    if args.papers:
        time_survey(project, args.papers)


if __name__ == "__main__":
    main()
