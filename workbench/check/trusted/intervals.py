"""Interval rules of the trusted checker: every bound is recomputed here from the lane class, the
children's bounds and the certificate's choices (quotient and remainder rules), never read from it.

Stage: check (trusted). A mixin of :class:`~workbench.check.trusted.analysis.Analysis`; the laws are stated
in that module's docstring. Integer operations emit FITS_NARROW: an operation's exact value must fit its
type in the narrowed kernel, which is what makes one interval describe both kernels.
"""

from __future__ import annotations

from fractions import Fraction

from workbench import kir
from workbench.check.poly import Poly, nonneg_after_shift
from workbench.check.sidecond import Reason
from workbench.check.trusted.interval import (
    EMPTY,
    INTEGER_OPS,
    TOP,
    Interval,
    LaneClass,
    as_le,
    bits as _bits,
    iabs,
    iadd,
    isub,
    scale,
)
from workbench.kir import Node, Op


QUOTIENT_RULES = ("atom", "exact", "const", "numerator")
REMAINDER_RULES = ("divisor", "numerator")


class IntervalRules:
    """Bounds of integer nodes on a lane class (see the module docstring)."""

    def nonneg(self, p: Poly | None) -> bool:
        return p is not None and nonneg_after_shift(p, self.lower)

    def point(self, n: Node) -> Poly | None:
        lo, hi = self.bound(n, frozenset())
        return lo if lo is not None and lo == hi else None

    def bound(self, n: Node, c: LaneClass) -> Interval:
        if c == EMPTY:  # no lane: any interval holds, and nothing is required there
            return TOP
        k = (id(n), c)
        if k in self._bound:
            return self._bound[k]
        self._bound[k] = TOP  # cycle guard
        lo, hi = self._bound_rule(n, c)
        lo, hi = self._refine(n, c, lo, hi)
        self._bound[k] = Interval(lo, hi)
        if n.op in INTEGER_OPS and id(n) not in self.launch_nodes:
            # The exact value equals the computed one only if it fits the narrowed type (never wider than
            # the wide one); required for the interval to describe both kernels.
            self._fits(n, c, _bits(self.N[id(n)]) or 64, Reason.FITS_NARROW)
        return self._bound[k]

    def _fits(self, n: Node, c: LaneClass, bits: int, reason: Reason) -> None:
        # The type's own range: int1 is unsigned in Triton ([0, 1], zero-extended), wider integers are signed.
        lo, hi = self.bound(n, c)
        t = kir.IntType(bits)
        self.need(None if hi is None else Poly.const(t.max) - hi, reason, n, c, "upper")
        self.need(None if lo is None else lo - t.min, reason, n, c, "lower")

    def _bound_rule(self, n: Node, c: LaneClass) -> Interval:
        a = n.args
        red = self.bound_reduction(n)
        if red is not None:
            return red
        if id(n) in self.launch_nodes:
            if self.launch_axis(n) == "y" and (ynumel := self.no_y_tail()) is not None:
                # no y tail lane (launch.no_y_tail; its premise on YBLOCK is stated in the verdict)
                self.launch_premises.add("y")
                self.need(Poly.const(self.w.imax) - ynumel, Reason.NUMEL_FITS, n, frozenset(), "upper")
                return Poly.const(0), ynumel - 1
            return Poly.const(0), Poly.const(self.w.imax)
        match n.op:
            case Op.CONST:
                v = Poly.const(n.attr[0])
                return v, v
            case Op.ARG:
                p = self.params[n.attr]
                if p.kind not in ("size", "numel"):
                    return None, None
                v = self.p.size_value(n.attr)
                if p.kind == "numel":
                    self.need(Poly.const(self.w.imax) - v, Reason.NUMEL_FITS, n, frozenset(), "upper")
                return v, v
            case Op.CONSTEXPR | Op.PROGRAM_ID | Op.NUM_PROGRAMS | Op.ARANGE:
                return Poly.const(0), None
            case Op.ADD | Op.SUB | Op.NEG | Op.ABS | Op.MUL | Op.FLOORDIV | Op.MOD:
                return self._arith(n, c)
            case Op.LT | Op.LE | Op.GT | Op.GE | Op.EQ | Op.NE:
                if (self.key[id(n)], True) in c:
                    return Poly.const(1), Poly.const(1)
                if (self.key[id(n)], False) in c:
                    return Poly.const(0), Poly.const(0)
                decided = self.decided(n, c)  # a uniform comparison the certificate decides (DEAD_BRANCH)
                if decided is not None:
                    v = Poly.const(int(decided))
                    return v, v
                return Poly.const(0), Poly.const(1)
            case Op.AND | Op.OR:
                if _bits(n) == 1:
                    return Poly.const(0), Poly.const(1)
                return None, None
            case Op.CAST:
                if _bits(n) == 1:
                    return Poly.const(0), Poly.const(1)
                lo, hi = self.bound(a[0], c)
                tb, wb, nb = _bits(n), _bits(self.W[id(a[0])]), _bits(self.N[id(a[0])])
                if tb is None or wb is None:
                    return None, None
                if tb >= wb or (nb is not None and nb <= tb):
                    return lo, hi  # widening, or the operand already fits the target in N (agreement)
                half = 2 ** (tb - 1)
                if self.nonneg(None if hi is None else Poly.const(half - 1) - hi) and self.nonneg(
                    None if lo is None else lo + half
                ):
                    return lo, hi
                return Poly.const(-half), Poly.const(half - 1)
            case Op.BROADCAST:
                return self.bound(a[0], c)
            case Op.WHERE:
                if _bits(n) is None:
                    return None, None
                # The branches are bounded on the lanes where the condition holds / fails; refining with its
                # atoms needs their operands' exact values, whose fit conditions agreement emits. A branch
                # whose class is empty (a decided uniform condition) is taken on no lane: no bound needed.
                self.agree(a[0], c)
                ct, cf = self.extend(c, a[0], True), self.extend(c, a[0], False)
                if ct == EMPTY or cf == EMPTY:
                    return TOP if ct == cf else self.bound(a[2] if ct == EMPTY else a[1], cf if ct == EMPTY else ct)
                la, ha = self.bound(a[1], ct)
                lb, hb = self.bound(a[2], cf)
                return self._hull_lo(la, lb), self._hull_hi(ha, hb)
            case Op.ASSUME:
                # A device_assert premise on loaded data (kir.indirect): bounds only on lanes where its mask
                # holds, from its bound operands' own intervals (which agree there), never from a certificate.
                if not self.implies(c, a[1]):
                    return None, None
                has_lo, has_hi = n.attr
                lo = self.bound(a[2], c).lo if has_lo else None
                hi = self.bound(a[-1], c).hi if has_hi else None
                return lo, (None if hi is None else hi - 1)
            case Op.LOAD | Op.STORE | Op.PAYLOAD | Op.FCONST | Op.UNDEF | Op.ACC | Op.REDUCE | Op.SCAN:
                return None, None
            case Op.ROFFSET:
                raise AssertionError("ROFFSET outside a reduction kernel")
        raise AssertionError(f"no interval rule for {n.op}")  # every op is handled above

    def _hull_lo(self, x: Poly | None, y: Poly | None) -> Poly | None:
        if x is None or y is None:
            return None
        return x if self.nonneg(y - x) else y if self.nonneg(x - y) else None

    def _hull_hi(self, x: Poly | None, y: Poly | None) -> Poly | None:
        if x is None or y is None:
            return None
        return x if self.nonneg(x - y) else y if self.nonneg(y - x) else None

    def _arith(self, n: Node, c: LaneClass) -> Interval:
        a = n.args
        key = f"{self.key[id(n)]}@{self.class_key(c)}"
        match n.op:
            case Op.ADD:
                (l1, h1), (l2, h2) = self.bound(a[0], c), self.bound(a[1], c)
                return iadd(l1, l2), iadd(h1, h2)
            case Op.SUB:
                (l1, h1), (l2, h2) = self.bound(a[0], c), self.bound(a[1], c)
                return isub(l1, h2), isub(h1, l2)
            case Op.NEG:
                lo, hi = self.bound(a[0], c)
                return (None if hi is None else -hi), (None if lo is None else -lo)
            case Op.ABS:
                return iabs(self.bound(a[0], c), self.nonneg)
            case Op.MUL:
                (l1, h1), (l2, h2) = self.bound(a[0], c), self.bound(a[1], c)
                for (la, ha), (lb, hb) in (((l1, h1), (l2, h2)), ((l2, h2), (l1, h1))):
                    if la is not None and la == ha and la.is_const():
                        k = la.const_value()
                        if k >= 0:
                            return scale(lb, k), scale(hb, k)
                        return scale(hb, k), scale(lb, k)
                if self.nonneg(l1) and self.nonneg(l2):
                    return l1 * l2, (None if h1 is None or h2 is None else h1 * h2)
                for (la, ha), (lb, hb) in (((l1, h1), (l2, h2)), ((l2, h2), (l1, h1))):
                    # a point factor a >= 0 (a size, say) times any interval: [a*lo, a*hi]
                    if la is not None and la == ha and self.nonneg(la):
                        return (None if lb is None else la * lb), (None if hb is None else la * hb)
                return None, None
            case Op.FLOORDIV | Op.MOD:
                x, d = a
                ld, hd = self.bound(d, frozenset() if self.is_uniform(d) else c)
                self.need(None if ld is None else ld - 1, Reason.DIVISOR, d, frozenset() if self.is_uniform(d) else c, "lower")
                self.agree(d, frozenset() if self.is_uniform(d) else c)
                lx, hx = self.bound(x, c)
                if n.op is Op.MOD:
                    if not self.nonneg(lx):
                        return (None, None) if hd is None else (1 - hd, hd - 1)
                    rule = self.choose("remainder", key, REMAINDER_RULES, lambda r: self._mod_hi(r, hx, hd) is not None)
                    return Poly.const(0), self._mod_hi(rule, hx, hd)
                if not self.nonneg(lx):
                    return None, None
                rule = self.choose(
                    "quotient", key, QUOTIENT_RULES, lambda r: self._div_bound(r, lx, hx, ld, hd)[1] is not None
                )
                return self._div_bound(rule, lx, hx, ld, hd)
        raise AssertionError(n.op)

    @staticmethod
    def _mod_hi(rule: str, hx: Poly | None, hd: Poly | None) -> Poly | None:
        if rule == "divisor":
            return None if hd is None else hd - 1
        return hx

    def _div_bound(self, rule: str, lx, hx, ld, hd) -> Interval:
        zero = Poly.const(0)
        if hx is None:
            return zero, None
        if rule == "atom":
            a = self._floor_atom(lx, hx, ld, hd)
            return (zero, None) if a is None else (a, a)
        if rule == "exact":
            if ld is None or ld != hd:
                return zero, None
            q = (hx + 1).divide_exact(ld)
            # x <= d*Q - 1 gives x // d <= Q - 1 only for integer Q: require integer coefficients.
            if q is None or any(v.denominator != 1 for v in q.terms.values()):
                return zero, None
            return zero, q - 1
        if rule == "const":
            if ld is None or not ld.is_const() or ld.const_value() < 1:
                return zero, None
            cl = ld.const_value()
            lo = zero
            if hd is not None and hd.is_const():
                ch = hd.const_value()
                cand = (lx - (ch - 1)) * Fraction(1, ch)
                lo = cand if self.nonneg(cand) else zero
            return lo, hx * Fraction(1, cl)
        return zero, hx

    def _floor_atom(self, lx, hx, ld, hd) -> Poly | None:
        """Rule ``atom``: ``x // d`` with ``x`` the point ``P >= 0`` and ``d`` the constant point ``D >= 1`` is
        ``floor(P / D)`` (truncation is floor for a non-negative dividend), which is exactly the premises'
        auxiliary atom ``a = floor(p / den)`` when ``p * D == P * den`` (its defining facts
        ``p - den*a >= 0``, ``den*a - p + den - 1 >= 0`` are premises). The point ``[a, a]``; None when the
        premises have no such atom with a lower bound."""
        if lx is None or lx != hx or ld is None or ld != hd or not ld.is_const():
            return None
        d = ld.const_value()
        if d < 1 or d.denominator != 1:
            return None
        for atom in self.p.atoms:
            if atom.kind == "floor" and atom.name in self.lower and atom.args[0] * d == lx * atom.denominator:
                return Poly.sym(atom.name)
        return None

    def strip(self, n: Node) -> Node:
        """Skip value-preserving wrappers: broadcasts, implicit casts, widening casts, and narrowing casts
        of an operand whose narrowed type already fits the target (it agrees, so it fits)."""
        while True:
            if n.op is Op.BROADCAST:
                n = n.args[0]
            elif n.op is Op.CAST and _bits(n) not in (None, 1) and _bits(n.args[0]) not in (None, 1):
                tb, wb, nb = _bits(n), _bits(self.W[id(n.args[0])]), _bits(self.N[id(n.args[0])])
                if n.attr is not None or tb >= wb or (nb is not None and nb <= tb):
                    n = n.args[0]
                else:
                    return n
            else:
                return n

    def decompose(self, n: Node) -> tuple[Node, Poly] | None:
        """``n = v + K`` with ``v`` a node and ``K`` a lane-uniform point value (a function of ``n`` alone:
        memoised per run)."""
        got = self._decomposed.get(id(n))
        if got is None:
            got = self._decomposed[id(n)] = self._decompose(n)
        return got

    def _decompose(self, n: Node) -> tuple[Node, Poly] | None:
        n = self.strip(n)
        if n.op in (Op.ADD, Op.SUB):
            x, y = n.args
            py = self.point(y) if self.is_uniform(y) else None
            if py is not None:
                got = self.decompose(x)
                if got is not None:
                    return got[0], (got[1] + py if n.op is Op.ADD else got[1] - py)
            px = self.point(x) if self.is_uniform(x) else None
            if n.op is Op.ADD and px is not None:
                got = self.decompose(y)
                if got is not None:
                    return got[0], got[1] + px
        return n, Poly()

    def _refine(self, n: Node, c: LaneClass, lo: Poly | None, hi: Poly | None) -> Interval:
        if not c or c == EMPTY or _bits(n) in (None, 1):
            # a point (a size, a numel) is as tight as it gets; refining it would bound the atom's other
            # side, whose own refinement asks for this point again (a cycle the memo answers with TOP)
            return lo, hi
        sn = self.strip(n)
        if sn.op is Op.CONST:  # a constant's point is exact: an atom (1 < e) would only loosen it to hi(e) - 1
            return lo, hi
        base = frozenset(x for x in c if x in self.active)
        # A lane-uniform node (sizes and constants only) is refined by lane-uniform atoms only (a case
        # split's condition, a decided comparison). A lane atom (xindex < xnumel) says nothing about it
        # that the lane's own bound does not, and asking for the lane's bound there is a cycle (xindex's
        # refinement bounds xnumel, whose refinement bounds xindex), which the memo answers with TOP and
        # so would lose xindex <= xnumel - 1. Using fewer atoms is always sound.
        uniform = self.is_uniform(n)
        los, his = [], []
        for key, pol in sorted(c):
            atom = self.by_key[key]
            if atom.op not in (Op.LT, Op.LE, Op.GT, Op.GE, Op.EQ):
                continue
            if uniform and not self.is_uniform(atom):
                continue
            op = atom.op if pol else {Op.LT: Op.GE, Op.LE: Op.GT, Op.GT: Op.LE, Op.GE: Op.LT}.get(atom.op)
            if op is None:
                continue
            left, right = atom.args
            # normalise to  L <= R + delta
            for (l_node, r_node, delta) in as_le(op, left, right):
                dl = self.decompose(l_node)
                if dl is not None and self.strip(dl[0]) is sn:
                    _, rh = self.bound(r_node, base) if r_node is not None else (None, None)
                    if rh is not None:
                        his.append(rh + delta - dl[1])
                dr = self.decompose(r_node)
                if dr is not None and self.strip(dr[0]) is sn:
                    ll, _ = self.bound(l_node, base)
                    if ll is not None:
                        los.append(ll - delta - dr[1])
        # A constant candidate outside the node's narrowed type is no use: the node's FITS_NARROW cannot hold
        # with it, and the rule's own bound (kept when there is one) may be what makes it hold (mistral's
        # sliding window: ``r0_3 > x0 - 8`` bounds ``x0 = xindex % ks0`` by ``2**31 + 6``, its remainder rule
        # by ``ks0 - 1``). Every candidate and the rule's bound are valid bounds, so dropping one is sound.
        t = kir.IntType(_bits(self.N[id(n)]) or 64)
        if hi is not None:
            his = [h for h in his if not (h.is_const() and h.const_value() > t.max)]
        if lo is not None:
            los = [x for x in los if not (x.is_const() and x.const_value() < t.min)]
        return self._tightest(lo, los, lower=True), self._tightest(hi, his, lower=False)

    def _tightest(self, cur: Poly | None, cands: list[Poly], lower: bool) -> Poly | None:
        """Any candidate is a valid bound; prefer the mask-derived ones (the rule's own bound usually needs
        guards to compare), and among them one the cheap test shows tighter."""
        if not cands:
            return cur
        best = cands[0]
        for cand in cands[1:] + ([cur] if cur is not None else []):
            if best is None or (self.nonneg(cand - best) if lower else self.nonneg(best - cand)):
                best = cand
        return best

