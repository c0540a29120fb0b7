"""Issue 30: a list of papers that carry every material a venue exports (PDF, code, video, poster, slides,
thumbnail, data, the publisher's page) stays a dense, readable list: seven whole papers above the fold at
1280×900, no sideways scrolling on a phone, and every link a reader can see and tap. The site is an ISMIR-like
Mini-Conf export whose paths into the venue's old site are resolved against `venue_base_url`; no page loads
anything from that site (the thumbnail is a link, not an image)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from generator.commands.build import build
from generator.reporter import Reporter

from .crawl import OVERFLOW_JS
from .helpers import DESKTOP, PHONE
from .test_list_density_browser import FULLY_VISIBLE_JS, NAMES, WORDS

LABELS = ["PDF", "Code", "Video", "Poster", "Slides", "Thumbnail", "Data", "Publisher's page", "BibTeX"]


def row(number: int) -> dict:
    """A row as ISMIR's Mini-Conf papers.csv has it, with every material filled in."""
    words = [WORDS[(number * 7 + k * 5) % len(WORDS)] for k in range(9 + number % 4)]
    authors = [f"{NAMES[(number + k * 5) % len(NAMES)]} (University of Examples, Department {k})"
               for k in range(3 + number % 4)]
    return {"UID": str(number), "title": " ".join(words), "authors_and_affil": "; ".join(authors) + "*",
            "abstract": f"We study problem {number} of music retrieval.", "keywords": "Music retrieval",
            "pdf_path": f"static/pdfs/{number:06}.pdf", "code": f"https://github.com/example/p{number}",
            "video": f"https://www.youtube.com/watch?v=v{number:010}", "poster_pdf": f"static/posters/{number:06}.pdf",
            "slides_pdf": f"static/slides/{number:06}.pdf", "thumbnail": f"static/thumbnails/{number:06}.png",
            "dataset": f"https://zenodo.org/records/{number}", "href": f"https://ismir.net/papers/{number}"}


@pytest.fixture(scope="module")
def materials_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("materials")
    content = root / "content"
    content.mkdir()
    table = io.StringIO()
    writer = csv.DictWriter(table, fieldnames=list(row(1)), lineterminator="\n")
    writer.writeheader()
    writer.writerows(row(n) for n in range(1, 41))
    (content / "papers.csv").write_text(table.getvalue(), encoding="utf-8")
    (content / "proceedings.yaml").write_text("venue_base_url: https://ismir2024program.ismir.net/\n",
                                              encoding="utf-8")
    reporter = Reporter()
    build(content, root / "site", reporter)
    assert not reporter.errors
    return root / "site"


def test_a_list_with_every_material_shows_seven_papers_and_all_their_links(page, materials_site):
    page.set_viewport_size(DESKTOP)
    page.goto((materials_site / "index.html").as_uri())
    assert page.evaluate(FULLY_VISIBLE_JS) >= 7
    first = page.locator(".paper-item").first
    links = first.locator(".item-links > a").all()
    assert [a.inner_text() for a in links] == LABELS and all(a.is_visible() for a in links)


def test_a_paper_page_with_every_material_fits_a_phone_and_loads_nothing_from_elsewhere(page, materials_site):
    page.set_viewport_size(PHONE)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto((materials_site / "papers").glob("*.html").__next__().as_uri())
    over, culprits = page.evaluate(OVERFLOW_JS)
    assert over <= 0, culprits
    assert [a.inner_text() for a in page.locator(".paper-links a").all()] == LABELS[:-1]
    assert page.locator(".authors .affiliation").first.inner_text() == "University of Examples, Department 0"
    assert not [url for url in requests if not url.startswith("file://")], requests
