"""Issue #30's topic items: the venue's own subjects are the topics, the taxonomy is used only where it
fits, and a topic on most of a volume gives way to narrower ones. Fixtures are shaped like the venues'
exports (tests/fixtures/venues/)."""

from __future__ import annotations

import csv
import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import cli
from generator.content.pages import read_page
from generator.derive.tagging import default_taxonomy
from generator.derive.volume_topics import FIT_MIN, VolumeTopics, survey
from generator.model.paper import Entry
from generator.sources.subjects import subject_topic, subject_topics
from generator.sources import read_source

VENUES = Path(__file__).parent / "fixtures" / "venues"
ISMIR_SUBJECTS = VENUES / "ismir-2024-subjects.csv"


def built(tmp_path: Path, source: Path, name: str = "papers.csv", config: str = "") -> tuple[Path, Path, str]:
    """A content folder holding ``source``, built from the command line: (content, site, its output)."""
    content, site = tmp_path / "content", tmp_path / "site"
    content.mkdir()
    (content / name).write_bytes(source.read_bytes())
    if config:
        (content / "proceedings.yaml").write_text(config, encoding="utf-8")
    result = cli("build", "--content", str(content), "--out", str(site))
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


@pytest.mark.parametrize("cell, topics", [
    ("MIR tasks -> similarity metrics, Applications -> music retrieval systems",
     ["Similarity metrics", "Music retrieval systems"]),
    # An area holding commas, a sub-area holding commas: the next name starts at the capital before an arrow.
    ("MIR tasks -> similarity metrics, Evaluation, datasets, and reproducibility -> novel datasets and use cases",
     ["Similarity metrics", "Novel datasets and use cases"]),
    ("Musical features and properties -> rhythm, beat, tempo, Knowledge-driven approaches to MIR -> cognitive MIR",
     ["Rhythm, beat, tempo", "Cognitive MIR"]),
    ("Music -> Audio -> source separation", ["Source separation"]),  # three levels: one name
    ("Social media, Misinformation", ["Social media, Misinformation"]),  # no levels: never split on commas
])
def test_a_list_of_hierarchical_subjects_written_with_commas_is_split_where_an_area_begins(cell, topics):
    assert subject_topics([cell]) == topics


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
    assert tags["77"] == []  # the keynote: front matter, no topic of the tool's (it was 'Other topics', #38)
    assert "no tag of the built-in taxonomy matches" not in output
    topic_page = (site / "tags" / "music-transcription-and-annotation.html").read_text(encoding="utf-8")
    assert "Drum Transcription With Few Labels" in topic_page and "Note-Level Transcription" in topic_page
    assert Counter(n for names in tags.values() for n in names)["Digital libraries and archives"] == 4


# -- 2. The taxonomy only where it fits -------------------------------------------------------------------


def without_subjects(tmp_path: Path) -> Path:
    """The ISMIR-shaped export as a venue without subject columns publishes it (ISMIR's earlier exports)."""
    rows = list(csv.reader(ISMIR_SUBJECTS.open(encoding="utf-8")))
    table = tmp_path / "ismir-no-subjects.csv"
    with table.open("w", encoding="utf-8", newline="") as out:
        csv.writer(out, lineterminator="\n").writerows(
            [cell for name, cell in zip(rows[0], row) if "subject" not in name] for row in rows)
    return table


@pytest.mark.slow
def test_a_taxonomy_that_fits_no_paper_of_most_of_the_volume_gives_way_to_the_papers_own_phrases(tmp_path):
    content, site, output = built(tmp_path, without_subjects(tmp_path))
    tags = page_tags(content)
    taxonomy_words = ("Large language models", "Clustering", "Language & speech", "Supervised learning")
    assert len(tags) == 24
    assert not [names for names in tags.values() if any(n.startswith(taxonomy_words) for n in names)]
    assert tags["77"] == []  # the keynote
    # Its topics are phrases its papers share, each on two or more of them (#38).
    counts = Counter(name for names in tags.values() for name in names if name != "Other topics")
    assert {"Transcription", "Tablature", "Separation"} <= set(counts) and min(counts.values()) >= 2
    assert "no tag of the built-in taxonomy matches" not in output  # no warning per paper…
    assert output.count("17 of 23 papers match no tag of the built-in taxonomy, so it does not fit this volume") == 1
    assert "key phrases its papers share" in output
    assert (site / "tags" / "tablature.html").exists()
    # Told to do without topics, the build says nothing more; a taxonomy that fits the field tags the papers.
    (content / "proceedings.yaml").write_text("auto_tags: never\n", encoding="utf-8")
    result = cli("build", "--content", str(content), "--out", str(site))
    assert "does not fit" not in result.stdout + result.stderr and not any(page_tags(content).values())
    (content / "proceedings.yaml").unlink()
    (content / "taxonomy.yaml").write_text(
        "tags:\n  Transcription: [transcription, transcribe, tablature]\n  Separation: [separation, separate, stems]\n"
        "  Datasets: [dataset, annotate, annotated, release]\n  Recommendation: [playlist, playlists, recommendation]\n"
        "  Rhythm and harmony: [beat, beats, tempo, chord, chords, harmony, timing, rhythm]\n"
        "  Retrieval: [retrieval, search, cover, similar]\n"
        "  Listeners: [listeners, listener, listening, producers, singers]\n",
        encoding="utf-8")
    result = cli("build", "--content", str(content), "--out", str(site))
    assert result.returncode == 0 and "does not fit" not in result.stdout + result.stderr
    tags = page_tags(content)
    assert tags["92"] == ["Transcription"] and sum(bool(names) for names in tags.values()) >= 20


def test_a_few_papers_the_taxonomy_misses_are_still_each_named():
    topics = survey(default_taxonomy(), [entry(f"Zzz qqq {n}.") for n in range(FIT_MIN - 1)], "missing")
    assert topics.fits and topics.fell_back == FIT_MIN - 1
    topics = survey(default_taxonomy(), [entry(f"Zzz qqq {n}.") for n in range(FIT_MIN)], "missing")
    assert not topics.fits and topics.version.startswith("/own-")  # the papers' own phrases instead (#38)
    topics = survey(default_taxonomy(), [entry(f"Zzz {word}.") for word in ("ab", "cd", "ef", "gh", "ij")], "missing")
    assert not topics.fits and not topics.own and topics.version == "/unfit"  # nothing shared: no topics
    assert survey(default_taxonomy(), [entry("Zzz.")] * 30, "never") == VolumeTopics()
    # Most of the volume: five papers missed among twenty, fourteen with keywords, leave the taxonomy in use.
    volume = [entry(f"Zzz {n}.") for n in range(5)] + [entry("A diffusion model for image generation.")]
    volume += [entry("Qqq.", keywords=("Music",))] * 14
    assert survey(default_taxonomy(), volume, "missing").fits
    # A taxonomy.yaml is the organisers' own: applied as written, its fallback on each paper it misses.
    own = replace(default_taxonomy(), name="taxonomy.yaml")
    assert survey(own, [entry(f"Zzz qqq {n}.") for n in range(30)], "missing").fits


# -- 3. Topics that tell ----------------------------------------------------------------------------------

COLT = VENUES / "colt-2024-theory.bib"
BROAD = "Learning theory & statistics"


def entry(text: str, title: str = "", keywords: tuple[str, ...] = ()) -> Entry:
    return Entry(text=text, source="t.jsonl", index=1, line=1, title=title, keywords=keywords)


def test_a_topic_on_most_of_a_colt_volume_gives_way_to_narrower_ones(tmp_path):
    entries = read_source(COLT, COLT.name).entries
    before = survey(default_taxonomy(), entries, "missing")
    assert before.broad == ((BROAD, 16),) and before.papers == 30  # 53% of the volume, as 98 of 170 on COLT 2024
    content, site, output = built(tmp_path, COLT, COLT.name)
    tags = page_tags(content)
    counts = Counter(name for names in tags.values() for name in names)
    assert counts[BROAD] == 10 and max(counts.values()) / len(tags) <= 1 / 3  # the largest topic: 53% → 33%
    assert all(names == [BROAD] for names in tags.values() if BROAD in names)  # only where there is no other
    assert tags["bhatt24a"] == ["Reinforcement learning & bandits"]  # "regret bound" no longer adds the broad one
    assert tags["hanneke24a"] == ["Supervised learning"]
    assert tags["mohri24a"] == [BROAD]  # Rademacher complexity: nothing narrower to say
    assert f"“{BROAD}” would be on 16 of 30 papers" in output
    assert "Reinforcement learning &amp; bandits" in (site / "tags" / "index.html").read_text(encoding="utf-8")


def test_narrower_tags_are_weighed_against_each_other_once_the_broad_one_gives_way():
    taxonomy = default_taxonomy()
    text = ("We prove a regret bound and a sample complexity lower bound for PAC learning with a minimax rate, "
            "a generalization bound in the VC dimension and a bandit algorithm of low regret.")
    assert taxonomy.tags_for("", text) == (BROAD,)  # the bandit is a side remark beside the theory…
    assert taxonomy.tags_for("", text, narrower_than=frozenset({BROAD})) == ("Reinforcement learning & bandits",)
    only_theory = "We bound the Rademacher complexity and the VC dimension of the class, with a PAC-Bayes bound."
    assert taxonomy.tags_for("", only_theory, narrower_than=frozenset({BROAD})) == (BROAD,)


def test_a_broad_topic_the_source_gives_is_never_dropped(tmp_path):
    # A theory volume of bandit and optimization papers: the theory tag is on all of them, and each paper's
    # narrower tag earns it clearly, so the taxonomy describes the volume (#38).
    bandits = ("We prove a regret bound, a sample complexity lower bound and a minimax rate for multi-armed bandits "
               "of low regret, and a bandit algorithm with an exploration-exploitation trade-off.")
    optimization = ("We prove a sample complexity lower bound and a minimax rate for stochastic gradient descent on "
                    "convex losses, and a convergence rate for nonconvex optimization.")
    lines = [json.dumps({"id": f"p{n}", "title": f"Regret Bounds {n}", "abstract": (bandits, optimization)[n % 2]})
             for n in range(24)]
    lines[0] = json.dumps({"id": "given", "title": "Given", "keywords": [BROAD, "Online learning"],
                           "abstract": bandits})
    source = tmp_path / "colt.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    content, site, output = built(tmp_path, source, source.name, config="auto_tags: always\n")
    tags = page_tags(content)
    assert tags["given"] == [BROAD, "Online learning", "Reinforcement learning & bandits"]
    assert tags["p4"] == ["Reinforcement learning & bandits"] and tags["p5"] == ["Optimization"]


@pytest.mark.slow
def test_pages_are_tagged_again_when_the_volume_grows_a_broad_topic_and_hand_edits_stay(tmp_path):
    content, site = tmp_path / "content", tmp_path / "site"
    content.mkdir()
    text = COLT.read_text(encoding="utf-8")
    entries = text.split("\n@InProceedings")
    (content / COLT.name).write_text("\n@InProceedings".join(entries[:16]), encoding="utf-8")  # 15 papers
    assert cli("build", "--content", str(content), "--out", str(site)).returncode == 0
    tags = page_tags(content)
    assert tags["bhatt24a"] == ["Reinforcement learning & bandits", BROAD]  # 15 papers: no topic is broad
    edited = next(p for p in (content / "papers").glob("*.md") if read_page(p).meta.get("uid") == "foster24a")
    page = edited.read_text(encoding="utf-8")
    assert "\ntags: [" in page
    edited.write_text(page.replace("\ntags: [", f"\ntags: [{BROAD}, ", 1), encoding="utf-8")
    (content / COLT.name).write_text(text, encoding="utf-8")  # the whole volume: 30 papers
    assert cli("build", "--content", str(content), "--out", str(site)).returncode == 0
    tags = page_tags(content)
    assert tags["bhatt24a"] == ["Reinforcement learning & bandits"]  # an earlier page, tagged again
    assert tags["foster24a"][0] == BROAD  # a person's tags are theirs


def test_icwsms_topic_comes_before_its_keywords(tmp_path):
    content, site, output = built(tmp_path, VENUES / "icwsm-2021-papers.csv")
    tags = page_tags(content)
    assert tags["18035"] == ["Misinformation, Rumors, and Fact-Checking", "misinformation", "polarization"]
    assert tags["18036"] == ["Online Communities and Moderation", "moderation"]
    assert "ignored column" not in output  # `topic` is read, not left out as unknown
