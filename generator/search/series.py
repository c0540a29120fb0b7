"""One index for a whole series (issue 28): the terms of every volume's papers, cut into shards at the
series' root, so that a query across a series loads the few shards its words need once, not a
manifest and shards from every volume.

Its documents are the volumes' papers one volume after another (the series' order, newest first),
each volume's in the order of its own index; the manifest says where each volume's run starts
(``volumes``: [path, first ref, papers] each). It has no display blocks: a result is shown from its
volume's own ``d<n>.js`` (ref − first ref is its number there), so no paper's record is written twice.

The words are those of a volume's index (``index.found_terms``), taken from the series' papers.json
records (title, topics, plain-text abstract, authors and their affiliations: a person is found across
volumes); a topic is indexed by its name (a volume's index also
by its name in the volume's interface language, which the series' records do not carry).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from generator.runtime.cache import BuildCache
from generator.search import bundle, unbundle
from generator.search.index import _Terms, field_terms
from generator.search.shards import term_files

CACHE_KIND = "series-search"


def series_index_files(volumes: Iterable[tuple[str, Iterable[dict]]]) -> Iterator[tuple[str, bytes]]:
    """(path under the series' root, script) of the series' index; ``volumes``: (path, its papers.json
    records) in the series' order."""
    found, runs, ref = _Terms(), [], 0
    for path, records in volumes:
        first = ref
        for record in records:
            authors = tuple((a.get("name", ""), a.get("affiliation", "")) for a in record.get("authors", ()))
            found.add(ref, field_terms(record["title"], record["tags"], record["abstract"], authors))
            ref += 1
        runs.append([path, first, ref - first])
    yield from term_files(found, ref, {"volumes": runs})


def cached_series_index(store: BuildCache, key_parts: Iterable[str | bytes],
                        volumes: Iterable[tuple[str, Iterable[dict]]]) -> dict[str, bytes]:
    """``series_index_files`` by name, from the series' build cache when ``key_parts`` (everything the index
    is made of) are those of the last build."""
    key = store.key(CACHE_KIND, *key_parts) if store.enabled else ""
    cached = store.load_bytes(CACHE_KIND, key) if store.enabled else None
    files = unbundle(cached) if cached is not None else None
    if files is None:
        files = dict(series_index_files(volumes))
        if store.enabled:
            store.store_bytes(CACHE_KIND, key, bundle(files))
    return files
