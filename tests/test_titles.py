"""Derived titles: they name the contribution, stay short, unique and plain, on any list."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import corpora
from conftest import derive_title
from generator.sources.plainlist import parse
from generator.derive.titles import MAX_LENGTH, UNTITLED

REPO = Path(__file__).resolve().parent.parent
SEED_LISTS = (REPO / "content" / "neurips-2026.txt", REPO.parent / "shared" / "seed" / "neurips-2026.txt")

# Each seed abstract names its contribution; the title must carry that name.
SEED_NAMES = (
    "FreeDave", "MOSAIC", "FLUXtrapolation", "FluxFlow", "FlowBatt", "ESMA", "STLC", "EntropyCache",
    "Energy-Guided Transport", "D2C", "Echo Learning", "EO-WM", "Dual-Pronged LoRA", "Drift-React", "2RDM",
)
DANGLING = {"a", "an", "the", "and", "or", "of", "for", "with", "to", "in", "on", "by", "via", "from", "that", "which"}
MARKUP = re.compile(r"[$\\{}`]|\*\*|\b_|_\b")


def to_plain(text: str) -> str:
    """Abstract → plain text: the project's renderer, or a rough stand-in while it is not importable."""
    try:
        from generator.latex import AbstractRenderer
    except ImportError:
        return _rough_plain(text)
    return AbstractRenderer().render(text).plain


def _rough_plain(text: str) -> str:
    text = text.replace("``", "“").replace("''", "”").replace("---", "—").replace("--", "–")
    text = re.sub(r"\\(?:emph|textit|textbf|text|mathrm|mathcal|url)\{([^{}]*)\}", r"\1", text)
    text = re.sub(r"\\[A-Za-z]+", "", text.replace(r"\times", "×"))
    return re.sub(r"\s+", " ", re.sub(r"[$*{}]", "", text)).strip()


def seed_abstracts() -> list[str]:
    """The bundled seed's abstracts as plain text (skips the test when no seed is around)."""
    path = next((p for p in SEED_LISTS if p.is_file()), None)
    if path is None:
        pytest.skip("seed list not found")
    return [to_plain(entry.text) for entry in parse(path.read_text(encoding="utf-8"), path.name).entries]


def seed_titles() -> list[tuple[str, str]]:
    """(title, plain abstract) for the seed, derived in list order as the build does."""
    taken: set[str] = set()
    pairs = []
    for plain in seed_abstracts():
        title = derive_title(plain, taken)
        taken.add(title)
        pairs.append((title, plain))
    return pairs


def corpus_abstracts(name: str) -> list[str]:
    """The abstracts of corpus ``name`` ("fixture" or a real file, which skips when absent)."""
    return [record["abstract"] for record in corpora.read(corpora.path(name))]


def assert_well_formed(title: str) -> None:
    assert title and title == title.strip()
    assert len(title) <= MAX_LENGTH, title
    assert not MARKUP.search(title), title
    assert title[-1] not in ",;:.-(", title
    assert len(title.split()) == 1 or title.split()[-1].lower() not in DANGLING, title
    assert title.count("(") == title.count(")"), title


def test_seed_has_nineteen_abstracts():
    assert len(seed_abstracts()) == 19


@pytest.mark.parametrize("name", SEED_NAMES)
def test_seed_title_names_the_contribution(name):
    titles = [title for title, plain in seed_titles() if name in plain]
    assert titles, f"no seed abstract mentions {name}"
    assert any(name in title for title in titles), titles


def test_seed_titles_are_unique_and_well_formed():
    titles = [title for title, _ in seed_titles()]
    assert len(set(titles)) == len(titles) == 19
    for title in titles:
        assert_well_formed(title)


def test_seed_titles_are_faithful():
    """Titles are made of the abstract's words (capitalisation and the "Name:" colon aside)."""
    for title, plain in seed_titles():
        words = set(re.findall(r"[^\W_]+", plain.lower()))
        assert set(re.findall(r"[^\W_]+", title.lower())) <= words, title


def test_named_forms():
    assert derive_title("We present MOSAIC, a multimodal transformer over molecular structure.") == (
        "MOSAIC: A multimodal transformer over molecular structure"
    )
    assert derive_title("Here we introduce Sharper Local Complexity (SLC) as a new tool.") == (
        "SLC: Sharper Local Complexity"
    )
    assert derive_title("The Evolution Strategy for Metacognitive Alignment (ESMA) is proposed.") == (
        "ESMA: Evolution Strategy for Metacognitive Alignment"
    )
    assert derive_title("We propose a message-passing algorithm called Density Propagation (DP) for counting.") == (
        "Density Propagation: A message-passing algorithm"
    )


def test_a_name_used_as_an_adjective_is_not_a_contribution():
    title = derive_title("We derive an Expectation-Maximization (EM) algorithm for parameter estimation in mixtures.")
    assert not title.startswith(("EM:", "Expectation-Maximization:"))


def test_phrase_title_without_a_name():
    plain = ("Classifier-free guidance (CFG) is the standard for conditional sampling. "
             "We analyze the emergence of distortions induced by CFG, namely the mismatch between distributions.")
    assert derive_title(plain) == "Emergence of distortions induced by classifier-free guidance"


def test_empty_abstract():
    assert derive_title("") == UNTITLED
    assert derive_title("  \n\t ") == UNTITLED
    assert derive_title("", {UNTITLED}) == f"{UNTITLED} (2)"


def test_taken_titles_get_a_distinct_variant():
    plain = "We present MOSAIC, a multimodal transformer over molecular structure."
    taken: set[str] = set()
    for _ in range(4):
        title = derive_title(plain, taken)
        assert title not in taken
        taken.add(title)
    assert "MOSAIC: A multimodal transformer over molecular structure (2)" in taken
    assert len(taken) == 4


def test_long_descriptions_are_cut_at_a_natural_break():
    plain = ("We introduce FLUXtrapolation, a benchmark for extrapolating ecosystem fluxes under progressively "
             "harder distribution shifts across climates, ecosystem types and environmental conditions worldwide.")
    title = derive_title(plain)
    assert title == "FLUXtrapolation: A benchmark for extrapolating ecosystem fluxes"


def test_a_title_never_exceeds_the_limit():
    title = derive_title("Wordy " + "supercalifragilistic " * 40 + "models are studied.")
    assert_well_formed(title)
    assert derive_title("x" * 500) == "X" + "x" * (MAX_LENGTH - 2) + "…"


def test_markup_left_in_the_input_is_dropped():
    title = derive_title("We propose **FooNet**, a `fast` $O(n)$ model for *sparse* graphs.")
    assert title == "FooNet: A fast O(n) model for sparse graphs"


@pytest.mark.slow
def test_deterministic(tmp_path):
    """Two processes with different hash seeds derive the same titles (nothing is carried over in a cache)."""
    script = ("import sys; sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[2]); "
              "import test_titles as t; print('\\n'.join(t.derive_title(p) for p in t.seed_abstracts()))")
    runs = [subprocess.run([sys.executable, "-c", script, str(REPO), str(REPO / "tests")], capture_output=True,
                           text=True, env={**os.environ, "PYTHONHASHSEED": seed}, timeout=300) for seed in ("1", "2")]
    assert runs[0].returncode == 0, runs[0].stderr
    assert runs[0].stdout == runs[1].stdout and len(runs[0].stdout.splitlines()) == 19


@given(st.text(max_size=400))
@settings(max_examples=300, deadline=None)
def test_any_text_gives_a_well_formed_title(text):
    title = derive_title(text)
    assert title and len(title) <= MAX_LENGTH


@pytest.mark.slow
@pytest.mark.parametrize("name", corpora.NAMES)
def test_corpus_titles_are_well_formed_and_unique(name):
    # Speed (about 0.2 ms per abstract) is measured by the benchmarks, not asserted here.
    plains = [to_plain(abstract) for abstract in corpus_abstracts(name)]
    taken: set[str] = set()
    for plain in plains:
        title = derive_title(plain, taken)
        assert title not in taken
        taken.add(title)
    for title in taken:
        assert_well_formed(title)


# The plain definitions that titles._clean and titles._named_in are the faster form of.
_PLAIN_MARKUP = re.compile(r"[$*\\{}`#~^]|(?<!\w)_|_(?!\w)")
_PLAIN_QUOTES = re.compile(r"[\"“”«»]|(?<!\w)['‘’]|['‘’](?!\w)")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab_ '‘’\"“”«»é1$\\{}\t\n"))))
def test_cleaning_is_the_plain_definition(text):
    from generator.derive import titles

    plain = re.sub(r"\s+", " ", _PLAIN_QUOTES.sub("", _PLAIN_MARKUP.sub("", titles._COMMAND.sub(" ", text)))).strip()
    assert titles._clean(text) == plain


def test_the_naming_verb_test_passes_every_sentence_a_naming_pattern_matches():
    from generator.derive import titles

    sentences = ["We introduce GraphNet, a model.", "In this paper we propose Deep Sets (DS) for sets.",
                 "Latent Dirichlet Allocation (LDA) was introduced for topics.", "a method, called FooBar, for x",
                 "a class of models we term HyperNets", "a model which we dub X-Former"]
    for sentence in sentences:
        patterns = (titles._INTRO_ACRONYM, titles._INTRO_NAME, titles._PASSIVE, titles._CALLED)
        assert any(p.search(sentence) for p in patterns), sentence
        assert titles._NAMING_VERB.search(sentence), sentence
    assert titles._named_in("Results on three datasets show large gains.") is None
