"""One person, one rule (derive/people.py, derive/people_file.py): a volume's author pages and an archive's people
pages agree about who is one person, and people.yaml decides what the rule cannot (issue 26)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
import yaml

from generator.derive import people as people_module
from generator.commands.build import build as build_series
from generator.commands.build import build
from generator.content.changes import Classifier, Kind
from generator.commands.cli import main
from generator.errors import ContentError
from generator.model.paper import Author
from generator.derive.people import Rules, fold, group, variants
from generator.derive.people_file import parse_rules
from generator.reporter import Reporter

from series_fixtures import make_series
from record_fixtures import jsonl_content, records

A, B = "0000-0001-5109-3700", "0000-0002-9079-593X"


def grouped(*papers, rules=None):
    """Papers given as lists of authors (a name or an Author); the payload is the paper's number."""
    return group([(n, [a if isinstance(a, Author) else Author(a) for a in authors])
                  for n, authors in enumerate(papers, start=1)], rules)


def warnings_of(people) -> list[str]:
    found: list[str] = []
    people.report(lambda message, *where, **fields: found.append(message))
    return found


@pytest.mark.parametrize("a, b", [
    ("Simon S Du", "Simon S. Du"),  # both in COLT's own files
    ("Daniel M Kane", "Daniel M. Kane"),
    ("Jörg Müller", "Jorg Muller"),  # diacritics
    ("Jo\u0308rg Mu\u0308ller", "Jörg Müller"),  # a combining diaeresis, as some exports write it
    ("JÖRG  müller", "jorg muller"),  # case and spacing
    ("Jean-Pierre Serre", "Jean Pierre Serre"),
    ("Łukasz Kaiser", "Lukasz Kaiser"),  # a letter Unicode does not decompose
    ("Ｊａｎｅ Ｄｏｅ", "Jane Doe"),  # full-width forms
    ("山田 太郎", "山田太郎"),  # a Japanese name written with and without the space between its parts
    ("山田\u3000太郎", "山田太郎"),  # an ideographic space
    ("张 伟", "张伟"),
])
def test_names_that_differ_in_case_punctuation_spacing_or_diacritics_are_one(a, b):
    assert fold(a) == fold(b)
    assert len(grouped([a], [b]).people) == 1


@pytest.mark.parametrize("a, b", [
    ("高橋", "髙橋"),  # two Han characters: two names, however alike
    ("张伟", "张玮"),
    ("がく", "かく"),  # a dakuten is a mark, but it makes another kana
    ("सिंह", "सिह"),  # an Indic vowel sign is a mark too, and part of the name
    ("Li Wei", "Wei Li"),
    ("Jane Doe", "John Doe"),
])
def test_different_names_stay_different(a, b):
    assert fold(a) != fold(b)
    assert len(grouped([a], [b]).people) == 2


def test_an_orcid_beats_the_name_and_two_orcids_are_two_people():
    people = grouped([Author("Jane Doe", orcid=A)], [Author("Jane Doe", orcid=B)], ["Jane Doe"])
    assert sorted(p.key for p in people.people) == ["name:janedoe", f"orcid:{A}", f"orcid:{B}"]
    # With two people of that name to choose from, the name alone stays apart, and is said so.
    assert any("“Jane Doe” (1 paper(s); 2 people of that name have one)" in w for w in warnings_of(people))


def test_a_name_without_orcid_joins_the_one_person_of_that_name_who_has_one():
    people = grouped([Author("Ada Lovelace", "Analytical Engine Society", A)], ["Ada  lovelace"], ["J. Doe"])
    ada = next(p for p in people.people if p.orcid == A)
    assert ada.papers == [1, 2] and ada.name == "Ada Lovelace"
    assert list(ada.affiliations) == ["Analytical Engine Society"]
    assert people.of(Author("ada lovelace")) is ada  # what the author pages' links look up


def test_one_orcid_written_two_ways_is_one_person_named_as_most_papers_write_it():
    people = grouped([Author("J. Doe", orcid=A)], [Author("Jane Doe", orcid=A)], [Author("Jane Doe", orcid=A)])
    assert len(people.people) == 1 and people.people[0].name == "Jane Doe"
    tie = grouped(["Simon S. Du"], ["Simon S Du"]).people[0]
    assert tie.name == "Simon S. Du"  # a tie: the spelling seen first


def test_an_explicit_id_tells_apart_two_people_of_one_name():
    people = grouped([Author("Richard Roe", id="roe-optics"), Author("Richard Roe", id="roe-ranking")])
    assert sorted(p.key for p in people.people) == ["id:roe-optics", "id:roe-ranking"]
    assert [p.papers for p in people.people] == [[1], [1]]


def test_a_person_listed_twice_on_a_paper_counts_once():
    person = grouped(["Simon S Du", "Simon S. Du"]).people[0]
    assert person.papers == [1] and sum(person.names.values()) == 1


def test_people_sort_by_family_name_cjk_as_written_with_unique_slugs():
    people = grouped(["Grace Hopper"], ["Ada Lovelace"], ["山田 太郎"], [Author("Alan Turing", id="y")],
                     [Author("Alan Turing", id="x")])
    assert [p.name for p in people.people] == ["Grace Hopper", "Ada Lovelace", "Alan Turing", "Alan Turing",
                                               "山田 太郎"]
    assert [p.key for p in people.people][2:4] == ["id:x", "id:y"]  # one name: by ORCID or id
    assert [p.slug for p in people.people] == ["grace-hopper", "ada-lovelace", "alan-turing", "alan-turing-2",
                                               "山田-太郎"]


@pytest.mark.parametrize("a, b, expected", [
    ("J. Doe", "Jane Doe", True),
    ("Jane Doe", "Jane M. Doe", True),
    ("J. M. Doe", "Jane Mary Doe", True),
    ("J. Müller", "Jörg Muller", True),  # the family name compared as the rule compares names
    ("Jane Doe", "John Doe", False),  # both written in full, and different
    ("J. Doe", "K. Doe", False),
    ("Jane Doe", "Jane Roe", False),
    ("Jane Doe", "jane  doe", False),  # one name to the rule: one person, no warning
    ("Simon S Du", "Simon S. Du", False),
    ("张伟", "张 伟", False),
])
def test_likely_variants_of_a_name(a, b, expected):
    assert variants(a, b) is expected


def test_variants_are_looked_for_within_a_family_name_and_initial_only(monkeypatch):
    calls = []
    real = people_module.variants
    monkeypatch.setattr(people_module, "variants", lambda a, b: calls.append(1) or real(a, b))
    names = [[f"{chr(97 + n % 26)}{n} Wang"] for n in range(1000)]
    assert warnings_of(grouped(*names)) == []
    assert len(calls) < 1000 * 999 // 2 // 20  # pair by pair would be 499,500 comparisons


@pytest.mark.parametrize("name", ["Author {} Name", "J. {} Doe", "Jane M{} Doe"])
def test_variant_search_grows_with_the_names_not_their_pairs(monkeypatch, name):
    """One paper of thousands of authors sharing a family name and an initial (a collaboration paper, or a
    hostile record): doubling the names at most doubles the work, and no name is warned about more than
    PARTNERS times."""
    calls = []
    real_key, real_variants = people_module._key, people_module.variants
    monkeypatch.setattr(people_module, "_key", lambda *a: calls.append(1) or real_key(*a))
    monkeypatch.setattr(people_module, "variants", lambda a, b: calls.append(1) or real_variants(a, b))
    work = []
    for count in (1000, 2000):
        calls.clear()
        people = grouped([name.format(n) for n in range(count)])
        pairs = list(people_module.variant_pairs(people.people, people.rules))
        work.append(len(calls))
        per_name = Counter(person.name for pair in pairs for person in pair)
        assert max(per_name.values(), default=0) <= people_module.PARTNERS
    assert work[1] <= 2.1 * work[0]


def test_the_variant_index_finds_what_comparing_every_pair_finds():
    import itertools
    import random
    chooser = random.Random(7)
    given = ["Jane", "John", "J.", "M.", "Mary", "Mark", "K.", "Kate"]
    for _ in range(200):
        names = sorted({" ".join(chooser.choice(given) for _ in range(chooser.randint(1, 3))) + " "
                        + chooser.choice(["Doe", "Roe"]) for _ in range(chooser.randint(2, 6))})
        people = grouped(*[[n] for n in names])
        found = {frozenset((a.name, b.name)) for a, b in people_module.variant_pairs(people.people, people.rules)}
        every = {frozenset(pair) for pair in itertools.combinations(names, 2) if variants(*pair)}
        most = max((sum(name in pair for pair in every) for name in names), default=0)
        assert found <= every and (found == every or most > people_module.PARTNERS)


def test_a_variant_warning_gives_the_line_that_joins_them():
    names = ("Jane Doe, Jr.", "J. Doe, Jr.")  # a comma: the line must quote it
    messages = warnings_of(grouped([names[0]], [names[1]]))
    assert len(messages) == 1 and "may be one person" in messages[0]
    line = messages[0].splitlines()[-1]
    rules = parse_rules("same:\n" + line + "\n", "people.yaml", pytest.fail)
    joined = grouped([names[0]], [names[1]], rules=rules)
    assert len(joined.people) == 1 and warnings_of(joined) == []


def test_same_joins_names_and_lists_that_share_a_name_are_one():
    rules = Rules(same=(("J. Doe", "Jane Doe"), ("Jane Doe", "Jane M. Doe")))
    people = grouped(["J. Doe"], ["Jane M. Doe"], [Author("Jane Doe", orcid=A)], rules=rules)
    assert len(people.people) == 1 and people.people[0].orcid == A  # the names join the one who has an ORCID
    # Never two ORCIDs: `same` joins names, and an ORCID is more than a name.
    assert len(grouped([Author("J. Doe", orcid=B)], [Author("Jane Doe", orcid=A)], rules=rules).people) == 2


def test_different_splits_names_the_rule_joins_and_silences_a_variant():
    rules = Rules(different=(("Simon S Du", "Simon S. Du"), ("Jane Doe", "Jane M. Doe")))
    people = grouped(["Simon S Du"], ["Simon S. Du"], ["Simon S  Du"], ["Jane Doe"], ["Jane M. Doe"], rules=rules)
    simons = [p for p in people.people if p.name.startswith("Simon")]
    assert sorted(p.papers for p in simons) == [[1, 3], [2]]
    assert warnings_of(people) == []
    assert warnings_of(grouped(["Jane Doe"], ["Jane M. Doe"])) != []


@pytest.mark.parametrize("text, line, message", [
    ("same:\n  - [J. Doe, Jane Doe]\n  - [J. Doe]\n", 3, "not a list of two or more names"),
    ("same: J. Doe\n", 1, "must be a list of lists of names"),
    ("different:\n  - [Jane Doe, jane  doe]\n", 2, "lists one spelling twice"),
    ("same:\n  - [J. Doe, Jane Doe]\ndifferent:\n  - [Jane Doe, J. Doe]\n", 4, "names spellings that `same` joins"),
    ("- [J. Doe, Jane Doe]\n", 1, "expected a mapping"),
    ("same: [[J. Doe, Jane Doe]\n", 2, "invalid YAML"),
])
def test_a_people_file_that_cannot_be_used_names_its_line(text, line, message):
    with pytest.raises(ContentError) as raised:
        parse_rules(text, "people.yaml", pytest.fail)
    assert raised.value.line == line and message in raised.value.message and raised.value.path == "people.yaml"


def test_an_unknown_key_of_the_people_file_is_warned_about():
    warned = []
    rules = parse_rules("same:\n  - [J. Doe, Jane Doe]\nmerge: []\n", "people.yaml", lambda *a, **_: warned.append(a))
    assert rules.same == (("J. Doe", "Jane Doe"),)
    assert len(warned) == 1 and "unknown key 'merge'" in warned[0][0] and warned[0][1:] == ("people.yaml", 3)


def test_the_people_file_is_config_to_the_dev_server(tmp_path):
    assert Classifier(tmp_path, (), ()).kind(tmp_path / "people.yaml") is Kind.CONFIG


def write_volume(content: Path, papers: list[list[str]]) -> Path:
    content.mkdir(parents=True)
    records = [{"id": f"p{n}", "title": f"Paper {n}", "authors": authors, "abstract": f"Abstract number {n}."}
               for n, authors in enumerate(papers, start=1)]
    (content / "papers.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return content


def author_pages(site: Path) -> list[str]:
    return sorted(p.name for p in (site / "authors").glob("*.html") if p.name != "index.html")


def test_simon_s_du_written_two_ways_is_one_author_page(tmp_path):
    content = write_volume(tmp_path / "content", [["Simon S Du", "Jane Doe"], ["Simon S. Du"]])
    build(content, tmp_path / "site", Reporter())
    assert author_pages(tmp_path / "site") == ["jane-doe.html", "simon-s-du.html"]
    simon = (tmp_path / "site" / "authors" / "simon-s-du.html").read_text(encoding="utf-8")
    assert "Paper 1" in simon and "Paper 2" in simon
    for paper in ("paper-1", "paper-2"):
        page = (tmp_path / "site" / "papers" / f"{paper}.html").read_text(encoding="utf-8")
        assert 'href="../authors/simon-s-du.html"' in page
    assert "2 authors" in (tmp_path / "site" / "authors" / "index.html").read_text(encoding="utf-8")


@pytest.mark.slow
def test_the_series_and_its_volume_agree_simon_is_one_person(tmp_path):
    reporter = Reporter()
    build_series(make_series(tmp_path), tmp_path / "site", reporter)
    simons = [p for p in (tmp_path / "site" / "people").glob("simon*.html")]
    assert [p.name for p in simons] == ["simon-s-du.html"]
    page = simons[0].read_text(encoding="utf-8")
    assert "Engines of Analysis, Revisited" in page and "Initials in Author Lists" in page
    assert [p for p in author_pages(tmp_path / "site" / "2023") if p.startswith("simon")] == ["simon-s-du.html"]
    # Inside a series the archive reports its people once; the volume does not repeat it.
    assert [str(d.path) for d in reporter.warnings if "may be one person" in d.message] == ["people.yaml"]


def test_people_yaml_joins_and_splits_a_volume_from_the_cli(tmp_path, capsys):
    content = write_volume(tmp_path / "content", [["J. Doe"], ["Jane Doe"], ["Simon S Du"], ["Simon S. Du"]])
    assert main(["check", "--content", str(content)]) == 0
    err = capsys.readouterr().err
    line = "  - [J. Doe, Jane Doe]"
    assert "people.yaml: warning: names that may be one person: “J. Doe” (authors/j-doe.html) and “Jane Doe”" in err
    assert f"\n{line}\n" in err
    (content / "people.yaml").write_text(f"same:\n{line}\ndifferent:\n  - [Simon S Du, Simon S. Du]\n",
                                         encoding="utf-8")
    assert main(["build", "--content", str(content), "--out", str(tmp_path / "site")]) == 0
    assert "may be one person" not in capsys.readouterr().err
    # One page for both spellings, named as the papers write it most often (on a tie, the first seen).
    assert author_pages(tmp_path / "site") == ["j-doe.html", "simon-s-du-2.html", "simon-s-du.html"]
    jane = (tmp_path / "site" / "authors" / "j-doe.html").read_text(encoding="utf-8")
    assert "Paper 1" in jane and "Paper 2" in jane and "Paper 3" not in jane
    assert main(["check", "--content", str(content)]) == 0
    assert "may be one person" not in capsys.readouterr().err


def test_a_broken_people_file_stops_the_build_naming_its_line(tmp_path, capsys):
    content = write_volume(tmp_path / "content", [["J. Doe"]])
    (content / "people.yaml").write_text("same:\n  - J. Doe\n", encoding="utf-8")
    assert main(["build", "--content", str(content), "--out", str(tmp_path / "site")]) == 2
    err = capsys.readouterr().err
    assert "people.yaml:2: `same`: 'J. Doe' is not a list of two or more names" in err and "Traceback" not in err


@pytest.mark.slow
def test_an_series_people_file_applies_to_every_volume_and_the_people_pages(tmp_path, capsys):
    content = make_series(tmp_path)
    assert main(["check", "--content", str(content)]) == 0
    err = capsys.readouterr().err
    assert "\npeople.yaml: warning: names that may be one person: “J. Doe” (people/j-doe.html)" in err
    assert "\n  - [J. Doe, Jane Doe]\n" in err
    (content / "people.yaml").write_text("different:\n  - [J. Doe, Jane Doe]\n  - [Simon S Du, Simon S. Du]\n",
                                         encoding="utf-8")
    assert main(["build", "--content", str(content), "--out", str(tmp_path / "site")]) == 0
    assert "may be one person" not in capsys.readouterr().err
    site = tmp_path / "site"
    assert sorted(p.name for p in (site / "people").glob("simon*.html")) == ["simon-s-du-2.html", "simon-s-du.html"]
    assert [p for p in author_pages(site / "2023") if p.startswith("simon")] == ["simon-s-du-2.html", "simon-s-du.html"]
    assert yaml.safe_load((content / "people.yaml").read_text(encoding="utf-8"))  # the file is left as written


def test_serve_follows_an_edit_of_the_people_file(tmp_path):
    from generator.pipeline.live import LiveSite

    content = write_volume(tmp_path / "content", [["J. Doe"], ["Jane Doe"]])
    live = LiveSite(content, tmp_path / "site")
    try:
        first = live.build_all()
        assert {"authors/j-doe.html", "authors/jane-doe.html"} <= set(live.files)
        assert any("may be one person" in d.message for d in first.diagnostics)
        (content / "people.yaml").write_text("same:\n  - [Jane Doe, J. Doe]\n", encoding="utf-8")
        merged = live.rebuild({(content / "people.yaml").resolve()})
        assert "authors/j-doe.html" in live.files and "authors/jane-doe.html" not in live.files
        assert b'href="../authors/j-doe.html"' in live.files["papers/paper-2.html"]
        assert not any("may be one person" in d.message for d in merged.diagnostics)
    finally:
        live.close()


def test_past_thirty_warnings_check_counts_the_people_ones_and_v_prints_each(tmp_path, capsys):
    # Family names without digits (a digit in a name is warned about: derive/sanity.py): Doeaa, Doeab…
    family = [f"Doe{chr(97 + n // 26)}{chr(97 + n % 26)}" for n in range(60)]
    content = write_volume(tmp_path / "content", [[f"{given} {name}"] for name in family for given in ("J.", "Jane")])
    assert main(["check", "--content", str(content)]) == 0
    err = capsys.readouterr().err
    assert err.count("names that may be one person: “") == 30
    assert "30 more warnings not shown (-v shows all):\n  30 × name-variant: two spellings likely name one person " \
           "(people.yaml)\n" in err
    assert main(["check", "-v", "--content", str(content)]) == 0
    err = capsys.readouterr().err
    assert all(f"\n  - [J. {family[n]}, Jane {family[n]}]\n" in err for n in range(60))


# -- 4. a paper with thousands of authors --------------------------------------------------------------

def test_lists_name_a_few_authors_of_a_huge_paper_and_its_page_all(tmp_path):
    names = [f"Author Number{n}" for n in range(400)]
    content = jsonl_content(tmp_path, records(authors=names))
    build(content, tmp_path / "site", Reporter())
    site = tmp_path / "site"
    author_page = (site / "authors" / "author-number399.html").read_text(encoding="utf-8")
    assert "Author Number8, Author Number9 et al. (390 more)</p>" in author_page
    assert "Author Number10<" not in author_page and "Author Number10," not in author_page
    paper = next(p for p in (site / "papers").glob("*.html") if "Number399" in p.read_text(encoding="utf-8"))
    assert all(name in paper.read_text(encoding="utf-8") for name in names)
    # Output linear in the input: 400 author pages stay small, not 400 copies of 400 names.
    author_pages = sum(p.stat().st_size for p in (site / "authors").glob("author-*.html"))
    assert author_pages < 400 * 8_000
