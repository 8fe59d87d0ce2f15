"""Reduction kernels in the trusted checker: lanes are (x lane, r lane) pairs at one step of the loop.

Stage: check (trusted). A mixin of :class:`~workbench.check.trusted.analysis.Analysis`; no search, no caches.

Contract (per lane and per reduction step): on every active (x, r) pair and every step, W and N read the
same addresses under the same masks and store the same values. The laws used, beyond the pointwise ones:

* **the loop is the same in both kernels.** Its bound is ``r0_numel`` (int32 in W and N, never narrowed)
  and its step the constexpr ``R0_BLOCK``, so both run the same steps with the same ``r0_offset``
  (:data:`Op.ROFFSET`, which therefore agrees). Its bounds come from the loop's range only:
  ``0 <= r0_offset <= r0_numel - 1``, valid when the induction variable cannot wrap:
  ``r0_offset + R0_BLOCK`` stays below ``2**31``. ``tl.arange`` allows at most
  ``TRITON_MAX_TENSOR_NUMEL = 2**20`` elements (``triton/language/core.py``), so R0_BLOCK <= 2**20 and
  the side condition LOOP_BOUND ``r0_numel <= 2**31 - 2**20`` suffices: every offset the loop reaches is at
  most ``r0_numel - 1``, so the next one, ``r0_offset + R0_BLOCK <= r0_numel - 1 + 2**20 <= 2**31 - 1``,
  does not wrap and the loop stops at the first offset ``>= r0_numel``. ``r0_index = r0_offset + tl.arange(0, R0_BLOCK)`` (exactly that form) is then in
  ``[0, 2**31-1]``, identical in W and N, like a launch index; ``tl.arange(0, R0_BLOCK)`` alone is in
  ``[0, R0_BLOCK-1]``;
* **the range mask** ``r0_index < r0_numel`` is the r axis's range atom: an access whose offset or mask
  depends on the r lane must have it as a conjunct (TAIL_MASKED) unless the body fixes ``r0_numel`` equal
  to ``R0_BLOCK`` (no tail). Accesses that do not depend on the r lane are checked on the x range only (a
  load before the loop runs even when ``r0_numel`` is 0);
* **loop-carried names, by induction over steps.** An ACC leaf (an Inductor accumulator or any other name
  the loop carries, such as a looped scan's running prefix) agrees on a class C of lanes at every step when
  its carry's init agrees on C and its update agrees on C assuming the ACC agrees on C at that step. C is
  step-invariant: the atoms of the lane class that depend on the step, on data or on accumulators are
  dropped first (agreeing on more lanes is never weaker). The memo of the agreement rules is exactly the
  induction hypothesis. The rule is about the carry, not its name; its type must be the same before and
  after a step in W and in N (checked in :meth:`ReductionRules.check_reduction`);
* **row operations** (:data:`kir.ops.ROW`): a reduction (:data:`Op.REDUCE`, ``triton_helpers.select_one``
  included) combines every r lane of a row, masked-off ones included; a scan (:data:`Op.SCAN`) at r lane j
  combines the r lanes ``0..j`` of the row in this step, masked-off ones included, with a combine helper
  kir checked to be pure payload (it reads no memory and no size argument). In both cases the value at
  (x, r, step) is a function of the operands' values on r lanes of row x at this step only, so: their
  operands must agree on every r lane of the x lanes of the class -- every atom that depends on the r lane,
  the step or data is dropped from the class -- and be computed in the same types (PAYLOAD_TYPE,
  :mod:`.payload`);
* **the block constexpr** ``R0_BLOCK`` (and its alias ``RBLOCK``) is in ``[1, 2**20]``: it sizes
  ``tl.arange(0, R0_BLOCK)``, which Triton allows up to ``TRITON_MAX_TENSOR_NUMEL`` elements; constexpr
  arithmetic (``RBLOCK - 1``) is exact Python arithmetic in Triton, and the same value in W and N;
* **x-uniform kernels** (``xnumel = 1`` with ``xmask = tl.full([XBLOCK], True, tl.int1)``, reductions and
  pointwise kernels alike): when no node
  reachable from an access depends on a program id or an x/y ``tl.arange``, every x lane of the launch
  computes exactly what x lane 0 computes (the same addresses, hence the same data), so the missing x range
  atom hides no lane that differs from an active one: agreeing on every lane is then what is required, and
  an access is not refused for lacking an x range mask (its r range mask is still required).

Integer accumulators (argmax indices) are integer payload: an update that retypes under narrowing is
refused by PAYLOAD_TYPE (:mod:`.payload`), whatever reaches it.
"""

from __future__ import annotations

from workbench import kir
from workbench.check.errors import OutOfClassError
from workbench.check.poly import Poly
from workbench.check.sidecond import Reason
from workbench.check.trusted.interval import EMPTY, Interval, LaneClass
from workbench.kir import Node, Op

R_BLOCK_MAX = 2**20  # triton/language/core.py: TRITON_MAX_TENSOR_NUMEL bounds every tl.arange
_DATA = (Op.LOAD, Op.PAYLOAD, Op.UNDEF, Op.ACC, Op.REDUCE, Op.FCONST)


def r_block_limit(int32_bits: int) -> int:
    """The largest R0_BLOCK: Triton's 2**20 at 32 bits. The small models of the soundness suite (int32 of a
    few bits) take ``2**(bits-3)`` (8 at 6 bits): blocks large against the sizes, so a tail step overshoots
    r0_numel by up to 7 lanes, as 2**20 can at 32 bits (a premise of the model, like the bits themselves)."""
    return R_BLOCK_MAX if int32_bits >= 32 else 2 ** max(1, int32_bits - 3)


class ReductionRules:
    """ROFFSET / ACC / REDUCE rules and the r axis's range atom (see the module docstring)."""

    def _reduction_setup(self) -> None:
        red = self.k.reduction
        self._deps: dict[int, frozenset[str]] = {}
        self.r_atoms: tuple[Node, ...] = ()
        self.r_index_nodes: set[int] = set()
        if red is None:
            return
        for n in self.nodes:
            if self._is_r_index(n):
                self.r_index_nodes.add(id(n))
        atoms = []
        for n in self.nodes:
            if n.op is Op.LT and self._is_r_index(n.args[0]) and self._is_r_numel(n.args[1]):
                atoms.append(n)
        self.r_atoms = tuple(atoms)

    @property
    def r_block_max(self) -> int:
        return r_block_limit(self.w.int32)

    def _is_r_arange(self, n: Node) -> bool:
        return n.op is Op.ARANGE and n.attr == (0, "R0_BLOCK")

    def _is_r_index(self, n: Node) -> bool:
        """``r0_offset + tl.arange(0, R0_BLOCK)`` (either order), or the arange alone (persistent)."""
        if self._is_r_arange(n):
            return self.k.reduction is not None and self.k.reduction.persistent
        if n.op is not Op.ADD:
            return False
        a, b = n.args
        return (a.op is Op.ROFFSET and self._is_r_arange(b)) or (b.op is Op.ROFFSET and self._is_r_arange(a))

    def _is_r_numel(self, n: Node) -> bool:
        red = self.k.reduction
        if n.op is Op.ARG:
            return red.numel is not None and n.attr == red.numel
        if n.op is Op.CONST:
            return red.static_numel is not None and n.attr[0] == red.static_numel
        return False

    def r_numel_value(self) -> Poly:
        red = self.k.reduction
        if red.static_numel is not None:
            return Poly.const(red.static_numel)
        return self.p.size_value(red.numel)

    def r_complete(self) -> bool:
        """The body fixes ``r0_numel == R0_BLOCK``: every r lane is in range (no tail on r)."""
        red = self.k.reduction
        return red is not None and red.static_numel is not None and red.static_numel == red.static_block \
            and red.persistent

    # -- dependence ---------------------------------------------------------------------------------------
    def deps(self, n: Node) -> frozenset[str]:
        """What ``n``'s value may vary with: ``x`` (the x/y lane), ``r`` (the r lane), ``step``, ``data``."""
        got = self._deps.get(id(n))
        if got is None:
            if self._is_r_arange(n):
                got = frozenset({"r"})
            elif n.op in (Op.PROGRAM_ID, Op.NUM_PROGRAMS) or n.op is Op.ARANGE:
                got = frozenset({"x"})
            elif n.op is Op.ROFFSET:
                got = frozenset({"step"})
            elif n.op is Op.ACC:
                got = frozenset({"r", "step", "data"})
            elif n.op is Op.REDUCE:
                got = frozenset({"data"})  # one value per row
            elif n.op is Op.SCAN:
                # a prefix of the row: varies with the r lane, and with whatever its operands vary with
                got = frozenset({"r", "data"}).union(*(self.deps(a) for a in n.args))
            else:
                got = frozenset().union(*(self.deps(a) for a in n.args)) if n.args else frozenset()
                if n.op in _DATA:
                    got = got | {"data"}
            self._deps[id(n)] = got
        return got

    def class_of(self, n: Node) -> LaneClass:
        """The active class for ``n``: the x (and y) range atoms, and the r range atom when ``n`` depends on
        the r lane (or the step)."""
        if self.r_atoms and self.deps(n) & {"r", "step"}:
            return self.active | frozenset((self.key[id(a)], True) for a in self.r_atoms)
        return self.active

    def _drop(self, c: LaneClass, bad: set[str]) -> LaneClass:
        if c == EMPTY:
            return EMPTY
        return frozenset(x for x in c if not (self.deps(self.by_key[x[0]]) & bad))

    # -- rules --------------------------------------------------------------------------------------------
    def agree_reduction(self, n: Node, c: LaneClass) -> None:
        match n.op:
            case Op.ROFFSET:
                return  # the same loop in W and N (module docstring)
            case Op.ACC:
                cc = self._drop(c, {"step", "data"})
                if cc != c:
                    self.agree(n, cc)
                    return
                carry = self.k.carry(n)
                self.agree(carry.init, cc)
                self.agree(carry.update, cc)  # induction: the memo holds (n, cc) already
                return
            case Op.REDUCE | Op.SCAN:
                # row operations: the operands on every r lane of the class's rows at this step
                cc = self._drop(c, {"r", "step", "data"})
                for x in n.args:
                    self.agree(x, cc)
                return
        raise AssertionError(f"no reduction agreement rule for {n.op}")

    def bound_reduction(self, n: Node) -> Interval | None:
        """Bounds of the reduction leaves and of ``r0_index``; None for any other node."""
        if self.k.reduction is None:
            return None
        if id(n) in self.r_index_nodes and n.op is Op.ADD:
            return Poly.const(0), Poly.const(self.w.imax)  # LOOP_BOUND: r0_offset + R0_BLOCK <= 2**31
        if self._is_r_arange(n):
            red = self.k.reduction
            top = red.static_block if red.static_block is not None else self.r_block_max
            return Poly.const(0), Poly.const(top - 1)
        if n.op is Op.ROFFSET:
            return Poly.const(0), self.r_numel_value() - 1
        if n.op is Op.CONSTEXPR and n.attr == "R0_BLOCK" and any(self._is_r_arange(m) for m in self.nodes):
            red = self.k.reduction
            if red.static_block is not None:
                return Poly.const(red.static_block), Poly.const(red.static_block)
            return Poly.const(1), Poly.const(self.r_block_max)  # sizes tl.arange: TRITON_MAX_TENSOR_NUMEL
        if n.op in (Op.ACC, Op.REDUCE, Op.SCAN):
            return None, None
        return None

    def x_uniform(self) -> bool:
        """No node of the kernel depends on the x (or y) lane: every x lane computes what lane 0 does.

        Pointwise kernels too: a training step's ``num_batches_tracked += 1`` (``xnumel = 1``, ``xmask`` all
        true, ``tl.load(in_ptr0 + (0))``) performs on every launched lane exactly lane 0's accesses."""
        return not any("x" in self.deps(n) for n in self.nodes)

    def check_reduction(self) -> None:
        """The whole-kernel conditions: LOOP_BOUND (for a parameter or a static r0_numel alike), and
        accumulators that keep their type."""
        red = self.k.reduction
        if red is None:
            return
        accs = {n.attr: n for n in self.nodes if n.op is Op.ACC}
        for c in self.k.carries:
            acc = accs.get((c.name, c.loop))
            for name, side in (("declared", self.W), ("narrowed", self.N)):
                if acc is not None and side[id(c.update)].type != side[id(acc)].type:
                    raise OutOfClassError(
                        f"{self.k.name}: loop-carried {c.name} changes type in the {name} kernel "
                        f"({side[id(acc)].type} before a step, {side[id(c.update)].type} after it); Triton "
                        "refuses a loop-carried value whose type changes")
        if red.loops:
            # The loop's bound is r0_numel whether it is the parameter or a literal written over it in the
            # body (``r0_numel = 3000``): either way the offset must not wrap (a literal near 2**31 does).
            name = red.numel or "r0_numel"
            origin = (kir.node(Op.ARG, self.params[name].type, (), name) if name in self.params
                      else kir.node(Op.CONST, kir.IntType(32), (), (red.static_numel, False)))
            self.key.setdefault(id(origin), f"arg:{name}")
            limit = 2 ** (self.w.int32 - 1) - self.r_block_max
            self.need(Poly.const(limit) - self.r_numel_value(), Reason.LOOP_BOUND, origin, frozenset(), "upper")

    def tail_atoms(self, acc: Node) -> list[Node]:
        """The range atoms access ``acc`` must have as mask conjuncts: x (and y) when its offset or mask (or a
        store's value) depends on the x lane or on data, r when they depend on the r lane or the step (and
        the r axis has a tail)."""
        if self.k.reduction is None:
            return list(self.range_atoms)
        offset, mask = acc.args[0], (acc.args[2] if acc.op is Op.STORE else acc.args[1])
        deps = self.deps(offset) | self.deps(mask)
        if acc.op is Op.STORE:
            # a store also writes its value: one whose offset and mask name no x (or r) lane but whose value
            # does is performed on the tail lanes with a tail lane's value (red team red-store-x-free-offset,
            # red-store-r-free-offset), so the value's lanes count like the address's
            deps |= self.deps(acc.args[1])
        # an access that depends on no x lane (a weight row read by every x lane) reads on a tail x lane
        # exactly what it reads on an active one
        need: list[Node | None] = list(self.range_atoms) if deps & {"x", "data"} and not self.x_uniform() else []
        if deps & {"r", "step"} and not self.r_complete():
            need += list(self.r_atoms) if self.r_atoms else [None]  # None: no r range atom at all
        return need
