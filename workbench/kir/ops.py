"""Kernel IR: the one ``Op`` enum, grouped by the law each group relies on.

Stage: kir (kernel IR). Every node of the IR carries one of these ops. Consumers (the evaluator, the
canonical form, the renderer, the checker in ``workbench.check``) ``match`` over ``Op`` and handle every op on
purpose; the groups below are the only sets code may test membership in, and each states the law it uses.

Integer semantics follow Triton 3.7 (``python/triton/language/semantic.py``):

* arithmetic is two's complement and wraps at every operation (LLVM ``add``/``sub``/``mul`` without
  ``nsw``/``nuw``; Triton emits them plainly unless ``sanitize_overflow`` is on);
* ``//`` lowers to ``arith.divsi`` and ``%`` to ``arith.remsi``: both truncate toward zero, C style
  (``semantic.floordiv`` -> ``create_sdiv``, ``semantic.mod`` -> ``create_srem``); the interpreter models them
  with ``np.fmod`` for the same reason;
* comparisons yield ``int1`` (``semantic.less_than`` and friends);
* ``int1`` is *unsigned* in Triton (``dtype.UINT_TYPES`` lists ``int1``) so it zero-extends.
"""

from __future__ import annotations

from enum import Enum, auto


class Op(Enum):
    # -- leaves ------------------------------------------------------------------------------------------
    CONST = auto()  # integer constant; attr = (value, weak): weak = a Python literal, strong = tl.full(...)
    FCONST = auto()  # float constant (payload); attr = (repr text, weak): "0.0", "inf"
    ARG = auto()  # scalar kernel argument (size, numel, other scalar); attr = parameter name
    CONSTEXPR = auto()  # tl.constexpr parameter (XBLOCK); weak at compile time; attr = parameter name
    PROGRAM_ID = auto()  # tl.program_id(axis), int32; attr = axis
    NUM_PROGRAMS = auto()  # tl.num_programs(axis), int32; attr = axis
    ARANGE = auto()  # tl.arange(start, BLOCK) at this lane's position; attr = (start, block constexpr name)
    UNDEF = auto()  # value of a masked-off load without ``other=``: unspecified (payload)
    # -- reductions (see workbench/kir/reduction.py) ------------------------------------------------------
    ROFFSET = auto()  # the current reduction step's ``r0_offset`` (int32): a multiple of R0_BLOCK in [0, r0_numel)
    ACC = auto()  # a loop-carried accumulator at the start of the current step (payload); attr = (name, loop)
    # -- integer arithmetic (wraps) -----------------------------------------------------------------------
    ADD = auto()
    SUB = auto()
    MUL = auto()
    NEG = auto()  # semantic.minus: 0 - x
    ABS = auto()  # tl_math.abs on a signed int: math.absi -> llvm.abs(x, is_int_min_poison=false), |x| wrapped
    FLOORDIV = auto()  # Triton ``//`` on ints: arith.divsi, truncates toward zero
    MOD = auto()  # Triton ``%`` on ints: arith.remsi, sign of the dividend
    # -- comparisons (-> i1) ------------------------------------------------------------------------------
    LT = auto()
    LE = auto()
    GT = auto()
    GE = auto()
    EQ = auto()
    NE = auto()
    # -- bitwise ------------------------------------------------------------------------------------------
    AND = auto()
    OR = auto()
    # -- conversions and selection -----------------------------------------------------------------------
    CAST = auto()  # .to(int type): truncate or sign-extend (zero-extend from i1); to i1 is ``!= 0``
    BROADCAST = auto()  # tl.broadcast_to: same value in every lane (shape only)
    WHERE = auto()  # tl.where(cond, a, b): select; args = (cond, a, b)
    # -- memory -------------------------------------------------------------------------------------------
    LOAD = auto()  # tl.load(ptr + offset, mask, other); args = (offset, mask, other); attr = pointer name
    STORE = auto()  # tl.store(ptr + offset, value, mask); args = (offset, value, mask); attr = pointer name
    # -- premises -----------------------------------------------------------------------------------------
    ASSUME = auto()  # tl.device_assert premise on integer data: args = (value, mask, bound...); attr = (has
    #                  lower, has upper). Its value is ``value``, unchecked; see workbench.kir.indirect
    # -- float payload ----------------------------------------------------------------------------------
    PAYLOAD = auto()  # opaque data operation (float math, casts to float, libdevice); attr = operation name
    REDUCE = auto()  # a reduction over the r axis of a row (payload); attr = (function, output index)
    SCAN = auto()  # tl.associative_scan over the r axis (payload); attr = (combine name, combine text, output
    #                index): its value at r lane j combines the operands at r lanes 0..j of the row, this step


# Leaves: no arguments; their value comes from the lane, the launch or the kernel's arguments.
LEAVES = frozenset({Op.CONST, Op.FCONST, Op.ARG, Op.CONSTEXPR, Op.PROGRAM_ID, Op.NUM_PROGRAMS, Op.ARANGE, Op.UNDEF,
                    Op.ROFFSET, Op.ACC})

# Binary integer arithmetic: the result is the exact integer result reduced modulo 2**w into the signed range
# of the result type (two's complement wrap at every operation).
ARITH = frozenset({Op.ADD, Op.SUB, Op.MUL, Op.FLOORDIV, Op.MOD})

# May leave the range of the result type and wrap (so narrowing can change their value). FLOORDIV/MOD only
# overflow at INT_MIN // -1, which is undefined behaviour in LLVM (the evaluator raises there).
# ABS: the exact |x| of INT_MIN is INT_MAX + 1, which wraps back to INT_MIN (llvm.abs with
# is_int_min_poison=false, the lowering of math.absi in Triton 3.7.1's ElementwiseOpToLLVM; numpy's abs in
# the interpreter agrees).
MAY_OVERFLOW = frozenset({Op.ADD, Op.SUB, Op.MUL, Op.NEG, Op.ABS, Op.CAST, Op.FLOORDIV, Op.MOD})

# Commutative: f(a, b) == f(b, a) for all a, b of the same type; the canonical form does *not* reorder their
# operands (source order is kept so the renderer reproduces the text), but the checker may.
COMMUTATIVE = frozenset({Op.ADD, Op.MUL, Op.AND, Op.OR, Op.EQ, Op.NE})

# Division and remainder: undefined when the divisor is 0 (LLVM sdiv/srem), so the checker must prove the
# divisor >= 1 wherever the lane is live.
DIVISION = frozenset({Op.FLOORDIV, Op.MOD})

# Comparisons: operands promoted to a common integer type, result int1 (0 or 1).
COMPARISON = frozenset({Op.LT, Op.LE, Op.GT, Op.GE, Op.EQ, Op.NE})

# Bitwise: applied to the two's-complement bit pattern of the promoted type; on int1 they are logic and/or.
BITWISE = frozenset({Op.AND, Op.OR})

# Lane-invariant leaves: the same value in every lane of a launch.
UNIFORM_LEAVES = frozenset({Op.CONST, Op.FCONST, Op.ARG, Op.CONSTEXPR, Op.NUM_PROGRAMS})

# Opaque: values the IR does not model (tensor data and what is computed from it); only their dataflow
# matters. The one "top" of the IR: nothing about their value may be assumed.
OPAQUE = frozenset({Op.LOAD, Op.PAYLOAD, Op.FCONST, Op.UNDEF, Op.ACC, Op.REDUCE, Op.SCAN})

# Reduction structure: a lane of a reduction kernel is an (x, r) pair at one step (one value of ROFFSET).
# ACC is the value a loop-carried name holds at that lane before the step; REDUCE combines the values of
# *every* r lane of the row, SCAN those of the r lanes up to its own, so both depend on the row, never on
# one lane alone.
REDUCTION = frozenset({Op.ROFFSET, Op.ACC, Op.REDUCE, Op.SCAN})

# Row operations: the value at (x lane, r lane j, step) is a function of the operands' values at r lanes of
# row x in the *same* step (every lane for REDUCE, lanes 0..j for SCAN; masked-off lanes included, with the
# values the operands hold there) and of the function, which reads no memory and no size argument (a scan's
# combine helper is checked to be pure payload when parsed). So operands that agree on every r lane of the
# row give agreeing results, provided they are computed in the same types.
ROW = frozenset({Op.REDUCE, Op.SCAN})

# Memory effects, in source order in ``Kernel.loads`` / ``Kernel.stores``.
MEMORY = frozenset({Op.LOAD, Op.STORE})

BINARY_SYMBOL = {
    Op.ADD: "+",
    Op.SUB: "-",
    Op.MUL: "*",
    Op.FLOORDIV: "//",
    Op.MOD: "%",
    Op.LT: "<",
    Op.LE: "<=",
    Op.GT: ">",
    Op.GE: ">=",
    Op.EQ: "==",
    Op.NE: "!=",
    Op.AND: "&",
    Op.OR: "|",
}
