"""The render stage's workers, each holding only its share of the volume.

A worker forked from the build shares the build's memory only until either writes to it, and the
build writes to its papers all through the render stage (reading an object counts it): a forked
template worker ends up with its own copy of nearly every page of papers it inherited, nearly as
much again as the build holds. So a large volume's template workers are fresh processes (when the
size policy says so: runtime/sizes.py; ``Executor.feed``), each sent its share:

* every paper, whole: a list renders each as its page does, from the same paper (a theme's list item
  may show the abstract; a cut-down copy would show it something else);
* then outputs, those their page types declare a worker may render (``Output.share``: a list, or a
  paper's own page), as the renderer's own calls, pickled with each paper as its number in the volume
  (``_Outgoing``) and read back against the worker's papers (``_Incoming``): a batch at a time, each
  batch claimed by whichever of the build and its workers frees up first (``Batches``), so that no
  process waits on another at the end of the stage.

It makes its own ``SiteRenderer`` (the templates, the citations, related papers from their ids) and
writes its files into the staging folder. The build renders the rest first: the files made from the
whole volume, the abstracts' and the reading list's blocks, redirects; then it claims batches too.
"""

from __future__ import annotations

import collections
import functools
import io
import threading
import pickle
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, IO, TypeVar

from generator.model.config import Config
from generator.model.paper import RenderedPaper
from generator.pipeline.packed import folded
from generator.runtime.background import release_free_memory
from generator.runtime.executor import Executor
from generator.runtime.output import Staging
from generator.publish import Publication
from generator.render.html import SiteRenderer
from generator.render.outputs import Output
from generator.render.site_info import SiteInfo
from generator.render.theme import Theme

if TYPE_CHECKING:
    from generator.pipeline.stages import Pipeline

# Outputs claimed at a time, by the build or a worker: a worker's last batch is short work (none waits
# long on another at the end), and pickling and sending one costs little beside rendering it.
CLAIM_BATCH = 40
_START_OUTPUTS = "outputs"  # after the papers, in what a worker is sent
KEPT_CITATIONS = 64  # papers whose citations a worker keeps made (a page reads each paper's a few times)

T = TypeVar("T")


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

    def render(self, outputs: list[Output], render: Callable[[list[Output]], list[str]], workers: int,
               executor: Executor, progress: Callable[[int, int], None] | None = None) -> list[str]:
        """``outputs`` rendered by ``render`` (into the staging folder; their names back, in their order): those
        only the build may render by the build, first; the others — every list, the paper pages — in batches
        that the build and the ``executor``'s fresh workers each claim as they free up. ``outputs`` is emptied
        and each batch let go once rendered: a large volume's outputs are much memory."""
        number = {id(paper): index for index, paper in enumerate(self.papers)}
        own: list[Output] = []
        lists: list[Output] = []
        pages: list[Output] = []
        for output in outputs:
            kind = self._kind(output, number)
            (own if kind is None else lists if kind == "list" else pages).append(output)
        total = len(outputs)
        outputs.clear()
        shared = lists + pages  # the lists first: the longest to render, claimed while the build renders its own
        listing = -(-len(lists) // CLAIM_BATCH)  # the batches holding a list: the first ones
        del lists, pages
        batches = Batches([shared[i:i + CLAIM_BATCH] for i in range(0, len(shared), CLAIM_BATCH)])
        del shared
        pickled = map(functools.partial(self._pickled, number=number, listing=listing), batches)
        pendings = [executor.feed(render_share, self._papers(), self.context, papers=len(self.papers),
                                  now=len(self.papers) + 1,  # the papers, before this process renders
                                  claims=pickled) for _ in range(workers if batches.total else 0)]
        done: list[tuple[int, list[str]]] = []
        if self.renderer.publication is not None:  # each file reads a paper's citations in turn: few are kept
            self.renderer.publication.keep_few(KEPT_CITATIONS)
        try:
            names = render(own)
            own.clear()
            self.renderer.feeds_written()  # (the feeds are the build's own files: none is in a batch)
            listed = False
            for index, batch in batches:
                if index >= listing and not listed:  # (batches come in order: no list is left)
                    listed = lists_done(self.renderer)
                done.append((index, render(batch)))
                if progress is not None:
                    progress(min(len(names) + batches.claimed * CLAIM_BATCH, total), total)
        except BaseException:
            for pending in pendings:
                pending.cancel()
            raise
        for pending in pendings:
            done += pending()
        return names + [name for _, batch_names in sorted(done) for name in batch_names]

    @staticmethod
    def _kind(output: Output, number: dict[int, int]) -> str | None:
        """"list", "page" (a paper's own page) or None: this one the build renders (``Output.share``, as its
        page type declared it)."""
        if output.share == "page":
            return "page" if id(output.paper) in number else None
        return output.share or None

    def _papers(self) -> Iterator:
        """What a worker is sent first: every paper, whole (a theme's list item may show any of a paper's
        fields: no cut-down copy it could tell apart), then the mark that its outputs follow."""
        yield from self.papers
        yield _START_OUTPUTS

    def _pickled(self, claimed: tuple[int, list[Output]], number: dict[int, int], listing: int) -> bytes:
        """A batch of outputs as a worker is sent it: its number, whether it holds a list (the batches before
        ``listing``), and the renderer's own calls, each paper by its number in the volume."""
        index, batch = claimed
        data = io.BytesIO()
        _Outgoing(data, self.renderer, number).dump((index, index < listing,
                                                     [(output.path, output.render) for output in batch]))
        return data.getvalue()


class Batches(Generic[T]):
    """The batches (of outputs; of papers, the render abstracts stage's), each handed out once with its number, to
    the build's own loop or to the thread that feeds a worker, whichever asks first (safe to iterate from both
    threads); none kept once handed out."""

    def __init__(self, batches: list[list[T]]) -> None:
        self._batches = collections.deque(enumerate(batches))
        self._lock = threading.Lock()
        self.total = len(batches)
        self.claimed = 0

    def __iter__(self) -> Iterator[tuple[int, list[T]]]:
        return self

    def __next__(self) -> tuple[int, list[T]]:
        with self._lock:
            if not self._batches:
                raise StopIteration
            self.claimed += 1
            return self._batches.popleft()


class _Outgoing(pickle.Pickler):
    """Pickles the build's renderer and each of its papers by reference: "r", or the paper's number."""

    def __init__(self, file: IO[bytes], renderer: SiteRenderer, number: dict[int, int]) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._renderer, self._number = renderer, number

    def persistent_id(self, obj: Any) -> Any:
        if obj is self._renderer:
            return "r"
        if isinstance(obj, RenderedPaper):  # packed or not (pipeline/packed.py)
            return self._number.get(id(obj))
        return None


class _Incoming(pickle.Unpickler):
    def __init__(self, file: IO[bytes], renderer: SiteRenderer, papers: list[RenderedPaper]) -> None:
        super().__init__(file)
        self._renderer, self._papers = renderer, papers

    def persistent_load(self, pid: Any) -> Any:
        return self._renderer if pid == "r" else self._papers[pid]


def render_share(items: Iterator, context: ShareContext) -> list[tuple[int, list[str]]]:
    """A worker: the papers, then batches of outputs rendered and written into the staging folder; each
    batch's number and its files' names."""
    papers = []
    for item in items:
        if isinstance(item, str) and item == _START_OUTPUTS:
            break
        # Its abstract's texts, and the fields a list does not read of every item, packed until a page reads them
        papers.append(folded(item))  # (pipeline/packed.py)
    # A worker's citations are each made for the one page that shows them: none kept past a few pages.
    publication = Publication(papers, context.site.volume, context.config.macros, related=context.related,
                              kept=KEPT_CITATIONS)
    renderer = SiteRenderer(Theme.for_content(context.content_dir), context.config, context.site,
                            publication=publication, shared=context.shared)
    done, listed = [], False
    for data in items:
        index, lists, batch = _Incoming(io.BytesIO(data), renderer, papers).load()
        if not lists and not listed:  # (batches come in order: no list is left)
            listed = lists_done(renderer)
        names = []
        for path, render in batch:
            context.staging.write(path, render())
            names.append(path)
        done.append((index, names))
    return done


def lists_done(renderer: SiteRenderer) -> bool:
    """A process of the render stage that has rendered its last list: the items ``{% once %}`` kept for the
    lists (a paper's item for every list showing it: tens of MB at 50,000 papers) go, and the C heap's pages
    they held with them (a paper's page asks for none of them; what it asks for is rendered again, the same)."""
    renderer.fragments.clear()
    release_free_memory()
    return True


def worker_shares(p: Pipeline, renderer: SiteRenderer, papers: list[RenderedPaper]) -> Shares | None:
    """What the render stage's workers are sent, when they write into a folder, related papers are known
    and the executor gives a volume this large fresh processes (pipeline/shares.py); None: workers are forked."""
    staging, project = p.sink.worker_staging(), p.state.project
    if staging is None or project is None or p.state.related is None or not p.executor.fresh(len(papers)):
        return None
    context = ShareContext(project.content_dir, project.config, renderer.site, dict(renderer.shared),
                           p.state.related, staging)
    return Shares(renderer, papers, context)
