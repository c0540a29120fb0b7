"""Corrections from the command line: a changed slug keeps its old address, a retraction shows everywhere."""

import json
import re

from conftest import cli, write_list

ABSTRACTS = ["We introduce Foo, a model of bars that learns quickly from few examples.",
             "A second talk about baz and its many uses in practice, with a survey."]
HOSTILE = '"Data <script>alert(1)</script> & \\"quotes\\" </textarea>"'


def _build(content, out, *extra):
    result = cli("build", "--content", str(content), "--out", str(out), *extra)
    assert result.returncode == 0, result.stderr
    return result


def _volume(tmp_path):
    content = tmp_path / "ws"
    content.mkdir()
    write_list(content / "talks.txt", "Tiny Workshop", ABSTRACTS)
    _build(content, tmp_path / "site")
    return content, sorted((content / "papers").glob("*.md"))


def _edit(page, old, new):
    text = page.read_text(encoding="utf-8")
    assert old in text
    page.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_changed_slug_keeps_its_old_address(tmp_path):
    content, pages = _volume(tmp_path)
    page = pages[0]
    old = page.stem
    _edit(page, f"slug: {old}\n", "slug: a-new-name\n")
    first = _build(content, tmp_path / "site")
    assert "updated old_slugs" in first.stderr
    assert f"old_slugs: [{old}]" in page.read_text(encoding="utf-8")
    moved = (tmp_path / "site" / "papers" / f"{old}.html").read_text(encoding="utf-8")
    assert '<link rel="canonical" href="a-new-name.html">' in moved
    assert '<meta http-equiv="refresh" content="0; url=a-new-name.html">' in moved
    assert '<a href="a-new-name.html">' in moved
    assert (tmp_path / "site" / "papers" / "a-new-name.html").is_file()
    # Built again, nothing moves: the page is not rewritten.
    before = page.read_bytes()
    again = _build(content, tmp_path / "site", "--base-url", "https://example.org/ws/")
    assert "pages: no changes" in again.stderr and page.read_bytes() == before
    moved = (tmp_path / "site" / "papers" / f"{old}.html").read_text(encoding="utf-8")
    assert '<link rel="canonical" href="https://example.org/ws/papers/a-new-name.html">' in moved
    sitemap = (tmp_path / "site" / "sitemap.xml").read_text(encoding="utf-8")
    assert "a-new-name.html" in sitemap and f"{old}.html" not in sitemap  # a redirect is no page to index
    # Renamed once more: both old addresses lead to the newest one.
    _edit(page, "slug: a-new-name\n", "slug: newest-name\n")
    _build(content, tmp_path / "site")
    assert f"old_slugs: [{old}, a-new-name]" in page.read_text(encoding="utf-8")
    for name in (old, "a-new-name"):
        assert "url=newest-name.html" in (tmp_path / "site" / "papers" / f"{name}.html").read_text(encoding="utf-8")


def test_an_old_slug_never_takes_a_current_papers_address(tmp_path):
    content, pages = _volume(tmp_path)
    other = pages[1].stem
    _edit(pages[0], "tags:", f"old_slugs: [{other}]\ntags:")
    result = _build(content, tmp_path / "site")
    assert re.search(rf"papers/{pages[0].name}:\d+: warning: `old_slugs`: {other} is the slug of", result.stderr)
    paper = (tmp_path / "site" / "papers" / f"{other}.html").read_text(encoding="utf-8")
    assert "http-equiv=\"refresh\"" not in paper and "<article" in paper


def test_a_retraction_shows_on_the_page_its_list_items_and_the_feeds(tmp_path):
    content, pages = _volume(tmp_path)
    page = pages[0]
    _edit(page, "tags:", f"retracted: {{date: 2026-05-01, note: {HOSTILE}}}\n"
                         "erratum: {note: Table 2 fixed., link: 'javascript:alert(1)'}\n"
                         "versions:\n  - {version: v2, date: 2026-02-01, note: Camera-ready.}\n"
                         "  - {date: soon}\ntags:")
    result = _build(content, tmp_path / "site")
    assert f"papers/{page.name}:" in result.stderr and "`erratum.link`" in result.stderr
    assert "`versions[2].date`: must be a date written YYYY-MM-DD" in result.stderr
    site = tmp_path / "site"
    html = (site / "papers" / f"{page.stem}.html").read_text(encoding="utf-8")
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert html.index("notice-retracted") < html.index('class="abstract"')
    assert "Retracted on May 1, 2026" in html and "v2</strong> (February 1, 2026): Camera-ready." in html
    assert "javascript:" not in html
    home = (site / "index.html").read_text(encoding="utf-8")
    assert home.count('<span class="badge-retracted">Retracted</span>') == 1
    feed = (site / "corrections.xml").read_text(encoding="utf-8")
    assert feed.count("<entry>") == 2 and "<updated>2026-05-01T00:00:00Z</updated>" in feed
    assert "&lt;script&gt;" in feed and "<script>" not in feed
    record = next(r for r in json.loads((site / "papers.json").read_text(encoding="utf-8")) if r["slug"] == page.stem)
    note = 'Data <script>alert(1)</script> & "quotes" </textarea>'
    assert record["retracted"] == {"date": "2026-05-01", "note": note}
    assert record["versions"] == [{"version": "v2", "date": "2026-02-01", "note": "Camera-ready."}]
    assert "note = {Retracted 2026-05-01: Data <script>alert(1)</script> \\& " in (
        site / "proceedings.bib").read_text(encoding="utf-8")
    # Every format says what the BibTeX says: a retraction travels with the reference (RIS N1, CSL-JSON note).
    assert f"\r\nN1  - Retracted 2026-05-01: {note}\r\n" in (site / "proceedings.ris").read_bytes().decode("utf-8")
    item = json.loads((site / "proceedings.csl.json").read_text(encoding="utf-8"))[record["order"] - 1]
    assert item["note"] == f"Retracted 2026-05-01: {note}"


def test_a_retraction_is_localised(tmp_path):
    content, pages = _volume(tmp_path)
    (content / "proceedings.yaml").write_text("title: Tiny Workshop\nlanguage: ja\n", encoding="utf-8")
    _edit(pages[0], "tags:", "retracted: {date: 2026-05-01, note: 著者の要請}\ntags:")
    _build(content, tmp_path / "site")
    assert "撤回済み" in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "に撤回" in (tmp_path / "site" / "papers" / f"{pages[0].stem}.html").read_text(encoding="utf-8")


def test_no_corrections_no_corrections_feed(tmp_path):
    _volume(tmp_path)
    assert not (tmp_path / "site" / "corrections.xml").exists()


def test_back_to_an_old_slug_and_a_hostile_old_slug(tmp_path):
    content, pages = _volume(tmp_path)
    page, old = pages[0], pages[0].stem
    _edit(page, f"slug: {old}\n", "slug: for-a-while\n")
    _build(content, tmp_path / "site")
    _edit(page, "slug: for-a-while\n", f"slug: {old}\n")  # the person changes their mind
    _build(content, tmp_path / "site")
    text = page.read_text(encoding="utf-8")
    assert f"slug: {old}\n" in text and "old_slugs: [for-a-while]" in text
    assert "url=" + old in (tmp_path / "site" / "papers" / "for-a-while.html").read_text(encoding="utf-8")
    assert "<article" in (tmp_path / "site" / "papers" / f"{old}.html").read_text(encoding="utf-8")
    _edit(page, "old_slugs: [for-a-while]", "old_slugs: [for-a-while, '../../evil', '<script>']")
    result = _build(content, tmp_path / "site")
    assert "`old_slugs`: '../../evil' is not a slug" in result.stderr and "'<script>' is not a slug" in result.stderr
    assert sorted(p.name for p in (tmp_path / "site" / "papers").glob("*.html")) == sorted(
        [f"{old}.html", f"{pages[1].stem}.html", "for-a-while.html"])


def test_a_hostile_title_is_escaped_on_the_redirect_page(tmp_path):
    content, pages = _volume(tmp_path)
    page, old = pages[0], pages[0].stem
    text = page.read_text(encoding="utf-8")
    text = re.sub(r"^title: .*$", "title: '</title><script>alert(1)</script> \"q\"'", text, count=1, flags=re.M)
    page.write_text(text.replace(f"slug: {old}\n", "slug: safe-now\n"), encoding="utf-8")
    _build(content, tmp_path / "site")
    moved = (tmp_path / "site" / "papers" / f"{old}.html").read_text(encoding="utf-8")
    assert "<script>" not in moved and "&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in moved


def test_corrections_as_written_by_hand():
    from generator.model.corrections_front import parse_corrections

    said = []
    found = parse_corrections({"retracted": True, "erratum": {"note": ["a list"]},
                               "versions": [{"version": 2, "note": "Camera-ready."}, "v3", {"date": "2026-01-02"}]},
                              lambda key, message: said.append(key))
    assert found.retracted is not None and found.retracted.note == ""  # `retracted: true` is a retraction
    assert found.erratum is None and [v.label for v in found.versions] == ["2"]
    assert sorted(said) == ["erratum", "erratum.note", "retracted", "versions[2]", "versions[3]"]
    assert found.citation_note() == "Retracted"
    assert parse_corrections({"retracted": "Withdrawn by the authors."}, print).citation_note() == (
        "Retracted: Withdrawn by the authors.")


def test_an_edited_slug_leads_from_its_old_address_before_any_sync(tmp_path):
    """What ``serve`` shows after a save, before the next sync writes ``old_slugs``: the page's old address
    (its file's name, on a page the tool made) already leads to the new one; a person's own page has none."""
    from generator.content.pages import read_page, to_paper

    made = tmp_path / "first-title.md"
    made.write_text("---\nid: '1'\ntitle: T\nslug: second-title\norder: 1\nentry: 1\n"
                    "generated: {text: abc, title: def, tags: ghi, body: jkl}\n---\n\nText.\n", encoding="utf-8")
    assert to_paper(read_page(made), made.name).old_slugs == ("first-title",)
    own = tmp_path / "my-page.md"
    own.write_text("---\nid: '2'\ntitle: T\nslug: another\norder: 2\nentry: 2\n---\n\nText.\n", encoding="utf-8")
    assert to_paper(read_page(own), own.name).old_slugs == ()
