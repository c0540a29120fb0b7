"""The irreducible core of each feature issue 43 keeps, measured on the same data the build made.

Used by ``bench/floors.py`` (its ``--costs`` process, after the build it times stage by stage): beside each kept
feature's cost as the build does it now, the CPU time (``time.process_time``, one process) of the part of its
work that no implementation of the same output could skip, done the plainest way this Python has, in C where a
well-kept library does it. The gap between the two is what our code adds above the core: work left, or the price
of what the core leaves out (each says what). Each core computes a result of the same size as the site's and
checks it against the site's files (counts, shapes), so that none is a toy:

- **search index**: every paper's fields (title, topics, abstract, authors) split into words once (``re.findall``),
  counted (``Counter``), numbered (``dict.setdefault`` in ``map``), inverted into postings with BM25 weights
  (numpy: one stable sort), and the index's very data as the site ships it (its term shards, display blocks,
  fuzzy buckets, manifest, read back from ``assets/search/``) serialised again (``orjson``) into the same scripts.
  Left out: stemming (the site's terms are Porter stems; a C stemmer would do it per distinct word).
- **related papers**: on the build's own TF-IDF matrix (``related.matrix_for``), each paper's heaviest terms as a
  query, one sparse product a block of papers against the index of those terms, the best candidates
  (``numpy.argpartition``), their exact cosines (the rows' elementwise product) and the best ``k`` of them: the
  related lists' shape, (papers, k). Also timed: the exact product of every pair (no pruning), for scale.
- **the map**: on the same matrix, the layout's numeric core as the build's method does it (a randomized SVD to
  40 dimensions, t-SNE's affinities and its 300 iterations over the 1,000 landmarks, exact gradient, by BLAS in
  single precision, every other paper placed among its nearest landmarks), none of the build's rounding to a grid
  (which makes the map the same on every CPU).
- **citation formats**: every whole-volume file (``.bib``, ``.ris``, ``.enw``, ``.apa.txt``, ``.mods.xml``,
  ``.csl.json``) written from the papers' fields with one template (an f-string) a format, the fields escaped
  as each format wants (``str.translate``, ``re.sub``, ``json``'s C encoder), joined with ``str.join``; and the
  reading blocks' data (read back from ``assets/reading/``) serialised again. One record a paper in each, as the
  site's files; whether each file's bytes are the site's is recorded (those of the bench corpus's are).
- **topics**: the volume's survey and own topics in one pass over the papers' words: each word numbered
  (``re.findall``, ``dict.setdefault`` in ``map``), every n-gram of 1 to 3 words as one integer key (numpy,
  shifted slices of the words' numbers), the taxonomy's keywords (and their plurals) among them (``numpy.isin``:
  the survey's hits, by tag and paper, at most two each), and on how many papers each n-gram is (one sort); then
  the choice of as many topics as the site has (those on 2 to half the papers, starting and ending on no stop
  word, the most papers first) and each paper's topics among its n-grams (at most 4). Left out: keywords of more
  than three words, and those written in CJK (found as substrings; the bench corpus has none).
- **titles**: for each abstract whose source gives no title, the regular-expression passes a title needs (the
  contribution "we propose …", else the first sentence), cut to 100 characters at a word.
"""

from __future__ import annotations

import html
import json
import re
import time
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from itertools import chain
from pathlib import Path
from typing import Any

import numpy as np
import orjson

WORD = re.compile(r"\w+")
SCRIPT = re.compile(rb'([\w.]+)\("([^"]*)",JSON\.parse\((.*)\)\);\n', re.S)
_K1, _B = 1.2, 0.75  # BM25's, as lunr's


def timed(work: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    """(CPU s of this process, result) of ``work(*args)``."""
    start = time.process_time()
    result = work(*args)
    return time.process_time() - start, result


# The site's scripts (assets/search/, assets/reading/): ``callback("name",JSON.parse("…"));`` ---------------------

def read_scripts(folder: Path) -> list[tuple[bytes, bytes, Any, int]]:
    """(callback, name, value, bytes on disk) of each script in ``folder``, in name order."""
    found = []
    for path in sorted(folder.glob("*.js")):
        data = path.read_bytes()
        match = SCRIPT.fullmatch(data)
        if match is None:
            raise ValueError(f"{path}: not a data script (callback(\"name\",JSON.parse(\"…\"));)")
        found.append((match.group(1), match.group(2), json.loads(json.loads(match.group(3))), len(data)))
    return found


def write_script(callback: bytes, name: bytes, value: Any) -> bytes:
    """A data script as the site writes it (compact JSON, sorted keys, as a JavaScript string), by orjson."""
    text = orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
    return b"".join((callback, b'("', name, b'",JSON.parse(', orjson.dumps(text), b"));\n"))


def write_scripts(scripts: Sequence[tuple[bytes, bytes, Any, int]]) -> list[bytes]:
    return [write_script(callback, name, value) for callback, name, value, _ in scripts]


# Search ---------------------------------------------------------------------------------------------------------

def paper_fields(paper: Any) -> tuple[str, str, str, str]:
    """A paper's texts as the index's fields (title, tags, abstract, authors)."""
    authors = " ".join(author.name for author in paper.paper.details.authors)
    return paper.title_plain, " ".join(paper.paper.tags), paper.abstract_plain, authors


def postings(fields: Iterable[tuple[str, ...]]) -> tuple[dict[str, int], Any, Any, Any]:
    """Every document's fields split into words, counted and numbered; then inverted: (term → number, and for each
    (term, document, field) entry in term order its document, field and BM25 weight × 1000)."""
    numbers: dict[str, int] = {}
    ids, counts, slots, lengths = array("i"), array("i"), array("i"), array("i")
    for ref, texts in enumerate(fields):
        for field, text in enumerate(texts):
            words = WORD.findall(text.lower())
            counted = Counter(words)
            ids.extend(map(numbers.setdefault, counted, (len(numbers) for _ in counted)))
            counts.extend(counted.values())
            slots.extend([ref * 4 + field] * len(counted))
            lengths.append(len(words))
    term, count, slot = (np.frombuffer(a, dtype=np.intc) for a in (ids, counts, slots))
    length = np.frombuffer(lengths, dtype=np.intc).astype(np.float64)
    field_of = slot % 4
    average = np.array([length[f::4].mean() or 1.0 for f in range(4)])
    documents = np.bincount(term, minlength=len(numbers))
    idf = np.log1p(np.abs((len(lengths) / 4 - documents + 0.5) / (documents + 0.5)))  # lunr's
    tf = count * (_K1 + 1) / (count + _K1 * (1 - _B + _B * length[slot] / average[field_of]))
    weight = np.rint(tf * idf[term] * 1000).astype(np.int64)
    order = np.argsort(term, kind="stable")  # each term's entries in document order
    return numbers, slot[order] // 4, field_of[order], weight[order]


def search_core(papers: Sequence[Any], site: Path) -> dict[str, Any]:
    """The search index's core: split, count, invert, weigh; and the site's index data serialised again."""
    scripts = read_scripts(site / "assets" / "search")
    fields = [paper_fields(paper) for paper in papers]
    manifest = next(value for _, name, value, _ in scripts if name == b"manifest")
    if manifest["documents"] != len(papers):
        raise AssertionError(f"the site's index holds {manifest['documents']} documents, the build {len(papers)}")

    def work() -> tuple[Any, list[bytes]]:
        return postings(fields), write_scripts(scripts)

    cpu, ((numbers, refs, _, _), written) = timed(work)
    shipped = sum(len(value) for _, name, value, _ in scripts if name.startswith(b"t"))
    return {"cpu_s": cpu, "files": len(written), "site_files": len(scripts), "bytes": sum(map(len, written)),
            "site_bytes": sum(size for *_, size in scripts), "terms": len(numbers), "site_terms": shipped,
            "entries": len(refs)}


# Related papers -------------------------------------------------------------------------------------------------

TOP_TERMS, MAX_POSTINGS, CANDIDATES, BLOCK = 12, 400, 40, 256  # as derive/related.py's


def heaviest(matrix: Any, top: int) -> Any:
    """Each row's ``top`` heaviest terms as a 0/1 sparse matrix of the same shape."""
    from scipy import sparse

    rows = np.repeat(np.arange(matrix.shape[0]), np.diff(matrix.indptr))
    order = np.lexsort((-matrix.data, rows))
    starts = np.repeat(matrix.indptr[:-1], np.diff(matrix.indptr))
    kept = order[np.arange(len(order)) - starts < top]
    return sparse.csr_matrix((np.ones(len(kept)), (rows[kept], matrix.indices[kept])), shape=matrix.shape)


def best(scores: Any, k: int) -> Any:
    """Each row's ``k`` largest columns, largest first."""
    k = min(k, scores.shape[1])
    near = np.argpartition(-scores, k - 1, axis=1)[:, :k]
    return np.take_along_axis(near, np.argsort(-np.take_along_axis(scores, near, 1), axis=1, kind="stable"), 1)


def related_lists(matrix: Any, k: int) -> Any:
    """Each paper's ``k`` nearest by exact cosine among the candidates that share the most of its heaviest terms."""
    rows = matrix.shape[0]
    query = heaviest(matrix, TOP_TERMS)
    common = np.asarray(query.sum(0)).ravel() > MAX_POSTINGS
    index = query.tocsc()
    index.data[np.repeat(common, np.diff(index.indptr))] = 0  # a term among the heaviest of too many papers
    index = index.T.tocsr()
    found = np.empty((rows, min(k, rows - 1)), dtype=np.int64)
    for start in range(0, rows, BLOCK):
        block = slice(start, min(start + BLOCK, rows))
        shared = (query[block] @ index).toarray()
        shared[np.arange(shared.shape[0]), np.arange(block.start, block.stop)] = -1  # not itself
        candidates = best(shared, CANDIDATES)
        mine = matrix[np.repeat(np.arange(block.start, block.stop), candidates.shape[1])]
        cosines = np.asarray(mine.multiply(matrix[candidates.ravel()]).sum(1)).reshape(candidates.shape)
        cosines[np.take_along_axis(shared, candidates, 1) <= 0] = -np.inf  # itself, or sharing no term
        found[block] = np.take_along_axis(candidates, best(cosines, found.shape[1]), 1)
    return found


def all_pairs(matrix: Any, k: int) -> Any:
    """Each paper's ``k`` nearest by exact cosine over every other paper (one sparse product a block)."""
    rows = matrix.shape[0]
    other = matrix.T.tocsr()
    found = np.empty((rows, min(k, rows - 1)), dtype=np.int64)
    for start in range(0, rows, BLOCK):
        block = slice(start, min(start + BLOCK, rows))
        products = (matrix[block] @ other).toarray()
        products[np.arange(products.shape[0]), np.arange(block.start, block.stop)] = -np.inf
        found[block] = best(products, found.shape[1])
    return found


def related_core(matrix: Any, k: int, built: Sequence[Sequence[int]]) -> dict[str, Any]:
    """The related lists' core on the build's matrix, and how many papers' lists are the build's (as sets)."""
    cpu, found = timed(related_lists, matrix, k)
    exact_cpu, exact = timed(all_pairs, matrix, k)
    if found.shape != (matrix.shape[0], min(k, matrix.shape[0] - 1)) or len(built) != matrix.shape[0]:
        raise AssertionError(f"related lists of shape {found.shape} for {len(built)} papers")
    same = sum(set(row[:len(near)]) == set(near) for row, near in zip(found.tolist(), built))
    exact_same = sum(set(row[:len(near)]) == set(near) for row, near in zip(exact.tolist(), built))
    return {"cpu_s": cpu, "papers": len(built), "k": found.shape[1], "same_lists": same, "all_pairs_cpu_s": exact_cpu,
            "all_pairs_same_lists": exact_same}


# The map --------------------------------------------------------------------------------------------------------

DIMENSIONS, LANDMARKS, PERPLEXITY, ITERATIONS, EARLY, EXAGGERATION, NEIGHBOURS = 40, 1000, 30.0, 300, 100, 12.0, 5


def reduced(matrix: Any, seed: int = 2026) -> Any:
    """The rows in ``DIMENSIONS`` dimensions (randomized truncated SVD, two power iterations), of unit length."""
    rank = min(DIMENSIONS, matrix.shape[0] - 1, matrix.shape[1])
    test = np.random.default_rng(seed).integers(0, 2, (matrix.shape[1], rank + 10)) * 2.0 - 1.0
    basis, _ = np.linalg.qr(matrix @ test)
    for _ in range(2):
        basis, _ = np.linalg.qr(matrix.T @ basis)
        basis, _ = np.linalg.qr(matrix @ basis)
    left, values, _ = np.linalg.svd(np.asarray((matrix.T @ basis).T), full_matrices=False)
    vectors = (basis @ left[:, :rank]) * values[:rank]
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms > 0, norms, 1.0)


def affinities(points: Any) -> Any:
    """t-SNE's joint probabilities over each point's 3 × perplexity nearest, bandwidths by 50 bisections."""
    count = len(points)
    k = min(count - 1, int(3 * PERPLEXITY))
    products = points @ points.T
    np.fill_diagonal(products, -np.inf)
    near = np.argpartition(-products, k - 1, axis=1)[:, :k]
    distances = 2 - 2 * np.take_along_axis(products, near, 1)
    distances -= distances.min(1, keepdims=True)
    low, high, beta = np.zeros(count), np.full(count, np.inf), np.ones(count)
    target = np.log(min(PERPLEXITY, (count - 1) / 3))
    for _ in range(50):
        weights = np.exp(-distances * beta[:, None])
        total = weights.sum(1)
        wide = np.log(total) + beta * (distances * weights).sum(1) / total > target
        low, high = np.where(wide, beta, low), np.where(wide, high, beta)
        beta = np.where(np.isinf(high), beta * 2, (low + high) / 2)
    weights = np.exp(-distances * beta[:, None])
    joint = np.zeros((count, count), dtype=np.float32)
    np.put_along_axis(joint, near, weights / weights.sum(1, keepdims=True), 1)
    joint += joint.T
    return joint / joint.sum()


def tsne(points: Any) -> Any:
    """t-SNE in two dimensions, exact gradient by BLAS in single precision, momentum and gains."""
    joint = affinities(points)
    centred = points - points.mean(0)
    position = (centred @ np.linalg.svd(centred, full_matrices=False)[2][:2].T).astype(np.float32)
    position *= np.float32(1e-4 / (position[:, 0].std() or 1.0))
    update, gains = np.zeros_like(position), np.ones_like(position)
    rate = np.float32(max(len(points) / EXAGGERATION, 50.0))
    near, force = np.empty_like(joint), np.empty_like(joint)
    exaggerated = joint * np.float32(EXAGGERATION)
    for step in range(ITERATIONS):
        squares = (position * position).sum(1)
        np.matmul(position, position.T, out=near)  # w_ij = 1 / (1 + |y_i|² + |y_j|² - 2 y_i·y_j), in place
        near *= -2
        near += squares[:, None]
        near += squares[None, :] + np.float32(1)
        np.reciprocal(near, out=near)
        np.fill_diagonal(near, 0)
        np.multiply(near, np.float32(-1 / near.sum(dtype=np.float64)), out=force)
        force += exaggerated if step < EARLY else joint
        force *= near
        gradient = 4 * (force.sum(1)[:, None] * position - force @ position)
        gains = np.maximum(np.where((gradient > 0) == (update > 0), gains * 0.8, gains + 0.2), 0.01)
        update = np.float32(0.5 if step < EARLY else 0.8) * update - rate * gains * gradient
        position += update
    return position


def layout(matrix: Any) -> Any:
    """Each row's place on the map: the landmarks by t-SNE, the others at the weighted mean of their nearest."""
    whole = reduced(matrix)
    count = len(whole)
    landmarks = np.unique(np.linspace(0, count - 1, min(count, LANDMARKS)).round().astype(np.intp))
    placed = tsne(whole[landmarks])
    positions = np.empty((count, 2))
    positions[landmarks] = placed
    rest = np.setdiff1d(np.arange(count), landmarks)
    for start in range(0, len(rest), 2048):
        chunk = rest[start:start + 2048]
        products = whole[chunk] @ whole[landmarks].T
        near = best(products, min(NEIGHBOURS, len(landmarks)))
        weight = np.exp((np.take_along_axis(products, near, 1) - products.max(1, keepdims=True)) / 0.05)
        positions[chunk] = (weight[:, :, None] * placed[near]).sum(1) / weight.sum(1, keepdims=True)
    return positions


def map_core(matrix: Any) -> dict[str, Any]:
    cpu, positions = timed(layout, matrix)
    if positions.shape != (matrix.shape[0], 2) or not np.isfinite(positions).all():
        raise AssertionError(f"the map's core placed {positions.shape} points for {matrix.shape[0]} papers")
    return {"cpu_s": cpu, "papers": len(positions)}


# Citation formats -----------------------------------------------------------------------------------------------

_BIB = str.maketrans({c: "\\" + c for c in "&%$#_"})
# A word (letters and digits, joined by hyphens or apostrophes) with a capital after its first letter keeps its case
_LETTER, _JOIN = r"[^\W_]", r"[-'’]"
_PART = rf"(?:{_LETTER}|{_JOIN}(?={_LETTER}))"
_CAPITALS = re.compile(rf"(?<!{_LETTER})(?<!{_LETTER}{_JOIN})({_LETTER}{_PART}*?[A-Z]{_PART}*)")
BRACED = r"{\1}"
_RIS_LINE = re.compile(r"\s*[\r\n]+\s*")


def citation_values(papers: Sequence[Any], prefix: str) -> list[tuple[str, str, str, tuple[str, ...], tuple[str, ...]]]:
    """(key, title, abstract, topics, authors) of each paper: the fields the citation files write."""
    return [(f"{prefix}-{paper.paper.id}", paper.title_plain, paper.abstract_plain, paper.paper.tags,
             tuple(author.name for author in paper.paper.details.authors)) for paper in papers]


def volume_files(values: Sequence[tuple[str, str, str, tuple[str, ...], tuple[str, ...]]], container: str,
                 date: tuple[int, int, int] | None) -> dict[str, bytes]:
    """Every whole-volume citation file, one template a format, one record a paper (the volume's date, if it
    has one, the same in every record)."""
    box = html.escape(container, quote=False)
    year, month, day = date or (0, 0, 0)
    iso = f"{year}-{month:02}-{day:02}"
    bib_date, ris_date = (f"  year = {{{year}}},\n", f"PY  - {year}\r\nDA  - {year}/{month:02}/{day:02}/\r\n") if date \
        else ("", "")
    enw_date, apa_date = (f"%D {year}\n%8 December {day}\n", f"({year})") if date else ("", "(n.d.)")
    mods_date = f"<originInfo><dateIssued>{iso}</dateIssued></originInfo>" if date else ""
    csl_date = {"issued": {"date-parts": [[year, month, day]]}} if date else {}
    bib, ris, enw, apa, mods, csl = [], [], [], [], [], []
    for key, title, abstract, topics, authors in values:
        names = " and ".join(authors)
        bib.append(f"@inproceedings{{{key},\n  title = {{{_CAPITALS.sub(BRACED, title.translate(_BIB))}}},\n"
                   + (f"  author = {{{names.translate(_BIB)}}},\n" if authors else "")
                   + f"  booktitle = {{{container.translate(_BIB)}}},\n{bib_date}}}\n")
        ris.append(f"TY  - CPAPER\r\nID  - {key}\r\nTI  - {title}\r\n"
                   + "".join(f"AU  - {name}\r\n" for name in authors)
                   + f"T2  - {container}\r\n{ris_date}AB  - {_RIS_LINE.sub(' ', abstract)}\r\n"
                   + "".join(f"KW  - {t}\r\n" for t in topics) + "ER  - \r\n")
        enw.append(f"%0 Conference Paper\n%T {title}\n" + "".join(f"%A {name}\n" for name in authors)
                   + f"%B {container}\n{enw_date}%F {key}\n" + "".join(f"%K {t}\n" for t in topics))
        apa.append((f"{', '.join(authors)} {apa_date}. {title}." if authors else f"{title}. {apa_date}.")
                   + f" In {container}.\n")
        mods.append(f"<mods><titleInfo><title>{html.escape(title, quote=False)}</title></titleInfo>"
                    + "".join(f"<name type='personal'><namePart>{html.escape(name, quote=False)}</namePart></name>"
                              for name in authors)
                    + f"{mods_date}<typeOfResource>text</typeOfResource><relatedItem type='host'><titleInfo><title>"
                    f"{box}</title></titleInfo>{mods_date}<genre authority='marcgt'>conference publication</genre>"
                    "</relatedItem>"
                    + "".join(f"<subject><topic>{html.escape(t, quote=False)}</topic></subject>" for t in topics)
                    + f"<identifier type='citekey'>{key}</identifier>"
                    + (f"<part><date>{iso}</date></part>" if date else "") + "</mods>\n")
        named = {"author": [{"literal": name} for name in authors]} if authors else {}
        csl.append(json.dumps({"id": key, "type": "paper-conference", "title": title, "container-title": container,
                               **named, **csl_date, "keyword": ", ".join(topics)}, ensure_ascii=False))
    head = '<?xml version="1.0" encoding="UTF-8"?>\n<modsCollection xmlns="http://www.loc.gov/mods/v3">\n'
    return {"bib": "\n".join(bib).encode(), "ris": "\r\n".join(ris).encode(), "enw": "\n".join(enw).encode(),
            "apa.txt": "".join(apa).encode(), "mods.xml": (head + "".join(mods) + "</modsCollection>\n").encode(),
            "csl.json": ("[\n" + ",\n".join(csl) + "\n]\n").encode()}


RECORD_START = {"bib": b"@inproceedings{", "ris": b"TY  - ", "enw": b"%0 ", "apa.txt": b"\n", "mods.xml": b"<mods>",
                "csl.json": b'\n{"id"'}


def citation_core(papers: Sequence[Any], site: Path) -> dict[str, Any]:
    """The citation formats' core: the volume's files from the fields, and the reading blocks' data serialised."""
    ris = (site / "proceedings.ris").read_text(encoding="utf-8")
    date = re.search(r"^DA  - (\d+)/(\d+)/(\d+)/", ris, re.M)
    prefix = re.search(r"^ID  - (.*)-[^-\r\n]+\r?$", ris, re.M)
    reading = read_scripts(site / "assets" / "reading")
    manifest = next(value for _, name, value, _ in reading if name == b"manifest")
    if prefix is None:
        raise AssertionError("proceedings.ris gives no key")
    values = citation_values(papers, prefix.group(1))
    year, month, day = (int(part) for part in date.groups()) if date else (0, 0, 0)

    def work() -> tuple[dict[str, bytes], list[bytes]]:
        return volume_files(values, manifest["title"], (year, month, day) if date else None), write_scripts(reading)

    cpu, (files, blocks) = timed(work)
    formats = {}
    for suffix, data in files.items():
        shipped = (site / f"proceedings.{suffix}").read_bytes()
        records = (data.count(RECORD_START[suffix]), shipped.count(RECORD_START[suffix]))
        if records[0] != len(papers):
            raise AssertionError(f".{suffix}: {records[0]} records written for {len(papers)} papers")
        formats[suffix] = {"bytes": len(data), "site_bytes": len(shipped), "site_records": records[1],
                           "same_bytes": data == shipped}
    return {"cpu_s": cpu, "papers": len(papers), "formats": formats, "files": len(files) + len(blocks),
            "bytes": sum(map(len, files.values())) + sum(map(len, blocks)),
            "site_bytes": sum(f["site_bytes"] for f in formats.values()) + sum(size for *_, size in reading)}


# Topics ---------------------------------------------------------------------------------------------------------

GRAM = 3  # words in the longest n-gram counted: topics and keywords of more are left out


def keyword_forms(tags: Iterable[tuple[str, Iterable[str]]]) -> dict[tuple[str, ...], int]:
    """Each keyword of the taxonomy of at most ``GRAM`` words, as its words, in its plural forms too ("s", "es",
    "y" → "ies" on its last word), → its tag's number (the first tag that names it)."""
    tag_of: dict[tuple[str, ...], int] = {}
    for number, (_, keywords) in enumerate(tags):
        for keyword in keywords:
            words = WORD.findall(keyword.lower())
            if not 0 < len(words) <= GRAM:
                continue
            last = words[-1]
            for form in (last, last + "s", last + "es", last[:-1] + "ies" if last.endswith("y") else last):
                tag_of.setdefault((*words[:-1], form), number)
    return tag_of


def grams(texts: Sequence[str]) -> tuple[dict[str, int], Any, Any, Any, Any]:
    """Every n-gram (1 to ``GRAM`` words) of every text, in numpy: (word → number, and for each n-gram where it
    stands its key (its words' numbers in base V, and its size), its paper, its first and last word). The words
    numbered in C: the first of each in ``dict.fromkeys``, every word looked up by ``map``."""
    split = [WORD.findall(text.lower()) for text in texts]
    every = list(chain.from_iterable(split))
    numbers = {word: number for number, word in enumerate(dict.fromkeys(every))}
    word = np.array(list(map(numbers.__getitem__, every)), dtype=np.int64)
    paper = np.repeat(np.arange(len(texts)), [len(words) for words in split])
    del split, every
    base = len(numbers) + 1
    keys, papers, firsts, lasts = [], [], [], []
    for size in range(1, GRAM + 1):
        end = len(word) - size + 1
        inside = paper[:end] == paper[size - 1:size - 1 + end]  # an n-gram within one paper
        key = word[:end].copy()
        for offset in range(1, size):
            key = key * base + word[offset:offset + end]
        keys.append(key[inside] * (GRAM + 1) + size)
        papers.append(paper[:end][inside])
        firsts.append(word[:end][inside])
        lasts.append(word[size - 1:size - 1 + end][inside])
    return numbers, *(np.concatenate(parts) for parts in (keys, papers, firsts, lasts))  # type: ignore[return-value]


def key_of(words: tuple[str, ...], numbers: dict[str, int]) -> int | None:
    """An n-gram's key as ``grams`` makes it, or None if a word of it is in no text."""
    key = 0
    for word in words:
        if word not in numbers:
            return None
        key = key * (len(numbers) + 1) + numbers[word]
    return key * (GRAM + 1) + len(words)


def topics_of(texts: Sequence[str], count: int, stop: frozenset[str], tag_of: dict[tuple[str, ...], int]
              ) -> tuple[Any, Any, Any]:
    """The survey: each paper's taxonomy hits by tag (its n-grams that are keywords, each counted at most twice
    a paper), as (paper × tags) counts; the own topics: the ``count`` n-grams on the most papers, between 2 and
    half of them, starting and ending on no stop word and not on a number; and each n-gram a paper has of
    those (at most 4 a paper), as (paper, key) pairs."""
    numbers, key, paper, first, last = grams(texts)
    keyed = {key_of(words, numbers): tag for words, tag in tag_of.items()}
    keyed.pop(None, None)
    known = np.array(sorted(keyed), dtype=np.int64)
    hit = np.isin(key, known)
    tag = np.array([keyed[k] for k in known.tolist()], dtype=np.int64)[np.searchsorted(known, key[hit])]
    tags = max(tag_of.values(), default=0) + 1
    pairs, counts = np.unique(paper[hit] * tags + tag, return_counts=True)
    scores = np.zeros(len(texts) * tags, dtype=np.int64)
    scores[pairs] = np.minimum(counts, 2)
    if int(key.max(initial=0)) < np.iinfo(np.int64).max // max(len(texts), 1):  # (key, paper) as one number
        order = np.argsort(key * len(texts) + paper)  # each n-gram's occurrences together, by paper
    else:
        order = np.lexsort((paper, key))
    key, paper, first, last = key[order], paper[order], first[order], last[order]
    new = np.ones(len(key), dtype=bool)
    new[1:] = (key[1:] != key[:-1]) | (paper[1:] != paper[:-1])  # an n-gram's first occurrence in a paper
    key, paper, first, last = key[new], paper[new], first[new], last[new]
    gram, start, papers = np.unique(key, return_index=True, return_counts=True)
    dull = np.zeros(len(numbers), dtype=bool)
    dull[[number for word, number in numbers.items() if word in stop or word.isdigit()]] = True
    fit = (papers >= 2) & (papers <= len(texts) / 2) & ~dull[first[start]] & ~dull[last[start]]
    ranked = np.flatnonzero(fit)
    chosen = gram[ranked[np.argsort(-papers[ranked], kind="stable")[:count]]]
    mine = np.isin(key, chosen)
    kept_paper, kept_key = paper[mine], key[mine]
    order = np.argsort(kept_paper, kind="stable")
    kept_paper, kept_key = kept_paper[order], kept_key[order]
    sizes = np.bincount(kept_paper, minlength=len(texts))
    place = np.arange(len(kept_paper)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    return scores.reshape(len(texts), tags), chosen, np.stack((kept_paper, kept_key))[:, place < 4]


def topics_core(papers: Sequence[Any], tags: Sequence[tuple[str, Sequence[str]]], stop: frozenset[str]) -> dict:
    """The volume's topics' core: the survey's keyword hits and the own topics' n-gram counts and choice, as many
    topics as the build gave its papers."""
    texts = [f"{paper.title_plain}\n{paper.abstract_plain}" for paper in papers]
    topics = len({tag for paper in papers for tag in paper.paper.tags})
    cpu, (scores, chosen, each) = timed(lambda: topics_of(texts, topics, stop, keyword_forms(tags)))
    if len(chosen) != topics or scores.shape != (len(papers), len(tags)):
        raise AssertionError(f"{len(chosen)} topics chosen of {topics}, scores {scores.shape} for {len(papers)}")
    return {"cpu_s": cpu, "papers": len(papers), "topics": topics, "keywords": sum(len(k) for _, k in tags),
            "surveyed_hits": int(scores.sum()), "papers_with_topics": len(np.unique(each[0]))}


# Titles ---------------------------------------------------------------------------------------------------------

CONTRIBUTION = re.compile(r"\b[Ww]e (?:introduce|propose|present|develop|study|design)\s+(?:(?:a|an|the)\s+)?"
                          r"([^.;:!?]+)")
SENTENCE = re.compile(r"\s*(.+?[.!?])(?=\s|$)", re.S)


def title_of(abstract: str, most: int = 100) -> str:
    found = CONTRIBUTION.search(abstract) or SENTENCE.match(abstract)
    phrase = (found.group(1) if found else abstract).rstrip(".!? ")
    if len(phrase) > most:
        phrase = phrase[:phrase.rfind(" ", 0, most) if " " in phrase[:most] else most]
    return phrase[:1].upper() + phrase[1:]


def titles_core(papers: Sequence[Any], derived: Sequence[bool]) -> dict[str, Any]:
    """A title for each paper whose source gives none (``derived``), as the build derives them."""
    untitled = [paper for paper, derive in zip(papers, derived) if derive]
    texts = [paper.abstract_plain for paper in untitled]
    cpu, titles = timed(lambda: [title_of(text) for text in texts])
    if len(titles) != len(untitled) or any(len(title) > 100 for title in titles):
        raise AssertionError("a title a paper, at most 100 characters")
    same = sum(title == paper.title_plain for title, paper in zip(titles, untitled))
    return {"cpu_s": cpu, "papers": len(titles), "same_titles": same}


def measure(papers: Sequence[Any], related: Sequence[Sequence[int]], matrix: Any, site: Path,
            tags: Sequence[tuple[str, Sequence[str]]], stop: frozenset[str], derived: Sequence[bool]) -> dict[str, Any]:
    """Every core, on the build's papers (``RenderedPaper``s), related lists (indexes), TF-IDF matrix, site,
    taxonomy (tag, keywords) and which papers' titles it derived; BLAS on one thread, as the build holds it (a
    thread pool spins on a busy machine)."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):
        return _measure(papers, related, matrix, site, tags, stop, derived)


def _measure(papers: Sequence[Any], related: Sequence[Sequence[int]], matrix: Any, site: Path,
             tags: Sequence[tuple[str, Sequence[str]]], stop: frozenset[str], derived: Sequence[bool]
             ) -> dict[str, Any]:
    return {"search index": search_core(papers, site), "related papers": related_core(matrix, 4, related),
            "map": map_core(matrix), "citation formats": citation_core(papers, site),
            "topics": topics_core(papers, tags, stop), "titles": titles_core(papers, derived)}


WHAT = {
    "search index": "words split once (re.findall), counted, inverted with BM25 weights (numpy); the site's index "
                    "scripts serialised again (orjson)",
    "related papers": "each paper's 12 heaviest terms × the index, a sparse product a block; best 40 candidates, "
                      "their exact cosines, the best 4 (numpy)",
    "map": "randomized SVD to 40 dimensions, t-SNE of 1,000 landmarks (300 steps, exact gradient, BLAS in float32), "
           "the rest placed among their nearest",
    "citation formats": "the six volume files from the papers' fields, one f-string a format, str.join; the reading "
                        "blocks' data serialised again (orjson)",
    "topics": "words numbered, every 1–3-word n-gram as an integer key (numpy), keywords by numpy.isin, papers an "
              "n-gram is on by one sort, the choice and each paper's 4",
    "titles": "two regular expressions an abstract (the contribution, else the first sentence), cut at 100 characters",
}


def checked(name: str, found: dict[str, Any]) -> str:
    """What a core's result was checked against, in words, for the table."""
    if name == "search index":
        return (f"{found['files']:,} scripts as the site's {found['site_files']:,}, {found['bytes'] / 1e6:.1f} MB "
                f"(site {found['site_bytes'] / 1e6:.1f}); {found['terms']:,} words (site: {found['site_terms']:,} "
                f"stems and tokens)")
    if name == "related papers":
        return (f"{found['papers']:,} × {found['k']} lists, {found['same_lists'] / found['papers']:.0%} the build's "
                f"(every pair's exact product: {found['all_pairs_cpu_s']:.2f} CPU-s, "
                f"{found['all_pairs_same_lists'] / found['papers']:.0%} the build's)")
    if name == "map":
        return f"{found['papers']:,} places"
    if name == "citation formats":
        same = [suffix for suffix, f in found["formats"].items() if f["same_bytes"]]
        return (f"{found['files']:,} files, {found['bytes'] / 1e6:.1f} MB (site {found['site_bytes'] / 1e6:.1f}); "
                f"byte for byte the site's: {', '.join('.' + s for s in same) or 'none'}")
    if name == "topics":
        return (f"{found['topics']:,} topics chosen, {found['papers_with_topics']:,} of {found['papers']:,} papers "
                f"given some; {found['surveyed_hits']:,} keyword hits of {found['keywords']:,} keywords")
    if name == "titles":
        return f"{found['papers']:,} titles ≤ 100 characters ({found['same_titles']:,} the build's)"
    return ""
