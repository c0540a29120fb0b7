"""Slugs of Chinese, Japanese and Korean titles keep their characters; English slugs do not change."""

from __future__ import annotations

import re
import unicodedata

import pytest

import corpora
from generator.text import cjk
from generator.commands.cli import main
from generator.content.pages import SLUG
from generator.errors import OutputError
from generator.runtime.output import Staging
from generator.text.slugs import MAX_LENGTH, slug_or_digest, slugify


# Latin letters Unicode does not decompose: folded since issue 15 ("Łojasiewicz" was "ojasiewicz").
LATIN_FOLDS = str.maketrans({"Ł": "L", "ł": "l", "Ø": "O", "ø": "o", "Æ": "AE", "æ": "ae", "Œ": "OE",
                             "œ": "oe", "ß": "ss", "Đ": "D", "đ": "d", "Þ": "Th", "þ": "th", "ı": "i"})


def ascii_slugify(text: str, max_length: int = MAX_LENGTH) -> str:
    """The slug rule before CJK slugs (with issue 15's Latin folds), kept here to prove that English
    slugs did not change."""
    ascii_text = unicodedata.normalize("NFKD", text.translate(LATIN_FOLDS)).encode("ascii", "ignore").decode("ascii")
    words = re.findall(r"[a-z0-9]+", ascii_text.lower())
    slug = ""
    for word in words:
        candidate = f"{slug}-{word}" if slug else word
        if len(candidate) > max_length:
            break
        slug = candidate
    return slug or (words[0][:max_length] if words else "paper")


def corpus_titles() -> list[str]:
    titles = ["Sparse Attention, Revisited", "Über Müller's Straße: naïve café", "ＦＵＬＬ－ｗｉｄｔｈ title",
              "A" * 80, "Ünïcödé case: ΣΟΦΟΣ, İstanbul", "التعلم العميق"]
    return titles + [record.get("title") or "" for record in corpora.records()]


def test_titles_without_cjk_keep_their_slugs():
    differ = [(t, slugify(t), ascii_slugify(t)) for t in corpus_titles()
              if not cjk.has_cjk(unicodedata.normalize("NFKC", t)) and slugify(t) != ascii_slugify(t)]
    assert not differ, differ[:5]


@pytest.mark.parametrize("title, slug", [
    ("基于扩散模型的图像超分辨率重建", "基于扩散模型的图像超分辨率重建"),
    ("LoRAによる大規模モデルの効率的な微調整", "lora-による大規模モデルの効率的な微調整"),
    ("面向中文的大语言模型指令微调：方法、数据与评测", "面向中文的大语言模型指令微调-方法-数据与评测"),
    ("ｶﾀｶﾅのテスト", "カタカナのテスト"),  # half-width folded
    ("【特別講演】AIと社会", "特別講演-ai-と社会"),
    ("딥러닝 기반 이미지 생성", "딥러닝-기반-이미지-생성"),
    ("GPT-4o与人类评估者的一致性研究", "gpt-4o-与人类评估者的一致性研究"),
])
def test_cjk_titles_keep_their_characters(title, slug):
    assert slugify(title) == slug
    assert SLUG.match(slug), "the page parser must accept what the slug maker makes"


def test_a_long_cjk_title_is_cut_before_a_conjunction_or_after_a_particle():
    slug = slugify("大规模预训练语言模型在低资源少样本场景下的知识迁移与持续学习方法的系统性研究与展望")
    assert slug == "大规模预训练语言模型在低资源少样本场景下的知识迁移"
    assert cjk.width(slug) <= MAX_LENGTH


def test_names_without_letters_still_get_a_digest():
    assert slug_or_digest("张伟", "author") == "张伟"
    assert slug_or_digest("山田 太郎", "author") == "山田-太郎"
    assert re.fullmatch(r"author-[0-9a-f]{8}", slug_or_digest("محمد", "author"))


@pytest.mark.parametrize("slug", ["扩散模型", "lora-微调", "カタカナ", "a-b"])
def test_page_slugs_may_hold_cjk(slug):
    assert SLUG.match(slug)


@pytest.mark.parametrize("slug", ["扩散 模型", "扩散/模型", "-扩散", "扩散--模型", "「扩散」", "Upper"])
def test_page_slugs_still_refuse_what_is_not_a_slug(slug):
    assert not SLUG.match(slug)


# -- one file on every system -----------------------------------------------------------------------------

HANGUL = "한국어-논문"  # precomposed syllables (NFC); NFD spells each as its jamo


def _page(content, name, slug, old_slugs=()):
    olds = f"old_slugs: [{', '.join(old_slugs)}]\n" if old_slugs else ""
    page = f"---\nid: {name}\ntitle: Paper {name}\nslug: {slug}\n{olds}---\n\nBody of {name}.\n"
    (content / "papers" / f"{name}.md").write_text(page, encoding="utf-8")


def _content(tmp_path):
    content = tmp_path / "content"
    (content / "papers").mkdir(parents=True)
    (content / "proceedings.yaml").write_text("title: T\ndate: 2026-01-01\n", encoding="utf-8")
    return content


def test_slugs_in_two_normal_forms_are_one_slug(tmp_path, capsys):
    """Decomposed and precomposed Hangul are one file name on macOS: the second page is refused as a
    repeat of the first, and a page's old slug in the other form is no redirect to itself."""
    content = _content(tmp_path)
    _page(content, "a", unicodedata.normalize("NFD", HANGUL), old_slugs=[HANGUL])
    _page(content, "b", HANGUL)
    assert main(["build", "--content", str(content), "--out", str(tmp_path / "site")]) == 1
    assert f"slug '{HANGUL}' is already the slug of a.md" in capsys.readouterr().err
    names = sorted(path.name for path in (tmp_path / "site" / "papers").iterdir())
    assert names == [f"{HANGUL}.html"]  # one page, in NFC, and no redirect over it


def test_a_site_whose_files_would_be_one_on_a_mac_is_refused(tmp_path):
    """The last guard, whatever made the names (a linked file copied in, a theme's file): the previous
    site stays as it was."""
    out = tmp_path / "site"
    staging = Staging(out)
    staging.open()
    for name in ("Café.pdf", unicodedata.normalize("NFD", "Café.pdf")):
        staging.write(name, b"x")
    with pytest.raises(OutputError, match="are one file on macOS and Windows"):
        staging.publish()
    assert not out.exists()
