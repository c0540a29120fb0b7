"""The lunr index, built here as lunr.js would build it, ready for ``lunr.Index.load``.

``TermBuilder`` reaches into lunr.py's Builder (its field vectors, token set and
pipelines), so the lunr version is pinned in pyproject.toml to the range this was
written against; ``lunr_js`` checks the script copied into the site matches it.
"""

from __future__ import annotations

from collections import Counter

from lunr.builder import Builder
from lunr.idf import idf as Idf
from lunr.stemmer import stemmer as lunr_stemmer
from lunr.vector import Vector

from generator.model import RenderedPaper
from generator.search.terms import terms

# name → boost; a title word weighs most, a topic more than a word of the abstract.
FIELDS = {"title": 10, "tags": 5, "abstract": 1}


class TermBuilder(Builder):
    """A lunr Builder fed terms we made, skipping its tokenizer and pipeline.

    lunr's own ``add`` deep-copies a metadata dict per token and runs the
    pipeline token by token; we keep no token metadata, so neither is needed.
    Scoring (``build``) is lunr's.
    """

    def __init__(self):
        super().__init__()
        # The query pipeline lunr.js rebuilds from the index: stemming only.
        self.search_pipeline.add(lunr_stemmer)
        for name, boost in FIELDS.items():
            self.field(name, boost=boost)

    def add_terms(self, ref: str, fields: dict[str, list[str]]) -> None:
        self._documents[ref] = {}
        self.document_count += 1
        for name, field_terms in fields.items():
            field_ref = f"{name}/{ref}"
            counts = Counter(field_terms)
            self.field_term_frequencies[field_ref] = counts
            self.field_lengths[field_ref] = len(field_terms)
            for t in counts:
                self._posting(t)[name][ref] = {}

    def _posting(self, t: str) -> dict:
        posting = self.inverted_index.get(t)
        if posting is None:
            posting = {name: {} for name in self._fields}
            posting["_index"] = self.term_index
            self.term_index += 1
            self.inverted_index[t] = posting
        return posting

    def _calculate_average_field_lengths(self):
        if not self.document_count:  # a site with no papers: lunr would divide by zero
            self.average_field_length = dict.fromkeys(self._fields, 0)
            return
        super()._calculate_average_field_lengths()

    def _create_field_vectors(self):
        """lunr's BM25 field vectors, same arithmetic in the same order, but each
        vector made sorted at once: lunr inserts element by element with a
        binary search, which was most of the build at 10,000 papers."""
        k1, b = self._k1, self._b
        idf_cache: dict[str, float] = {}
        self.field_vectors = {}
        for field_ref, frequencies in self.field_term_frequencies.items():
            name = field_ref.split("/", 1)[0]
            if not frequencies:  # an empty field: lunr never divides by its zero average
                self.field_vectors[field_ref] = Vector()
                continue
            norm = k1 * (1 - b + b * (self.field_lengths[field_ref] / self.average_field_length[name]))
            boost = self._fields[name].boost
            pairs = []
            for t, tf in frequencies.items():
                posting = self.inverted_index[t]
                idf = idf_cache.get(t)
                if idf is None:
                    idf = idf_cache[t] = Idf(posting, self.document_count)
                pairs.append((posting["_index"], round(idf * ((k1 + 1) * tf) / (norm + tf) * boost, 3)))
            pairs.sort()
            self.field_vectors[field_ref] = Vector([x for pair in pairs for x in pair])

    def _create_token_set(self):
        """Not built: the serialized index has no token set; lunr.js makes its own."""
        self.token_set = None


def utf16_key(text: str) -> bytes:
    """Sort key matching JavaScript's string comparison (UTF-16 code units)."""
    return text.encode("utf-16-be", "surrogatepass")


def build_index(papers: list[RenderedPaper], names: dict[str, str] | None = None) -> dict:
    """The serialized lunr index; document refs are positions in ``papers``."""
    builder = TermBuilder()
    names = names or {}
    for ref, paper in enumerate(papers):
        builder.add_terms(str(ref), {
            "title": terms(paper.title_plain),
            "tags": terms(" ".join(paper.paper.tags + tuple(names[t] for t in paper.paper.tags if t in names))),
            "abstract": terms(paper.abstract_plain),
        })
    index = builder.build()
    del builder  # its per-field term counts are not in the index: free them before serialising
    serialized = index.serialize()
    # Only the insertion order changes: each posting keeps its _index, which
    # is what the field vectors point at.
    serialized["invertedIndex"].sort(key=lambda entry: utf16_key(entry[0]))
    return serialized
