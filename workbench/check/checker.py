"""The trusted checker: recompute every interval from a certificate's choices and emit side conditions.

Stage: check. Question (issue 4): is declaring a kernel's ``ks*`` size arguments int32 exact? The wide
kernel ``W`` is the kernel as emitted; the narrowed kernel ``N`` is ``kir.instantiate(kernel, NARROW)``
(size arguments int32, Triton's promotions re-derived). Both are evaluated on the same lane.

Agreement, node by node (every node is paired with its re-typed counterpart in W and in N):

* a leaf agrees unless it is a narrowed size argument, which agrees iff its value fits int32;
* an operation whose children agree computes the same function of the same integers, except that the
  result is reduced into its type; so an integer operation agrees when its *exact* value fits its type in
  N (which is never wider than in W). That is the FITS_NARROW side condition, and the interval that
  establishes it is recomputed here from the children's intervals;
* explicit and implicit casts, broadcasts, comparisons and ``where`` of agreeing children agree;
* ``a & b`` agrees on a lane class C when ``a`` agrees on C and ``b`` on C-and-``a`` (a false conjunct
  decides the result whatever the other computes); ``where(c, a, b)`` needs ``a`` only where ``c`` holds.

Lane classes are conjunctions of mask atoms. *Active* lanes satisfy the range masks (``xindex < xnumel``,
and ``yindex < ynumel`` on 2-D grids); tail lanes of the last block are covered structurally: every access
mask must have the range masks as conjuncts, so neither kernel touches memory there.

* **strict** mode: every integer intermediate reachable from a memory access fits int32 on every active
  lane, and every access agrees on every active lane;
* **observable** mode: masks and the stored value agree on active lanes; an access's offset must agree only
  on the lanes where its own mask holds, with bounds derived from the mask's atoms by the rules below
  (never from the certificate).

Interval rules (bounds are polynomials in the shape symbols, ``None`` for "no bound"; sign tests use the
exact shift-and-coefficients test with no multipliers):

* ``ks*``/``xnumel``: the point interval of its recorded expression; launch indices: ``[0, 2**31-1]``
  (assumption: the grid's linear index does not wrap), refined by the range atoms to ``[0, numel-1]``;
* ``+ - neg``: interval arithmetic; ``*``: by a constant, or both factors non-negative;
* ``x // d`` (x >= 0, d >= 1), by the certificate's *quotient rule*: ``exact`` (``d`` a point and
  ``hi(x)+1 = d*Q`` exactly: ``[0, Q-1]``), ``const`` (``lo(d)`` a positive constant ``c``:
  ``[(lo(x)-c+1)/c, hi(x)/c]``), ``numerator`` (``[0, hi(x)]``);
* ``x % d`` (d >= 1): ``[0, hi(d)-1]`` (rule ``divisor``) or ``[0, hi(x)]`` (rule ``numerator``) when
  x >= 0, else ``[1-hi(d), hi(d)-1]``;
* a mask atom ``a < b`` in the lane class with ``a = v + K`` (``K`` a point) bounds ``v <= hi(b) - 1 - K``
  (and symmetrically for ``<=, >, >=, ==`` and negated atoms); the tightest provable candidate is used.

The certificate's choices are: the quotient rule of each division/remainder (per lane class), the order in
which each ``&`` is read, whether each access is checked under its mask (observable) or everywhere, and the
multipliers of each side condition. None of them is a bound.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from workbench import kir
from workbench.check.errors import CertificateError, OutOfClassError
from workbench.check.poly import Poly, nonneg_after_shift
from workbench.check.premises import Premises
from workbench.check.sidecond import Origin, Reason, SideCondition
from workbench.kir import Kernel, Mode, Node, Op

Interval = tuple[Poly | None, Poly | None]
LaneClass = frozenset  # of (node key, polarity)

QUOTIENT_RULES = ("exact", "const", "numerator")
REMAINDER_RULES = ("divisor", "numerator")
ACCESS_RULES = ("all", "mask")
AND_ORDERS = ("left", "right")  # which operand is read first (its truth guards the other)

ARITH_OPS = frozenset({Op.ADD, Op.SUB, Op.NEG, Op.MUL, Op.FLOORDIV, Op.MOD})

Oracle = Callable[[str, str, tuple[str, ...], Callable[[str], bool]], str]


@dataclass(frozen=True, slots=True)
class Widths:
    """The pair compared: W = Mode(int32, int64), N = Mode(int32, int64, size_args=int32). (32, 64) is the
    real pair; (8, 16) the small model of the soundness suite."""

    int32: int = 32
    int64: int = 64

    @property
    def wide(self) -> Mode:
        return Mode(self.int32, self.int64)

    @property
    def narrow(self) -> Mode:
        return Mode(self.int32, self.int64, size_args=self.int32)

    @property
    def imax(self) -> int:
        return 2 ** (self.int32 - 1) - 1


def retype(kernel: Kernel, mode: Mode) -> dict[int, Node]:
    """Map every node of ``kernel`` to its counterpart in ``kir.instantiate(kernel, mode)`` (kir's own
    instantiation map: the checker pairs wide and narrowed subexpressions through it)."""
    from workbench.kir.evaluator import instantiation_map

    return instantiation_map(kernel, mode)


_RETYPED: dict[tuple[int, Mode], tuple[Kernel, dict[int, Node]]] = {}


def _retyped(kernel: Kernel, mode: Mode) -> dict[int, Node]:
    got = _RETYPED.get((id(kernel), mode))
    if got is None or got[0] is not kernel:
        if len(_RETYPED) > 256:
            _RETYPED.clear()
        got = (kernel, retype(kernel, mode))
        _RETYPED[(id(kernel), mode)] = got
    return got[1]


def _bits(n: Node) -> int | None:
    return n.type.bits if isinstance(n.type, kir.IntType) else None


_PROVABLE: dict = {}


class Analysis:
    """One run of the checker over one kernel, one mode, one set of choices (given by ``oracle``).

    ``oracle(kind, key, options, works)`` returns the chosen option for a choice point; the trusted checker
    passes the certificate's recorded choices (and fails on a missing one), the search passes a heuristic
    that may call ``works(option)`` to look ahead. Emitted side conditions land in ``self.conditions``."""

    def __init__(self, kernel: Kernel, premises: Premises, mode: str, oracle: Oracle, widths: Widths = Widths()):
        if mode not in ("strict", "observable"):
            raise CertificateError(f"unknown mode {mode!r}; use strict or observable", "mode")
        self.k, self.p, self.mode, self.oracle, self.w = kernel, premises, mode, oracle, widths
        nodes = list(kir.walk(*kernel.loads, *kernel.stores))
        self.nodes = nodes
        self.key = {id(n): f"n{i}" for i, n in enumerate(nodes)}
        self.by_key = {f"n{i}": n for i, n in enumerate(nodes)}
        self.W = _retyped(kernel, widths.wide)
        self.N = _retyped(kernel, widths.narrow)
        self.lower = premises.lower_map
        self.params = {p.name: p for p in kernel.params}
        self.names: dict[int, tuple[str, int]] = {}
        for bnd in kernel.bindings:
            self.names.setdefault(id(bnd.node), (bnd.name, bnd.line))
        self.conditions: dict[str, SideCondition] = {}
        self.generated: set[tuple[str, Poly | None]] = set()  # every distinct obligation emitted
        self.where: dict[str, tuple[Node, LaneClass]] = {}
        self.choices: dict[str, str] = {}
        self._bound: dict[tuple[int, LaneClass], Interval] = {}
        self._agree: set[tuple[int, LaneClass]] = set()
        self._uniform: dict[int, bool] = {}
        self._launch: dict[int, str] = {}
        self.range_atoms = self._find_range_atoms()
        # The lanes' linear indices (exact forms, see launch_axis) and their offsets: identical in W and N and
        # in [0, 2**31-1] (assumption: the launch grid's linear index does not wrap). Everything else built
        # from them (2 * xindex) is ordinary arithmetic with bounds and conditions.
        self.launch_nodes: set[int] = set()
        for n in self.nodes:
            if self.launch_axis(n):
                # the exact form's own sub-terms: the offset product and, on y, the block id sum and product
                self.launch_nodes.update(id(x) for x in kir.walk(n) if x.op in (Op.ADD, Op.MUL))
        self.active: LaneClass = frozenset((self.key[id(a)], True) for a in self.range_atoms)

    # -- names and origins ------------------------------------------------------------------------------
    def describe(self, n: Node, depth: int = 0) -> str:
        if id(n) in self.names and depth > 0:
            return self.names[id(n)][0]
        a = n.args
        match n.op:
            case Op.CONST:
                return str(n.attr[0])
            case Op.ARG | Op.CONSTEXPR:
                return str(n.attr)
            case Op.PROGRAM_ID:
                return f"tl.program_id({n.attr})"
            case Op.NUM_PROGRAMS:
                return f"tl.num_programs({n.attr})"
            case Op.ARANGE:
                return f"tl.arange({n.attr[0]}, {n.attr[1]})"
            case Op.NEG:
                return f"-{self.describe(a[0], depth + 1)}"
            case Op.CAST:
                return self.describe(a[0], depth) if n.attr else f"({self.describe(a[0], depth + 1)}).to({n.type})"
            case Op.BROADCAST:
                return self.describe(a[0], depth)
            case Op.LOAD:
                return f"tl.load({n.attr} + ({self.describe(a[0], depth + 1)}), {self.describe(a[1], depth + 1)})"
            case Op.STORE:
                return f"tl.store({n.attr} + ({self.describe(a[0], depth + 1)}), ...)"
        from workbench.kir.ops import BINARY_SYMBOL

        if n.op in BINARY_SYMBOL:
            return f"({self.describe(a[0], depth + 1)} {BINARY_SYMBOL[n.op]} {self.describe(a[1], depth + 1)})"
        return f"{n.op.name.lower()}({', '.join(self.describe(x, depth + 1) for x in a)})"

    def class_text(self, c: LaneClass) -> str:
        if not c:
            return "launched lanes"
        parts = []
        for key, pol in sorted(c):
            n = self.by_key[key]
            parts.append(("" if pol else "not ") + self.describe(n, 1 if id(n) in self.names else 0))
        return " & ".join(parts)

    def origin(self, n: Node, c: LaneClass, bound: str = "") -> Origin:
        name, line = self.names.get(id(n), ("", 0))
        sub = self.describe(n)
        if name:
            sub = f"{name} = {sub}"
        return Origin(self.key.get(id(n), "-"), sub, line, self.class_text(c), bound, self.class_key(c) or "all")

    def need(self, claim: Poly | None, reason: Reason, n: Node, c: LaneClass, bound: str = "") -> None:
        """Emit ``claim >= 0``. Identity is structural (reason, node, end, lane class); the same obligation
        emitted twice is one condition, two different claims under one key are both kept (never dropped)."""
        sc = SideCondition(claim, reason, self.origin(n, c, bound))
        self.generated.add((sc.key, claim))
        key, i = sc.key, 1
        while key in self.conditions and self.conditions[key].claim != claim:
            i += 1
            key = f"{sc.key}#{i}"
        self.conditions.setdefault(key, sc)
        self.where.setdefault(key, (n, c))

    def choose(self, kind: str, key: str, options: tuple[str, ...], works: Callable[[str], bool]) -> str:
        got = self.oracle(kind, key, options, works)
        if got not in options:
            raise CertificateError(f"choice {key!r} is {got!r}, not one of {options}", key)
        self.choices[key] = got
        return got

    # -- cheap exact tests (no multipliers) --------------------------------------------------------------
    def nonneg(self, p: Poly | None) -> bool:
        return p is not None and nonneg_after_shift(p, self.lower)

    # -- structure -------------------------------------------------------------------------------------
    def is_uniform(self, n: Node) -> bool:
        """Lane-invariant and data-free: built from constants and scalar arguments only."""
        got = self._uniform.get(id(n))
        if got is None:
            if n.op in (Op.CONST, Op.ARG):
                got = True
            elif n.args and n.op not in (Op.LOAD, Op.PAYLOAD, Op.UNDEF, Op.FCONST):
                got = all(self.is_uniform(a) for a in n.args)
            else:
                got = False
            self._uniform[id(n)] = got
        return got

    def launch_axis(self, n: Node) -> str | None:
        """The axis (``x``/``y``) when ``n`` is *exactly* a launch index as Inductor writes it, else None:

        * ``xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)``;
        * ``yindex = (tl.program_id(1) + tl.program_id(2) * tl.num_programs(1)) * YBLOCK + tl.arange(0, YBLOCK)``

        (operands of ``+``/``*`` in either order; names are aliases of the same node). Only these get the
        launch bound: ``2 * xindex`` or ``xindex + 1000`` are ordinary int32 terms, bounded by interval
        arithmetic in their type like any other."""
        got = self._launch.get(id(n))
        if got is None:
            got = self._launch[id(n)] = self._launch_axis(n)
        return got or None

    def _launch_axis(self, n: Node) -> str:
        if n.op is not Op.ADD:
            return ""
        for off, ar in (n.args, n.args[::-1]):
            if ar.op is Op.ARANGE and ar.attr[0] == 0:
                axis = self.offset_axis(off, ar.attr[1])
                if axis:
                    return axis
        return ""

    def offset_axis(self, n: Node, block: str) -> str:
        """``tl.program_id(0) * XBLOCK`` -> ``x``; ``(pid(1) + pid(2) * num_programs(1)) * YBLOCK`` -> ``y``."""
        if n.op is not Op.MUL:
            return ""
        for pid, blk in (n.args, n.args[::-1]):
            if blk.op is not Op.CONSTEXPR or blk.attr != block:
                continue
            if block == "XBLOCK" and pid.op is Op.PROGRAM_ID and pid.attr == 0:
                return "x"
            if block == "YBLOCK" and self._y_block_id(pid):
                return "y"
        return ""

    @staticmethod
    def _y_block_id(n: Node) -> bool:
        if n.op is not Op.ADD:
            return False
        for p1, rest in (n.args, n.args[::-1]):
            if p1.op is Op.PROGRAM_ID and p1.attr == 1 and rest.op is Op.MUL:
                for p2, np1 in (rest.args, rest.args[::-1]):
                    if p2.op is Op.PROGRAM_ID and p2.attr == 2 and np1.op is Op.NUM_PROGRAMS and np1.attr == 1:
                        return True
        return False

    def _find_range_atoms(self) -> tuple[Node, ...]:
        """``xindex < xnumel`` (and ``yindex < ynumel``): an exact launch index of an axis compared with that
        axis's element-count parameter."""
        atoms = []
        for n in self.nodes:
            if n.op is not Op.LT or n.args[1].op is not Op.ARG:
                continue
            axis = self.launch_axis(n.args[0])
            p = self.params.get(n.args[1].attr)
            if axis and p is not None and p.kind == "numel" and p.name.startswith(axis):
                atoms.append(n)
        return tuple(atoms)

    def extend(self, c: LaneClass, atom: Node, pol: bool) -> LaneClass:
        """The class ``c`` and ``atom == pol``, with conjunctions split (and negated disjunctions)."""
        if pol and atom.op is Op.AND:
            return self.extend(self.extend(c, atom.args[0], True), atom.args[1], True)
        if not pol and atom.op is Op.OR:
            return self.extend(self.extend(c, atom.args[0], False), atom.args[1], False)
        if atom.op is Op.BROADCAST:
            return self.extend(c, atom.args[0], pol)
        if atom.op is Op.CONST:
            return c
        return c | {(self.key[id(atom)], pol)}

    def conjuncts(self, m: Node) -> list[Node]:
        if m.op is Op.AND:
            return self.conjuncts(m.args[0]) + self.conjuncts(m.args[1])
        if m.op is Op.BROADCAST:
            return self.conjuncts(m.args[0])
        return [m]

    def implies(self, c: LaneClass, m: Node) -> bool:
        """Every conjunct of mask ``m`` is an atom of class ``c`` (so ``m`` holds on ``c``)."""
        return all(
            (x.op is Op.CONST and x.attr[0] == 1) or (self.key[id(x)], True) in c for x in self.conjuncts(m)
        )

    # -- intervals ---------------------------------------------------------------------------------------
    def point(self, n: Node) -> Poly | None:
        lo, hi = self.bound(n, frozenset())
        return lo if lo is not None and lo == hi else None

    def bound(self, n: Node, c: LaneClass) -> Interval:
        k = (id(n), c)
        if k in self._bound:
            return self._bound[k]
        self._bound[k] = (None, None)  # cycle guard
        lo, hi = self._bound_rule(n, c)
        lo, hi = self._refine(n, c, lo, hi)
        self._bound[k] = (lo, hi)
        if n.op in ARITH_OPS and id(n) not in self.launch_nodes:
            # The exact value equals the computed one only if it fits the narrowed type (never wider than
            # the wide one); required for the interval to describe both kernels.
            self._fits(n, c, _bits(self.N[id(n)]) or 64, Reason.FITS_NARROW)
        return lo, hi

    def _fits(self, n: Node, c: LaneClass, bits: int, reason: Reason) -> None:
        lo, hi = self.bound(n, c)
        half = 2 ** (bits - 1)
        self.need(None if hi is None else Poly.const(half - 1) - hi, reason, n, c, "upper")
        self.need(None if lo is None else lo + half, reason, n, c, "lower")

    def _bound_rule(self, n: Node, c: LaneClass) -> Interval:
        a = n.args
        if id(n) in self.launch_nodes:
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
            case Op.ADD | Op.SUB | Op.NEG | Op.MUL | Op.FLOORDIV | Op.MOD:
                return self._arith(n, c)
            case Op.LT | Op.LE | Op.GT | Op.GE | Op.EQ | Op.NE:
                if (self.key[id(n)], True) in c:
                    return Poly.const(1), Poly.const(1)
                if (self.key[id(n)], False) in c:
                    return Poly.const(0), Poly.const(0)
                decided = self._decide(n)
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
                # atoms needs their operands' exact values, whose fit conditions agreement emits.
                self.agree(a[0], c)
                la, ha = self.bound(a[1], self.extend(c, a[0], True))
                lb, hb = self.bound(a[2], self.extend(c, a[0], False))
                return self._hull_lo(la, lb), self._hull_hi(ha, hb)
            case Op.LOAD | Op.STORE | Op.PAYLOAD | Op.FCONST | Op.UNDEF:
                return None, None
        raise AssertionError(f"no interval rule for {n.op}")  # every op is handled above

    def _hull_lo(self, x: Poly | None, y: Poly | None) -> Poly | None:
        if x is None or y is None:
            return None
        return x if self.nonneg(y - x) else y if self.nonneg(x - y) else None

    def _hull_hi(self, x: Poly | None, y: Poly | None) -> Poly | None:
        if x is None or y is None:
            return None
        return x if self.nonneg(x - y) else y if self.nonneg(y - x) else None

    def _decide(self, n: Node) -> bool | None:
        """A comparison of two lane-uniform values settled by the cheap test, else None."""
        a, b = n.args
        if not (self.is_uniform(a) and self.is_uniform(b)):
            return None
        la, ha = self.bound(a, frozenset())
        lb, hb = self.bound(b, frozenset())
        if None in (la, ha, lb, hb):
            return None
        lt = self.nonneg(lb - ha - 1)  # a < b everywhere
        ge = self.nonneg(la - hb)  # a >= b everywhere
        le = self.nonneg(lb - ha)
        gt = self.nonneg(la - hb - 1)
        match n.op:
            case Op.LT:
                return True if lt else False if ge else None
            case Op.LE:
                return True if le else False if gt else None
            case Op.GT:
                return True if gt else False if le else None
            case Op.GE:
                return True if ge else False if lt else None
            case Op.EQ:
                return False if (lt or gt) else (True if (la == ha == lb == hb) else None)
            case Op.NE:
                return True if (lt or gt) else (False if (la == ha == lb == hb) else None)
        return None

    def _arith(self, n: Node, c: LaneClass) -> Interval:
        a = n.args
        key = f"{self.key[id(n)]}@{self.class_key(c)}"
        match n.op:
            case Op.ADD:
                (l1, h1), (l2, h2) = self.bound(a[0], c), self.bound(a[1], c)
                return _add(l1, l2), _add(h1, h2)
            case Op.SUB:
                (l1, h1), (l2, h2) = self.bound(a[0], c), self.bound(a[1], c)
                return _sub(l1, h2), _sub(h1, l2)
            case Op.NEG:
                lo, hi = self.bound(a[0], c)
                return (None if hi is None else -hi), (None if lo is None else -lo)
            case Op.MUL:
                (l1, h1), (l2, h2) = self.bound(a[0], c), self.bound(a[1], c)
                for (la, ha), (lb, hb) in (((l1, h1), (l2, h2)), ((l2, h2), (l1, h1))):
                    if la is not None and la == ha and la.is_const():
                        k = la.const_value()
                        if k >= 0:
                            return _scale(lb, k), _scale(hb, k)
                        return _scale(hb, k), _scale(lb, k)
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

    def class_key(self, c: LaneClass) -> str:
        return ",".join(f"{k}{'+' if p else '-'}" for k, p in sorted(c))

    # -- refinement from the lane class's atoms -------------------------------------------------------
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
        """``n = v + K`` with ``v`` a node and ``K`` a lane-uniform point value."""
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
        if not c or _bits(n) in (None, 1):
            return lo, hi
        base = frozenset(x for x in c if x in self.active)
        los, his = [], []
        sn = self.strip(n)
        for key, pol in sorted(c):
            atom = self.by_key[key]
            if atom.op not in (Op.LT, Op.LE, Op.GT, Op.GE, Op.EQ):
                continue
            op = atom.op if pol else {Op.LT: Op.GE, Op.LE: Op.GT, Op.GT: Op.LE, Op.GE: Op.LT}.get(atom.op)
            if op is None:
                continue
            left, right = atom.args
            # normalise to  L <= R + delta
            for (l_node, r_node, delta) in _as_le(op, left, right):
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

    # -- agreement ---------------------------------------------------------------------------------------
    def agree(self, n: Node, c: LaneClass) -> None:
        """Require W(n) == N(n) on every lane of class ``c`` (emitting the side conditions that show it)."""
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
            case Op.ADD | Op.SUB | Op.NEG | Op.MUL | Op.FLOORDIV | Op.MOD:
                for x in a:
                    self.agree(x, c)
                self.bound(n, c)  # records FITS_NARROW (and DIVISOR)
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
            case Op.STORE:
                raise AssertionError("stores are checked by check_store")
            case (
                Op.CAST | Op.BROADCAST | Op.PAYLOAD | Op.LT | Op.LE | Op.GT | Op.GE | Op.EQ | Op.NE
            ):
                for x in a:
                    self.agree(x, c)
                return
        raise AssertionError(f"no agreement rule for {n.op}")

    def access(self, n: Node, c: LaneClass) -> None:
        """A load (or a store's offset/mask): its mask agrees on ``c``; its offset on ``c`` and the mask
        (observable, choice ``mask``) or on all of ``c`` (``all``); ``other`` where the mask fails."""
        offset, mask = n.args[0], (n.args[2] if n.op is Op.STORE else n.args[1])
        self.agree(mask, c)
        masked = self.extend(c, mask, True)
        akey = f"{self.key[id(n)]}@{self.class_key(c)}"
        if self.mode == "strict":
            rule = self.choose("access", akey, ("all",), lambda r: True)
        else:
            rule = self.choose("access", akey, ACCESS_RULES, lambda r: self._try_access(offset, c if r == "all" else masked))
        self.agree(offset, c if rule == "all" else masked)
        if n.op is Op.LOAD:
            other = n.args[2]
            if other.op is Op.UNDEF:
                if not self.implies(c, mask):
                    self.need(None, Reason.DEFINED_VALUE, n, c)
            else:
                self.agree(other, self.extend(c, mask, False))

    def _try_access(self, offset: Node, c: LaneClass) -> bool:
        """Look-ahead for the search: would the offset's conditions on ``c`` all pass the cheap test?"""
        probe = Analysis(self.k, self.p, self.mode, self.oracle, self.w)
        probe.agree(offset, c)
        return all(sc.claim is not None and probe.nonneg_with_facts(sc.claim) for sc in probe.conditions.values())

    def nonneg_with_facts(self, p: Poly) -> bool:
        key = (p, self.p)  # by value: ids of discarded premises are recycled
        got = _PROVABLE.get(key)
        if got is None:
            from workbench.check.discharge import find_multipliers

            got = _PROVABLE[key] = find_multipliers(p, self.p) is not None
        return got

    # -- the whole kernel ------------------------------------------------------------------------------------
    def run(self) -> None:
        if self.p.index_dtype not in ("tl.int32", "int32"):
            raise OutOfClassError(
                f"{self.k.name}: index dtype {self.p.index_dtype}; Inductor already indexes in 64 bits here, "
                "nothing to narrow (the checker covers int32-indexed kernels)"
            )
        for name, _, value, typ in self.p.size_args:
            if name in self.params and self.params[name].kind == "size":
                arg = kir.node(Op.ARG, self.params[name].type, (), name)
                origin_node = arg
                self.key.setdefault(id(arg), f"arg:{name}")
                self.need(Poly.const(self.w.imax) - value, Reason.SIZE_ARG_FITS, origin_node, frozenset(), "upper")
                self.need(value + (self.w.imax + 1), Reason.SIZE_ARG_FITS, origin_node, frozenset(), "lower")
        accesses = list(self.k.loads) + list(self.k.stores)
        for acc in accesses:
            # Tail lanes (index >= numel in the last block): the range masks are conjuncts of every access
            # mask, and they are computed identically in W and N (int32 index and numel in both).
            conj = self.conjuncts(acc.args[2] if acc.op is Op.STORE else acc.args[1])
            if not self.range_atoms or not all(any(x is r for x in conj) for r in self.range_atoms):
                self.need(None, Reason.TAIL_MASKED, acc, frozenset())
        for ld in self.k.loads:
            self.agree(ld, self.active)
        for st in self.k.stores:
            self.access(st, self.active)
            self.agree(st.args[1], self.extend(self.active, st.args[2], True))
        if self.mode == "strict":
            for n in self.nodes:
                if n.op in (Op.ADD, Op.SUB, Op.NEG, Op.MUL, Op.FLOORDIV, Op.MOD) or (
                    n.op is Op.CAST and _bits(n) not in (None, 1)
                ):
                    if id(n) in self.launch_nodes:
                        continue
                    self._fits(n, self.active, self.w.int32, Reason.FITS_INT32)
                    for x in n.args:
                        self.agree(x, self.active)

def _as_le(op: Op, left: Node, right: Node):
    """``left op right`` as a list of ``(L, R, delta)`` meaning ``L <= R + delta``."""
    match op:
        case Op.LT:
            return [(left, right, -1)]
        case Op.LE:
            return [(left, right, 0)]
        case Op.GT:
            return [(right, left, -1)]
        case Op.GE:
            return [(right, left, 0)]
        case Op.EQ:
            return [(left, right, 0), (right, left, 0)]
    return []


def _add(x: Poly | None, y: Poly | None) -> Poly | None:
    return None if x is None or y is None else x + y


def _sub(x: Poly | None, y: Poly | None) -> Poly | None:
    return None if x is None or y is None else x - y


def _scale(x: Poly | None, k: Fraction) -> Poly | None:
    return None if x is None else x * k
