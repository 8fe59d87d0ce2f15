"""The layers of ``workbench.lean`` point down (issue 27): no import circle, function-level imports included,
and no module over ~450 lines without a reason in its docstring."""

from __future__ import annotations

import ast
from pathlib import Path

import workbench.lean

PACKAGE = Path(workbench.lean.__file__).parent
LIMIT = 450


def _imports(path: Path) -> set[str]:
    """Modules of ``workbench.lean`` this file imports, anywhere in it (top level or inside a function)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "workbench.lean":
                out |= {a.name for a in node.names if (PACKAGE / f"{a.name}.py").exists()}
            elif node.module.startswith("workbench.lean."):
                out.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            out |= {a.name.split(".")[2] for a in node.names if a.name.startswith("workbench.lean.")}
    return out


def graph() -> dict[str, set[str]]:
    return {p.stem: _imports(p) - {p.stem} for p in sorted(PACKAGE.glob("*.py"))}


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan), each sorted."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def test_lean_package_has_no_import_circle():
    assert cycles(graph()) == []


def test_the_cycle_finder_finds_a_circle():
    # The six-file circle of before (emit -> derive -> agreement -> derive, emit -> remit -> emit) is found.
    g = {"emit": {"derive", "remit"}, "derive": {"agreement", "emit"}, "agreement": {"derive"}, "remit": {"emit"},
         "terms": set()}
    assert cycles(g) == [["agreement", "derive", "emit", "remit"]]


def test_lower_layers_import_no_higher_one():
    g = graph()
    for low in ("terms", "instance", "render", "scope", "polytext"):
        assert not g[low] & {"emit", "derive", "rderive", "remit", "agreement", "products"}, (low, g[low])


def test_no_lean_module_over_the_limit_without_a_reason():
    long = []
    for p in sorted(PACKAGE.glob("*.py")):
        text = p.read_text(encoding="utf-8")
        doc = ast.get_docstring(ast.parse(text)) or ""
        if len(text.splitlines()) > LIMIT and "Longer than" not in doc:
            long.append((p.name, len(text.splitlines())))
    assert long == []
