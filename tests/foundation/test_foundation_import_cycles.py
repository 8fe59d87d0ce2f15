"""No import circles in the package (issue 27): a lower layer never imports a higher one.

The graph is static: every ``import``/``from ... import`` in every module of ``workbench/``, at module level
and inside functions alike (a lazy import only postpones a circle; it still ties the two modules together).
``from pkg import name`` is an edge to ``pkg.name`` when that is a module, else to ``pkg``; relative imports
are resolved. Edges into the root package ``workbench`` are left out: its ``__init__`` is a lazy facade that
every module implicitly imports first, and ``import workbench`` to find the package's folder orders nothing.
Each strongly connected component with more than one module is a circle and fails the test, naming its
modules and the import lines that close it."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "workbench"

# Circles owned by another developer's work in progress (issue 27 lists them), each named by two modules it
# contains; an entry is removed here when its circle is broken. The test fails on any other circle, and says
# when a listed one is gone.
KNOWN: dict[tuple[str, str], str] = {
}


def _known(comp: frozenset[str]) -> bool:
    return any(a in comp and b in comp for a, b in KNOWN)


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.lru_cache(maxsize=1)
def graph() -> dict[str, dict[str, int]]:
    """module -> {imported module: line of the first such import}."""
    modules = {_module(p): p for p in PACKAGE.rglob("*.py")}

    def resolve(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    edges: dict[str, dict[str, int]] = {m: {} for m in modules}
    for mod, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
                    for _ in range(node.level - 1):
                        base = base.rpartition(".")[0]
                    origin = base + (f".{node.module}" if node.module else "")
                else:
                    origin = node.module or ""
                targets = [f"{origin}.{a.name}" if f"{origin}.{a.name}" in modules else origin for a in node.names]
            else:
                continue
            for t in targets:
                target = resolve(t) if t.split(".")[0] == "workbench" else None
                if target and target not in (mod, "workbench"):
                    edges[mod].setdefault(target, node.lineno)
    return edges


def circles(edges: dict[str, dict[str, int]]) -> list[frozenset[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[frozenset[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.add(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    found.append(frozenset(comp))
    return found


def _describe(comp: frozenset[str], edges) -> str:
    inside = [f"{a} -> {b} (line {edges[a][b]})" for a in sorted(comp) for b in sorted(edges[a]) if b in comp]
    return "{" + ", ".join(sorted(comp)) + "}: " + "; ".join(inside)


def test_the_package_has_no_import_circle():
    edges = graph()
    new = [c for c in circles(edges) if not _known(c)]
    assert not new, "import circles (break each by moving what both need into a lower module):\n" + "\n".join(
        _describe(c, edges) for c in new)


def test_known_circles_are_still_there():
    """A listed circle that is gone must leave KNOWN (so the list never hides a new one of the same name)."""
    found = circles(graph())
    gone = [why for (a, b), why in KNOWN.items() if not any(a in c and b in c for c in found)]
    if gone:
        pytest.fail(f"broken circles still listed in KNOWN, remove them: {gone}")


def test_the_detector_finds_a_circle(tmp_path):
    """The detector bites: two modules importing each other inside functions form a circle."""
    edges = {"workbench.a": {"workbench.b": 3}, "workbench.b": {"workbench.c": 5}, "workbench.c": {"workbench.a": 9},
             "workbench.d": {"workbench.a": 1}}
    assert circles(edges) == [frozenset({"workbench.a", "workbench.b", "workbench.c"})]
    assert "workbench.c -> workbench.a (line 9)" in _describe(circles(edges)[0], edges)
