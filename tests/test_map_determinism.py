"""The paper map's layout is the same, bit for bit, whatever numeric back end the CPU gives.

OpenBLAS picks a BLAS kernel per CPU (``OPENBLAS_CORETYPE`` overrides it), numpy picks SIMD loops for ``exp``,
``log``, sorting and partitioning by the CPU's features (``NPY_DISABLE_CPU_FEATURES`` turns them off) and glibc
picks its ``exp``, ``log`` and ``pow`` by whether the CPU has FMA (``GLIBC_TUNABLES=glibc.cpu.hwcaps=-FMA``); each
rounds differently in the last bits. A layout in a subprocess under each is compared with the default's: before
map_layout.py rounded its inputs to grids and left BLAS out of t-SNE's loop, an OpenBLAS Haswell kernel alone
moved most papers on this machine's map (an AVX-512 Xeon). docs/map.md: "The same map on every machine".
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from series_fixtures import SMALL, make_series
from test_golden import site_files

REPO = Path(__file__).resolve().parent.parent

# A volume of 400 papers in six fields (words drawn mostly from a paper's field), 150 of them landmarks, so that
# both t-SNE and the placing of the others are run; prints the back end, the landmarks' places (exact floats)
# and every paper's place on the drawing (whole units, as the site has them).
PROBE = """
import json, random, sys
from threadpoolctl import threadpool_info
from generator.derive import map_layout
from generator.derive.paper_map import _scaled
from generator.derive.related import text_terms
from generator.derive.space import tfidf_matrix

rng = random.Random(7)
fields = [[f"w{field}x{n}" for n in range(40)] for field in range(6)]
shared = [f"common{n}" for n in range(60)]
texts = []
for number in range(400):
    own = fields[number % 6]
    words = [rng.choice(own if rng.random() < 0.6 else shared) for _ in range(60)]
    texts.append(text_terms(" ".join(rng.sample(own, 4)), " ".join(words)))
map_layout.LANDMARKS = 150
points = map_layout.layout(tfidf_matrix(texts))
import numpy
landmarks = numpy.unique(numpy.linspace(0, 399, 150).round().astype(int)).tolist()
placed = _scaled([str(n) for n in range(400)], points)
blas = sorted({info.get("architecture", "") for info in threadpool_info() if info["user_api"] == "blas"})
json.dump({"blas": blas, "landmarks": [[points[n][0].hex(), points[n][1].hex()] for n in landmarks],
           "places": [placed.places[str(n)] for n in range(400)]}, sys.stdout)
"""


def dispatched_features() -> str:
    """numpy's SIMD targets above its baseline that this CPU has (empty where numpy has none to turn off)."""
    try:
        from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
    except ImportError:
        return ""
    return " ".join(name for name in __cpu_dispatch__ if __cpu_features__.get(name))


def back_ends(names: list[str]) -> dict[str, dict[str, str]]:
    """Environments that change the numeric back end: numpy without its dispatched SIMD loops, OpenBLAS with
    another CPU's kernels."""
    features = dispatched_features()
    wide = " ".join(name for name in features.split() if "512" in name or name == "X86_V4")
    every = {"numpy-baseline": {"NPY_DISABLE_CPU_FEATURES": features},
             "numpy-no-avx512": {"NPY_DISABLE_CPU_FEATURES": wide},
             "openblas-generic": {"OPENBLAS_CORETYPE": "Prescott"},
             **{f"openblas-{core}": {"OPENBLAS_CORETYPE": core} for core in ("Haswell", "Sandybridge", "Nehalem")},
             # glibc's exp, log and pow built for CPUs without FMA (Python's math module): other last bits
             "libm-no-fma": {"GLIBC_TUNABLES": "glibc.cpu.hwcaps=-FMA"}}
    every["numpy-baseline+openblas-generic"] = {**every["numpy-baseline"], **every["openblas-generic"]}
    every["numpy-baseline+openblas-generic+libm-no-fma"] = {**every["numpy-baseline+openblas-generic"],
                                                          **every["libm-no-fma"]}
    every["numpy-no-avx512+openblas-Haswell"] = {**every["numpy-no-avx512"], **every["openblas-Haswell"]}
    return {name: every[name] for name in names}


def environment(extra: dict[str, str]) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if key not in ("NPY_DISABLE_CPU_FEATURES", "NPY_ENABLE_CPU_FEATURES", "OPENBLAS_CORETYPE")}
    return {**env, "PYTHONPATH": str(REPO), **extra}


def probe_layouts(variants: dict[str, dict[str, str]]) -> dict[str, dict]:
    """The probe's output under the default back end and each variant, run side by side."""
    runs = {name: subprocess.Popen([sys.executable, "-c", PROBE], env=environment(extra), cwd=REPO,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for name, extra in {"default": {}, **variants}.items()}
    found = {}
    for name, run in runs.items():
        out, err = run.communicate(timeout=300)
        assert run.returncode == 0, f"{name}: {err[-2000:]}"
        found[name] = json.loads(out)
    return found


def assert_same_layouts(found: dict[str, dict]) -> None:
    default, problems = found["default"], []
    for name, result in found.items():
        moved = [n for n, (a, b) in enumerate(zip(default["places"], result["places"])) if a != b]
        if moved:
            problems.append(f"{name} ({result['blas']}): {len(moved)} of 400 papers placed elsewhere, e.g. paper "
                            f"{moved[0]} at {result['places'][moved[0]]} not {default['places'][moved[0]]}")
        elif result["landmarks"] != default["landmarks"]:
            problems.append(f"{name}: the landmarks' places differ in their last bits")
    assert not problems, "\n".join(problems)


def test_the_layout_is_the_same_with_other_simd_loops_and_blas_kernels():
    variants = back_ends(["numpy-baseline+openblas-generic", "numpy-no-avx512+openblas-Haswell"])
    found = probe_layouts(variants)
    if not dispatched_features() and len({tuple(r["blas"]) for r in found.values()}) == 1:
        pytest.skip("neither numpy's SIMD loops nor OpenBLAS's kernel can be changed on this machine")
    assert_same_layouts(found)


@pytest.mark.slow
def test_the_layout_is_the_same_under_each_back_end_alone():
    found = probe_layouts(back_ends(["numpy-baseline", "numpy-no-avx512", "openblas-generic", "openblas-Haswell",
                                     "openblas-Sandybridge", "openblas-Nehalem", "libm-no-fma"]))
    assert_same_layouts(found)


@pytest.mark.slow
def test_a_whole_series_site_is_the_same_under_other_back_ends(tmp_path):
    """Every page, not only the map: related papers, topics, search and the glance charts too."""
    content = make_series(tmp_path, SMALL)
    sites = {}
    for name, extra in {"default": {}, **back_ends(["numpy-baseline+openblas-generic+libm-no-fma",
                                                    "numpy-no-avx512+openblas-Haswell"])}.items():
        out = tmp_path / name
        result = subprocess.run([sys.executable, "-m", "generator", "build", "--content", str(content), "--out",
                                 str(out), "--no-cache"], env=environment(extra), capture_output=True, text=True,
                                timeout=600)
        assert result.returncode == 0, f"{name}: {result.stderr[-2000:]}"
        sites[name] = site_files(out)
    for name, files in sites.items():
        assert sorted(files) == sorted(sites["default"]), name
        differ = [path for path in files if files[path] != sites["default"][path]]
        assert not differ, f"{name}: {differ}"
