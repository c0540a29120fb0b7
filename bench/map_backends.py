"""The paper map's layout under other numeric back ends: does it move? (docs/map.md, "The same map on every machine")

    python bench/map_backends.py /work/corp/r10k/papers.jsonl --papers 300 1000 10000 [--tree DIR]

Lays out the first N papers of a papers.jsonl (title, abstract) in a subprocess per back end — the default, numpy
without AVX-512 or at its baseline (``NPY_DISABLE_CPU_FEATURES``), OpenBLAS with another CPU's kernel
(``OPENBLAS_CORETYPE``), glibc's libm without FMA (``GLIBC_TUNABLES``) — and prints for each a digest of the
places as the site has them (whole units), a digest of the layout's floats, and the layout's CPU seconds.
``--tree``: lay out with another tree's generator (``git archive REV | tar -x -C DIR``); this one's by default.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

V4 = "X86_V4 AVX512_ICL AVX512_SPR"  # numpy 2.4's names (numpy.show_runtime()); unknown names are ignored
BACK_ENDS = {
    "default": {},
    "numpy without AVX-512": {"NPY_DISABLE_CPU_FEATURES": V4},
    "numpy baseline": {"NPY_DISABLE_CPU_FEATURES": f"X86_V3 {V4}"},
    "OpenBLAS Haswell": {"OPENBLAS_CORETYPE": "Haswell"},
    "OpenBLAS Sandybridge": {"OPENBLAS_CORETYPE": "Sandybridge"},
    "OpenBLAS Nehalem": {"OPENBLAS_CORETYPE": "Nehalem"},
    "OpenBLAS Prescott (generic)": {"OPENBLAS_CORETYPE": "Prescott"},
    "glibc libm without FMA": {"GLIBC_TUNABLES": "glibc.cpu.hwcaps=-FMA"},
    "all three": {"NPY_DISABLE_CPU_FEATURES": f"X86_V3 {V4}", "OPENBLAS_CORETYPE": "Prescott",
                  "GLIBC_TUNABLES": "glibc.cpu.hwcaps=-FMA"},
}

PROBE = """
import hashlib, json, sys, time
from generator.derive import map_layout
from generator.derive.paper_map import _scaled
from generator.derive.related import text_terms
from generator.derive.space import tfidf_matrix

path, count = sys.argv[1], int(sys.argv[2])
with open(path, encoding="utf-8") as lines:
    rows = [json.loads(line) for _, line in zip(range(count), lines)]
matrix = tfidf_matrix(text_terms(row["title"], row["abstract"]) for row in rows)
start = time.process_time()
points = map_layout.layout(matrix)
cpu = time.process_time() - start
places = _scaled([str(n) for n in range(len(points))], points).places
digest = lambda value: hashlib.sha256(repr(value).encode()).hexdigest()[:12]
print(f"places {digest(sorted(places.items()))}  floats {digest(points)}  {cpu:.2f} CPU-s")
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("papers_jsonl")
    parser.add_argument("--papers", type=int, nargs="+", default=[300, 1000])
    parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parent.parent)
    args = parser.parse_args()
    tree = args.tree.resolve()
    for count in args.papers:
        for name, extra in BACK_ENDS.items():
            env = {key: value for key, value in os.environ.items()
                   if key not in ("NPY_DISABLE_CPU_FEATURES", "OPENBLAS_CORETYPE", "GLIBC_TUNABLES")}
            run = subprocess.run([sys.executable, "-c", PROBE, str(Path(args.papers_jsonl).resolve()), str(count)],
                                 env={**env, "PYTHONPATH": str(tree), **extra}, cwd=tree, capture_output=True,
                                 text=True, check=False)
            said = run.stdout.strip() or f"failed: {run.stderr.strip()[-300:]}"
            print(f"{count:>6} papers  {name:<28} {said}", flush=True)
    print(f"load {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
