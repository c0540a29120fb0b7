"""A paper's candidate key phrases: the noun-phrase-like stretches of its title and abstract that other
papers of its volume may share (own_topics.py picks the topics among them).

No tagger and no model: a phrase is what stands between the words that cannot be part of a topic's name,
as RAKE (Rose et al. 2010) finds keywords, and then its shorter pieces.

- **Latin script.** A clause (text between punctuation, CJK text or a free-standing dash) is cut at stop
  words: function words, the verbs and fillers of an abstract ("we propose", "novel", "significantly"),
  numbers. Each stretch left gives its n-grams of 1–3 words, a hyphenated compound ("low-resource",
  "data-to-text") being one word. A phrase's key is its words in lower case, the last one without a plural
  ("dialogue systems" and "dialogue system" are one phrase).
- **Chinese and Japanese** have no spaces, so a phrase is a stretch of a run of Han and Katakana characters
  (hiragana — particles, verb endings — ends a run, except a Han word's okurigana: 文法誤り訂正, 埋め込み;
  so does punctuation): 大規模言語モデル, 質問応答. Every stretch of 2–8 characters is a candidate (6 in a run
  longer than 16, a Chinese clause), a Katakana word never cut (ンプト is no phrase of プロンプト).

Generic phrases ("proposed method", "experimental results", 本研究, 提案手法, 实验结果) and CJK ones that
start or end on a function character (的, 基于…) are kept as candidates, so that their parts are seen to be
nested in them (案手法 in 提案手法), but ``can_name`` says they name no topic.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from generator.text.cjk import CJK_RANGES, has_cjk, language_of
from generator.text.lazyre import lazy

if TYPE_CHECKING:  # numpy is imported when phrases are found, not as a command starts
    import numpy as np
    import numpy.typing as npt

    from generator.derive import ngrams

    from generator.derive.phrase_table import PhraseTable

MAX_WORDS = 3  # words in a Latin-script phrase (a hyphenated compound is one)
MAX_CHARS = 8  # characters in a CJK phrase
LONG_RUN = 16  # characters: a longer CJK run (a Chinese clause) gives phrases of at most SHORT_CHARS
SHORT_CHARS = 6

_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3005\u3006"  # with 々 and 〆
_KATAKANA = "\u30a1-\u30fa\u30fc-\u30ff"  # with ー; not the middle dot ・, which separates words
# A run may hold the okurigana of a Han word (誤り訂正, 埋め込み): one such kana after a Han character, before
# another, a particle or the end of the words.
_OKURIGANA = "りみきけえめ"
_AFTER_OKURIGANA = f"[{_HAN}]|[^{_HAN}{_KATAKANA}\u3040-\u309f]|[をはがにのでとへもや]|$"
_TERM_RUN = lazy(
    f"[{_HAN}{_KATAKANA}](?:[{_HAN}{_KATAKANA}]|(?<=[{_HAN}])[{_OKURIGANA}](?={_AFTER_OKURIGANA}))+")
_IS_KATAKANA = lazy(f"[{_KATAKANA}]")
_KATAKANA_CHARS = frozenset(chr(c) for c in (*range(0x30A1, 0x30FB), *range(0x30FC, 0x3100)))
# A Latin-script word (letters and digits; a hyphenated compound is one word: "low-resource", "data-to-text").
# Words of one phrase have only spaces between them: punctuation, a free-standing dash and CJK text end a clause.
_LETTERS = f"[^\\W_{CJK_RANGES}]+"
_WORD = lazy(f"{_LETTERS}(?:[-‐‑]{_LETTERS})*")
_CLAUSE_BREAK = re.compile(r"[^\w\s-]+|_|\s-+|-+(?!\w)")
_CJK_RUNS = lazy(f"[{CJK_RANGES}]+")
_HYPHENS = str.maketrans({"‐": "-", "‑": "-"})
_NUMBER = re.compile(r"[\d\-]+")
# A text's words and clause breaks in one pass: a break gives an empty word. For a text without CJK, lowered as a
# whole: ``str.lower`` maps every other character to one of the same class (a word's, a space's, a hyphen), on
# its own, so the text's clauses lowered one by one give the same words (tests/test_phrases_reference.py checks
# every code point). Not İ (two characters lowered) or Σ (ς at a word's end: its clause's end is not the text's).
_WORD_OR_BREAK = lazy(f"({_WORD.pattern})|{_CLAUSE_BREAK.pattern}")
_LOWERED_IN_CONTEXT = re.compile("[İΣ]")
# The same for an ASCII text lowered: its classes spelled as ASCII sets (\w is [a-z0-9_] there, \s the six
# spaces and the four separators \x1c–\x1f, all of which ``str.isspace``), which the regex engine tests as a
# bitmap rather than as Unicode categories: a quarter faster. tests/test_phrases_reference.py holds it to the above.
_ASCII_SPACE = r" \t\n\r\f\v\x1c-\x1f"
_ASCII_WORD_OR_BREAK = lazy(
    rf"([a-z0-9]+(?:-[a-z0-9]+)*)|[^a-z0-9_{_ASCII_SPACE}-]+|_|[{_ASCII_SPACE}]-+|-+(?![a-z0-9_])")
# TeX and markup that is not the paper's words: math, commands, tags.
_MARKUP = re.compile(r"\$\$.*?\$\$|\$[^$]*\$|\\[a-zA-Z]+\*?|<[^>]{0,200}>|https?://\S+", re.S)

# Words that end a Latin-script phrase: function words, and the verbs, adverbs and vague adjectives an
# abstract is made of. Kept short on purpose: the volume's own counts drop most of what this misses.
STOP_WORDS = frozenset("""
ask asks asked asking
a an the and or nor but if then than as at by for from in into of on onto to with within without via over under
between among across through about against along around after before during while whereas whether upon per up down
out off both either neither each every all any some many much more most less least few fewer several such same other
another own only also too very so not no yes just even still yet already however moreover furthermore therefore thus
hence although though because since unless until indeed rather instead namely e.g i.e etc et al this that these
those there here it its it's they them their we our ours us you your he she his her what which who whom whose when
where why how towards toward beyond vs versus like unlike one two three four five six seven eight nine ten first
second third i ii iii iv is are was were be been being am has have had having do does did doing can could may might
must shall should will would wo propose proposes proposed proposing present presents presented presenting show shows
showed shown showing use uses used using utilize utilizes utilized utilizing leverage leverages leveraged leveraging
employ employs employed based achieve achieves achieved achieving improve improves improved improving demonstrate
demonstrates demonstrated demonstrating introduce introduces introduced introducing investigate investigates
investigated investigating explore explores explored exploring evaluate evaluates evaluated provide provides
provided providing require requires required allow allows allowed enable enables enabled make makes made making
consider considers considered perform performs performed find finds found compare compares compared obtain obtains
obtained apply applies applied address addresses addressed develop develops developed aim aims aimed focus focuses
focused describe describes described report reports reported reveal reveals revealed suggest suggests suggested
indicate indicates indicated outperform outperforms outperformed outperforming lead leads led help helps helped
conduct conducts conducted collect collects collected release releases released give gives given take takes taken
called known according including include includes included contain contains contained remain remains need needs
needed become becomes became observe observes observed analyze analyzes analyzed analyse analyses analysed study
studies studied examine examines examined design designs designed new novel various different existing previous
recent several multiple simple effective efficient significant significantly better best good high higher highest
low lower large larger largest small smaller well often widely highly mainly largely particularly especially
specifically respectively finally additionally recently previously currently typically usually generally
automatically effectively successfully substantially furthermore further able state-of-the-art possible important
key main certain particular specific whole paper work approach approaches
""".split())
# Nouns of any abstract: a phrase may hold them ("dialogue systems"), but one made only of them is no topic.
GENERIC = frozenset("""
method methods model models system systems task tasks result results performance data dataset datasets framework
frameworks problem problems study analysis experiment experiments experimental evaluation information process way
ways number set use state art baseline baselines quality approach technique techniques application applications
setting settings level levels type types time case cases step steps effect effects issue issues challenge challenges
research researchers author authors proposal benchmark benchmarks accuracy score scores metric metrics improvement
improvements contribution contributions ability abilities capability capabilities domain domains question questions
representation representations relation relations error errors role roles description descriptions example examples
feature features input inputs output outputs context contexts aspect aspects factor factors property properties
pattern patterns strategy strategies component components module modules mechanism mechanisms scenario scenarios
condition conditions content structure structures source sources target targets form forms need needs goal goals
purpose insight insights finding findings evidence impact importance difference differences range variety amount
size order part parts point points term terms word words sentence sentences text texts language languages user users
human humans people participant participants sample samples solution solutions tool tools resource resources value
values function functions field fields area areas idea ideas aim knowledge processing control estimation modeling
modelling understanding loss weight weights distribution inference search generation detection classification
identification training learning prediction predictions representation outcome outcomes
""".split())
_CJK_GENERIC = frozenset("""
組み合 取り組 取り入 組み込 見込 手がかり
本研究 本稿 本論文 本手法 提案 手法 提案手法 実験 結果 性能 評価 精度 分析 検証 既存 従来 課題
問題 必要 可能 効果 有効 有効性 可能性 向上 改善 比較 調査 場合 影響 考察 報告 構築 利用 使用
適用 検討 目的 一方 近年 我々 様々 多様 重要 示唆 確認 実現 達成 獲得 解決 存在 発展 傾向 特徴
観点 方法 研究 モデル データ タスク システム 情報 対象 設定 条件 入力 出力 学習 生成 高精度 大幅
実際 具体 一般 複数 全体 部分 以上 以下 程度 相関 関係 提示 提供 導入 実装 テキスト 論文 人間
考慮 内容 対応 一致 先行研究 過程 単位 言葉 指標 観察 着目 活用 要因 特定 付与 作成 収集 理解
解析 系列 オープン 粒度 側面 観測 手がかり 意図 工夫 挙動 振る舞い 事例 現象 原因 役割 情報源
前提 範囲 規模 段階 種類 要素 形式 傾向 性質 方向 能力 知見 主張 処理 意味 開発 構造 予測 推定
選択 理論 教師 抽出 言語 日本語 文章 単語 文書 表現 本文 提出 实验 结果 表明 模型 数据 任务
问题 显著 提高 提升 通过 基于 进行 采用 现有 传统 能够 可以 具有 实现 取得 一种 我们 相比 优于
评估 验证 框架 算法 技术 应用 领域 系统 信息 准确率 方面 过程 能力 目前 近年来 然而 同时 此外
因此 其中 以及 对于 由于 并且 研究 方法 分析
""".split())
# Where a Chinese clause is cut: particles and the function words and verbs of an abstract (本文提出了一种基于
# 大语言模型的对话生成方法 → 大语言模型, 对话生成方法). Not 对, 在 or 中 alone: 对话, 潜在, 中文.
_ZH_BREAK = lazy("本文|我们|提出|一种|基于|通过|进行|使用|利用|采用|以及|并且|针对|面向|用于|实现|表明"
                       "|显著|提高|提升|对于|关于|由于|因此|然而|同时|此外|其中|这些|这种|该|的|了|是|与|及|将"
                       "|被|从|把|和|或|并")
# Characters a CJK phrase does not start or end on: particles and function words written in Han.
# Japanese suffixes (有害性, 多言語化, 正解率) do not start one, nor prefixes (各, 非, 再, 超) end one.
_CJK_NOT_FIRST = frozenset("的了是和与及并等将被从由在该本其这此各且而或也都就所把向使让给"
                           "性化率度型用者済間内外後別毎込")
_CJK_NOT_LAST = frozenset("的了是和与及并将被从由在该其这此各且而或也都就所把向使让给对为于中非未無再超第同異他両当")


@dataclass(frozen=True)
class PaperPhrases:
    """A paper's candidate phrases by key, those of them its title holds, and those that end a stretch
    somewhere in it: a phrase always followed by more of its stretch is a modifier ("natural language" of
    "natural language generation", 大規模言語 of 大規模言語モデル), not a name."""

    keys: frozenset[str]
    in_title: frozenset[str]
    heads: frozenset[str]
    # CJK phrases that start a run somewhere in it: one that never does is likely cut out of words
    # (定手法 of 推定手法, 判定手法).
    starts: frozenset[str]
    # Those it uses more than once: a paper's subject comes back, a generic word ("変化", "related") seldom.
    repeated: frozenset[str] = frozenset()


def phrases_of(title: str, abstract: str) -> PaperPhrases:
    return phrases_of_many([(title, abstract)])[0]


def phrases_of_many(papers: Sequence[tuple[str, str]]) -> list[PaperPhrases]:
    return phrase_table(papers).rows()


def phrase_table(papers: Sequence[tuple[str, str]]) -> PhraseTable:
    """The phrases of each (title, abstract) as one table: their words cut here, the Latin-script n-grams of all of
    them counted at once over word ids (ngrams.py), the CJK ones a run at a time."""
    from generator.derive import ngrams  # numpy: imported when phrases are found, not as a command starts

    words: list[str] = []
    lengths: list[int] = []  # of each text's words: a paper's title, then its abstract
    cjk: dict[int, tuple[Counter[str], set[str], set[str]]] = {}  # a text's CJK phrases, by its number
    for title, abstract in papers:
        chinese = None  # the paper's language, not its title's alone; asked only of a paper with CJK text
        for text in (title, abstract):
            start = len(words)
            text, has = _words(text, words)
            lengths.append(len(words) - start)
            if has:
                if chinese is None:
                    chinese = language_of(f"{title}\n{abstract}") == "zh"
                cjk[len(lengths) - 1] = _cjk_candidates(text, chinese)
    grams = ngrams.count_grams(words, lengths, MAX_WORDS, _ends_phrase, singular, GENERIC.__contains__)
    keys, titles, heads, repeated = ngrams.by_paper(grams)
    return _table(grams.names.tolist(), [keys, titles, heads, keys[:0], repeated], len(papers), cjk, grams.shapes)


def _table(names: list[str], codes: list[npt.NDArray[np.int64]], papers: int,
           cjk: dict[int, tuple[Counter[str], set[str], set[str]]], shapes: ngrams.Shapes) -> PhraseTable:
    """The table of the Latin-script phrases' ``codes`` (of each kind: paper × len(names) + key, distinct, sorted)
    with the CJK phrases of the texts in ``cjk`` (text 2p: paper p's title, 2p + 1: its abstract). No key is both:
    their characters differ. The CJK keys' ``shapes`` are not known (their words are 0: their strings tell)."""
    from generator.derive.phrase_table import KINDS, PhraseTable, Rows, with_unknown

    import numpy as np

    size = len(names)
    more: dict[str, int] = {}  # the CJK keys, ids after the Latin-script ones
    added: list[tuple[list[int], list[int]]] = [([], []) for _ in KINDS]  # each kind's (paper, CJK key id)
    for number in sorted({text >> 1 for text in cjk}):
        for (owners, ids), keys in zip(added, _cjk_sets(cjk.get(2 * number), cjk.get(2 * number + 1))):
            owners += [number] * len(keys)
            ids += [more.setdefault(key, size + len(more)) for key in keys]
    whole = max(size + len(more), 1)
    kinds = []
    for latin, (owners, ids) in zip(codes, added):
        found = latin // size * whole + latin % size if size and whole != size else latin
        if owners:
            found = np.unique(np.concatenate([found, np.array(owners, dtype=np.int64) * whole + np.array(ids)]))
        kinds.append(Rows.of_codes(found, whole, papers))
    return PhraseTable(names + list(more), with_unknown(shapes, len(more)), *kinds)


def candidates(text: str, chinese: bool | None = None) -> tuple[Counter[str], set[str], set[str]]:
    """The keys of the candidate phrases of ``text`` with how often each occurs, those that end a stretch, and
    the CJK ones that start a run."""
    from generator.derive import ngrams

    words: list[str] = []
    text, has = _words(text, words)
    counts, heads = ngrams.by_text(ngrams.count_grams(words, [len(words)], MAX_WORDS, _ends_phrase, singular,
                                                            GENERIC.__contains__))
    found = Counter(counts)
    starts: set[str] = set()
    if has:
        more, cjk_heads, starts = _cjk_candidates(text, language_of(text) == "zh" if chinese is None else chinese)
        found.update(more)
        heads |= cjk_heads
    return found, heads, starts


def _words(text: str, words: list[str]) -> tuple[str, bool]:
    """Adds the Latin-script words of ``text`` to ``words`` in lower case, an empty one after each clause;
    gives the text normalised, and whether it holds CJK text."""
    if text.isascii():  # most texts: NFKC and the hyphens' translation leave them as they are (scans in C)
        if "$" in text or "\\" in text or "<" in text or "://" in text:  # what _MARKUP's matches hold
            text = _MARKUP.sub(" , ", text)
        cjk = False
    else:
        text = _MARKUP.sub(" , ", unicodedata.normalize("NFKC", text)).translate(_HYPHENS)
        cjk = has_cjk(text)
    if text.isascii():
        words += _ASCII_WORD_OR_BREAK.findall(text.lower())
        words.append("")
        return text, cjk
    if not cjk and not _LOWERED_IN_CONTEXT.search(text):
        words += _WORD_OR_BREAK.findall(text.lower())
        words.append("")
        return text, cjk
    for clause in _CLAUSE_BREAK.split(_CJK_RUNS.sub(" , ", text) if cjk else text):
        words += _WORD.findall(clause.lower())
        words.append("")
    return text, cjk


def _ends_phrase(word: str) -> bool:
    """A word no phrase holds: a stop word, a letter or a number."""
    return word in STOP_WORDS or len(word) < 2 or (not word.isalpha() and _NUMBER.fullmatch(word) is not None)


def _cjk_sets(title: tuple[Counter[str], set[str], set[str]] | None,
              abstract: tuple[Counter[str], set[str], set[str]] | None) -> tuple[set[str], ...]:
    """A paper's CJK phrases of each kind of ``PaperPhrases`` (keys, in_title, heads, starts, repeated)."""
    in_title, title_heads, title_starts = title or (Counter(), set(), set())
    found, heads, starts = abstract or (Counter(), set(), set())
    repeated = {key for key, n in found.items() if n > 1 or key in in_title}
    repeated.update(key for key, n in in_title.items() if n > 1)
    return set(in_title) | set(found), set(in_title), title_heads | heads, title_starts | starts, repeated


def _cjk_candidates(text: str, chinese: bool) -> tuple[Counter[str], set[str], set[str]]:
    """The CJK phrases of ``text`` (normalised) with how often each occurs, those that end a run, those that
    start one."""
    found: list[str] = []  # counted at the end, in C
    heads: set[str] = set()
    starts: set[str] = set()
    for run in _TERM_RUN.findall(text):
        # Chinese has no kana to end a run at its particles: a run is a clause, cut at its function words.
        for part in _ZH_BREAK.split(run) if chinese else (run,):
            if len(part) > 1:
                _add_cjk(part, found, heads, starts)
    return Counter(found), heads, starts


def key_of(words: list[str]) -> str:
    """A Latin-script phrase's key: its words in lower case, the last one singular."""
    lower = [word.lower().translate(_HYPHENS) for word in words]
    lower[-1] = singular(lower[-1])
    return " ".join(lower)


@functools.lru_cache(maxsize=65536)
def singular(word: str) -> str:
    if len(word) > 3 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "ics")):
        return word[:-1]
    return word


def _add_cjk(run: str, found: list[str], heads: set[str], starts: set[str]) -> None:
    """Every stretch of the run that may be a phrase: cut between two Han characters or where the script
    changes, never inside a Katakana word."""
    katakana = [char in _KATAKANA_CHARS for char in run]
    cuts = [0] + [i for i in range(1, len(run)) if not (katakana[i - 1] and katakana[i]) and run[i] not in _OKURIGANA]
    cuts.append(len(run))
    longest = MAX_CHARS if len(run) <= LONG_RUN else SHORT_CHARS
    last = len(run)
    for i, start in enumerate(cuts):
        for end in cuts[i + 1:]:
            if end - start > longest:
                break
            if end - start >= 2:
                piece = run[start:end]
                found.append(piece)
                if end == last:
                    heads.add(piece)
                if start == 0:
                    starts.add(piece)


def can_name(key: str) -> bool:
    """Whether a candidate may name a topic: not an abstract's generic words alone ("proposed method",
    "experimental results", 提案手法, 实验结果). Generic candidates are still counted: a part of one
    (案手法 of 提案手法) is nested in it. Nor one that starts or ends on a function character (的, 基于…)."""
    if not _TERM_RUN.fullmatch(key):
        return not all(word in GENERIC for word in key.split(" "))
    if key[0] in _CJK_NOT_FIRST or key[-1] in _CJK_NOT_LAST:
        return False
    return key not in _CJK_GENERIC and not _generic_cover(key)


def is_short(key: str) -> bool:
    """A one-word phrase: a Latin-script word, a Katakana word, or two Han characters."""
    if not _TERM_RUN.fullmatch(key):
        return " " not in key
    return len(key) <= 2 or all(_IS_KATAKANA.match(char) for char in key)


def _generic_cover(piece: str) -> bool:
    """Whether ``piece`` is generic words end to end (提案手法 = 提案 + 手法, 実験結果)."""
    reach = [False] * (len(piece) + 1)
    reach[0] = True
    for start in range(len(piece)):
        if reach[start]:
            for end in range(start + 2, min(len(piece), start + 5) + 1):
                if piece[start:end] in _CJK_GENERIC:
                    reach[end] = True
    return reach[-1]
