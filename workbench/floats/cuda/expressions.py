"""CUDA frontend, expressions: one method per clang cursor kind, each returning an IR value (stage: floats).

Values are IR ``Node``s (scalars), ``Ptr`` (an array and an element offset), ``Vec`` (float4/float2 parts)
or ``Builtin`` (threadIdx, ...). C's usual conversions are applied where clang typed them (each implicit
cast is an ``UNEXPOSED_EXPR`` carrying the converted type); constants are converted exactly once. A cursor
kind without a method is refused by name, with its line.
"""

from __future__ import annotations

import ctypes
import re
from dataclasses import replace
from fractions import Fraction
from typing import NoReturn

import numpy as np

from workbench.floats.cuda.literals import int_value, literal_text, round_fraction, round_literal
from workbench.floats.cuda.model import FIELDS, Access, Builtin, Ptr, State, Vec
from workbench.floats.cuda.stub import (BUILTINS, HALF_CONVERT, HALF_MATH, HALF_OPAQUE, MATH, NEVER_CONTRACTED,
                                       REFUSED_CALLS, TRANSCENDENTAL)
from workbench.floats.errors import CudaUnsupportedError
from workbench.floats.evaluate import _wrap, evaluate
from workbench.floats.halfprec import round_to
from workbench.floats.ir import Node, Op, Ty, const, walk

_NP_OF = {Ty.F32: np.float32, Ty.F64: np.float64, Ty.F16: np.float32, Ty.BF16: np.float32}

# CXBinaryOperatorKind / CXUnaryOperatorKind (clang-c/Index.h, libclang 18).
BINOP = {3: "*", 4: "/", 5: "%", 6: "+", 7: "-", 8: "<<", 9: ">>", 11: "<", 12: ">", 13: "<=", 14: ">=",
         15: "==", 16: "!=", 17: "&", 18: "^", 19: "|", 20: "&&", 21: "||", 22: "=", 23: "*=", 24: "/=",
         25: "%=", 26: "+=", 27: "-=", 28: "<<=", 29: ">>=", 30: "&=", 31: "^=", 32: "|=", 33: ","}
UNOP = {1: "x++", 2: "x--", 3: "++x", 4: "--x", 5: "&", 6: "*", 7: "+", 8: "-", 9: "~", 10: "!"}
ARITH = {"+": Op.ADD, "-": Op.SUB, "*": Op.MUL, "/": Op.DIV, "%": Op.REM}
CMP = {"<": Op.LT, ">": Op.GT, "<=": Op.LE, ">=": Op.GE, "==": Op.EQ, "!=": Op.NE}
_TYPES = {"float": Ty.F32, "double": Ty.F64, "int": Ty.I32, "unsigned int": Ty.U32, "unsigned": Ty.U32,
          "long": Ty.I64, "long long": Ty.I64, "int64_t": Ty.I64, "size_t": Ty.U64, "unsigned long": Ty.U64,
          "unsigned long long": Ty.U64, "bool": Ty.BOOL, "int32_t": Ty.I32, "uint32_t": Ty.U32,
          "__half": Ty.F16, "struct __half": Ty.F16, "__nv_bfloat16": Ty.BF16, "struct __nv_bfloat16": Ty.BF16}


def ty_of(spelling: str) -> Ty | str | None:
    """A C type spelling -> an IR type, "float4"/"float2", "ptr", or None (unknown)."""
    s = re.sub(r"\b(const|volatile|__restrict|restrict)\b", "", spelling).strip()
    s = re.sub(r"\s+", " ", s)
    if s in _TYPES:
        return _TYPES[s]
    if s in ("float4", "struct float4", "float2", "struct float2"):
        return s.removeprefix("struct ")
    if s.endswith("*"):
        return "ptr"
    return None


def _c_kind(c, fn_name: str) -> int:
    import clang.cindex as ci

    fn = getattr(ci.conf.lib, fn_name)
    fn.argtypes, fn.restype = [ci.Cursor], ctypes.c_int
    return fn(c)


def _strip(c):
    """Skip implicit casts and parentheses around an lvalue."""
    while c.kind.name in ("UNEXPOSED_EXPR", "PAREN_EXPR"):
        c = next(c.get_children())
    return c


class Expressions:
    """The expression half of the frontend; ``Statements`` (statements.py) adds statements and helpers."""

    def __init__(self, path: str, source: str):
        self.path = path
        self.source = source
        self.file = path.rsplit("/", 1)[-1]
        self.device_fns: dict = {}
        self.inlining: list[str] = []

    # -- helpers
    def refuse(self, what: str, cursor, fix: str) -> NoReturn:
        line = cursor.location.line if cursor is not None else None
        raise CudaUnsupportedError(f"{what} at {self.file}:{line} is not supported by the floats CUDA frontend; "
                                   f"{fix}", construct=what.split(" `")[0], line=line)

    def binop(self, c) -> str:
        return BINOP.get(_c_kind(c, "clang_getCursorBinaryOperatorKind"), "?")

    def unop(self, c) -> str:
        return UNOP.get(_c_kind(c, "clang_getCursorUnaryOperatorKind"), "?")

    def convert(self, v, ty, c):
        """C's usual conversions, as clang typed them; constants are converted exactly once, here."""
        if not isinstance(v, Node) or not isinstance(ty, Ty) or v.ty is ty:
            return v
        if v.op is Op.CONST and ty.is_half and v.ty.is_float:  # __half(0.5f): the header's RNE conversion
            return const(float(round_to(np.asarray(v.value, _NP_OF[v.ty]), ty)[()]), ty)
        if v.op is Op.CONST and v.ty.is_half and ty.is_float:  # half -> float/double is exact
            return const(float(v.value), ty)
        if v.op is Op.CONST:
            if ty.is_float:
                x = v.value
                if isinstance(x, float) and (x != x or x in (float("inf"), float("-inf")) or x == 0.0):
                    return const(x, ty)  # NaN, infinities and signed zeros convert exactly
                return const(round_fraction(Fraction(x), ty), ty)
            if ty is Ty.BOOL:
                return const(bool(v.value), ty)
            if not v.ty.is_float:
                return const(int(np.asarray(_wrap(int(v.value), ty))), ty)
        return Node(Op.CAST, ty, (v,))

    def fold(self, n: Node) -> Node:
        """Fold integer constants (only exact integer arithmetic; floats are never folded)."""
        if (not n.ty.is_float and n.op not in (Op.CONST, Op.CAST) and n.args
                and all(a.op is Op.CONST and not a.ty.is_float for a in n.args)):
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

    # -- dispatch
    def expr(self, c, st: State):
        method = getattr(self, "x_" + c.kind.name.lower(), None)
        if method is None:
            self.refuse(f"expression kind {c.kind.name}", c,
                        "rewrite with + - * /, comparisons, ternaries and the listed math calls")
        return method(c, list(c.get_children()), st)

    def x_unexposed_expr(self, c, kids, st: State):
        if len(kids) != 1:
            self.refuse(f"expression `{c.spelling}`", c, "write it with the operators the frontend models")
        return self.convert(self.expr(kids[0], st), ty_of(c.type.get_canonical().spelling), c)

    x_paren_expr = x_unexposed_expr

    def x_decl_ref_expr(self, c, kids, st: State):
        name = c.spelling
        if name in st.env:
            return st.env[name]
        if name in BUILTINS:
            return Builtin(name)
        self.refuse(f"reference to `{name}`", c, "use only the kernel's parameters and local variables")

    def x_member_ref_expr(self, c, kids, st: State):
        base = self.expr(kids[0], st) if kids else None
        if isinstance(base, Builtin):
            if c.spelling not in ("x", "y", "z"):
                self.refuse(f"member `{base.name}.{c.spelling}`", c, "use .x, .y or .z")
            return Node(Op.THREAD, Ty.U32, name=f"{base.name}.{c.spelling}")
        if isinstance(base, Vec) and c.spelling in FIELDS and FIELDS[c.spelling] < len(base.parts):
            return base.parts[FIELDS[c.spelling]]
        self.refuse(f"member access `.{c.spelling}`", c, "only float4/float2 fields and thread indices are modelled")

    def x_integer_literal(self, c, kids, st: State):
        text = literal_text(c, "int")
        if text is None:
            self.refuse("integer literal built by the preprocessor", c, "write the literal in a plain #define or inline")
        ty = ty_of(c.type.get_canonical().spelling)
        return const(int_value(text), ty if isinstance(ty, Ty) else Ty.I32)

    def x_floating_literal(self, c, kids, st: State):
        text = literal_text(c, "float")
        if text is None:
            self.refuse("floating literal built by the preprocessor", c, "write the literal in a plain #define or inline")
        ty = ty_of(c.type.get_canonical().spelling)
        return const(round_literal(text, ty), ty)

    def x_cxx_bool_literal_expr(self, c, kids, st: State):
        return const(next(iter(c.get_tokens())).spelling == "true", Ty.BOOL)

    def x_binary_operator(self, c, kids, st: State):
        op = self.binop(c)
        if op == "=":
            return self.assign(kids[0], self.expr(kids[1], st), st)
        if op == ",":
            self.refuse("comma operator", c, "write one expression per statement")
        a, b = self.expr(kids[0], st), self.expr(kids[1], st)
        ty = ty_of(c.type.get_canonical().spelling)
        if ty == "ptr" and isinstance(b, Ptr):
            a, b = b, a
        return self.arith(op, a, b, ty, c)

    def x_compound_assignment_operator(self, c, kids, st: State):
        op = self.binop(c)
        cur = self.expr(kids[0], st)
        rhs = self.expr(kids[1], st)
        ty = ty_of(kids[0].type.get_canonical().spelling)
        rty = ty if ty is not Ty.F32 or not (isinstance(rhs, Node) and rhs.ty is Ty.F64) else Ty.F64
        if isinstance(cur, Ptr):
            rty = "ptr"
        new = self.arith(op[:-1], self.convert(cur, rty, c), self.convert(rhs, rty, c), rty, c)
        return self.assign(kids[0], self.convert(new, ty, c), st)

    def x_unary_operator(self, c, kids, st: State):
        op = self.unop(c)
        if op in ("x++", "++x", "x--", "--x"):
            cur = self.expr(kids[0], st)
            if not isinstance(cur, Node) or not cur.ty.is_int:
                self.refuse(f"`{op}` on a non-integer", c, "increment integer indices only")
            new = self.fold(Node(Op.ADD if "+" in op else Op.SUB, cur.ty, (cur, const(1, cur.ty))))
            self.assign(kids[0], new, st)
            return cur if op.startswith("x") else new
        if op == "&":  # &p[i]: the address of an element (for __ldg and pointer arithmetic)
            inner = _strip(kids[0])
            if inner.kind.name == "ARRAY_SUBSCRIPT_EXPR":
                base, idx = (self.expr(x, st) for x in inner.get_children())
                if isinstance(base, Ptr) and isinstance(idx, Node) and idx.ty.is_int:
                    return replace(base, offset=self.element_offset(base, idx, c))
            self.refuse("address-of `&`", c, "take the address of an array element only (`&x[i]`)")
        v = self.expr(kids[0], st)
        match op:
            case "-" if isinstance(v, Node):
                if v.op is Op.CONST:
                    return const(-v.value if v.ty.is_float else -int(v.value), v.ty)
                return Node(Op.NEG, v.ty, (v,)) if v.ty.is_float else self.fold(Node(Op.SUB, v.ty, (const(0, v.ty), v)))
            case "+":
                return v
            case "!":
                return self.fold(Node(Op.NOT, Ty.BOOL, (self.convert(v, Ty.BOOL, c),)))
            case "*" if isinstance(v, Ptr):
                return self.load(v, const(0, Ty.I64), c, st)
        self.refuse(f"unary operator `{op}`", c, "pointer escapes and bitwise operators are not modelled")

    def x_conditional_operator(self, c, kids, st: State):
        cond = self.convert(self.expr(kids[0], st), Ty.BOOL, c)
        a, b = self.expr(kids[1], st), self.expr(kids[2], st)
        ty = ty_of(c.type.get_canonical().spelling)
        if not isinstance(a, Node) or not isinstance(b, Node):
            self.refuse("conditional operator on pointers or vectors", c, "select scalars")
        return self.fold(Node(Op.SELECT, ty, (cond, self.convert(a, ty, c), self.convert(b, ty, c))))

    def x_array_subscript_expr(self, c, kids, st: State):
        base = self.expr(kids[0], st)
        idx = self.expr(kids[1], st)
        if not isinstance(base, Ptr):
            self.refuse("subscript of a non-pointer", c, "index the kernel's pointer parameters")
        return self.load(base, idx, c, st)

    def x_cstyle_cast_expr(self, c, kids, st: State):
        inner = [x for x in kids if x.kind.name != "TYPE_REF"]
        v = self.expr(inner[-1], st)
        ty = ty_of(c.type.get_canonical().spelling)
        if isinstance(v, Ptr):
            m = re.search(r"float([24])?\s*\*", c.type.get_canonical().spelling)
            if not m:
                self.refuse(f"pointer cast to `{c.type.get_canonical().spelling}`", c, "cast float pointers to float4*/float2* only")
            return replace(v, width=int(m.group(1) or 1))
        if isinstance(ty, Ty):
            return self.convert(v, ty, c)
        if isinstance(v, Vec):
            return v
        self.refuse(f"cast to `{c.type.get_canonical().spelling}`", c, "cast between float, double and integer types only")

    x_cxx_static_cast_expr = x_cxx_functional_cast_expr = x_cxx_reinterpret_cast_expr = x_cstyle_cast_expr
    x_cxx_const_cast_expr = x_cstyle_cast_expr

    def x_init_list_expr(self, c, kids, st: State):
        return Vec(tuple(self.convert(self.expr(x, st), Ty.F32, c) for x in kids))

    def x_cuda_kernel_call_expr(self, c, kids, st: State):
        self.refuse("kernel launch", c, "check the kernel alone; give its launch as a `// launch:` comment")

    def x_call_expr(self, c, kids, st: State):
        name = c.spelling
        args = [x for x in kids if x.kind.name != "TYPE_REF"]
        if name in ("float4", "float2", "dim3") or (args and args[0].kind.name == "UNEXPOSED_EXPR" and name == ""):
            if len(args) == 1:
                return self.expr(args[0], st)
            if not args and name in ("float4", "float2"):  # `float4 r;`: fields unspecified until assigned
                return Vec((Node(Op.OPAQUE, Ty.F32, name="uninitialized"),) * (4 if name == "float4" else 2))
        if name in ("__half", "__nv_bfloat16") and len(args) == 1:  # constructor: __float2half(x) (RNE) or a copy
            return self.convert(self.expr(args[0], st), ty_of(name), c)
        if name == "operator float" and len(args) == 1 and args[0].kind.name == "MEMBER_REF_EXPR":
            obj = list(args[0].get_children())  # h.operator float(): __half2float, exact
            return self.convert(self.expr(obj[0], st), Ty.F32, c)
        if name.startswith("operator") and name != "operator=":  # overloaded operator (on __half): drop the callee
            argv = [x for x in args if not (_strip(x).kind.name == "DECL_REF_EXPR" and _strip(x).spelling == name)]
            return self.call(name, [self.expr(x, st) for x in argv], c, st)
        callee = args[0] if args else None
        argv = args[1:] if callee is not None and callee.kind.name in ("UNEXPOSED_EXPR", "DECL_REF_EXPR") and \
            callee.spelling == name else args
        if name == "operator=":  # struct (float4) assignment: clang shows it as a call
            operands = [x for x in args if x.spelling != "operator="]
            if len(operands) == 2:
                return self.assign(operands[0], self.expr(operands[1], st), st)
        if name in REFUSED_CALLS:
            self.refuse(f"{REFUSED_CALLS[name]} `{name}`", c, "only one-thread-per-element kernels without "
                        "cross-thread communication are modelled")
        vals = [self.expr(x, st) for x in argv]
        return self.call(name, vals, c, st)

    def call(self, name: str, vals: list, c, st: State):
        ret = ty_of(c.type.get_canonical().spelling)
        match name:
            case "make_float4" | "make_float2":
                return Vec(tuple(self.convert(v, Ty.F32, c) for v in vals))
            case "__ldg" if len(vals) == 1 and isinstance(vals[0], Ptr):
                return self.load(vals[0], const(0, Ty.I64), c, st)  # a read-only cached load: same value
            case "__saturatef":
                # CUDA Math API: "clamp the input argument to [+0.0, 1.0]; returns 0 if x is NaN"; nvcc emits
                # cvt.sat.f32.f32 (PTX ISA 9.7.9: .sat clamps to [0.0, 1.0], NaN and -0.0 give +0.0; with
                # .ftz a subnormal input is +0.0, which the flushing comparison below reproduces)
                x = self.convert(vals[0], Ty.F32, c)
                zero, one = const(0.0, Ty.F32), const(1.0, Ty.F32)
                clamped = Node(Op.SELECT, Ty.F32, (Node(Op.GT, Ty.BOOL, (x, one)), one, x))
                return Node(Op.SELECT, Ty.F32, (Node(Op.GT, Ty.BOOL, (x, zero)), clamped, zero))
            case "__fmul_rz":
                # CUDA Math API: a*b "in round-towards-zero mode", never contracted (mul.rz.f32); the product
                # of two binary32 values is exact in binary64, so one conversion toward zero rounds it once
                x, y = (Node(Op.CAST, Ty.F64, (self.convert(v, Ty.F32, c),)) for v in vals)
                return Node(Op.CAST_RZ, Ty.F32, (Node(Op.MUL, Ty.F64, (x, y), contract=False),))
            case "__frcp_rn":  # CUDA Math API: 1/x in round-to-nearest-even, one rounding
                return Node(Op.DIV, Ty.F32, (const(1.0, Ty.F32), self.convert(vals[0], Ty.F32, c)))
            case "min" | "max" if isinstance(ret, Ty) and ret.is_float:
                # crt/math_functions.hpp: min/max(float, float) are fminf/fmaxf (and fmin/fmax for double)
                vs = tuple(self.convert(v, ret, c) for v in vals)
                return Node(Op.FMIN if name == "min" else Op.FMAX, ret, vs)
            case "min" | "max" if isinstance(ret, Ty):
                vs = tuple(self.convert(v, ret, c) for v in vals)
                cmp = Op.LT if name == "min" else Op.GT
                return self.fold(Node(Op.SELECT, ret, (Node(cmp, Ty.BOOL, vs), vs[0], vs[1])))
        if name in MATH:
            op, ty = MATH[name]
            vs = tuple(self.convert(v, ty, c) for v in vals)
            return Node(op, ty, vs, contract=name not in NEVER_CONTRACTED)
        if name == "isnan" and len(vals) == 1 and isinstance(vals[0], Node) and vals[0].ty.is_float:
            return Node(Op.ISNAN, Ty.BOOL, (vals[0],))  # crt/math_functions.hpp: a quiet test, no rounding
        if name in HALF_CONVERT:
            return self.convert(vals[0], HALF_CONVERT[name], c)
        if name in HALF_MATH and all(isinstance(v, Node) and v.ty.is_half for v in vals):
            hty = next(v.ty for v in vals)
            op = Op.NEG if name == "operator-" and len(vals) == 1 else HALF_MATH[name]
            out = Ty.BOOL if op in (Op.GT, Op.LT, Op.GE, Op.LE, Op.EQ, Op.NE, Op.ISNAN) else hty
            return Node(op, out, tuple(self.convert(v, hty, c) for v in vals), contract=not name.endswith("_rn"))
        if name in HALF_OPAQUE:
            return Node(Op.OPAQUE, ret if isinstance(ret, Ty) else Ty.F32, tuple(vals), name=name)
        if name in self.device_fns:
            return self.inline(name, vals, c, st)
        if name in TRANSCENDENTAL or name == "__frsqrt_rn":
            return Node(Op.OPAQUE, ret if isinstance(ret, Ty) else Ty.F32, tuple(vals), name=name)
        self.refuse(f"call to `{name}`", c, "inline it; the frontend knows fmaxf, fminf, min, max, fabsf, copysignf, "
                    "sqrtf, fmaf, the __f*_rn intrinsics, __ldg, make_float4 and the named transcendentals")

    # -- arithmetic and memory
    def arith(self, op: str, a, b, ty, c):
        if isinstance(a, Ptr) and op in "+-" and isinstance(b, Node):
            delta = b if op == "+" else self.fold(Node(Op.SUB, b.ty, (const(0, b.ty), b)))
            return replace(a, offset=self.element_offset(a, delta, c))
        if op in ARITH:
            if not isinstance(a, Node) or not isinstance(b, Node):
                self.refuse(f"operator `{op}` on pointers or vectors", c, "compute on scalars")
            if op == "%" and ty.is_float:
                self.refuse("float remainder", c, "fmodf is not modelled")
            return self.fold(Node(ARITH[op], ty, (a, b)))
        if op in CMP:
            return self.fold(Node(CMP[op], Ty.BOOL, (a, b)))
        if op in ("&&", "||"):
            return self.fold(Node(Op.AND if op == "&&" else Op.OR, Ty.BOOL,
                                  (self.convert(a, Ty.BOOL, c), self.convert(b, Ty.BOOL, c))))
        self.refuse(f"operator `{op}`", c, "bitwise and shift operators are not modelled; use * and / on indices")

    def element_offset(self, ptr: Ptr, idx: Node, c) -> Node:
        """``ptr + idx`` in floats: the pointer's offset plus idx times its vector width (int64)."""
        scaled = self.fold(Node(Op.MUL, Ty.I64, (self.convert(idx, Ty.I64, c), const(ptr.width, Ty.I64))))
        return self.fold(Node(Op.ADD, Ty.I64, (ptr.offset, scaled)))

    def load(self, ptr: Ptr, idx, c, st: State):
        if not isinstance(idx, Node) or not idx.ty.is_int:
            self.refuse("non-integer subscript", c, "index with an integer expression")
        if any(n.op is Op.LOAD for n in walk(idx)):
            self.refuse("index computed from loaded data (gather)", c, "elementwise kernels index by thread only")
        base = self.element_offset(ptr, idx, c)
        parts = []
        for k in range(ptr.width):
            ix = self.fold(Node(Op.ADD, Ty.I64, (base, const(k, Ty.I64)))) if k else base
            parts.append(Node(Op.LOAD, ptr.elem, (ix,), name=ptr.array))
            st.accesses.append(self.access("load", ptr.array, ix, st, c, align=base if ptr.width > 1 else None,
                                           width=ptr.width))
        return parts[0] if ptr.width == 1 else Vec(tuple(parts))

    def access(self, kind, array, index, st: State, c, **kw) -> Access:
        return Access(kind, array, index, st.guard, c.location.line, **kw)
