"""The sync's shortcuts give what the long way gives: a plain list's metadata digest, the generated block,
CJK in ASCII text, the pairing of a first build's entries (content/fingerprints.py, matching.py) and the
front matter's YAML (text/yamlutil.py)."""

from __future__ import annotations

import dataclasses

import yaml
from hypothesis import given
from hypothesis import strategies as st

from generator.content.fingerprints import FINGERPRINT_KEYS, Fingerprints, canonical, digest, metadata_digest
from generator.content.matching import PageMatcher
from generator.content.pages import PageDoc
from generator.model.details import details_to_meta
from generator.model.paper import Author, Details, Entry
from generator.text import yamlutil
from generator.text.cjk import _CJK, has_cjk


def long_way(entry: Entry) -> str:
    return digest(canonical([entry.title, list(entry.keywords), details_to_meta(entry.details), entry.uid]))


@given(st.sampled_from(["", "A title"]), st.sampled_from([(), ("Dialogue",)]), st.sampled_from(["", "P12"]),
       st.sampled_from([Details(), Details(authors=(Author("Ada Roe"),)), Details(room=""), Details(track=())]))
def test_a_plain_entrys_metadata_digest_is_the_long_ways(title, keywords, uid, details):
    entry = Entry("We study dialogue.", "proceedings.txt", 1, 3, title, keywords, details, uid)
    assert metadata_digest(entry) == long_way(entry)


@given(st.lists(st.sampled_from(["", "0a1b2c3d4e5f", "x"]), min_size=len(FINGERPRINT_KEYS),
                max_size=len(FINGERPRINT_KEYS)))
def test_the_generated_block_is_the_fields_in_order(values):
    made = Fingerprints(*values)
    whole = dataclasses.asdict(made)
    assert made.as_dict() == {key: value for key, value in whole.items()
                              if value or key not in ("meta", "details", "slug")}
    assert list(made.as_dict()) == [key for key in FINGERPRINT_KEYS if key in made.as_dict()]


@given(st.text(alphabet=st.characters(max_codepoint=0x7F)) | st.text())
def test_has_cjk_is_the_scan(text):
    assert has_cjk(text) == (_CJK.search(text) is not None)


def test_entries_pair_with_no_page_when_none_is_left(tmp_path):
    entries = [Entry(f"Abstract number {n} about dialogue state tracking.", "proceedings.txt", n, n) for n in (1, 2)]
    assert PageMatcher({}).pairs(entries) == ([], entries)
    page = PageDoc(tmp_path / "papers" / "a.md", {"title": "A"}, "Abstract number 1 about dialogue state tracking!")
    pairs, new = PageMatcher({page.path: page}).pairs(entries)  # a page left: the nearest text is still found
    assert pairs == [(entries[0], page)] and new == [entries[1]]


def pyyaml(data: dict) -> str:
    return yaml.dump(data, Dumper=yamlutil._Dumper, sort_keys=False, allow_unicode=True, width=10_000,
                     default_flow_style=None)


SCALARS = (st.text() | st.sampled_from(["", "yes", "No", "null", "~", "0x1F", "1e3", "1_000", "12:30", "2026-12-06",
                                        "- a", "a: b", "#x", "'q'", '"q"', "[x]", "{x}", "é ü", "…", "\t", " x "])
           | st.integers() | st.booleans() | st.none() | st.floats(allow_nan=False) | st.tuples(st.text()))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)


@given(st.dictionaries(st.text(max_size=10), VALUES, max_size=8))
def test_front_matter_is_written_as_pyyaml_writes_it(meta):
    assert yamlutil.dump(meta) == pyyaml(meta)


def test_a_list_met_twice_is_anchored_as_pyyaml_anchors_it():
    shared = ["Dialogue", "Speech"]
    meta = {"tags": shared, "keywords": shared, "generated": {"text": "0a1b2c3d4e5f", "title": "x"}}
    assert yamlutil.dump(meta) == pyyaml(meta) and "&id001" in yamlutil.dump(meta)
