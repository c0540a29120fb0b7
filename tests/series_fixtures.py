"""A series archive made of fixture volumes, one per input format (used by test_series_build.py and the
browser test). Sources are the repository's own fixtures, copied by path into a folder per volume;
the newest volume is JSON Lines written here, holding the people the cross-volume pages must tell
apart: two people named Jane Doe with their own ORCIDs, Ada Lovelace written without her ORCID,
two Richard Roes told apart by an explicit id, a "J. Doe" who may be a Jane Doe, and Simon S Du, also
written "Simon S. Du" (as COLT's own files write him), who is one person."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"

JANE_A = "0000-0001-5109-3700"
JANE_B = "0000-0002-9079-593X"

NEWEST = [
    {"id": "n-1", "title": "Engines of Analysis, Revisited",
     "authors": ["Ada Lovelace", "Charles Babbage", "Simon S Du"],
     "abstract": "We revisit the analytical engine and count the cards a loop of Bernoulli numbers needs."},
    {"id": "n-2", "title": "Sparse Kernels for Quasar Spectra",
     "authors": [{"name": "Jane Doe", "orcid": JANE_A, "affiliation": "Observatory of Examples"}],
     "abstract": "Quasar spectra are fitted with sparse kernels, halving the error of redshift estimates."},
    {"id": "n-3", "title": "Protein Folding with Few Labels",
     "authors": [{"name": "Jane Doe", "orcid": JANE_B, "affiliation": "Institute of Folding"}],
     "abstract": "A folding model trained on few labels matches one trained on many, given a good prior."},
    {"id": "n-4", "title": "Roe versus Roe: Ranking by Pairs",
     "authors": [{"name": "Richard Roe", "id": "roe-ranking"}, {"name": "Richard Roe", "id": "roe-optics"}],
     "abstract": "Pairwise rankings are aggregated by a tournament whose ties are broken at random."},
    {"id": "n-5", "title": "Initials in Author Lists", "authors": ["J. Doe", "Simon S. Du"],
     "abstract": "Author lists written with initials are matched to full names by a zeppelinoid heuristic."},
]


# The volumes of the small archive the golden files hold (tests/golden/series): 13 papers, and people
# across years (Ada Lovelace in 2020 and 2023, the Jane Does and Richard Roes of 2019 and 2023).
SMALL = ("2019", "2020", "2023")


def make_series(root: Path, only: tuple[str, ...] | None = None) -> Path:
    """The archive's content folder: a series proceedings.yaml and five volumes (or the ``only`` ones)."""
    content = root / "archive"
    volumes = {
        "2019": FIXTURES / "sources" / "papers.csv",
        "2020": FIXTURES / "sources" / "papers.jsonl",
        "2021": FIXTURES / "venues" / "pmlr-v999.bib",
        "2022": REPO / "content" / "neurips-2026.txt",
    }
    for name, source in volumes.items():
        if only is None or name in only:
            (content / name).mkdir(parents=True)
            shutil.copyfile(source, content / name / source.name)
    content.mkdir(parents=True, exist_ok=True)
    if only is None or "2023" in only:
        _newest_volume(content / "2023")
    if only is None or "2019" in only:
        (content / "2019" / "proceedings.yaml").write_text("title: Tiny Things Workshop 2019\n", encoding="utf-8")
    (content / "proceedings.yaml").write_text(
        "title: Tiny Things Series\ndescription: Every volume of the Tiny Things workshops.\n"
        "base_url: https://example.org/tiny/\n", encoding="utf-8")
    return content


def copy_synced(synced: Path, root: Path) -> Path:
    """A private copy of a series content folder that a build has synced (``synced_series`` in conftest.py): what
    ``make_series(root)`` is after its first build (its pages written, its cache filled), for a copy's cost."""
    return shutil.copytree(synced, root / synced.name, symlinks=True)


def _newest_volume(folder: Path) -> None:
    folder.mkdir()
    (folder / "workshop.jsonl").write_text("".join(json.dumps(record) + "\n" for record in NEWEST), encoding="utf-8")
    (folder / "proceedings.yaml").write_text("title: Tiny Things Workshop 2023\ndate: 2023-12-01\n", encoding="utf-8")


# The venues' own files (tests/fixtures/venues/), one per volume of a long series, in turn.
VENUE_FILES = ("pmlr-quirks.bib", "ismir-2024-papers.csv", "pmlr-v247.bib", "miniconf-2020-papers.csv",
               "colt-2024-theory.bib", "sigdial-2023-papers.csv", "pmlr-v999.bib", "icwsm-2021-papers.csv",
               "conftool-export.csv")


def make_long_series(root: Path, volumes: int = 16) -> Path:
    """A series of ``volumes`` volumes (2001, 2002…), each one of the venues' files, as a PMLR or ACL series
    of many years is: the same quirks and warnings volume after volume."""
    content = root / "series"
    for number in range(volumes):
        source = FIXTURES / "venues" / VENUE_FILES[number % len(VENUE_FILES)]
        folder = content / str(2001 + number)
        folder.mkdir(parents=True)
        shutil.copyfile(source, folder / source.name)
    (content / "proceedings.yaml").write_text("title: A Long Series\n", encoding="utf-8")
    return content
