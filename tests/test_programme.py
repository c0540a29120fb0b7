"""The programme in the venue's own words (issue 38, part 3): each venue fixture of tests/fixtures/venues/ built
end to end from the command line, and its pages read as a reader sees them — sessions and days named as the
venue names them, a paper in two sessions listed once, awards as badges and an awards page, the day, time and
room, a thumbnail as an image, a talk's id made a link by a `links:` pattern, session names never topics."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from conftest import cli
from contents_fixtures import COLT_PAPERS
from generator.derive.groups import readable_sessions
from generator.sources.awards import award_value
from generator.sources.subjects import looks_like_session

VENUES = Path(__file__).parent / "fixtures" / "venues"
# A 1×1 PNG, as a venue's thumbnail copied into the content folder.
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6364f8cf50000002870180eb47ba920000000049454e44ae426082")


def built(root: Path, source: Path | str, name: str = "", config: str = "", files: dict[str, bytes] | None = None):
    content, site = root / "content", root / "site"
    content.mkdir()
    target = content / (name or Path(source).name)
    if isinstance(source, Path):
        shutil.copy(source, target)
    else:
        target.write_text(source, encoding="utf-8")
    if config:
        (content / "proceedings.yaml").write_text(config, encoding="utf-8")
    for path, data in (files or {}).items():
        (content / path).parent.mkdir(parents=True, exist_ok=True)
        (content / path).write_bytes(data)
    result = cli("build", "--content", str(content), "--out", str(site))
    assert result.returncode == 0, result.stderr
    return site, result


def page(site: Path, path: str) -> str:
    return (site / path).read_text(encoding="utf-8")


def paper_page(site: Path, title_start: str) -> str:
    for path in sorted((site / "papers").glob("*.html")):
        text = path.read_text(encoding="utf-8")
        if re.search(r'<h1 class="page-title"[^>]*>' + re.escape(title_start), text):
            return text
    raise AssertionError(f"no paper page titled {title_start!r}")


def headings(html: str) -> list[str]:
    return re.findall(r'<h2 class="group-title" id="[^"]+">([^<]+)</h2>', html)


def listed(html: str) -> list[str]:
    return re.findall(r'class="paper-item-title"[^>]*><a href="papers/([^"]+)\.html"', html)


def facts(html: str) -> str:
    found = re.search(r'<p class="paper-facts">(.*?)</p>', html, re.S)
    return re.sub(r"<[^>]+>", "|", found.group(1)) if found else ""


# -- ISMIR 2024: bare session and day numbers, AwardNominee, thumbnails ------------------------------------------


@pytest.fixture(scope="module")
def ismir(tmp_path_factory):
    return built(tmp_path_factory.mktemp("ismir"), VENUES / "ismir-2024-programme.csv",
                 files={"static/thumbnails/000012.png": PNG})[0]


def test_ismirs_bare_session_numbers_are_sessions_with_their_day(ismir):
    home = page(ismir, "index.html")
    assert headings(home) == ["Session 1", "Session 2", "Session 3"]
    assert '<a href="index.html#group-1">Session 1</a>' in home  # the contents index names them too
    whens = re.findall(r'<p class="group-when">(.*?)</p>', home)
    assert [re.sub(r"<[^>]+>", "", when) for when in whens] == ["Day 1", "Day 1", "Day 2"]


def test_an_award_nominee_flag_is_a_badge_in_the_list_and_on_the_page(ismir):
    home = page(ismir, "index.html")
    badges = re.findall(r'paper-item-title.*?<a href="papers/([^"]+)\.html">.*?</a> <span class="badge-award">([^<]+)',
                        home)
    assert badges == [("hubness-reduction-improves-sentence-bert-semantic-spaces", "Award nominee"),
                      ("lyrics-interpretation-with-audio-informed-language-models", "Award nominee")]  # Yes, True
    hubness = paper_page(ismir, "Hubness Reduction")
    assert '<span class="award">Award nominee</span>' in hubness
    assert facts(hubness).strip("|").split("||") == ["Award nominee", "Session 1", "Day 1"]
    assert "badge-award" not in paper_page(ismir, "A Dataset of Guitar")  # No


def test_the_awards_page_lists_the_nominees_and_the_home_page_leads_to_it(ismir):
    assert 'href="awards.html">Awards: 2 papers</a>' in page(ismir, "index.html")
    awards = page(ismir, "awards.html")
    assert headings(awards) == ["Award nominee"]
    assert listed(awards.replace('href="../', 'href="')) == [
        "hubness-reduction-improves-sentence-bert-semantic-spaces",
        "lyrics-interpretation-with-audio-informed-language-models"]


def test_a_thumbnail_of_the_site_is_an_image_and_a_remote_one_a_link(ismir):
    hubness = paper_page(ismir, "Hubness Reduction")
    image = re.search(r"<img [^>]*>", hubness).group()
    assert 'src="../static/thumbnails/000012.png"' in image and 'loading="lazy"' in image
    assert 'alt="Hubness Reduction Improves Sentence-BERT Semantic Spaces (thumbnail)"' in image
    assert (ismir / "static" / "thumbnails" / "000012.png").read_bytes() == PNG  # copied into the site
    assert ">Thumbnail</a>" not in hubness
    beat = paper_page(ismir, "Beat Tracking")  # another site's image: a request outside the site, so a link
    assert "<img" not in beat
    assert '<a href="https://ismir2024program.ismir.net/static/thumbnails/000061.png">Thumbnail</a>' in beat


def test_no_page_loads_anything_from_another_site(ismir):
    for path in ismir.rglob("*.html"):
        html = path.read_text(encoding="utf-8")
        assert not re.search(r'<(?:img|script|link)[^>]+(?:src|href)="https?://', html), path


# -- COLT 2020: two sessions a paper, SlidesLive ids ---------------------------------------------------------------

COLT_LINKS = 'links:\n  slideslive_1: {pattern: "https://slideslive.com/{value}", label: Talk}\n' \
             '  slideslive_2: "https://slideslive.com/{value}"\n'


@pytest.fixture(scope="module")
def colt(tmp_path_factory):
    return built(tmp_path_factory.mktemp("colt"), VENUES / "colt-2020-papers.csv", config=COLT_LINKS)[0]


def test_a_paper_in_two_sessions_is_listed_once_under_its_first_with_both_linked(colt):
    home = page(colt, "index.html")
    assert len(listed(home)) == len(set(listed(home))) == 6
    assert "6 papers" in home
    assert headings(home) == ["Session 1A", "Session 1B", "Session 1E", "Session 1F", "Session 2A", "Session 2B",
                              "Session 2E", "Session 2F"]
    item = next(item for item in home.split('<li class="paper-item"') if "sharper-bounds" in item.split("</li>")[0])
    assert re.findall(r'<a class="session" href="([^"]+)">([^<]+)</a>', item) == [
        ("index.html#group-session-1a", "Session 1A"), ("index.html#group-session-1e", "Session 1E")]
    # Session 1E holds only papers listed under 1A: it names them, each linked to its page.
    later = home[home.index('id="group-session-1e"'):home.index('id="group-session-1f"')]
    assert "paper-item" not in later and 'class="also-listed"' in later
    assert 'href="papers/sharper-bounds-for-uniformly-stable-algorithms.html"' in later


def test_the_paper_page_links_each_of_its_sessions_to_its_place(colt):
    sharper = paper_page(colt, "Sharper Bounds")
    assert re.findall(r'<a class="session" href="([^"]+)">', sharper) == [
        "../index.html#group-session-1a", "../index.html#group-session-1e"]


def test_slideslive_ids_become_links_through_a_pattern_with_a_label(colt):
    sharper = paper_page(colt, "Sharper Bounds")
    assert '<a href="https://slideslive.com/38931117">Talk</a>' in sharper
    assert '<a href="https://slideslive.com/38930997">Slideslive 2</a>' in sharper  # labelled by its column
    tsallis = paper_page(colt, "Tsallis-INF")  # slideslive_2 is N/A: no second link
    assert tsallis.count("slideslive.com") == 1
    record = next(p for p in json.loads(page(colt, "papers.json")) if p["title"].startswith("Sharper"))
    assert record["more_links"] == [{"label": "Talk", "link": "https://slideslive.com/38931117"},
                                    {"label": "Slideslive 2", "link": "https://slideslive.com/38930997"}]
    assert "zoom.us" not in "".join(page(colt, str(p.relative_to(colt))) for p in colt.rglob("*.html"))


def test_without_a_pattern_the_ids_are_named_in_the_ignored_columns(tmp_path):
    _, result = built(tmp_path, VENUES / "colt-2020-papers.csv")
    assert "ignored column(s) slideslive_1, slideslive_2, zoom_1" in result.stderr


def test_a_column_pattern_without_value_is_an_error_naming_its_line(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    shutil.copy(VENUES / "colt-2020-papers.csv", content)
    (content / "proceedings.yaml").write_text('links:\n  slideslive_1: "https://slideslive.com/{key}"\n',
                                              encoding="utf-8")
    result = cli("build", "--content", str(content), "--out", str(tmp_path / "site"))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "proceedings.yaml:2: links: 'slideslive_1' is not a kind of link" in result.stderr
    assert "uses {value}" in result.stderr


def test_colt_2020_shaped_programme_lists_every_paper_once(colt_site):
    home = page(colt_site, "index.html")
    assert len(listed(home)) == len(set(listed(home))) == COLT_PAPERS
    assert f"{COLT_PAPERS} papers" in home


# -- SIGDIAL/INLG 2023: notes, conference as track, session ids ---------------------------------------------------


@pytest.fixture(scope="module")
def sigdial(tmp_path_factory):
    return built(tmp_path_factory.mktemp("sigdial"), VENUES / "sigdial-2023-programme.csv")[0]


def test_notes_that_name_a_nomination_are_badges_and_others_are_not_published(sigdial):
    home = page(sigdial, "index.html")
    assert home.count('<span class="badge-award">Best Paper Nominee</span>') == 2
    assert "REMOTE" not in "".join(p.read_text(encoding="utf-8") for p in sigdial.rglob("*.html"))
    assert "REMOTE" not in page(sigdial, "papers.json")
    assert headings(page(sigdial, "awards.html")) == ["Best Paper Nominee"]


def test_the_conference_column_is_a_track_the_home_page_filters_by(sigdial):
    home = page(sigdial, "index.html")
    assert '<script src="assets/track-filter.js" defer></script>' in home
    options = re.findall(r'<option value="([^"]*)">', home)
    assert options == ["", "sigdial", "inlg"]
    assert len(re.findall(r'<li class="paper-item" data-track="inlg"', home)) == 4
    assert (sigdial / "assets" / "track-filter.js").exists()
    assert '<span class="track">inlg</span>' in paper_page(sigdial, "Guided Beam Search")


def test_session_ids_built_from_programme_words_are_shown_as_those_words(sigdial):
    """SIGDIAL/INLG's file gives its sessions only as ids: each heading, and each session on a paper's page, is
    the id's words apart ("Sigdial Oral Session 1"), never the id; the anchors keep the id."""
    home = page(sigdial, "index.html")
    assert headings(home) == ["Genchal Poster Session + Demos", "Inlg Oral Session 2", "Sigdial Oral Session 1",
                              "Sigdial Poster Session 1"]
    assert 'id="group-genchalpostersession-demos"' in home
    assert ">genchalpostersession+demos<" not in home
    assert re.findall(r'class="session"[^>]*>([^<]+)<', paper_page(sigdial, "VisuaLLM")) == [
        "Genchal Poster Session + Demos"]


@pytest.mark.parametrize("names, readable", [
    (["sigdialoralsession1", "inlgoralsession2", "inlggenchalpresentation", "genchalpostersession+demos"],
     {"sigdialoralsession1": "Sigdial Oral Session 1", "inlgoralsession2": "Inlg Oral Session 2",
      "inlggenchalpresentation": "Inlg Genchal Presentation",
      "genchalpostersession+demos": "Genchal Poster Session + Demos"}),
    (["virtualpostersession", "postersession12b", "longitudinal"],  # "long" is not most of `longitudinal`
     {"virtualpostersession": "Virtual Poster Session", "postersession12b": "Poster Session 12B"}),
    (["Session 1A", "Session 1B", "keynote-one"], {}),  # a programme of names: its odd id is left as written
    (["1", "2", "3"], {}),
])
def test_which_session_ids_are_read_as_words(names, readable):
    assert readable_sessions(names) == readable


def test_a_session_title_column_names_the_session_instead_of_its_id(tmp_path):
    """SIGDIAL's ids (`genchalpostersession+demos`) with the titles its programme gives them, in a column of
    the same file: the title is the heading, on the paper's page too."""
    titles = {"sigdialoralsession1": "Sigdial Oral Session 1: Analysis of discourse and dialogue",
              "sigdialpostersession1": "Sigdial Poster Session 1",
              "inlgoralsession2": "INLG Oral Session 2: NLG for low-resourced settings",
              "genchalpostersession+demos": "GenChal Poster Session + demos"}
    lines = (VENUES / "sigdial-2023-programme.csv").read_text(encoding="utf-8").splitlines()
    rows = [lines[0] + ",session_title"]
    rows += [line + "," + next(title for key, title in titles.items() if f",{key}," in line) for line in lines[1:]]
    site, _ = built(tmp_path, "\n".join(rows) + "\n", name="papers.csv")
    home = page(site, "index.html")
    assert not [h for h in headings(home) if h in titles]
    assert "GenChal Poster Session + demos" in headings(home)
    assert "genchalpostersession" not in home
    assert re.findall(r'class="session"[^>]*>([^<]+)<', paper_page(site, "VisuaLLM")) == [
        "GenChal Poster Session + demos"]


# -- ICWSM 2021: date, time, room; session names in the topic column ----------------------------------------------


@pytest.fixture(scope="module")
def icwsm(tmp_path_factory):
    return built(tmp_path_factory.mktemp("icwsm"), VENUES / "icwsm-2021-programme.csv")


def test_a_sessions_shared_date_time_and_room_are_under_its_heading(icwsm):
    home = page(icwsm[0], "index.html")
    whens = [re.sub(r"<[^>]+>", "|", when).strip("|").split("||")
             for when in re.findall(r'<p class="group-when">(.*?)</p>', home)]
    # Session 3B's papers are in two rooms: its heading gives only what they share; and its place in the
    # programme, which the rows' times make (issue 41).
    assert whens == [["2021-06-08", "10:00-11:30 EDT", "Room 1", "In the programme"],
                     ["2021-06-09", "13:00-14:30 EDT", "In the programme"]]
    assert 'class="in-programme" href="programme.html#session-2a-misinformation"' in home
    civility = paper_page(icwsm[0], "Measuring Civility")
    assert facts(civility).strip("|").split("||") == ["Session 3B: Datasets", "2021-06-09", "13:00-14:30 EDT",
                                                      "Room 3"]


def test_session_names_in_the_topic_column_are_not_topics(icwsm):
    site, result = icwsm
    topics = set(re.findall(r'<a href="([^"]+)\.html">', page(site, "tags/index.html")))
    names = page(site, "tags/index.html")
    assert "Poster/Demo" not in names and "Session 3B" not in names
    assert "COVID-19" in names  # a subject with a number is still one
    assert "the `topic` column holds session names (such as 'Poster/Demo 3'), not subjects" in result.stderr
    assert topics


@pytest.mark.parametrize("name, label", [
    ("Poster/Demo 3", True), ("Session 2A", True), ("Oral 5", True), ("Poster Session 1", True),
    ("COVID-19", False), ("Web 2.0", False), ("Misinformation, Rumors, and Fact-Checking", False),
    ("Music transcription and annotation", False), ("Keynote", False),
])
def test_what_reads_as_a_session_label(name, label):
    assert looks_like_session(name) is label


@pytest.mark.parametrize("column, value, award", [
    ("AwardNominee", "Yes", "Award nominee"), ("AwardNominee", "No", ""), ("AwardNominee", "True", "Award nominee"),
    ("AwardNominee", "1", "Award nominee"), ("AwardNominee", True, "Award nominee"),
    ("best_paper", "yes", "Best paper"),
    ("notes", "Best Paper Nominee", "Best Paper Nominee"), ("notes", "REMOTE", ""),
    ("notes", "Honorable Mention", "Honorable Mention"), ("notes", "Camera-ready late", ""),
    ("award", "Best Student Paper", "Best Student Paper"), ("award", "no", ""), ("award", "yes", "Award"),
])
def test_how_a_column_gives_an_award(column, value, award):
    assert award_value(column, value) == award


def test_a_volume_without_a_programme_is_unchanged(tmp_path):
    """A plain list has no sessions, tracks or awards: no group headings, no filter, no awards page."""
    site, _ = built(tmp_path, "Tiny Workshop\n\nWe study one thing.\n\nWe study another thing.\n", name="list.txt")
    home = page(site, "index.html")
    assert not headings(home) and "track-filter" not in home and "awards.html" not in home
    assert not (site / "awards.html").exists()


def test_a_bare_session_number_is_named_in_the_sites_language(tmp_path):
    site, _ = built(tmp_path, VENUES / "ismir-2024-programme.csv", config="language: ja\n")
    home = page(site, "index.html")
    assert headings(home) == ["セッション 1", "セッション 2", "セッション 3"]
    assert "1 日目" in home and 'href="awards.html">受賞・ノミネート：2 件</a>' in home


def test_a_pattern_added_later_gives_the_imported_pages_their_links(tmp_path):
    """The links are made as the source is read: adding the pattern to a built volume updates its pages."""
    site, _ = built(tmp_path, VENUES / "colt-2020-papers.csv")
    assert "slideslive.com" not in paper_page(site, "Sharper Bounds")
    (tmp_path / "content" / "proceedings.yaml").write_text(COLT_LINKS, encoding="utf-8")
    result = cli("build", "--content", str(tmp_path / "content"), "--out", str(site))
    assert result.returncode == 0 and "pages: update 6" in result.stdout + result.stderr
    assert '<a href="https://slideslive.com/38931117">Talk</a>' in paper_page(site, "Sharper Bounds")


def test_a_json_lines_key_makes_a_link_through_its_pattern(tmp_path):
    records = [{"id": "p1", "title": "A Talk Recorded", "abstract": "We talk.", "talk_id": 38931109},
               {"id": "p2", "title": "A Talk Not Recorded", "abstract": "We talk less.", "talk_id": ""}]
    site, result = built(tmp_path, "".join(json.dumps(r) + "\n" for r in records), name="papers.jsonl",
                         config='links:\n  talk_id: {pattern: "https://slideslive.com/{value}", label: Talk}\n')
    assert '<a href="https://slideslive.com/38931109">Talk</a>' in paper_page(site, "A Talk Recorded")
    assert "slideslive.com" not in paper_page(site, "A Talk Not Recorded")
    assert "talk_id" not in result.stderr  # not named among the ignored keys


def test_a_session_named_like_a_subject_leaves_the_subjects_of_other_papers(tmp_path):
    """A venue whose sessions are named by topic ("Fairness") keeps the topic when its subject column classifies
    the papers: only a column that mostly repeats the sessions is read as sessions."""
    rows = ["UID,title,abstract,primary_subject,session"]
    rows += [f"{n},Paper {n},We study fair things number {n}.,{subject},{session}" for n, subject, session in [
        (1, "Fairness", "Fairness"), (2, "Fairness", "Privacy"), (3, "Privacy", "Fairness"),
        (4, "Robustness", "Privacy"), (5, "Robustness", "Fairness")]]
    site, result = built(tmp_path, "\n".join(rows) + "\n", name="papers.csv")
    index = page(site, "tags/index.html")
    assert "Fairness" in index and "Privacy" in index and "Robustness" in index
    assert "session names" not in result.stderr
