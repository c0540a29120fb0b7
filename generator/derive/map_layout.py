"""A two-dimensional layout of the papers in which similar papers lie close: the map's positions.

The input is the related papers' TF-IDF matrix (derive/space.py), so the map and the related lists agree
on what "similar" means. Three steps, each with numpy and scipy:

1. the sparse TF-IDF matrix is reduced to ``DIMENSIONS`` dimensions by a randomized truncated SVD
   (Halko, Martinsson and Tropp's range finder: two sparse products and a QR a pass), rows made unit length,
   so that a dot product is a cosine;
2. t-SNE (van der Maaten and Hinton) lays out at most ``LANDMARKS`` of the papers, spread evenly over the
   volume's order: perplexity-calibrated affinities over each landmark's nearest landmarks, an initial
   layout from their two principal components (no random start), the exact gradient with early
   exaggeration, momentum and per-coordinate gains, as the reference implementation does;
3. every other paper is placed among the landmarks most like it (a weighted mean of the nearest few).

Why not a library's t-SNE: scikit-learn's (and openTSNE's, which imports scikit-learn) costs 1.5-2 s to
import alone (scipy.stats), and scikit-learn's TSNE took 29 CPU-seconds on 1,000 papers here, where the map
has about 2.5 s at 10,000 (issue 41: at most a tenth of a cold build); UMAP brings numba and llvmlite
(about 200 MB) and compiles on first use. docs/map.md gives the figures.

Deterministic: no random start, the SVD's random matrix from a fixed seed, OpenBLAS on one thread (set
before numpy is first imported, and held by threadpoolctl whoever imported it: a BLAS thread pool spins on a
busy machine, 8 CPU-seconds where one thread takes 1.5, and does not mix with the build's forked workers), and
the caller rounds the positions.
"""

from __future__ import annotations

import os
from typing import Any

DIMENSIONS = 40  # of the reduced space; more adds time, not a better map
LANDMARKS = 1000  # papers t-SNE lays out; the exact gradient costs their count squared an iteration
PERPLEXITY = 30.0
EXAGGERATION = 12.0
EARLY_ITERATIONS = 100  # with the attraction exaggerated, so that clusters form before they spread
ITERATIONS = 300  # in all
NEIGHBOURS = 5  # landmarks a paper that is not one is placed among
SEED = 2026


def load_numpy() -> Any:
    """numpy and scipy, imported when a map is made (a build without one never pays for them), with
    OpenBLAS on one thread."""
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")
    import numpy

    return numpy


def layout(matrix: Any) -> list[tuple[float, float]]:
    """Each row's place on the map, in the rows' order (units: t-SNE's; the caller scales them); ``matrix``: the
    papers' TF-IDF vectors as rows of a sparse matrix (derive/space.py)."""
    count = matrix.shape[0]
    if count < 3:
        return [(float(n), 0.0) for n in range(count)]
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):  # whoever imported numpy first, and with what threads
        return _layout(matrix)


def _layout(matrix: Any) -> list[tuple[float, float]]:
    np = load_numpy()
    count = matrix.shape[0]
    reduced = _reduce(matrix)
    landmarks = np.unique(np.linspace(0, count - 1, min(count, LANDMARKS)).round().astype(np.intp))
    placed = _tsne(reduced[landmarks])
    positions = np.empty((count, 2))
    positions[landmarks] = placed
    rest = np.setdiff1d(np.arange(count), landmarks)
    if len(rest):
        positions[rest] = _place(reduced[rest], reduced[landmarks], placed)
    return [(float(x), float(y)) for x, y in positions]


def _reduce(matrix: Any) -> Any:
    """The rows in ``DIMENSIONS`` dimensions (a randomized truncated SVD), each of unit length."""
    np = load_numpy()
    rows, columns = matrix.shape
    rank = min(DIMENSIONS, rows - 1, columns)
    random = np.random.default_rng(SEED)
    basis, _ = np.linalg.qr(matrix @ random.standard_normal((columns, rank + 10)))
    for _ in range(2):  # power iterations: the spectrum of a TF-IDF matrix decays slowly
        basis, _ = np.linalg.qr(matrix.T @ basis)
        basis, _ = np.linalg.qr(matrix @ basis)
    small = np.asarray((matrix.T @ basis).T)
    left, values, _ = np.linalg.svd(small, full_matrices=False)
    reduced = (basis @ left[:, :rank]) * values[:rank]
    norms = np.linalg.norm(reduced, axis=1, keepdims=True)
    return reduced / np.where(norms > 0, norms, 1.0)


def _affinities(points: Any, perplexity: float) -> Any:
    """t-SNE's joint probabilities over each point's ``3 * perplexity`` nearest (by cosine), each point's
    bandwidth found by bisection to give the perplexity; a dense symmetric matrix (at most ``LANDMARKS``
    squared, in single precision: 4 MB)."""
    np = load_numpy()
    count = len(points)
    k = min(count - 1, int(3 * perplexity))
    similar = points @ points.T
    np.fill_diagonal(similar, -np.inf)
    near = np.argpartition(-similar, k - 1, axis=1)[:, :k]
    distances = 2 - 2 * np.take_along_axis(similar, near, 1)  # squared, between unit vectors
    distances -= distances.min(1, keepdims=True)
    low, high, beta = np.zeros(count), np.full(count, np.inf), np.ones(count)
    target = np.log(perplexity)
    for _ in range(50):
        weights = np.exp(-distances * beta[:, None])
        total = weights.sum(1)
        entropy = np.log(total) + beta * (distances * weights).sum(1) / total
        wide = entropy > target
        low, high = np.where(wide, beta, low), np.where(wide, high, beta)
        beta = np.where(np.isinf(high), beta * 2, (low + high) / 2)
    weights = np.exp(-distances * beta[:, None])
    weights /= weights.sum(1, keepdims=True)
    joint = np.zeros((count, count))
    np.put_along_axis(joint, near, weights, 1)
    joint += joint.T
    joint /= joint.sum()
    return joint.astype(np.float32)


def _tsne(points: Any) -> Any:
    """t-SNE of ``points`` (unit rows) in two dimensions, exact gradient."""
    np = load_numpy()
    count = len(points)
    joint = _affinities(points, min(PERPLEXITY, (count - 1) / 3))
    centred = points - points.mean(0)
    _, _, axes = np.linalg.svd(centred, full_matrices=False)
    position = centred @ axes[:2].T
    position = position / (position[:, 0].std() or 1.0) * 1e-4  # a small start, as t-SNE wants
    rate = max(count / EXAGGERATION, 50.0)
    update, gains = np.zeros_like(position), np.ones_like(position)
    scratch = (np.empty((count, count), dtype=np.float32), np.empty((count, count), dtype=np.float32))
    exaggerated = joint * EXAGGERATION
    for step in range(ITERATIONS):
        early = step < EARLY_ITERATIONS
        gradient = _gradient(position, exaggerated if early else joint, *scratch)
        gains = np.maximum(np.where((gradient > 0) == (update > 0), gains * 0.8, gains + 0.2), 0.01)
        update = (0.5 if early else 0.8) * update - rate * gains * gradient
        position = position + update
    return position - position.mean(0)


def _gradient(position: Any, joint: Any, near: Any, force: Any) -> Any:
    """t-SNE's gradient, every pair (van der Maaten 2008, eq. 5): 4 Σ_j (p_ij - q_ij) w_ij (y_i - y_j), with
    w_ij = 1 / (1 + |y_i - y_j|²) and q_ij = w_ij / Σ w; in single precision, in the two ``m × m`` matrices
    given (``near`` becomes w, ``force`` the bracket times w), so that a step allocates nothing large."""
    np = load_numpy()
    points = position.astype(np.float32)
    square = (points * points).sum(1)
    np.matmul(points, points.T, out=near)
    near *= -2
    near += square[:, None]
    near += square[None, :]
    np.maximum(near, 0, out=near)
    near += 1
    np.reciprocal(near, out=near)
    np.fill_diagonal(near, 0)
    total = float(near.sum(dtype=np.float64))
    np.multiply(near, np.float32(-1 / total), out=force)
    force += joint
    force *= near
    pull = force.sum(1, dtype=np.float64)
    return 4 * (pull[:, None] * position - (force @ points).astype(np.float64))


def _place(points: Any, landmarks: Any, placed: Any) -> Any:
    """Each point at the mean of its ``NEIGHBOURS`` most similar landmarks' places, the more similar weighing
    far more; in blocks, so that no matrix is larger than a few MB."""
    np = load_numpy()
    found = np.empty((len(points), 2))
    k = min(NEIGHBOURS, len(landmarks))
    for start in range(0, len(points), 2048):
        similar = points[start:start + 2048] @ landmarks.T
        near = np.argpartition(-similar, k - 1, axis=1)[:, :k]
        score = np.take_along_axis(similar, near, 1)
        weight = np.exp((score - score.max(1, keepdims=True)) / 0.05)
        weight /= weight.sum(1, keepdims=True)
        found[start:start + 2048] = (weight[:, :, None] * placed[near]).sum(1)
    return found
