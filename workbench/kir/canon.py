"""Canonical form and hash of a kernel's IR.

Stage: kir. The canonical text numbers nodes in a deterministic walk (loads, then stores, children first),
names parameters by position (``p0``, ``p1``, ...) and shape symbols canonically (``S0``, ``S1``, ... in order
of first appearance over the parameters' expressions; ties broken by the lexicographically smallest text over
their permutations, so the choice never depends on the original names). Temporaries have no names in the IR,
so renaming them cannot change the hash; every semantic change (an extra use of a size, a changed cast,
literal or index) changes the text.

Kept in the hash: parameter kinds and declared types, block/grid structure, every node's op, type, attribute
and operands, the order of loads and stores, and integer divisions in statements no access uses (they execute). Not kept: kernel/program names, source lines, bindings.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import re

from workbench.kir.nodes import Kernel, dead_divisions, walk
from workbench.kir.ops import Op

_SYMBOL = re.compile(r"\b(?:s|u|ps)\d+\b")
MAX_PERMUTED = 6


def canonical_text(kernel: Kernel, facts: bool = True) -> str:
    pindex = {p.name: f"p{i}" for i, p in enumerate(kernel.params)}
    lines = [f"grid {kernel.grid} blocks {','.join(f'{b}:{a}' for b, a in kernel.blocks)}"]
    exprs = _canonical_exprs(kernel) if facts else {}
    for i, p in enumerate(kernel.params):
        extra = f" = {exprs[p.name]}" if p.name in exprs else ""
        lines.append(f"param p{i} {p.kind} {p.type if p.type is not None else 'constexpr'}{extra}")
    ids: dict[int, int] = {}
    cindex = {(c.name, c.loop): i for i, c in enumerate(kernel.carries)}
    for n in walk(*kernel.roots()):
        ids[id(n)] = len(ids)
        attr = n.attr
        if n.op in (Op.ARG, Op.LOAD, Op.STORE):
            attr = pindex.get(attr, attr)
        elif n.op is Op.ACC:  # by position among the carries: renaming an accumulator keeps the hash
            attr = ("carry", cindex[attr])
        args = " ".join(f"%{ids[id(a)]}" for a in n.args)
        lines.append(f"%{ids[id(n)]} = {n.op.name} {n.type} {attr!r} {args}".rstrip())
    dead = dead_divisions(kernel)
    for n in walk(*dead):  # divisions no access uses still execute: a hash that ignored them could bind a
        if id(n) in ids:  # kernel dividing by zero in an unused statement to the certificate of one without it
            continue
        ids[id(n)] = len(ids)
        attr = pindex.get(n.attr, n.attr) if n.op in (Op.ARG, Op.LOAD, Op.STORE) else n.attr
        args = " ".join(f"%{ids[id(a)]}" for a in n.args)
        lines.append(f"%{ids[id(n)]} = {n.op.name} {n.type} {attr!r} {args}".rstrip())
    if dead:
        lines.append("unused divisions " + " ".join(f"%{ids[id(n)]}" for n in dead))
    lines.append("loads " + " ".join(f"%{ids[id(n)]}" for n in kernel.loads))
    lines.append("stores " + " ".join(f"%{ids[id(n)]}" for n in kernel.stores))
    if kernel.reduction is not None:
        r = kernel.reduction
        numel = pindex.get(r.numel, r.numel) if r.numel is not None else f"static {r.static_numel}"
        block = pindex.get(r.block, r.block) if r.static_block is None else f"static {r.static_block}"
        lines.append(f"reduction numel {numel} block {block} loops {r.loops}")
        lines.append("load_loops " + " ".join(map(str, kernel.load_loops)))
        lines.append("store_loops " + " ".join(map(str, kernel.store_loops)))
        for i, c in enumerate(kernel.carries):
            lines.append(f"carry {i} loop {c.loop} init %{ids[id(c.init)]} update %{ids[id(c.update)]}")
    return "\n".join(lines) + "\n"


def canonical_hash(kernel: Kernel, facts: bool = True) -> str:
    """SHA-256 of :func:`canonical_text` (``facts=False``: the body alone, without size expressions)."""
    return hashlib.sha256(canonical_text(kernel, facts).encode()).hexdigest()


def _canonical_exprs(kernel: Kernel) -> dict[str, str]:
    items = [(p.name, p.expr) for p in kernel.params if p.expr is not None]
    if not items:
        return {}
    order: list[str] = []
    groups: list[list[str]] = []
    for _name, expr in items:
        fresh = sorted(set(_SYMBOL.findall(expr)) - set(order))
        if fresh:
            groups.append(fresh)
            order.extend(fresh)
    return dict(_best_renaming(tuple(items), tuple(tuple(g) for g in groups)))


@functools.lru_cache(maxsize=1024)
def _best_renaming(items: tuple[tuple[str, str], ...], groups: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, str], ...]:
    """The lexicographically smallest text over all orderings of each group of symbols that first appear in
    the same parameter (at most ``MAX_PERMUTED``! orderings per group; memoised, since a kernel with six tied
    symbols takes about a second)."""
    best: dict[str, str] | None = None
    best_key: str | None = None
    choices = [itertools.permutations(g) if len(g) <= MAX_PERMUTED else [tuple(g)] for g in groups]
    for combo in itertools.product(*[list(c) for c in choices]):
        flat = [s for g in combo for s in g]
        mapping = {s: f"S{i}" for i, s in enumerate(flat)}
        out = {name: _rename(expr, mapping) for name, expr in items}
        key = "\n".join(out[n] for n, _ in items)
        if best_key is None or key < best_key:
            best, best_key = out, key
    return tuple(sorted((best or {}).items()))


def _rename(expr: str, mapping: dict[str, str]) -> str:
    import sympy

    from workbench.kir.evaluator import _parse_size

    e = _parse_size(expr)
    sub = {s: sympy.Symbol(mapping[str(s)], integer=True, positive=True) for s in e.free_symbols if str(s) in mapping}
    return sympy.sstr(e.xreplace(sub), order="lex")
