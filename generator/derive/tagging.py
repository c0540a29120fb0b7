"""Topic tags from a keyword taxonomy (content/taxonomy.yaml, else the bundled default).

A tag's score counts its keywords in the title (weighted) and the abstract
(each keyword's repeats capped, so one word said ten times cannot win alone).
Tags scoring at least ``THRESHOLD`` are kept, best first; a paper that matches
nothing gets the taxonomy's fallback tag and the caller warns about it.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import unicodedata
from dataclasses import dataclass, field, replace
from itertools import compress, count
from pathlib import Path
from typing import Any

import yaml

from generator.text.cjk import CJK_RANGES, has_cjk
from generator.errors import ContentError
from generator.text.i18n import same_language
from generator.text.yamlutil import load_mapping, read_utf8
from generator.text.lazyre import lazy

DEFAULT_TAXONOMY_PATH = Path(__file__).parent.parent / "default_taxonomy.yaml"
TAXONOMY_FILE = "taxonomy.yaml"

TITLE_WEIGHT = 3  # a keyword in the title says more about the paper than one in passing
REPEAT_CAP = 2  # repeats of one keyword in the abstract that still add to the score
THRESHOLD = 2  # a title hit, or two abstract hits (two keywords, or one keyword twice)
RELATIVE_FLOOR = 1 / 3  # of the best tag's score
MAX_TAGS = 6
# Bump when the matching changes: with the constants above it is part of the version, so pages
# tagged under older rules are re-tagged.
MATCHER_VERSION = 2  # 2: CJK keywords match inside CJK text; a CJK run is a word apart from Latin ones

# A word: letters and digits, where a run of CJK characters is a word apart from Latin ones
# ("基于LoRA微调": 基于, LoRA, 微调), so that English keywords match inside Chinese text.
_WORD = lazy(f"[{CJK_RANGES}]+|[^\\W_{CJK_RANGES}]+")
_WORD_OR_GAP = lazy(f"({_WORD.pattern})")
# An ASCII text lowered as a whole (lowering one changes no character's class): its words are [a-z0-9]+, a set the
# regex engine tests as a bitmap, not as Unicode categories (tests/test_topics_reference.py holds it to the above).
_ASCII_WORD_OR_GAP = re.compile("([a-z0-9]+)")
_GAP = re.compile(r"[\s\-–—()]+")  # "flow-matching", "SE(3)-equivariant"
_KNOWN_KEYS = ("fallback", "names", "tags")
_NULL = "tag:yaml.org,2002:null"


@dataclass(frozen=True)
class TagRule:
    """One tag and the keywords that earn it."""

    name: str
    keywords: tuple[str, ...]


@dataclass(frozen=True)
class _Keyword:
    tag: int  # index of its TagRule
    text: str  # the keyword as written, lower case: what repeats are counted by
    words: tuple[str, ...]  # all words but the last
    last: frozenset[str]  # the last word and its plurals


@dataclass(frozen=True)
class Taxonomy:
    tags: tuple[TagRule, ...]
    fallback: str
    version: str  # short sha256 of the canonical content; changes when the taxonomy changes
    name: str = "the built-in taxonomy"  # how warnings name it: the bundled one, or the content's file
    # Language tag → tag name → the name readers of that language see. Not in ``version``:
    # a translation changes no paper's tags.
    names: dict[str, dict[str, str]] = field(default_factory=dict, compare=False)
    # First word → keywords starting with it, longest first: one dict look-up per word of text.
    _index: dict[str, tuple[_Keyword, ...]] = field(init=False, repr=False, compare=False)
    # Keywords written in CJK (扩散模型, 拡散モデル), longest first: found as substrings, since the
    # text has no spaces to find words by.
    _cjk: tuple[tuple[int, str], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", _build_index(self.tags))
        cjk_keywords = {(tag, unicodedata.normalize("NFKC", k).lower()) for tag, rule in enumerate(self.tags)
                        for k in rule.keywords if has_cjk(k)}
        object.__setattr__(self, "_cjk", tuple(sorted(cjk_keywords, key=lambda pair: (-len(pair[1]), pair))))

    def names_for(self, language: str) -> dict[str, str]:
        """Tag name → its name in ``language`` (zh-CN, zh-Hans and zh alike), for the tags that have one:
        the built-in taxonomy's translations of the tags this one shares with it, then this file's own."""
        found: dict[str, str] = {}
        for taxonomy in (default_taxonomy(), self):
            for tag, names in taxonomy.names.items():
                if same_language(tag, language):
                    found.update(names)
        return found

    def tags_for(self, title: str, plain: str, narrower_than: frozenset[str] = frozenset()) -> tuple[str, ...]:
        """1–6 tag names, best score first, ties in taxonomy order; the fallback when none fits.

        The tags named in ``narrower_than`` (a volume's broad tags: volume_topics.py) give way to the others:
        they are ranked only when no other tag scores enough, and the others are weighed against the best
        of them alone."""
        return self.ranked(self.scores(title, plain), narrower_than)

    def scores(self, title: str, plain: str) -> list[int]:
        """Each tag's score, in taxonomy order."""
        scores = [TITLE_WEIGHT * len(hits) for hits in self._hits(title)]
        for tag, hits in enumerate(self._hits(plain)):
            if hits:  # (most tags have none)
                scores[tag] += sum(min(count, REPEAT_CAP) for count in hits.values())
        return scores

    def ranked(self, scores: list[int], narrower_than: frozenset[str] = frozenset()) -> tuple[str, ...]:
        """The tags ``scores`` earn (``tags_for``)."""
        if narrower_than:
            narrower = [0 if rule.name in narrower_than else score for rule, score in zip(self.tags, scores)]
            if max(narrower, default=0) >= THRESHOLD:
                scores = narrower
        # A tag far behind the best one is a side remark of the abstract, not its topic.
        floor = max(THRESHOLD, max(scores, default=0) * RELATIVE_FLOOR)
        ranked = sorted((-score, tag) for tag, score in enumerate(scores) if score >= floor)
        if not ranked:
            return (self.fallback,)
        return tuple(self.tags[tag].name for _, tag in ranked[:MAX_TAGS])

    def _hits(self, text: str) -> list[dict[str, int]]:
        """Per tag, how often each keyword occurs. The longest keyword wins its words:
        "classifier-free guidance" is not also a "classifier"."""
        hits: list[dict[str, int]] = [{} for _ in self.tags]
        if text.isascii():  # most texts: words found in the lowered text, lowered with it
            parts = _ASCII_WORD_OR_GAP.split(text.lower())
            words = parts[1::2]
        else:
            parts = _WORD_OR_GAP.split(text)  # gap, word, gap, word, …, gap: one pass in C
            words = list(map(str.lower, parts[1::2]))
        gaps = parts[2::2]  # gaps[i]: what separates word i from word i + 1
        free = 0  # first word not yet inside a match
        index = self._index
        # Only the words that start a keyword (a few in a hundred), found in C: the others start no match.
        for position in compress(count(), map(index.__contains__, words)):
            if position < free:
                continue
            for keyword in index[words[position]]:
                end = position + len(keyword.words) + 1
                if free > position and end < free:
                    break  # only keywords as long as the longest match share its words
                # A one-word keyword is listed under its own forms: the word that found it is one of them.
                if not keyword.words or _matches(keyword, words, gaps, position, end):
                    counts = hits[keyword.tag]
                    counts[keyword.text] = counts.get(keyword.text, 0) + 1
                    free = end
        if self._cjk and has_cjk(text):
            self._cjk_hits(unicodedata.normalize("NFKC", text).lower(), hits)
        return hits

    def _cjk_hits(self, text: str, hits: list[dict[str, int]]) -> None:
        """Count CJK keywords in ``text``, longest first; a character counts for one keyword only
        ("扩散模型" is not also "模型")."""
        taken = bytearray(len(text))
        for tag, keyword in self._cjk:
            start = text.find(keyword)
            while start >= 0:
                end = start + len(keyword)
                if not any(taken[start:end]):
                    taken[start:end] = b"\x01" * len(keyword)
                    hits[tag][keyword] = hits[tag].get(keyword, 0) + 1
                start = text.find(keyword, start + 1)


def _matches(keyword: _Keyword, words: list[str], gaps: list[str], start: int, end: int) -> bool:
    if end > len(words) or words[end - 1] not in keyword.last:
        return False
    if tuple(words[start + 1 : end - 1]) != keyword.words[1:]:
        return False
    # Words of a phrase are separated by spaces or hyphens only: "flow, matching" is not "flow matching".
    return all(_GAP.fullmatch(gaps[i]) for i in range(start, end - 1))


def _build_index(rules: tuple[TagRule, ...]) -> dict[str, tuple[_Keyword, ...]]:
    index: dict[str, list[_Keyword]] = {}
    for tag, rule in enumerate(rules):
        for text in rule.keywords:
            if has_cjk(text):
                continue  # matched by Taxonomy._cjk_hits
            words = tuple(w.lower() for w in _WORD.findall(text))
            keyword = _Keyword(tag, " ".join(words), words[:-1], _plurals(words[-1]))
            for first in keyword.last if len(words) == 1 else (words[0],):
                index.setdefault(first, []).append(keyword)
    return {first: tuple(sorted(found, key=lambda k: -len(k.words))) for first, found in index.items()}


def _plurals(word: str) -> frozenset[str]:
    forms = {word, word + "s", word + "es"}
    if len(word) > 2 and word.endswith("y") and word[-2] not in "aeiou":
        forms.add(word[:-1] + "ies")  # "theory" → "theories"
    return frozenset(forms)


def load_taxonomy(content_dir: Path) -> Taxonomy:
    """The content folder's taxonomy.yaml, else the bundled default; invalid files raise ContentError."""
    path = content_dir / TAXONOMY_FILE
    if not path.is_file():
        return parse_taxonomy(read_utf8(DEFAULT_TAXONOMY_PATH, DEFAULT_TAXONOMY_PATH, ContentError, "taxonomy"),
                              DEFAULT_TAXONOMY_PATH)
    return _as_the_contents(parse_taxonomy(read_utf8(path, path, ContentError, "taxonomy"), path))


@functools.lru_cache(maxsize=8)  # replace() builds the keyword index again: once per taxonomy, not per build
def _as_the_contents(taxonomy: Taxonomy) -> Taxonomy:
    return replace(taxonomy, name=TAXONOMY_FILE)


@functools.cache
def default_taxonomy() -> Taxonomy:
    return parse_taxonomy(DEFAULT_TAXONOMY_PATH.read_text(encoding="utf-8"), DEFAULT_TAXONOMY_PATH)


def parse_taxonomy(text: str, path: Path | str) -> Taxonomy:
    """The taxonomy ``text`` holds, parsed once per text: a series' volumes (or a test's copies of one folder)
    share it. ``path`` only names the file in an error, and an error is never kept."""
    found = _PARSED.get(text)
    if found is None:
        found = _PARSED[text] = _parse_taxonomy(text, path)
        while len(_PARSED) > 8:
            del _PARSED[next(iter(_PARSED))]
    return found


_PARSED: dict[str, Taxonomy] = {}


def _parse_taxonomy(text: str, path: Path | str) -> Taxonomy:
    data, lines = load_mapping(text, path, ContentError)
    for key in data:
        if key not in _KNOWN_KEYS:
            raise ContentError(f"unknown key `{key}` (expected `fallback` and `tags`)", path=path, line=lines.get(key))
    fallback = data.get("fallback", "Other topics")
    if not isinstance(fallback, str) or not fallback.strip():
        raise ContentError("`fallback` must be a tag name, e.g. `fallback: Other topics`", path=path,
                           line=lines.get("fallback"))
    rules = _parse_tags(text, path, data.get("tags"), lines.get("tags", 1))
    names = _parse_names(data.get("names"), {r.name for r in rules} | {fallback.strip()}, path, lines.get("names"))
    return Taxonomy(tags=rules, fallback=fallback.strip(), version=_version(rules, fallback.strip()), names=names)


def _parse_names(value: Any, tags: set[str], path: Path | str, line: int | None) -> dict[str, dict[str, str]]:
    """``names: {zh-CN: {Optimization: 优化, …}, ja: {…}}``: each tag's name per language."""
    if value is None:
        return {}
    example = "e.g. `names: {zh-CN: {Optimization: 优化}}`"
    if not isinstance(value, dict):
        raise ContentError(f"`names` must map a language to the tags' names in it, {example}", path=path, line=line)
    names: dict[str, dict[str, str]] = {}
    for language, given in value.items():
        if not isinstance(given, dict) or not all(isinstance(v, str) and v.strip() for v in given.values()):
            raise ContentError(f"`names: {language}` must map tag names to their names in {language}, {example}",
                               path=path, line=line)
        unknown = sorted(str(tag) for tag in given if str(tag) not in tags)
        if unknown:
            raise ContentError(f"`names: {language}` names tags the taxonomy does not have: {', '.join(unknown)}",
                               path=path, line=line)
        names[str(language)] = {str(tag): name.strip() for tag, name in given.items()}
    return names


def _parse_tags(text: str, path: Path | str, tags: Any, line: int) -> tuple[TagRule, ...]:
    if not isinstance(tags, dict) or not tags:
        raise ContentError("`tags` must map each tag name to a list of keywords, e.g. "
                           "`Optimization: [gradient descent, convex]`", path=path, line=line)
    seen: dict[str, int] = {}
    rules = []
    for key, value in _tag_nodes(text):
        name, name_line = _text(key).strip(), key.start_mark.line + 1
        if not name:
            raise ContentError("a tag name is empty or not text", path=path, line=name_line)
        if name.casefold() in seen:
            raise ContentError(f"tag `{name}` is listed twice (first on line {seen[name.casefold()]})",
                               path=path, line=name_line)
        seen[name.casefold()] = name_line
        rules.append(TagRule(name, _keywords(name, value, path, name_line)))
    return tuple(rules)


def _tag_nodes(text: str) -> list[tuple[yaml.Node, yaml.Node]]:
    """The entries under `tags` as YAML nodes: duplicates stay visible and each knows its line."""
    root: Any = yaml.compose(text, Loader=yaml.SafeLoader)  # a mapping: load_taxonomy read it
    nodes: list[tuple[yaml.Node, yaml.Node]] = next(value for key, value in root.value if key.value == "tags").value
    return nodes


def _text(node: yaml.Node) -> str:
    """A scalar as written (so `2010` or `yes` stay the text they look like); "" for null or a collection."""
    return node.value if isinstance(node, yaml.ScalarNode) and node.tag != _NULL else ""


def _keywords(name: str, node: yaml.Node, path: Path | str, line: int) -> tuple[str, ...]:
    if not isinstance(node, yaml.SequenceNode) or not node.value:
        raise ContentError(f"tag `{name}` needs a list of keywords, e.g. `{name}: [keyword, another keyword]`",
                           path=path, line=line)
    keywords = []
    for item in node.value:
        keyword = _text(item).strip()
        if not _WORD.search(keyword):
            raise ContentError(f"tag `{name}` has an empty keyword or one that is not a word or phrase",
                               path=path, line=item.start_mark.line + 1)
        keywords.append(keyword)
    return tuple(keywords)


def _version(rules: tuple[TagRule, ...], fallback: str) -> str:
    canonical = json.dumps(
        {
            "matcher": [MATCHER_VERSION, TITLE_WEIGHT, REPEAT_CAP, THRESHOLD, RELATIVE_FLOOR, MAX_TAGS],
            "fallback": fallback,
            "tags": [[r.name, list(r.keywords)] for r in rules],
        },
        ensure_ascii=False, separators=(",", ":"),
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:12]
