"""The relate stage's map of the papers (derive/paper_map.py): where and when its places are worked out.

In the relate stage, in this process (one core, serve, check, a large volume's fresh processes, a venue's
projection); else, in a build whose render stage forks workers (``paper_map.map_later``), beside what follows.
There, when related papers make the papers' vectors (a first build, ``--no-cache``, texts that moved), a forked
child lays them out as soon as the search index's child is done (from the vectors made, or once the neighbours
are): beside what this process does next, listing the site's files and keeping the unchanged ones, with the other
core idle until now (bench/RESULTS.md, issue 43, session 26); map.html's render takes the child's places. Not
beside the index's child: each forked child keeps a copy of every page of this process's memory that either
writes to (three processes held 605 MB of a 10,000-paper build, two 411). With the index's child still at work
then (a busy machine), or without vectors (related papers found in the cache: the places most likely are too, and
a map.html kept unchanged asks for none), the map is made as map.html renders, in this process, as before.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

from generator.derive.paper_map import Placed, map_later, paper_places
from generator.derive.related import forget_vectors
from generator.model.paper import RenderedPaper
from generator.runtime.background import Pending
from generator.runtime.cache import BuildCache
from generator.runtime.executor import Executor

Places = Callable[[list[RenderedPaper]], Placed]


class MapPlaces:
    """The map of ``papers`` for one relate stage: ``vectors_made`` is handed to related papers, ``places`` asked
    once they are related. ``busy``: whether another child of this process is at work (the index's)."""

    def __init__(self, papers: list[RenderedPaper], content_dir: Path, cache: BuildCache, warn: Callable[..., None],
                 timed: Callable[..., Placed], parallel: bool, executor: Executor, busy: Callable[[], bool]):
        self.papers, self.timed, self.executor, self.busy = papers, timed, executor, busy
        self.later = map_later(parallel, executor, len(papers), content_dir)
        self.made = functools.partial(paper_places, content_dir=content_dir, cache=cache, warn=warn)
        self.vectors = False  # related papers made them
        self.pending: Pending | None = None  # the child laying the papers out

    def vectors_made(self) -> None:
        """The vectors just made: the child that lays them out started, if the index's child is done."""
        self.vectors = True
        self._start()

    def _start(self) -> None:
        """The child started, once: no warning is lost there (``map_later`` leaves out a venue's projection, the one
        source of the map's warnings)."""
        if self.later and self.vectors and self.pending is None and not self.busy():
            self.pending = self.executor.start(functools.partial(self.made, self.papers))

    def places(self, related: dict[str, tuple[str, ...]] | None) -> Places | None:
        """The places made now, timed as "map papers" (None); or the call map.html's render makes for them: the
        child's (started now if not yet, and the index's child is done), whose vectors this process lets go; or
        made then, in this process, which lets them go after."""
        if not self.later:
            self.timed("map papers", self.made, self.papers, related=related)
            return None
        self._start()
        if self.pending is not None:
            forget_vectors()
            return functools.partial(self._laid_out, self.pending, related)

        def places(shown: list[RenderedPaper]) -> Placed:
            try:
                return self.timed("map papers", self.made, shown, related=related)
            finally:
                forget_vectors()

        return places

    def _laid_out(self, pending: Pending, related: dict[str, tuple[str, ...]] | None,
                  shown: list[RenderedPaper]) -> Placed:
        """The child's places, waited for; those of other papers than it laid out (no build asks) made here."""
        if shown is not self.papers and [p.paper.id for p in shown] != [p.paper.id for p in self.papers]:
            pending.cancel()
            return self.timed("map papers", self.made, shown, related=related)
        return self.timed("map papers", pending)
