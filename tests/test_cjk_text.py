"""generator/text/cjk.py's counting and cutting, checked against the plain per-character definitions
they replace (one regex scan instead of a Python call per character: the templates call them
for every title and abstract of every list)."""

from __future__ import annotations

import random
import unicodedata

import pytest

from generator.text import cjk
from generator.derive.titles_cjk import is_cjk_abstract

PIECES = ["abc DEF xyz ", "。，、；：！？ ", "扩散模型基于", "ひらがなカタカナ・ー々", "한국어텍스트", "ｶﾀｶﾅ",
          "αβγ∑∫ é ü",
          "\u1100\u3131\ua960\u3005\u309d\u30fc\u31f0", "𠀀𪚥", "\t\n-–—", "1234567890"]


def texts(count: int = 3_000) -> list[str]:
    rng = random.Random(20)
    found = ["", "LoRA微调的扩散模型", "A study of 扩散模型 in English text", "한국어 논문 초록입니다"]
    for _ in range(count):
        pools = rng.sample(PIECES, rng.randint(1, 4))
        found.append("".join(rng.choice(rng.choice(pools)) for _ in range(rng.randint(0, 60))))
    return found


def language_by_character(text: str) -> str:
    counts = {"han": 0, "kana": 0, "hangul": 0, "latin": 0}
    for char in text:
        if not cjk.is_cjk(char):
            counts["latin"] += char.isascii() and char.isalpha()
        elif "\u3041" <= char <= "\u30ff" or "\u31f0" <= char <= "\u31ff":
            counts["kana"] += 1
        elif "\uac00" <= char <= "\ud7ff" or "\u1100" <= char <= "\u11ff" or "\u3130" <= char <= "\u318f":
            counts["hangul"] += 1
        else:
            counts["han"] += 1
    written = counts["han"] + counts["kana"] + counts["hangul"]
    if written < 2 or written * 2 < counts["latin"]:
        return ""
    if counts["hangul"] * 2 >= written:
        return "ko"
    return "ja" if counts["kana"] * 20 >= written else "zh"


def width_by_character(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def fitting_by_character(text: str, columns: int) -> str:
    head, used = [], 0
    for char in text:
        used += width_by_character(char)
        if used > columns:
            break
        head.append(char)
    return "".join(head)


def test_language_and_width_are_the_per_character_definitions():
    for text in texts():
        assert cjk.language_of(text) == language_by_character(text), text
        assert cjk.width(text) == width_by_character(text), text
        han = sum(1 for c in text if cjk.is_cjk(c))
        latin = sum(1 for c in text if c.isascii() and c.isalpha())
        assert is_cjk_abstract(text) == (han >= 2 and han * 2 >= latin), text


@pytest.mark.parametrize("columns", [-1, 0, 1, 2, 5, 17, 40])
def test_cut_keeps_the_widest_start_that_fits(columns):
    for text in texts(800):
        assert cjk._fitting(text, columns) == fitting_by_character(text, columns), text
        if cjk.width(text) > columns:
            assert cjk.width(cjk.cut(text, columns)) <= max(columns, 0)
        else:
            assert cjk.cut(text, columns) == text


@pytest.mark.parametrize("columns", [0, 1, 5, 17, 40, 220])
def test_excerpt_reads_only_the_start_it_can_show(columns):
    """``excerpt`` collapses and measures only a start of the text (issue 43): the same preview as the whole
    text collapsed and cut, runs of white space of any length included."""
    rng = random.Random(columns)
    for text in texts(800):
        text = "".join(piece + " " * rng.choice([0, 1, 3, 400]) for piece in text.split(" "))
        whole = " ".join(text.split())
        short = cjk.cut(whole, columns)
        expected = whole if short == whole else short.rstrip(",;:.-–— ，。；：、") + "…"
        assert cjk.excerpt(text, columns) == expected, (text, columns)
