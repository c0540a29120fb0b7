"""Authors in the search index (issue 38): a field of their own with their affiliations, found by surname
in a volume and across a series' volumes, accents optional; shown in a result, cut after three names; and
the buckets of terms that tell a word tried again within one edit which of its variants exist."""

from __future__ import annotations

from generator.search import fuzzy
from generator.search.index import FIELDS
from generator.search.series import series_index_files
from generator.search.shards import shard_files
from generator.search.terms import people_terms, terms
from test_search import load_shard, rendered, shipped_docs


def postings(files: dict[str, bytes], term: str, prefix: str = "assets/search/") -> list[list[int]]:
    """The refs holding ``term``, per field, from the term shards."""
    for name, data in files.items():
        if name.startswith(prefix + "t") and name != prefix + "tags.js":
            for entry in load_shard(data)[1]:
                if entry[0] == term:
                    refs = []
                    for steps in entry[2:]:
                        ref, found = 0, []
                        for k in range(0, len(steps), 2):
                            ref += steps[k]
                            found.append(ref)
                        refs.append(found)
                    return refs
    return [[] for _ in FIELDS]


def test_the_authors_field_holds_names_each_affiliation_once_and_names_without_accents():
    found = people_terms([("Mikael Møller Høgsgaard", "Aarhus University"), ("Gábor Lugosi", "Aarhus University"),
                          ("高村 大也", "東京工業大学"), ("Jane Roe", "Queen Mary University of London")])
    assert found.count("aarhu") == 1 and {"queen", "mari", "london"} <= set(found)
    assert {"høgsgaard", "hogsgaard", "gábor", "gabor", "møller", "moller"} <= set(found)
    assert {"高村", "大也", "東京", "大学"} <= set(found)
    assert people_terms([("カタカナ ガ", "")]) == terms("カタカナ ガ")  # a kana's voicing mark is no accent


def test_a_volume_indexes_authors_in_their_field_and_shows_three_then_how_many_more():
    papers = rendered([
        {"title": "Uniform Convergence of Interpolators", "abstract": "Benign overfitting, as Roth showed.",
         "tags": [], "authors": [{"name": "Nathan Srebro", "affiliation": "TTIC"}, "Lijia Zhou"]},
        {"title": "Private Selection", "abstract": "A mechanism.", "tags": [],
         "authors": ["Aaron Roth", "A B", "C D", "E F", "G H"]},
    ])
    files = dict(shard_files(papers, {}))
    field = list(FIELDS).index("authors")
    assert postings(files, "srebro")[field] == [0] and postings(files, "ttic")[field] == [0]
    assert postings(files, "roth")[field] == [1] and postings(files, "roth")[list(FIELDS).index("abstract")] == [0]
    docs = shipped_docs(files)
    assert [doc[4:6] for doc in docs] == [[["Nathan Srebro", "Lijia Zhou"], 0], [["Aaron Roth", "A B", "C D"], 2]]


def test_the_series_index_finds_a_person_in_every_volume():
    def record(title, *authors):
        return {"title": title, "tags": [], "abstract": "An abstract.",
                "authors": [{"name": name, "affiliation": "Queen Mary University of London"} for name in authors]}

    volumes = [("2024", [record("Kernel Thinning", "Lester Mackey"), record("Bandits", "Tor Lattimore")]),
               ("2023", [record("Stein Discrepancies", "Jackson Gorham", "Lester Mackey")])]
    files = dict(series_index_files(volumes))
    field = list(FIELDS).index("authors")
    assert postings(files, terms("Mackey")[0])[field] == [0, 2]  # one person, two volumes (refs across the series)
    assert postings(files, "queen")[field] == [0, 1, 2]
    assert load_shard(files["assets/search/manifest.js"])[1]["fuzzy"] >= 1


def test_every_term_of_three_code_units_is_in_the_buckets_of_both_its_keys():
    words = {"learn": 40, "lern": 1, "gaussian": 7, "高村": 1, "ab": 2, "abc": 3, "𝒪bound": 1, "ε-greedy": 2}
    made = fuzzy.buckets(words, limit=20)
    assert len(made) > 1
    for word, count in words.items():
        units = fuzzy._units(word)
        homes = {fuzzy.key_hash("<", units[:3]) % len(made), fuzzy.key_hash(">", units[3:]) % len(made)}
        listed = {n for n, bucket in enumerate(made) if word in bucket[::2]}
        assert listed == (homes if len(units) >= 3 else set()), word
        assert all(bucket[bucket.index(word) + 1] == count for bucket in made if word in bucket[::2])
