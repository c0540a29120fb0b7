"""A series archive's pages beside its volumes' (issue 26): one search script that speaks the series'
language and highlights, a dropdown that stays inside the window, one page width on every page type,
the same keys as a volume's box. Screenshots of the archive's pages land in tests/artifacts/screenshots/."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from generator.commands.build import build
from generator.reporter import Reporter

from .checkers import report, violations
from .conftest import served
from .helpers import ARTIFACTS, DESKTOP, TIMEOUT

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from series_fixtures import make_series  # noqa: E402
from cjk_fixtures import JA_CSV  # noqa: E402

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 768, "height": 1024}
# Long enough to wrap the header of a volume's pages at 1280 px, as COLT 2024's title does: the series'
# title, this and the navigation fill the first line, and the search box goes alone to the second.
WRAPPING_TITLE = "Conference on Learning Theory 2023"
# The interface words an English page shows: none may show on a Japanese series' search page.
ENGLISH = re.compile(r"\b(Search|Searched|Volumes?|People|papers?|match(es)?|results?|Loading|All)\b")


def built(content: Path, site: Path) -> Path:
    reporter = Reporter()
    build(content, site, reporter)
    assert not reporter.errors, reporter.errors
    return site


@pytest.fixture(scope="module")
def series(tmp_path_factory) -> Path:
    """The fixture series, its newest volume titled WRAPPING_TITLE."""
    root = tmp_path_factory.mktemp("series-ui")
    content = make_series(root)
    (content / "2023" / "proceedings.yaml").write_text(f"title: {WRAPPING_TITLE}\ndate: 2023-12-01\n", encoding="utf-8")
    return built(content, root / "site")


@pytest.fixture(scope="module")
def ja_series(tmp_path_factory) -> Path:
    """A Japanese series of two volumes, each half of the Japanese fixture's papers."""
    root = tmp_path_factory.mktemp("ja-series")
    header, *rows = JA_CSV.read_text(encoding="utf-8").splitlines(keepends=True)
    content = root / "series"
    for n, year in enumerate(("2024", "2025")):
        (content / year).mkdir(parents=True)
        (content / year / "papers.csv").write_text(header + "".join(rows[n::2]), encoding="utf-8")
        config = f"title: 人工知能学会 {year}\ndate: {year}-06-01\nlanguage: ja\n"
        (content / year / "proceedings.yaml").write_text(config, encoding="utf-8")
    (content / "proceedings.yaml").write_text("title: 人工知能学会 全国大会\nlanguage: ja\n", encoding="utf-8")
    return built(content, root / "site")


@pytest.fixture(autouse=True)
def no_script_errors(page):
    yield
    assert not page.errors, f"the browser reported script errors: {page.errors}"
    assert not page.failed, f"requests failed: {page.failed}"


def type_query(page, text: str) -> None:
    box = page.locator("#search-q")
    box.fill("")
    box.press_sequentially(text)
    page.wait_for_selector("#search-panel .search-hit-title", timeout=TIMEOUT)


def wait_searched(page) -> None:
    """Until every volume wanted has answered: the last volume's index has arrived."""
    page.wait_for_function("() => { const s = document.querySelector('.search-status');"
                           " return s && /Searched \\d+ volumes?\\.$|巻を検索しました。$/.test(s.textContent); }",
                           timeout=TIMEOUT)


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")


def test_a_japanese_series_searches_in_japanese_and_highlights(page, ja_series):
    page.set_viewport_size(PHONE)
    page.goto((ja_series / "search.html").as_uri() + "?q=モデル")
    wait_searched(page)
    shown = page.evaluate("""() => [document.title, document.querySelector('h1').textContent,
        document.querySelector('#search-q').placeholder, ...Array.from(document.querySelectorAll(
        '.site-header, .search-filter, .search-status, .search-more, .search-volume-title, .site-footer'),
        node => node.innerText)].join('\\n')""")
    english = ENGLISH.search(shown)
    assert not english, f"English on a Japanese series' search page: {english and english[0]!r}\n{shown}"
    assert "「モデル」に一致する論文は" in shown and "2 巻を検索しました。" in shown, shown
    marks = page.locator(".search-hit-title mark").all_inner_texts()
    assert marks and all(mark == "モデル" for mark in marks), marks
    assert page.locator(".search-hit-snippet mark").count() > 0
    # It fits a phone: no sideways scrolling, the box is a usable width and its label is not in the way.
    assert no_horizontal_scroll(page), "the page scrolls sideways at 390 px"
    box = page.locator("#search-q").bounding_box()
    assert box["width"] >= 300, box
    assert page.locator(".search-label").bounding_box()["height"] <= 1  # read by screen readers, not shown
    select = page.locator("#search-volume").bounding_box()
    assert select["x"] + select["width"] <= PHONE["width"], select
    page.screenshot(path=str(ARTIFACTS / "screenshots" / "archive-ja-search-390.png"))


@pytest.mark.parametrize("size", [PHONE, TABLET, DESKTOP], ids=["390", "768", "1280"])
@pytest.mark.parametrize("where", ["index.html", "people/index.html", "2023/index.html", "2023/tags/index.html"])
def test_the_results_panel_stays_inside_the_window(page, series, size, where):
    page.set_viewport_size(size)
    page.goto((series / where).as_uri())
    type_query(page, "sparse")
    panel = page.locator("#search-panel").bounding_box()
    assert panel["x"] >= 0 and panel["x"] + panel["width"] <= size["width"], (where, size, panel)
    assert no_horizontal_scroll(page)


def test_a_long_volume_title_wraps_the_header_and_the_panel_follows(page, series):
    """The case that ran off the left edge: the box wrapped to the left of the header's second line."""
    page.goto((series / "2023" / "index.html").as_uri())
    # The widest window whose header puts the box at the start of a line of its own (at 1280 px the
    # navigation, "Reading list" and all, wraps with it onto the second line, the box after it).
    for width in range(DESKTOP["width"], 700, -20):
        page.set_viewport_size({"width": width, "height": DESKTOP["height"]})
        title = page.locator(".header-row .site-title").bounding_box()
        form = page.locator("#search-form").bounding_box()
        if form["x"] < title["x"] + 1:
            break
    assert form["y"] > title["y"] + title["height"] / 2, "the header did not wrap: the test shows nothing"
    assert form["x"] < title["x"] + 1, "the box is not at the start of the header's second line"
    type_query(page, "sparse")
    panel = page.locator("#search-panel").bounding_box()
    assert form["x"] + form["width"] < panel["width"], "hung from the box's right edge, the panel would fit anyway"
    assert panel["x"] >= 0, panel
    page.screenshot(path=str(ARTIFACTS / "screenshots" / "archive-volume-wrapped-header-1280.png"))
    page.set_viewport_size({"width": 1000, "height": 900})  # the window narrows with the panel open
    page.wait_for_function("() => document.querySelector('#search-panel').getBoundingClientRect().left >= 0",
                           timeout=TIMEOUT)


WIDTH_JS = """() => ['.site-header .wrap', 'main', '.site-footer .wrap'].map(selector => {
  const box = document.querySelector(selector).getBoundingClientRect();
  return [Math.round(box.left), Math.round(box.right)];
})"""


def test_one_page_width_on_every_page_type(page, series):
    page.set_viewport_size(DESKTOP)
    paper = sorted((series / "2020" / "papers").glob("*.html"))[0].relative_to(series).as_posix()
    pages = ["index.html", "people/index.html", "people/ada-lovelace.html", "search.html", "2020/index.html",
             paper, "2020/tags/index.html", "2020/authors/index.html", "2020/search.html"]
    frames = {}
    for name in pages:
        page.goto((series / name).as_uri())
        frames[name] = page.evaluate(WIDTH_JS)
    assert len({str(frame) for frame in frames.values()}) == 1, frames
    header, main, footer = frames["index.html"]
    assert header == main == footer  # the footer lines up with the header and the content


@pytest.mark.parametrize("where", ["index.html", "search.html", "2020/index.html"])
def test_the_keys_are_a_volumes(page, series, where):
    """/ focuses the box, the arrows walk the results and back to the box, Escape closes the dropdown."""
    page.set_viewport_size(DESKTOP)
    page.goto((series / where).as_uri())
    page.keyboard.press("/")
    assert page.evaluate("() => document.activeElement.id") == "search-q"
    page.keyboard.type("learn")
    page.wait_for_selector("#search-panel .search-hit-title >> nth=1", timeout=TIMEOUT)
    titles = page.locator("#search-panel .search-hit-title")
    focused = "() => document.activeElement.textContent"
    page.keyboard.press("ArrowDown")
    assert page.evaluate(focused) == titles.nth(0).text_content()
    page.keyboard.press("ArrowDown")
    assert page.evaluate(focused) == titles.nth(1).text_content()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    assert page.evaluate("() => document.activeElement.id") == "search-q"
    page.keyboard.press("Escape")
    if where == "search.html":
        assert page.locator("#search-panel").is_visible()  # on the search page the results are the page
    else:
        assert page.locator("#search-panel").is_hidden()
    assert page.evaluate("() => document.activeElement.id") == "search-q"


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390", "1280"])
def test_screenshots_of_the_series_pages(page, series, size):
    """For review: the pages at a phone's width and a laptop's, none scrolling sideways."""
    folder = ARTIFACTS / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size(size)
    for name, url in {"home": "index.html", "people": "people/index.html", "person": "people/ada-lovelace.html",
                      "search": "search.html?q=sparse"}.items():
        page.goto((series / url.split("?")[0]).as_uri() + (url[url.index("?"):] if "?" in url else ""))
        if "?" in url:
            wait_searched(page)
        assert no_horizontal_scroll(page), f"{name} scrolls sideways at {size['width']} px"
        page.screenshot(path=str(folder / f"archive-{name}-{size['width']}.png"), full_page=True)


def test_axe_finds_no_serious_violation_on_the_series_pages(page, series, axe):
    """Over http, as the volumes' own check runs (axe reads the stylesheets, which file:// refuses it)."""
    problems = []
    with served(series) as root:
        for rel in ("index.html", "people/index.html", "people/ada-lovelace.html"):
            page.goto(root + rel)
            problems += violations(axe, page, rel)
        page.goto(root + "search.html?q=sparse")
        wait_searched(page)
        problems += violations(axe, page, "search.html?q=sparse")
        page.goto(root + "index.html")
        type_query(page, "sparse")
        problems += violations(axe, page, "index.html with the dropdown open")
    assert not problems, "axe-core found:\n" + "\n".join(problems)


def test_the_series_pages_are_valid_html(vnu, series):
    pages = [series / "index.html", series / "search.html", *sorted((series / "people").glob("*.html"))]
    messages = [m for m in vnu(pages, "--errors-only") if m["type"] in ("error", "non-document-error")]
    assert not messages, "the Nu HTML checker found:\n" + "\n".join(report(messages, series))


def test_volumes_named_like_object_properties_are_searched_like_any_other(page, tmp_path):
    """A volume named toString or constructor, or with "%" and a space in its name (its address encoded),
    answers the series' search as 2023 does."""
    content = tmp_path / "series"
    names = ("toString", "constructor", "hasOwnProperty", "50%AB spring")
    for n, name in enumerate(names):
        (content / name).mkdir(parents=True)
        (content / name / "papers.csv").write_text(
            "UID,title,authors,abstract\n"
            f"p{n},Quasar Kernels {name},Jane Doe,Quasar spectra fitted with sparse kernels ({name}).\n",
            encoding="utf-8")
        (content / name / "proceedings.yaml").write_text(f"title: Volume {name}\ndate: {2020 + n}-01-01\n",
                                                         encoding="utf-8")
    (content / "proceedings.yaml").write_text("title: Object Series\n", encoding="utf-8")
    site = built(content, tmp_path / "site")
    page.goto((site / "search.html").as_uri() + "?q=quasar")
    wait_searched(page)
    titles = page.locator(".search-hit-title").all_inner_texts()
    assert sorted(titles) == sorted(f"Quasar Kernels {name}" for name in names), titles
    assert "Searched 4 volumes." in page.locator(".search-status").inner_text()
