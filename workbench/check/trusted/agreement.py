"""Agreement rules of the trusted checker: which nodes must compute the same value in the wide and the
narrowed kernel on which lanes, and the structural conditions (tail lanes masked, no unspecified value
stored) that make the per-lane statement about memory.

Stage: check (trusted). A mixin of :class:`~workbench.check.trusted.analysis.Analysis`.
"""

from __future__ import annotations


from workbench import kir
from workbench.check.errors import OutOfClassError
from workbench.check.poly import Poly
from workbench.check.sidecond import Reason
from workbench.check.trusted.interval import EMPTY, INTEGER_OPS, LaneClass, bits as _bits
from workbench.kir import Node, Op
from workbench.kir.nodes import dead_divisions, is_integer_division

ACCESS_RULES = ("all", "mask")
AND_ORDERS = ("left", "right")  # which operand is read first (its truth guards the other)


class AgreementRules:
    """W(n) == N(n) on a lane class, by the rules in the analysis docstring."""

    def extend(self, c: LaneClass, atom: Node, pol: bool) -> LaneClass:
        """The class ``c`` and ``atom == pol``, with conjunctions split (and negated disjunctions). A constant
        or a decided uniform atom (trusted/uniform.py) leaves ``c`` as it is when it has the value ``pol``,
        and makes it :data:`EMPTY` otherwise."""
        if c == EMPTY:
            return EMPTY
        if pol and atom.op is Op.AND:
            return self.extend(self.extend(c, atom.args[0], True), atom.args[1], True)
        if not pol and atom.op is Op.OR:
            return self.extend(self.extend(c, atom.args[0], False), atom.args[1], False)
        if atom.op is Op.BROADCAST:
            return self.extend(c, atom.args[0], pol)
        if atom.op is Op.CONST:
            return c if (atom.attr[0] != 0) == pol else EMPTY
        v = self.decided(atom, c)
        if v is not None:
            return c if v == pol else EMPTY
        if self.refuted_on(atom, c, pol):  # a lane comparison its operands' intervals refute on c (uniform.py)
            return EMPTY
        return c | {(self.key[id(atom)], pol)}

    def conjuncts(self, m: Node) -> list[Node]:
        if m.op is Op.AND:
            return self.conjuncts(m.args[0]) + self.conjuncts(m.args[1])
        if m.op is Op.BROADCAST:
            return self.conjuncts(m.args[0])
        return [m]

    def active_of(self, c: LaneClass, m: Node) -> LaneClass:
        """``c`` and every launch range atom (x/y ``index < numel``, r ``r0_index < r0_numel``) that is a
        conjunct of mask ``m``: the active lanes of ``c`` on which an access under ``m`` is performed."""
        if c == EMPTY:
            return EMPTY
        conj = self.conjuncts(m)
        atoms = [a for a in (*self.range_atoms, *self.r_atoms) if any(x is a for x in conj)]
        return c | frozenset((self.key[id(a)], True) for a in atoms)

    def implies(self, c: LaneClass, m: Node) -> bool:
        """Every conjunct of mask ``m`` is an atom of class ``c`` or decided true on it (so ``m`` holds on
        ``c``); everything holds on the empty class."""
        return c == EMPTY or all(
            (x.op is Op.CONST and x.attr[0] == 1) or (self.key[id(x)], True) in c or self.decided(x, c) is True
            for x in self.conjuncts(m)
        )

    def agree(self, n: Node, c: LaneClass) -> None:
        """Require W(n) == N(n) on every lane of class ``c`` (emitting the side conditions that show it)."""
        if c == EMPTY:
            return
        k = (id(n), c)
        if k in self._agree:
            return
        self._agree.add(k)
        a = n.args
        match n.op:
            case Op.CONST | Op.FCONST | Op.CONSTEXPR | Op.PROGRAM_ID | Op.NUM_PROGRAMS | Op.ARANGE:
                return
            case Op.UNDEF:
                # An unspecified value agrees with nothing: it must not be observable on this class.
                self.need(None, Reason.DEFINED_VALUE, n, c)
                return
            case Op.ARG:
                p = self.params[n.attr]
                if p.kind == "numel":
                    self.bound(n, c)  # records NUMEL_FITS
                return  # narrowed size arguments: SIZE_ARG_FITS, required once for the whole kernel
            case Op.ADD | Op.SUB | Op.NEG | Op.ABS | Op.MUL | Op.FLOORDIV | Op.MOD:
                for x in a:
                    self.agree(x, c)
                self.bound(n, c)  # records FITS_NARROW (and DIVISOR)
                if self.mode == "partial" and n.op in (Op.FLOORDIV, Op.MOD) and _bits(self.W[id(n)]) == self.w.int64:
                    self.partial_site(n, c)
                return
            case Op.AND | Op.OR:
                if _bits(n) != 1:
                    for x in a:
                        self.agree(x, c)
                    return
                order = self.choose("and", f"{self.key[id(n)]}@{self.class_key(c)}", AND_ORDERS, lambda o: True)
                first, second = (a[0], a[1]) if order == "left" else (a[1], a[0])
                self.agree(first, c)
                self.agree(second, self.extend(c, first, n.op is Op.AND))
                return
            case Op.WHERE:
                self.agree(a[0], c)
                self.agree(a[1], self.extend(c, a[0], True))
                self.agree(a[2], self.extend(c, a[0], False))
                return
            case Op.LOAD:
                self.access(n, c)
                return
            case Op.ROFFSET | Op.ACC | Op.REDUCE | Op.SCAN:
                self.agree_reduction(n, c)
                return
            case Op.ASSUME:
                # the assumed value (data read at agreeing addresses), its mask and bounds agree on ``c``, so
                # the premise read in W bounds N's value too
                for x in a:
                    self.agree(x, c)
                return
            case Op.STORE:
                raise AssertionError("stores are checked by check_store")
            case (
                Op.CAST | Op.BROADCAST | Op.PAYLOAD | Op.LT | Op.LE | Op.GT | Op.GE | Op.EQ | Op.NE
            ):
                for x in a:
                    self.agree(x, c)
                return
        raise AssertionError(f"no agreement rule for {n.op}")

    def partial_site(self, n: Node, c: LaneClass) -> None:
        """An int64 ``x // d`` or ``x % d`` that P computes in int32: ``x`` fits int32 on ``c``, ``d`` fits
        int32 and is >= 1 on every launched lane (a truncated divisor must never become 0 in P)."""
        x, d = n.args
        self._fits(x, c, self.w.int32, Reason.OPERAND_FITS)
        self.partial_divisor(d)
        self.partial_checked.add(self.key[id(n)])  # a site P may rewrite (check/api.py _narrowed)

    def partial_divisor(self, d: Node) -> None:
        everywhere: LaneClass = frozenset()
        self._fits(d, everywhere, self.w.int32, Reason.OPERAND_FITS)
        ld, _ = self.bound(d, everywhere)
        self.need(None if ld is None else ld - 1, Reason.DIVISOR, d, everywhere, "lower")
        self.agree(d, everywhere)

    def division_sites(self) -> None:
        """Every ``//`` and ``%`` of the kernel *executes* on every launched lane, whatever lane class its
        value is needed on: ``tl.where`` computes both branches and a mask stops only memory accesses, and
        ``sdiv``/``srem`` by 0 is undefined behaviour in LLVM wherever it executes. So every divisor (and, in
        partial mode, the divisor of every int64 site P rewrites) is bounded, required ``>= 1`` and required to
        agree on every launched lane here, once per site, even when the division sits where no lane needs it:
        a branch decided dead by DEAD_BRANCH has an EMPTY class, on which nothing is asked (red team
        red2-dead-branch-divisor-zero-in-n, ``x0 // (ks0*ks0)`` under ``ks0 > 1`` divided by an int32 product
        that is 0 at ks0 = 65536 in N only), and a lane-dependent divisor on a masked-off lane or in an
        unselected branch would otherwise be asked nothing there (an N-only division by zero). A divisor that
        cannot be bounded on every launched lane (one computed from data) is therefore refused; none of the
        329 captured corpus and zoo kernels has a lane-dependent divisor (all divide by sizes and literals).
        """
        everywhere: LaneClass = frozenset()
        dead = dead_divisions(self.k)
        if dead:
            line = next((b.line for b in self.k.bindings if any(x is dead[0] for x in kir.walk(b.node))), None)
            raise OutOfClassError(
                f"{self.k.name}: an integer // or % whose value no load or store uses (line {line}); it still "
                "executes, and the checker bounds divisors only on the lanes an access needs; remove the unused "
                "statement or re-capture the kernel")
        for n in self.nodes:
            if not is_integer_division(n):
                continue
            # payload divisions too (``tmp0 // ks0`` on loaded int64 data): a zero divisor is undefined behaviour
            # in either kernel, and N may compute the divisor in another width (``ks0*ks0`` wraps to 0 in int32)
            d = n.args[1]
            ld, _ = self.bound(d, everywhere)  # with its own FITS_NARROW conditions
            self.need(None if ld is None else ld - 1, Reason.DIVISOR, d, everywhere, "lower")
            self.agree(d, everywhere)
            if self.mode == "partial" and n.op is not Op.PAYLOAD and _bits(self.W[id(n)]) == self.w.int64:
                self.partial_divisor(d)

    def access(self, n: Node, c: LaneClass) -> None:
        """A load (or a store's offset/mask): its mask agrees on ``c``; its offset on ``c`` and the mask
        (observable, choice ``mask``) or on all of ``c`` (``all``); ``other`` where the mask fails."""
        offset, mask = n.args[0], (n.args[2] if n.op is Op.STORE else n.args[1])
        self.agree(mask, c)
        masked = self.extend(c, mask, True)
        akey = f"{self.key[id(n)]}@{self.class_key(c)}"
        if self.mode == "strict":
            rule = self.choose("access", akey, ("all",), lambda r: True)
            # strict: the offset agrees on every *active* lane of c. A range atom (index < numel on an axis)
            # that is a conjunct of the access's own mask holds on every active lane, and where it fails the
            # mask (agreeing on c) fails in both kernels: nothing is read or written there, a load yields
            # ``other``. Only range atoms are added (no data or size atom): that is strict's "active".
            scope = self.active_of(c, mask)
        else:
            rule = self.choose("access", akey, ACCESS_RULES, lambda r: self.lookahead(offset, c if r == "all" else masked))
            scope = c
        self.cases("agree", offset, scope if rule == "all" else masked)  # a case split when the certificate chose one
        if n.op is Op.LOAD:
            other = n.args[2]
            if other.op is Op.UNDEF:
                if not self.implies(c, mask):
                    self.need(None, Reason.DEFINED_VALUE, n, c)
            else:
                self.agree(other, self.extend(c, mask, False))

    def run(self) -> None:
        if self.p.index_dtype not in ("tl.int32", "int32"):
            raise OutOfClassError(
                f"{self.k.name}: index dtype {self.p.index_dtype}; Inductor already indexes in 64 bits here, "
                "nothing to narrow (the checker covers int32-indexed kernels)"
            )
        for name, _, value, typ in self.p.size_args if self.mode != "partial" else ():  # P keeps ks* int64
            if name in self.params and self.params[name].kind == "size":
                arg = kir.node(Op.ARG, self.params[name].type, (), name)
                origin_node = arg
                self.key.setdefault(id(arg), f"arg:{name}")
                self.need(Poly.const(self.w.imax) - value, Reason.SIZE_ARG_FITS, origin_node, frozenset(), "upper")
                self.need(value + (self.w.imax + 1), Reason.SIZE_ARG_FITS, origin_node, frozenset(), "lower")
        accesses = list(self.k.loads) + list(self.k.stores)
        self.check_reduction()
        self.check_literal_numels()
        self.check_launch()
        self.division_sites()
        for acc in accesses:
            # Tail lanes (index >= numel in the last block): where the range masks are conjuncts of an access's
            # mask, neither kernel performs it there (they are computed identically in W and N: int32 index and
            # numel in both). An access whose mask leaves out a range mask (a bias row read under ``xmask`` only
            # in a 2-D kernel) is performed on tail lanes too: it must agree on the lanes where the range masks
            # it does contain hold (its mask, offset, and a store's value), a strictly larger class than the
            # active lanes, with no bound from the missing atoms.
            conj = self.conjuncts(acc.args[2] if acc.op is Op.STORE else acc.args[1])
            need = self.tail_atoms(acc)  # x (and y) range atoms, and r0's where the access depends on r / step
            r_missing = any(r is None or (r in self.r_atoms and not any(x is r for x in conj)) for r in need)
            no_tail = not self.range_atoms and not self.x_uniform() and self.no_x_tail()
            if no_tail:
                self.launch_premise = True  # a premise on the launch, stated in the verdict (launch.no_x_tail)
            if (not self.range_atoms and not self.x_uniform() and not no_tail) or r_missing:
                self.need(None, Reason.TAIL_MASKED, acc, frozenset())
            elif not all(any(x is r for x in conj) for r in need):
                # a missing x (or y) range atom only: agree on the larger class of the atoms it has
                tail: LaneClass = frozenset((self.key[id(r)], True) for r in need if any(x is r for x in conj))
                self.access(acc, tail)
                if acc.op is Op.STORE:
                    self.agree(acc.args[1], self.extend(tail, acc.args[2], True))
        self.check_payload_types()
        for ld in self.k.loads:
            self.agree(ld, self.class_of(ld))
        for st in self.k.stores:
            self.access(st, self.class_of(st))
            self.agree(st.args[1], self.extend(self.class_of(st), st.args[2], True))
        if self.mode == "strict":
            for n in self.nodes:
                if n.op in INTEGER_OPS or (
                    n.op is Op.CAST and _bits(n) not in (None, 1)
                ):
                    if id(n) in self.launch_nodes:
                        continue
                    self.cases("fits", n, self.class_of(n))  # fits int32, operands agree (trusted/uniform.py)

