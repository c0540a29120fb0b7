"""The order in which the render stage's processes claim its files: which process renders what, never what."""

from __future__ import annotations

from generator.publish.reading_list import block_path, file_count


def pages_by_block(outputs: list) -> list:
    """``outputs`` with the paper pages and the reading blocks (publish/reading_list.py) in groups, where the
    first page stood: each block after the pages of the papers it holds. A paper's citations (its ``Reference``,
    its BibTeX) are made by the process that renders it first and kept there; a worker that claims a chunk of
    pages then renders their blocks too, rather than making the same citations again for blocks another
    process claims (issue 43). Only which process renders a file moves, never its bytes; pages whose block is
    not listed follow the groups."""
    pages = [output for output in outputs if output.share == "page" and output.paper is not None]
    if not pages:
        return outputs
    count = file_count(len(pages))
    held: dict[str, list] = {}
    for page in pages:
        held.setdefault(block_path(page.paper.slug, count), []).append(page)
    blocks = [output for output in outputs if output.path in held]
    listed = {block.path for block in blocks}
    loose = [page for path, group in held.items() if path not in listed for page in group]
    first = outputs.index(pages[0])
    moved = {id(output) for output in (*pages, *blocks)}
    return [*(output for output in outputs[:first] if id(output) not in moved),
            *(item for block in blocks for item in (*held[block.path], block)), *loose,
            *(output for output in outputs[first:] if id(output) not in moved)]
