"""The trusted checker: recompute every interval from a certificate's choices and emit side conditions.

Stage: check (trusted). The analysis is split by law: :mod:`.launch` (the exact launch forms),
:mod:`.intervals` (bounds), :mod:`.agreement` (which values must agree where), :mod:`.conditions` (emission
and identity). No caches across runs and no search here: the search drives the same class through an oracle
and a look-ahead hook (:meth:`Analysis.lookahead`) defined outside this folder.

Question (issue 4): is declaring a kernel's ``ks*`` size arguments int32 exact? The wide kernel ``W`` is the
kernel as emitted; the narrowed kernel ``N`` is ``kir.instantiate(kernel, NARROW)``
(size arguments int32, Triton's promotions re-derived). Both are evaluated on the same lane.

Agreement, node by node (every node is paired with its re-typed counterpart in W and in N):

* a leaf agrees unless it is a narrowed size argument, which agrees iff its value fits int32;
* an operation whose children agree computes the same function of the same integers, except that the
  result is reduced into its type; so an integer operation agrees when its *exact* value fits its type in
  N (which is never wider than in W). That is the FITS_NARROW side condition, and the interval that
  establishes it is recomputed here from the children's intervals;
* explicit and implicit casts, broadcasts, comparisons and ``where`` of agreeing children agree;
* payload (loaded data) agrees when its children agree *and* it is computed in the same type in both
  kernels, or only its low bits reach integer stores no wider than it (:mod:`.payload`, PAYLOAD_TYPE);
* ``a & b`` agrees on a lane class C when ``a`` agrees on C and ``b`` on C-and-``a`` (a false conjunct
  decides the result whatever the other computes); ``where(c, a, b)`` needs ``a`` only where ``c`` holds.

Lane classes are conjunctions of mask atoms. *Active* lanes satisfy the range masks (``xindex < xnumel``,
and ``yindex < ynumel`` on 2-D grids; a literal extent ``xnumel = 192`` counts as the numel). Tail lanes of
the last block: an access whose mask has every range mask as a conjunct is performed by neither kernel
there; an access whose mask has only some of them (a bias row read under ``xmask`` in a 2-D kernel) must
agree -- mask, offset, a store's value -- on the lanes where the range masks it has hold, with no bound from
the ones it lacks (a kernel without range masks at all is refused: TAIL_MASKED).

An ``ASSUME`` node (``tl.device_assert`` on a loaded index, ``workbench.kir.indirect``) is bounded by its
bound operands' intervals only on lane classes that imply its mask, and requires its value, mask and bounds to
agree: the premise is read in W, and agreement carries it to N. It is a premise about the inputs (Triton
compiles the assert away), reported in every verdict, never a certificate's choice.

* **strict** mode: every integer intermediate reachable from a memory access fits int32 on every active
  lane, and every access agrees on every active lane;
* **observable** mode: masks and the stored value agree on active lanes; an access's offset must agree only
  on the lanes where its own mask holds, with bounds derived from the mask's atoms by the rules below
  (never from the certificate).

Interval rules (bounds are polynomials in the shape symbols, ``None`` for "no bound"; sign tests use the
exact shift-and-coefficients test with no multipliers):

* ``ks*``/``xnumel``: the point interval of its recorded expression; launch indices, only in the exact
  forms of :mod:`.launch`: ``[0, 2**31-1]`` (assumption: the grid's linear index does not wrap), refined
  by the range atoms to ``[0, numel-1]``; any other term built from them is ordinary arithmetic;
* ``+ - neg``: interval arithmetic; ``*``: by a constant, or both factors non-negative;
* ``x // d`` (x >= 0, d >= 1), by the certificate's *quotient rule*: ``atom`` (``x`` the uniform point
  ``P``, ``d`` the constant ``D``, and the premises have the atom ``a = floor(P/D)``: ``[a, a]``), ``exact`` (``d`` a point and
  ``hi(x)+1 = d*Q`` exactly: ``[0, Q-1]``), ``const`` (``lo(d)`` a positive constant ``c``:
  ``[(lo(x)-c+1)/c, hi(x)/c]``), ``numerator`` (``[0, hi(x)]``);
* ``x % d`` (d >= 1): ``[0, hi(d)-1]`` (rule ``divisor``) or ``[0, hi(x)]`` (rule ``numerator``) when
  x >= 0, else ``[1-hi(d), hi(d)-1]``;
* a mask atom ``a < b`` in the lane class with ``a = v + K`` (``K`` a point) bounds ``v <= hi(b) - 1 - K``
  (and symmetrically for ``<=, >, >=, ==`` and negated atoms); the tightest provable candidate is used.

**partial** mode compares W with P: ``ks*`` stay int64 and all arithmetic keeps W's types, except that
every ``x // d`` and ``x % d`` whose type in W is int64 is computed as
``(x.to(int32) // d.to(int32)).to(int64)`` (``workbench.rule.partial``). Agreement uses the observable rules
with N = W (no size-argument condition; FITS_NARROW asks for W's own width, which keeps the intervals
exact). At each such site, on the lane class where the site must agree, P equals W when ``x`` and ``d``
fit int32 (the casts are exact) and ``d >= 1`` (both truncating divisions are defined, and they agree on
equal operands; ``-2**31 // -1`` cannot occur): the OPERAND_FITS conditions. The divisor's are required on
every launched lane (its class is ``all``, not the site's), so P never divides by a truncated zero where W
would not; a dividend may wrap on lanes where the site is not observed (any int32 dividend with
``d >= 1`` is defined).

The certificate's choices are: the quotient rule of each division/remainder (per lane class), the order in
which each ``&`` is read, whether each access is checked under its mask (observable) or everywhere, the
value it claims for each lane-uniform comparison (``true``/``false``/``open``: a decided one comes with its
DEAD_BRANCH side conditions, :mod:`.uniform`), the uniform comparison an offset's (or a strict intermediate's)
obligations are case-split on (or ``none``), and the multipliers of each side condition. None of them is a
bound.

* a quotient by a constant of a uniform point ``P >= 0`` may use the premises' auxiliary atom for
  ``floor(P / D)`` (rule ``atom``: the point ``[a, a]``; its defining facts are premises);
* a uniform comparison decided ``v`` on a class is the point ``v`` there; a class extended by it with the other
  polarity is empty (no lane): no bound, agreement or condition is needed on it (``where``'s dead branch).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from workbench import kir
from workbench.check.errors import CertificateError
from workbench.check.poly import Poly
from workbench.check.premises import Premises
from workbench.check.sidecond import SideCondition
from workbench.check.trusted.agreement import ACCESS_RULES, AND_ORDERS, AgreementRules
from workbench.check.trusted.conditions import ConditionRules
from workbench.check.trusted.payload import PayloadRules
from workbench.check.trusted.reduction import ReductionRules
from workbench.check.trusted.interval import Interval, LaneClass
from workbench.check.trusted.intervals import QUOTIENT_RULES, REMAINDER_RULES, IntervalRules
from workbench.check.trusted.launch import LaunchRules
from workbench.check.trusted.uniform import UniformRules
from workbench.kir import Kernel, Mode, Node, Op

__all__ = ["ACCESS_RULES", "AND_ORDERS", "MODES", "Analysis", "Oracle", "QUOTIENT_RULES", "REMAINDER_RULES",
           "Widths", "retype"]

# The checker's modes: the two questions about N (size arguments int32) and the question about P (only the
# int64 ``//``/``%`` sites computed in int32; see the partial-mode paragraph of the module docstring).
MODES = ("strict", "observable", "partial")

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
    from workbench.kir.instantiate import instantiation_map

    return instantiation_map(kernel, mode)


class Analysis(LaunchRules, IntervalRules, AgreementRules, PayloadRules, ConditionRules, ReductionRules,
               UniformRules):
    """One run of the checker over one kernel, one mode, one set of choices (given by ``oracle``).

    ``oracle(kind, key, options, works)`` returns the chosen option for a choice point; the trusted checker
    passes the certificate's recorded choices (and fails on a missing one), the search passes a heuristic
    that may call ``works(option)`` to look ahead. Emitted side conditions land in ``self.conditions``."""

    def __init__(self, kernel: Kernel, premises: Premises, mode: str, oracle: Oracle, widths: Widths = Widths(),
                 retyped: tuple[dict[int, Node], dict[int, Node]] | None = None):
        if mode not in MODES:
            raise CertificateError(f"unknown mode {mode!r}; use one of {', '.join(MODES)}", "mode")
        self.k, self.p, self.mode, self.oracle, self.w = kernel, premises, mode, oracle, widths
        nodes = list(kir.walk(*kernel.roots()))
        self.nodes = nodes
        self.key = {id(n): f"n{i}" for i, n in enumerate(nodes)}
        self.by_key = {f"n{i}": n for i, n in enumerate(nodes)}
        # W and N: every node paired with its re-typed counterpart (kir's instantiation map); a caller may
        # pass maps it computed before (they are a pure function of the kernel and the widths)
        self.W, self.N = retyped or (retype(kernel, widths.wide), retype(kernel, widths.narrow))
        if mode == "partial":
            # P keeps W's types everywhere (each rewritten site casts its result back to int64), so the
            # "narrowed" side of every node is W's own: FITS_NARROW becomes "fits its W type".
            self.N = self.W
        self.lower = premises.lower_map
        self.params = {p.name: p for p in kernel.params}
        self.names: dict[int, tuple[str, int]] = {}
        for bnd in kernel.bindings:
            self.names.setdefault(id(bnd.node), (bnd.name, bnd.line))
        self.partial_checked: set[str] = set()  # partial mode: int64 // and % keys checked as P's sites
        self.conditions: dict[str, SideCondition] = {}
        self.generated: set[tuple[str, Poly | None]] = set()  # every distinct obligation emitted
        self.where: dict[str, tuple[Node, LaneClass]] = {}
        self.choices: dict[str, str] = {}
        self._bound: dict[tuple[int, LaneClass], Interval] = {}
        self._agree: set[tuple[int, LaneClass]] = set()
        self._uniform: dict[int, bool] = {}
        self._decided: dict[tuple[int, LaneClass], bool | None] = {}
        self._decomposed: dict[int, tuple[Node, Poly] | None] = {}
        self._launch: dict[int, str] = {}
        self.range_atoms = self._find_range_atoms()
        self.launch_premise = False  # set when the verdict rests on launch.no_x_tail's premise on XBLOCK
        self.launch_premises: set[str] = set()  # "y": a bound rests on launch.no_y_tail's premise on YBLOCK
        # The lanes' linear indices (exact forms, see launch_axis) and their offsets: identical in W and N and
        # in [0, 2**31-1] (assumption: the launch grid's linear index does not wrap). Everything else built
        # from them (2 * xindex) is ordinary arithmetic with bounds and conditions.
        self.launch_nodes: set[int] = set()
        for n in self.nodes:
            if self.launch_axis(n):
                # the exact form's own sub-terms: the offset product and, on y, the block id sum and product
                self.launch_nodes.update(id(x) for x in kir.walk(n) if x.op in (Op.ADD, Op.MUL))
        self.active: LaneClass = frozenset((self.key[id(a)], True) for a in self.range_atoms)
        # Reduction kernels (trusted/reduction.py): the r axis's range atom, r0_index's exact form.
        self._reduction_setup()
        self.launch_nodes.update(self.r_index_nodes)

    def choose(self, kind: str, key: str, options: tuple[str, ...], works: Callable[[str], bool]) -> str:
        got = self.oracle(kind, key, options, works)
        if got not in options:
            raise CertificateError(f"choice {key!r} is {got!r}, not one of {options}", key)
        self.choices[key] = got
        return got


    def lookahead(self, offset: Node, c: LaneClass) -> bool:
        """Would an access's offset agree on ``c``? Only the search asks (through ``works``); the trusted
        run never does, so this answers without looking (the search's subclass looks)."""
        return True
