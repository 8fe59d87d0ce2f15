"""Index terms and symbolic payloads: the kernel half of a Lean instance (stage: prove; pure data, no Lean).

``Term`` trees mirror the constructors of ``Narrowing.Expr`` (``lean/Narrowing/Expr.lean``) one ``TermOp``
per constructor, and ``Payload`` trees those of ``Narrowing.Payload``/``RPayload`` (symbolic values: no
floating-point claim). ``Load``/``Store`` pair them into a kernel's accesses. The lowest layer of
``workbench.lean``: it imports nothing from the package but its errors; ``instance`` (the certified
kernel), the renderers, the derivation and the mirrors build on it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from workbench.lean.errors import InstanceError

class TermOp(enum.Enum):
    """Integer ops of index expressions; one per ``Narrowing.Expr`` constructor."""

    # Leaves. Grid leaves carry an axis or block number in ``value``: axes 0, 1, 2 of ``tl.program_id`` /
    # ``tl.num_programs``; blocks 0 = XBLOCK (x), 1 = YBLOCK (y) (``Narrowing.Lane``).
    PROGRAM_ID = "programId"
    NUM_PROGRAMS = "numPrograms"
    ARANGE = "arange"  # this lane's element of tl.arange(0, block)
    BLOCK = "block"  # the block-size constexpr (weak)
    LOOP_OFFSET = "loopOffset"  # a reduction step's r0_offset (int32; Narrowing.Lane.roff)
    SIZE = "size"
    WEAK = "weak"  # untyped Python literal / constexpr: adopts the other operand's type
    STRONG = "strong"  # typed constant, e.g. tl.full([1], c, tl.int64)
    # Arithmetic: wraps to the promoted type (two's complement).
    ADD = "add"
    SUB = "sub"
    MUL = "mul"
    # Truncating division and remainder with the dividend's sign (arith.divsi / arith.remsi).
    FLOORDIV = "floordiv"
    MOD = "mod"
    # tl_math.abs on a signed integer: the exact |x| wrapped to x's type (INT_MIN stays INT_MIN).
    ABS = "abs"
    # Comparisons: yield an i1 mask.
    LT = "lt"
    LE = "le"
    GT = "gt"
    GE = "ge"
    EQ = "eq"
    NE = "ne"
    # Masks.
    AND = "mand"
    OR = "mor"
    WHERE = "select"
    CAST = "cast"
    # An integer computed from an index value through floating point (``x.to(tl.float32)``, float math,
    # ``.to(ty)``): ``name`` is the float computation's text, an uninterpreted function of the value.
    FCONV = "fconv"
    # Indirect indexing. An integer loaded from an index tensor: ``value`` is the pointer's position, ``ty`` its
    # element type, args (offset, mask), ``other`` the ``other=`` constant (None: unspecified when masked off).
    LOAD = "load"
    # A tl.device_assert premise on a loaded index (``Narrowing.Expr.assume``): args (value, mask, lo, hi),
    # ``value`` the flags ``1`` (lower bound stated) | ``2`` (upper bound stated); an absent bound is ``weak 0``.
    ASSUME = "assume"


GRID_LEAVES = frozenset({TermOp.PROGRAM_ID, TermOp.NUM_PROGRAMS, TermOp.ARANGE, TermOp.BLOCK})
LEAVES = GRID_LEAVES | {TermOp.SIZE, TermOp.WEAK, TermOp.STRONG, TermOp.LOOP_OFFSET}
AXES = (0, 1, 2)  # tl.program_id / tl.num_programs axes
BLOCKS = {"XBLOCK": 0, "YBLOCK": 1, "R0_BLOCK": 2}  # block numbers of Narrowing.Lane.pos / Lane.block
BINARY = frozenset({TermOp.ADD, TermOp.SUB, TermOp.MUL, TermOp.FLOORDIV, TermOp.MOD, TermOp.AND, TermOp.OR})
COMPARISONS = frozenset({TermOp.LT, TermOp.LE, TermOp.GT, TermOp.GE, TermOp.EQ, TermOp.NE})
TYPES = ("i1", "i32", "i64")


@dataclass(frozen=True, slots=True)
class Term:
    """An index-expression node. ``value`` holds a constant or a size argument's index; ``ty`` a type."""

    op: TermOp
    args: tuple[Term, ...] = ()
    value: int | None = None
    ty: str | None = None
    other: int | None = None  # LOAD: the ``other=`` constant (None: none given)
    name: str | None = None  # FCONV: the float computation's text

    def __post_init__(self) -> None:
        arity = {TermOp.WHERE: 3, TermOp.CAST: 1, TermOp.ABS: 1, TermOp.FCONV: 1, TermOp.ASSUME: 4}.get(self.op, 0 if self.op in LEAVES else 2)
        if len(self.args) != arity:
            raise InstanceError(f"term {self.op.value} takes {arity} operands, got {len(self.args)}")
        if self.op in (TermOp.SIZE, TermOp.WEAK, TermOp.STRONG) and self.value is None:
            raise InstanceError(f"term {self.op.value} needs a value")
        if self.op in (TermOp.PROGRAM_ID, TermOp.NUM_PROGRAMS) and self.value not in AXES:
            raise InstanceError(f"term {self.op.value} needs an axis in {AXES}, got {self.value!r}")
        if self.op in (TermOp.ARANGE, TermOp.BLOCK) and self.value not in BLOCKS.values():
            raise InstanceError(f"term {self.op.value} needs a block number in {sorted(BLOCKS.values())} "
                                f"(0 = XBLOCK, 1 = YBLOCK, 2 = R0_BLOCK), got {self.value!r}")
        if self.op in (TermOp.SIZE, TermOp.STRONG, TermOp.CAST, TermOp.FCONV) and self.ty not in TYPES:
            raise InstanceError(f"term {self.op.value} needs a type in {TYPES}, got {self.ty!r}")
        if self.op is TermOp.LOAD and (not isinstance(self.value, int) or self.value < 0 or self.ty not in ("i32", "i64")):
            raise InstanceError(f"term load needs a pointer position and an index type i32/i64, got {self.value!r}, {self.ty!r}")
        if self.op is TermOp.ASSUME and self.value not in (1, 2, 3):
            raise InstanceError(f"term assume needs bound flags 1 (lower), 2 (upper) or 3 (both), got {self.value!r}")
        if self.other is not None and self.op is not TermOp.LOAD:
            raise InstanceError(f"term {self.op.value} takes no `other`")
        if (self.name is not None) != (self.op is TermOp.FCONV):
            raise InstanceError(f"term {self.op.value}: a name is given exactly to fconv terms (got {self.name!r})")

    # Builders keep hand-written kernels readable (`x0 = xindex % ks0`).
    def _bin(self, op: TermOp, other: Term | int) -> Term:
        return Term(op, (self, _lift(other)))

    def __add__(self, o: Term | int) -> Term:
        return self._bin(TermOp.ADD, o)

    def __sub__(self, o: Term | int) -> Term:
        return self._bin(TermOp.SUB, o)

    def __mul__(self, o: Term | int) -> Term:
        return self._bin(TermOp.MUL, o)

    def __floordiv__(self, o: Term | int) -> Term:
        return self._bin(TermOp.FLOORDIV, o)

    def __mod__(self, o: Term | int) -> Term:
        return self._bin(TermOp.MOD, o)

    def __and__(self, o: Term) -> Term:
        return self._bin(TermOp.AND, o)

    def __or__(self, o: Term) -> Term:
        return self._bin(TermOp.OR, o)

    def lt(self, o: Term | int) -> Term:
        return self._bin(TermOp.LT, o)

    def le(self, o: Term | int) -> Term:
        return self._bin(TermOp.LE, o)

    def gt(self, o: Term | int) -> Term:
        return self._bin(TermOp.GT, o)

    def ge(self, o: Term | int) -> Term:
        return self._bin(TermOp.GE, o)

    def to(self, ty: str) -> Term:
        return Term(TermOp.CAST, (self,), ty=ty)

    def to_json(self) -> dict:
        out: dict = {"op": self.op.value}
        if self.args:
            out["args"] = [a.to_json() for a in self.args]
        if self.value is not None:
            out["value"] = self.value
        if self.ty is not None:
            out["ty"] = self.ty
        if self.other is not None:
            out["other"] = self.other
        if self.name is not None:
            out["name"] = self.name
        return out

    @staticmethod
    def from_json(d: dict) -> Term:
        try:
            op = TermOp(d["op"])
        except (KeyError, ValueError, TypeError) as exc:
            raise InstanceError(f"unknown term op in {d!r}; expected one of {[o.value for o in TermOp]}") from exc
        value = d.get("value")
        if value is None and op in GRID_LEAVES:
            value = 0  # files written before 2-D grids: axis 0 / XBLOCK was the only one
        return Term(op, tuple(Term.from_json(a) for a in d.get("args", ())), value, d.get("ty"), d.get("other"),
                    d.get("name"))


def _lift(x: Term | int) -> Term:
    return x if isinstance(x, Term) else weak(x)


def program_id(axis: int = 0) -> Term:
    return Term(TermOp.PROGRAM_ID, value=axis)


def num_programs(axis: int) -> Term:
    return Term(TermOp.NUM_PROGRAMS, value=axis)


def loop_offset() -> Term:
    """The current reduction step's ``r0_offset`` (``Narrowing.Expr.loopOffset``)."""
    return Term(TermOp.LOOP_OFFSET)


def arange(b: int = 0) -> Term:
    """This lane's element of ``tl.arange(0, block b)`` (0 = XBLOCK, 1 = YBLOCK, 2 = R0_BLOCK)."""
    return Term(TermOp.ARANGE, value=b)


def block(b: int = 0) -> Term:
    """The block-size constexpr of block ``b`` (0 = XBLOCK, 1 = YBLOCK, 2 = R0_BLOCK)."""
    return Term(TermOp.BLOCK, value=b)


def size(index: int, ty: str = "i64") -> Term:
    return Term(TermOp.SIZE, value=index, ty=ty)


def weak(c: int) -> Term:
    return Term(TermOp.WEAK, value=c)


def strong(c: int, ty: str) -> Term:
    return Term(TermOp.STRONG, value=c, ty=ty)


def where(c: Term, a: Term | int, b: Term | int) -> Term:
    return Term(TermOp.WHERE, (c, _lift(a), _lift(b)))


def load_index(ptr: int, ty: str, offset: Term, mask: Term, other: int | None = None) -> Term:
    """An integer loaded from index tensor ``ptr`` (element type ``ty``) at ``offset`` under ``mask``."""
    return Term(TermOp.LOAD, (offset, mask), value=ptr, ty=ty, other=other)


def fconv(name: str, ty: str, a: Term) -> Term:
    """An integer of type ``ty`` computed from ``a``'s value through the float computation ``name``."""
    return Term(TermOp.FCONV, (a,), ty=ty, name=name)


def assume(v: Term, mask: Term, lo: Term | None, hi: Term | None) -> Term:
    """``tl.device_assert(((lo <= v) & (v < hi)) | ~(mask))``: its value is ``v``; the bounds are a premise."""
    flags = (1 if lo is not None else 0) | (2 if hi is not None else 0)
    return Term(TermOp.ASSUME, (v, mask, lo if lo is not None else weak(0), hi if hi is not None else weak(0)),
                value=flags)


def assumes_in(roots) -> tuple[Term, ...]:
    """The distinct ``assume`` nodes under ``roots``, in first post-order occurrence (deterministic)."""
    out: list[Term] = []
    seen: set[Term] = set()

    def visit(t: Term) -> None:
        if t in seen:
            return
        seen.add(t)
        for a in t.args:
            visit(a)
        if t.op is TermOp.ASSUME:
            out.append(t)

    for r in roots:
        visit(r)
    return tuple(out)


class PayloadOp(enum.Enum):
    """Payload (tensor value) ops, kept symbolic: one per ``Narrowing.RPayload`` constructor (reduction
    kernels, ``lean/Narrowing/Reduction.lean``); ``Narrowing.Payload`` (pointwise) has all but ``acc``,
    ``reduce`` and ``scan``."""

    LOAD = "load"
    INT = "int"  # an index value used as data; the term is in ``cond``
    CONST = "const"
    ACC = "acc"  # a loop-carried accumulator's value before the step (``index``: its carry); reductions only
    REDUCE = "reduce"  # ``name`` of ``args[0]`` over every r position of the row; reductions only
    SCAN = "scan"  # ``name`` of ``args[0]`` over the row's r positions up to this one; reductions only
    UN = "un"
    BIN = "bin"
    WHERE = "select"


@dataclass(frozen=True, slots=True)
class Payload:
    """A symbolic payload: ``load`` (index into the kernel's loads), constants, named operations, where."""

    op: PayloadOp
    args: tuple[Payload, ...] = ()
    name: str = ""  # function or constant name
    index: int | None = None  # load index
    cond: Term | None = None  # where-condition

    def to_json(self) -> dict:
        out: dict = {"op": self.op.value}
        if self.args:
            out["args"] = [a.to_json() for a in self.args]
        if self.name:
            out["name"] = self.name
        if self.index is not None:
            out["index"] = self.index
        if self.cond is not None:
            out["cond"] = self.cond.to_json()
        return out

    @staticmethod
    def from_json(d: dict) -> Payload:
        try:
            op = PayloadOp(d["op"])
        except (KeyError, ValueError, TypeError) as exc:
            raise InstanceError(f"unknown payload op in {d!r}") from exc
        cond = Term.from_json(d["cond"]) if "cond" in d else None
        return Payload(op, tuple(Payload.from_json(a) for a in d.get("args", ())), d.get("name", ""), d.get("index"), cond)


def load_value(i: int) -> Payload:
    return Payload(PayloadOp.LOAD, index=i)


def pconst(name: str) -> Payload:
    return Payload(PayloadOp.CONST, name=name)


def pbin(f: str, a: Payload, b: Payload) -> Payload:
    return Payload(PayloadOp.BIN, (a, b), name=f)


def pun(f: str, a: Payload) -> Payload:
    return Payload(PayloadOp.UN, (a,), name=f)


def pwhere(c: Term, a: Payload, b: Payload) -> Payload:
    return Payload(PayloadOp.WHERE, (a, b), cond=c)


@dataclass(frozen=True, slots=True)
class Load:
    ptr: int
    offset: Term
    mask: Term
    other: str = "0.0"


@dataclass(frozen=True, slots=True)
class Store:
    ptr: int
    offset: Term
    mask: Term
    value: Payload
