"""Issue #30's topic items: the venue's own subjects are the topics, the taxonomy is used only where it
fits, and a topic on most of a volume gives way to narrower ones. Fixtures are shaped like the venues'
exports (tests/fixtures/venues/)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from conftest import REPO
from generator.content.pages import read_page
from generator.sources.subjects import subject_topic
from generator.sources import read_source

VENUES = Path(__file__).parent / "fixtures" / "venues"
ISMIR_SUBJECTS = VENUES / "ismir-2024-subjects.csv"


def run(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "generator", *args], env=env, capture_output=True, text=True,
                          timeout=300)


def built(tmp_path: Path, source: Path, name: str = "papers.csv", config: str = "") -> tuple[Path, Path, str]:
    """A content folder holding ``source``, built from the command line: (content, site, its output)."""
    content, site = tmp_path / "content", tmp_path / "site"
    content.mkdir()
    (content / name).write_bytes(source.read_bytes())
    if config:
        (content / "proceedings.yaml").write_text(config, encoding="utf-8")
    result = run("build", "--content", str(content), "--out", str(site))
    assert result.returncode == 0, result.stderr
    return content, site, result.stdout + result.stderr


def page_tags(content: Path) -> dict[str, list[str]]:
    """Each page's uid (else its file name) → its tags."""
    tags = {}
    for path in sorted((content / "papers").glob("*.md")):
        meta = read_page(path).meta
        tags[str(meta.get("uid") or path.stem)] = list(meta.get("tags") or [])
    return tags


# -- 1. The venue's own subjects become topics ------------------------------------------------------------


@pytest.mark.parametrize("written, topic", [
    ("MIR tasks -> music transcription and annotation", "Music transcription and annotation"),
    ("Musical features and properties -> rhythm, beat, tempo", "Rhythm, beat, tempo"),
    ("Knowledge-driven approaches to MIR -> cognitive MIR", "Cognitive MIR"),
    ("Applications→ digital libraries and archives", "Digital libraries and archives"),
    ("Social media and  misinformation", "Social media and misinformation"),  # no levels: as written
    ("MIR tasks -> ", "MIR tasks"),  # an empty last level is no level
])
def test_a_hierarchical_subject_is_its_most_specific_name(written, topic):
    assert subject_topic(written) == topic


def test_subject_columns_are_read_primary_first_and_a_subject_keeps_its_commas(tmp_path):
    table = tmp_path / "papers.csv"
    table.write_text(
        "paper_id,title,abstract,topic,keywords\n"
        '18035,Partisan Asymmetries,We measure exposure to misinformation.,"Misinformation, rumors",polarization\n'
        "18036,Who Moderates?,We ask why moderators leave.,Online communities,moderation;governance\n",
        encoding="utf-8")
    first, second = read_source(table, "papers.csv").entries
    assert first.keywords == ("Misinformation, rumors", "polarization")
    assert second.keywords == ("Online communities", "moderation", "governance")
    ismir = read_source(ISMIR_SUBJECTS, "papers.csv").entries
    assert ismir[1].keywords == ("Novel datasets and use cases", "Music transcription and annotation",
                                 "Digital libraries and archives")


def test_an_ismir_export_takes_its_topics_from_its_subjects(tmp_path):
    content, site, output = built(tmp_path, ISMIR_SUBJECTS)
    tags = page_tags(content)
    with_subjects = [uid for uid, names in tags.items() if names and "Other topics" not in names]
    other = [uid for uid, names in tags.items() if "Other topics" in names]
    assert len(tags) == 24
    assert len(with_subjects) / len(tags) >= 0.9  # 23 of 24: all but the keynote, which has no subject
    assert len(other) / len(tags) <= 0.05, other
    assert tags["3"] == ["Music transcription and annotation", "Rhythm, beat, tempo"]
    # No topic of the built-in (machine learning) taxonomy is invented for a paper the venue classified.
    taxonomy_words = ("Large language models", "Clustering", "Language & speech", "Supervised learning")
    assert not [uid for uid, names in tags.items() if any(n.startswith(taxonomy_words) for n in names)]
    assert "no tag of the built-in taxonomy matches “Keynote: Listening Machines”" in output
    assert output.count("no tag of the built-in taxonomy matches") == 1
    topic_page = (site / "tags" / "music-transcription-and-annotation.html").read_text(encoding="utf-8")
    assert "Drum Transcription With Few Labels" in topic_page and "Note-Level Transcription" in topic_page
    assert Counter(n for names in tags.values() for n in names)["Digital libraries and archives"] == 4
