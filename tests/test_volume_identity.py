"""The volume's identity on its home page and in citations (issue 30): number, meeting, days and place, from a
.bib's @proceedings or the config, the long title shown once."""

from __future__ import annotations

import re
import shutil
from html import unescape
from pathlib import Path

import pytest

from contents_fixtures import colt2020_csv
from generator.commands.build import build
from generator.reporter import Reporter
from generator.errors import ConfigError
from generator.model.config import load_config

VENUES = Path(__file__).parent / "fixtures" / "venues"
BOOKTITLE = "Proceedings of Thirty Seventh Conference on Learning Theory"


def build_site(content: Path, out: Path) -> Path:
    reporter = Reporter()
    build(content, out, reporter)
    assert not reporter.errors, reporter.errors
    return out


def visible(html: str) -> str:
    """The page's text a reader sees: the body without tags."""
    body = html.split("<body", 1)[1]
    return unescape(re.sub(r"<[^>]+>", " ", body))


def identity(html: str) -> str:
    """The identity line, CLDR's thin spaces around a span's dash read as spaces."""
    line = unescape(re.search(r'<span class="volume-identity">(.*?)</span>', html).group(1))
    return line.replace("\u2009", " ").replace("\u202f", " ")


def test_a_pmlr_volume_names_its_number_meeting_days_and_place_with_the_booktitle_once(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    shutil.copy(VENUES / "pmlr-v247.bib", content)
    home = (build_site(content, tmp_path / "site") / "index.html").read_text(encoding="utf-8")
    assert identity(home) == "Volume 247: Conference on Learning Theory, Jun 30 – Jul 3, 2024, Edmonton, Canada"
    assert visible(home).count(BOOKTITLE) == 1  # the header and the footer say "COLT 2024"
    assert '<a class="site-title" href="index.html">COLT 2024</a>' in home
    assert f"<title>{BOOKTITLE}</title>" in home


def test_a_csv_volume_takes_its_identity_from_the_config_into_its_citations(tmp_path):
    """COLT 2020's papers.csv carries no volume facts: the config gives them, for every paper's citation."""
    content = tmp_path / "content"
    content.mkdir()
    (content / "papers.csv").write_text(colt2020_csv(), encoding="utf-8")
    (content / "proceedings.yaml").write_text(
        "title: Proceedings of Thirty Third Conference on Learning Theory\nshort_title: COLT 2020\nvolume: 125\n"
        "venue: The 33rd Annual Conference on Learning Theory\nplace: Graz, Austria\n"
        "start_date: 2020-07-09\nend_date: 2020-07-12\ndate: 2020-07-15\n", encoding="utf-8")
    site = build_site(content, tmp_path / "site")
    home = (site / "index.html").read_text(encoding="utf-8")
    assert identity(home) == ("Volume 125: The 33rd Annual Conference on Learning Theory, Jul 9 – 12, 2020, "
                              "Graz, Austria")
    assert '<a class="site-title" href="index.html">COLT 2020</a>' in home
    bib = (site / "proceedings.bib").read_text(encoding="utf-8")
    assert bib.count("volume = {125}") == bib.count("@inproceedings") == 117
    assert bib.count("address = {Graz, Austria}") == 117
    page = next((site / "papers").glob("*.html")).read_text(encoding="utf-8")
    assert '<meta name="citation_volume" content="125">' in page


def test_a_volume_without_facts_shows_no_identity_line(colt_site):
    home = (colt_site / "index.html").read_text(encoding="utf-8")
    assert "volume-identity" not in home


def test_one_day_meetings_and_japanese_days(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    (content / "papers.csv").write_text(colt2020_csv(), encoding="utf-8")
    (content / "proceedings.yaml").write_text("language: ja\nstart_date: 2024-03-11\nend_date: 2024-03-15\n"
                                              "place: 神戸\n", encoding="utf-8")
    home = (build_site(content, tmp_path / "site") / "index.html").read_text(encoding="utf-8")
    assert identity(home) == "2024年3月11日～15日, 神戸"


@pytest.mark.parametrize(("text", "problem"), [
    ("volume: true\n", "volume must be the volume's number"),
    ("start_date: 2024-07-03\nend_date: 2024-06-30\n", "proceedings.yaml:2: end_date 2024-06-30 is before"),
    ("place: ''\n", "place must be a non-empty string"),
])
def test_wrong_identity_keys_are_named_at_their_line(tmp_path, text, problem):
    (tmp_path / "proceedings.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=re.escape(problem)):
        load_config(tmp_path, lambda diagnostic: None)


def test_a_series_card_takes_the_volumes_own_number_and_place(tmp_path):
    """In an archive, a volume's config names its number and place: its card shows them (its papers give none)."""
    from series_fixtures import make_series

    content = make_series(tmp_path, only=("2019", "2020"))
    (content / "2019" / "proceedings.yaml").write_text(
        "title: Tiny Things Workshop 2019\nvolume: 12\nplace: Osaka, Japan\nstart_date: 2019-05-02\n", encoding="utf-8")
    site = build_site(content, tmp_path / "site")
    home = (site / "index.html").read_text(encoding="utf-8")
    card = re.search(r'<li class="volume" data-volume="2019">.*?</li>', home, re.S).group()
    assert '<span class="volume-number">Volume 12</span>' in card
    assert '<span class="volume-venue">Osaka, Japan</span>' in card
    volume_home = (site / "2019" / "index.html").read_text(encoding="utf-8")
    assert identity(volume_home) == "Volume 12: May 2, 2019, Osaka, Japan"
