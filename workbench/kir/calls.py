"""Calls in a kernel's text: ``tl.*`` functions, memory operations, casts and float payload calls.

Stage: kir. A mixin of the parser (:mod:`workbench.kir.parser`): each call Inductor emits for pointwise
kernels becomes typed nodes through the :class:`~workbench.kir.build.Builder`; anything else is refused by
name (atomics, reductions, device asserts, inline asm, helpers, libdevice on index values).
"""

from __future__ import annotations

import ast
import re
from typing import Any

from workbench.kir import layout
from workbench.kir.errors import RefusedConstruct
from workbench.kir.nodes import Node, Param
from workbench.kir.ops import Op
from workbench.kir.reduction import REDUCE_FUNCS
from workbench.kir.types import FloatType, IntType, PtrType, Type

ATOMICS = re.compile(r"^atomic_")
REDUCTIONS = frozenset(
    {"sum", "max", "min", "reduce", "argmax", "argmin", "xor_sum", "cumsum", "cumprod", "associative_scan",
     "histogram", "sort", "reduce_or", "max2", "min2", "sum2", "prod", "welford", "welford_reduce",
     "welford_combine", "any", "gather", "dot", "dot_scaled", "topk", "bucketize_binary_search"}
)
ASSERTS = frozenset({"device_assert", "static_assert", "device_print", "static_print", "assume"})
# Float payload functions: their values stay opaque; allowed only where the IR needs no value.
PAYLOAD_MODULES = frozenset({"tl_math", "libdevice", "triton_helpers", "math"})
PAYLOAD_TL = frozenset(
    {"abs", "maximum", "minimum", "exp", "exp2", "log", "log2", "sqrt", "sqrt_rn", "rsqrt", "sin", "cos",
     "sigmoid", "erf", "fma", "floor", "ceil", "clamp", "fdiv", "div_rn", "softmax", "cdiv", "umulhi"}
)
# Integer helpers of triton_helpers that Inductor applies to index values (Python floor semantics); expanded.
INTEGER_HELPERS = frozenset({"triton_helpers.div_floor_integer", "triton_helpers.remainder_integer"})
# ``tl_math.abs`` / ``tl.abs`` on a signed integer index value: ``math.absi`` (Op.ABS; triton/language/math.py).
INTEGER_ABS = frozenset({"tl_math.abs", "tl.abs"})
IGNORED_MEMORY_KEYWORDS = frozenset({"eviction_policy", "cache_modifier", "volatile"})

BLOCK_AXES = {"XBLOCK": "x", "YBLOCK": "y", "R0_BLOCK": "r"}
REDUCTION_BLOCKS = re.compile(r"^R\d*_?BLOCK$")


class CallRules:
    """``tl.*`` calls, ``.to()``, payload calls, pointers and block shapes (see the module docstring)."""

    def _call(self, call: ast.Call, statement: bool = False) -> Any:
        if isinstance(call.func, ast.Name) and call.func.id not in ("float",):
            raise self.refuse("unknown helper", f"{call.func.id}()", "inline the helper or extend the parser")
        func = self._expr(call.func)
        if isinstance(func, _Method):
            return self._method(func, call)
        if isinstance(func, _Builtin):
            return self._builtin(func.name, call)
        if isinstance(func, _Function):
            if func.module == "tl":
                return self._tl(func.name, call, statement)
            if func.module in PAYLOAD_MODULES:
                return self._payload_call(f"{func.module}.{func.name}", func.name, call)
            raise self.refuse("attribute call outside the supported set", f"{func.module}.{func.name}")
        if isinstance(call.func, ast.Name):
            raise self.refuse("unknown helper", f"{call.func.id}()")
        raise self.refuse("attribute call outside the supported set", ast.unparse(call.func)[:60])

    def _builtin(self, name: str, call: ast.Call) -> Node:
        if name == "float" and len(call.args) == 1 and isinstance(call.args[0], ast.Constant) \
                and isinstance(call.args[0].value, str) and not call.keywords:
            try:
                return self.b.fconst(float(call.args[0].value))
            except ValueError:
                pass
        raise self.refuse("unknown helper", f"{name}()")

    def _args(self, call: ast.Call, names: tuple[str, ...], required: int, ignore: frozenset[str] = frozenset()) -> dict[str, ast.expr]:
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            raise self.refuse("star arguments")
        if len(call.args) > len(names):
            raise self.refuse("too many arguments", ast.unparse(call)[:60])
        out = dict(zip(names, call.args))
        for k in call.keywords:
            if k.arg in ignore:
                continue
            if k.arg not in names or k.arg in out:
                raise self.refuse("keyword argument", f"{k.arg}= in {ast.unparse(call.func)}")
            out[k.arg] = k.value
        if any(n not in out for n in names[:required]):
            raise self.refuse("missing argument", ast.unparse(call)[:60])
        return out

    def _int_literal(self, e: ast.expr, what: str) -> int:
        v = e
        neg = False
        if isinstance(v, ast.UnaryOp) and isinstance(v.op, ast.USub):
            v, neg = v.operand, True
        if isinstance(v, ast.Constant) and isinstance(v.value, int) and not isinstance(v.value, bool):
            return -v.value if neg else v.value
        raise self.refuse(f"non-literal {what}", ast.unparse(e)[:60])

    def _number_literal(self, e: ast.expr) -> int | float:
        v, neg = e, False
        if isinstance(v, ast.UnaryOp) and isinstance(v.op, ast.USub):
            v, neg = v.operand, True
        if isinstance(v, ast.Constant) and isinstance(v.value, (int, float)):
            x = v.value
            return -x if neg else x
        if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "float" and len(v.args) == 1 \
                and isinstance(v.args[0], ast.Constant) and isinstance(v.args[0].value, str):
            try:
                x = float(v.args[0].value)
            except ValueError:
                raise self.refuse("tl.full value", ast.unparse(e)[:60]) from None
            return -x if neg else x
        raise self.refuse("tl.full value", ast.unparse(e)[:60])

    def _dtype(self, e: ast.expr) -> IntType | FloatType:
        t = self._expr(e)
        if isinstance(t, (IntType, FloatType)):
            return t
        raise self.refuse("dtype", ast.unparse(e)[:60])

    def _tl(self, fname: str, call: ast.Call, statement: bool) -> Any:
        if statement and fname != "store":
            if fname in ASSERTS:
                raise self.refuse("device assert" if "assert" in fname or fname == "assume" else "device print", f"tl.{fname}")
            if ATOMICS.match(fname):
                raise self.refuse("atomic", f"tl.{fname}")
            if fname in ("debug_barrier",):
                raise self.refuse("barrier", "tl.debug_barrier")
            if fname not in ("store",):
                pass
        match fname:
            case "program_id":
                a = self._args(call, ("axis",), 1)
                axis = self._int_literal(a["axis"], "program_id axis")
                if axis not in (0, 1, 2):
                    raise self.refuse("program_id axis", str(axis))
                return self.b.program_id(axis)
            case "num_programs":
                a = self._args(call, ("axis",), 1)
                axis = self._int_literal(a["axis"], "num_programs axis")
                if axis not in (0, 1, 2):
                    raise self.refuse("num_programs axis", str(axis))
                return self.b.num_programs(axis)
            case "arange":
                a = self._args(call, ("start", "end"), 2)
                start = self._int_literal(a["start"], "arange start")
                end = a["end"]
                if isinstance(end, ast.Name) and self._is_r_block(end.id) and start == 0:
                    layout.bare_arange(self, call, end.id)
                    return self.b.arange(0, end.id)  # the r lane position (workbench.kir.reduction)
                if not (isinstance(end, ast.Name) and end.id in self.params and self.params[end.id].kind == "constexpr"):
                    raise self.refuse("tl.arange with a literal bound", ast.unparse(call)[:60])
                self.used.setdefault(end.id, self.b.line or 0)
                if start != 0:
                    raise self.refuse("tl.arange not starting at 0", ast.unparse(call)[:60])
                if REDUCTION_BLOCKS.match(end.id):
                    raise self.refuse("reduction", f"tl.arange over {end.id}")
                if end.id not in BLOCK_AXES:
                    raise self.refuse("block axis", f"tl.arange over {end.id}")
                layout.bare_arange(self, call, end.id)
                return self.b.arange(start, end.id)
            case "full":
                a = self._args(call, ("shape", "value", "dtype"), 3)
                self._shape(a["shape"])
                t = self._dtype(a["dtype"])
                return self.b.full(self._number_literal(a["value"]), t)
            case "zeros":  # tl.zeros(shape, dtype) is tl.full(shape, 0, dtype) (language/core.py)
                a = self._args(call, ("shape", "dtype"), 2)
                self._shape(a["shape"])
                return self.b.full(0, self._dtype(a["dtype"]))
            case "broadcast_to":
                a = self._args(call, ("input", "shape"), 2)
                x = self._value(self._expr(a["input"]))
                self._shape(a["shape"])
                return self.b.broadcast(x)
            case "where":
                a = self._args(call, ("condition", "x", "y"), 3)
                return self.b.where(*(self._value(self._expr(a[k])) for k in ("condition", "x", "y")))
            case "load":
                a = self._args(call, ("pointer", "mask", "other"), 1, IGNORED_MEMORY_KEYWORDS)
                pointer, elem, offset = self._pointer(a["pointer"])
                mask = self._value(self._expr(a["mask"])) if "mask" in a and not _is_none(a["mask"]) else None
                other = self._value(self._expr(a["other"])) if "other" in a and not _is_none(a["other"]) else None
                if other is not None and mask is None:
                    raise self.refuse("tl.load with other= but no mask")
                n = self.b.load(pointer, elem, offset, mask, other)
                self.loads.append(n)
                self.load_lines.append(self.b.line or 0)
                return n
            case "store":
                if not statement:
                    raise self.refuse("tl.store used as a value")
                a = self._args(call, ("pointer", "value", "mask"), 2, IGNORED_MEMORY_KEYWORDS)
                pointer, elem, offset = self._pointer(a["pointer"])
                value = self._value(self._expr(a["value"]))
                mask = self._value(self._expr(a["mask"])) if "mask" in a and not _is_none(a["mask"]) else None
                n = self.b.store(pointer, elem, offset, value, mask)
                self.stores.append(n)
                self.store_lines.append(self.b.line or 0)
                return None
        if ATOMICS.match(fname):
            raise self.refuse("atomic", f"tl.{fname}")
        if fname in REDUCTIONS:
            return self._reduction_call(f"tl.{fname}", call)
        if fname in ASSERTS:
            raise self.refuse("device assert" if "assert" in fname or fname == "assume" else "device print", f"tl.{fname}")
        if fname.startswith("inline_asm"):
            raise self.refuse("inline asm", f"tl.{fname}")
        if fname in PAYLOAD_TL:
            return self._payload_call(f"tl.{fname}", fname, call)
        raise self.refuse("attribute call outside the supported set", f"tl.{fname}")

    def _shape(self, e: ast.expr) -> None:
        """A block shape argument: a list of literals/block constexprs, or ``x.shape``; only checked."""
        if isinstance(e, ast.Attribute) and e.attr == "shape":
            self._value(self._expr(e.value))
            return
        if isinstance(e, (ast.List, ast.Tuple)) and len(e.elts) <= 2:
            for x in e.elts:
                if isinstance(x, ast.Constant) and isinstance(x.value, int) and not isinstance(x.value, bool):
                    continue
                if isinstance(x, ast.Name) and (self._is_r_block(x.id) or x.id in self.params and self.params[x.id].kind == "constexpr"):
                    self.used.setdefault(x.id, self.b.line or 0)
                    continue
                raise self.refuse("block shape", ast.unparse(e)[:60])
            return
        raise self.refuse("block shape", ast.unparse(e)[:60])

    def _pointer(self, e: ast.expr) -> tuple[str, IntType | FloatType, Node]:
        """``ptr`` or ``ptr + offset`` (either order) with ``ptr`` a pointer parameter."""
        match e:
            case ast.Name():
                p = self._expr(e)
                if isinstance(p, _Pointer):
                    return p.name, p.type.element, self.b.literal(0)
            case ast.BinOp(op=ast.Add(), left=l, right=r):
                lv = self._expr(l) if isinstance(l, ast.Name) else None
                rv = self._expr(r) if isinstance(r, ast.Name) else None
                if isinstance(lv, _Pointer) and not isinstance(rv, _Pointer):
                    return lv.name, lv.type.element, self._offset(r)
                if isinstance(rv, _Pointer) and not isinstance(lv, _Pointer):
                    return rv.name, rv.type.element, self._offset(l)
                if isinstance(l, ast.BinOp) and _mentions_pointer(l, self.params):
                    raise self.refuse("pointer arithmetic chain", ast.unparse(e)[:60], "use ptr + (offset)")
        raise self.refuse("pointer expression", ast.unparse(e)[:60], "only `ptr + offset` with a pointer parameter")

    def _offset(self, e: ast.expr) -> Node:
        n = self._value(self._expr(e))
        if not isinstance(n.type, IntType) and not n.payload:
            raise self.refuse("non-integer offset", str(n.type))
        return n

    def _method(self, m: "_Method", call: ast.Call) -> Node:
        if m.name == "to":
            a = self._args(call, ("dtype",), 1)
            bad = [k.arg for k in call.keywords if k.arg != "dtype"]
            if bad:
                raise self.refuse("cast option", ", ".join(str(b) for b in bad))
            return self.b.cast(m.base, self._dtype(a["dtype"]))
        if m.name == "broadcast_to":
            # ``x.broadcast_to(XBLOCK, 1)``: tl.broadcast_to as a method (shape arguments only)
            if call.keywords or not call.args:
                raise self.refuse("block shape", ast.unparse(call)[:60])
            one = call.args[0]
            self._shape(one if len(call.args) == 1 and isinstance(one, (ast.List, ast.Tuple)) else ast.List(elts=list(call.args)))
            return self.b.broadcast(m.base)
        raise self.refuse("attribute call outside the supported set", f".{m.name}()")

    def _payload_call(self, full: str, short: str, call: ast.Call) -> Node:
        if full == "triton_helpers.select_one":
            return self._select_one(call)  # a row reduction (workbench.kir.scan)
        if short in REDUCTIONS or full in REDUCE_FUNCS:
            return self._reduction_call(full, call)
        if call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
            raise self.refuse("keyword argument", f"{full}(...)")
        args = tuple(self._value(self._expr(a)) for a in call.args)
        if not args:
            raise self.refuse("attribute call outside the supported set", f"{full}()")
        if not any(a.payload for a in args):
            if full in INTEGER_HELPERS and len(args) == 2:
                return self._integer_helper(short, *args)
            if full in INTEGER_ABS and len(args) == 1 and isinstance(args[0].type, IntType):
                return self.b.abs(args[0])
            raise self.refuse("libdevice outside payload position", f"{full} on integer index values")
        floats = [a.type for a in args if isinstance(a.type, FloatType)]
        t: Type = floats[0] if floats else args[0].type
        return self.b.payload(full, t, args)

    def _integer_helper(self, name: str, a: Node, d: Node) -> Node:
        """Inductor's integer helpers on index values, expanded exactly as their ``@triton.jit`` bodies read
        (``torch/_inductor/runtime/triton_helpers.py``; a jit helper is inlined, so this is the same code)."""
        b = self.b
        quot, rem = b.binary(Op.FLOORDIV, a, d), b.binary(Op.MOD, a, d)
        signs_differ = b.binary(Op.NE, b.binary(Op.LT, a, b.literal(0)), b.binary(Op.LT, d, b.literal(0)))
        if name == "div_floor_integer":
            # quot = a // b; remainder = a % b; fixed = tl.where(remainder != 0, quot - 1, quot)
            # return tl.where((a < 0) != (b < 0), fixed, quot)
            fixed = b.where(b.binary(Op.NE, rem, b.literal(0)), b.binary(Op.SUB, quot, b.literal(1)), quot)
            return b.where(signs_differ, fixed, quot)
        # remainder = a % b
        # return tl.where((remainder != 0) & ((a < 0) != (b < 0)), remainder + b, remainder)
        cond = b.binary(Op.AND, b.binary(Op.NE, rem, b.literal(0)), signs_differ)
        return b.where(cond, b.binary(Op.ADD, rem, d), rem)

    # -- whole-kernel checks ------------------------------------------------------------------------------


class _Module:
    def __init__(self, name: str):
        self.name = name


class _Builtin:
    def __init__(self, name: str):
        self.name = name


class _Function:
    def __init__(self, module: str, name: str):
        self.module, self.name = module, name


class _Method:
    def __init__(self, base: Node, name: str):
        self.base, self.name = base, name


class _Shape:
    pass


class _Pointer:
    def __init__(self, name: str, type_: PtrType):
        self.name, self.type = name, type_


def _is_none(e: ast.expr) -> bool:
    return isinstance(e, ast.Constant) and e.value is None


def _is_float(a: Node, b: Node) -> bool:
    return isinstance(a.type, FloatType) or isinstance(b.type, FloatType)


def _float_of(a: Node, b: Node) -> FloatType:
    for x in (a, b):
        if isinstance(x.type, FloatType) and x.type.name in ("fp64",):
            return x.type
    return FloatType("fp32")


def _mentions_pointer(e: ast.expr, params: dict[str, Param]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in params and params[n.id].kind == "pointer" for n in ast.walk(e))

