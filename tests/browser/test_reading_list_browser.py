"""The reading list (issue 31) in a real browser, on real built sites, from file:// and over http with a strict
CSP: papers added from the home page, a search result and a paper page appear on reading-list.html, whose
exports hold them and whose shared link shows them in a fresh browser; by keyboard alone; in a series across
volumes; with hostile titles, storage refused or holding garbage, and in Japanese.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import pytest

from generator.commands.cli import main

from .conftest import REPO, served
from .helpers import TIMEOUT, papers, search_for

sys.path.insert(0, str(REPO / "tests"))
from series_fixtures import SMALL, make_series  # noqa: E402

HOSTILE = REPO / "tests" / "fixtures" / "citations" / "hostile.jsonl"


def expect(locator):
    from playwright.sync_api import expect as playwright_expect
    return playwright_expect(locator)


@pytest.fixture(autouse=True)
def no_script_errors(page):
    yield
    assert not page.errors, page.errors
    assert not page.failed, page.failed


def add_from_home(page, root: str, count: int) -> list[str]:
    """Press the first ``count`` items' buttons; their titles."""
    page.goto(root + "index.html")
    items = page.locator(".paper-item")
    titles = []
    for number in range(count):
        item = items.nth(number)
        button = item.get_by_role("button", name="Add to reading list")
        expect(button).to_have_attribute("aria-pressed", "false")
        button.click()
        expect(item.get_by_role("button", name="Remove from reading list")).to_have_attribute("aria-pressed", "true")
        titles.append(item.locator(".paper-item-title").inner_text())
    return titles


def listed(page) -> list[str]:
    return page.locator(".reading-item-title").all_inner_texts()


def download(page, format_: str) -> str:
    with page.expect_download() as made:
        page.locator(f"[data-reading-download='reading-list.{format_}']").click()
    return Path(made.value.path()).read_bytes().decode("utf-8")


def test_three_papers_from_the_home_page_are_listed_exported_and_shared(browser, page, site_url, search_site):
    titles = add_from_home(page, site_url, 3)
    page.get_by_role("link", name="Reading list").click()
    expect(page.locator(".reading-item-title")).to_have_count(3, timeout=TIMEOUT)
    assert listed(page) == titles
    expect(page.locator("[data-reading-status]")).to_have_text("3 papers in your reading list.")
    records = {paper["title"]: paper for paper in papers(search_site)}
    bib = download(page, "bib")
    assert bib.count("@inproceedings{") == 3
    for title in titles:
        assert f"neurips2026-{records[title]['id']}," in bib
    ris = download(page, "ris")
    assert ris.count("TY  - CPAPER") == 3 and ris.count("ER  - ") == 3
    items = json.loads(download(page, "csl.json"))
    assert [item["title"] for item in items] == titles
    assert [item["abstract"] for item in items] == [records[title]["abstract"] for title in titles]
    assert ris.count("AB  - ") == 3 and "\x01" not in ris  # each abstract put back from the record's "p"

    link = page.locator("[data-reading-share]").input_value()
    assert "reading-list.html#ids=" in link
    fresh = browser.new_context()  # another reader: nothing stored
    try:
        other = fresh.new_page()
        other.goto(link)
        expect(other.locator(".reading-item-title")).to_have_count(3, timeout=TIMEOUT)
        assert listed(other) == titles
        expect(other.locator("[data-reading-shared-count]")).to_have_text("A reading list shared with you: 3 papers.")
        other.get_by_role("button", name="Add these papers to my reading list").click()
        other.get_by_role("link", name="Show my reading list").click()
        other.wait_for_url(re.compile(r"reading-list\.html$"))
        expect(other.locator("[data-reading-status]")).to_have_text("3 papers in your reading list.")
        expect(other.locator(".reading-item-title")).to_have_count(3, timeout=TIMEOUT)
        assert listed(other) == titles
        assert "@inproceedings{" in download(other, "bib")
    finally:
        fresh.close()


def test_a_search_result_and_a_paper_page_share_one_state(page, site_url):
    page.goto(site_url + "index.html")
    search_for(page, "diffusion")
    hit = page.locator(".search-hit").first
    expect(hit).to_be_visible(timeout=TIMEOUT)
    title = hit.locator(".search-hit-title").inner_text()
    hit.get_by_role("button", name="Add to reading list").click()
    hit.locator(".search-hit-title").click()
    page.wait_for_url("**/papers/*.html")
    own = page.locator(".paper-reading .reading-toggle")
    expect(own).to_have_attribute("aria-pressed", "true")
    expect(own).to_have_accessible_name("Remove from reading list")
    own.click()
    expect(own).to_have_attribute("aria-pressed", "false")
    page.goto(site_url + "reading-list.html")
    expect(page.locator("[data-reading-status]")).to_contain_text("empty")
    assert title  # the hit had a title to add


def focus_next(page, name: str, limit: int = 200) -> None:
    """Tab until the focused element is a button named ``name``."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(e => e.tagName === 'BUTTON' && (e.getAttribute('aria-label') || e.textContent))"
                         "(document.activeElement)") == name:
            return
    raise AssertionError(f"no button {name!r} reached by Tab")


def test_by_keyboard_alone(page, site_url):
    page.goto(site_url + "index.html")
    focus_next(page, "Add to reading list")
    page.keyboard.press("Enter")
    focus_next(page, "Add to reading list")
    page.keyboard.press("Space")
    assert page.locator(".reading-toggle[aria-pressed='true']").count() == 2
    page.goto(site_url + "reading-list.html")
    expect(page.locator(".reading-item-title")).to_have_count(2, timeout=TIMEOUT)
    second = page.locator(".reading-item-title").nth(1).inner_text()
    focus_next(page, "Remove from reading list")
    page.keyboard.press("Enter")
    expect(page.locator(".reading-item-title")).to_have_count(1)
    assert listed(page) == [second]
    # The focus stays in the list, on the paper now first, not at the top of the page.
    assert page.evaluate("document.activeElement.className") == "reading-remove"
    page.keyboard.press("Enter")
    expect(page.locator("[data-reading-status]")).to_contain_text("empty")
    assert page.evaluate("document.activeElement.tagName") == "H1"


@pytest.mark.parametrize("garbage", ['{not json', '{"a": 1}', '[1, null, "", "x/y/z", {}]'])
def test_storage_holding_garbage_reads_as_an_empty_list(page, search_site, garbage):
    root = search_site.as_uri() + "/"
    page.goto(root + "reading-list.html")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  ["proceedings-reading-list:" + root, garbage])
    page.reload()
    expect(page.locator("[data-reading-status]")).to_contain_text("empty")
    page.goto(root + "index.html")
    page.locator(".paper-item .reading-toggle").first.click()
    page.goto(root + "reading-list.html")
    expect(page.locator(".reading-item-title")).to_have_count(1, timeout=TIMEOUT)


def test_refused_storage_keeps_the_list_for_the_page_and_says_so(page, site_url):
    page.add_init_script("""Object.defineProperty(window, 'localStorage',
        {get() { throw new DOMException('denied', 'SecurityError'); }});""")
    page.goto(site_url + "index.html")
    button = page.locator(".paper-item .reading-toggle").first
    button.click()
    expect(button).to_have_attribute("aria-pressed", "true")
    page.goto(site_url + "reading-list.html")
    expect(page.locator("[data-reading-status]")).to_contain_text("does not let the site keep a reading list")


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("hostile-reading")
    content = root / "content"
    assert main(["import", str(HOSTILE), "--content", str(content)]) == 0
    (content / "proceedings.yaml").write_text("title: Hostile <b>Titles</b>\nlanguage: ja\n", encoding="utf-8")
    assert main(["build", "--content", str(content), "--out", str(root / "site")]) == 0
    return root / "site"


def test_hostile_titles_are_text_and_the_buttons_speak_japanese(page, hostile_site):
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    root = hostile_site.as_uri() + "/"
    page.goto(root + "index.html")
    count = len(HOSTILE.read_text(encoding="utf-8").splitlines())
    buttons = page.get_by_role("button", name="リーディングリストに追加")
    expect(buttons).to_have_count(count)
    for _ in range(count):
        buttons.first.click()  # a pressed button is renamed, so the next unpressed one is first
    expect(page.get_by_role("button", name="リーディングリストから削除")).to_have_count(count)
    page.get_by_role("link", name="リーディングリスト").click()
    expect(page.locator(".reading-item-title")).to_have_count(count, timeout=TIMEOUT)
    titles = listed(page)
    assert any("<script>alert(1)</script>" in title for title in titles)
    assert any("<img src=x onerror=alert(1)>" in title for title in titles)
    assert page.locator(".reading-items script, .reading-items img, .reading-items b").count() == 0
    expect(page.locator("[data-reading-status]")).to_have_text(f"リーディングリストに {count} 件の論文があります。")
    assert "<script>alert(1)</script>" in download(page, "bib")  # as text, escaped for BibTeX
    # The abstracts fill their holes as the build wrote them: quotes, a tab, U+2028, private-use characters.
    abstracts = [item.get("abstract", "") for item in json.loads(download(page, "csl.json"))]
    assert any("\ue000\ue002 use" in abstract and '"quotes"' in abstract for abstract in abstracts), abstracts
    assert not dialogs


@pytest.fixture(scope="module")
def series_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("reading-archive")
    content = make_series(root, SMALL)
    assert main(["build", "--content", str(content), "--out", str(root / "site"), "--no-cache"]) == 0
    return root / "site"


@pytest.mark.parametrize("scheme", ["file", "http"])
def test_one_list_across_the_volumes_of_a_series(page, series_site, scheme, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(series_site, site)
    with served(site) as http_root:
        root = site.as_uri() + "/" if scheme == "file" else http_root
        first = add_from_home(page, root + "2019/", 1)
        second = add_from_home(page, root + "2023/", 2)
        page.get_by_role("link", name="Reading list").click()  # a volume's nav: the archive's one list
        page.wait_for_url("**/reading-list.html")
        assert page.url == root + "reading-list.html"
        expect(page.locator(".reading-item-title")).to_have_count(3, timeout=TIMEOUT)
        assert listed(page) == first + second
        volumes = page.locator(".reading-item-volume").all_inner_texts()
        assert volumes[0] == "Tiny Things Workshop 2019" and volumes[1] == volumes[2] != volumes[0]
        link = page.locator("[data-reading-share]").input_value()
        assert "#ids=2019%2F" in link and "2023%2F" in link
        bib = download(page, "bib")
        assert bib.count("@inproceedings{") == 3
        page.goto(root + "2023/index.html")
        expect(page.locator(".reading-toggle[aria-pressed='true']")).to_have_count(2)


def test_a_shared_link_never_names_a_file_outside_the_site(page, series_site, tmp_path):
    """`reading-list.html#ids=..%2Fslug` in a series loaded ../assets/reading/*.js from the folder above the
    site: another site's scripts, run in this one's page. A key is taken only when each part is a name the
    site publishes; the rest of the link still opens."""
    outer = tmp_path / "outer"
    shutil.copytree(series_site, outer / "site")
    decoy = outer / "assets" / "reading"
    decoy.mkdir(parents=True)
    (decoy / "manifest.js").write_text("window.__reachedOutside = true;\n", encoding="utf-8")
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    root = (outer / "site").as_uri() + "/"
    slug = next((outer / "site" / "2019" / "papers").glob("*.html")).stem
    page.goto(root + f"reading-list.html#ids=..%2F{slug},.%2F{slug},2019%2F{slug}")
    expect(page.locator(".reading-item-title")).to_have_count(1, timeout=TIMEOUT)
    assert page.evaluate("window.__reachedOutside === undefined")
    assert all(url.startswith(root) for url in requests if url.startswith("file:")), requests


TWO_PMLR_VOLUMES = {  # two PMLR volumes of one year: each volume's keys are its own, and one key is in both
    "alt-2023": ("Algorithmic Learning Theory 2023", "Mistake Bounds for Tiny Classes"),
    "colt-2023": ("Conference on Learning Theory 2023", "Regret of Tiny Bandits"),
}


def test_a_key_two_volumes_share_is_prefixed_with_each_volume_in_the_export(page, tmp_path):
    content = tmp_path / "content"
    for folder, (booktitle, title) in TWO_PMLR_VOLUMES.items():
        (content / folder).mkdir(parents=True)
        (content / folder / f"{folder}.bib").write_text(
            f"@Proceedings{{P,\n  booktitle = {{{booktitle}}},\n  year = {{2023}}\n}}\n\n"
            f"@InProceedings{{doe23a,\n  title = {{{title}}},\n  author = {{Doe, Jane}},\n"
            f"  abstract = {{We study {title.lower()}.}}\n}}\n", encoding="utf-8")
    (content / "proceedings.yaml").write_text("title: Learning Theory\n", encoding="utf-8")
    assert main(["build", "--content", str(content), "--out", str(tmp_path / "site")]) == 0
    for folder in TWO_PMLR_VOLUMES:  # each volume's own citation keeps the key its venue published
        assert "@inproceedings{doe23a," in (tmp_path / "site" / folder / "proceedings.bib").read_text(encoding="utf-8")
    root = (tmp_path / "site").as_uri() + "/"
    add_from_home(page, root + "colt-2023/", 1)
    add_from_home(page, root + "alt-2023/", 1)
    page.goto(root + "reading-list.html")
    expect(page.locator(".reading-item-title")).to_have_count(2, timeout=TIMEOUT)
    bib = download(page, "bib")
    assert re.findall(r"@inproceedings\{([^,]+),", bib) == ["colt-2023-doe23a", "alt-2023-doe23a"]
    ris = download(page, "ris")
    assert "ID  - colt-2023-doe23a" in ris and "ID  - alt-2023-doe23a" in ris
