"""A Python mirror of the Lean definitions in ``lean/Narrowing`` (stage: prove; for testing, no Lean).

Each function transcribes one Lean definition, clause by clause: ``wrap`` (``Ty.wrap``), ``promote``
(``Ty.promote``), ``ty`` (``Expr.ty``), ``evaluate`` (``Expr.eval``), ``agree`` (``Expr.Agree``; ``iabs`` is ``Narrowing.iabs``), ``observe``
(``Kernel.observe``), ``safe`` (``Kernel.Safe``) and ``assert_holds`` (``AssertHolds``, the device_assert
premise on a lane's memory ``Lane.mem``; ``asserts`` is an instance's ``Asserts L``). Tests use it to exercise the generic theorem's statement
on random terms and the hand-built instances on sampled lanes, which is the evidence available where Lean
is not. It is a second transcription, not a substitute for Lean checking the first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from workbench.lean.errors import InstanceError
from workbench.lean.instance import LeanInstance, Payload, PayloadOp, Term, TermOp

WIDE, NARROW = "wide", "narrow"  # NARROW narrows every size leaf; narrow_mode(inst) only inst's sizeArgs


def narrow_mode(inst: LeanInstance) -> tuple[str, frozenset[int]]:
    """``Mode.narrow kernel.sizeArgs``: only the size arguments the instance narrows become int32."""
    return (NARROW, frozenset(a.index for a in inst.size_args if a.narrowed))


@dataclass(frozen=True, slots=True)
class Lane:
    """``Narrowing.Lane``: program ids (axes 0, 1, 2), the grid (``num_programs``), the position along each
    block and the block sizes (0 = XBLOCK, 1 = YBLOCK), size-argument values. Lean's fields are functions
    ``Nat → Int``; here an index past a tuple's end reads 0 (any value would do: the theorem is for all lanes)."""

    pids: tuple[int, ...]
    nprogs: tuple[int, ...]
    pos: tuple[int, ...]
    blocks: tuple[int, ...]
    sizes: tuple[int, ...]
    roff: int = 0  # a reduction step's r0_offset (Narrowing.Lane.roff)
    # Narrowing.Lane.mem: the index tensors' contents, ``mem(ptr, offset) -> int`` (None: every cell 0).
    mem: Callable[[int, int], int] | None = None
    # Narrowing.Lane.undef: a masked-off load's unspecified value, ``undef(is_wide, ptr)``; by default it
    # differs between the two kernels (nothing may rely on it).
    undef: Callable[[bool, int], int] | None = None
    # Narrowing.Lane.fn: the float computations an index value goes through, ``fn(name, value) -> int`` (None: a
    # fixed arbitrary function of both, deterministic).
    fn: Callable[[str, int], int] | None = None

    @classmethod
    def x(cls, pid: int, i: int, xblock: int, sizes: tuple[int, ...], num_programs: int | None = None) -> Lane:
        """A 1-D lane: program ``pid`` along axis 0, element ``i`` of ``tl.arange(0, XBLOCK)``."""
        return cls((pid, 0, 0), (num_programs or pid + 1, 1, 1), (i,), (xblock,), sizes)

    @classmethod
    def xy(cls, pids: tuple[int, int, int], nprogs: tuple[int, int, int], pos: tuple[int, int],
           blocks: tuple[int, int], sizes: tuple[int, ...]) -> Lane:
        """A 2-D lane (``Grid2DWithYZOverflow``): ``pos = (i, j)`` in ``(XBLOCK, YBLOCK)``."""
        return cls(tuple(pids), tuple(nprogs), tuple(pos), tuple(blocks), sizes)

    @staticmethod
    def _at(t: tuple[int, ...], i: int) -> int:
        return t[i] if 0 <= i < len(t) else 0

    def pid(self, axis: int) -> int:
        return self._at(self.pids, axis)

    def nprog(self, axis: int) -> int:
        return self._at(self.nprogs, axis)

    def position(self, b: int) -> int:
        return self._at(self.pos, b)

    def block(self, b: int) -> int:
        return self._at(self.blocks, b)

    def size(self, i: int) -> int:
        return self._at(self.sizes, i)

    def read(self, ptr: int, offset: int) -> int:
        return self.mem(ptr, offset) if self.mem is not None else 0

    def float_fn(self, name: str, v: int) -> int:
        if self.fn is not None:
            return self.fn(name, v)
        import zlib

        return zlib.crc32(f"{name}|{v}".encode()) % 2**16 - 2**15

    def unspecified(self, mode, ptr: int) -> int:
        wide = mode == WIDE
        if self.undef is not None:
            return self.undef(wide, ptr)
        return (2**40 + ptr) if wide else -(2**40) - 7 - ptr


def wrap(ty: str, v: int) -> int:
    match ty:
        case "weak":
            return v
        case "i1":
            return 0 if v == 0 else 1
        case "i32":
            return (v + 2**31) % 2**32 - 2**31
        case "i64":
            return (v + 2**63) % 2**64 - 2**63
    raise InstanceError(f"no wrap rule for type {ty!r}")


def fits32(v: int) -> bool:
    return -(2**31) <= v <= 2**31 - 1


def promote(a: str, b: str) -> str:
    if a == "weak":
        return b
    if b == "weak":
        return a
    if "i64" in (a, b):
        return "i64"
    if "i32" in (a, b):
        return "i32"
    return "i1"


def iabs(v: int) -> int:
    """``Narrowing.iabs``: the exact ``|v|`` (``Expr.abs`` wraps it, so ``|INT_MIN|`` is ``INT_MIN`` again)."""
    return -v if v < 0 else v


def tdiv(a: int, b: int) -> int:
    """``Int.tdiv``: rounds toward zero; ``tdiv a 0 = 0``."""
    if b == 0:
        return 0
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def tmod(a: int, b: int) -> int:
    """``Int.tmod``: ``a - b * tdiv a b`` (sign of the dividend); ``tmod a 0 = a``."""
    return a - b * tdiv(a, b)


_CMP = {
    TermOp.LT: lambda a, b: a < b,
    TermOp.LE: lambda a, b: a <= b,
    TermOp.GT: lambda a, b: a > b,
    TermOp.GE: lambda a, b: a >= b,
    TermOp.EQ: lambda a, b: a == b,
    TermOp.NE: lambda a, b: a != b,
}
_ARITH = {
    TermOp.ADD: lambda a, b: a + b,
    TermOp.SUB: lambda a, b: a - b,
    TermOp.MUL: lambda a, b: a * b,
    TermOp.FLOORDIV: tdiv,
    TermOp.MOD: tmod,
}


def ty(mode: str, t: Term) -> str:
    match t.op:
        case TermOp.PROGRAM_ID | TermOp.NUM_PROGRAMS | TermOp.ARANGE | TermOp.LOOP_OFFSET:
            return "i32"
        case TermOp.BLOCK | TermOp.WEAK:
            return "weak"
        case TermOp.SIZE:
            if mode == WIDE:
                return t.ty
            return "i32" if not isinstance(mode, tuple) or t.value in mode[1] else t.ty
        case TermOp.STRONG | TermOp.CAST | TermOp.LOAD | TermOp.FCONV:
            return t.ty
        case TermOp.ASSUME | TermOp.ABS:
            return ty(mode, t.args[0])
        case TermOp.ADD | TermOp.SUB | TermOp.MUL | TermOp.FLOORDIV | TermOp.MOD:
            return promote(ty(mode, t.args[0]), ty(mode, t.args[1]))
        case TermOp.LT | TermOp.LE | TermOp.GT | TermOp.GE | TermOp.EQ | TermOp.NE | TermOp.AND | TermOp.OR:
            return "i1"
        case TermOp.WHERE:
            return promote(ty(mode, t.args[1]), ty(mode, t.args[2]))
    raise InstanceError(f"no type rule for {t.op}")  # pragma: no cover


def _raw(op: TermOp, vals: list[int]) -> int:
    """The exact result of an operation on its operands' values, before wrapping."""
    match op:
        case TermOp.ADD | TermOp.SUB | TermOp.MUL | TermOp.FLOORDIV | TermOp.MOD:
            return _ARITH[op](vals[0], vals[1])
        case TermOp.LT | TermOp.LE | TermOp.GT | TermOp.GE | TermOp.EQ | TermOp.NE:
            return 1 if _CMP[op](vals[0], vals[1]) else 0
        case TermOp.AND:
            return 1 if vals[0] != 0 and vals[1] != 0 else 0
        case TermOp.OR:
            return 1 if vals[0] != 0 or vals[1] != 0 else 0
        case TermOp.WHERE:
            return vals[1] if vals[0] != 0 else vals[2]
        case TermOp.CAST:
            return vals[0]
        case TermOp.ABS:
            return iabs(vals[0])
    raise InstanceError(f"no evaluation rule for {op}")  # pragma: no cover


def evaluate(mode: str, lane: Lane, t: Term, memo: dict | None = None) -> int:
    memo = {} if memo is None else memo
    key = (mode, id(t))
    if key in memo:
        return memo[key][1]
    match t.op:
        case TermOp.PROGRAM_ID:
            v = lane.pid(t.value)
        case TermOp.NUM_PROGRAMS:
            v = lane.nprog(t.value)
        case TermOp.ARANGE:
            v = lane.position(t.value)
        case TermOp.BLOCK:
            v = lane.block(t.value)
        case TermOp.LOOP_OFFSET:
            v = lane.roff
        case TermOp.SIZE:
            v = wrap(ty(mode, t), lane.size(t.value))
        case TermOp.WEAK:
            v = t.value
        case TermOp.STRONG:
            v = wrap(t.ty, t.value)
        case TermOp.LT | TermOp.LE | TermOp.GT | TermOp.GE | TermOp.EQ | TermOp.NE | TermOp.AND | TermOp.OR:
            v = _raw(t.op, [evaluate(mode, lane, a, memo) for a in t.args])  # already 0/1, not wrapped (as in Lean)
        case TermOp.LOAD:
            if evaluate(mode, lane, t.args[1], memo) != 0:
                v = wrap(t.ty, lane.read(t.value, evaluate(mode, lane, t.args[0], memo)))
            elif t.other is not None:
                v = wrap(t.ty, t.other)
            else:
                v = wrap(t.ty, lane.unspecified(mode, t.value))
        case TermOp.ASSUME:
            v = evaluate(mode, lane, t.args[0], memo)  # the assert is compiled away: the value, unchecked
        case TermOp.FCONV:
            v = wrap(t.ty, lane.float_fn(t.name, evaluate(mode, lane, t.args[0], memo)))
        case _:
            v = wrap(ty(mode, t), _raw(t.op, [evaluate(mode, lane, a, memo) for a in t.args]))
    memo[key] = (t, v)  # keep t alive so its id is not reused
    return v


def same_wrap(tw: str, tn: str, v: int) -> bool:
    return tw == tn or (tw != "i1" and tn != "i1" and fits32(v))


def agree(lane: Lane, t: Term, memo: dict | None = None, mode=NARROW) -> bool:
    """``Expr.Agree``: evaluated on the narrowed operands, node by node."""
    memo = {} if memo is None else memo
    key = ("agree", mode, id(t))
    if key not in memo:
        memo[key] = (t, _agree(lane, t, memo, mode))
    return memo[key][1]


def _agree(lane: Lane, t: Term, memo: dict, mode=NARROW) -> bool:
    if t.op is TermOp.SIZE:
        return same_wrap(t.ty, ty(mode, t), lane.size(t.value))
    if t.op is TermOp.LOAD:
        off, mask = t.args
        if not agree(lane, mask, memo, mode):
            return False
        if evaluate(mode, lane, mask, memo) != 0:
            return agree(lane, off, memo, mode)
        return t.other is not None  # an unspecified value never agrees
    if t.op in (TermOp.ASSUME, TermOp.FCONV):
        return agree(lane, t.args[0], memo, mode)  # the value; the premise is not needed for agreement
    if not t.args:
        return True
    vals = [evaluate(mode, lane, a, memo) for a in t.args]
    ok = [lambda i=i: agree(lane, t.args[i], memo, mode) for i in range(len(t.args))]
    # Short-circuit readings, as Narrowing.Expr.Agree (and the checker) state them.
    if t.op is TermOp.AND:
        return (ok[0]() and (vals[0] == 0 or ok[1]())) or (ok[1]() and (vals[1] == 0 or ok[0]()))
    if t.op is TermOp.OR:
        return (ok[0]() and (vals[0] != 0 or ok[1]())) or (ok[1]() and (vals[1] != 0 or ok[0]()))
    if t.op is TermOp.WHERE:
        branch = ok[1]() if vals[0] != 0 else ok[2]()
        return ok[0]() and branch and same_wrap(ty(WIDE, t), ty(mode, t), _raw(t.op, vals))
    if not all(f() for f in ok):
        return False
    if t.op in (TermOp.FLOORDIV, TermOp.MOD) and vals[1] < 1:
        return False
    if t.op in (TermOp.ADD, TermOp.SUB, TermOp.MUL, TermOp.FLOORDIV, TermOp.MOD, TermOp.WHERE, TermOp.ABS):
        return same_wrap(ty(WIDE, t), ty(mode, t), _raw(t.op, vals))
    return True  # comparisons, masks and casts add no condition of their own


def _payload(mode: str, lane: Lane, inst: LeanInstance, p: Payload, memo: dict):
    match p.op:
        case PayloadOp.LOAD:
            if p.index is None or not 0 <= p.index < len(inst.loads):
                return ("const", "missing-load")
            ld = inst.loads[p.index]
            if evaluate(mode, lane, ld.mask, memo) != 0:
                return ("mem", ld.ptr, evaluate(mode, lane, ld.offset, memo))
            return ("const", ld.other)
        case PayloadOp.INT:
            return ("int", evaluate(mode, lane, p.cond, memo))
        case PayloadOp.CONST:
            return ("const", p.name)
        case PayloadOp.ACC | PayloadOp.REDUCE | PayloadOp.SCAN:
            raise InstanceError(f"{p.op.value} is a reduction payload: evaluate it with workbench.lean.rmodel")
        case PayloadOp.UN:
            return ("un", p.name, _payload(mode, lane, inst, p.args[0], memo))
        case PayloadOp.BIN:
            return ("bin", p.name, _payload(mode, lane, inst, p.args[0], memo), _payload(mode, lane, inst, p.args[1], memo))
        case PayloadOp.WHERE:
            pick = p.args[0] if evaluate(mode, lane, p.cond, memo) != 0 else p.args[1]
            return _payload(mode, lane, inst, pick, memo)
    raise InstanceError(f"no payload rule for {p.op}")  # pragma: no cover


def observe(mode: str, lane: Lane, inst: LeanInstance) -> tuple:
    """``Kernel.observe``: each load's (ptr, offset) or None, and the store's (ptr, offset, value) or None."""
    memo: dict = {}
    loads = tuple((ld.ptr, evaluate(mode, lane, ld.offset, memo)) if evaluate(mode, lane, ld.mask, memo) != 0 else None
                  for ld in inst.loads)
    st = inst.store
    store = None
    if evaluate(mode, lane, st.mask, memo) != 0:
        store = (st.ptr, evaluate(mode, lane, st.offset, memo), _payload(mode, lane, inst, st.value, memo))
    return loads, store


def _payload_agree(lane: Lane, p: Payload, memo: dict, mode=NARROW) -> bool:
    if p.cond is not None and not agree(lane, p.cond, memo, mode):
        return False
    if p.op is PayloadOp.WHERE:  # only the selected branch
        return _payload_agree(lane, p.args[0] if evaluate(mode, lane, p.cond, memo) != 0 else p.args[1], memo, mode)
    return all(_payload_agree(lane, a, memo, mode) for a in p.args)


def assert_holds(lane: Lane, t: Term) -> bool:
    """``Narrowing.AssertHolds`` for assume node ``t``: where its mask holds in the wide kernel, the value lies
    within the stated bounds (a premise about the inputs, i.e. about ``lane.mem``)."""
    v, mask, lo, hi = t.args
    memo: dict = {}
    if evaluate(WIDE, lane, mask, memo) == 0:
        return True
    x = evaluate(WIDE, lane, v, memo)
    return (not t.value & 1 or evaluate(WIDE, lane, lo, memo) <= x) and \
        (not t.value & 2 or x < evaluate(WIDE, lane, hi, memo))


def asserts(lane: Lane, inst: LeanInstance) -> bool:
    """The instance's ``Asserts L``: every assume node's premise holds on this lane."""
    from workbench.lean.render import term_roots
    from workbench.lean.instance import assumes_in

    return all(assert_holds(lane, t) for t in assumes_in(term_roots(inst)))


def safe(lane: Lane, inst: LeanInstance) -> bool:
    """``Kernel.Safe`` on one lane (narrowing exactly the instance's ``sizeArgs``)."""
    memo: dict = {}
    mode = narrow_mode(inst)
    if not all(fits32(lane.size(a.index)) for a in inst.size_args if a.narrowed):
        return False
    for ld in inst.loads:
        if not agree(lane, ld.mask, memo, mode):
            return False
        if evaluate(mode, lane, ld.mask, memo) != 0 and not agree(lane, ld.offset, memo, mode):
            return False
    st = inst.store
    if not agree(lane, st.mask, memo, mode):
        return False
    if evaluate(mode, lane, st.mask, memo) != 0:
        return agree(lane, st.offset, memo, mode) and _payload_agree(lane, st.value, memo, mode)
    return True
