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

Deterministic: no random start, the SVD's random signs from a fixed seed, OpenBLAS on one thread (set
before numpy is first imported, and held by threadpoolctl whoever imported it: a BLAS thread pool spins on a
busy machine, 8 CPU-seconds where one thread takes 1.5, and does not mix with the build's forked workers), and
the caller rounds the positions.

The same on every CPU, bit for bit (tests/test_map_determinism.py): BLAS and LAPACK kernels (OpenBLAS picks one
per CPU) and numpy's SIMD ``exp`` and ``log`` round differently in the last bits, and t-SNE's iterations in
single precision would make a different map of that. So what is made with them is rounded to a grid far coarser
than their noise before anything compares or iterates on it, and after that only IEEE's exactly rounded
operations run, in an order that depends on nothing but the shapes:

* the reduced vectors are rounded to multiples of ``2**-GRID_BITS``; as integers, their dot products are exact
  (every partial sum an integer below 2**53), whatever order or kernel BLAS sums them in; a row whose part in
  the reduced space is below the grid's step is left zero (the QR leaves noise in a paper without words);
* nearest neighbours are ranked by those exact products, ties to the lower index (one integer key each);
* t-SNE's joint probabilities P are rounded to multiples of ``2**-P_BITS``, its start to ``2**-GRID_BITS`` of its
  spread, each axis pointed so that its largest coordinate is positive (an SVD's signs are arbitrary);
* the loop has no BLAS and no ``exp``/``log``: distances from elementwise differences, sums by numpy's pairwise
  ``sum`` along a row (its order is fixed in its C source, the same for every SIMD width);
* a paper that is not a landmark is placed by weights with ``exp``'s noise in the last bits, which the caller's
  rounding to whole units of a 1,000-unit drawing does not see.

A value within the noise of a grid line can still round two ways. Measured: the vectors of 2,000 papers differ
between two OpenBLAS kernels by 5e-15 on average, so an expected 2.5e-5 values in 2,000 papers (1e-4 in 10,000) land
across a line; such a value moves its paper's products by one step (2**-32 of a cosine), which P's grid nearly
always absorbs. docs/map.md: "The same map on every machine".
"""

from __future__ import annotations

from typing import Any

from generator.runtime.blas import one_thread

DIMENSIONS = 40  # of the reduced space; more adds time, not a better map
LANDMARKS = 1000  # papers t-SNE lays out; the exact gradient costs their count squared an iteration
PERPLEXITY = 30.0
EXAGGERATION = 12.0
EARLY_ITERATIONS = 100  # with the attraction exaggerated, so that clusters form before they spread
ITERATIONS = 300  # in all
NEIGHBOURS = 5  # landmarks a paper that is not one is placed among
SEED = 2026
GRID_BITS = 16  # the reduced vectors and the start are rounded to multiples of 2**-16: see the docstring
ROWS = 64  # of t-SNE's matrices that a step works on at once (a few 64 × 1000 blocks fit in a core's cache)
JITTER = 64  # steps of the grid t-SNE's start moves each point by at most (1e-3 of the spread)
P_BITS = 32  # and t-SNE's joint probabilities to multiples of 2**-32 (a paper's P is about 1e-5)


def load_numpy() -> Any:
    """numpy and scipy, imported when a map is made (a build without one never pays for them), with
    OpenBLAS on one thread."""
    one_thread()
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
    whole = _on_grid(np, _reduce(matrix))
    if not whole.any():  # nothing tells the papers apart: one spot (the caller sets them in a row)
        return [(0.0, 0.0)] * count
    landmarks = np.unique(np.linspace(0, count - 1, min(count, LANDMARKS)).round().astype(np.intp))
    placed = _tsne(whole[landmarks])
    positions = np.empty((count, 2))
    positions[landmarks] = placed
    rest = np.setdiff1d(np.arange(count), landmarks)
    if len(rest):
        positions[rest] = _place(whole[rest], whole[landmarks], placed)
    return [(float(x), float(y)) for x, y in positions]


def _reduce(matrix: Any) -> Any:
    """The rows in ``DIMENSIONS`` dimensions (a randomized truncated SVD), each of unit length."""
    np = load_numpy()
    rows, columns = matrix.shape
    rank = min(DIMENSIONS, rows - 1, columns)
    # Random signs, not Gaussian numbers: integers only (numpy's normals call the C library's exp and log).
    test = np.random.default_rng(SEED).integers(0, 2, (columns, rank + 10)) * 2.0 - 1.0
    basis, _ = np.linalg.qr(matrix @ test)
    for _ in range(2):  # power iterations: the spectrum of a TF-IDF matrix decays slowly
        basis, _ = np.linalg.qr(matrix.T @ basis)
        basis, _ = np.linalg.qr(matrix @ basis)
    small = np.asarray((matrix.T @ basis).T)
    left, values, _ = np.linalg.svd(small, full_matrices=False)
    reduced = (basis @ left[:, :rank]) * values[:rank]
    norms = np.linalg.norm(reduced, axis=1, keepdims=True)
    # A row (of unit length) whose part in these dimensions is below the grid's step is rounding noise, which
    # dividing by its length would blow up into a direction: it stays nothing, as a paper without words does.
    return np.where(norms > 2.0 ** -GRID_BITS, reduced, 0.0) / np.where(norms > 2.0 ** -GRID_BITS, norms, 1.0)


def _on_grid(np: Any, values: Any) -> Any:
    """``values`` rounded to multiples of ``2**-GRID_BITS``, given as those multiples (whole numbers in floats):
    from here on a dot product of two rows is exact, the same from any BLAS."""
    return np.round(values * 2.0 ** GRID_BITS) + 0.0  # (+ 0.0: no -0.0)


def _nearest(np: Any, products: Any, k: int, skip: Any = None) -> Any:
    """Each row's ``k`` largest ``products`` (whole numbers), largest first, ties to the lower column; ``skip``:
    a column per row to leave out (a landmark's own). One distinct integer key an entry, so that the choice and
    the order are the same whichever way numpy's partition and sort (CPU-dispatched) break ties."""
    width = products.shape[1]
    key = products.astype(np.int64)
    np.negative(key, out=key)
    key *= width
    key += np.arange(width, dtype=np.int64)
    if skip is not None:
        key[np.arange(len(key)), skip] = np.iinfo(np.int64).max
    near = np.argpartition(key, k - 1, axis=1)[:, :k]
    return np.take_along_axis(near, np.take_along_axis(key, near, 1).argsort(1), 1)


def _affinities(whole: Any, perplexity: float) -> Any:
    """t-SNE's joint probabilities over each point's ``3 * perplexity`` nearest (by cosine; ``whole``: the unit
    rows on the grid), each point's bandwidth found by bisection to give the perplexity; a dense symmetric
    matrix (at most ``LANDMARKS`` squared, in single precision: 4 MB) of multiples of ``2**-P_BITS``."""
    np = load_numpy()
    count = len(whole)
    k = min(count - 1, int(3 * perplexity))
    products = whole @ whole.T  # exact
    near = _nearest(np, products, k, skip=np.arange(count))
    similar = np.take_along_axis(products, near, 1) * 2.0 ** (-2 * GRID_BITS)
    distances = 2 - 2 * similar  # squared, between unit vectors
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
    return (np.round(joint * 2.0 ** P_BITS) * 2.0 ** -P_BITS).astype(np.float32)  # past exp's and log's noise


def _start(whole: Any) -> Any:
    """t-SNE's start: the points' two principal components, scaled to a spread of 1e-4 (small, as t-SNE wants),
    on a grid of ``2**-GRID_BITS`` of that spread, each axis pointed so that its largest coordinate is positive,
    and each point moved by a few steps of the grid (seeded; whole numbers): papers with the same vector (or none)
    would otherwise start on one spot and, their gradients the same to the bit, never leave it."""
    np = load_numpy()
    centred = whole - whole.mean(0)
    _, _, axes = np.linalg.svd(centred, full_matrices=False)
    position = centred @ axes[:2].T
    position = _on_grid(np, position / (position[:, 0].std() or 1.0))
    peak = position[np.abs(position).argmax(0), np.arange(position.shape[1])]
    position *= np.where(peak < 0, -1.0, 1.0)
    position += np.random.default_rng(SEED).integers(-JITTER, JITTER + 1, position.shape)
    return position * (1e-4 * 2.0 ** -GRID_BITS)


def _tsne(whole: Any) -> Any:
    """t-SNE of ``whole`` (unit rows on the grid) in two dimensions, exact gradient."""
    np = load_numpy()
    count = len(whole)
    joint = _affinities(whole, min(PERPLEXITY, (count - 1) / 3))
    position = _start(whole)
    rate = max(count / EXAGGERATION, 50.0)
    update, gains = np.zeros_like(position), np.ones_like(position)
    near, scratch = np.empty((count, count), dtype=np.float32), np.empty((2, ROWS, count), dtype=np.float32)
    exaggerated = joint * EXAGGERATION
    for step in range(ITERATIONS):
        early = step < EARLY_ITERATIONS
        gradient = _gradient(position, exaggerated if early else joint, near, scratch)
        gains = np.maximum(np.where((gradient > 0) == (update > 0), gains * 0.8, gains + 0.2), 0.01)
        update = (0.5 if early else 0.8) * update - rate * gains * gradient
        position = position + update
    return position - position.mean(0)


def _gradient(position: Any, joint: Any, near: Any, scratch: Any) -> Any:
    """t-SNE's gradient, every pair (van der Maaten 2008, eq. 5): 4 Σ_j (p_ij - q_ij) w_ij (y_i - y_j), with
    w_ij = 1 / (1 + |y_i - y_j|²) and q_ij = w_ij / Σ w; in single precision, ``near`` (``m × m``) becoming w,
    and ``scratch`` (``2 × ROWS × m``) holding ``ROWS`` rows at a time, so that a step allocates nothing large
    and a block's passes stay in the CPU's cache.

    Exactly rounded operations only, each over whole arrays, and numpy's pairwise sums along rows: no BLAS (a
    matrix product's order of summing is its kernel's), so every CPU gets the same bits."""
    np = load_numpy()
    axes = np.ascontiguousarray(position.T, dtype=np.float32)  # a coordinate a row: contiguous, for numpy's SIMD
    blocks = [slice(start, min(start + ROWS, len(near))) for start in range(0, len(near), ROWS)]
    sums = []
    for block in blocks:  # w, a block of rows at a time
        distance, square = scratch[0][:block.stop - block.start], scratch[1][:block.stop - block.start]
        distance.fill(1)
        for values in axes:
            np.subtract.outer(values[block], values, out=square)
            square *= square
            distance += square
        np.reciprocal(distance, out=near[block])
        np.fill_diagonal(near[block, block], 0)
        sums.append(near[block].sum(1))
    total = float(np.concatenate(sums).sum(dtype=np.float64))
    gradient = np.empty(position.shape)
    for block in blocks:  # Σ_j (p_ij - w_ij / Σ w) w_ij (y_i - y_j), a coordinate at a time
        force, apart = scratch[0][:block.stop - block.start], scratch[1][:block.stop - block.start]
        np.multiply(near[block], np.float32(-1 / total), out=force)
        force += joint[block]
        force *= near[block]
        for axis, values in enumerate(axes):
            np.subtract.outer(values[block], values, out=apart)
            apart *= force
            gradient[block, axis] = apart.sum(1)
    return 4 * gradient


def _place(whole: Any, landmarks: Any, placed: Any) -> Any:
    """Each point at the mean of its ``NEIGHBOURS`` most similar landmarks' places, the more similar weighing
    far more (``whole``, ``landmarks``: unit rows on the grid); in blocks, so that no matrix is larger than a
    few MB."""
    np = load_numpy()
    found = np.empty((len(whole), 2))
    k = min(NEIGHBOURS, len(landmarks))
    for start in range(0, len(whole), 2048):
        products = whole[start:start + 2048] @ landmarks.T  # exact
        near = _nearest(np, products, k)
        score = np.take_along_axis(products, near, 1) * 2.0 ** (-2 * GRID_BITS)
        weight = np.exp((score - score[:, :1]) / 0.05)  # the largest first: exp(0) = 1
        weight /= weight.sum(1, keepdims=True)
        found[start:start + 2048] = (weight[:, :, None] * placed[near]).sum(1)
    return found
