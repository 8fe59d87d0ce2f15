"""Agreement goals of a Lean derivation: the tactic lines that close ``Expr.Agree`` (a term has the same value in
the wide and the narrowed kernel), ``Load.Agree`` (mask, then offset under the mask) and the payload agreement
of stores, recursing through selects, payload structure and masks.

A mixin of :class:`workbench.lean.derive.Derivation` (which provides ``bounded``, ``fresh``, ``render``, the
side conditions and the lane); it also holds the lane terms the rules recognise (``XINDEX``, ``RINDEX``, ...).
"""

from __future__ import annotations

from workbench.errors import UnsupportedError
from workbench.lean.scope import Scope
from workbench.lean.terms import Payload, PayloadOp, Term, TermOp, arange, block, loop_offset, num_programs, program_id

XINDEX = program_id(0) * block(0) + arange(0)
YINDEX = (program_id(1) + program_id(2) * num_programs(1)) * block(1) + arange(1)
YINDEX_2D = program_id(1) * block(1) + arange(1)  # Grid2D: no z programs (Bounded.yindex2d)
RINDEX = loop_offset() + arange(2)  # r0_index = r0_offset + tl.arange(0, R0_BLOCK) (Narrowing/ReductionLanes.lean)
_CMP_LEMMA = {TermOp.LT: "lt", TermOp.LE: "le", TermOp.GT: "gt", TermOp.GE: "ge"}


class AgreementRules:
    """``agree``, ``agree_select``, ``split``, ``agree_payload`` (pointwise leaves), ``agree_payload_structure``
    and ``access``; :class:`~workbench.lean.rderive.RDerivation` overrides ``agree_payload`` for reductions."""

    def agree(self, t: Term, scope: Scope) -> None:
        """Emit tactic lines closing ``t.Agree kernel.sizeArgs L`` (by cases on the certificate's split atoms of
        ``t`` first, if it chose any: ``branches.BranchRules.case_split``)."""
        if self.case_split(t, scope):
            return
        match t.op:
            case TermOp.AND | TermOp.OR:
                first_right = t.op is TermOp.AND and self._is_range(t.args[1]) and not self._is_range(t.args[0])
                first, second = (t.args[1], t.args[0]) if first_right else (t.args[0], t.args[1])
                scope.w(f"refine {'Or.inr' if first_right else 'Or.inl'} (And.intro ?_ ?_)")
                s1 = scope.child("  ")
                self.agree(first, s1)
                scope.bullet(s1)
                hk = self.fresh("hk")
                s2 = scope.child("  ")
                s2.w(f"intro {hk}")
                if t.op is TermOp.AND:
                    self.split(first, hk, s2)
                self.agree(second, s2)
                scope.bullet(s2)
            case TermOp.LT | TermOp.LE | TermOp.GT | TermOp.GE | TermOp.EQ | TermOp.NE:
                fa, fb = self.bounded(t.args[0], scope), self.bounded(t.args[1], scope)
                scope.w(f"exact And.intro {fa.name}.agree {fb.name}.agree")
            case TermOp.WHERE if self.types(t) == ("i1", "i1"):
                self.agree_select(t.args[0], [t.args[1], t.args[2]], scope, integer=True)
            case TermOp.STRONG if t.ty == "i1":
                scope.w("exact True.intro")  # a constant mask (`tl.load(..., None)`, `tl.full([..], True, tl.int1)`)
            case _:
                scope.w(f"exact {self.bounded(t, scope).name}.agree")

    def agree_select(self, c: Term, branches, scope: Scope, integer: bool) -> None:
        tail = " (Or.inl rfl)" if integer else ""
        scope.w(f"refine And.intro ?_ (And.intro ?_ {'(And.intro ?_' + tail + ')' if integer else '?_'})")
        s0 = scope.child("  ")
        self.agree(c, s0)
        scope.bullet(s0)
        for br, pol in zip(branches, (True, False)):
            hk = self.fresh("hk")
            s = scope.child("  ")
            s.w(f"intro {hk}")
            if pol:
                self.split(c, hk, s)
            if isinstance(br, Payload):
                self.agree_payload(br, s)
            else:
                self.agree(br, s)
            scope.bullet(s)

    def _is_range(self, t: Term) -> bool:
        return t.op is TermOp.LT and t.args[0] in (XINDEX, YINDEX, YINDEX_2D, RINDEX, arange(2)) and t.args[1].op is TermOp.SIZE

    def split(self, mask: Term, hyp: str, scope: Scope) -> None:
        """Record the comparison atoms of a set mask ``mask`` (hypothesis ``hyp : mask.eval ≠ 0``), and every
        conjunct as a mask known set (an assert's mask, a loaded index's mask)."""
        scope.known = scope.known + ((mask, hyp),)
        if mask.op is TermOp.AND:
            h1, h2 = self.fresh("hk"), self.fresh("hk")
            scope.w(f"obtain ⟨{h1}, {h2}⟩ := Expr.ne_zero_of_mand_ne_zero {hyp}")
            self.split(mask.args[0], h1, scope)
            self.split(mask.args[1], h2, scope)
        elif mask.op in _CMP_LEMMA:
            scope.atoms = scope.atoms + ((mask, f"Expr.{_CMP_LEMMA[mask.op]}_of_cmp_ne_zero {hyp}"),)
            scope.own = scope.own + (mask,)

    def agree_payload(self, p: Payload, scope: Scope) -> None:
        match p.op:
            case PayloadOp.LOAD | PayloadOp.CONST:
                scope.w("exact True.intro")
            case PayloadOp.ACC | PayloadOp.REDUCE | PayloadOp.SCAN:
                raise UnsupportedError(f"{self.where}: accumulators, row reductions and scans belong to reduction "
                                       "kernels, not to a pointwise Kernel.Safe derivation")
            case PayloadOp.INT | PayloadOp.UN | PayloadOp.BIN | PayloadOp.WHERE:
                self.agree_payload_structure(p, scope)

    def agree_payload_structure(self, p: Payload, scope: Scope) -> None:
        """The payload cases whose proof only recurses (the same in pointwise and reduction kernels): an integer
        payload's term agrees; a unary or binary float operation's operands agree; a select's condition and
        branches agree. ``agree_payload`` is the subclass's own for the leaves."""
        match p.op:
            case PayloadOp.INT:
                self.agree(p.cond, scope)
            case PayloadOp.UN:
                self.agree_payload(p.args[0], scope)
            case PayloadOp.BIN:
                scope.w("refine And.intro ?_ ?_")
                for a in p.args:
                    s = scope.child("  ")
                    self.agree_payload(a, s)
                    scope.bullet(s)
            case PayloadOp.WHERE:
                self.agree_select(p.cond, list(p.args), scope, integer=False)
            case _:
                raise UnsupportedError(f"{self.where}: payload {p.op.name} is a leaf, not a structure")

    def access(self, mask: Term, offset: Term | None, scope: Scope) -> None:
        """Lines closing ``Load.Agree`` (``⟨mask agrees, mask ≠ 0 → offset agrees⟩``)."""
        scope.w("refine ⟨?_, ?_⟩")
        s1 = scope.child("  ")
        self.agree(mask, s1)
        scope.bullet(s1)
        s2 = scope.child("  ")
        hm = self.fresh("hm")
        s2.w(f"intro {hm}")
        self.split(mask, hm, s2)
        self.agree(offset, s2)
        scope.bullet(s2)
