"""Taxonomy tags: the shipped taxonomy fits the seed, matching rules, file validation."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import corpora
from generator.errors import ContentError
from generator.derive.tagging import DEFAULT_TAXONOMY_PATH, MAX_TAGS, load_taxonomy, parse_taxonomy
from test_titles import REPO, seed_titles, to_plain

BUNDLED = REPO / "content"


@pytest.fixture(scope="module")
def taxonomy():
    return load_taxonomy(BUNDLED)


def small(text: str):
    return parse_taxonomy(text, "taxonomy.yaml")


def test_default_taxonomy_is_the_bundled_one():
    assert DEFAULT_TAXONOMY_PATH.read_bytes() == (BUNDLED / "taxonomy.yaml").read_bytes()


def test_shipped_taxonomy_size(taxonomy):
    assert 15 <= len(taxonomy.tags) <= 26
    assert taxonomy.fallback == "Other topics"


def test_every_seed_paper_gets_one_to_four_tags_and_none_falls_back(taxonomy):
    for title, plain in seed_titles():
        tags = taxonomy.tags_for(title, plain)
        assert 1 <= len(tags) <= 4, (title, tags)
        assert taxonomy.fallback not in tags, title


@pytest.mark.parametrize("name, expected", [
    ("FreeDave", {"Large language models", "Efficient inference & compression"}),
    ("EntropyCache", {"Efficient inference & compression"}),
    ("STLC", {"Learning theory & statistics"}),
    ("Echo Learning", {"Neuroscience-inspired learning"}),
    ("Drift-React", {"Chemistry & molecules"}),
    ("MOSAIC", {"Chemistry & molecules", "Diffusion & generative models"}),
    ("FLUXtrapolation", {"Earth, climate & energy", "Benchmarks & datasets"}),
    ("EO-WM", {"Earth, climate & energy", "Time series & forecasting"}),
    ("Dual-Pronged LoRA", {"Fine-tuning & continual learning"}),
    ("k-center", {"Clustering & unsupervised learning"}),
    ("Classifier-free guidance", {"Diffusion & generative models", "Statistical physics of learning"}),
])
def test_seed_papers_get_their_topics(taxonomy, name, expected):
    title, plain = next((t, p) for t, p in seed_titles() if name in p)
    assert expected <= set(taxonomy.tags_for(title, plain))


def test_unrelated_text_falls_back(taxonomy):
    plain = "A recipe for sourdough bread with rye flour, a long cold fermentation and a hot oven."
    assert taxonomy.tags_for("Sourdough with rye", plain) == ("Other topics",)
    assert taxonomy.tags_for("", "") == ("Other topics",)


def test_whole_words_plurals_and_hyphens():
    tax = small("tags:\n  LLM: [LLM]\n  Flows: [flow matching]\n  Theory: [theory]\n")
    assert tax.tags_for("", "dLLMs and dLLM decoding") == ("Other topics",)
    assert tax.tags_for("LLMs", "") == tax.tags_for("llm", "") == ("LLM",)
    assert tax.tags_for("Flow-matching models", "") == tax.tags_for("Flow  Matching", "") == ("Flows",)
    assert tax.tags_for("flow, matching; flow. Matching; flow-matchingly", "") == ("Other topics",)
    assert tax.tags_for("Theories", "") == ("Theory",)


def test_the_longest_keyword_owns_its_words():
    tax = small("tags:\n  Diffusion: [classifier-free guidance]\n  Supervised: [classifier]\n")
    assert tax.tags_for("Classifier-free guidance", "") == ("Diffusion",)
    assert tax.tags_for("Classifiers", "") == ("Supervised",)


def test_title_hits_weigh_more_and_order_is_by_score_then_taxonomy():
    tax = small("tags:\n  A: [alpha]\n  B: [beta]\n  C: [gamma, delta, epsilon]\n")
    assert tax.tags_for("alpha", "") == ("A",)  # one title hit suffices
    assert tax.tags_for("", "alpha") == ("Other topics",)  # one passing mention is not a topic
    assert tax.tags_for("beta", "alpha alpha alpha alpha") == ("B", "A")  # repeats are capped at two
    assert tax.tags_for("beta alpha", "gamma delta epsilon") == ("A", "B", "C")


def test_weak_tags_far_behind_the_best_are_dropped():
    tax = small("tags:\n  Main: [one, two, three, four, five]\n  Side: [side]\n")
    text = "one two three four five one two three four five"
    assert tax.tags_for("", text + " side side") == ("Main",)
    assert tax.tags_for("side", "one two three side") == ("Side", "Main")
    assert tax.tags_for("side", "one two three") == ("Main", "Side")  # a tie keeps taxonomy order


def test_at_most_six_tags():
    tags = "\n".join(f"  T{i}: [word{i}]" for i in range(10))
    tax = small(f"tags:\n{tags}\n")
    title = " ".join(f"word{i}" for i in range(10))
    assert tax.tags_for(title, "") == tuple(f"T{i}" for i in range(MAX_TAGS))


def test_version_follows_the_content():
    first = small("fallback: Misc\ntags:\n  A: [alpha]\n")
    assert small("# a comment\nfallback: Misc\ntags:\n  A: [alpha]   # same\n").version == first.version
    assert small("fallback: Misc\ntags:\n  A: [alpha, beta]\n").version != first.version
    assert small("fallback: Other\ntags:\n  A: [alpha]\n").version != first.version
    assert len(first.version) == 12 and int(first.version, 16) >= 0


def test_custom_taxonomy_in_the_content_folder_is_used(tmp_path):
    (tmp_path / "taxonomy.yaml").write_text("fallback: Misc\ntags:\n  Bread: [sourdough, rye]\n", encoding="utf-8")
    tax = load_taxonomy(tmp_path)
    assert [rule.name for rule in tax.tags] == ["Bread"]
    assert tax.tags_for("Sourdough", "") == ("Bread",)
    assert tax.tags_for("", "diffusion models") == ("Misc",)


def test_missing_taxonomy_uses_the_default(tmp_path):
    default, bundled = load_taxonomy(tmp_path), load_taxonomy(BUNDLED)
    assert (default.tags, default.fallback, default.version) == (bundled.tags, bundled.fallback, bundled.version)
    assert default.name == "the built-in taxonomy"  # how warnings name it


@pytest.mark.parametrize("text, line, message", [
    ("tags:\n  A: [a, b\n  B: [c]\n", 3, "invalid YAML"),
    ("fallback: X\ntags:\n  A: [a]\n  B: [b]\n  a: [c]\n", 5, "listed twice (first on line 3)"),
    ("tags:\n  A: [a]\n  B: []\n", 3, "needs a list of keywords"),
    ("tags:\n  A: hello\n", 2, "needs a list of keywords"),
    ("tags:\n  A:\n    - fine\n    - ''\n", 4, "empty keyword"),
    ("tags:\n  A: [[nested]]\n", 2, "not a word or phrase"),
    ("tags:\n  ~: [a]\n", 2, "tag name is empty"),
    ("fallback: X\ntags: [a, b]\n", 2, "`tags` must map"),
    ("fallback: X\n", 1, "`tags` must map"),
    ("fallback: [X]\ntags:\n  A: [a]\n", 1, "`fallback` must be"),
    ("fallback: X\ntagz:\n  A: [a]\n", 2, "unknown key `tagz`"),
    ("- a\n- b\n", 1, "expected a mapping"),
])
def test_invalid_taxonomy_names_file_and_line(tmp_path, text, line, message):
    (tmp_path / "taxonomy.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as raised:
        load_taxonomy(tmp_path)
    assert raised.value.line == line
    assert Path(raised.value.path) == tmp_path / "taxonomy.yaml"
    assert message in raised.value.message
    assert str(raised.value).startswith(f"{tmp_path / 'taxonomy.yaml'}:{line}: ")


@pytest.mark.slow
@pytest.mark.parametrize("name", corpora.NAMES)
def test_corpus_tags_are_spread(taxonomy, name):
    papers = corpora.read(corpora.path(name))
    counts: Counter[str] = Counter()
    for paper in papers:
        tags = taxonomy.tags_for(paper["title"], to_plain(paper["abstract"]))
        assert 1 <= len(tags) <= MAX_TAGS
        counts.update(tags)
    assert counts[taxonomy.fallback] / len(papers) < 0.15  # most papers find a topic
    top, top_count = next((tag, n) for tag, n in counts.most_common() if tag != taxonomy.fallback)
    assert top_count / len(papers) < 0.4, top  # no tag swallows the corpus
