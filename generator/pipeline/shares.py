"""The render stage's workers, each holding only its share of the volume.

A worker forked from the build shares the build's memory only until either writes to it, and the
build writes to its papers all through the render stage (reading an object counts it): a forked
template worker ends up with its own copy of nearly every page of papers it inherited, nearly as
much again as the build holds. So a large volume's template workers are fresh processes (when the
size policy says so: runtime/sizes.py; ``Executor.feed``), each sent its share:

* every paper, whole: a list renders each as its page does, from the same paper (a theme's list item
  may show the abstract; a cut-down copy would show it something else);
* its outputs, those their page types declare a worker may render (``Output.share``: a list, or a
  paper's own page), as the renderer's own calls, pickled with each paper as its number in the volume
  (``_Outgoing``) and read back against the worker's papers (``_Incoming``).

It makes its own ``SiteRenderer`` (the templates, the citations, related papers from their ids) and
writes its files into the staging folder. The build renders the rest: the files made from the whole
volume, the abstracts' and the reading list's blocks, redirects and a share of the paper pages.
"""

from __future__ import annotations

import io
import pickle
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, IO

from generator.model.config import Config
from generator.model.paper import RenderedPaper
from generator.runtime.background import Pending
from generator.runtime.executor import Executor
from generator.runtime.output import Staging
from generator.publish import Publication
from generator.render.html import SiteRenderer
from generator.render.outputs import Output
from generator.render.site_info import SiteInfo
from generator.render.theme import Theme

# Of the paper pages, the share the build renders itself, beside the whole-volume files and the blocks: a
# little under half, so that the build and a worker finish at about the same time on two cores.
OWN_PAGES = 0.45
OUTPUTS_BATCH = 200  # outputs pickled together
_START_OUTPUTS = "outputs"  # after the papers, in what a worker is sent

@dataclass(frozen=True)
class ShareContext:
    """What a worker's renderer is made of, beside the papers: the build's own, and where to write."""

    content_dir: Path
    config: Config
    site: SiteInfo
    shared: dict[str, Any]  # SiteRenderer.shared: the topics', the authors' pages…
    related: dict[str, tuple[str, ...]]
    staging: Staging


@dataclass
class Shares:
    """The build's renderer and papers, and what a worker needs beside them."""

    renderer: SiteRenderer
    papers: list[RenderedPaper]
    context: ShareContext

    def split(self, outputs: list[Output], workers: int, executor: Executor) -> tuple[list[Output], list[Pending]]:
        """The outputs the build renders itself, and the ``executor``'s workers started on the others (none
        when no output can go: each worker would cost more than it takes)."""
        number = {id(paper): index for index, paper in enumerate(self.papers)}
        own: list[Output] = []
        lists: list[Output] = []
        pages: list[Output] = []
        for output in outputs:
            kind = self._kind(output, number)
            (own if kind is None else lists if kind == "list" else pages).append(output)
        given = len(pages) - int(len(pages) * OWN_PAGES)
        own += pages[given:]
        if not lists and not given:
            return outputs, []
        pendings = []
        for part in range(workers):
            mine = lists[part::workers]
            theirs = pages[given * part // workers:given * (part + 1) // workers]
            pendings.append(executor.feed(render_share, self._items(mine + theirs, number), self.context,
                                          papers=len(self.papers),
                                          now=len(self.papers) + 1))  # the papers, before this process renders
        return own, pendings

    @staticmethod
    def _kind(output: Output, number: dict[int, int]) -> str | None:
        """"list", "page" (a paper's own page) or None: this one the build renders (``Output.share``, as its
        page type declared it)."""
        if output.share == "page":
            return "page" if id(output.paper) in number else None
        return output.share or None

    def _items(self, outputs: list, number: dict[int, int]) -> Iterator:
        """What a worker is sent, made as it is sent: every paper, whole (a theme's list item may show any of
        a paper's fields: no cut-down copy it could tell apart), then its outputs, ``OUTPUTS_BATCH`` pickled
        together."""
        yield from self.papers
        yield _START_OUTPUTS
        for start in range(0, len(outputs), OUTPUTS_BATCH):
            data = io.BytesIO()
            batch = [(output.path, output.render) for output in outputs[start:start + OUTPUTS_BATCH]]
            _Outgoing(data, self.renderer, number).dump(batch)
            yield data.getvalue()


class _Outgoing(pickle.Pickler):
    """Pickles the build's renderer and each of its papers by reference: "r", or the paper's number."""

    def __init__(self, file: IO[bytes], renderer: SiteRenderer, number: dict[int, int]) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._renderer, self._number = renderer, number

    def persistent_id(self, obj: Any) -> Any:
        if obj is self._renderer:
            return "r"
        if type(obj) is RenderedPaper:
            return self._number.get(id(obj))
        return None


class _Incoming(pickle.Unpickler):
    def __init__(self, file: IO[bytes], renderer: SiteRenderer, papers: list[RenderedPaper]) -> None:
        super().__init__(file)
        self._renderer, self._papers = renderer, papers

    def persistent_load(self, pid: Any) -> Any:
        return self._renderer if pid == "r" else self._papers[pid]


def render_share(items: Iterator, context: ShareContext) -> list[str]:
    """A worker: the papers, then its outputs rendered and written into the staging folder; their names."""
    papers = []
    for item in items:
        if isinstance(item, str) and item == _START_OUTPUTS:
            break
        papers.append(item)
    publication = Publication(papers, context.site.volume, context.config.macros, related=context.related)
    renderer = SiteRenderer(Theme.for_content(context.content_dir), context.config, context.site,
                            publication=publication, shared=context.shared)
    names = []
    for data in items:
        for path, render in _Incoming(io.BytesIO(data), renderer, papers).load():
            context.staging.write(path, render())
            names.append(path)
    return names
