"""Indirect indexing in the Lean derivation: the ``tl.device_assert`` premise (stage: prove; no Lean needed).

A kernel that indexes through a loaded index (embedding, ``index_select``, ``gather``, ``x[idx]``) has, in its
terms, ``Expr.load`` leaves (an integer read from an index tensor) under an ``Expr.assume`` node (the
asserted value; ``workbench/kir/indirect.py``). The instance then states one premise per assume node,
``AssertHolds L v mask lo hi hasLo hasHi`` (``lean/Narrowing/Indirect.lean``), conjoined in ``Asserts L``, as
a hypothesis of ``kernel_safe`` and ``narrowing_exact``: an assumption about the inputs (the assert is
compiled away), never derived. The derivation uses it exactly where the checker does
(``workbench/check/trusted/intervals.py``, rule for ``ASSUME``): an assume node's interval is
``[lo(lo), hi(hi) - 1]`` from its bound operands' intervals, and only in a scope where the assert's mask is
known to be set (``Bounded.assume``); its value (loaded data, possibly through ``tl.where``/``+`` on data)
must agree, which it does where the loads' masks are set and their offsets agree, and where every data
operation has the same type in both kernels (the checker's ``PAYLOAD_TYPE``; anything else is refused by
name). A loaded value without ``other=`` is relied on only where its mask is known set (``DEFINED_VALUE``).

Limits (refused by name): one-sided asserts (no interval), ``//``/``%`` on loaded data, a data operation
whose type changes with the narrowing, an assume whose mask is not known set where it is used.
"""

from __future__ import annotations

import sympy

from workbench.errors import UnsupportedError
from workbench.lean.instance import Term, TermOp

_DATA_ARITH = frozenset({TermOp.ADD, TermOp.SUB, TermOp.MUL})
_CMPS = frozenset({TermOp.LT, TermOp.LE, TermOp.GT, TermOp.GE, TermOp.EQ, TermOp.NE})
_SAME_TYPE = "(Or.inl (by first | rfl | decide))"  # SameWrap with equal types in both kernels


def is_data(t: Term) -> bool:
    """Whether ``t``'s value depends on a loaded index other than through an assume node (which is an index
    term: its value is bounded by its premise)."""
    if t.op in (TermOp.LOAD, TermOp.FCONV):
        return True
    if t.op is TermOp.ASSUME:
        return False
    return any(is_data(a) for a in t.args)


def bool_text(b: bool) -> str:
    return "true" if b else "false"


def premise_text(t: Term, render, lane: str = "L") -> str:
    """``AssertHolds L v mask lo hi hasLo hasHi`` for assume node ``t`` (``render``: term -> Lean text)."""
    v, mask, lo, hi = t.args
    return (f"AssertHolds {lane} {render(v)} {render(mask)} {render(lo)} {render(hi)} "
            f"{bool_text(bool(t.value & 1))} {bool_text(bool(t.value & 2))}")


def _have(t: Term, scope) -> str | None:
    """The name of a ``have … : t.Agree …`` already emitted in ``scope`` or a parent (visible here)."""
    s = scope
    while s is not None:
        got = s.facts.get(("agree", t))
        if got is not None:
            return got
        s = s.parent
    return None


class IndirectRules:
    """Mixin of ``workbench.lean.derive.Derivation``: the rules for ``assume`` and loaded-data terms.

    Needs from the host: ``render``, ``where``, ``lane``, ``narrowed``, ``premises`` (assume term ->
    hypothesis name), ``bounded``, ``agree``, ``split``, ``fresh``, ``types``."""

    def known_set(self, mask: Term, scope) -> str | None:
        """A Lean term proving ``mask.eval (.narrow kernel.sizeArgs) L ≠ 0`` in ``scope``, or None."""
        s = scope
        while s is not None:
            for m, hyp in s.known:
                if m == mask:
                    return hyp
            s = s.parent
        if mask.op is TermOp.STRONG and mask.ty == "i1" and mask.value != 0:
            return "(by first | decide | simp [Expr.eval, Ty.wrap])"
        if mask.op is TermOp.AND:
            a, b = (self.known_set(x, scope) for x in mask.args)
            if a is not None and b is not None:
                return f"(Expr.mand_ne_zero_of_ne_zero {a} {b})"
        return None

    def assume_rule(self, t: Term, scope) -> tuple[str, sympy.Expr, sympy.Expr]:
        """``Bounded.assume``: the interval an assert's premise gives its value where its mask is set."""
        v, mask, lo, hi = t.args
        if t.value != 3:
            raise UnsupportedError(f"{self.where}: a one-sided device_assert ({'lower' if t.value == 1 else 'upper'} "
                                   f"bound only) on {self.render(v)[:60]} gives no interval; the Lean derivation "
                                   "needs both bounds")
        hyp = self.premises.get(t)
        if hyp is None:  # pragma: no cover - every assume node of the kernel has a premise
            raise UnsupportedError(f"{self.where}: assume node {self.render(t)[:60]} has no premise")
        hset = self.known_set(mask, scope)
        if hset is None:
            raise UnsupportedError(f"{self.where}: the device_assert on {self.render(v)[:60]} is used where its mask "
                                   f"{self.render(mask)[:60]} is not known to hold (its premise says nothing there)")
        hv = self.agree_data(v, scope)
        hm = self.agree_have(mask, scope)
        flo, fhi = self.bounded(lo, scope), self.bounded(hi, scope)
        return (f"(Bounded.assume {hyp} {hv} {hm} {hset} {flo.name} {fhi.name})", flo.lo, sympy.expand(fhi.hi - 1))

    def agree_have(self, t: Term, scope) -> str:
        """Emit ``have hN : t.Agree kernel.sizeArgs L := by ...`` (an index term) and return ``hN``."""
        got = _have(t, scope)
        if got is not None:
            return got
        name = self.fresh("ha")
        scope.facts[("agree", t)] = name
        s = scope.child("  ")
        self.agree(t, s)
        scope.w(f"have {name} : Expr.Agree kernel.sizeArgs {self.lane} {self.render(t)} := by")
        scope.lines.extend(s.lines)
        return name

    def agree_data(self, t: Term, scope) -> str:
        """A Lean term proving ``t.Agree kernel.sizeArgs L`` for an asserted value (loaded data under ``+ - *``,
        comparisons, masks, ``tl.where`` and casts), emitting ``have`` lines into ``scope`` where needed."""
        if not is_data(t):
            if t.op in (TermOp.WEAK, TermOp.BLOCK) or (t.op is TermOp.STRONG):
                return "True.intro"
            return self.agree_have(t, scope)
        args = t.args
        match t.op:
            case TermOp.LOAD:
                return self.agree_load(t, scope)
            case TermOp.CAST:
                return self.agree_data(args[0], scope)  # `(.cast t a).Agree` is `a.Agree`
            case TermOp.FCONV:
                return self.agree_data(args[0], scope)  # `(.fconv f t a).Agree` is `a.Agree`
            case op if op in _CMPS:
                return f"(And.intro {self.agree_data(args[0], scope)} {self.agree_data(args[1], scope)})"
            case op if op in _DATA_ARITH:
                self.same_type(t)
                a, b = self.agree_data(args[0], scope), self.agree_data(args[1], scope)
                return f"(And.intro {a} (And.intro {b} {_SAME_TYPE}))"
            case TermOp.AND | TermOp.OR:
                a, b = self.agree_data(args[0], scope), self.agree_data(args[1], scope)
                return f"(Or.inl (And.intro {a} (fun _ => {b})))"
            case TermOp.WHERE:
                self.same_type(t)
                c, a, b = (self.agree_data(x, scope) for x in args)
                return f"(And.intro {c} (And.intro (fun _ => {a}) (And.intro (fun _ => {b}) {_SAME_TYPE})))"
        raise UnsupportedError(f"{self.where}: {t.op.value} on loaded data ({self.render(t)[:60]}) has no Lean "
                               "agreement rule (only + - *, comparisons, masks, where and casts)")

    def same_type(self, t: Term) -> None:
        tw, tn = self.types(t)
        if tw != tn:
            raise UnsupportedError(f"{self.where}: {self.render(t)[:60]} computes on loaded data in {tw} in the wide "
                                   f"kernel and {tn} in the narrowed one (a narrowed size argument mixed into data; "
                                   "the checker's PAYLOAD_TYPE)")

    def agree_load(self, t: Term, scope) -> str:
        """``(.load p t off mask other).Agree``: the mask agrees; the offset where the mask is set; masked off,
        only with an ``other=`` (an unspecified value is relied on nowhere: it must be known set here)."""
        off, mask = t.args
        hset = self.known_set(mask, scope)
        if t.other is None and hset is None:
            raise UnsupportedError(f"{self.where}: the loaded index {self.render(t)[:60]} has no other= and is used "
                                   "where its mask is not known to hold (its value is unspecified there)")
        got = _have(t, scope)
        if got is not None:
            return got
        name = self.fresh("hd")
        scope.facts[("agree", t)] = name
        scope.w(f"have {name} : Expr.Agree kernel.sizeArgs {self.lane} {self.render(t)} := by")
        body = scope.child("  ")
        body.w("refine And.intro ?_ (And.intro ?_ ?_)")
        s1 = body.child("  ")
        self.agree(mask, s1)
        body.bullet(s1)
        s2 = body.child("  ")
        hk = self.fresh("hk")
        s2.w(f"intro {hk}")
        self.split(mask, hk, s2)
        self.agree(off, s2)
        body.bullet(s2)
        s3 = body.child("  ")
        hz = self.fresh("hz")
        s3.w(f"intro {hz}")
        s3.w("rfl" if t.other is not None else f"exact absurd {hz} {hset}")
        body.bullet(s3)
        scope.lines.extend(body.lines)
        return name


__all__ = ["IndirectRules", "is_data", "premise_text"]
