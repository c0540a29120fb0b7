"""The map of the papers: the layout (deterministic, similar papers closer), the venue's projection file, and
what map.html shows (colours, clusters)."""

from __future__ import annotations

import dataclasses
import json
import math
import random
from pathlib import Path

import pytest

from generator import diagnostics as codes
from generator.derive import map_layout, paper_map
from generator.derive.map_layout import layout
from generator.derive.paper_map import PROJECTION, paper_places
from generator.derive.related import text_terms
from generator.derive.space import tfidf_matrix
from generator.model.paper import Paper, RenderedPaper
from generator.render.map_view import clusters, colour_by, mark_groups
from generator.runtime.cache import BuildCache

# Three fields, each with its own words; a paper draws most of its words from its field.
FIELDS = {
    "proteins": "protein folding molecule binding enzyme residue structure amino ligand docking".split(),
    "robots": "robot grasping manipulation locomotion controller actuator gripper legged trajectory torque".split(),
    "language": "language token translation parsing grammar sentence corpus lexical syntax dialogue".split(),
}
SHARED = "method results propose approach evaluate benchmark performance show".split()


def paper(number: int, title: str, abstract: str, tags: tuple[str, ...] = (), uid: str = "") -> RenderedPaper:
    record = Paper(str(number), f"p{number}", title, abstract, tags, number, "list.txt", number,
                   Path(f"p{number}.md"), uid=uid)
    return RenderedPaper(record, title, title, abstract, abstract)


def volume(count: int, seed: int = 3) -> tuple[list[RenderedPaper], dict[str, str]]:
    """``count`` papers, each of one field (returned by id), its words mostly the field's."""
    rng = random.Random(seed)
    papers, field_of = [], {}
    names = sorted(FIELDS)
    for number in range(1, count + 1):
        field = names[number % len(names)]
        words = [rng.choice(FIELDS[field] if rng.random() < 0.7 else SHARED) for _ in range(50)]
        title = " ".join(rng.sample(FIELDS[field], 3)).title()
        papers.append(paper(number, title, " ".join(words) + ".", (field.title(),), uid=f"U{number}"))
        field_of[str(number)] = field
    return papers, field_of


def vectors(papers):
    return tfidf_matrix(text_terms(p.title_plain, p.abstract_plain) for p in papers)


@pytest.fixture(autouse=True)
def fresh_memo():
    paper_map._LAST.clear()
    yield
    paper_map._LAST.clear()


def test_the_same_papers_give_the_same_places():
    papers, _ = volume(90)
    first = layout(vectors(papers))
    assert layout(vectors(papers)) == first
    placed = paper_places(papers)
    paper_map._LAST.clear()
    assert paper_places(papers) == placed
    assert all(isinstance(v, int) and 0 <= v for place in placed.places.values() for v in place)
    assert all(x <= placed.width and y <= placed.height for x, y in placed.places.values())


@pytest.mark.parametrize("count", [60, 300])
def test_similar_papers_lie_closer_than_dissimilar_ones(count):
    papers, field_of = volume(count)
    places = paper_places(papers).places
    same, other = [], []
    ids = sorted(places, key=int)
    for n, a in enumerate(ids):
        for b in ids[n + 1:]:
            (same if field_of[a] == field_of[b] else other).append(math.dist(places[a], places[b]))
    assert sum(same) / len(same) < 0.6 * (sum(other) / len(other))


def test_landmarks_place_the_others_beside_their_like(monkeypatch):
    # Past LANDMARKS papers, t-SNE lays out some and the rest are put among the most similar of them.
    monkeypatch.setattr("generator.derive.map_layout.LANDMARKS", 40)
    papers, field_of = volume(200)
    places = paper_places(papers).places
    centre = {f: [sum(places[i][k] for i in places if field_of[i] == f) / sum(1 for i in places if field_of[i] == f)
                  for k in (0, 1)] for f in FIELDS}
    nearest_is_own = sum(1 for i, place in places.items()
                         if min(centre, key=lambda f: math.dist(place, centre[f])) == field_of[i])
    assert nearest_is_own / len(places) > 0.9


def test_papers_with_the_same_vector_start_apart():
    # The layout rounds the vectors to a grid, so two papers with the same words (or none) have the same vector to
    # the bit; on one spot at the start, their gradients would be the same to the bit too and they would never
    # part. t-SNE's start moves each point by a few steps of its grid.
    import numpy

    whole = numpy.array([[3.0, 4.0], [3.0, 4.0], [0.0, 0.0], [0.0, 0.0], [-4.0, 3.0]]) * 2 ** 14
    start = map_layout._start(whole)
    assert len({tuple(row) for row in start.tolist()}) == 5


def test_a_small_volume_with_papers_without_words_has_a_place_for_each():
    papers = [paper(1, "Graphs that learn edges", "graphs learn edges nodes"),
              paper(2, "Edges of graphs", "graphs edges learn nodes"), paper(3, "No abstract", ""),
              paper(4, "Tiny", "")]
    assert len(set(paper_places(papers).places.values())) == 4


def test_tiny_volumes_have_places():
    assert layout(tfidf_matrix([])) == []
    for count in (1, 2, 3, 5):
        papers, _ = volume(count)
        assert len(paper_places(papers).places) == count
        paper_map._LAST.clear()


def test_the_build_cache_keeps_the_places(tmp_path, monkeypatch):
    papers, _ = volume(40)
    cache = BuildCache(tmp_path / "cache")
    placed = paper_places(papers, cache=cache)
    paper_map._LAST.clear()
    monkeypatch.setattr(paper_map, "_from_layout", lambda *args: pytest.fail("laid out again"))
    assert paper_places(papers, cache=cache) == placed


def test_cached_places_follow_the_texts_and_the_map_reads_each_text_once(tmp_path):
    # The key holds the texts through their digest, which finds the vectors related papers made (not read again).
    from generator.derive import related
    papers, _ = volume(40)
    cache = BuildCache(tmp_path / "cache")
    placed = paper_places(papers, cache=cache)
    paper_map._LAST.clear()
    related.forget_vectors()
    edited = [Reads(p) for p in papers[:-1]] + [Reads(dataclasses.replace(papers[-1], abstract_plain="Graph."))]
    related.related_ids(edited)  # as the relate stage does: each text read for the digest and split once
    before = sum(p.reads for p in edited)
    assert paper_places(edited, cache=cache) != placed  # laid out anew, not the first volume's
    assert sum(p.reads for p in edited) - before == len(edited)
    paper_map._LAST.clear()
    related.forget_vectors()


class Reads:
    """A paper that counts how often its abstract is read."""

    def __init__(self, paper: RenderedPaper):
        self.paper_, self.reads = paper, 0

    def __getattr__(self, name):
        return getattr(self.paper_, name)

    @property
    def abstract_plain(self) -> str:
        self.reads += 1
        return self.paper_.abstract_plain


class Warnings:
    def __init__(self):
        self.said: list[tuple[str, str, dict]] = []

    def __call__(self, message, path=None, line=None, *, code, **fields):
        self.said.append((code, f"{path}:{line}: {message}", fields))


def test_a_venues_projection_is_used_and_the_papers_it_leaves_out_are_placed_or_listed(tmp_path):
    papers, _ = volume(6)
    given = [{"id": "U1", "pos": [0.0, 0.0]}, {"id": "U2", "pos": [10.0, 0.0]}, {"id": "U3", "pos": [10.0, 5.0]},
             {"id": "U4", "pos": [0, 5]}]
    (tmp_path / "sitedata").mkdir()
    (tmp_path / "sitedata" / PROJECTION).write_text(json.dumps(given), encoding="utf-8")
    warn = Warnings()
    # Paper 5's related papers are 1 and 2 (placed by the venue); paper 6's are not placed at all.
    placed = paper_places(papers, tmp_path, warn=warn, related={"5": ("1", "2"), "6": ("6x",)})
    places = placed.places
    assert places["1"][0] < places["2"][0] and places["2"][1] < places["3"][1]  # the venue's own picture
    assert places["5"] == ((places["1"][0] + places["2"][0]) // 2, places["1"][1])
    assert "6" not in places and placed.unplaced == ("6",)
    [(code, message, fields)] = warn.said
    assert code == codes.MAP_PROJECTION_MISSING and message.startswith("sitedata/papers_projection.json:None")
    assert "2 of 6 papers are not in papers_projection.json" in message and fields["subject"] == "5"


@pytest.mark.parametrize("text, said", [
    ('[{"id": "U1", "pos": [1, 2]},\n {"id": "U2", "pos": [3, ', "cannot be read as JSON"),
    ('{"U1": [1, 2]}', "must be a list"),
    ('\xff\xfe', "cannot be read as JSON"),
])
def test_a_projection_that_cannot_be_read_is_said_and_the_map_is_laid_out(tmp_path, text, said):
    papers, _ = volume(12)
    (tmp_path / PROJECTION).write_bytes(text.encode("latin-1"))
    warn = Warnings()
    placed = paper_places(papers, tmp_path, warn=warn)
    invalid = [message for code, message, _ in warn.said if code == codes.MAP_PROJECTION_INVALID]
    assert invalid and invalid[0].startswith("papers_projection.json:") and said in invalid[0]
    assert len(placed.places) + len(placed.unplaced) == 12


def test_a_projections_bad_entries_are_left_out_and_named(tmp_path):
    papers, _ = volume(4)
    given = [{"id": "U1", "pos": [0, 0]}, {"id": "U2", "pos": [1, "x"]}, {"pos": [3, 3]}, [1, 2],
             {"id": 3, "pos": [2, 2]}, {"id": "U4", "pos": [float("nan"), 1]}]
    (tmp_path / PROJECTION).write_text(json.dumps(given), encoding="utf-8")
    warn = Warnings()
    placed = paper_places(papers, tmp_path, warn=warn)
    messages = {code: message for code, message, _ in warn.said}
    assert "4 entries without an id and a position" in messages[codes.MAP_PROJECTION_INVALID]
    assert "(entry 2, 3, 4, 6)" in messages[codes.MAP_PROJECTION_INVALID]
    assert set(placed.places) == {"1", "3"}  # U1, and 3: not a UID here, but paper 3's own id


def test_colours_follow_the_commonest_topics_and_clusters_are_labelled():
    papers, field_of = volume(120)
    placed = paper_places(papers)
    assert colour_by(papers, "auto") == "topics"
    groups = mark_groups(papers, placed, "topics", {"proteins": "tags/proteins.html"}, {})
    assert [g.name for g in groups] == ["Language", "Proteins", "Robots"]
    assert groups[1].url == "tags/proteins.html" and sum(len(g.marks) for g in groups) == 120
    found = clusters(papers, placed, {})
    assert sum(c.count for c in found) == 120 and all(c.label for c in found)
    assert {c.label for c in found} >= {"Language", "Proteins", "Robots"}


def test_without_topics_the_map_colours_by_session_or_not_at_all():
    papers, _ = volume(10)
    bare = [dataclasses.replace(p, paper=dataclasses.replace(p.paper, tags=())) for p in papers]
    assert colour_by(bare, "auto") == "" and colour_by(bare, "sessions") == "sessions"
    groups = mark_groups(bare, paper_places(bare), "", {}, {})
    assert [g.number for g in groups] == [0] and len(groups[0].marks) == 10


def test_papers_nothing_tells_apart_are_set_in_a_row_not_on_one_spot():
    papers = [paper(n, title, "") for n, title in enumerate(["A", "The", "Of a", "X"], start=1)]
    places = paper_places(papers).places
    assert len(set(places.values())) == 4 and len({y for _, y in places.values()}) == 1
