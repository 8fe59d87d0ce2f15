"""Where each integer ``//`` and ``%`` of a kernel's IR stands in its text.

Stage: kir (text to terms, with positions). Input: a captured kernel (or anything :func:`workbench.kir.parse`
takes). Output: the parsed :class:`~workbench.kir.nodes.Kernel` and, for every ``x // d`` and ``x % d``
*written in the kernel function's own text*, its source span -> the IR node kir built for it.

Why: variant P (:mod:`workbench.rule.partial`) rewrites the text of exactly the division sites a partial
certificate names (by IR node key). A site kir derives from a helper call (``triton_helpers.div_floor_integer``
expands to ``//`` and ``%`` nodes) or from a scan's combine function has no span here, so P cannot compute it
in int32 and keeps it wide. Nodes are interned, so the same term written twice maps both spans to one node.

Node keys: :func:`node_keys` numbers every node of ``kernel.roots()`` in walk order (``n0``, ``n1``, ...), the
numbering the checker's certificates use (``workbench.check.trusted.analysis``).
"""

from __future__ import annotations

import ast
from typing import Any

from workbench.kir.nodes import Kernel, Node, walk
from workbench.kir.ops import Op
from workbench.kir.parser import _Parser, parse
from workbench.kir.types import IntType

__all__ = ["Position", "division_nodes", "division_spans", "node_keys"]

Position = tuple[int, int, int, int]  # (lineno, col_offset, end_lineno, end_col_offset) in the kernel text

DIVISION_OPS = (Op.FLOORDIV, Op.MOD)


def position(e: ast.AST) -> Position:
    return (e.lineno, e.col_offset, e.end_lineno or 0, e.end_col_offset or 0)


class _SpanParser(_Parser):
    """kir's parser, also recording the node built for every ``//``/``%`` of the kernel function's own AST
    (identified by object identity, so a helper's text with the same positions is never confused with it)."""

    def __init__(self, *args: Any):
        super().__init__(*args)
        self.spans: dict[Position, Node] = {}
        self._mine: set[int] = set()

    def _find_def(self, tree: ast.Module) -> ast.FunctionDef:
        fn = super()._find_def(tree)
        self._mine = {id(x) for x in ast.walk(fn)
                      if isinstance(x, ast.BinOp) and isinstance(x.op, (ast.FloorDiv, ast.Mod))}
        return fn

    def _expr(self, e: ast.expr) -> Any:
        got = super()._expr(e)
        if id(e) in self._mine and isinstance(got, Node):
            self.spans[position(e)] = got
        return got


def division_spans(record: Any) -> tuple[Kernel, dict[Position, Node]]:
    """``record``'s kernel parsed (exactly as :func:`workbench.kir.parse` parses it) and the node of every
    ``//``/``%`` written in its text, by source span in ``record.jit_source``."""
    kernel = parse(record, check_versions=False)  # the module checks and errors of the ordinary route
    exprs = {a.name: a.expr for a in record.size_args}
    exprs.update({n.name: n.expr for n in record.numels})
    helpers = "\n".join(t for _, t in getattr(record, "helper_sources", ()))
    p = _SpanParser(record.jit_source, dict(record.signature), record.name, record.grid_type, exprs,
                    record.program, helpers)
    again = p.run()
    if again.loads != kernel.loads or again.stores != kernel.stores:  # pragma: no cover (interned, deterministic)
        raise AssertionError(f"{record.name}: the span parser built another kernel than kir.parse")
    return kernel, p.spans


def node_keys(kernel: Kernel) -> dict[int, str]:
    """``id(node) -> "n<i>"`` over ``kernel.roots()`` in walk order: the checker's node keys."""
    return {id(n): f"n{i}" for i, n in enumerate(walk(*kernel.roots()))}


def division_nodes(kernel: Kernel, bits: int = 64) -> dict[str, Node]:
    """Every integer ``//``/``%`` node of ``bits`` bits reachable from ``kernel.roots()``, by node key (walk
    order): the candidate sites of variant P. Payload divisions (on loaded data) are ``Op.PAYLOAD`` nodes and
    never candidates: P leaves them as they are."""
    keys = node_keys(kernel)
    return {keys[id(n)]: n for n in walk(*kernel.roots())
            if n.op in DIVISION_OPS and isinstance(n.type, IntType) and n.type.bits == bits}
