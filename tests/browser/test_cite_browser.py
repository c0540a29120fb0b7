"""The BibTeX copy button, in a real browser, on the real built site.

From file:// and over http with Content-Security-Policy: script-src 'self'
(see conftest.py): cite.js must work without inline script, and a script
error of any kind fails the test.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

TIMEOUT = 10_000  # ms


def expect(locator):
    # Imported late: without Playwright the browser fixture skips (or fails under CI) first.
    from playwright.sync_api import expect as playwright_expect
    return playwright_expect(locator)


def first_paper_url(site_url: str, search_site) -> str:
    papers = json.loads((search_site / "papers.json").read_text(encoding="utf-8"))
    return site_url + papers[0]["url"]


def test_copy_button_copies_the_entry(page, site_url, search_site):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(first_paper_url(site_url, search_site))
    button = page.locator("button[data-copy='bibtex']")
    expect(button).to_be_visible()  # cite.js shows it; without script it stays hidden
    button.click()
    status = button.locator("xpath=..").locator(".copy-status")
    expect(status).not_to_be_empty(timeout=TIMEOUT)
    entry = page.locator("#bibtex").inner_text()
    assert entry.startswith("@inproceedings{neurips2026-")
    if status.inner_text() == "Copied":
        assert page.evaluate("navigator.clipboard.readText()") == entry
    else:  # no clipboard access here: the entry is left selected for Ctrl+C
        assert page.evaluate("window.getSelection().toString()") == entry
    assert not page.errors, page.errors


def test_without_the_clipboard_api_the_entry_is_selected(page, site_url, search_site):
    # As in an insecure context: navigator.clipboard is missing.
    page.add_init_script("Object.defineProperty(Navigator.prototype, 'clipboard', {get: () => undefined})")
    page.goto(first_paper_url(site_url, search_site))
    page.locator("button[data-copy='bibtex']").click()
    expect(page.locator(".copy-status").first).not_to_be_empty(timeout=TIMEOUT)
    entry = page.locator("#bibtex").inner_text()
    assert page.evaluate("window.getSelection().toString()") == entry
    assert not page.errors, page.errors


def test_the_apa_reference_is_copied_as_plain_text_by_keyboard(page, site_url, search_site):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(first_paper_url(site_url, search_site))
    button = page.locator("button[data-copy='apa-reference']")
    expect(button).to_be_visible()
    button.focus()
    page.keyboard.press("Enter")
    status = button.locator("xpath=..").locator(".copy-status")
    expect(status).not_to_be_empty(timeout=TIMEOUT)
    reference = page.locator("#apa-reference").inner_text()
    assert "(n.d.). In NeurIPS 2026" in reference  # the seed has no date: APA's "no date"
    if status.inner_text() == "Copied":
        assert page.evaluate("navigator.clipboard.readText()") == reference
    else:
        assert page.evaluate("window.getSelection().toString()") == reference
    assert not page.errors, page.errors


def test_the_entry_wraps_long_lines_instead_of_scrolling_sideways(page, site_url, search_site):
    """At 1280 px the box holds every line: nothing to scroll to, and the page is no wider than the window."""
    papers = json.loads((search_site / "papers.json").read_text(encoding="utf-8"))
    page.set_viewport_size({"width": 1280, "height": 900})
    widest = None
    for paper in papers[:8]:
        page.goto(site_url + paper["url"])
        box = page.locator("#bibtex")
        sizes = box.evaluate("b => ({scroll: b.scrollWidth, client: b.clientWidth, lines: b.innerText.split('\\n')})")
        longest = max(len(line) for line in sizes["lines"])
        widest = max(widest or 0, longest)
        assert sizes["scroll"] <= sizes["client"], \
            f"{paper['url']}: the BibTeX box scrolls ({sizes['scroll']} px of {sizes['client']})"
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    assert widest > 90, "no seed entry has a line long enough to need wrapping (a 99-character line needs 758 px)"


def test_the_papers_ris_and_csl_json_download_as_the_volumes_files_have_them(page, site_url, search_site):
    """Made by cite.js from the paper's reading-list block (no files beside the page), from file:// too."""
    paper = json.loads((search_site / "papers.json").read_text(encoding="utf-8"))[2]
    page.goto(site_url + paper["url"])
    ris_link = page.locator("a[data-cite-download='ris']")
    expect(ris_link).to_be_visible(timeout=TIMEOUT)  # hidden without script; made at the first click
    page.wait_for_load_state("load")
    loaded = page.evaluate("performance.getEntriesByType('resource').map(entry => entry.name)")
    assert not [name for name in loaded if "/assets/reading/" in name], "a reader who never downloads loads no block"
    with page.expect_download() as made:
        ris_link.click()
    assert made.value.suggested_filename == f"{paper['slug']}.ris"
    ris = Path(made.value.path()).read_bytes().decode("utf-8")
    volume_ris = (search_site / "proceedings.ris").read_bytes().decode("utf-8")
    assert ris.startswith("TY  - CPAPER\r\n") and ris.endswith("ER  - \r\n") and ris in volume_ris
    assert f"TI  - {paper['title']}\r\n" in ris
    with page.expect_download() as made:
        page.locator("a[data-cite-download='csl']").click()
    assert made.value.suggested_filename == f"{paper['slug']}.csl.json"
    items = json.loads(Path(made.value.path()).read_text(encoding="utf-8"))
    volume_items = json.loads((search_site / "proceedings.csl.json").read_text(encoding="utf-8"))
    # The paper's item is the volume's with its abstract, which the volume's file leaves out (csl.py).
    assert "abstract" not in volume_items[paper["order"] - 1]
    assert items == [{**volume_items[paper["order"] - 1], "abstract": paper["abstract"]}]
    # MODS and EndNote (issue 42): the paper's record, as the volume's files hold it; MODS in a collection of one.
    for name, suffix in (("mods", ".mods.xml"), ("enw", ".enw")):
        volume_file = f"proceedings{suffix}"
        with page.expect_download() as made:
            page.locator(f"a[data-cite-download='{name}']").click()
        assert made.value.suggested_filename == f"{paper['slug']}{suffix}"
        text = Path(made.value.path()).read_text(encoding="utf-8")
        whole = (search_site / volume_file).read_text(encoding="utf-8")
        record = text.split("<modsCollection xmlns=\"http://www.loc.gov/mods/v3\">\n")[-1].removesuffix(
            "</modsCollection>\n")
        # The paper's own has its abstract; the volume's file has none (as CSL-JSON).
        assert "<abstract>" in record or "%X " in record
        record = re.sub(r"(?m)<abstract>[^<]*</abstract>|^%X .*\n", "", record)
        assert record in whole and paper["title"].split(" ")[0] in record
        assert text.startswith("<?xml") if name == "mods" else text.startswith("%0 Conference Paper\n")
    assert not page.errors, page.errors


def test_the_buttons_are_made_by_script_and_the_files_download_by_keyboard(page, site_url, search_site):
    """cite.js makes the buttons and the download line (issue 29: not in every page's HTML), in the volume's
    words; a download link with no file yet is reached and started with the keyboard."""
    paper = json.loads((search_site / "papers.json").read_text(encoding="utf-8"))[1]
    page.goto(site_url + paper["url"])
    expect(page.locator("button[data-copy='bibtex']")).to_have_text("Copy BibTeX")
    expect(page.locator("button[data-copy='apa-reference']")).to_have_text("Copy APA reference")
    expect(page.locator(".cite-files").first).to_have_text("Download: RIS CSL-JSON MODS EndNote")
    ris_link = page.locator("a[data-cite-download='ris']")
    ris_link.focus()
    with page.expect_download() as made:
        page.keyboard.press("Enter")
    assert made.value.suggested_filename == f"{paper['slug']}.ris"
    assert f"TI  - {paper['title']}\r\n" in Path(made.value.path()).read_bytes().decode("utf-8")
    assert not page.errors, page.errors


def test_without_javascript_the_cite_box_has_its_text_and_no_buttons(browser, search_site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        paper = json.loads((search_site / "papers.json").read_text(encoding="utf-8"))[1]
        page.goto((search_site / paper["url"]).as_uri())
        assert page.locator("#bibtex").inner_text().startswith("@inproceedings{")
        assert page.locator(".cite button").count() == 0 and page.locator("a[data-cite-download]").count() == 0
        assert page.locator(".volume-cite a[href$='proceedings.ris']").is_visible()
    finally:
        context.close()
