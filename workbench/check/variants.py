"""Premise variants of a captured kernel: the report's premises, and weakened ones that must be refused.

Stage: check. Each variant is a :class:`~workbench.capture.record.CapturedKernel` with the same kernel body
and changed symbolic facts (a record is data; nothing is re-captured). Used by the done-criterion tests, the
notebook and the mutant suite:

* :func:`report_premises`: report 1's premises for the nested-cat kernel: every symbol >= 1, the size
  expressions as captured (ks0 is the sum of the widths, numel = rows x total width), and only the guard
  ``numel <= 2**31-1``;
* :func:`without_total_width`: ks0 becomes an independent symbol (numel = rows x ks0 still guarded, each
  width still fits): the sum of widths the kernel computes in int32 can overflow;
* :func:`drop_guard`, :func:`weaken_guard`, :func:`with_lower_bound`, :func:`free_numel`,
  :func:`with_index_dtype`: one premise dropped or weakened at a time.
"""

from __future__ import annotations

import re
from dataclasses import replace

from workbench.capture.record import CapturedKernel, Numel, ShapeSymbol, SizeArg

INT32_MAX = 2**31 - 1
FREE = "s900"  # a fresh shape symbol for freed expressions (kir reads symbols as [a-z]+digits)


def numel_guard(k: CapturedKernel) -> str | None:
    """The guard ``<numel expression> <= 2147483647`` (the one Inductor installs for int32 indexing)."""
    exprs = {n.expr.replace(" ", "") for n in k.numels}
    for g in k.guards:
        m = re.fullmatch(r"(.+?)\s*<=\s*2147483647", g)
        if m and m.group(1).replace(" ", "") in exprs:
            return g
    return None


def report_premises(k: CapturedKernel) -> CapturedKernel:
    g = numel_guard(k)
    return replace(
        k,
        symbols=tuple(replace(s, lower=1) for s in k.symbols),
        guards=(g,) if g else (),
    )


def at_least_one(k: CapturedKernel) -> CapturedKernel:
    """Every symbol's lower bound lowered to 1 (report 1's "each width >= 1"), all guards kept."""
    return replace(k, symbols=tuple(replace(s, lower=min(s.lower or 1, 1)) for s in k.symbols))


def with_lower_bound(k: CapturedKernel, symbol: str, lower: int) -> CapturedKernel:
    return replace(k, symbols=tuple(replace(s, lower=lower) if s.name == symbol else s for s in k.symbols))


def drop_guard(k: CapturedKernel, guard: str) -> CapturedKernel:
    return replace(k, guards=tuple(g for g in k.guards if g != guard))


def weaken_guard(k: CapturedKernel, guard: str, factor: int = 2) -> CapturedKernel:
    """``p <= 2**31-1`` becomes ``p <= factor * 2**31`` (a bound that no longer keeps p in int32)."""
    new = guard.replace(str(INT32_MAX), str(factor * 2**31))
    return replace(k, guards=tuple(new if g == guard else g for g in k.guards))


def without_total_width(k: CapturedKernel, size_arg: str = "ks0", rows: str = "s66") -> CapturedKernel:
    """``size_arg`` becomes a free symbol ``s900 >= lower``; numel = rows x s900 (guarded); other guards kept
    (each width times rows still <= 2**31-1), so every width fits but nothing bounds their sum."""
    lower = min((s.lower or 1) for s in k.symbols)
    old = k.size_arg(size_arg).expr
    numel = f"{FREE}*{rows}"
    g = numel_guard(k)
    guards = tuple(f"{numel} <= {INT32_MAX}" if x == g else x for x in k.guards)
    return replace(
        k,
        size_args=tuple(SizeArg(a.name, FREE, a.type) if a.name == size_arg else a for a in k.size_args),
        numels=tuple(Numel(n.name, numel, n.type) for n in k.numels),
        symbols=k.symbols + (ShapeSymbol(FREE, lower, None, (f"free (was {old})",)),),
        guards=guards,
    )


def free_numel(k: CapturedKernel) -> CapturedKernel:
    """The element count becomes a free symbol (guarded <= 2**31-1) unrelated to the size arguments."""
    lower = min((s.lower or 1) for s in k.symbols)
    g = numel_guard(k)
    return replace(
        k,
        numels=tuple(Numel(n.name, FREE, n.type) for n in k.numels),
        symbols=k.symbols + (ShapeSymbol(FREE, lower, None, ("free numel",)),),
        guards=tuple(f"{FREE} <= {INT32_MAX}" if x == g else x for x in k.guards),
    )


def with_index_dtype(k: CapturedKernel, dtype: str = "tl.int64") -> CapturedKernel:
    return replace(k, index_dtype=dtype)


def weakened(k: CapturedKernel) -> dict[str, CapturedKernel]:
    """The weakened-premise variants of a kernel (each must be refused)."""
    g = numel_guard(k)
    out: dict[str, CapturedKernel] = {}
    if g:
        out["numel guard dropped"] = drop_guard(k, g)
        out["numel guard weakened to 2**32"] = weaken_guard(k, g)
    for s in k.symbols:
        out[f"lower bound of {s.name} = 0"] = with_lower_bound(k, s.name, 0)
    out["index dtype int64"] = with_index_dtype(k)
    return out
