"""Lane-uniform conditions of the trusted checker: comparisons decided by the premises (dead branches, empty
lane classes) and case splits on undecided ones.

Stage: check (trusted). A mixin of :class:`~workbench.check.trusted.analysis.Analysis`; no search, no caches
across runs. A comparison is *uniform* when both operands are built from constants and size arguments only
(no lane index, no data): it has the same value on every lane of one launch. Inductor writes many of them:
``div_floor_integer(ks1 - 1, 4)`` expands to ``where((ks1 - 1 < 0) != (4 < 0), where(r != 0, q - 1, q), q)``,
and ``Max(1, e)`` is printed ``1 * (1 >= e) + e * (e > 1)``.

**Decisions (DEAD_BRANCH).** The certificate may *choose* that a uniform comparison ``L op R`` has the value
``v`` on every lane of a class (only the uniform atoms of the class matter: they are the same on every lane).
The checker never takes the choice on trust: it emits the side conditions that show it, each a polynomial
``>= 0`` over the premises, computed here from the operands' intervals on that class, reason DEAD_BRANCH,
discharged like every other condition (exact procedure with multipliers, or z3):

* ``L < R`` everywhere: ``lo(R) - hi(L) - 1 >= 0`` (integers: ``R - L >= 1``); ``L <= R``: ``lo(R) - hi(L) >= 0``;
  ``L == R``: both ``lo(R) - hi(L) >= 0`` and ``lo(L) - hi(R) >= 0``; ``>``/``>=`` swap the operands; a
  negated comparison is decided by the opposite claim;
* the operands' intervals carry their own fit conditions (FITS_NARROW on the class), so both kernels compute
  the operands' exact values, which lie in the intervals: the comparison has value ``v`` in W and in N.

A decided comparison is the point ``[v, v]``; a lane class extended by it with polarity ``v`` is unchanged
(the condition holds on every lane), with polarity ``not v`` it is **empty** (:data:`EMPTY`): no lane, so no
bound, agreement or condition is required there (``where``'s dead branch, an ``&`` after a false uniform
conjunct, an access whose mask has one). The choice ``open`` decides nothing (no condition, the atom enters
the class as before).

**Case splits.** For an access's offset (and, in strict mode, an intermediate) the certificate may choose an
undecided uniform comparison ``u`` to split on: the offset must then agree on ``c & u`` and on ``c & not u``
(each with its own intervals and side conditions; ``u`` itself must agree on ``c``, so both kernels put a
lane in the same part). Every lane of ``c`` is in one of the two, so agreement on both is agreement on
``c``. Within each part ``u`` is a class atom: it is the point 0 or 1, it refines its operands (the mask
rules of :mod:`.intervals`), and comparisons it settles can be decided there (``Max(1, e)``: on ``e > 1``,
``1 >= e`` is decided false; on ``not e > 1`` it is decided true). A split is a choice of which atom, never a
bound.
"""

from __future__ import annotations

from workbench.check.poly import Poly
from workbench.check.sidecond import Reason
from workbench.check.trusted.interval import EMPTY, LaneClass, bits as _bits
from workbench.kir import Node, Op
from workbench.kir.ops import COMPARISON

# Options of a decision per comparison: the value it is claimed to have and, for ==/!=, on which side the
# operands lie when they differ. "open" decides nothing.
DECISIONS = {
    Op.LT: ("true", "false", "open"), Op.LE: ("true", "false", "open"),
    Op.GT: ("true", "false", "open"), Op.GE: ("true", "false", "open"),
    Op.EQ: ("true", "false<", "false>", "open"), Op.NE: ("false", "true<", "true>", "open"),
}
_SWAP = {Op.GT: Op.LT, Op.GE: Op.LE}
MAX_SPLITS = 2  # nested case splits the certificate may choose for one access or intermediate


class UniformRules:
    """Decided uniform comparisons and case splits (see the module docstring)."""

    def uniform_part(self, c: LaneClass) -> LaneClass:
        return frozenset(x for x in c if self.is_uniform(self.by_key[x[0]]))

    def is_uniform_comparison(self, n: Node) -> bool:
        return (n.op in COMPARISON and self.is_uniform(n)
                and all(_bits(x) is not None for x in n.args))

    def decision_claims(self, n: Node, cu: LaneClass, option: str) -> list[tuple[str, Poly | None]]:
        """The DEAD_BRANCH claims that show ``option`` for uniform comparison ``n`` on class ``cu``."""
        left, right = n.args
        op = n.op
        if op in _SWAP:
            op, left, right = _SWAP[op], right, left
        ll, hl = self.bound(left, cu)
        lr, hr = self.bound(right, cu)

        def le(lo_b, hi_a, delta=0):  # a <= b - delta everywhere, from hi(a) and lo(b)
            return None if lo_b is None or hi_a is None else lo_b - hi_a - delta

        lt_lr = le(lr, hl, 1)  # left < right
        ge_lr = le(ll, hr, 0)  # left >= right
        le_lr = le(lr, hl, 0)  # left <= right
        gt_lr = le(ll, hr, 1)  # left > right
        match (op, option):
            case (Op.LT, "true") | (Op.EQ, "false<") | (Op.NE, "true<"):
                return [("lt", lt_lr)]
            case (Op.LT, "false"):
                return [("ge", ge_lr)]
            case (Op.LE, "true"):
                return [("le", le_lr)]
            case (Op.LE, "false") | (Op.EQ, "false>") | (Op.NE, "true>"):
                return [("gt", gt_lr)]
            case (Op.EQ, "true") | (Op.NE, "false"):
                return [("le", le_lr), ("ge", ge_lr)]
        raise AssertionError(f"no decision {option!r} for {n.op}")

    def decided(self, n: Node, c: LaneClass) -> bool | None:
        """The value of comparison ``n`` on every lane of ``c`` when it is uniform and the certificate decides
        it (the DEAD_BRANCH conditions are emitted here), else None."""
        if c == EMPTY or not self.is_uniform_comparison(n):
            return None
        cu = self.uniform_part(c)
        k = self.key[id(n)]
        if (k, True) in cu:
            return True
        if (k, False) in cu:
            return False
        memo = (id(n), cu)
        if memo in self._decided:
            return self._decided[memo]
        self._decided[memo] = None  # cycle guard
        claims = {o: self.decision_claims(n, cu, o) for o in DECISIONS[n.op] if o != "open"}
        choice = self.choose("decide", f"{k}@{self.class_key(cu) or 'all'}", DECISIONS[n.op],
                             lambda o: o == "open" or self.provable(tuple(x for _, x in claims[o])))
        got = None
        if choice != "open":
            for end, claim in claims[choice]:
                self.need(claim, Reason.DEAD_BRANCH, n, cu, f"{choice}:{end}")
            got = choice.startswith("true")
        self._decided[memo] = got
        return got

    def refuted_on(self, n: Node, c: LaneClass, pol: bool) -> bool:
        """Whether comparison ``n`` (a lane comparison too) is shown to have the value ``not pol`` on every
        lane of ``c`` by its operands' intervals on ``c`` with *constant* claims (the same claims as a
        decision, each a number >= 0: nothing to discharge). Then ``c & (n == pol)`` has no lane
        (:meth:`extend` makes it :data:`EMPTY`). Sound for the same reason as a decision: the operands'
        intervals carry their fit conditions, so both kernels compare the exact values, which lie in them.
        ``(a op b) != 0`` and ``(a op b) == 0`` (Inductor's ``div_floor_integer`` sign tests) are the inner
        comparison and its negation. Only refutation empties a class; a comparison shown to hold enters the
        class as before (agreeing on more atoms is never weaker)."""
        got = self._lane_value(n, c, 0)
        return got is not None and got != pol

    def _lane_value(self, n: Node, c: LaneClass, depth: int) -> bool | None:
        if c == EMPTY or n.op not in COMPARISON or depth > 2:
            return None
        left, right = n.args
        if (n.op in (Op.NE, Op.EQ) and right.op is Op.CONST and right.attr[0] == 0
                and (left.op in COMPARISON or left.op is Op.BROADCAST and left.args[0].op in COMPARISON)):
            inner = left.args[0] if left.op is Op.BROADCAST else left
            got = self._lane_value(inner, c, depth + 1)
            return None if got is None else (got if n.op is Op.NE else not got)
        if any(_bits(x) in (None, 1) for x in n.args):
            return None
        memo = ("lane", id(n), c)
        if memo in self._decided:
            return self._decided[memo]
        self._decided[memo] = None  # cycle guard
        got = None
        for option in DECISIONS[n.op]:
            if option == "open":
                continue
            claims = self.decision_claims(n, c, option)
            if all(p is not None and p.is_const() and p.const_value() >= 0 for _, p in claims):
                got = option.startswith("true")
                break
        self._decided[memo] = got
        return got

    def provable(self, claims: tuple[Poly | None, ...]) -> bool:
        """Would these claims be proved? Only the search asks (through ``works``); the trusted run never
        does (the search's subclass answers)."""
        return True

    # -- case splits ----------------------------------------------------------------------------------------
    def split_atoms(self, n: Node, c: LaneClass) -> tuple[Node, ...]:
        """The atoms a split of ``n`` on ``c`` may choose: undecided uniform comparisons under ``n`` used as
        integers (an operand of arithmetic, through casts and broadcasts), in walk order. Comparisons used as
        conditions already split the class where they are used (``where``, ``&``, masks)."""
        from workbench import kir

        out: list[Node] = []
        for x in kir.walk(n):
            if x.op not in (Op.ADD, Op.SUB, Op.MUL, Op.NEG, Op.FLOORDIV, Op.MOD):
                continue
            for a in x.args:
                while a.op in (Op.CAST, Op.BROADCAST):
                    a = a.args[0]
                k = self.key[id(a)]
                if (self.is_uniform_comparison(a) and (k, True) not in c and (k, False) not in c
                        and all(a is not y for y in out) and self.decided(a, c) is None):
                    out.append(a)
        return tuple(out)

    def obligation(self, what: str, n: Node, c: LaneClass) -> None:
        """The obligations a case split distributes: ``agree`` (``n`` agrees on ``c``) or ``fits`` (strict
        mode: ``n`` fits int32 on ``c`` and its operands agree there)."""
        match what:
            case "agree":
                self.agree(n, c)
            case "fits":
                self._fits(n, c, self.w.int32, Reason.FITS_INT32)
                for x in n.args:
                    self.agree(x, c)
            case _:
                raise AssertionError(f"no obligation {what!r}")

    def cases(self, what: str, n: Node, c: LaneClass, depth: int = 0) -> None:
        """The obligation ``what`` of ``n`` on ``c``, or on the two parts of the certificate's case split of
        ``c`` (nested at most :data:`MAX_SPLITS` deep; module docstring)."""
        if c == EMPTY:
            return
        atoms = self.split_atoms(n, c) if depth < MAX_SPLITS else ()
        if not atoms:
            self.obligation(what, n, c)
            return
        options = ("none",) + tuple(self.key[id(a)] for a in atoms)
        choice = self.choose("split", f"{what}:{self.key[id(n)]}@{self.class_key(c) or 'all'}", options,
                             lambda o: self.split_works(what, n, c, o, depth))
        self.split(what, n, c, choice, depth)

    def split(self, what: str, n: Node, c: LaneClass, choice: str, depth: int) -> None:
        if choice == "none":
            self.obligation(what, n, c)
            return
        u = self.by_key[choice]
        self.agree(u, c)  # both kernels put every lane of c in the same part
        for pol in (True, False):
            self.cases(what, n, self.extend(c, u, pol), depth + 1)

    def split_works(self, what: str, n: Node, c: LaneClass, option: str, depth: int) -> bool:
        """Look-ahead for a split option: only the search asks (its subclass answers); the trusted run never
        does."""
        return True
