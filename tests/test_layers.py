"""The house's shape: layers that only point down, one name per class, comments that name modules that exist.

The layers themselves are the import-linter contract in pyproject.toml (docs/architecture.md), which
.ci/run checks with ``lint-imports``; these tests hold the same line in the fast lane and the rules a
contract cannot state.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections import defaultdict
from pathlib import Path

import grimp
from importlinter.cli import lint_imports

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "generator"
OUTPUT = REPO / "bench" / "out"  # what the benchmarks write (git-ignored): the peers' virtual environment, sources
# Names in comments that are not modules of ours: the Python port of lunr.js, a Pelican site's settings.
NOT_OURS = {"lunr.py", "pelicanconf.py"}


def package_of(module: str) -> str:
    """``generator.pipeline`` for ``generator.pipeline.stages``; a top-level module is its own package."""
    return ".".join(module.split(".")[:2])


def package_cycles(edges: dict[str, set[str]]) -> list[set[str]]:
    """The groups of packages that import each other, directly or round a loop (Tarjan's components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in edges.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = {stack.pop()}
            while node not in group:
                group.add(stack.pop())
            if len(group) > 1:
                cycles.append(group)

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return cycles


def test_package_cycles_are_found():
    """The check below can fail: a loop of three packages is one cycle, a package importing down none."""
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert package_cycles(edges) == [{"a", "b", "c"}]
    assert package_cycles({"a": {"b"}, "b": set()}) == []


def test_no_two_packages_import_each_other():
    # grimp counts every import: at module level, inside a function, under TYPE_CHECKING.
    graph = grimp.build_graph("generator", cache_dir=None)
    edges: dict[str, set[str]] = defaultdict(set)
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            if package_of(module) != package_of(imported) and imported != "generator":
                edges[package_of(module)].add(package_of(imported))
    assert package_cycles(edges) == []


def test_the_layers_contract_is_kept(monkeypatch):
    monkeypatch.chdir(REPO)
    assert lint_imports(config_filename=str(REPO / "pyproject.toml"), no_cache=True, no_logo=True) == 0


def test_no_two_classes_share_a_name():
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                found[node.name].append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert {name: places for name, places in found.items() if len(places) > 1} == {}


def prose(source: str) -> list[tuple[int, str]]:
    """The comments and docstrings of a module, each with its line."""
    texts = [(token.start[0], token.string) for token in tokenize.generate_tokens(io.StringIO(source).readline)
             if token.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body[0] if node.body else None
            if isinstance(body, ast.Expr) and isinstance(body.value, ast.Constant) and isinstance(body.value.value,
                                                                                                  str):
                texts.append((body.lineno, body.value.value))
    return texts


def missing_module(named: str, path: Path, modules: set[str]) -> bool:
    """Whether ``named`` (``cache.py``, ``runtime/cache.py``, ``generator/search/``) names nothing of ours:
    a bare name in generator/ is looked for in the module's own package, then at the top of generator/."""
    name = named.removeprefix("generator/")
    if name in NOT_OURS:
        return False
    if name.endswith("/"):
        return not (PACKAGE / name).is_dir() and not (REPO / named).is_dir()
    if "/" in name:
        return name not in modules and not (REPO / named).exists()
    if not path.is_relative_to(PACKAGE):  # a test or a benchmark: the one module of that name
        return sum(module.rsplit("/", 1)[-1] == name for module in modules) != 1 and not (path.parent / name).exists()
    here = path.parent.relative_to(PACKAGE).as_posix()
    sibling = name if here == "." else f"{here}/{name}"
    return not (sibling in modules or name in modules)


MODULE_NAME = r"(?<![\w/.-])((?:generator/)?(?:[a-z_]+/)*[a-z_]+(?:\.py|/)(?![\w/]))"


def test_no_comment_names_a_module_that_is_gone():
    modules = {path.relative_to(PACKAGE).as_posix() for path in PACKAGE.rglob("*.py")}
    gone = []
    bench = [path for path in (REPO / "bench").rglob("*.py") if OUTPUT not in path.parents]  # (not a venv there)
    for path in sorted([*PACKAGE.rglob("*.py"), *bench, *(REPO / "tests").rglob("*.py")]):
        source = path.read_text(encoding="utf-8")
        if not any(names_gone(source, path, modules)):
            continue  # nothing in the whole file names a module that is gone: its prose cannot (no tokenizing)
        for line, text in prose(source):
            gone += [f"{path.relative_to(REPO)}:{line}: {named}" for named in names_gone(text, path, modules)]
    assert gone == []


def names_gone(text: str, path: Path, modules: set[str]) -> list[str]:
    return [named for named in re.findall(MODULE_NAME, text)
            if (named.endswith(".py") or named.startswith("generator/")) and missing_module(named, path, modules)]


def test_no_doc_names_a_module_that_is_gone():
    """docs/ and bench/README.md name modules by their path in generator/ (``runtime/cache.py``)."""
    modules = {path.relative_to(PACKAGE).as_posix() for path in PACKAGE.rglob("*.py")}
    gone = []
    for path in sorted([*(REPO / "docs").rglob("*.md"), REPO / "bench" / "README.md"]):
        for line, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for named in re.findall(MODULE_NAME, text):
                if "/" in named.rstrip("/") and named.endswith(".py") and missing_module(named, path, modules):
                    gone.append(f"{path.relative_to(REPO)}:{line}: {named}")
    assert gone == []


def test_a_module_that_is_gone_is_found():
    modules = {"runtime/cache.py", "search/index.py"}
    here = PACKAGE / "pipeline" / "stages.py"
    assert missing_module("pipeline/cache.py", here, modules)
    assert missing_module("archive.py", here, modules)
    assert not missing_module("runtime/cache.py", here, modules)
    assert not missing_module("generator/search/", here, modules)
    assert not missing_module("index.py", REPO / "tests" / "test_search.py", modules)  # the one index.py
    assert missing_module("index.py", here, modules)  # not pipeline/'s


MOST_LINES = 400  # a module longer than this holds two concerns (docs/architecture.md)


def test_no_module_or_theme_script_is_over_the_line_limit():
    files = [*PACKAGE.rglob("*.py"), *(REPO / "themes").rglob("*.js")]
    over = {str(path.relative_to(REPO)): count for path in files
            if (count := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES}
    assert len(files) > 150 and not over, over
