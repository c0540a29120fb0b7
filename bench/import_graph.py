"""The import graph of generator/ by package: its cycles, and the module imports that point up the layers.

    python bench/import_graph.py [--list]

Every import counts (module level, inside functions, under TYPE_CHECKING: grimp reads them all). The layers
are the contract's in pyproject.toml (docs/architecture.md), read from this repository; to measure another
checkout against them, put it first on the path: ``PYTHONPATH=/path/to/checkout python bench/import_graph.py``.
A package of that checkout the contract does not name has no layer, and its imports are not counted as up
or down. ``--list`` prints each import that points up.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

import grimp

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: import-linter brings tomli
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[1]


def layer_ranks() -> dict[str, int]:
    """Package (``commands``, ``model``…) → its layer's height, 0 the lowest; siblings share one."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    (contract,) = [c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    layers = list(reversed(contract["layers"]))
    return {name.strip(): height for height, layer in enumerate(layers) for name in layer.split("|")}


def package(module: str) -> str:
    return module.split(".")[1] if "." in module else ""


def cycles(edges: dict[str, set[str]]) -> list[set[str]]:
    """Packages that import each other round a loop: the strongly connected groups of more than one."""
    reach = {node: _reachable(node, edges) for node in edges}
    groups = {frozenset(n for n in reach if n in reach[node] and node in reach[n]) | {node} for node in edges}
    return sorted((set(g) for g in groups if len(g) > 1), key=len, reverse=True)


def _reachable(start: str, edges: dict[str, set[str]]) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for other in edges.get(todo.pop(), ()):
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return seen


def main() -> None:
    graph = grimp.build_graph("generator", cache_dir=None)
    ranks = layer_ranks()
    edges: dict[str, set[str]] = defaultdict(set)
    count, up = 0, []
    for module in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            count += 1
            a, b = package(module), package(imported)
            if a and b and a != b:
                edges[a].add(b)
                if a in ranks and b in ranks and ranks[a] <= ranks[b]:
                    up.append(f"{module} -> {imported}")
    packages = {package(m) for m in graph.modules if package(m)}
    print(f"{len(graph.modules)} modules, {count} module imports, {len(packages)} packages and top-level modules")
    for group in cycles(edges):
        print(f"a cycle of {len(group)} packages: {', '.join(sorted(group))}")
    if not cycles(edges):
        print("no cycle between packages")
    print(f"{len(up)} of {count} module imports point up or sideways (a layer's own siblings)")
    if "--list" in sys.argv:
        print("\n".join(up))


if __name__ == "__main__":
    main()
