"""Block level, lowering: a KernelBench answer's whole CUDA string -> a small frozen tree (stage: floats).

The CUDA string (kernels, ``__device__`` helpers, host wrappers) is parsed once by libclang with the CUDA
frontend's flags and stub (``workbench.floats.cuda.stub``) plus ``BLOCK_STUB``: the torch/ATen names a host
wrapper uses (``torch::Tensor`` with ``size``/``numel``/``data_ptr<float>``, ``torch::empty``, options,
checks as no-ops), ``warpSize``, ``INFINITY``/``FLT_MAX`` and the warp intrinsics. Torch, c10 and ATen
includes are blanked line for line, so every line is ANSWER.py's line. Each cursor becomes a ``C`` node: its
kind (one of ``KINDS``), C type class, operator or name, children and line. Cursor kinds not listed are
refused by name with their line (``BlockUnsupportedError``); nothing is evaluated here.
"""

from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass
from pathlib import Path

from workbench.floats.cuda.expressions import BINOP, UNOP
from workbench.floats.cuda.literals import int_value, round_literal
from workbench.floats.cuda.parse import instantiate_templates
from workbench.floats.cuda.stub import EMPTY_HEADERS, FLAGS, HALF_HEADERS, STUB, STUB_INCLUDE, STUB_NAME
from workbench.floats.errors import CudaParseError, CudaUnsupportedError
from workbench.floats.ir import Ty

BLOCK_STUB_NAME = "/workbench_floats/block_stub.h"
BLOCK_STUB = r"""
#define warpSize 32
#define INFINITY __builtin_inff()
#define NAN __builtin_nanf("")
#define FLT_MAX 3.40282347e+38F
#define FLT_MIN 1.17549435e-38F
#define TORCH_CHECK(...) ((void)0)
#define TORCH_INTERNAL_ASSERT(...) ((void)0)
#define AT_ASSERT(...) ((void)0)
#define C10_CUDA_KERNEL_LAUNCH_CHECK() ((void)0)
#define C10_CUDA_CHECK(...) ((void)0)
#define AT_CUDA_CHECK(...) ((void)0)
typedef int cudaError_t;
typedef void* cudaStream_t;
const int cudaSuccess = 0;
cudaError_t cudaGetLastError(); cudaError_t cudaDeviceSynchronize(); const char* cudaGetErrorString(cudaError_t);
__device__ float __shfl_up_sync(unsigned, float, unsigned, int = 32);
__device__ float atomicMin(float*, float); __device__ float atomicSub(float*, float);
__device__ double __shfl_down_sync(unsigned, double, unsigned, int = 32);
__device__ double __shfl_xor_sync(unsigned, double, int, int = 32);
__device__ int __shfl_down_sync(unsigned, int, unsigned, int = 32);
__host__ __device__ float fmaxf(float, float);
__device__ __host__ double sqrt(double); __device__ __host__ double rsqrt(double); __device__ __host__ double log(double);
struct WbSizes { long d0, d1, d2, d3, d4, d5; long& operator[](int); long size() const; WbSizes vec() const; };
namespace std { template <class T> T min(T, T); template <class T> T max(T, T); }
namespace c10 { enum ScalarType { Float, Double, Half, BFloat16, Long, Int, Short, Char, Byte, Bool }; }
namespace at {
using c10::ScalarType;
struct Device { bool is_cuda() const; };
struct TensorOptions { TensorOptions dtype(ScalarType) const; TensorOptions device(Device) const; };
struct Tensor {
  long size(long) const; long numel() const; long dim() const; long stride(long) const; bool is_cuda() const;
  WbSizes sizes() const; TensorOptions options() const; Device device() const; bool is_contiguous() const;
  template <class T> T* data_ptr() const; template <class T> T* data() const; ScalarType scalar_type() const;
  Tensor contiguous() const; Tensor cuda() const;
};
Tensor empty(WbSizes, TensorOptions); Tensor zeros(WbSizes, TensorOptions);
Tensor empty_like(const Tensor&); Tensor zeros_like(const Tensor&);
namespace cuda { cudaStream_t getCurrentCUDAStream(); }
const ScalarType kFloat32 = c10::Float; const ScalarType kFloat = c10::Float;
// ATen's other dtype names (c10/core/ScalarType.h): host code names them for index outputs (argmax's kLong)
const ScalarType kFloat64 = c10::Double; const ScalarType kDouble = c10::Double; const ScalarType kHalf = c10::Half;
const ScalarType kFloat16 = c10::Half; const ScalarType kBFloat16 = c10::BFloat16; const ScalarType kLong = c10::Long;
const ScalarType kInt64 = c10::Long; const ScalarType kInt = c10::Int; const ScalarType kInt32 = c10::Int;
const ScalarType kShort = c10::Short; const ScalarType kInt16 = c10::Short; const ScalarType kChar = c10::Char;
const ScalarType kInt8 = c10::Char; const ScalarType kByte = c10::Byte; const ScalarType kUInt8 = c10::Byte;
const ScalarType kBool = c10::Bool;
}
namespace torch { using at::Tensor; using at::empty; using at::zeros; using at::empty_like; using at::zeros_like;
  using at::TensorOptions; using at::kFloat32; using at::kFloat; using at::Device; using at::kFloat64;
  using at::kDouble; using at::kHalf; using at::kFloat16; using at::kBFloat16; using at::kLong; using at::kInt64;
  using at::kInt; using at::kInt32; using at::kShort; using at::kInt16; using at::kChar; using at::kInt8;
  using at::kByte; using at::kUInt8; using at::kBool; using at::ScalarType; }
"""
TORCH_INCLUDE = re.compile(r"^[ \t]*#\s*include\s*[<\"](torch|c10|ATen|pybind11|THC)/[^>\"]*[>\"].*$", re.M)
MORE_HEADERS = ("float.h", "cfloat", "limits", "vector", "climits", "cassert", "assert.h", "iostream", "cuda_fp16.h")

# Node kinds: statements
STMTS = ("block", "decl", "if", "for", "while", "do", "return", "break", "continue", "expr", "null")
# ... and expressions
EXPRS = ("int", "float", "bool", "string", "null_ptr", "ref", "member", "call", "method", "launch", "binop",
         "assign", "unop", "cond", "index", "cast", "init", "sizeof", "default")
KINDS = frozenset(STMTS + EXPRS + ("function",))


class BlockUnsupportedError(CudaUnsupportedError):
    """The answer uses a construct the block interpreter does not model; the message names it and its line."""


@dataclass(frozen=True, slots=True)
class C:
    kind: str  # one of KINDS
    line: int
    kids: tuple["C", ...] = ()
    name: str = ""  # operator, variable, function, member or type name
    ty: str = ""  # type class: f32 f64 i32 u32 i64 u64 bool ptr tensor void other (see type_class)
    value: object = None  # literal value; for decl: (dims, shared, extern); for function: (params, kind)


_INTS = {"int": "i32", "unsigned int": "u32", "unsigned": "u32", "long": "i64", "long long": "i64",
         "unsigned long": "u64", "unsigned long long": "u64", "short": "i32", "unsigned short": "u32",
         "char": "i32", "unsigned char": "u32", "signed char": "i32"}


def type_class(spelling: str) -> str:
    s = re.sub(r"\b(const|volatile|__restrict|restrict|struct)\b", "", spelling).strip()
    s = re.sub(r"\s+", " ", s)
    if s == "float":
        return "f32"
    if s == "double":
        return "f64"
    if s == "bool":
        return "bool"
    if s in _INTS:
        return _INTS[s]
    if s == "void":
        return "void"
    if s.endswith("*") or s.endswith("]"):
        return "ptr"
    if s in ("at::Tensor", "Tensor", "torch::Tensor"):
        return "tensor"
    if s.endswith("&"):
        return type_class(s[:-1])
    if s in ("dim3", "uint3"):
        return "dim3"
    return "other:" + s


def _kind(c, fn_name: str) -> int:
    import clang.cindex as ci

    fn = getattr(ci.conf.lib, fn_name)
    fn.argtypes, fn.restype = [ci.Cursor], ctypes.c_int
    return fn(c)


@dataclass(frozen=True, slots=True)
class Program:
    """The lowered CUDA string: functions by name (kernels, device helpers, host functions)."""

    path: str
    functions: dict  # name -> C(kind="function", name, value=(params, role), kids=(body,))
    kernels: tuple[str, ...]


def lower_source(path: str | Path, source: str) -> Program:
    """Parse ``source`` (ANSWER.py's CUDA string, padded to its lines) and lower every function in it."""
    import clang.cindex as ci

    p = Path(path)
    text = TORCH_INCLUDE.sub("", instantiate_templates(source, p.name))
    fname = "/workbench_floats/" + p.stem + ".cu"
    headers = [(f"{STUB_INCLUDE}/{h}", "") for h in EMPTY_HEADERS + MORE_HEADERS if h not in HALF_HEADERS]
    headers += [(f"{STUB_INCLUDE}/{h}", t) for h, t in HALF_HEADERS.items()]
    args = list(FLAGS) + ["-include", BLOCK_STUB_NAME]
    tu = ci.Index.create().parse(fname, args=args, unsaved_files=[(STUB_NAME, STUB), (BLOCK_STUB_NAME, BLOCK_STUB),
                                                                  (fname, text), *headers])
    errors = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
    if errors:
        d = errors[0]
        raise CudaParseError(f"clang could not parse the CUDA string at {p.name}:{d.location.line}: {d.spelling}; the "
                             "block level reads kernels, __device__ helpers and torch host wrappers (torch::Tensor, "
                             "size, numel, data_ptr<float>, empty, options); fix or simplify that line",
                             line=d.location.line)
    low = _Lower(p.name)
    functions, kernels = {}, []
    for cur in tu.cursor.get_children():
        if cur.location.file is None or cur.location.file.name != fname:
            continue
        if cur.kind.name == "FUNCTION_DECL" and cur.is_definition():
            attrs = {ch.kind.name for ch in cur.get_children()}
            role = "kernel" if "CUDAGLOBAL_ATTR" in attrs else "device" if "CUDADEVICE_ATTR" in attrs else "host"
            params = tuple((a.spelling, type_class(a.type.spelling), type_class(a.type.get_canonical().spelling))
                           for a in cur.get_children() if a.kind.name == "PARM_DECL")
            body = [ch for ch in cur.get_children() if ch.kind.name == "COMPOUND_STMT"]
            functions[cur.spelling] = C("function", cur.location.line, (low.stmt(body[0]),), cur.spelling,
                                        type_class(cur.result_type.get_canonical().spelling), (params, role))
            if role == "kernel":
                kernels.append(cur.spelling)
        elif cur.kind.name == "VAR_DECL":  # a file-scope constant (constexpr int TILE = 16;)
            functions["$global:" + cur.spelling] = low.decl(cur)
    return Program(str(p), functions, tuple(kernels))


class _Lower:
    def __init__(self, file: str):
        self.file = file

    def refuse(self, what: str, c, fix: str):
        line = c.location.line
        raise BlockUnsupportedError(f"{what} at {self.file}:{line} is not modelled by the block interpreter; {fix}",
                                    construct=what.split(" `")[0], line=line)

    # -- statements
    def stmt(self, c) -> C:
        k = c.kind.name
        line = c.location.line
        kids = list(c.get_children())
        match k:
            case "COMPOUND_STMT":
                return C("block", line, tuple(self.stmt(x) for x in kids))
            case "DECL_STMT":
                return C("block", line, tuple(self.decl(d) for d in kids), name="decls")
            case "IF_STMT":
                return C("if", line, tuple(self.stmt(x) if i else self.expr(x) for i, x in enumerate(kids)))
            case "FOR_STMT":
                if len(kids) != 4:
                    self.refuse("for loop without init, condition and increment", c,
                                "write for (int k = a; k < b; k += s)")
                init, cond, inc, body = kids
                return C("for", line, (self.stmt(init), self.expr(cond), self.expr(inc), self.stmt(body)))
            case "WHILE_STMT":
                return C("while", line, (self.expr(kids[0]), self.stmt(kids[1])))
            case "DO_STMT":
                return C("do", line, (self.stmt(kids[0]), self.expr(kids[1])))
            case "RETURN_STMT":
                if not kids:  # clang shows `return t;` of a class value (elided copy) without a child
                    toks = [t.spelling for t in c.get_tokens()]
                    if len(toks) >= 2 and re.fullmatch(r"[A-Za-z_]\w*", toks[1]) and toks[2:3] in ([";"], []):
                        return C("return", line, (C("ref", line, name=toks[1], ty="tensor"),))
                return C("return", line, tuple(self.expr(x) for x in kids))
            case "BREAK_STMT":
                return C("break", line)
            case "CONTINUE_STMT":
                return C("continue", line)
            case "NULL_STMT":
                return C("null", line)
        if c.kind.is_expression():
            return C("expr", line, (self.expr(c),))
        self.refuse(f"statement `{k}`", c, "use declarations, expressions, if, for, while, break/continue, return")

    def decl(self, d) -> C:
        line = d.location.line
        if d.kind.name in ("TYPEDEF_DECL", "TYPE_ALIAS_DECL"):
            return C("null", line)
        if d.kind.name != "VAR_DECL":
            self.refuse(f"declaration `{d.kind.name}`", d, "declare variables and arrays")
        toks = [t.spelling for t in d.get_tokens()]
        shared = "__shared__" in toks or any("SHARED" in ch.kind.name for ch in d.get_children())
        extern = "extern" in toks
        spelling = d.type.get_canonical().spelling
        dims = tuple(int(x) for x in re.findall(r"\[(\d+)\]", spelling))
        if "[]" in spelling.replace(" ", "") and not extern:
            self.refuse(f"array `{d.spelling}` without a size", d, "give the array a constant size")
        elem = re.sub(r"\s*\[.*$", "", spelling) if "[" in spelling else spelling
        inits = [x for x in d.get_children() if x.kind.name not in ("TYPE_REF", "NAMESPACE_REF", "TEMPLATE_REF")
                 and not x.kind.name.endswith("_ATTR") and x.kind.is_expression()]
        if "[" in spelling:  # the children of an array declaration are its extents; an initialiser is a list
            inits = [x for x in inits if x.kind.name == "INIT_LIST_EXPR"]
        if dims and inits:
            self.refuse(f"array initialiser of `{d.spelling}`", d, "assign the elements in a loop")
        ty = type_class(elem) if ("[" in spelling) else type_class(spelling)
        return C("decl", line, tuple(self.expr(x) for x in inits[-1:]), d.spelling, ty,
                 (dims, shared, extern, "[" in spelling))

    # -- expressions
    def expr(self, c) -> C:
        k = c.kind.name
        line = c.location.line
        ty = type_class(c.type.get_canonical().spelling)
        kids = [x for x in c.get_children() if x.kind.name not in ("TYPE_REF", "NAMESPACE_REF", "TEMPLATE_REF")]
        match k:
            case "INTEGER_LITERAL":
                tok = next(iter(c.get_tokens()), None)
                text = tok.spelling if tok is not None else ""
                if not re.fullmatch(r"(?:0[xX][0-9a-fA-F]+|\d+)[uUlL]*", text):
                    # a literal from a macro or a constant clang folded: its value from the evaluator
                    v = _evaluate_int(c)
                    if v is None:
                        self.refuse("integer literal built by the preprocessor", c, "write it as a plain literal")
                    return C("int", line, ty=ty, value=v)
                return C("int", line, ty=ty, value=int_value(text))
            case "FLOATING_LITERAL":
                toks = [t.spelling for t in c.get_tokens()]
                text = toks[0] if toks else ""
                if text == "FLT_MAX":
                    text = "3.40282347e+38F"
                elif text == "FLT_MIN":
                    text = "1.17549435e-38F"
                try:
                    v = round_literal(text, Ty.F32 if ty == "f32" else Ty.F64)
                except (ValueError, ZeroDivisionError):
                    v = _evaluate_float(c)  # a literal from a macro (FLT_MAX): clang's value of the literal's type
                    if v is None:
                        self.refuse(f"floating literal `{text}`", c, "write the literal as a plain decimal")
                return C("float", line, ty=ty, value=v)
            case "CXX_BOOL_LITERAL_EXPR":
                return C("bool", line, ty="bool", value=next(iter(c.get_tokens())).spelling == "true")
            case "STRING_LITERAL":
                return C("string", line, ty="ptr")
            case "CXX_NULL_PTR_LITERAL_EXPR" | "GNU_NULL_EXPR":
                return C("null_ptr", line, ty="ptr")
            case "DECL_REF_EXPR":
                return C("ref", line, ty=ty, name=c.spelling)
            case "MEMBER_REF_EXPR":
                return C("member", line, tuple(self.expr(x) for x in kids), c.spelling, ty)
            case "PAREN_EXPR":
                return self.expr(kids[0])
            case "UNEXPOSED_EXPR":
                if len(kids) == 1:  # an implicit conversion to this node's type
                    inner = self.expr(kids[0])
                    return inner if inner.ty == ty else C("cast", line, (inner,), ty=ty, name="implicit")
                if not kids:  # a default argument (CXXDefaultArgExpr): the callee's default applies
                    return C("default", line, ty=ty)
                return self.call_like(c, kids, ty)
            case "CALL_EXPR":
                return self.call_like(c, kids, ty)
            case "CUDA_KERNEL_CALL_EXPR":
                callee, config, *args = kids
                cfg = [self.expr(x) for x in config.get_children()
                       if x.kind.name not in ("TYPE_REF", "NAMESPACE_REF")] if config.kind.name == "CALL_EXPR" else []
                fn = _callee_name(callee)
                return C("launch", line, (C("init", line, tuple(cfg)), *(self.expr(a) for a in args)), fn, ty)
            case "BINARY_OPERATOR":
                op = BINOP.get(_kind(c, "clang_getCursorBinaryOperatorKind"), "?")
                node_kind = "assign" if op == "=" else "binop"
                return C(node_kind, line, tuple(self.expr(x) for x in kids), op, ty)
            case "COMPOUND_ASSIGNMENT_OPERATOR":
                op = BINOP.get(_kind(c, "clang_getCursorBinaryOperatorKind"), "?")
                return C("assign", line, tuple(self.expr(x) for x in kids), op, ty)
            case "UNARY_OPERATOR":
                op = UNOP.get(_kind(c, "clang_getCursorUnaryOperatorKind"), "?")
                return C("unop", line, tuple(self.expr(x) for x in kids), op, ty)
            case "CONDITIONAL_OPERATOR":
                return C("cond", line, tuple(self.expr(x) for x in kids), ty=ty)
            case "ARRAY_SUBSCRIPT_EXPR":
                return C("index", line, tuple(self.expr(x) for x in kids), ty=ty)
            case ("CSTYLE_CAST_EXPR" | "CXX_STATIC_CAST_EXPR" | "CXX_FUNCTIONAL_CAST_EXPR" |
                  "CXX_REINTERPRET_CAST_EXPR" | "CXX_CONST_CAST_EXPR"):
                inner = [x for x in kids if x.kind.is_expression()]
                return C("cast", line, (self.expr(inner[-1]),), ty=ty, name="explicit")
            case "INIT_LIST_EXPR":
                return C("init", line, tuple(self.expr(x) for x in kids), ty=ty)
            case "CXX_UNARY_EXPR":
                toks = [t.spelling for t in c.get_tokens()]
                if toks and toks[0] == "sizeof":
                    v = _evaluate_int(c)
                    if v is not None:
                        return C("int", line, ty=ty, value=v)
                self.refuse("unary expression", c, "use sizeof(float) or plain arithmetic")
            case "CXX_THIS_EXPR" | "LAMBDA_EXPR" | "CXX_NEW_EXPR" | "CXX_DELETE_EXPR" | "CXX_THROW_EXPR":
                pass
        self.refuse(f"expression `{k}`", c, "the block interpreter reads arithmetic, indexing, calls, casts and "
                    "launches")

    def call_like(self, c, kids, ty) -> C:
        line = c.location.line
        name = c.spelling
        if name in ("dim3",) or (c.kind.name == "CALL_EXPR" and ty == "dim3" and name in ("", "dim3")):
            return C("call", line, tuple(self.expr(x) for x in kids), "dim3", "dim3")
        if kids and kids[0].kind.name == "MEMBER_REF_EXPR" and c.kind.name == "CALL_EXPR":
            m = kids[0]
            base = [x for x in m.get_children() if x.kind.name not in ("TYPE_REF", "NAMESPACE_REF", "TEMPLATE_REF")]
            targs = [t.spelling for t in m.get_tokens()]
            tmpl = ""
            if "<" in targs:
                tmpl = "".join(targs[targs.index("<") + 1:targs.index(">")]) if ">" in targs else ""
            return C("method", line, (self.expr(base[0]), *(self.expr(x) for x in kids[1:])), m.spelling, ty, tmpl)
        if not kids and c.kind.name == "CALL_EXPR":  # a default/copy construction: `float4 r;`, `Tensor t`
            return C("call", line, (), name or "construct", ty)
        callee = kids[0]
        cname = _callee_name(callee)
        if cname and (cname == name or name.startswith("operator")):
            return C("call", line, tuple(self.expr(x) for x in kids[1:]), cname, ty)
        if c.kind.name == "CALL_EXPR" and name in ("WbSizes", "Tensor", "TensorOptions", "Device") or len(kids) == 1:
            return self.expr(kids[0]) if len(kids) == 1 else C("call", line, (), name, ty)
        return C("call", line, tuple(self.expr(x) for x in kids), name or "construct", ty)


def _evaluate_int(c) -> int | None:
    """clang's own constant evaluation of an integer expression (a macro literal, ``sizeof(float)``)."""
    import clang.cindex as ci

    lib = ci.conf.lib
    lib.clang_Cursor_Evaluate.argtypes, lib.clang_Cursor_Evaluate.restype = [ci.Cursor], ctypes.c_void_p
    lib.clang_EvalResult_getKind.argtypes, lib.clang_EvalResult_getKind.restype = [ctypes.c_void_p], ctypes.c_int
    lib.clang_EvalResult_getAsLongLong.argtypes = [ctypes.c_void_p]
    lib.clang_EvalResult_getAsLongLong.restype = ctypes.c_longlong
    lib.clang_EvalResult_dispose.argtypes, lib.clang_EvalResult_dispose.restype = [ctypes.c_void_p], None
    res = lib.clang_Cursor_Evaluate(c)
    if not res:
        return None
    try:
        return int(lib.clang_EvalResult_getAsLongLong(res)) if lib.clang_EvalResult_getKind(res) == 1 else None
    finally:
        lib.clang_EvalResult_dispose(res)


def _evaluate_float(c) -> float | None:
    import clang.cindex as ci

    lib = ci.conf.lib
    _evaluate_int(c)  # sets the argument and result types
    lib.clang_EvalResult_getAsDouble.argtypes = [ctypes.c_void_p]
    lib.clang_EvalResult_getAsDouble.restype = ctypes.c_double
    res = lib.clang_Cursor_Evaluate(c)
    if not res:
        return None
    try:
        return float(lib.clang_EvalResult_getAsDouble(res)) if lib.clang_EvalResult_getKind(res) == 2 else None
    finally:
        lib.clang_EvalResult_dispose(res)


def _callee_name(c) -> str:
    while c.kind.name in ("UNEXPOSED_EXPR", "PAREN_EXPR") and list(c.get_children()):
        c = next(c.get_children())
    if c.kind.name in ("DECL_REF_EXPR", "OVERLOADED_DECL_REF", "MEMBER_REF_EXPR"):
        return c.spelling
    return ""


__all__ = ["BLOCK_STUB", "BlockUnsupportedError", "C", "KINDS", "Program", "lower_source", "type_class"]
