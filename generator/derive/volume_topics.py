"""What the taxonomy makes of a whole volume, decided once before any paper is tagged.

A taxonomy is a guess about a field; a volume shows whether the guess fits. Two rules,
both on the tags the taxonomy would give the volume's papers:

- **The built-in taxonomy fits** a volume it describes: at most ``FIT_SHARE`` of the papers it
  would tag (or fewer than ``FIT_MIN``) match none of its tags, and in a volume of ``DESCRIBE_MIN``
  or more, a tag other than a broad one scores ``STRONG`` on at least ``DESCRIBE_SHARE`` of them.
  It is machine learning's: ICLR 2020 (4% match nothing, 80% described) and NeurIPS 2010–2018 (7%,
  77%) keep it; a SIGDIAL/INLG volume (7%, but 36%: "dialogue" puts most papers under "Language &
  speech" and the rest is chance), the Japanese NLP annual meeting (23–27%, 34%) and ISMIR (32%)
  do not. Where it does not fit it tags no paper: the papers' topics are the key phrases they share
  (own_topics.py), and the build says so once. Where most papers have subjects or keywords of their
  own, it only fills in for the others and always fits. A ``taxonomy.yaml`` is the organisers' own
  word on their field, its fallback their choice: it is applied as written, each paper it misses named.
- **A broad tag** is one it would give more than half of the papers of a volume of at least
  ``BROAD_MIN`` ("Learning theory & statistics" on a COLT volume): it tells a reader nothing there,
  so it gives way to the paper's narrower tags, and stays only on papers that have no other.

Front matter (a preface, a keynote: ``is_front_matter``) gets no topic from the tool, and a paper with no
abstract none from the taxonomy, whose keywords a title alone would match by chance ("Team Synapse @
AutoMin" is no neuroscience); the volume's own phrases may name its topic from its title.

The survey reads the sources' text as written (the rendered text is made later, a paper at a
time): what it decides is which tags are broad, not any paper's tags. The decision is part of
``Project.tags_version``, so when it changes, the pages whose tags are the tool's are tagged again.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, Protocol

from generator.derive.own_topics import OwnTopics, own_topics
from generator.derive.phrases import phrase_table
from generator.derive.tagging import TAXONOMY_FILE, Taxonomy
from generator.model.paper import Entry
from generator.runtime.cache import digest
from generator.runtime.executor import INLINE, Executor
from generator.runtime.sizes import Cost
from generator.text.lazyre import lazy

if TYPE_CHECKING:
    from generator.derive.phrase_table import PhraseTable

FIT_MIN = 5  # papers that match nothing: fewer are each warned about on their own
FIT_SHARE = 0.1  # of the papers the built-in taxonomy would tag: more matching nothing, it does not fit
# A tag earns a paper clearly with this score (two keywords, or one in the title and the abstract); the
# taxonomy describes a volume of ``DESCRIBE_MIN`` papers or more when a tag other than a broad one earns at
# least ``DESCRIBE_SHARE`` of them clearly.
STRONG = 4
DESCRIBE_MIN = 20
DESCRIBE_SHARE = 0.5
BROAD_MIN = 20  # papers: in a smaller volume, half is too few papers to call a topic uninformative
BROAD_SHARE = 0.5  # a tag on more than this share of the volume's papers is broad
OWN_VERSION = 1  # bump when own_topics.py or phrases.py choose differently: the pages are tagged again
# A front-matter title: the word alone or after the volume's name and a colon or dash, and maybe followed by
# what it is of ("Preface to the Proceedings of …", "Keynote: Listening Machines", "Invited Talk (Jane Roe)").
_FRONT_WORDS = (r"preface|foreword|front\s*matter|editorial|editors?['’]?\s+introduction|table\s+of\s+contents"
                r"|keynotes?(?:\s+(?:talk|address|speech|lecture))?|invited\s+(?:talks?|speakers?|lectures?)"
                r"|plenary\s+(?:talks?|lectures?)|序文|まえがき|はじめに|基調講演|招待講演|前言|序言|主题报告|特邀报告")
_FRONT_MATTER = lazy(
    rf"^(?:.{{0,200}}?\s*[:：—–-]\s*)?(?:{_FRONT_WORDS})\s*(?:$|[:：—–(（-]|\s(?:to|of|for|by)\s)", re.IGNORECASE)


@dataclass(frozen=True)
class VolumeTopics:
    papers: int = 0  # in the volume
    tagged: int = 0  # papers the taxonomy would tag (auto_tags: those without subjects or keywords, or all)
    fell_back: int = 0  # of them, those matching no tag of the built-in taxonomy
    broad: tuple[tuple[str, int], ...] = ()  # (tag, papers it would be on), most first
    described: int = 0  # of the papers tagged, those a tag other than a broad one earns clearly (STRONG)
    # Where the taxonomy does not fit: the topics of the volume's own phrases, and each paper's, by
    # ``paper_key`` (a paper that shares none is not there).
    own: tuple[str, ...] = ()
    own_of: int = 0  # papers the own topics were chosen for (the front matter is not one)
    own_tags: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False, repr=False)
    # Where it fits: each titled paper's scores of the taxonomy's tags (``Taxonomy.scores`` of its title and its
    # abstract as the source gives it), by ``paper_key``, as the survey found them this run. Deriving its tags
    # reads them again where the rendered text is that same text (three abstracts in four) rather than
    # scoring it twice; a build read from the cache has none, and scores.
    scores: dict[str, tuple[int, ...]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def fits(self) -> bool:
        if self.tagged * 2 < self.papers:
            return True  # most papers have the venue's own subjects: the taxonomy only fills in for the others
        if self.fell_back >= FIT_MIN and self.fell_back > self.tagged * FIT_SHARE:
            return False
        return self.tagged < DESCRIBE_MIN or self.described >= self.tagged * DESCRIBE_SHARE

    @property
    def broad_names(self) -> frozenset[str]:
        return frozenset(name for name, _ in self.broad)

    @property
    def version(self) -> str:
        """"" for a volume the taxonomy fits without broad tags (the tags of every other volume stay as they
        were); else what was decided, short."""
        if not self.fits:
            if not self.own:
                return "/unfit"
            tags = json.dumps(sorted(self.own_tags.items()), ensure_ascii=False)
            return f"/own-{OWN_VERSION}-" + hashlib.sha256(tags.encode("utf-8")).hexdigest()[:10]
        if not self.broad:
            return ""
        names = "\x1f".join(sorted(self.broad_names))
        return "/broad-" + hashlib.sha256(names.encode("utf-8")).hexdigest()[:10]


class Known(Protocol):
    """Tags found by an earlier build, by entry (the build cache's EntryCache): tagging takes about 0.1–0.3 ms
    a paper, seconds for a large volume, on every build that loads it."""

    def get(self, record_key: str) -> Any: ...
    def put(self, record_key: str, value: Any) -> None: ...


# Runs the choice of the volume's own topics (the papers' phrases counted, spread over processes, then the chunks'
# phrase tables joined and chosen from, serial) in this process, with other work beside it on the cores it leaves
# idle meanwhile: the count's last chunks, the join, the choice (content/project.py: the renderings of a build without
# its cache; a first build makes its titles beside the whole survey).
Beside = Callable[[Callable[[], OwnTopics]], OwnTopics]


class Remembered(Protocol):
    """The own topics of the volume as an earlier build found them (the build cache): choosing them takes
    about 1 ms a paper, seconds for a large volume, so an unchanged volume does not choose them again."""

    def load(self, key: str) -> Any: ...
    def store(self, key: str, value: Any) -> None: ...


def survey(taxonomy: Taxonomy, entries: Iterable[Entry], auto_tags: str, known: Known | None = None,
           remembered: Remembered | None = None, executor: Executor = INLINE,
           beside: Beside | None = None) -> VolumeTopics:
    """The taxonomy's tags for the entries it would tag, counted over the volume, and where it does not fit, the
    topics of the volume's own phrases. ``known`` must be made for this taxonomy (its version in the cache's key).
    Each paper's tags and phrases are its own work: the ``executor`` spreads them over its processes. Choosing
    the own topics from the phrases is one serial job: ``beside``, when given, runs it with other work beside."""
    if auto_tags == "never":
        return VolumeTopics()
    counts: Counter[str] = Counter()
    papers = tagged = fell_back = 0
    untagged: list[Entry] = []  # the entries the tool would tag
    for entry in entries:
        papers += 1
        if not ((auto_tags == "missing" and entry.keywords) or is_front_matter(entry)):
            untagged.append(entry)
    strongest: list[tuple[str, ...]] = []  # for each paper the taxonomy tags, the tags it earns clearly
    scored: dict[str, tuple[int, ...]] = {}
    keys = [paper_key(entry) for entry in untagged]  # (a digest of the paper's text: made once, for both uses)
    scoring = [number for number, entry in enumerate(untagged) if entry.text.strip()]
    for tags, strong in _tags(taxonomy, [untagged[n] for n in scoring], [keys[n] for n in scoring], known, executor,
                              scored):
        tagged += 1  # a title alone is not there: the taxonomy does not tag it
        strongest.append(strong)
        if tags != (taxonomy.fallback,):
            counts.update(tags)
        elif taxonomy.name != TAXONOMY_FILE:
            fell_back += 1
    broad = () if papers < BROAD_MIN else tuple(
        (name, count) for name, count in counts.most_common() if count > papers * BROAD_SHARE)
    # A taxonomy.yaml is the organisers' word: it describes their papers.
    described = tagged if taxonomy.name == TAXONOMY_FILE else sum(
        any(name not in {tag for tag, _ in broad} for name in strong) for strong in strongest)
    topics = VolumeTopics(papers, tagged, fell_back, broad, described)
    if topics.fits:
        return replace(topics, scores=scored)
    return _with_own_topics(topics, untagged, keys, remembered, executor, beside)


def _with_own_topics(topics: VolumeTopics, entries: list[Entry], keys: list[str], remembered: Remembered | None,
                     executor: Executor, beside: Beside | None = None) -> VolumeTopics:
    """``topics`` with the own topics of the ``entries`` (``keys``: their ``paper_key``)."""
    volume = digest(str(OWN_VERSION), *keys)
    found = remembered.load(volume) if remembered is not None else None
    if found is None:
        # Counted and chosen from as one job, beside which other work may run (``Beside``).
        choose = functools.partial(_counted_and_chosen, entries, executor)
        chosen = beside(choose) if beside is not None else choose()
        found = [list(chosen.names), [list(names) for names in chosen.per_paper]]
        if remembered is not None:
            remembered.store(volume, found)
    names, per_paper = found
    tags = {key: tuple(mine) for key, mine in zip(keys, per_paper) if mine}
    return replace(topics, own=tuple(names), own_of=len(entries), own_tags=tags)


def _counted_and_chosen(entries: list[Entry], executor: Executor) -> OwnTopics:
    """The own topics of the entries: each chunk's phrases as one table (a few arrays and its keys' names, pickled
    back from a worker), the tables joined in the serial job that chooses from them."""
    return _chosen(executor.map_chunks(_phrases, entries, Cost.HEAVY), entries)


def _chosen(tables: list[PhraseTable], entries: list[Entry]) -> OwnTopics:
    """The own topics of the entries whose phrases the chunks' ``tables`` hold, one after the other."""
    from generator.derive.phrase_table import PhraseTable

    table = PhraseTable.join(tables)
    tables.clear()  # let go: the join holds every chunk's phrases again
    return own_topics(table, [unicodedata.normalize("NFKC", f"{entry.title}\n{entry.text}") for entry in entries])


def _phrases(entries: list[Entry]) -> PhraseTable:
    # A chunk's n-grams are counted at once, over its words' ids (phrases.py, ngrams.py).
    return phrase_table([(entry.title, entry.text) for entry in entries])


def paper_key(entry: Entry) -> str:
    """What a paper's own topics are found by: its title and abstract."""
    return digest(entry.title, entry.text)


def is_front_matter(entry: Entry) -> bool:
    """A preface, foreword, keynote or invited talk, front matter: no paper, so no topic of the tool's. Told by
    its title ("Preface", "Conference on Learning Theory 2025: Preface", "Keynote: Listening Machines")."""
    return bool(_FRONT_MATTER.match(unicodedata.normalize("NFKC", entry.title).strip()))


def _tags(taxonomy: Taxonomy, entries: list[Entry], keys: list[str], known: Known | None, executor: Executor,
          scored: dict[str, tuple[int, ...]]) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Each entry's tags of the taxonomy, and those of them that score ``STRONG``: those ``known`` has (by ``keys``,
    the entries' ``paper_key``), the others scored by the ``executor``'s processes (and then known). The scores of
    the entries with a title go in ``scored`` by ``paper_key``."""
    found: list[Any] = [known.get(key) for key in keys] if known is not None else [None] * len(entries)
    missing = [index for index, value in enumerate(found) if value is None]
    scores = executor.map(functools.partial(_scores, taxonomy), [entries[i] for i in missing], Cost.HEAVY)
    for index, (mine, value) in zip(missing, scores):
        found[index] = value
        if known is not None:
            known.put(keys[index], found[index])
        if entries[index].title:
            scored[keys[index]] = mine
    return [(tuple(value[0]), tuple(value[1])) for value in found]


def _scores(taxonomy: Taxonomy, entries: list[Entry]) -> list[tuple[tuple[int, ...], list[list[str]]]]:
    """Each entry's scores of the taxonomy's tags, with the tags they earn and those they earn ``STRONG``ly (made
    here, in the worker: in the build's process they were a serial tenth of a titled volume's load)."""
    found = []
    for entry in entries:
        mine = tuple(taxonomy.scores(entry.title, entry.text))
        found.append((mine, [list(taxonomy.ranked(list(mine))),
                             [rule.name for rule, score in zip(taxonomy.tags, mine) if score >= STRONG]]))
    return found


def topics_record(topics: VolumeTopics) -> list:
    """What the survey found, as JSON (less the scores it found this run: a build read from the cache has none)."""
    return [topics.papers, topics.tagged, topics.fell_back, [list(pair) for pair in topics.broad], topics.described,
            list(topics.own), topics.own_of, {key: list(tags) for key, tags in topics.own_tags.items()}]


def topics_of(record: Any) -> VolumeTopics | None:
    """``topics_record``'s VolumeTopics again; None for a record of another shape."""
    try:
        papers, tagged, fell_back, broad, described, own, own_of, own_tags = record
        numbers = (papers, tagged, fell_back, described, own_of)
        if not all(type(number) is int for number in numbers) or not isinstance(own_tags, dict):
            return None
        return VolumeTopics(papers, tagged, fell_back, tuple((str(name), int(count)) for name, count in broad),
                            described, tuple(map(str, own)), own_of,
                            {str(key): tuple(map(str, tags)) for key, tags in own_tags.items()})
    except (TypeError, ValueError, AttributeError):
        return None
