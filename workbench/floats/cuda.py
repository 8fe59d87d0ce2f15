"""CUDA frontend: clang's AST of a one-thread-per-element kernel -> accesses in the float IR (stage: floats).

``parse_kernel`` parses a ``.cu`` file with PyPI ``libclang`` (``-x cuda --cuda-host-only`` and a small stub
header instead of the CUDA toolkit, see NOTES) and executes the ``__global__`` kernel symbolically for one
generic thread: integer variables become index expressions over ``threadIdx/blockIdx/blockDim/gridDim`` and
the element-count parameter, float variables become IR expressions over loads. ``if`` on indices forks the
path (the branch condition joins the guard of every access after it); ``if`` on loaded data is merged into
a select; loops with constant bounds are unrolled; ``float4``/``float2`` accesses become 4/2 scalar
accesses with an alignment obligation.

The translation is deterministic: the same file gives the same IR. What it does not model it refuses by
name, with the line: kernel launches, atomics, warp shuffles and votes, barriers and shared memory, goto,
while/do loops, loops whose bound is not a constant, break/continue, pointer escapes, bitwise integer
operators, calls to anything unlisted. Transcendental calls (expf, tanhf, erff, logf, ...) are accepted
as OPAQUE nodes, named in every verdict.

Literals are rounded exactly once from their decimal text (never via ``np.float32(str)``: double rounding).
Implicit conversions are read from the type clang gives each ``UNEXPOSED_EXPR``.
"""

from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path

from workbench.floats.errors import CudaParseError, CudaUnsupportedError
from workbench.floats.ir import Node, Op, Ty, const, walk

STUB_NAME = "/workbench_floats/cuda_stub.h"
# Just enough of the CUDA headers for clang to type a kernel: qualifiers, builtin index variables, vector
# types and the math functions the frontend knows. `cudaConfigureCall` must exist or `<<<...>>>` fails to parse.
STUB = r"""
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __forceinline__ inline
#define __restrict__ __restrict
typedef unsigned long size_t;
typedef long int64_t;
typedef int int32_t;
typedef unsigned int uint32_t;
struct uint3 { unsigned int x, y, z; };
struct dim3 { unsigned int x, y, z; __host__ __device__ dim3(unsigned int a = 1, unsigned int b = 1, unsigned int c = 1); };
struct float4 { float x, y, z, w; };
struct float2 { float x, y; };
extern const __device__ uint3 threadIdx; extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim; extern const __device__ dim3 gridDim;
extern "C" int cudaConfigureCall(dim3 g, dim3 b, size_t s = 0, void* st = 0);
#define WB_F1(n) __host__ __device__ float n(float);
#define WB_F2(n) __host__ __device__ float n(float, float);
WB_F2(fmaxf) WB_F2(fminf) WB_F1(fabsf) WB_F2(copysignf) WB_F1(sqrtf) WB_F1(expf) WB_F1(exp2f) WB_F1(__expf)
WB_F1(logf) WB_F1(log1pf) WB_F1(log2f) WB_F1(__logf) WB_F1(tanhf) WB_F1(erff) WB_F1(erfcf) WB_F1(sinf)
WB_F1(cosf) WB_F2(powf) WB_F2(__powf) WB_F1(rsqrtf) WB_F1(expm1f) WB_F1(cbrtf) WB_F2(__fmul_rn) WB_F2(__fadd_rn)
WB_F2(__fsub_rn) WB_F2(__fdiv_rn) WB_F1(__frcp_rn) WB_F1(__fsqrt_rn) WB_F2(__fdividef) WB_F1(__saturatef)
__host__ __device__ float fmaf(float, float, float); __host__ __device__ float __fmaf_rn(float, float, float);
__host__ __device__ double fmax(double, double); __host__ __device__ double fmin(double, double);
__host__ __device__ double fabs(double); __host__ __device__ double exp(double); __host__ __device__ double tanh(double);
__host__ __device__ int min(int, int); __host__ __device__ int max(int, int);
__host__ __device__ float4 make_float4(float, float, float, float); __host__ __device__ float2 make_float2(float, float);
template <class T> __device__ T __ldg(const T*);
__device__ float atomicAdd(float*, float); __device__ int atomicAdd(int*, int); __device__ float atomicExch(float*, float);
__device__ float atomicMax(float*, float); __device__ int atomicCAS(int*, int, int);
__device__ float __shfl_sync(unsigned, float, int, int = 32); __device__ float __shfl_down_sync(unsigned, float, unsigned, int = 32);
__device__ float __shfl_xor_sync(unsigned, float, int, int = 32); __device__ int __any_sync(unsigned, int);
__device__ int __all_sync(unsigned, int); __device__ unsigned __ballot_sync(unsigned, int);
__device__ void __syncthreads(); __device__ void __syncwarp(unsigned = 0xffffffff); __device__ void __threadfence();
extern "C" int printf(const char*, ...);
"""
# Headers model-written kernels include; the stub above already declares what the frontend knows, so they
# are empty (anything else they would declare is refused when used).
EMPTY_HEADERS = ("cuda_runtime.h", "cuda.h", "device_launch_parameters.h", "cuda_fp16.h", "math.h", "cmath",
                 "stdint.h", "cstdint", "stdio.h", "cstdio", "math_constants.h")
STUB_INCLUDE = "/workbench_floats/include"
FLAGS = ("-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib", "--cuda-path=/nonexistent", "-std=c++17",
         "-nostdinc", "-nostdinc++", "-I" + STUB_INCLUDE, "-include", STUB_NAME)

# Calls refused by name: what they do is outside a one-thread-per-element model.
REFUSED_CALLS = {
    "atomicAdd": "atomic", "atomicExch": "atomic", "atomicMax": "atomic", "atomicCAS": "atomic",
    "atomicMin": "atomic", "atomicSub": "atomic",
    "__shfl_sync": "warp shuffle", "__shfl_down_sync": "warp shuffle", "__shfl_xor_sync": "warp shuffle",
    "__shfl_up_sync": "warp shuffle", "__any_sync": "warp vote", "__all_sync": "warp vote",
    "__ballot_sync": "warp vote", "__syncthreads": "barrier", "__syncwarp": "barrier",
    "__threadfence": "memory fence", "printf": "printf", "cudaConfigureCall": "kernel launch",
}
# Transcendentals and approximate intrinsics: accepted, named, never evaluated (their bits depend on the
# device's libdevice/SFU implementation).
TRANSCENDENTAL = frozenset({
    "expf", "exp2f", "__expf", "logf", "log1pf", "log2f", "__logf", "tanhf", "erff", "erfcf", "sinf", "cosf",
    "powf", "__powf", "rsqrtf", "expm1f", "cbrtf", "__fdividef", "exp", "tanh", "__saturatef",
})
_MATH = {  # name -> (op, ty, contract)
    "fmaxf": (Op.FMAX, Ty.F32), "fminf": (Op.FMIN, Ty.F32), "fabsf": (Op.ABS, Ty.F32),
    "copysignf": (Op.COPYSIGN, Ty.F32), "sqrtf": (Op.SQRT, Ty.F32), "fmaf": (Op.FMA, Ty.F32),
    "__fmaf_rn": (Op.FMA, Ty.F32), "__fadd_rn": (Op.ADD, Ty.F32), "__fsub_rn": (Op.SUB, Ty.F32),
    "__fdiv_rn": (Op.DIV, Ty.F32), "__fsqrt_rn": (Op.SQRT, Ty.F32), "__fmul_rn": (Op.MUL, Ty.F32),
    "fmax": (Op.FMAX, Ty.F64), "fmin": (Op.FMIN, Ty.F64), "fabs": (Op.ABS, Ty.F64),
}
_BUILTINS = ("threadIdx", "blockIdx", "blockDim", "gridDim")
MAX_PATHS = 64
MAX_UNROLL = 64

# CXBinaryOperatorKind / CXUnaryOperatorKind (clang-c/Index.h, libclang 18).
_BINOP = {3: "*", 4: "/", 5: "%", 6: "+", 7: "-", 8: "<<", 9: ">>", 11: "<", 12: ">", 13: "<=", 14: ">=",
          15: "==", 16: "!=", 17: "&", 18: "^", 19: "|", 20: "&&", 21: "||", 22: "=", 23: "*=", 24: "/=",
          25: "%=", 26: "+=", 27: "-=", 28: "<<=", 29: ">>=", 30: "&=", 31: "^=", 32: "|=", 33: ","}
_UNOP = {1: "x++", 2: "x--", 3: "++x", 4: "--x", 5: "&", 6: "*", 7: "+", 8: "-", 9: "~", 10: "!"}
_ARITH = {"+": Op.ADD, "-": Op.SUB, "*": Op.MUL, "/": Op.DIV, "%": Op.REM}
_CMP = {"<": Op.LT, ">": Op.GT, "<=": Op.LE, ">=": Op.GE, "==": Op.EQ, "!=": Op.NE}


@dataclass(frozen=True, slots=True)
class Launch:
    """Launch configuration as integer expressions in the element count ``n`` (C integer division)."""

    grid: str = "(n + 255) / 256"
    block: str = "256"

    def sizes(self, n: int) -> tuple[int, int]:
        return _eval_launch(self.grid, n), _eval_launch(self.block, n)


@dataclass(frozen=True, slots=True)
class Access:
    kind: str  # "load" or "store"
    array: str
    index: Node  # element index (in floats) into `array`
    guard: Node  # BOOL over thread indices and n: the access happens iff it holds
    line: int
    value: Node | None = None  # stored value (stores only)
    align: Node | None = None  # for a vector access: its first element index, which must be a multiple of width
    width: int = 1


@dataclass(frozen=True, slots=True)
class Kernel:
    name: str
    path: str
    source: str
    line: int
    inputs: tuple[str, ...]  # read-only arrays in parameter order (spec arguments x0, x1, ...)
    output: str
    count: str  # the integer parameter holding the element count
    accesses: tuple[Access, ...]
    launch: Launch
    params: tuple[str, ...]

    @property
    def stores(self) -> tuple[Access, ...]:
        return tuple(a for a in self.accesses if a.kind == "store")

    @property
    def opaque(self) -> tuple[str, ...]:
        names = set()
        for a in self.stores:
            names |= {n.name for n in walk(a.value) if n.op is Op.OPAQUE}
        return tuple(sorted(names))


# ----------------------------------------------------------------------------------------------- values
@dataclass(frozen=True, slots=True)
class Ptr:
    array: str
    offset: Node  # in floats
    width: int = 1  # 1: float*, 2: float2*, 4: float4*
    const: bool = False


@dataclass(frozen=True, slots=True)
class Vec:
    parts: tuple[Node, ...]


@dataclass(slots=True)
class State:
    guard: Node
    env: dict
    accesses: list = field(default_factory=list)


_TRUE = const(True, Ty.BOOL)
_FIELDS = {"x": 0, "y": 1, "z": 2, "w": 3}


def _ty_of(spelling: str) -> Ty | str | None:
    s = re.sub(r"\b(const|volatile|__restrict|restrict)\b", "", spelling).strip()
    s = re.sub(r"\s+", " ", s)
    table = {"float": Ty.F32, "double": Ty.F64, "int": Ty.I32, "unsigned int": Ty.U32, "unsigned": Ty.U32,
             "long": Ty.I64, "long long": Ty.I64, "int64_t": Ty.I64, "size_t": Ty.U64, "unsigned long": Ty.U64,
             "unsigned long long": Ty.U64, "bool": Ty.BOOL, "int32_t": Ty.I32, "uint32_t": Ty.U32}
    if s in table:
        return table[s]
    if s in ("float4", "struct float4"):
        return "float4"
    if s in ("float2", "struct float2"):
        return "float2"
    if s.endswith("*"):
        return "ptr"
    return None


def round_literal(text: str, ty: Ty) -> float:
    """Exact decimal/hex literal -> nearest value of ``ty`` (ties to even), from the exact rational."""
    t = text.rstrip("fFlL")
    if t.lower().startswith("0x"):
        q = Fraction(float.fromhex(t))  # hex literals with <= 53 significant bits are exact doubles
    else:
        q = Fraction(t)
    return round_fraction(q, ty)


def round_fraction(q: Fraction, ty: Ty) -> float:
    """The value of ``ty`` nearest to the exact rational ``q`` (IEEE 754 roundTiesToEven, with subnormals)."""
    p, emin, emax = (24, -126, 127) if ty is Ty.F32 else (53, -1022, 1023)
    if q == 0:
        return 0.0
    sign = -1 if q < 0 else 1
    q = abs(q)
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** e > q:
        e -= 1
    e = max(e, emin)
    scaled = q / Fraction(2) ** (e - (p - 1))
    m = scaled.numerator // scaled.denominator
    rem = scaled - m
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and m % 2 == 1):
        m += 1
    value = Fraction(m) * Fraction(2) ** (e - (p - 1))
    if value >= Fraction(2) ** (emax + 1):
        return sign * float("inf")
    return sign * float(value)


def _eval_launch(expr: str, n: int) -> int:
    if not re.fullmatch(r"[\sn0-9+\-*/%()]+", expr):
        raise CudaParseError(f"launch expression {expr!r} may only use n, integers, + - * / % and parentheses")
    py = re.sub(r"(?<![/])/(?![/])", "//", expr)
    return int(eval(py, {"__builtins__": {}}, {"n": n}))  # noqa: S307  (checked to be integer arithmetic on n)


def _parse_launch(source: str) -> Launch:
    m = re.search(r"//\s*launch:\s*grid\s*=\s*([^,\n]+?)\s*,\s*block\s*=\s*([^\n]+?)\s*$", source, re.M)
    if not m:
        return Launch()
    launch = Launch(grid=m.group(1), block=m.group(2))
    launch.sizes(1)
    return launch


# ------------------------------------------------------------------------------------------ the frontend
class _Frontend:
    def __init__(self, path: str, source: str, device_fns: dict | None = None):
        self.path = path
        self.source = source
        self.file = Path(path).name
        self.device_fns = device_fns or {}
        self.inlining: list[str] = []

    # -- helpers
    def refuse(self, what: str, cursor, fix: str):
        line = cursor.location.line if cursor is not None else None
        raise CudaUnsupportedError(f"{what} at {self.file}:{line} is not supported by the floats CUDA frontend; "
                                   f"{fix}", construct=what.split(" `")[0], line=line)

    def line(self, c) -> int:
        return c.location.line

    def binop(self, c) -> str:
        import clang.cindex as ci

        fn = ci.conf.lib.clang_getCursorBinaryOperatorKind
        fn.argtypes, fn.restype = [ci.Cursor], ctypes.c_int
        return _BINOP.get(fn(c), "?")

    def unop(self, c) -> str:
        import clang.cindex as ci

        fn = ci.conf.lib.clang_getCursorUnaryOperatorKind
        fn.argtypes, fn.restype = [ci.Cursor], ctypes.c_int
        return _UNOP.get(fn(c), "?")

    def convert(self, v, ty, c):
        """C's usual conversions, as clang typed them; constants are converted exactly once, here."""
        if not isinstance(v, Node) or not isinstance(ty, Ty) or v.ty is ty:
            return v
        if v.op is Op.CONST:
            if ty.is_float:
                x = v.value
                if isinstance(x, float) and (x != x or x in (float("inf"), float("-inf"))):
                    return const(x, ty)
                if isinstance(x, float) and x == 0.0:
                    return const(x, ty)  # keeps the sign of zero
                return const(round_fraction(Fraction(x), ty), ty)
            if ty is Ty.BOOL:
                return const(bool(v.value), ty)
            if not v.ty.is_float:
                import numpy as np

                from workbench.floats.evaluate import _wrap

                return const(int(np.asarray(_wrap(int(v.value), ty))), ty)
        return Node(Op.CAST, ty, (v,))

    # -- expressions
    def expr(self, c, st: State):
        import clang.cindex as ci

        K = ci.CursorKind
        kids = list(c.get_children())
        k = c.kind
        if k in (K.UNEXPOSED_EXPR, K.PAREN_EXPR) and len(kids) == 1:
            v = self.expr(kids[0], st)
            return self.convert(v, _ty_of(c.type.spelling), c)
        if k is K.UNEXPOSED_EXPR and not kids:
            self.refuse(f"expression `{c.spelling}`", c, "write it with the operators the frontend models")
        if k is K.DECL_REF_EXPR:
            name = c.spelling
            if name in st.env:
                return st.env[name]
            if name in _BUILTINS:
                return ("builtin", name)
            self.refuse(f"reference to `{name}`", c, "use only the kernel's parameters and local variables")
        if k is K.MEMBER_REF_EXPR:
            base = self.expr(kids[0], st) if kids else None
            if isinstance(base, tuple) and base[0] == "builtin":
                if c.spelling not in ("x", "y", "z"):
                    self.refuse(f"member `{base[1]}.{c.spelling}`", c, "use .x, .y or .z")
                return Node(Op.THREAD, Ty.U32, name=f"{base[1]}.{c.spelling}")
            if isinstance(base, Vec) and c.spelling in _FIELDS and _FIELDS[c.spelling] < len(base.parts):
                return base.parts[_FIELDS[c.spelling]]
            self.refuse(f"member access `.{c.spelling}`", c, "only float4/float2 fields and thread indices are modelled")
        if k is K.INTEGER_LITERAL:
            text = "".join(t.spelling for t in c.get_tokens())
            ty = _ty_of(c.type.spelling)
            return const(int(text.rstrip("uUlL"), 0), ty if isinstance(ty, Ty) else Ty.I32)
        if k is K.FLOATING_LITERAL:
            text = "".join(t.spelling for t in c.get_tokens())
            ty = _ty_of(c.type.spelling)
            return const(round_literal(text, ty), ty)
        if k is K.CXX_BOOL_LITERAL_EXPR:
            text = "".join(t.spelling for t in c.get_tokens())
            return const(text == "true", Ty.BOOL)
        if k is K.BINARY_OPERATOR:
            return self.binary(c, kids, st)
        if k is K.COMPOUND_ASSIGNMENT_OPERATOR:
            op = self.binop(c)
            cur = self.expr(kids[0], st)
            rhs = self.expr(kids[1], st)
            ty = _ty_of(kids[0].type.spelling)
            rty = ty if ty is not Ty.F32 or not (isinstance(rhs, Node) and rhs.ty is Ty.F64) else Ty.F64
            new = self.arith(op[:-1], self.convert(cur, rty, c), self.convert(rhs, rty, c), rty, c)
            return self.assign(kids[0], self.convert(new, ty, c), st)
        if k is K.UNARY_OPERATOR:
            op = self.unop(c)
            if op in ("x++", "++x", "x--", "--x"):
                cur = self.expr(kids[0], st)
                one = const(1, cur.ty)
                new = Node(Op.ADD if "+" in op else Op.SUB, cur.ty, (cur, one))
                new = self.fold(new)
                self.assign(kids[0], new, st)
                return cur if op.startswith("x") else new
            v = self.expr(kids[0], st)
            match op:
                case "-":
                    if v.op is Op.CONST:
                        return const(-v.value if v.ty.is_float else -int(v.value), v.ty)
                    return Node(Op.NEG, v.ty, (v,)) if v.ty.is_float else self.fold(
                        Node(Op.SUB, v.ty, (const(0, v.ty), v)))
                case "+":
                    return v
                case "!":
                    return self.fold(Node(Op.NOT, Ty.BOOL, (self.convert(v, Ty.BOOL, c),)))
                case "*":
                    if isinstance(v, Ptr):
                        return self.load(v, const(0, Ty.I64), c, st)
            self.refuse(f"unary operator `{op}`", c, "pointer escapes and bitwise operators are not modelled")
        if k is K.CONDITIONAL_OPERATOR:
            cond = self.convert(self.expr(kids[0], st), Ty.BOOL, c)
            a, b = self.expr(kids[1], st), self.expr(kids[2], st)
            ty = _ty_of(c.type.spelling)
            if not isinstance(a, Node) or not isinstance(b, Node):
                self.refuse("conditional operator on pointers or vectors", c, "select scalars")
            return self.fold(Node(Op.SELECT, ty, (cond, self.convert(a, ty, c), self.convert(b, ty, c))))
        if k is K.ARRAY_SUBSCRIPT_EXPR:
            base = self.expr(kids[0], st)
            idx = self.expr(kids[1], st)
            if not isinstance(base, Ptr):
                self.refuse("subscript of a non-pointer", c, "index the kernel's pointer parameters")
            return self.load(base, idx, c, st)
        if k in (K.CSTYLE_CAST_EXPR, K.CXX_STATIC_CAST_EXPR, K.CXX_FUNCTIONAL_CAST_EXPR, K.CXX_REINTERPRET_CAST_EXPR,
                 K.CXX_CONST_CAST_EXPR):
            inner = [x for x in kids if x.kind is not K.TYPE_REF]
            v = self.expr(inner[-1], st)
            ty = _ty_of(c.type.spelling)
            if isinstance(v, Ptr):
                m = re.search(r"float([24])?\s*\*", c.type.spelling)
                if not m:
                    self.refuse(f"pointer cast to `{c.type.spelling}`", c, "cast float pointers to float4*/float2* only")
                return replace(v, width=int(m.group(1) or 1))
            if isinstance(ty, Ty):
                return self.convert(v, ty, c)
            if isinstance(v, Vec):
                return v
            self.refuse(f"cast to `{c.type.spelling}`", c, "cast between float, double and integer types only")
        if k is K.CALL_EXPR:
            return self.call(c, kids, st)
        if k.name == "CUDA_KERNEL_CALL_EXPR":
            self.refuse("kernel launch", c, "check the kernel alone; give its launch as a `// launch:` comment")
        if k is K.INIT_LIST_EXPR:
            parts = tuple(self.convert(self.expr(x, st), Ty.F32, c) for x in kids)
            return Vec(parts)
        self.refuse(f"expression kind {k.name}", c, "rewrite with + - * /, comparisons, ternaries and the listed math calls")

    def fold(self, n: Node) -> Node:
        """Fold integer constants (only exact integer arithmetic; floats are never folded)."""
        if (not n.ty.is_float and n.op not in (Op.CONST, Op.CAST) and n.args
                and all(a.op is Op.CONST and not a.ty.is_float for a in n.args)):
            import numpy as np

            from workbench.floats.evaluate import evaluate

            v = np.asarray(evaluate(n, {}))
            return const(bool(v), n.ty) if n.ty is Ty.BOOL else const(int(v), n.ty)
        if n.ty.is_int and n.op in (Op.ADD, Op.MUL):  # x + 0 and x * 1 are x (exact in every int type)
            unit = 0 if n.op is Op.ADD else 1
            a, b = n.args
            if b.op is Op.CONST and b.value == unit and a.ty is n.ty:
                return a
            if a.op is Op.CONST and a.value == unit and b.ty is n.ty:
                return b
        if n.op is Op.SELECT and n.args[0].op is Op.CONST:
            return n.args[1] if n.args[0].value else n.args[2]
        return n

    def arith(self, op: str, a, b, ty, c):
        if isinstance(a, Ptr) and op in "+-" and isinstance(b, Node):
            delta = Node(Op.MUL, Ty.I64, (self.convert(b, Ty.I64, c), const(a.width, Ty.I64)))
            new = Node(Op.ADD if op == "+" else Op.SUB, Ty.I64, (a.offset, delta))
            return replace(a, offset=self.fold(new))
        if op in _ARITH:
            if not isinstance(a, Node) or not isinstance(b, Node):
                self.refuse(f"operator `{op}` on pointers or vectors", c, "compute on scalars")
            if op == "%" and ty.is_float:
                self.refuse("float remainder", c, "fmodf is not modelled")
            return self.fold(Node(_ARITH[op], ty, (a, b)))
        if op in _CMP:
            return self.fold(Node(_CMP[op], Ty.BOOL, (a, b)))
        if op == "&&":
            return self.fold(Node(Op.AND, Ty.BOOL, (self.convert(a, Ty.BOOL, c), self.convert(b, Ty.BOOL, c))))
        if op == "||":
            return self.fold(Node(Op.OR, Ty.BOOL, (self.convert(a, Ty.BOOL, c), self.convert(b, Ty.BOOL, c))))
        self.refuse(f"operator `{op}`", c, "bitwise and shift operators are not modelled; use * and / on indices")

    def binary(self, c, kids, st: State):
        op = self.binop(c)
        if op == "=":
            return self.assign(kids[0], self.expr(kids[1], st), st)
        if op == ",":
            self.refuse("comma operator", c, "write one expression per statement")
        a, b = self.expr(kids[0], st), self.expr(kids[1], st)
        ty = _ty_of(c.type.spelling)
        if ty == "ptr":
            if isinstance(b, Ptr):
                a, b = b, a
            return self.arith(op, a, b, ty, c)
        return self.arith(op, a, b, ty, c)

    def load(self, ptr: Ptr, idx, c, st: State):
        if not isinstance(idx, Node) or not idx.ty.is_int:
            self.refuse("non-integer subscript", c, "index with an integer expression")
        if any(n.op is Op.LOAD for n in walk(idx)):
            self.refuse("index computed from loaded data (gather)", c, "elementwise kernels index by thread only")
        base = self.fold(Node(Op.ADD, Ty.I64, (ptr.offset, self.fold(
            Node(Op.MUL, Ty.I64, (self.convert(idx, Ty.I64, c), const(ptr.width, Ty.I64)))))))
        parts = []
        for k in range(ptr.width):
            ix = self.fold(Node(Op.ADD, Ty.I64, (base, const(k, Ty.I64)))) if k else base
            parts.append(Node(Op.LOAD, Ty.F32, (ix,), name=ptr.array))
            st.accesses.append(Access("load", ptr.array, ix, st.guard, self.line(c),
                                      align=base if ptr.width > 1 else None, width=ptr.width))
        return parts[0] if ptr.width == 1 else Vec(tuple(parts))

    def assign(self, target, value, st: State):
        import clang.cindex as ci

        K = ci.CursorKind
        t = target
        while t.kind in (K.UNEXPOSED_EXPR, K.PAREN_EXPR):
            t = next(t.get_children())
        kids = list(t.get_children())
        if t.kind is K.DECL_REF_EXPR:
            name = t.spelling
            if name not in st.env:
                self.refuse(f"assignment to `{name}`", t, "assign only local variables and output elements")
            old = st.env[name]
            if isinstance(old, Ptr):
                self.refuse(f"pointer reassignment `{name}`", t, "index the parameter instead of moving it")
            ty = old.ty if isinstance(old, Node) else None
            st.env[name] = self.convert(value, ty, t) if ty else value
            return st.env[name]
        if t.kind is K.MEMBER_REF_EXPR and kids:
            vname = kids[0]
            while vname.kind in (K.UNEXPOSED_EXPR, K.PAREN_EXPR):
                vname = next(vname.get_children())
            vec = st.env.get(vname.spelling) if vname.kind is K.DECL_REF_EXPR else None
            if isinstance(vec, Vec) and t.spelling in _FIELDS:
                parts = list(vec.parts)
                parts[_FIELDS[t.spelling]] = self.convert(value, Ty.F32, t)
                st.env[vname.spelling] = Vec(tuple(parts))
                return value
            self.refuse(f"assignment to member `.{t.spelling}`", t, "assign fields of a local float4/float2")
        if t.kind is K.ARRAY_SUBSCRIPT_EXPR or (t.kind is K.UNARY_OPERATOR and self.unop(t) == "*"):
            if t.kind is K.ARRAY_SUBSCRIPT_EXPR:
                ptr, idx = self.expr(kids[0], st), self.expr(kids[1], st)
            else:
                ptr, idx = self.expr(kids[0], st), const(0, Ty.I64)
            if not isinstance(ptr, Ptr):
                self.refuse("store through a non-pointer", t, "store to a pointer parameter")
            if ptr.const:
                self.refuse(f"store to const array `{ptr.array}`", t, "store to the output parameter")
            base = self.fold(Node(Op.ADD, Ty.I64, (ptr.offset, self.fold(
                Node(Op.MUL, Ty.I64, (self.convert(idx, Ty.I64, t), const(ptr.width, Ty.I64)))))))
            parts = value.parts if isinstance(value, Vec) else (value,)
            if len(parts) != ptr.width:
                self.refuse("store of a value whose width differs from the pointer's", t, "store float4 through float4*")
            for k, v in enumerate(parts):
                ix = self.fold(Node(Op.ADD, Ty.I64, (base, const(k, Ty.I64)))) if k else base
                st.accesses.append(Access("store", ptr.array, ix, st.guard, self.line(t), value=self.convert(v, Ty.F32, t),
                                          align=base if ptr.width > 1 else None, width=ptr.width))
            return value
        self.refuse(f"assignment target {t.kind.name}", t, "assign locals, float4 fields or array elements")

    def call(self, c, kids, st: State):
        import clang.cindex as ci

        K = ci.CursorKind
        name = c.spelling
        args = [x for x in kids if x.kind is not K.TYPE_REF]
        if name in ("float4", "float2", "dim3") or (args and args[0].kind is K.UNEXPOSED_EXPR and name == ""):
            if len(args) == 1:
                return self.expr(args[0], st)
            if not args and name in ("float4", "float2"):  # `float4 r;`: fields unspecified until assigned
                return Vec((Node(Op.OPAQUE, Ty.F32, name="uninitialized"),) * (4 if name == "float4" else 2))
        callee = args[0] if args else None
        argv = args[1:] if callee is not None and callee.kind in (K.UNEXPOSED_EXPR, K.DECL_REF_EXPR) and \
            callee.spelling == name else args
        if name == "operator=":  # struct (float4) assignment: clang shows it as a call
            operands = [x for x in args if x.spelling != "operator="]
            if len(operands) == 2:
                return self.assign(operands[0], self.expr(operands[1], st), st)
        if name in REFUSED_CALLS:
            what = REFUSED_CALLS[name]
            self.refuse(f"{what} `{name}`", c, "only one-thread-per-element kernels without cross-thread "
                        "communication are modelled")
        vals = [self.expr(x, st) for x in argv]
        if name in ("make_float4", "make_float2"):
            return Vec(tuple(self.convert(v, Ty.F32, c) for v in vals))
        if name == "__ldg":
            if isinstance(vals[0], Ptr):
                return self.load(vals[0], const(0, Ty.I64), c, st)
        if name in _MATH:
            op, ty = _MATH[name]
            vs = tuple(self.convert(v, ty, c) for v in vals)
            return Node(op, ty, vs, contract=name != "__fmul_rn")
        if name in ("min", "max"):
            ty = vals[0].ty
            vs = tuple(self.convert(v, ty, c) for v in vals)
            cmp = Op.LT if name == "min" else Op.GT
            return self.fold(Node(Op.SELECT, ty, (Node(cmp, Ty.BOOL, vs), vs[0], vs[1])))
        if name in self.device_fns:
            return self.inline(name, vals, c, st)
        if name in TRANSCENDENTAL:
            ty = _ty_of(c.type.spelling)
            return Node(Op.OPAQUE, ty if isinstance(ty, Ty) else Ty.F32, tuple(vals), name=name)
        self.refuse(f"call to `{name}`", c, "inline it; the frontend knows fmaxf, fminf, fabsf, copysignf, sqrtf, "
                    "fmaf, __fmul_rn, make_float4 and the named transcendentals")

    def inline(self, name: str, vals: list, c, st: State):
        """A ``__device__`` helper whose body is declarations and one final ``return expr;``."""
        import clang.cindex as ci

        K = ci.CursorKind
        if name in self.inlining:
            self.refuse(f"recursive call to `{name}`", c, "device helpers may not recurse")
        fn = self.device_fns[name]
        params = [p for p in fn.get_children() if p.kind is K.PARM_DECL]
        body = [b for b in fn.get_children() if b.kind is K.COMPOUND_STMT][0]
        env = {}
        for prm, v in zip(params, vals):
            ty = _ty_of(prm.type.spelling)
            env[prm.spelling] = self.convert(v, ty, c) if isinstance(ty, Ty) else v
        local = State(st.guard, env, st.accesses)
        self.inlining.append(name)
        try:
            stmts = list(body.get_children())
            for k, s_ in enumerate(stmts):
                if s_.kind is K.DECL_STMT:
                    for d in s_.get_children():
                        self.decl(d, local)
                elif s_.kind is K.RETURN_STMT and k == len(stmts) - 1:
                    ret = list(s_.get_children())
                    ty = _ty_of(fn.result_type.spelling)
                    v = self.expr(ret[0], local)
                    return self.convert(v, ty, s_) if isinstance(ty, Ty) else v
                elif s_.kind.is_expression():
                    self.expr(s_, local)
                else:
                    self.refuse(f"statement {s_.kind.name.lower()} in __device__ function `{name}`", s_,
                                "write the helper as declarations and one final `return expr;` (ternaries for "
                                "branches)")
            self.refuse(f"__device__ function `{name}` without a final return", fn, "end it with `return expr;`")
        finally:
            self.inlining.pop()

    # -- statements
    def stmts(self, c, states: list[State]) -> list[State]:
        import clang.cindex as ci

        K = ci.CursorKind
        k = c.kind
        kids = list(c.get_children())
        if not states:
            return states
        if k is K.COMPOUND_STMT:
            for s in kids:
                states = self.stmts(s, states)
            return states
        if k is K.NULL_STMT:
            return states
        if k is K.DECL_STMT:
            for st in states:
                for d in kids:
                    self.decl(d, st)
            return states
        if k is K.RETURN_STMT:
            if kids:
                self.refuse("return with a value", c, "kernels return void")
            return []
        if k is K.IF_STMT:
            out = []
            for st in states:
                out += self.if_stmt(c, kids, st)
            if len(out) > MAX_PATHS:
                self.refuse(f"more than {MAX_PATHS} paths", c, "simplify the branching on thread indices")
            return out
        if k is K.FOR_STMT:
            return self.for_stmt(c, kids, states)
        if k in (K.WHILE_STMT, K.DO_STMT):
            self.refuse("while loop (unbounded)", c, "use a for loop with a constant trip count")
        if k in (K.GOTO_STMT, K.LABEL_STMT, K.INDIRECT_GOTO_STMT):
            self.refuse("goto", c, "use structured if/for")
        if k in (K.BREAK_STMT, K.CONTINUE_STMT):
            self.refuse("break/continue", c, "use a guard inside the loop body")
        if k in (K.SWITCH_STMT, K.ASM_STMT) or k.name == "GCC_ASM_STMT":
            self.refuse(k.name.lower().replace("_stmt", ""), c, "use if/else")
        if k.is_expression():
            for st in states:
                self.expr(c, st)
            return states
        self.refuse(f"statement kind {k.name}", c, "use declarations, assignments, if and constant-bound for")

    def decl(self, d, st: State):
        import clang.cindex as ci

        K = ci.CursorKind
        if d.kind is not K.VAR_DECL:
            self.refuse(f"declaration {d.kind.name}", d, "declare scalar, float4 or pointer locals")
        toks = [t.spelling for t in d.get_tokens()]
        if "__shared__" in toks or any("SHARED" in ch.kind.name for ch in d.get_children()):
            self.refuse("shared memory", d, "elementwise kernels need no shared memory")
        ty = _ty_of(d.type.spelling)
        if ty is None or "[" in d.type.spelling:
            self.refuse(f"local of type `{d.type.spelling}`", d, "use float, double, integer, bool, float4 or pointers")
        inits = [x for x in d.get_children() if x.kind is not K.TYPE_REF]
        if not inits:
            undef = Node(Op.OPAQUE, ty if isinstance(ty, Ty) else Ty.F32, name="uninitialized")
            st.env[d.spelling] = Vec((undef,) * (4 if ty == "float4" else 2)) if ty in ("float4", "float2") else undef
            return
        v = self.expr(inits[-1], st)
        if isinstance(ty, Ty):
            v = self.convert(v, ty, d)
        elif ty == "ptr" and isinstance(v, Ptr):
            m = re.search(r"float([24])?\s*\*", d.type.spelling)
            v = replace(v, width=int(m.group(1) or 1) if m else v.width, const="const" in d.type.spelling)
        st.env[d.spelling] = v

    def data_dependent(self, n: Node) -> bool:
        return any(x.op in (Op.LOAD, Op.OPAQUE) or x.ty.is_float for x in walk(n))

    def if_stmt(self, c, kids, st: State) -> list[State]:
        cond = self.convert(self.expr(kids[0], st), Ty.BOOL, c)
        then_c, else_c = kids[1], kids[2] if len(kids) > 2 else None
        if not self.data_dependent(cond):
            if cond.op is Op.CONST:
                branch = then_c if cond.value else else_c
                return self.stmts(branch, [st]) if branch is not None else [st]
            t = State(self.conj(st.guard, cond), dict(st.env), list(st.accesses))
            e = State(self.conj(st.guard, Node(Op.NOT, Ty.BOOL, (cond,))), dict(st.env), list(st.accesses))
            return self.stmts(then_c, [t]) + (self.stmts(else_c, [e]) if else_c is not None else [e])
        # Branch on data: both sides run as one path and are merged into selects.
        t = State(st.guard, dict(st.env), [])
        e = State(st.guard, dict(st.env), [])
        ts = self.stmts(then_c, [t])
        es = self.stmts(else_c, [e]) if else_c is not None else [e]
        if len(ts) != 1 or len(es) != 1:
            self.refuse("return or index branch inside an `if` on loaded data", c,
                        "compute the value with a ternary and store it once")
        t, e = ts[0], es[0]
        for name, old in st.env.items():
            a, b = t.env.get(name), e.env.get(name)
            if a is b or a == b:
                st.env[name] = a
            elif isinstance(a, Node) and isinstance(b, Node):
                st.env[name] = Node(Op.SELECT, a.ty, (cond, a, b))
            elif isinstance(a, Vec) and isinstance(b, Vec):
                st.env[name] = Vec(tuple(x if x == y else Node(Op.SELECT, x.ty, (cond, x, y))
                                         for x, y in zip(a.parts, b.parts)))
            else:
                self.refuse(f"pointer `{name}` changed under an `if` on loaded data", c, "keep pointers fixed")
        ts_ = [a for a in t.accesses if a.kind == "store"]
        es_ = [a for a in e.accesses if a.kind == "store"]
        if [(a.array, a.index) for a in ts_] != [(a.array, a.index) for a in es_]:
            self.refuse("store on only one side of an `if` on loaded data", c,
                        "write the element on both sides (or use a ternary): otherwise it keeps unspecified memory")
        st.accesses += [a for a in t.accesses + e.accesses if a.kind == "load"]
        for a, b in zip(ts_, es_):
            st.accesses.append(replace(a, value=Node(Op.SELECT, Ty.F32, (cond, a.value, b.value))))
        return [st]

    def conj(self, g: Node, c: Node) -> Node:
        return c if g is _TRUE else Node(Op.AND, Ty.BOOL, (g, c))

    def for_stmt(self, c, kids, states: list[State]) -> list[State]:
        if len(kids) != 4:
            self.refuse("for loop without init, condition and increment", c, "write for (int k = 0; k < K; ++k)")
        init, cond_c, inc, body = kids
        out = []
        for st in states:
            cur = self.stmts(init, [st])
            for trip in range(MAX_UNROLL + 1):
                live = []
                for s in cur:
                    cond = self.convert(self.expr(cond_c, s), Ty.BOOL, cond_c)
                    if cond.op is not Op.CONST:
                        self.refuse("loop whose bound is not a constant (grid-stride or n-dependent)", c,
                                    "use `if (idx < n)` with one element per thread, or a constant trip count")
                    if cond.value:
                        live.append(s)
                    else:
                        out.append(s)
                if not live:
                    break
                if trip == MAX_UNROLL:
                    self.refuse(f"loop with more than {MAX_UNROLL} iterations", c, "use a smaller constant trip count")
                cur = self.stmts(body, live)
                for s in cur:
                    self.expr(inc, s)
        return out


def parse_kernel(path: str | Path, source: str | None = None, name: str | None = None) -> Kernel:
    """Parse one ``__global__`` kernel from a .cu file into a :class:`Kernel`."""
    import clang.cindex as ci

    p = Path(path)
    if source is None:
        if not p.is_file():
            raise CudaParseError(f"kernel file {str(p)!r} does not exist; pass a .cu file with one __global__ kernel")
        source = p.read_text()
    fe = _Frontend(str(p), source)
    fname = str(p.resolve()) if p.exists() else "/workbench_floats/" + p.name
    headers = [(f"{STUB_INCLUDE}/{h}", "") for h in EMPTY_HEADERS]
    tu = ci.Index.create().parse(fname, args=list(FLAGS), unsaved_files=[(STUB_NAME, STUB), (fname, source), *headers])
    errors = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
    if errors:
        d = errors[0]
        raise CudaParseError(f"clang could not parse {p.name}:{d.location.line}: {d.spelling}; fix the CUDA source "
                             "(only the kernel is needed: CUDA runtime and math headers are stubbed, torch and other headers are not)",
                             line=d.location.line)
    K = ci.CursorKind
    # Refuse launches anywhere in the file, by line.
    for cur in tu.cursor.walk_preorder():
        if cur.location.file is not None and cur.location.file.name != fname:
            continue
        if cur.kind.name == "CUDA_KERNEL_CALL_EXPR" or (cur.kind is K.CALL_EXPR and cur.spelling == "cudaConfigureCall"):
            fe.refuse("kernel launch", cur, "check the kernel alone; give its launch as a `// launch: grid = ..., "
                      "block = ...` comment")
    kernels = []
    for cur in tu.cursor.get_children():
        if cur.location.file is None or cur.location.file.name != fname or cur.kind is not K.FUNCTION_DECL:
            continue
        if any(ch.kind is K.CUDAGLOBAL_ATTR for ch in cur.get_children()) and cur.is_definition():
            kernels.append(cur)
        elif any(ch.kind.name == "CUDADEVICE_ATTR" for ch in cur.get_children()) and cur.is_definition():
            fe.device_fns[cur.spelling] = cur
    if name is not None:
        kernels = [k for k in kernels if k.spelling == name]
    if not kernels:
        raise CudaParseError(f"{p.name} defines no __global__ kernel{f' named {name!r}' if name else ''}; "
                             "add `__global__ void kernel(const float* x, float* out, int n)`")
    if len(kernels) > 1:
        raise CudaParseError(f"{p.name} defines {len(kernels)} __global__ kernels "
                             f"({', '.join(k.spelling for k in kernels)}); name the one to check")
    fn = kernels[0]
    st = State(_TRUE, {}, [])
    arrays, ints, params = [], [], []
    for prm in fn.get_children():
        if prm.kind is not K.PARM_DECL:
            continue
        ty = _ty_of(prm.type.spelling)
        params.append(prm.spelling)
        if ty == "ptr":
            if not re.match(r"^(const\s+)?float\s*\*", prm.type.spelling):
                fe.refuse(f"parameter `{prm.spelling}` of type `{prm.type.spelling}`", prm, "use float* arrays")
            st.env[prm.spelling] = Ptr(prm.spelling, const(0, Ty.I64), 1, prm.type.spelling.startswith("const"))
            arrays.append(prm.spelling)
        elif isinstance(ty, Ty) and ty.is_int:
            st.env[prm.spelling] = Node(Op.PARAM, ty, name="n")
            ints.append(prm.spelling)
        else:
            fe.refuse(f"parameter `{prm.spelling}` of type `{prm.type.spelling}`", prm,
                      "write scalar constants into the kernel as literals; only float* arrays and one integer "
                      "element count are parameters")
    if len(ints) != 1:
        fe.refuse(f"{len(ints)} integer parameters", fn, "pass exactly one integer: the element count n")
    body = [ch for ch in fn.get_children() if ch.kind is K.COMPOUND_STMT]
    finals = fe.stmts(body[0], [st])
    accesses: list[Access] = []
    seen = set()
    for s in finals:
        for a in s.accesses:
            key = (a.kind, a.array, a.index, a.guard, a.line, a.value)
            if key not in seen:
                seen.add(key)
                accesses.append(a)
    written = sorted({a.array for a in accesses if a.kind == "store"}, key=arrays.index)
    if len(written) != 1:
        raise CudaParseError(f"kernel {fn.spelling} in {p.name} writes {len(written)} arrays ({', '.join(written)}); "
                             "an elementwise kernel writes exactly one output array", line=fn.location.line)
    out = written[0]
    if any(a.kind == "load" and a.array == out for a in accesses):
        fe.refuse(f"read of the output array `{out}`", fn, "read only the input arrays")
    inputs = tuple(a for a in arrays if a != out and any(x.array == a for x in accesses))
    return Kernel(name=fn.spelling, path=str(p), source=source, line=fn.location.line, inputs=inputs, output=out,
                  count=ints[0], accesses=tuple(accesses), launch=_parse_launch(source), params=tuple(params))
