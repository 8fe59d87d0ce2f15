"""Block layout: which axis of the tile each ``tl.arange`` varies along.

Stage: kir. The IR evaluates a node at a *lane*, reading ``tl.arange(0, B)`` as the lane's position on B's
axis; subscripts (``[:, None]``, ``[None, :]``, ``[:]``) are shape-only, so the same interned node stands for
the arange wherever it is placed. That is exact only when every arange lies along its own axis of the tile:

* ``x[:, None]`` puts ``x``'s values on axis 0, ``x[None, :]`` on axis 1, and a 1-D value without a
  subscript is right-aligned by broadcasting (``language/semantic.py`` ``broadcast_impl_value``): axis 1;
* a reduction's tile is ``[XBLOCK, R0_BLOCK]`` (the only form Inductor emits): ``tl.arange(0, XBLOCK)[None, :]``
  there varies along r, not along x, and a mask built from it is *not* the x range mask whatever node it
  interns to;
* elsewhere (1-D kernels, 2-D pointwise grids, which Inductor lays out either as ``[YBLOCK, XBLOCK]`` or as
  ``[XBLOCK, YBLOCK]``) each block keeps the placement it was first given, and two blocks never share an
  axis; mixing placements of one block builds a tile whose lanes the IR does not model.

A placement against these rules is refused by name ("block layout"). Reductions over r (``tl.sum(v, 1)``)
leave values that vary along axis 0 only, so the blocks of a value placed on axis 0 are read through them
without R0_BLOCK. A reduction's 1-D result (:class:`~workbench.kir.reduction.Row`) is usable only through
``[:, None]`` (the parser refuses every other use by the same name, "block layout"). ``[:, None]`` and
``[None, :]`` add an axis, so they are read only on values written 1-D (:func:`one_dimensional`: a
``tl.arange``, a ``tl.full([B], ...)``, a Row); on any other value they are refused, never read as the identity
of a 2-D value (which Triton makes 3-D).
"""

from __future__ import annotations

import ast
from typing import Any

from workbench.kir.nodes import Node
from workbench.kir.ops import Op

COL, ROW, FLAT, FULL = "[:, None]", "[None, :]", "[:]", "[:, :]"


def placement(parts: list[ast.expr]) -> str:
    kinds = ["none" if isinstance(p, ast.Constant) else "colon" for p in parts]
    match kinds:
        case ["colon"]:
            return FLAT
        case ["colon", "none"]:
            return COL
        case ["none", "colon"]:
            return ROW
        case ["colon", "colon"]:
            return FULL
    return "other"


def one_dimensional(e: ast.expr) -> bool:
    """``e`` is written as a 1-D block: ``tl.arange(...)`` or ``tl.full([B], ...)`` (a one-element shape). Only
    such values (and a reduction's :class:`~workbench.kir.reduction.Row` result) may take ``[:, None]`` or
    ``[None, :]``: on a 2-D value the subscript adds a third axis (red team ``red2-subscript-of-2d-value``)."""
    if not isinstance(e, ast.Call):
        return False
    func = ast.unparse(e.func)
    if func == "tl.arange":
        return True
    shape = e.args[0] if e.args else next((k.value for k in e.keywords if k.arg == "shape"), None)
    return func == "tl.full" and isinstance(shape, (ast.List, ast.Tuple)) and len(shape.elts) == 1


def tile_axes(parser: Any) -> tuple[frozenset[str], frozenset[str]] | None:
    """The block names of axis 0 and axis 1 of a reduction's tile; None elsewhere (placements by first use)."""
    if parser.is_reduction or parser.r_block is not None or parser.r_static_block is not None:
        return frozenset({"XBLOCK"}), frozenset({"R0_BLOCK"})
    return None


def _blocks(n: Node, through_reduce: bool) -> set[str]:
    out: set[str] = set()
    seen: set[int] = set()
    stack = [n]
    while stack:
        m = stack.pop()
        if id(m) in seen:
            continue
        seen.add(id(m))
        if m.op is Op.ARANGE:
            out.add(m.attr[1])
        if m.op is Op.REDUCE and not through_reduce:
            continue  # a reduction over r: one value per row (axis 0 only)
        stack.extend(m.args)
    return out


def place(parser: Any, base: Node, kind: str, text: str) -> None:
    """Check that ``base`` placed by subscript ``kind`` keeps every arange on its own axis."""
    if kind == FULL or (kind == FLAT and base.op is not Op.ARANGE):
        return
    if kind == FLAT:
        kind = ROW  # a 1-D arange: right-aligned
    blocks = _blocks(base, through_reduce=kind != COL)
    axes = tile_axes(parser)
    if axes is None:
        for b in sorted(blocks):
            first = parser.placed.setdefault(b, kind)
            if first != kind:
                raise parser.refuse("block layout", f"{text}: {b} placed as {kind} and as {first}",
                                    "lay each block along one axis")
            other = [o for o, k in parser.placed.items() if k == kind and o != b]
            if other:
                raise parser.refuse("block layout", f"{text}: {b} and {other[0]} both placed as {kind}",
                                    "lay each block along its own axis")
        return
    allowed = axes[0] if kind == COL else axes[1]
    if not blocks <= allowed:
        raise parser.refuse("block layout", f"{text}: {', '.join(sorted(blocks - allowed))} laid along the "
                            f"{'first' if kind == COL else 'second'} axis of the tile",
                            "Inductor lays XBLOCK/YBLOCK/R0_BLOCK each along its own axis")


def bare_arange(parser: Any, call: ast.Call, block: str) -> None:
    """A ``tl.arange`` not under a subscript is 1-D: right-aligned (axis 1 of a 2-D tile)."""
    if any(call in ast.walk(v) for v in parser.placing):
        return
    place(parser, _Arange(block), ROW, ast.unparse(call)[:60])


class _Arange:  # a stand-in carrying only what ``place`` reads
    op = Op.ARANGE
    args: tuple = ()

    def __init__(self, block: str) -> None:
        self.attr = (0, block)
