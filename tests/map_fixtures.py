"""A volume shaped as a venue's JSON Lines export, big enough for the map's points files (test_map_points.py and
tests/browser/test_map_browser.py)."""

from __future__ import annotations

import json
import random
from pathlib import Path

WORDS = ("model learning data network training method results show propose approach performance task "
         "optimization gradient stochastic convex bound theory sample complexity regret policy reward agent "
         "graph neural representation inference posterior variational kernel estimator robust adversarial "
         "language vision diffusion transformer attention sparse efficient benchmark dataset empirical").split()
# Titles as venues write them: math, quotes, an ampersand, CJK, and one that tries to close the script it is in.
ODD_TITLES = [r"Bounds of $O(\sqrt{n})$ for “robust” & sparse regression",
              "深度学习的图神经网络表示",
              "Escaping </script><script>alert(1)</script> in titles"]


def write_volume(content: Path, count: int, seed: int = 43) -> Path:
    """A JSON Lines export of ``count`` papers (title, authors, an abstract of about 600 characters), as a venue's
    tool writes one; every 97th title one of ``ODD_TITLES``."""
    rng = random.Random(seed)
    content.mkdir()
    lines = []
    for number in range(1, count + 1):
        title = ODD_TITLES[(number // 97 + 1) % len(ODD_TITLES)] if number % 97 == 0 else " ".join(
            rng.choices(WORDS, k=rng.randint(4, 9))).capitalize()
        body = " ".join(" ".join(rng.choices(WORDS, k=rng.randint(8, 14))).capitalize() + "." for _ in range(6))
        authors = [f"Author {rng.randint(1, count)}", f"Écrivain {rng.randint(1, count)} (Université Paris)"]
        lines.append(json.dumps({"title": title, "authors": authors, "abstract": f"{body} Paper {number} ends here."},
                                ensure_ascii=False))
    (content / "papers.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (content / "proceedings.yaml").write_text("title: Proceedings of Maps\ndate: 2026-12-06\n", encoding="utf-8")
    return content
