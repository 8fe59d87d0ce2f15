"""Render index terms and payloads as Lean text (stage: prove; deterministic, no Lean needed).

One ``Narrowing.Expr`` / ``Narrowing.Payload`` constructor application per node (``render_node``,
``render_payload``), shared subterms named ``e0, e1, ...`` in order of first post-order occurrence
(``TermNamer``), the fixed order of an instance's index terms (``term_roots``) and the ``def e*`` lines.
The pointwise emitter (``emit``), the reduction emitter (``remit``), the derivations and the structure
checks all print terms through this module, so it sits below all of them and imports none of them.
"""

from __future__ import annotations

from collections import Counter

from workbench.lean.errors import InstanceError
from workbench.lean.instance import LeanInstance
from workbench.lean.terms import Payload, PayloadOp, Term, TermOp

LEAN_TY = {"i1": ".i1", "i32": ".i32", "i64": ".i64"}
CMP_NAME = {TermOp.LT: ".lt", TermOp.LE: ".le", TermOp.GT: ".gt", TermOp.GE: ".ge", TermOp.EQ: ".eq", TermOp.NE: ".ne"}


def _children(t: Term) -> tuple[Term, ...]:
    return t.args


def _count_subterms(roots: list[Term]) -> tuple[Counter, list[Term]]:
    """Occurrence counts of every subterm and their first post-order appearance (deterministic)."""
    counts: Counter = Counter()
    order: list[Term] = []
    seen: set[Term] = set()

    def visit(t: Term) -> None:
        counts[t] += 1
        if counts[t] > 1:
            return  # children of a repeated subterm were already counted through its first occurrence
        for c in _children(t):
            visit(c)
        if t not in seen:
            seen.add(t)
            order.append(t)

    for r in roots:
        visit(r)
    return counts, order


class TermNamer:
    """Names subterms that occur more than once (and are not leaves) as ``e0, e1, ...``."""

    def __init__(self, roots: list[Term]) -> None:
        counts, order = _count_subterms(roots)
        self.names: dict[Term, str] = {}
        for t in order:
            if counts[t] > 1 and t.args:
                self.names[t] = f"e{len(self.names)}"

    def render(self, t: Term, top: bool = False) -> str:
        if not top and t in self.names:
            return self.names[t]
        return _render_node(t, self.render)

    def definitions(self) -> list[tuple[str, str]]:
        return [(name, self.render(t, top=True)) for t, name in self.names.items()]


def _int(c: int) -> str:
    return f"({c})" if c < 0 else str(c)


def _render_node(t: Term, sub) -> str:
    """One ``Narrowing.Expr`` constructor application; every op is handled on purpose."""
    match t.op:
        case TermOp.PROGRAM_ID | TermOp.NUM_PROGRAMS | TermOp.ARANGE | TermOp.BLOCK:
            return f"(.{t.op.value} {t.value})"
        case TermOp.LOOP_OFFSET:
            return ".loopOffset"
        case TermOp.SIZE:
            return f"(.size {t.value} {LEAN_TY[t.ty]})"
        case TermOp.WEAK:
            return f"(.weak {_int(t.value)})"
        case TermOp.STRONG:
            return f"(.strong {LEAN_TY[t.ty]} {_int(t.value)})"
        case TermOp.ADD | TermOp.SUB | TermOp.MUL | TermOp.FLOORDIV | TermOp.MOD | TermOp.AND | TermOp.OR:
            return f"(.{t.op.value} {sub(t.args[0])} {sub(t.args[1])})"
        case TermOp.LT | TermOp.LE | TermOp.GT | TermOp.GE | TermOp.EQ | TermOp.NE:
            return f"(.cmp {CMP_NAME[t.op]} {sub(t.args[0])} {sub(t.args[1])})"
        case TermOp.WHERE:
            return f"(.select {sub(t.args[0])} {sub(t.args[1])} {sub(t.args[2])})"
        case TermOp.CAST:
            return f"(.cast {LEAN_TY[t.ty]} {sub(t.args[0])})"
        case TermOp.ABS:
            return f"(.abs {sub(t.args[0])})"
        case TermOp.FCONV:
            return f"(.fconv {_string(t.name)} {LEAN_TY[t.ty]} {sub(t.args[0])})"
        case TermOp.LOAD:
            other = "none" if t.other is None else f"(some {_int(t.other)})"
            return f"(.load {t.value} {LEAN_TY[t.ty]} {sub(t.args[0])} {sub(t.args[1])} {other})"
        case TermOp.ASSUME:
            flags = f"{'true' if t.value & 1 else 'false'} {'true' if t.value & 2 else 'false'}"
            return f"(.assume {' '.join(sub(a) for a in t.args)} {flags})"
    raise InstanceError(f"no Lean rendering for term op {t.op}")  # pragma: no cover - every op is matched


def _payload_terms(p: Payload) -> list[Term]:
    out = [p.cond] if p.cond is not None else []
    for a in p.args:
        out += _payload_terms(a)
    return out


def _render_payload(p: Payload, sub) -> str:
    match p.op:
        case PayloadOp.LOAD:
            return f"(.load {p.index})"
        case PayloadOp.INT:
            return f"(.int {sub(p.cond)})"
        case PayloadOp.ACC:
            return f"(.acc {p.index})"
        case PayloadOp.REDUCE:
            return f"(.reduce {_string(p.name)} {_render_payload(p.args[0], sub)})"
        case PayloadOp.SCAN:
            return f"(.scan {_string(p.name)} {_render_payload(p.args[0], sub)})"
        case PayloadOp.CONST:
            return f"(.const {_string(p.name)})"
        case PayloadOp.UN:
            return f"(.un {_string(p.name)} {_render_payload(p.args[0], sub)})"
        case PayloadOp.BIN:
            return f"(.bin {_string(p.name)} {_render_payload(p.args[0], sub)} {_render_payload(p.args[1], sub)})"
        case PayloadOp.WHERE:
            return f"(.select {sub(p.cond)} {_render_payload(p.args[0], sub)} {_render_payload(p.args[1], sub)})"
    raise InstanceError(f"no Lean rendering for payload op {p.op}")  # pragma: no cover


def _doc(s: str) -> str:
    """Text safe inside a Lean comment (a `-/` would end it)."""
    return s.replace("-/", "- /").replace("/-", "/ -")


def _string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def reduction_roots(rk) -> list[Term]:
    """Every index term of a reduction kernel (``RKernelTerms``), in a fixed order (loads, stores, carries)."""
    out: list[Term] = []
    for ld in rk.loads:
        out += [ld.load.offset, ld.load.mask]
    for st in rk.stores:
        out += [st.store.offset, st.store.mask, *_payload_terms(st.store.value)]
    for c in rk.carries:
        out += [*_payload_terms(c.init), *_payload_terms(c.update)]
    return out


def term_roots(inst: LeanInstance) -> list[Term]:
    """Every index term of an instance in a fixed order (loads, store, payload conditions; a reduction's loads,
    stores and carries), for shared-subterm names and the list of assume nodes."""
    if inst.reduction is not None:
        return reduction_roots(inst.reduction)
    roots = [t for ld in inst.loads for t in (ld.offset, ld.mask)]
    return roots + [inst.store.offset, inst.store.mask] + _payload_terms(inst.store.value)


def definition_lines(namer: TermNamer) -> list[str]:
    """One ``def e*`` per shared subterm of an instance (pointwise and reduction kernels alike)."""
    lines: list[str] = []
    for name, body in namer.definitions():
        lines += ["/-- Shared subterm. -/", f"def {name} : Expr := {body}", ""]
    return lines


_TermNamer = TermNamer  # the name the structure checks and older callers use
payload_terms = _payload_terms
render_payload = _render_payload
