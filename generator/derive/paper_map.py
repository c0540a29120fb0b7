"""The map of the papers: each paper's place in a drawing where similar papers lie close.

The places come from the venue's own projection when the content folder has one (Mini-Conf's
``papers_projection.json``: ``[{"id": UID, "pos": [x, y]}, …]``), else from the layout of the papers' TF-IDF
vectors (derive/map_layout.py). Either way they are scaled into a box of ``WIDTH`` by at most ``WIDTH`` units and
rounded to whole units, so that the same papers give the same bytes.

Worked out once a build, from the vectors related papers have just made (``related.matrix_for``): by the relate
stage, and the map page's render asks again and finds them (``_LAST``); or, in a build whose render stage forks
workers (``map_later``), by the map page's render itself, in the build's process while the workers render the
paper pages. Serve's background job, after an edit, works them out afresh. The build cache keeps them for a
build whose texts did not move.
"""

from __future__ import annotations

import json
import math
from itertools import chain
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.derive.related import matrix_for, texts_digest
from generator.model.paper import RenderedPaper
from generator.runtime.cache import BuildCache, digest_of
from generator.runtime.executor import Executor
from generator import diagnostics as codes

PROJECTION = "papers_projection.json"
FOLDERS = (".", "sitedata")  # Mini-Conf keeps its data in sitedata/
WIDTH = 1000  # of the drawing, in its own units (the SVG's viewBox)
MARGIN = 12  # room for a mark's radius at the edges
Warn = Callable[..., None]


@dataclass(frozen=True)
class Placed:
    """Where each paper lies (paper id → x, y in whole units of a ``width`` × ``height`` box); ``unplaced``: the
    papers a venue's projection left out and nothing placed (listed beside the map)."""

    width: int
    height: int
    places: dict[str, tuple[int, int]]
    unplaced: tuple[str, ...] = ()


_LAST: dict[str, Placed] = {}  # one entry: the last volume's places, by its key


def paper_places(papers: Sequence[RenderedPaper], content_dir: Path | None = None,
                 cache: BuildCache | None = None, warn: Warn | None = None,
                 related: dict[str, tuple[str, ...]] | None = None) -> Placed:
    """Each paper's place on the map, from the venue's projection in ``content_dir`` or the layout."""
    projection = find_projection(content_dir)
    text = projection.read_bytes() if projection is not None else b""
    texts = texts_digest(papers)  # (read once: the key and the vectors both need it)
    key = _key(papers, text, texts)
    if key in _LAST:
        return _LAST[key]
    # A projection is cheap: read again each build, so that its warnings are said each build. One that gives no
    # place (it cannot be read) leaves the map to the layout.
    given = _read_projection(projection, text, warn) if projection is not None else {}
    if projection is not None and given:
        placed = _from_projection(papers, projection, given, warn, related or {})
    else:
        placed = _cached(papers, cache, key) or _from_layout(papers, texts)
        if cache is not None and cache.enabled:
            places = [placed.places[p.paper.id] for p in papers]
            cache.store_json("map", cache.key(key), [placed.width, placed.height, places])
    _LAST.clear()
    _LAST[key] = placed
    return placed


def map_later(parallel: bool, executor: Executor, papers: int, content_dir: Path | None) -> bool:
    """Whether a build leaves the layout for map.html's render rather than the relate stage: when the render
    stage forks workers (``parallel``: they write their share; more than one core; not a large volume's fresh
    processes) and the venue gives no projection. map.html is a whole-volume file, which this process renders
    first while the workers claim the paper pages: the layout's second or two then waits on no core (in the
    relate stage the other core has only the search index's child, which is done sooner)."""
    return parallel and executor.forks(papers) and find_projection(content_dir) is None


def find_projection(content_dir: Path | None) -> Path | None:
    """The content folder's ``papers_projection.json`` (or its ``sitedata/`` folder's), if it has one."""
    if content_dir is None:
        return None
    return next((content_dir / folder / PROJECTION for folder in FOLDERS
                 if (content_dir / folder / PROJECTION).is_file()), None)


def _key(papers: Sequence[RenderedPaper], projection: bytes, texts: str) -> str:
    """What the places are made of: the papers' ids in order, their texts (``texts``: related papers' digest of
    them), and the venue's projection."""
    parts = (part for p in papers for part in (p.paper.id, p.paper.uid))
    return digest_of(chain(("map", projection, texts), parts))  # read a paper at a time (digest(*parts) holds them all)


def _cached(papers: Sequence[RenderedPaper], cache: BuildCache | None, key: str) -> Placed | None:
    """The places an earlier build worked out for the same texts, when the entry has the right shape."""
    found: Any = cache.load_json("map", cache.key(key)) if cache is not None and cache.enabled else None
    if not (isinstance(found, list) and len(found) == 3 and isinstance(found[2], list)
            and len(found[2]) == len(papers) and all(type(v) is int for v in found[:2])):
        return None
    places = {}
    for paper, place in zip(papers, found[2]):
        if not (isinstance(place, list) and len(place) == 2 and all(type(v) is int for v in place)):
            return None
        places[paper.paper.id] = (place[0], place[1])
    return Placed(found[0], found[1], places)


def _from_layout(papers: Sequence[RenderedPaper], texts: str) -> Placed:
    from generator.derive.map_layout import layout

    points = layout(matrix_for(papers, texts))
    return _scaled([p.paper.id for p in papers], points)


def _scaled(ids: Sequence[str], points: Sequence[tuple[float, float]]) -> Placed:
    """``points`` turned so that the drawing is wider than tall, and scaled into the box, rounded."""
    if not points:
        return Placed(WIDTH, WIDTH // 2, {})
    xs, ys = [x for x, _ in points], [y for _, y in points]
    if max(xs) == min(xs) and max(ys) == min(ys):  # nothing tells the papers apart (no telling words): a row
        xs, ys = [float(n) for n in range(len(points))], [0.0] * len(points)
    if max(ys) - min(ys) > max(xs) - min(xs):
        xs, ys = ys, xs
    low_x, low_y = min(xs), min(ys)
    span = max(max(xs) - low_x, max(ys) - low_y) or 1.0
    scale = (WIDTH - 2 * MARGIN) / span
    drawn = math.ceil((max(ys) - low_y) * scale)
    height = max(WIDTH // 2, drawn + 2 * MARGIN)
    top = MARGIN + (height - 2 * MARGIN - drawn) // 2  # a flat drawing in the middle of the box
    places = {key: (round((x - low_x) * scale) + MARGIN, round((y - low_y) * scale) + top)
              for key, x, y in zip(ids, xs, ys)}
    return Placed(WIDTH, height, places)


def _from_projection(papers: Sequence[RenderedPaper], path: Path, given: dict[str, tuple[float, float]],
                     warn: Warn | None, related: dict[str, tuple[str, ...]]) -> Placed:
    """The venue's places; a paper it leaves out is put among its related papers that it placed, or listed."""
    by_id: dict[str, tuple[float, float]] = {}
    for paper in papers:
        for name in (paper.paper.uid, paper.paper.id, paper.slug):
            if name and name in given:
                by_id[paper.paper.id] = given[name]
                break
    missing = [p.paper.id for p in papers if p.paper.id not in by_id]
    for paper_id in missing:
        near = [by_id[other] for other in related.get(paper_id, ()) if other in by_id]
        if near:
            by_id[paper_id] = (sum(x for x, _ in near) / len(near), sum(y for _, y in near) / len(near))
    unplaced = tuple(paper_id for paper_id in missing if paper_id not in by_id)
    if missing and warn is not None:
        warn(f"{len(missing)} of {len(papers)} papers are not in {path.name} ({len(missing) - len(unplaced)} placed "
             f"beside their related papers, {len(unplaced)} listed under the map)", _shown_path(path),
             code=codes.MAP_PROJECTION_MISSING, subject=missing[0])
    ids = [p.paper.id for p in papers if p.paper.id in by_id]
    placed = _scaled(ids, [by_id[paper_id] for paper_id in ids])
    return Placed(placed.width, placed.height, placed.places, unplaced)


def _read_projection(path: Path, text: bytes, warn: Warn | None) -> dict[str, tuple[float, float]]:
    """``[{"id": UID, "pos": [x, y]}, …]`` as UID → place; a file or an entry that cannot be read is said, once
    each, and left out."""
    try:
        data = json.loads(text.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        line = getattr(exc, "lineno", None)
        _warn(warn, f"cannot be read as JSON ({getattr(exc, 'msg', exc)}); the map is laid out from the "
                    "papers' texts instead", path, line)
        return {}
    if not isinstance(data, list):
        _warn(warn, "must be a list of {\"id\": …, \"pos\": [x, y]} entries; it is not used", path)
        return {}
    places: dict[str, tuple[float, float]] = {}
    bad: list[int] = []
    for number, entry in enumerate(data, start=1):
        place = _entry(entry)
        if place is None:
            bad.append(number)
        else:
            places[place[0]] = place[1]
    if bad:
        _warn(warn, f"{len(bad)} entr{'y' if len(bad) == 1 else 'ies'} without an id and a position [x, y] of two "
                    f"numbers (entry {', '.join(map(str, bad[:5]))}{'…' if len(bad) > 5 else ''}) left out", path)
    return places


def _entry(entry: object) -> tuple[str, tuple[float, float]] | None:
    if not isinstance(entry, dict):
        return None
    uid, pos = entry.get("id", entry.get("UID")), entry.get("pos")
    if isinstance(uid, bool) or not isinstance(uid, (str, int)) or not str(uid).strip():
        return None
    if not isinstance(pos, list) or len(pos) != 2 or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in pos):
        return None
    return str(uid).strip(), (float(pos[0]), float(pos[1]))


def _shown_path(path: Path) -> str:
    return f"{path.parent.name}/{path.name}" if path.parent.name == "sitedata" else path.name


def _warn(warn: Warn | None, message: str, path: Path, line: int | None = None) -> None:
    if warn is not None:
        warn(message, _shown_path(path), line=line, code=codes.MAP_PROJECTION_INVALID)
