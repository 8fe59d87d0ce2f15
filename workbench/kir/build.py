"""Typed constructors for IR nodes: Triton's implicit conversions made explicit.

Stage: kir. The parser and :func:`workbench.kir.instantiate` build every node through a :class:`Builder`, so
promotion is decided in one place. Each binary operation follows ``semantic.binary_op_type_checking_impl``
(Triton 3.7.1): a weak Python literal takes the other operand's type (``computation_type_impl`` rule 0), other
operands are converted to the common type by an *implicit* ``CAST`` (attr ``"implicit"``), then the operation
runs in that type. Implicit casts are marked so that re-typing (narrowing) can drop and recompute them;
explicit ``.to(...)`` casts are kept.
"""

from __future__ import annotations

from workbench.kir.errors import RefusedConstruct
from workbench.kir.nodes import Node, node
from workbench.kir.ops import BITWISE, COMPARISON, DIVISION, Op
from workbench.kir.types import (
    FloatType,
    IntType,
    PtrType,
    Type,
    computation_type,
    i1,
    i32,
    i64,
    absorbs,
    literal_type,
)

IMPLICIT = "implicit"

_FOLD = {
    # constexpr arithmetic happens in Python (``tl.constexpr.__floordiv__`` is Python's floor division)
    Op.ADD: lambda a, b: a + b,
    Op.SUB: lambda a, b: a - b,
    Op.MUL: lambda a, b: a * b,
    Op.FLOORDIV: lambda a, b: a // b,
    Op.MOD: lambda a, b: a % b,
    Op.LT: lambda a, b: a < b,
    Op.LE: lambda a, b: a <= b,
    Op.GT: lambda a, b: a > b,
    Op.GE: lambda a, b: a >= b,
    Op.EQ: lambda a, b: a == b,
    Op.NE: lambda a, b: a != b,
    Op.AND: lambda a, b: a & b,
    Op.OR: lambda a, b: a | b,
}


def unsigned_literal(n: Node) -> bool:
    """A weak integer literal Triton types as *unsigned* when it stands alone: ``to_tensor_type`` (Triton
    3.7.1, ``language/semantic.py``) gives ``-2**31 <= x < 2**31`` int32, ``2**31 <= x < 2**32`` **uint32**,
    ``-2**63 <= x < 2**63`` int64 and ``2**63 <= x < 2**64`` **uint64**. The IR has no unsigned integers
    wider than one bit, so such a literal may only meet a typed operand (rule 0 of
    ``computation_type_impl``: it takes the operand's type, and must fit it)."""
    if n.op is not Op.CONST or not n.attr[1] or isinstance(n.attr[0], bool):
        return False
    v = n.attr[0]
    return (1 << 31) <= v < (1 << 32) or (1 << 63) <= v < (1 << 64)


def is_weak(n: Node) -> bool:
    """A weak operand: a Python literal (``CONST``/``FCONST`` with weak=True) or a ``tl.constexpr`` parameter."""
    return (n.op in (Op.CONST, Op.FCONST) and n.attr[1]) or n.op is Op.CONSTEXPR


class Builder:
    """Builds typed nodes. ``int32``/``int64`` are the types standing for Triton's int32/int64 (the index
    dtype and the wide type; smaller in the small-model mode); ``kernel`` and ``line`` locate refusals."""

    def __init__(self, kernel: str = "<kernel>", int32: IntType = i32, int64: IntType = i64):
        self.kernel = kernel
        self.int32 = int32
        self.int64 = int64
        self.line: int | None = None

    # -- errors -------------------------------------------------------------------------------------------
    def refuse(self, construct: str, detail: str = "", fix: str = "") -> RefusedConstruct:
        return RefusedConstruct(self.kernel, self.line, construct, detail, fix)

    # -- leaves -------------------------------------------------------------------------------------------
    def literal(self, value: int | bool) -> Node:
        """A weak Python int literal. Its own type (``to_tensor_type``) is int32, uint32, int64 or uint64 by
        value (see :func:`unsigned_literal`); the unsigned ones carry the int64 type here as a placeholder
        and are refused wherever that type would be used (:meth:`standalone`)."""
        if isinstance(value, bool):
            return node(Op.CONST, i1, (), (int(value), True))
        if not -(1 << 63) <= value < (1 << 64):
            # semantic.to_tensor_type: "Nonrepresentable integer"
            raise self.refuse("integer literal out of range", f"{value} is not representable in 64 bits")
        t = literal_type(value, self.int32, self.int64) if value < (1 << 63) else self.int64
        return node(Op.CONST, t, (), (int(value), True))

    def standalone(self, n: Node) -> Node:
        """A weak operand whose *own* type is about to be used (no typed operand absorbs it): refuse an
        unsigned literal by name (Triton would compute in uint32/uint64, which the IR does not model)."""
        if unsigned_literal(n):
            v = n.attr[0]
            kind = "uint32" if v < (1 << 32) else "uint64"
            raise self.refuse(
                "unsigned integer literal", f"{v} is {kind} in Triton (to_tensor_type) and is used without a "
                "typed operand, so the operation would be unsigned", "write the value with an explicit signed "
                "type (tl.full(..., tl.int64)) or keep it next to a typed operand")
        return n

    def full(self, value: int | float, t: IntType | FloatType) -> Node:
        """``tl.full(shape, value, dtype)``: a strong constant of type ``t``."""
        if isinstance(t, FloatType):
            return node(Op.FCONST, t, (), (repr(float(value)), False))
        if isinstance(value, float):
            if value != int(value):
                raise self.refuse("non-integer value in an integer tl.full", repr(value))
            value = int(value)
        if not t.min <= value <= t.max:
            raise self.refuse("constant out of range", f"tl.full value {value} does not fit {t}")
        return node(Op.CONST, t, (), (int(value), False))

    def assigned(self, n: Node) -> Node:
        """A bare literal assigned to a name (``xnumel = 192``): Triton 3.7's code generator sanitises every
        assigned value that is not a Triton value with ``semantic.to_tensor`` (``CodeGenerator.visit_Assign``),
        so the name holds a *strong* scalar of ``to_tensor_type(value)``: int32, int64 by value (uint32 and
        uint64 refused as in :meth:`standalone`), int1 for a bool, fp32 for a float in fp32's range."""
        if n.op is Op.CONST and n.attr[1]:
            self.standalone(n)
            return node(Op.CONST, n.type, (), (n.attr[0], False))
        if n.op is Op.FCONST and n.attr[1]:
            value = float(n.attr[0])
            small = value != 0.0 and value == value and abs(value) != float("inf") and not (
                2.0**-126 <= abs(value) <= (2 - 2.0**-23) * 2.0**127)
            return node(Op.FCONST, FloatType("fp64") if small else n.type, (), (n.attr[0], False))
        raise self.refuse("assignment of a bare literal", f"{n.op.name.lower()} is not a literal")

    def assume(self, value: Node, mask: Node, lower: Node | None, upper: Node | None) -> Node:
        """The premise of ``tl.device_assert((lower <= value) & (value < upper) | ~mask)`` on integer data:
        a node whose value is ``value`` and which is an index term (not payload); see
        :mod:`workbench.kir.indirect`."""
        if not isinstance(value.type, IntType) or value.type.bits == 1:
            raise self.refuse("device assert on a non-integer value", f"{value.type}")
        bounds = tuple(b for b in (lower, upper) if b is not None)
        return node(Op.ASSUME, value.type, (value, self._mask(mask), *bounds), (lower is not None, upper is not None))

    def fconst(self, value: float) -> Node:
        """A weak Python float literal (``to_tensor_type``: fp32; only payload uses floats)."""
        return node(Op.FCONST, FloatType("fp32"), (), (repr(float(value)), True))

    def arg(self, name: str, t: Type) -> Node:
        return node(Op.ARG, t, (), name)

    def constexpr(self, name: str) -> Node:
        return node(Op.CONSTEXPR, self.int32, (), name)

    def program_id(self, axis: int) -> Node:
        return node(Op.PROGRAM_ID, self.int32, (), axis)  # semantic.program_id: tl.int32

    def num_programs(self, axis: int) -> Node:
        return node(Op.NUM_PROGRAMS, self.int32, (), axis)  # semantic.num_programs: tl.int32

    def arange(self, start: int, block: str) -> Node:
        return node(Op.ARANGE, self.int32, (), (start, block))  # semantic.arange: int32 block

    # -- conversions --------------------------------------------------------------------------------------
    def resolve(self, n: Node, t: Type) -> Node:
        """Convert operand ``n`` to the computation type ``t`` (weak literal -> constant of ``t``)."""
        if n.type == t:
            return n
        if n.op is Op.CONST and n.attr[1]:
            value = n.attr[0]
            if isinstance(t, IntType):
                if not t.min <= value <= t.max:
                    raise self.refuse("integer literal out of range", f"{value} does not fit {t}")
                return node(Op.CONST, t, (), (value, True))
            return node(Op.FCONST, t, (), (repr(float(value)), True))
        if n.op is Op.FCONST and n.attr[1]:
            if isinstance(t, FloatType):
                return node(Op.FCONST, t, (), (n.attr[0], True))
        return self.cast(n, t, implicit=True)

    def cast(self, n: Node, t: Type, implicit: bool = False) -> Node:
        """``.to(t)`` (``semantic.cast``): same type -> unchanged; int -> int truncates or extends."""
        if is_weak(n) and not implicit:
            raise self.refuse("cast of a Python literal", "a Python int has no .to() (an AttributeError in Triton)")
        if n.type == t:
            return n
        if isinstance(t, PtrType) or isinstance(n.type, PtrType):
            raise self.refuse("pointer cast", f"{n.type} to {t}")
        if n.payload or isinstance(t, FloatType) or isinstance(n.type, FloatType):
            return node(Op.PAYLOAD, t, (n,), "to")
        return node(Op.CAST, t, (n,), IMPLICIT if implicit else None)

    # -- operations ---------------------------------------------------------------------------------------
    def binary(self, op: Op, a: Node, b: Node) -> Node:
        if isinstance(a.type, PtrType) or isinstance(b.type, PtrType):
            raise self.refuse("pointer arithmetic outside tl.load/tl.store", f"{op.name.lower()} on a pointer")
        if is_weak(a) and is_weak(b) and a.op is Op.CONST and b.op is Op.CONST:
            x, y = a.attr[0], b.attr[0]
            if op in DIVISION and y == 0:
                raise self.refuse("division by a zero literal")
            v = _FOLD[op](x, y)
            return self.literal(bool(v) if isinstance(v, bool) else int(v))
        div_or_mod = op in DIVISION
        if not absorbs(a.type, is_weak(a), b.type, is_weak(b)):
            # neither absorbs the other (two literals, or a literal of a higher kind than its operand, such as
            # an int next to a bool): each literal is typed on its own
            a, b = self.standalone(a), self.standalone(b)
        try:
            ct = computation_type(a.type, is_weak(a), b.type, is_weak(b), div_or_mod)
        except TypeError as exc:
            raise self.refuse("mixed-signedness division", str(exc)) from None
        a2, b2 = self.resolve(a, ct), self.resolve(b, ct)
        result = i1 if op in COMPARISON else ct
        if a2.payload or b2.payload or isinstance(ct, FloatType):
            return node(Op.PAYLOAD, result, (a2, b2), op.name.lower())
        assert isinstance(ct, IntType)
        if div_or_mod and ct.bits == 1:
            raise self.refuse("// or % on booleans", "int1 division is unsigned in Triton")
        if op in BITWISE or op in COMPARISON or op in _FOLD:
            return node(op, result, (a2, b2))
        raise AssertionError(op)

    def neg(self, a: Node) -> Node:
        """``-x`` (``semantic.minus``: ``0 - x`` in x's type); a literal folds (constexpr)."""
        if a.op is Op.CONST and a.attr[1]:
            return self.literal(-a.attr[0])
        if a.payload or isinstance(a.type, FloatType):
            return node(Op.PAYLOAD, a.type, (a,), "neg")
        if isinstance(a.type, PtrType):
            raise self.refuse("pointer negation")
        return node(Op.NEG, a.type, (a,))

    def invert(self, a: Node) -> Node:
        """``~x`` (``semantic.invert``: ``xor x, -1`` in x's integer type). Inductor writes it on loaded data
        (floor division and remainder of integers); there it is payload. On an index it is refused: the IR has
        no bitwise-not operation with interval and Lean rules."""
        if is_weak(a):
            raise self.refuse("~ of a Python literal")
        if isinstance(a.type, FloatType) or isinstance(a.type, PtrType):
            raise self.refuse("~ of a non-integer", str(a.type))
        if a.payload:
            return node(Op.PAYLOAD, a.type, (a,), "invert")
        raise self.refuse("operator ~ on an index", "bitwise not of an index value")

    def abs(self, a: Node) -> Node:
        """``tl_math.abs(x)`` (``triton/language/math.py``): on a signed integer ``math.absi``, lowered to
        ``llvm.abs(x, is_int_min_poison=false)`` (``AbsIOpConversion``), so ``|x|`` in x's type with INT_MIN
        mapped to itself; on int1 (unsigned) the identity; payload and floats stay payload."""
        if is_weak(a):
            raise self.refuse("tl_math.abs of a Python literal")
        if a.payload or not isinstance(a.type, IntType):
            return node(Op.PAYLOAD, a.type, (a,), "tl_math.abs")
        if a.type.bits == 1:
            return a
        return node(Op.ABS, a.type, (a,))

    def where(self, c: Node, a: Node, b: Node) -> Node:
        """``semantic.where``: condition cast to int1 (``!= 0``), branches promoted like a binary op."""
        if isinstance(c.type, IntType) and c.type.bits != 1 and not c.payload:
            c = self.binary(Op.NE, c, self.literal(0))
        elif not isinstance(c.type, IntType) or c.type.bits != 1:
            c = node(Op.PAYLOAD, i1, (c,), "to_i1")
        if not absorbs(a.type, is_weak(a), b.type, is_weak(b)):
            a, b = self.standalone(a), self.standalone(b)
        try:
            ct = computation_type(a.type, is_weak(a), b.type, is_weak(b))
        except TypeError as exc:
            raise self.refuse("tl.where type error", str(exc)) from None
        return node(Op.WHERE, ct, (c, self.resolve(a, ct), self.resolve(b, ct)))

    def broadcast(self, a: Node) -> Node:
        if is_weak(a):
            raise self.refuse("tl.broadcast_to of a literal")
        return node(Op.BROADCAST, a.type, (a,))

    def payload(self, name: str, t: Type, args: tuple[Node, ...]) -> Node:
        return node(Op.PAYLOAD, t, args, name)

    def true(self) -> Node:
        return node(Op.CONST, i1, (), (1, False))

    def load(self, pointer: str, elem: IntType | FloatType, offset: Node, mask: Node | None, other: Node | None) -> Node:
        mask = self._mask(mask)
        if other is None:
            other_n = node(Op.UNDEF, elem)
        elif is_weak(other) or other.type != elem:
            # semantic.load: ``other`` is cast to the pointer's element type
            other_n = self.resolve(other, elem) if is_weak(other) else self.cast(other, elem, implicit=True)
        else:
            other_n = other
        return node(Op.LOAD, elem, (offset, mask, other_n), pointer)

    def store(self, pointer: str, elem: IntType | FloatType, offset: Node, value: Node, mask: Node | None) -> Node:
        self.standalone(value)  # semantic.store: a literal value is to_tensor'ed by its own type, then cast
        return node(Op.STORE, elem, (offset, value, self._mask(mask)), pointer)

    def _mask(self, mask: Node | None) -> Node:
        if mask is None:
            return self.true()
        if is_weak(mask):
            raise self.refuse("literal mask")
        if isinstance(mask.type, IntType) and mask.type.bits == 1:
            return mask
        # semantic.load/store: "Mask argument must be boolean" (a ValueError in Triton)
        raise self.refuse("non-boolean mask", f"mask of type {mask.type}")
