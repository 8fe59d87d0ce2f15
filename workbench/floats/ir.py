"""Scalar IR shared by the PyTorch spec and the CUDA kernel (stage: floats).

One ``Op`` enum, one frozen ``Node`` type with tuple children. The IR is generic over the scalar: it names
operations, not a number system. Two evaluators give it meaning over IEEE 754 binary32/binary64:
``workbench.floats.evaluate`` (vectorized numpy, for sweeps) and ``workbench.floats.reference`` (gmpy2,
one scalar at a time, the oracle the numpy evaluator is tested against).

Integer nodes (thread indices, the element count, index arithmetic) use the same ``Op`` enum with an integer
``Ty``; they wrap like C's fixed-width integers (C11 6.2.5p9 for unsigned, two's complement for signed as
nvcc does).

Limits: no vectors (the CUDA frontend unpacks ``float4`` into four nodes), no reductions.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Ty(enum.Enum):
    F32 = "f32"
    F64 = "f64"
    # binary16 (``__half``, torch.float16) and bfloat16 (``__nv_bfloat16``, torch.bfloat16): storage formats.
    # The evaluators carry their values exactly inside float32 (every half and bfloat16 value is a float32
    # value) and round each half-typed operation once to the format (``workbench.floats.halfprec``).
    F16 = "f16"
    BF16 = "bf16"
    I32 = "i32"
    U32 = "u32"
    I64 = "i64"
    U64 = "u64"
    BOOL = "bool"

    @property
    def is_float(self) -> bool:
        return self in (Ty.F32, Ty.F64, Ty.F16, Ty.BF16)

    @property
    def is_half(self) -> bool:
        return self in (Ty.F16, Ty.BF16)

    @property
    def is_int(self) -> bool:
        return self in (Ty.I32, Ty.U32, Ty.I64, Ty.U64)

    @property
    def bits(self) -> int:
        return {Ty.F32: 32, Ty.F64: 64, Ty.F16: 16, Ty.BF16: 16, Ty.I32: 32, Ty.U32: 32, Ty.I64: 64, Ty.U64: 64, Ty.BOOL: 1}[self]

    @property
    def signed(self) -> bool:
        return self in (Ty.I32, Ty.I64)


class Op(enum.Enum):
    # leaves
    ARG = "arg"  # spec/kernel scalar input number `value`
    CONST = "const"  # `value`: Python float (exactly representable in `ty`) or int or bool
    PARAM = "param"  # integer kernel parameter named `name` (the element count)
    THREAD = "thread"  # `name` in threadIdx.x, blockIdx.x, blockDim.x, gridDim.x (and .y/.z)
    LOAD = "load"  # args = (index,), `name` = array; replaced by ARG once a kernel is shown elementwise
    # correctly rounded arithmetic (IEEE 754-2019 5.4.1); on integers: wrapping arithmetic, C division
    ADD = "add"
    SUB = "sub"
    MUL = "mul"
    DIV = "div"
    REM = "rem"  # integers only (C11 6.5.5: truncating)
    FMA = "fma"  # a*b+c with one rounding (IEEE 754-2019 5.4.1 fusedMultiplyAdd)
    SQRT = "sqrt"
    # sign-bit operations: quiet, exact, never round (IEEE 754-2019 5.5.1)
    NEG = "neg"
    ABS = "abs"
    COPYSIGN = "copysign"
    # min/max: FMAX/FMIN are C99 fmax/fmin = IEEE 754-2019 maximumNumber/minimumNumber (a NaN operand
    # is ignored; -0 < +0 assumed, see docs/floats.md); MAXIMUM/MINIMUM are torch.maximum/minimum (a NaN
    # operand wins, 754-2019 maximum/minimum). IMAX/IMIN are integer min/max.
    FMAX = "fmax"
    FMIN = "fmin"
    MAXIMUM = "maximum"
    MINIMUM = "minimum"
    # comparisons: unordered operands compare false except NE (IEEE 754-2019 5.11)
    LT = "lt"
    LE = "le"
    GT = "gt"
    GE = "ge"
    EQ = "eq"
    NE = "ne"
    ISNAN = "isnan"
    AND = "and"
    OR = "or"
    NOT = "not"
    SELECT = "select"  # args = (cond, if_true, if_false)
    CAST = "cast"  # convert args[0] to `ty` (round to nearest even for floats, C conversions for ints)
    # binary64 args[0] -> binary32 rounded toward zero (IEEE 754-2019 roundTowardZero): __fmul_rz(a, b) is
    # CAST_RZ of the exact double product (24 x 24 significand bits fit in 53; the exponent range fits)
    CAST_RZ = "cast_rz"
    # a function the IR does not model bit-exactly (expf, tanhf, aten.sigmoid, ...): `name` says which
    OPAQUE = "opaque"


# Ops whose result is exact (no rounding): these may be reordered or duplicated without changing bits.
SIGN_OPS = frozenset({Op.NEG, Op.ABS, Op.COPYSIGN})
# Ops that round their exact result once; the device flushes their subnormal inputs/outputs under FTZ
# and returns the canonical NaN 0x7FFFFFFF when the result is NaN (PTX ISA, "Floating point instructions").
ROUNDING_OPS = frozenset({Op.ADD, Op.SUB, Op.MUL, Op.DIV, Op.FMA, Op.SQRT, Op.CAST_RZ})
# Commutative in IEEE arithmetic for every input, NaN bit patterns aside (IEEE 754-2019 6.2).
COMMUTATIVE = frozenset({Op.ADD, Op.MUL, Op.FMAX, Op.FMIN, Op.MAXIMUM, Op.MINIMUM, Op.EQ, Op.NE, Op.AND, Op.OR})
COMPARISONS = frozenset({Op.LT, Op.LE, Op.GT, Op.GE, Op.EQ, Op.NE})
MINMAX = frozenset({Op.FMAX, Op.FMIN, Op.MAXIMUM, Op.MINIMUM})
# The only "top": anything here is a named unknown, never evaluated as if exact.
OPAQUE = frozenset({Op.OPAQUE})


@dataclass(frozen=True, slots=True)
class Node:
    op: Op
    ty: Ty
    args: tuple["Node", ...] = ()
    value: float | int | bool | None = None
    name: str = ""
    # False for an operation nvcc must not contract into an fma (``__fmul_rn``, ``__fadd_rn``, ``__fsub_rn``:
    # "will never be merged into a floating-point multiply-add", CUDA Math API); ignored elsewhere.
    contract: bool = True

    def __repr__(self) -> str:  # compact, deterministic: used in error messages and golden files
        return render(self)


def const(value: float | int | bool, ty: Ty) -> Node:
    return Node(Op.CONST, ty, value=value)


def arg(index: int, ty: Ty = Ty.F32) -> Node:
    return Node(Op.ARG, ty, value=index)


def walk(node: Node):
    """Every node of the DAG once, children before parents, in a deterministic order."""
    seen: set[int] = set()
    out: list[Node] = []
    stack: list[tuple[Node, bool]] = [(node, False)]
    while stack:
        n, done = stack.pop()
        if done:
            out.append(n)
            continue
        if id(n) in seen:
            continue
        seen.add(id(n))
        stack.append((n, True))
        for a in reversed(n.args):
            stack.append((a, False))
    return out


def opaque_names(node: Node) -> tuple[str, ...]:
    return tuple(sorted({n.name for n in walk(node) if n.op in OPAQUE}))


def arity(node: Node) -> int:
    idx = [int(n.value) for n in walk(node) if n.op is Op.ARG]
    return max(idx) + 1 if idx else 0


def substitute(node: Node, fn) -> Node:
    """Rebuild ``node`` bottom-up; ``fn(n, new_args)`` returns the replacement or None to keep ``n``."""
    memo: dict[int, Node] = {}

    def go(n: Node) -> Node:
        key = id(n)
        if key in memo:
            return memo[key]
        new_args = tuple(go(a) for a in n.args)
        rep = fn(n, new_args)
        if rep is None:
            rep = n if new_args == n.args else Node(n.op, n.ty, new_args, n.value, n.name, n.contract)
        memo[key] = rep
        return rep

    return go(node)


def contract_fma(node: Node) -> Node:
    """nvcc's default floating-point contraction (``-fmad=true``): a product feeding an add or subtract
    becomes one fused multiply-add, as LLVM's DAG combiner does (``fadd (fmul a b) c -> fma a b c``,
    ``fsub (fmul a b) c -> fma a b (fneg c)``, ``fsub c (fmul a b) -> fma (fneg a) b c``). When both
    operands are products the left one is fused. Products and sums marked ``contract=False`` (``__fmul_rn``,
    ``__fadd_rn``, ``__fsub_rn``) are never fused.
    """

    def is_mul(n: Node, ty: Ty) -> bool:
        return n.op is Op.MUL and n.ty is ty and n.contract

    def rule(n: Node, a: tuple[Node, ...]):
        if n.op not in (Op.ADD, Op.SUB) or not n.ty.is_float or not n.contract:
            return None
        x, y = a
        if n.op is Op.ADD:
            if is_mul(x, n.ty):
                return Node(Op.FMA, n.ty, (x.args[0], x.args[1], y))
            if is_mul(y, n.ty):
                return Node(Op.FMA, n.ty, (y.args[0], y.args[1], x))
            return None
        if is_mul(x, n.ty):
            return Node(Op.FMA, n.ty, (x.args[0], x.args[1], Node(Op.NEG, n.ty, (y,))))
        if is_mul(y, n.ty):
            return Node(Op.FMA, n.ty, (Node(Op.NEG, n.ty, (y.args[0],)), y.args[1], x))
        return None

    return substitute(node, rule)


_INFIX = {Op.ADD: "+", Op.SUB: "-", Op.MUL: "*", Op.DIV: "/", Op.REM: "%", Op.LT: "<", Op.LE: "<=",
          Op.GT: ">", Op.GE: ">=", Op.EQ: "==", Op.NE: "!=", Op.AND: "&&", Op.OR: "||"}


def render_const(value, ty: Ty) -> str:
    if ty is Ty.F32:
        import numpy as np

        bits = int(np.array(value, dtype=np.float32).view(np.uint32))
        return f"{float(np.float32(value))!r}f" if np.isfinite(np.float32(value)) else f"f32(0x{bits:08X})"
    if ty is Ty.F64:
        return repr(float(value))
    if ty.is_half:
        return f"{ty.value}({float(value)!r})"
    if ty is Ty.BOOL:
        return "true" if value else "false"
    return str(int(value))


def render(node: Node) -> str:
    """C-like text of an expression; deterministic (used in reports and golden files)."""
    n = node
    match n.op:
        case Op.ARG:
            return f"x{n.value}"
        case Op.CONST:
            return render_const(n.value, n.ty)
        case Op.PARAM | Op.THREAD:
            return n.name
        case Op.LOAD:
            return f"{n.name}[{render(n.args[0])}]"
        case Op.ADD | Op.SUB | Op.MUL | Op.DIV | Op.REM | Op.LT | Op.LE | Op.GT | Op.GE | Op.EQ | Op.NE | Op.AND | Op.OR:
            tag = "" if n.ty is not Ty.F64 else "d"
            return f"({render(n.args[0])} {_INFIX[n.op]}{tag} {render(n.args[1])})"
        case Op.NEG:
            return f"-{render(n.args[0])}"
        case Op.NOT:
            return f"!{render(n.args[0])}"
        case Op.SELECT:
            return f"({render(n.args[0])} ? {render(n.args[1])} : {render(n.args[2])})"
        case Op.CAST:
            return f"({n.ty.value}){render(n.args[0])}"
        case Op.CAST_RZ:
            return f"rz({render(n.args[0])})"
        case Op.OPAQUE:
            return f"{n.name}({', '.join(render(a) for a in n.args)})"
        case Op.FMA | Op.SQRT | Op.ABS | Op.COPYSIGN | Op.FMAX | Op.FMIN | Op.MAXIMUM | Op.MINIMUM | Op.ISNAN:
            return f"{n.op.value}({', '.join(render(a) for a in n.args)})"
    raise AssertionError(f"render: no rule for {n.op}")  # every op is listed above
