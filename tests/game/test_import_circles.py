"""No project module imports another that (through others) imports it back, within a package or across
packages: the rules core, its phases, the systems, the service, the renderer, the bot and its cogs,
and the command line are one graph. Imports inside functions and under TYPE_CHECKING count too, since
hiding an import in a function leaves the circle where it was (issue 16, issue 23 item 7). flow owns
the order of the phases (the phases hand back through ctx.flow); render.pooled draws through
render.board and render.replay, which never import it back."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("game", "render", "bot", "cli", "web")

def _modules() -> dict[str, Path]:
    """Every module of the project by its dotted name; a package by its own name (its __init__)."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _imports(name: str, source: str, is_package: bool, known: set[str]) -> set[str]:
    """The project modules one module's source imports, wherever the import statement stands.
    `from pkg import x` depends on the module pkg.x when there is one, else on pkg itself."""
    deps: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                deps.add(sub if sub in known else module)
        elif isinstance(node, ast.Import):
            deps.update(alias.name for alias in node.names)
    return (deps & known) - {name}


def _with_packages(name: str, deps: set[str], known: set[str]) -> set[str]:
    """Importing a.b.c first runs a/__init__ and a/b/__init__: those packages are imported too,
    except the importer's own, which are already under way when it runs."""
    own = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)}
    packages = {".".join(d.split(".")[:i]) for d in deps for i in range(1, d.count(".") + 1)}
    return deps | ((packages & known) - own - {name})


@cache  # read once: the tests only derive new graphs from it
def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {
        name: _with_packages(
            name, _imports(name, path.read_text(encoding="utf-8"), path.name == "__init__.py", known), known)
        for name, path in modules.items()
    }


def _groups(graph: dict[str, set[str]]) -> list[set[str]]:
    """The groups of modules that reach one another (Tarjan's strongly connected components): every
    circle the graph holds runs inside one."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group: set[str] = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for start in sorted(graph):
        if start not in index:
            visit(start)
    return groups


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle through each group, as a path that ends where it starts."""
    return [_path_round(graph, group) for group in _groups(graph)]


def _path_round(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """The shortest way from the group's first module back to itself, inside the group."""
    start = min(group)
    came: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for node in frontier:
            for nxt in sorted(graph[node] & group):
                if nxt == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came[path[-1]])
                    return [*reversed(path), start]
                if nxt not in came:
                    came[nxt] = node
                    following.append(nxt)
        frontier = following
    raise AssertionError(f"{sorted(group)} do not reach one another")


def test_no_module_imports_itself_back() -> None:
    circles = _circles(_graph())
    assert circles == [], "import circles:\n" + "\n".join(" -> ".join(c) for c in circles)


def test_every_package_is_in_the_graph() -> None:
    graph = _graph()
    packages = {p.parent for package in PACKAGES for p in (ROOT / package).rglob("__init__.py")}
    for folder in packages:
        name = ".".join(folder.relative_to(ROOT).parts)
        assert name in graph
        for path in folder.glob("*.py"):
            if path.stem != "__init__":
                assert f"{name}.{path.stem}" in graph
    for name in ("game.phases.flow", "game.service.game_service", "bot.cogs.game", "cli.main", "render.pooled"):
        assert name in graph


def test_imports_are_read_wherever_they_stand() -> None:
    known = {"p", "p.a", "p.b", "p.c", "p.sub", "p.sub.d", "q"}
    source = (
        "from __future__ import annotations\n"
        "from typing import TYPE_CHECKING\n"
        "from .. import a\n"  # relative, naming a module
        "from ..b import thing\n"  # relative, naming a name in a module
        "from p.sub import helper\n"  # a name in a package: the package
        "if TYPE_CHECKING:\n"
        "    import q\n"
        "def f() -> None:\n"
        "    from .d import deferred\n"
        "    from p import c\n"
        "    import os\n"
    )
    assert _imports("p.sub.x", source, False, known) == {"p.a", "p.b", "p.c", "p.sub", "p.sub.d", "q"}
    # in a package's __init__, one dot is the package itself
    assert _imports("p.sub", "from . import d\nfrom .. import a\n", True, known) == {"p.sub.d", "p.a"}


def test_an_import_runs_the_packages_above_it_but_not_the_importer_s_own() -> None:
    known = {"p", "p.sub", "p.sub.d", "p.e", "q", "q.r"}
    assert _with_packages("p.e", {"p.sub.d", "q.r"}, known) == {"p.sub.d", "p.sub", "q.r", "q"}
    assert _with_packages("p.sub", {"p.sub.d"}, known) == {"p.sub.d"}


def test_the_check_finds_a_circle() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    assert _circles({"a": {"b"}, "b": {"c"}, "c": set()}) == []
    assert _circles({"a": {"b", "d"}, "b": {"a"}, "d": {"e"}, "e": {"d"}}) == [["d", "e", "d"], ["a", "b", "a"]]


@pytest.mark.parametrize("package", ["game.phases", "render", "bot"])
def test_a_circle_planted_in_a_package_is_found(package: str) -> None:
    graph = _graph()
    first, second = sorted(n for n in graph if n.startswith(package + "."))[:2]
    planted = {**graph, first: graph[first] | {second}, second: graph[second] | {first}}
    assert any({first, second} <= group for group in _groups(planted))
