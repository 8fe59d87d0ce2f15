"""The device_assert premises of a parsed kernel, as certificate data (stage: check).

A kernel that indexes through a loaded index is certified under a premise about its inputs: each
``tl.device_assert`` that kir reads as an ``ASSUME`` node (``workbench.kir.indirect``) bounds a loaded value
on the lanes where its mask holds, and Triton compiles the assert away, so nothing checks it. The
certificate states every such premise (``CertPremises.asserts``, :class:`AssertPremise`) so that the rule can
compare it with a live compilation (``workbench.rule.binding``): *which value* (its IR term, in kernel
names), *which bounds* (each an expression in the shape symbols, through the size arguments' recorded
expressions, compared up to a renaming of the symbols), *under which mask* (its IR term).

A bound that is not built from constants and size arguments (kir accepts any index term) is recorded as
``kernel:<its IR term>`` and compared verbatim.
"""

from __future__ import annotations

import sympy

from workbench.check.certificate import KERNEL_TERM, AssertPremise
from workbench.kir import Op
from workbench.kir.build import IMPLICIT
from workbench.kir.nodes import Node, walk


def assert_premises(kernel) -> tuple[AssertPremise, ...]:
    """Every ASSUME node of ``kernel`` (a parsed ``workbench.kir.Kernel``), in source order."""
    names = {id(b.node): b.name for b in kernel.bindings}
    lines = {id(b.node): b.line for b in kernel.bindings}
    exprs = {p.name: p.expr for p in kernel.params if p.expr}
    out = []
    for n in walk(*kernel.roots()):
        if n.op is not Op.ASSUME:
            continue
        has_lo, has_hi = n.attr
        rest = list(n.args[2:])
        lo = _bound(rest.pop(0), exprs) if has_lo else None
        hi = _bound(rest.pop(0), exprs) if has_hi else None
        mask = n.args[1]
        true_mask = mask.op is Op.CONST and mask.attr == (1, False)
        out.append(AssertPremise(
            name=names.get(id(n), "v"), value=term(n.args[0]), lower=lo, upper=hi,
            mask="true" if true_mask else term(mask), where="" if true_mask else names.get(id(mask), term(mask)),
            line=lines.get(id(n), 0)))
    return tuple(sorted(out, key=lambda p: (p.line, p.name, p.value)))


def term(n: Node) -> str:
    """A node as a structural term in kernel names, one entry per distinct subterm, children first
    (``program_id:i32[0]; constexpr:i32[XBLOCK]; mul:i32(#0,#1); ...``; linear in the DAG's size): two nodes
    have the same term exactly when they are the same IR (names of arguments, not of shape symbols)."""
    index: dict[int, int] = {}
    parts = []
    for m in walk(n):
        index[id(m)] = len(parts)
        args = ",".join(f"#{index[id(a)]}" for a in m.args)
        attr = "" if m.attr is None else f"[{m.attr}]"
        parts.append(f"{m.op.name.lower()}:{m.type}{attr}" + (f"({args})" if m.args else ""))
    return "; ".join(parts)


def _bound(n: Node, exprs: dict[str, str]) -> str:
    """The bound as an expression in the shape symbols (sympy text), else ``kernel:<term>``."""
    got = _sym(n, exprs)
    return KERNEL_TERM + term(n) if got is None else str(sympy.expand(got))


def _sym(n: Node, exprs: dict[str, str]):
    from workbench.errors import InputError
    from workbench.symexpr import parse_any

    match n.op:
        case Op.CONST:
            return sympy.Integer(int(n.attr[0]))
        case Op.ARG:
            text = exprs.get(n.attr)
            if text is None:
                return None
            try:
                return parse_any(text, where=f"size argument {n.attr}")
            except InputError:
                return None
        case Op.CAST if n.attr == IMPLICIT:
            return _sym(n.args[0], exprs)  # a promotion: the value is unchanged
        case Op.NEG:
            a = _sym(n.args[0], exprs)
            return None if a is None else -a
        case Op.ADD | Op.SUB | Op.MUL:
            a, b = (_sym(x, exprs) for x in n.args)
            if a is None or b is None:
                return None
            return a + b if n.op is Op.ADD else a - b if n.op is Op.SUB else a * b
    return None  # lane indices, explicit casts (they may wrap), divisions: compared as IR terms


__all__ = ["assert_premises", "term"]
