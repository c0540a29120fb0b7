"""`check` as an indexability doctor: a built site against Google Scholar's inclusion rules, from the CLI."""

import json

import pytest

from conftest import process

pytestmark = pytest.mark.slow  # starts whole processes: CI runs it, the fast lane does not

PAPERS = [
    {"id": "p1", "title": "Sparse Attention for Long Documents", "authors": ["Ada Lovelace", "Alan Turing"],
     "abstract": "We study sparse attention patterns that scale to documents of a million tokens."},
    {"id": "p2", "title": "Robust Speech Recognition in Noisy Rooms", "authors": ["Grace Hopper"],
     "abstract": "A speech recogniser trained with simulated reverberation holds up in real rooms."},
]


def _volume(tmp_path, papers, config="title: Tiny Workshop 2026\ndate: 2026-06-01\nbase_url: https://example.org/tiny/\n"):
    content = tmp_path / "content"
    content.mkdir()
    (content / "papers.jsonl").write_text("".join(json.dumps(p) + "\n" for p in papers), encoding="utf-8")
    (content / "proceedings.yaml").write_text(config, encoding="utf-8")
    built = process("build", "--content", str(content), "--out", str(tmp_path / "site"))
    assert built.returncode == 0, built.stderr
    return content


def _check(tmp_path, content, *extra):
    return process("check", "--content", str(content), "--site", str(tmp_path / "site"), *extra)


def test_a_clean_volume_with_a_base_url_reports_nothing(tmp_path):
    content = _volume(tmp_path, PAPERS)
    result = _check(tmp_path, content, "--strict")
    assert result.returncode == 0, result.stderr
    assert "Google Scholar" not in result.stderr
    robots = (tmp_path / "site" / "robots.txt").read_text(encoding="utf-8")
    assert robots == "User-agent: *\nAllow: /\n\nSitemap: https://example.org/tiny/sitemap.xml\n"


def test_no_authors_no_date_and_a_pdf_elsewhere_are_each_reported(tmp_path):
    papers = [dict(PAPERS[0], authors=[]), dict(PAPERS[1], pdf="https://cdn.example.net/p2.pdf")]
    content = _volume(tmp_path, papers, "title: Tiny Workshop\nbase_url: https://example.org/tiny/\n")
    result = _check(tmp_path, content)
    assert result.returncode == 0  # warnings: only --strict fails on them
    lines = result.stderr.splitlines()
    no_author = [line for line in lines if "no citation_author" in line]
    assert len(no_author) == 1 and no_author[0].startswith("papers/sparse-attention-for-long-documents.md:")
    assert any(line.startswith("proceedings.yaml: warning: Google Scholar: no citation_publication_date, on all 2 "
                               "paper pages: add `date: YYYY-MM-DD`") for line in lines)
    elsewhere = [line for line in lines if "the PDF is on another host (cdn.example.net)" in line]
    assert len(elsewhere) == 1 and elsewhere[0].startswith("papers/robust-speech-recognition-in-noisy-rooms.md:")
    strict = _check(tmp_path, content, "--strict")
    assert strict.returncode == 1


def test_a_doi_pdf_redirects_and_a_page_left_out_of_the_sitemap(tmp_path):
    papers = [dict(PAPERS[0], pdf="https://doi.org/10.1000/xyz"), PAPERS[1]]
    content = _volume(tmp_path, papers)
    sitemap = tmp_path / "site" / "sitemap.xml"
    text = sitemap.read_text(encoding="utf-8")
    sitemap.write_text(text.replace("robust-speech-recognition-in-noisy-rooms", "gone"), encoding="utf-8")
    result = _check(tmp_path, content, "--strict")
    assert result.returncode == 1
    assert "the PDF's address https://doi.org/10.1000/xyz redirects" in result.stderr
    assert "papers/robust-speech-recognition-in-noisy-rooms.html is not in sitemap.xml" in result.stderr


def test_robots_txt_that_shuts_crawlers_out_is_reported(tmp_path):
    content = _volume(tmp_path, PAPERS)
    (tmp_path / "site" / "robots.txt").write_text("User-agent: *\nDisallow: /\n", encoding="utf-8")
    result = _check(tmp_path, content)
    assert "robots.txt: warning: Google Scholar: robots.txt disallows every page to *" in result.stderr
    assert "does not name the sitemap" in result.stderr


def test_a_hidden_abstract_and_two_papers_on_one_page_are_reported(tmp_path):
    content = _volume(tmp_path, PAPERS)
    page = tmp_path / "site" / "papers" / "sparse-attention-for-long-documents.html"
    text = page.read_text(encoding="utf-8")
    text = text.replace('<section class="abstract"', '<details><section class="abstract"', 1)
    text = text.replace('<meta name="citation_title"', '<meta name="citation_title" content="Another">\n'
                                                        '<meta name="citation_title"', 1)
    page.write_text(text, encoding="utf-8")
    result = _check(tmp_path, content)
    assert "the full abstract is not visible on the page" in result.stderr
    assert "2 citation_title tags (one paper per page)" in result.stderr


def test_two_papers_sharing_one_local_pdf(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    (content / "pdfs").mkdir()
    (content / "pdfs" / "a.pdf").write_bytes(b"%PDF-1.4 same bytes")
    (content / "pdfs" / "b.pdf").write_bytes(b"%PDF-1.4 same bytes")
    papers = [dict(PAPERS[0], pdf="pdfs/a.pdf"), dict(PAPERS[1], pdf="pdfs/b.pdf")]
    (content / "papers.jsonl").write_text("".join(json.dumps(p) + "\n" for p in papers), encoding="utf-8")
    (content / "proceedings.yaml").write_text("title: T\ndate: 2026-06-01\nbase_url: https://example.org/t/\n",
                                              encoding="utf-8")
    assert process("build", "--content", str(content), "--out", str(tmp_path / "site")).returncode == 0
    result = _check(tmp_path, content)
    assert "the PDF pdfs/b.pdf is the same file as the PDF of papers/sparse-attention" in result.stderr
    # A local PDF outside the paper's folder: Scholar looks for it beside the abstract.
    assert "is not in the folder of the paper's page" in result.stderr


def one_page_pdf(text: str) -> bytes:
    """A one-page PDF whose first line is ``text`` (Helvetica), as a paper's title page is: written by hand,
    so that the test needs no PDF writer."""
    stream = f"BT /F1 18 Tf 72 720 Td ({text}) Tj ET".encode("latin-1")
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> "
               b"/Contents 4 0 R >>",
               b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def test_a_local_pdf_whose_first_page_is_another_papers(tmp_path):
    content = tmp_path / "content"
    (content / "papers").mkdir(parents=True)
    # In the papers' own folder, as Scholar wants them; the first is this paper's, the second another's.
    (content / "papers" / "p1.pdf").write_bytes(one_page_pdf("Sparse attention for long   documents"))
    (content / "papers" / "p2.pdf").write_bytes(one_page_pdf("A Completely Different Paper"))
    papers = [dict(PAPERS[0], pdf="papers/p1.pdf"), dict(PAPERS[1], pdf="papers/p2.pdf")]
    (content / "papers.jsonl").write_text("".join(json.dumps(p) + "\n" for p in papers), encoding="utf-8")
    (content / "proceedings.yaml").write_text("title: T\ndate: 2026-06-01\nbase_url: https://example.org/t/\n",
                                              encoding="utf-8")
    assert process("build", "--content", str(content), "--out", str(tmp_path / "site")).returncode == 0
    result = _check(tmp_path, content)
    found = [line for line in result.stderr.splitlines() if "Google Scholar" in line]
    assert len(found) == 1, result.stderr
    assert found[0].startswith("papers/robust-speech-recognition-in-noisy-rooms.md:")
    assert "the first page of the PDF papers/p2.pdf does not show the paper's title" in found[0]


def test_check_opens_only_the_linked_files_the_build_publishes(tmp_path):
    """A committed symlink to /dev/zero, a FIFO, named by pages' `pdf:`: the build publishes neither, and
    `check` opens neither (it read the first whole: a MemoryError; it waited on the second for ever)."""
    import os
    content = _volume(tmp_path, PAPERS)
    (content / "papers" / "p1.pdf").symlink_to("/dev/zero")
    os.mkfifo(content / "papers" / "p2.pdf")
    for page, pdf in zip(sorted((content / "papers").glob("*.md")), ("papers/p1.pdf", "papers/p2.pdf")):
        page.write_text(page.read_text(encoding="utf-8").replace("\nid: ", f"\npdf: {pdf}\nid: ", 1),
                        encoding="utf-8")
    built = process("build", "--content", str(content), "--out", str(tmp_path / "site"))
    assert built.returncode == 0 and built.stderr.count("is not a document in the content folder") == 2, built.stderr
    result = _check(tmp_path, content)
    assert "Traceback" not in result.stderr and "MemoryError" not in result.stderr, result.stderr
    assert not (tmp_path / "site" / "papers" / "p1.pdf").exists()


@pytest.mark.parametrize("hiding", [
    '<details><summary>Abstract</summary>{}</details>',
    '<div hidden>{}</div>',
    '<div style="display: none">{}</div>',
    '<div style="visibility:hidden">{}</div>',
    '<template>{}</template>',
    '<!-- {} -->',
    '<div aria-hidden="true">{}</div>',
])
def test_an_abstract_a_reader_cannot_see_is_found_however_it_is_hidden(hiding):
    """What Scholar does not index: `check` read only <details> and passed the rest."""
    from types import SimpleNamespace
    from generator.commands.scholar import abstract_findings
    paper = SimpleNamespace(abstract_plain="We study sparse attention patterns that scale to long documents.")
    shown = f'<section class="abstract"><p>{paper.abstract_plain}</p></section>'
    assert abstract_findings(f"<main>{shown}</main>", paper) == []
    hidden = hiding.format(shown)
    found = abstract_findings(f"<main>{hidden}</main>", paper)
    assert [finding.rule for finding in found] == ["abstract"], hidden
    inner = f'<section class="abstract">{hiding.format("<p>" + paper.abstract_plain + "</p>")}</section>'
    assert [finding.rule for finding in abstract_findings(f"<main>{inner}</main>", paper)] == ["abstract"]
