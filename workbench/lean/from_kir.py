"""From ``workbench.kir`` kernels to the emitter's term trees (stage: prove; no Lean needed).

``kernel_terms`` maps a parsed pointwise kernel (``Grid1D`` or ``Grid2DWithYZOverflow``) onto
``Load``/``Store``/``Term``/``Payload``, op by op: every ``kir.Op`` is handled on purpose and anything the Lean
model does not have is refused by name (``UnsupportedError``): other grids, program ids or ``tl.num_programs``
outside axes 0-2, blocks other than ``XBLOCK``/``YBLOCK``, bitwise ``&``/``|`` on non-mask integers, integer
types other than i1/i32/i64. Grid leaves keep their axis or block (``XBLOCK`` is block 0, ``YBLOCK`` block 1,
as ``Narrowing.Lane``): the kernel's own terms compute ``y = program_id(1) + program_id(2) * num_programs(1)``. Implicit casts (kir's promotion of an operand to the computation type) are dropped,
because ``Narrowing.Expr.ty`` re-derives promotion in each mode; an implicit ``i32 -> i64`` cast kept as an
explicit one would make the narrowed kernel compute in 64 bits. Size arguments and element counts become
``size i`` where ``i`` is the parameter's position among the kernel's scalar parameters (``Lane.sizes``);
pointers are numbered by position among the pointer parameters.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from workbench.errors import UnsupportedError
from workbench.lean.reduction import RCarry, RKernelTerms, RLoad, RStore, acc, reduce, scan
from workbench.lean.instance import (
    Load,
    Payload,
    PayloadOp,
    Store,
    Term,
    TermOp,
    AXES,
    BLOCKS,
    arange,
    assume,
    block,
    fconv,
    load_index,
    load_value,
    num_programs,
    loop_offset,
    pconst,
    program_id,
    size,
    strong,
    weak,
)

_ARITH = {"ADD": TermOp.ADD, "SUB": TermOp.SUB, "MUL": TermOp.MUL, "FLOORDIV": TermOp.FLOORDIV, "MOD": TermOp.MOD}
_CMP = {"LT": TermOp.LT, "LE": TermOp.LE, "GT": TermOp.GT, "GE": TermOp.GE, "EQ": TermOp.EQ, "NE": TermOp.NE}


@dataclass(frozen=True, slots=True)
class KernelTerms:
    loads: tuple[Load, ...]
    store: Store | None  # None for a reduction kernel (its accesses are in ``reduction``)
    scalars: tuple[str, ...]  # scalar parameter names; position = index in Lane.sizes
    pointers: tuple[str, ...]
    narrowed: tuple[int, ...]  # scalar positions of the `size` parameters (declared int32 by the narrowing)
    by_node: dict = field(default_factory=dict, compare=False)  # id(kir node) -> Term (certificate choices)
    reduction: RKernelTerms | None = None  # a triton_red_* / triton_per_* kernel


_DATA_BINARY = {"add": TermOp.ADD, "sub": TermOp.SUB, "mul": TermOp.MUL, "lt": TermOp.LT, "le": TermOp.LE,
                "gt": TermOp.GT, "ge": TermOp.GE, "eq": TermOp.EQ, "ne": TermOp.NE, "and": TermOp.AND, "or": TermOp.OR}


_INT_MINMAX = {"triton_helpers.minimum": TermOp.LT, "triton_helpers.maximum": TermOp.GT,
               "tl.minimum": TermOp.LT, "tl.maximum": TermOp.GT}


def _is_float(t) -> bool:
    from workbench.kir.types import FloatType

    return isinstance(t, FloatType)


def _index_ty(t, where: str) -> str:
    got = _ty(t, where)
    if got not in ("i32", "i64"):
        raise UnsupportedError(f"{where}: a loaded index of type {t} has no Lean counterpart (i32 and i64 index tensors)")
    return got


def _ty(t, where: str) -> str:
    from workbench.kir.types import IntType

    if isinstance(t, IntType) and t.bits in (1, 32, 64):
        return f"i{t.bits}"
    raise UnsupportedError(f"{where}: integer type {t} has no Lean counterpart (only i1, i32, i64 are modelled)")


class _Converter:
    def __init__(self, kernel) -> None:
        from workbench.kir import Op

        self.narrowed = tuple(i for i, p in enumerate(p for p in kernel.params if p.kind not in ("pointer", "constexpr"))
                              if p.kind == "size")
        self.Op = Op
        self.k = kernel
        if kernel.grid not in ("1d", "2d"):
            raise UnsupportedError(f"{kernel.name}: {kernel.grid} grids are not modelled in Lean (Grid1D and Grid2DWithYZOverflow only)")
        self.scalars = tuple(p.name for p in kernel.params if p.kind not in ("pointer", "constexpr"))
        self.pointers = tuple(p.name for p in kernel.params if p.kind == "pointer")
        self.loads_by_id: dict[int, int] = {id(n): i for i, n in enumerate(kernel.loads)}
        self.memo: dict[int, Term] = {}
        self.pmemo: dict[int, Payload] = {}

    def where(self, n) -> str:
        return f"{self.k.name}: {n.op.name} node"

    def axis(self, n) -> int:
        if n.attr not in AXES:
            raise UnsupportedError(f"{self.where(n)}: axis {n.attr!r} is not modelled in Lean (axes {AXES})")
        return n.attr

    def block_number(self, n, name) -> int:
        if name not in BLOCKS:
            raise UnsupportedError(f"{self.where(n)}: block {name!r} is not modelled in Lean (only {sorted(BLOCKS)})")
        return BLOCKS[name]

    def term(self, n) -> Term:
        """An integer (index or mask) node as a ``Term``."""
        if id(n) in self.memo:
            return self.memo[id(n)]
        Op = self.Op
        if n.payload:
            raise UnsupportedError(f"{self.where(n)} depends on tensor data (indirect indexing) and cannot be an index term")
        match n.op:
            case Op.CONST:
                value, is_weak = n.attr
                t = weak(int(value)) if is_weak else strong(int(value), _ty(n.type, self.where(n)))
            case Op.ARG:
                t = size(self.scalars.index(n.attr), _ty(n.type, self.where(n)))
            case Op.CONSTEXPR:
                t = block(self.block_number(n, n.attr))
            case Op.PROGRAM_ID:
                t = program_id(self.axis(n))
            case Op.ARANGE:
                start, blk = n.attr
                lane = arange(self.block_number(n, blk))
                t = lane if start == 0 else Term(TermOp.ADD, (lane, weak(int(start))))
            case Op.NUM_PROGRAMS:
                t = num_programs(self.axis(n))
            case Op.ROFFSET:
                t = loop_offset()  # the step's r0_offset (Narrowing.Expr.loopOffset)
            case Op.ADD | Op.SUB | Op.MUL | Op.FLOORDIV | Op.MOD:
                t = Term(_ARITH[n.op.name], (self.term(n.args[0]), self.term(n.args[1])))
            case Op.NEG:
                t = Term(TermOp.SUB, (weak(0), self.term(n.args[0])))  # semantic.minus: 0 - x in x's type
            case Op.ABS:
                t = Term(TermOp.ABS, (self.term(n.args[0]),))  # Narrowing.Expr.abs: |x| wrapped (INT_MIN stays)
            case Op.LT | Op.LE | Op.GT | Op.GE | Op.EQ | Op.NE:
                t = Term(_CMP[n.op.name], (self.term(n.args[0]), self.term(n.args[1])))
            case Op.AND | Op.OR:
                if _ty(n.type, self.where(n)) != "i1":
                    raise UnsupportedError(f"{self.where(n)}: bitwise {n.op.name.lower()} on {n.type} (only masks are modelled)")
                t = Term(TermOp.AND if n.op is Op.AND else TermOp.OR, (self.term(n.args[0]), self.term(n.args[1])))
            case Op.CAST:
                inner = self.term(n.args[0])
                # Implicit casts are kir's promotion, which Narrowing.Expr.ty re-derives per mode.
                from workbench.kir.build import IMPLICIT

                t = inner if n.attr == IMPLICIT else inner.to(_ty(n.type, self.where(n)))
            case Op.BROADCAST:
                t = self.term(n.args[0])  # the same value in every lane
            case Op.WHERE:
                t = Term(TermOp.WHERE, tuple(self.term(a) for a in n.args))
            case Op.ASSUME:
                # tl.device_assert on a loaded index (kir.indirect): its value is the data term, the bounds are
                # index terms; the instance states the premise (Narrowing.AssertHolds) as a hypothesis.
                has_lo, has_hi = n.attr
                rest = list(n.args[2:])
                lo = self.term(rest.pop(0)) if has_lo else None
                hi = self.term(rest.pop(0)) if has_hi else None
                t = assume(self.data(n.args[0]), self.term(n.args[1]), lo, hi)
            case Op.FCONST | Op.UNDEF | Op.LOAD | Op.STORE | Op.PAYLOAD:
                raise UnsupportedError(f"{self.where(n)} is a payload value, not an index term")
            case _:
                raise UnsupportedError(f"{self.where(n)} has no Lean counterpart")
        self.memo[id(n)] = t
        return t

    def data(self, n) -> Term:
        """The value an assert bounds: an integer loaded from an index tensor, possibly under integer data
        operations (``tmp0 + ks1``, ``tmp0 < 0``, ``tl.where``) that Lean's ``Expr`` has (``workbench.kir``
        writes them as ``PAYLOAD`` nodes named by the operation). Anything else is refused by name."""
        if not n.payload:
            return self.term(n)
        if id(n) in self.memo:
            return self.memo[id(n)]
        Op = self.Op
        match n.op:
            case Op.LOAD:
                value = self.index_other(n.args[2], n)
                t = load_index(self.pointers.index(n.attr), _index_ty(n.type, self.where(n)), self.term(n.args[0]),
                               self.term(n.args[1]), value)
            case Op.PAYLOAD if n.attr in _DATA_BINARY and len(n.args) == 2:
                a, b = (self.data(x) for x in n.args)
                self._no_hidden_promotion(n, (a, b))
                t = Term(_DATA_BINARY[n.attr], (a, b))
                if n.attr in ("and", "or") and _ty(n.type, self.where(n)) != "i1":
                    raise UnsupportedError(f"{self.where(n)}: bitwise {n.attr} on integer data (only masks are modelled)")
            case Op.PAYLOAD if n.attr == "neg" and len(n.args) == 1:
                t = Term(TermOp.SUB, (weak(0), self.data(n.args[0])))
            case Op.PAYLOAD if n.attr == "to" and len(n.args) == 1 and _is_float(n.args[0].type):
                # an integer computed in floating point from one index value (T5's relative-position bucket)
                name, x = self.float_chain(n.args[0])
                if x is None:
                    raise UnsupportedError(f"{self.where(n)}: a float computation with no integer input has no Lean "
                                           "counterpart as an index value")
                t = fconv(f"{name}:{n.type}", _ty(n.type, self.where(n)), self.term(x))
            case Op.PAYLOAD if n.attr == "to" and len(n.args) == 1:
                t = self.data(n.args[0]).to(_ty(n.type, self.where(n)))
            case Op.PAYLOAD if n.attr in _INT_MINMAX and len(n.args) == 2:
                # integer minimum/maximum (arith.minsi/maxsi) is tl.where(a < b, a, b) / tl.where(a > b, a, b)
                a, b = (self.data(x) for x in n.args)
                self._no_hidden_promotion(n, (a, b))
                t = Term(TermOp.WHERE, (Term(_INT_MINMAX[n.attr], (a, b)), a, b))
            case Op.WHERE:
                c, a, b = (self.data(x) for x in n.args)
                self._no_hidden_promotion(n, (a, b))
                t = Term(TermOp.WHERE, (c, a, b))
            case Op.CAST:
                from workbench.kir.build import IMPLICIT

                inner = self.data(n.args[0])
                t = inner if n.attr == IMPLICIT else inner.to(_ty(n.type, self.where(n)))
            case Op.BROADCAST:
                t = self.data(n.args[0])
            case _:
                raise UnsupportedError(f"{self.where(n)} on loaded data has no Lean counterpart (an asserted index "
                                       "may use + - *, comparisons, masks, where and integer casts of loaded data)")
        self.memo[id(n)] = t
        return t

    def float_chain(self, n, found=None) -> tuple[str, object]:
        """The text of a float computation of one integer index value (``x.to(tl.float32)``, float payload
        math, float literals) and that index node; anything else (a float load, two integer inputs, a
        multi-output payload) is refused by name."""
        Op = self.Op
        found = [] if found is None else found
        if n.op is Op.FCONST:
            return str(n.attr[0]), (found[0] if found else None)
        if n.op is Op.BROADCAST:
            return self.float_chain(n.args[0], found)
        if n.op is Op.PAYLOAD and n.attr == "to" and len(n.args) == 1 and not n.args[0].payload:
            x = n.args[0]
            if found and found[0] is not x:
                raise UnsupportedError(f"{self.where(n)}: a float computation of two index values has no Lean "
                                       "counterpart (Expr.fconv takes one)")
            found.append(x)
            return f"to:{n.type}(x)", x
        if n.op is Op.PAYLOAD and isinstance(n.attr, str) and _is_float(n.type) and n.args:
            parts = [self.float_chain(a, found)[0] for a in n.args]
            return f"{n.attr}:{n.type}({', '.join(parts)})", (found[0] if found else None)
        raise UnsupportedError(f"{self.where(n)}: {n.op.name} {n.attr!r} in a float computation of an index value "
                               "has no Lean counterpart (one integer input converted to float, float payload math "
                               "and float literals only)")

    def _no_hidden_promotion(self, n, operands) -> None:
        """kir writes an implicit promotion of loaded data as ``.to`` (it cannot tell it from an explicit one); an
        explicit cast is right in both kernels only when the promotion it stands for is the same in both, i.e.
        no operand's type depends on the narrowing. Otherwise the narrowed kernel would promote differently
        than the cast says: refused by name (the checker refuses such data as PAYLOAD_TYPE anyway)."""
        from workbench.lean.model import NARROW, WIDE, ty

        narrowed = (NARROW, frozenset(self.narrowed))
        if any(a.op is TermOp.CAST for a in operands) and any(ty(WIDE, a) != ty(narrowed, a) for a in operands):
            raise UnsupportedError(f"{self.where(n)}: loaded data converted next to an operand whose type changes "
                                   "with the narrowing (an implicit promotion kir writes as .to())")

    def payload(self, n) -> Payload:
        if id(n) in self.pmemo:
            return self.pmemo[id(n)]
        Op = self.Op
        if not n.payload and n.op is not Op.WHERE:
            p = Payload(PayloadOp.INT, cond=self.term(n))  # an index value stored or converted as data
        else:
            match n.op:
                case Op.LOAD:
                    p = load_value(self.loads_by_id[id(n)])
                case Op.FCONST:
                    p = pconst(str(n.attr[0]))
                case Op.UNDEF:
                    p = pconst("undef")
                case Op.BROADCAST:
                    p = self.payload(n.args[0])
                case Op.ACC:
                    p = acc(self.carry_index(n))
                case Op.REDUCE:
                    # Output k of a reduction over the row: one uninterpreted combination per (function, k) of
                    # the operands' values at every r position (several operands: welford, max_with_index).
                    fn, k = n.attr
                    p = reduce(f"{fn}#{k}:{n.type}", self._apply("row", [self.payload(a) for a in n.args]))
                case Op.SCAN:
                    # Output k of tl.associative_scan: at r position r, one uninterpreted combination per (helper, k)
                    # of the operands' values at the row's positions r' <= r (Narrowing.RPayload.scan). kir checked
                    # the helper is pure payload; the name carries the helper so two scans combine alike only
                    # when the helper is the same one.
                    fn, _text, k = n.attr
                    p = scan(f"{fn}#{k}:{n.type}", self._apply("row", [self.payload(a) for a in n.args]))
                case Op.WHERE if not n.args[0].payload:
                    cond = self.term(n.args[0])
                    p = Payload(PayloadOp.WHERE, (self.payload(n.args[1]), self.payload(n.args[2])), cond=cond)
                case _:
                    # Every other payload operation (float math, conversions, comparisons or where on data) is
                    # an uninterpreted function of its arguments: same arguments give the same value.
                    name = f"{n.attr if n.op is Op.PAYLOAD else n.op.name.lower()}:{n.type}"
                    p = self._apply(name, [self.payload(a) for a in n.args])
        self.pmemo[id(n)] = p
        return p

    @staticmethod
    def _apply(name: str, args: list[Payload]) -> Payload:
        if not args:
            return pconst(name)
        if len(args) == 1:
            return Payload(PayloadOp.UN, (args[0],), name=name)
        if len(args) == 2:
            return Payload(PayloadOp.BIN, (args[0], args[1]), name=name)
        p = args[-1]  # n-ary operations as a right-nested chain of named pairs (still injective)
        for i in range(len(args) - 2, -1, -1):
            p = Payload(PayloadOp.BIN, (args[i], p), name=f"{name}#{i}")
        return p

    def carry_index(self, n) -> int:
        for i, c in enumerate(self.k.carries):
            if (c.name, c.loop) == n.attr:
                return i
        raise UnsupportedError(f"{self.where(n)}: accumulator {n.attr!r} has no carry")  # pragma: no cover

    def other(self, n) -> str:
        """A load's ``other=`` as the name of the constant a masked-off lane reads (``Load.other``)."""
        Op = self.Op
        match n.op:
            case Op.FCONST:
                return str(n.attr[0])
            case Op.UNDEF:
                return "undef"
            case Op.CONST:
                return str(n.attr[0])
            case Op.PAYLOAD if n.attr == "to" and len(n.args) == 1 and n.args[0].op in (Op.FCONST, Op.CONST):
                # ``other=0.0`` on an ``*i64`` tensor: Triton converts the constant to the element type; the
                # converted constant is one named value, the same in both kernels.
                return f"to:{n.type}({n.args[0].attr[0]})"
        raise UnsupportedError(f"{self.where(n)}: load `other=` of this form is not modelled")

    def index_other(self, n, load) -> int | None:
        """A loaded index's ``other=`` as the integer a masked-off lane reads (``Expr.load``'s ``other``): none
        (unspecified), an integer constant, or a float constant Triton converts to the integer element type
        (``other=0.0`` on ``*i64``: ``fptosi``, exact for an integral value)."""
        import math

        Op = self.Op
        if n.op is Op.UNDEF:
            return None
        if n.op is Op.CONST:
            return int(n.attr[0])
        if n.op is Op.PAYLOAD and n.attr == "to" and len(n.args) == 1 and n.args[0].op in (Op.FCONST, Op.CONST):
            x = float(n.args[0].attr[0])
            if math.isfinite(x) and x.is_integer() and -(2**31) <= x <= 2**31 - 1:
                return int(x)
        raise UnsupportedError(f"{self.where(load)}: a loaded index's other= of this form is not modelled "
                               f"({n.op.name} {n.attr!r})")


def kernel_terms(kernel) -> KernelTerms:
    """The emitter's terms for a parsed ``workbench.kir.Kernel`` (1-D or 2-D grid, one store; or a reduction
    kernel: loads and stores with their loops, the accumulators' carries)."""
    c = _Converter(kernel)
    narrowed = tuple(i for i, name in enumerate(c.scalars) if kernel.param(name).kind == "size")
    if getattr(kernel, "reduction", None) is not None:
        loads = tuple(RLoad(Load(c.pointers.index(n.attr), c.term(n.args[0]), c.term(n.args[1]), c.other(n.args[2])), lp)
                      for n, lp in zip(kernel.loads, kernel.load_loops))
        stores = tuple(RStore(Store(c.pointers.index(n.attr), c.term(n.args[0]), c.term(n.args[2]), c.payload(n.args[1])), lp)
                       for n, lp in zip(kernel.stores, kernel.store_loops))
        carries = tuple(RCarry(cr.loop, c.payload(cr.init), c.payload(cr.update)) for cr in kernel.carries)
        red = RKernelTerms(kernel.reduction.loops, loads, stores, carries, kernel.reduction.static_block)
        return KernelTerms((), None, c.scalars, c.pointers, narrowed, dict(c.memo), red)
    if len(kernel.stores) != 1:
        raise UnsupportedError(f"{kernel.name}: {len(kernel.stores)} stores (the Lean model has one store per kernel)")
    loads = tuple(
        Load(c.pointers.index(n.attr), c.term(n.args[0]), c.term(n.args[1]), c.other(n.args[2])) for n in kernel.loads
    )
    st = kernel.stores[0]
    store = Store(c.pointers.index(st.attr), c.term(st.args[0]), c.term(st.args[2]), c.payload(st.args[1]))
    return KernelTerms(loads, store, c.scalars, c.pointers, narrowed, {k: t for k, t in c.memo.items()})
