"""Evaluate PTX element functions (``execute.Expr``) over arrays of float32 inputs (stage: floats/ptx).

``evaluate(e, xs)`` returns the stored bits (``uint32``) for inputs ``xs`` (one ``uint32`` array per kernel
input), applying ``semantics.apply`` node by node (shared subtrees once). ``implementation_defined(e)``
lists the instructions whose result the PTX ISA does not define bit for bit; such a function is never
evaluated. ``trace`` gives every instruction's value at one input, to name the instruction behind a
disagreement.
"""

from __future__ import annotations

import numpy as np

from workbench.floats.ptx.execute import Expr
from workbench.floats.ptx.semantics import DTYPE, TYPES, apply


def nodes(e: Expr) -> list[Expr]:
    seen: dict[int, Expr] = {}
    order: list[Expr] = []

    def visit(n: Expr) -> None:
        if id(n) in seen:
            return
        seen[id(n)] = n
        for a in n.args:
            visit(a)
        order.append(n)

    visit(e)
    return order


def implementation_defined(e: Expr) -> tuple[str, ...]:
    return tuple(sorted({f"{n.text} (PTX line {n.line})" for n in nodes(e)
                         if n.kind == "op" and n.op.implementation_defined}))


def evaluate(e: Expr, xs, canonical_nan: bool = True, memo: dict | None = None):
    memo = {} if memo is None else memo
    for n in nodes(e):
        if id(n) in memo:
            continue
        match n.kind:
            case "arg":
                v = np.asarray(xs[n.value], np.uint32)
            case "const":
                v = np.array(n.value, DTYPE[TYPES[n.ty]])[()]
            case "op":
                v = apply(n.op, [memo[id(a)] for a in n.args], canonical_nan)
            case _:
                raise AssertionError(n.kind)
        memo[id(n)] = v
    return memo[id(e)]


def evaluate_many(fns, xs, canonical_nan: bool = True) -> list[np.ndarray]:
    """Each function's stored bits, broadcast to the inputs' shape; shared subtrees are computed once."""
    memo: dict = {}
    shape = np.asarray(xs[0]).shape
    return [np.broadcast_to(np.asarray(evaluate(f, xs, canonical_nan, memo), np.uint32), shape) for f in fns]


def trace(e: Expr, inputs: tuple[int, ...]) -> list[str]:
    """``PTX line L: mnemonic -> 0x...`` for every instruction of ``e`` at one input (bit patterns)."""
    xs = [np.array([b], np.uint32) for b in inputs]
    memo: dict = {}
    evaluate(e, xs, True, memo)
    out = []
    for n in nodes(e):
        if n.kind == "op":
            v = np.asarray(memo[id(n)]).reshape(-1)[0]
            out.append(f"PTX line {n.line}: {n.text} -> {'0x%X' % int(v) if n.ty != 'pred' else bool(v)}")
    return out
