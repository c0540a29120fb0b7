"""Issue #38, part 5: topics that fit the field. The built-in (machine learning) taxonomy tags a volume only
where it describes it; a volume it does not describe gets topics from its own papers (the key phrases several
of them share, named as they write them); a preface or keynote is tagged by neither.

Fixtures are shaped like the volumes of the issue: a SIGDIAL/INLG-like Mini-Conf export (tests/fixtures/
topics/dialogue-volume.csv: keynote, title-only shared-task reports, a "Team Synapse @ …" entry), a Japanese
NLP annual meeting (nlp-ja-volume.csv) and a COLT volume (venues/colt-2024-theory.bib)."""

from __future__ import annotations

import random
import re
import unicodedata
from collections import Counter
from pathlib import Path

import pytest

import corpora
from generator.derive.own_topics import own_topics
from generator.derive.phrases import candidates, phrases_of
from generator.derive.tagging import default_taxonomy
from generator.derive.volume_topics import is_front_matter, survey
from generator.model.paper import Entry
from generator.sources import read_source
from test_venue_topics import VENUES, built, page_tags

TOPICS = Path(__file__).parent / "fixtures" / "topics"
CJK = Path(__file__).parent / "fixtures" / "cjk"
DIALOGUE = TOPICS / "dialogue-volume.csv"
NLP_JA = TOPICS / "nlp-ja-volume.csv"
OTHER = "Other topics"
TAXONOMY_TAGS = {rule.name for rule in default_taxonomy().tags}


def figures(source: Path, tags: dict[str, list[str]]) -> tuple[float, int, float]:
    """The issue's three figures for a built volume: the share of papers under "Other topics", the number of
    topics, and the share of topics whose name is in the title or abstract of more than half of their papers."""
    texts = {entry.uid: f"{entry.title}\n{entry.text}" for entry in read_source(source, source.name).entries}
    papers: dict[str, list[str]] = {}
    for uid, names in tags.items():
        for name in names:
            papers.setdefault(name, []).append(texts[uid])
    topics = {name: found for name, found in papers.items() if name != OTHER}
    named = [name for name, found in topics.items() if sum(uses(text, name) for text in found) * 2 > len(found)]
    return len(papers.get(OTHER, [])) / len(tags), len(topics), len(named) / len(topics)


def uses(text: str, name: str) -> bool:
    """Whether ``text`` writes ``name`` (case, hyphens and a plural aside)."""
    def normal(value: str) -> str:
        return " ".join(re.sub(r"[-‐‑–]", " ", unicodedata.normalize("NFKC", value).casefold()).split())
    text, name = normal(text), normal(name)
    return name in text or name.rstrip("s") in text


def test_a_dialogue_volume_gets_the_phrases_its_papers_share(tmp_path):
    content, site, output = built(tmp_path, DIALOGUE)
    tags = page_tags(content)
    other, topics, named = figures(DIALOGUE, tags)
    assert other <= 0.05 and topics >= 5 and named >= 0.8, (other, topics, named)
    assert not TAXONOMY_TAGS & {name for names in tags.values() for name in names}  # no ML taxonomy tag
    counts = Counter(name for names in tags.values() for name in names if name != OTHER)
    assert min(counts.values()) >= 2  # a topic is shared
    assert {"Dialogue state tracking", "Meeting summarization", "MinuteGen", "Turn-taking"} <= set(counts)
    assert tags["sigdialK1"] == []  # the keynote
    assert "MinuteGen" in tags["inlg133"]  # "Team Synapse @ MinuteGen 2023": its title, not neuroscience
    assert "the taxonomy" not in " ".join(tags["inlg133"])
    assert "so it does not fit this volume: their topics are the" in output
    assert "no tag of the built-in taxonomy matches" not in output  # no warning per paper
    # Named as the papers write them, and each has its page.
    assert (site / "tags" / "dialogue-state-tracking.html").exists()
    page = (site / "tags" / "minutegen.html").read_text(encoding="utf-8")
    assert "Team Synapse @ MinuteGen 2023" in page and "Team Nebula" in page


def test_a_japanese_nlp_volume_gets_japanese_topics(tmp_path):
    content, site, output = built(tmp_path, NLP_JA)
    tags = page_tags(content)
    other, topics, named = figures(NLP_JA, tags)
    assert other <= 0.05 and topics >= 5 and named >= 0.8, (other, topics, named)
    names = {name for found in tags.values() for name in found}
    assert not TAXONOMY_TAGS & names
    assert {"機械翻訳", "要約", "質問応答", "固有表現抽出", "文法誤り訂正"} <= names
    assert "認知症" in tags["E1-1"] and "Neuroscience-inspired learning" not in tags["E1-1"]  # dementia detection
    assert tags["K0-1"] == []  # 基調講演 (keynote)
    assert "その他のトピック" in (site / "tags" / "index.html").read_text(encoding="utf-8")  # the fallback, in Japanese


def test_an_ml_volume_keeps_the_taxonomy(tmp_path):
    entries = read_source(VENUES / "colt-2024-theory.bib", "colt.bib").entries
    topics = survey(default_taxonomy(), entries, "missing")
    assert topics.fits and not topics.own and topics.described >= topics.tagged / 2
    content, site, output = built(tmp_path, VENUES / "pmlr-v247.bib", "pmlr-v247.bib")
    tags = page_tags(content)
    assert tags["agrawal24a"] == []  # "Conference on Learning Theory 2024: Preface"
    assert "abbe24a" in tags and tags["abbe24a"] and set(tags["abbe24a"]) <= TAXONOMY_TAGS | {OTHER}


@pytest.mark.slow
@pytest.mark.parametrize("name", ["iclr-2020.jsonl", "neurips-2010-2018.jsonl"])
def test_the_taxonomy_still_fits_the_real_ml_corpora(name):
    records = corpora.read(corpora.path(name, "the real ML volumes the taxonomy must still fit"))
    entries = [Entry(text=r.get("abstract") or "", source=name, index=i, line=i, title=r.get("title") or "")
               for i, r in enumerate(records, 1)]
    topics = survey(default_taxonomy(), entries, "missing")
    assert topics.fits and topics.fell_back <= 0.1 * topics.tagged and topics.described >= 0.7 * topics.tagged


def test_a_volume_the_taxonomy_only_touches_does_not_fit_though_few_papers_miss_it():
    # Every paper says "dialogue" (the broad tag), one says "reward": nothing earns a narrower tag clearly.
    entries = [Entry(text=f"We annotate dialogue {n} and the sentences of users, with a reward.", source="d.csv",
                     index=n, line=n, title=f"Dialogue Acts in Corpus {n}") for n in range(24)]
    topics = survey(default_taxonomy(), entries, "missing")
    assert topics.fell_back == 0 and topics.described == 0 and not topics.fits


@pytest.mark.parametrize("title", [
    "Preface", "Conference on Learning Theory 2025: Preface", "Preface to the Proceedings of COLT 2024",
    "Keynote: Listening Machines", "Invited Talk", "Invited talk: Grounding", "Front Matter", "基調講演：言葉と社会",
    "Editorial",
])
def test_front_matter_is_told_by_its_title(title):
    assert is_front_matter(Entry(text="", source="s", index=1, line=1, title=title))


@pytest.mark.parametrize("title", [
    "Keynote Speaker Identification in Meetings", "A Preface-Free Parser", "Invited Talks Detection in Podcasts",
    "Team Synapse @ AutoMin 2023: Leveraging BART-Based Models",
])
def test_a_paper_is_not_front_matter(title):
    assert not is_front_matter(Entry(text="x", source="s", index=1, line=1, title=title))


def test_the_same_papers_give_the_same_topics_in_any_order():
    entries = read_source(DIALOGUE, DIALOGUE.name).entries
    def topics(order):
        found = own_topics([phrases_of(e.title, e.text) for e in order], [f"{e.title}\n{e.text}" for e in order])
        return set(found.names), {e.uid: found.per_paper[i] for i, e in enumerate(order)}
    first = topics(entries)
    shuffled = list(entries)
    random.Random(38).shuffle(shuffled)
    assert topics(entries) == first == topics(shuffled)


def test_phrases_are_the_stretches_between_stop_words():
    found, heads, _ = candidates("We propose task-oriented dialogue systems for low-resource languages.")
    assert {"task-oriented dialogue system", "dialogue system", "low-resource language"} <= set(found)
    assert "propose" not in found and "we" not in found and "for low-resource" not in found
    assert "task-oriented" not in heads  # always followed by more of its stretch: a modifier
    found, heads, starts = candidates("大規模言語モデルを用いた文法誤り訂正の性能評価")
    assert {"大規模言語モデル", "言語モデル", "文法誤り訂正"} <= set(found)
    assert "ンプ" not in found and "言語モデ" not in found  # a Katakana word is never cut
    # Chinese: a clause is cut at its function words, so a phrase can start and end where words do.
    found, heads, starts = candidates("本文提出了一种基于大语言模型的对话生成方法，"
                                      "实验结果表明该方法显著提高了对话生成的质量。")
    named = {key for key in found if key in heads and key in starts}
    assert {"大语言模型", "对话生成"} <= named and not any(key.startswith("基于") for key in named)


def test_a_chinese_volume_gets_chinese_topics():
    entries = read_source(CJK / "zh" / "papers.jsonl", "papers.jsonl").entries
    found = own_topics([phrases_of(e.title, e.text) for e in entries], [f"{e.title}\n{e.text}" for e in entries])
    assert {"扩散模型", "微调"} <= set(found.names)
    for name in found.names:  # each on two papers or more, and written in them
        papers = [e for e, names in zip(entries, found.per_paper) if name in names]
        assert len(papers) >= 2 and all(name in f"{e.title}{e.text}" for e in papers)


def test_an_unchanged_volume_reads_its_topics_from_the_cache(monkeypatch):
    entries = read_source(DIALOGUE, DIALOGUE.name).entries

    class Remembered(dict):
        def load(self, key):
            return self.get(key)

        def store(self, key, value):
            self[key] = value

    remembered = Remembered()
    first = survey(default_taxonomy(), entries, "missing", remembered=remembered)
    assert first.own and len(remembered) == 1

    def chosen_again(*args):
        raise AssertionError("an unchanged volume chose its topics again")
    monkeypatch.setattr("generator.derive.volume_topics.own_topics", chosen_again)
    again = survey(default_taxonomy(), entries, "missing", remembered=remembered)
    assert (again.own, again.own_tags, again.version) == (first.own, first.own_tags, first.version)
    with pytest.raises(AssertionError, match="chose its topics again"):  # a changed volume chooses again
        survey(default_taxonomy(), entries[:-1], "missing", remembered=remembered)


def test_what_the_survey_found_reads_back_from_its_record():
    """A warm build takes the survey's outcome from the build cache (content/project.py, by the sources' key)."""
    import orjson

    from generator.derive.volume_topics import topics_of, topics_record

    entries = read_source(DIALOGUE, DIALOGUE.name).entries
    for topics in (survey(default_taxonomy(), entries, "missing"), survey(default_taxonomy(), entries[:3], "always")):
        again = topics_of(orjson.loads(orjson.dumps(topics_record(topics))))
        assert again == topics and again.own_tags == topics.own_tags and again.version == topics.version
    assert topics_of([1, 2]) is None and topics_of(None) is None


def test_a_warm_build_surveys_no_unchanged_volume(tmp_path, monkeypatch):
    from generator.commands.build import build
    from generator.content import project
    from generator.reporter import Reporter

    from conftest import write_list

    content = tmp_path / "content"
    content.mkdir()  # (a list: a source whose reading looks for linked files is not kept, nor what is made of it)
    write_list(content / "list.txt", "Dialogue 2026", [entry.text for entry in read_source(DIALOGUE, DIALOGUE.name)
                                                       .entries if entry.text.strip()])
    build(content, tmp_path / "site", Reporter(), jobs=1)
    first = {p.relative_to(tmp_path / "site"): p.read_bytes() for p in (tmp_path / "site").rglob("*") if p.is_file()}
    calls: list[int] = []
    real = project.survey
    monkeypatch.setattr(project, "survey", lambda *args, **kwargs: calls.append(1) or real(*args, **kwargs))
    build(content, tmp_path / "site", Reporter(), jobs=1)
    assert calls == []
    assert {p.relative_to(tmp_path / "site"): p.read_bytes() for p in (tmp_path / "site").rglob("*")
            if p.is_file()} == first
    monkeypatch.setattr(project, "topics_of", lambda record: None)  # a record of another shape
    build(content, tmp_path / "site", Reporter(), jobs=1)
    assert calls == [1]
    monkeypatch.undo()
    monkeypatch.setattr(project, "survey", lambda *args, **kwargs: calls.append(1) or real(*args, **kwargs))
    (content / "proceedings.yaml").write_text("auto_tags: always\n", encoding="utf-8")  # another survey
    build(content, tmp_path / "site", Reporter(), jobs=1)
    assert calls == [1, 1]


def test_the_phrase_tables_are_joined_in_the_job_run_beside(monkeypatch):
    """The own topics' job counts the papers' phrases and joins the chunks' phrase tables too: the work beside it
    (a build without its cache renders its abstracts there) fills the core the count's last chunks and the join
    would leave idle; the topics are the same."""
    from generator.derive import phrase_table, volume_topics

    entries = read_source(DIALOGUE, DIALOGUE.name).entries
    joins: list[bool] = []
    counts: list[bool] = []
    inside = [False]
    real = phrase_table.PhraseTable.join
    monkeypatch.setattr(phrase_table.PhraseTable, "join", staticmethod(lambda tables: joins.append(inside[0])
                                                                        or real(tables)))
    count = volume_topics._phrases
    monkeypatch.setattr(volume_topics, "_phrases", lambda chunk: counts.append(inside[0]) or count(chunk))

    def beside(job):
        inside[0] = True
        try:
            return job()
        finally:
            inside[0] = False

    found = survey(default_taxonomy(), entries, "missing", beside=beside)
    assert joins == [True] and counts == [True] and found == survey(default_taxonomy(), entries, "missing")
    assert found.own


def test_the_papers_tags_are_written_later_and_read_back(tmp_path, monkeypatch):
    """Each paper's tags of the taxonomy, kept by the build cache, are written beside the build (``cache.later``:
    256 shard files, 0.2 CPU-s of the loading process's at 10,000 papers); once written, the next survey reads
    them rather than scoring the papers again."""
    from generator.content import project
    from generator.derive import volume_topics
    from generator.reporter import Reporter
    from generator.runtime.cache import BuildCache

    from conftest import write_list

    content = tmp_path / "content"
    content.mkdir()
    write_list(content / "list.txt", "Dialogue 2026", [entry.text for entry in read_source(DIALOGUE, DIALOGUE.name)
                                                       .entries if entry.text.strip()])
    store = BuildCache.for_content(content)
    first = project.load_project(content, Reporter(), store=store)
    assert [entry.kind for entry in store.later.kept] == [project.TAGGED]
    assert not list((content / ".proceedings-cache").glob(f"{project.TAGGED}-*/*"))  # not written yet
    store.later.settle()
    assert list((content / ".proceedings-cache").glob(f"{project.TAGGED}-*/*"))
    monkeypatch.setattr(project, "topics_of", lambda record: None)  # the survey's record not taken: it runs again
    scored: list[int] = []
    real = volume_topics._scores
    monkeypatch.setattr(volume_topics, "_scores", lambda taxonomy, entries: scored.append(len(entries))
                        or real(taxonomy, entries))
    again = project.load_project(content, Reporter(), store=BuildCache.for_content(content))
    assert again.topics == first.topics and again.topics.own_tags == first.topics.own_tags
    assert not any(scored)  # (the scores' map over no paper)


def test_the_survey_digests_each_paper_once(monkeypatch):
    """A paper's key (a digest of its title and text) serves both the taxonomy's cache and the own topics'."""
    from generator.derive import volume_topics

    entries = read_source(DIALOGUE, DIALOGUE.name).entries
    expected = survey(default_taxonomy(), entries, "missing")
    made: list[str] = []
    real = volume_topics.paper_key
    monkeypatch.setattr(volume_topics, "paper_key", lambda entry: made.append(entry.uid) or real(entry))
    found = survey(default_taxonomy(), entries, "missing")
    assert found == expected and found.own_tags == expected.own_tags and found.own
    assert sorted(made) == sorted({entry.uid for entry in entries if not is_front_matter(entry)})
