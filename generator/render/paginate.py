"""List pages cut to a size a reader loads quickly: ``stem.html``, ``stem-2.html``…, each with its navigation.

Topic, author and people pages are paginated by a count of items and a budget of bytes (a paper's
``list_weight``); the volume's contents are cut by their groups instead (render/contents.py).
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Sequence

from generator.model.paper import RenderedPaper

# Names under a title in a list (home, topic and author pages); the paper's own page names all.
# A paper of 5,000 authors would otherwise repeat all 5,000 on each of their 5,000 author pages.
AUTHORS_IN_LISTS = 10
# A list page's papers stop short of this many bytes (the page's own header, contents and navigation
# come on top): every page stays under 100 KB, however long its abstracts or heavy their math.
LIST_PAGE_BUDGET = 80_000
ITEM_MARKUP = 700  # bytes of a list item's own markup, about: links, topics (its abstract toggle is made by script)


def paginate(items: list, size: int, stem: str, joiner: str = "-", weight: Callable[[Any], int] | None = None,
             budget: int = LIST_PAGE_BUDGET) -> Iterator[tuple[str, list, dict]]:
    """Split a list into pages ``stem.html``, ``stem-2.html``…; each gets its navigation.

    A page holds ``size`` items, or fewer when their ``weight`` (about the bytes each adds to
    the page) would pass ``budget``: a list of long titles and author lists still makes pages
    a reader can load quickly. ``pagination.window`` holds the page numbers
    worth a link (first, last and the neighbours of the current one), with ``None`` where
    numbers are skipped, so that a 100-page list does not put 100 links on every page.
    """
    chunks = chunk_by_weight(items, size, weight, budget)
    urls = [f"{stem}.html"] + [f"{stem}{joiner}{n}.html" for n in range(2, len(chunks) + 1)]
    first = 1
    for number, (url, chunk) in enumerate(zip(urls, chunks), start=1):
        yield url, chunk, {
            "number": number, "count": len(chunks), "urls": urls,
            "window": _window(number, len(chunks)),
            "previous": urls[number - 2] if number > 1 else None,
            "next": urls[number] if number < len(chunks) else None,
            "first_order": first,
        }
        first += len(chunk)


def chunk_by_weight(items: Sequence, size: int, weight: Callable[[Any], int] | None, budget: int) -> list[list]:
    """Consecutive runs of at most ``size`` items whose ``weight`` stays within ``budget`` (an item heavier than
    the budget alone still gets a run of its own)."""
    chunks: list[list] = [[]]
    load = 0
    for item in items:
        cost = weight(item) if weight else 0
        if len(chunks[-1]) == size or (chunks[-1] and load + cost > budget):
            chunks.append([])
            load = 0
        chunks[-1].append(item)
        load += cost
    return chunks


def list_weight(paper: RenderedPaper) -> int:
    """About the bytes a paper adds to a list page (_paper_item.html): its title, names and links (its
    abstract is not on the page: publish/reading_list.py). Asked for each list a paper is in (the contents, each
    of its topics…): the paper is frozen, so the weight is kept on it the first time."""
    kept = paper.__dict__
    weight: int | None = kept.get(_KEPT_WEIGHT)
    if weight is None:
        names = sum(len(author.name) + 40 for author in paper.details.authors[:AUTHORS_IN_LISTS])
        weight = kept[_KEPT_WEIGHT] = len(paper.title_html) + names + ITEM_MARKUP
    return weight


_KEPT_WEIGHT = "_list_weight"  # not a field: equality, repr and replace() never see it


def _window(current: int, count: int, radius: int = 2) -> list[int | None]:
    shown = sorted({1, count, *range(max(1, current - radius), min(count, current + radius) + 1)})
    window: list[int | None] = []
    for number in shown:
        if window and number - (window[-1] or 0) > 1:
            window.append(None)
        window.append(number)
    return window
