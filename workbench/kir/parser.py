"""Parser: Inductor's pointwise ``@triton.jit`` kernel text -> :class:`~workbench.kir.nodes.Kernel`.

Stage: kir. Reads the kernel with Python's ``ast`` (no regular expressions over code) and builds typed IR
nodes through :class:`~workbench.kir.build.Builder`, so Triton's promotion rules apply exactly as
``triton/language/semantic.py`` states them. The supported language is what Inductor emits for pointwise
kernels: single assignments, ``tl.program_id``/``tl.num_programs``/``tl.arange``, integer ``+ - * // %``,
comparisons, ``& |``, ``.to(dtype)``, ``tl.full``, ``tl.broadcast_to``, ``tl.where``, ``tl.load``,
``tl.store``, and float payload (arithmetic, casts, ``tl_math``/``libdevice``/``triton_helpers`` calls) kept
opaque. Everything else is refused by name (:class:`~workbench.kir.errors.RefusedConstruct`, carrying the
kernel, the line, counted from the ``def`` line as 1, and the construct).

Split by construct: this module holds the driver, parameters, statements and expressions;
:mod:`workbench.kir.calls` the calls (``tl.*``, memory, casts, payload), as a mixin.

Limits: one ``def`` per kernel, no helper calls, pointer arithmetic only as ``ptr + offset`` directly inside
``tl.load``/``tl.store``; lanes of 1-D grids and of ``Grid2DWithYZOverflow`` (x/y program ids).

Over ~450 lines on purpose: the statement and expression rules are one recursive descent over one ``ast``
(``_statement`` -> ``_expr`` -> ``_name``), each case a construct of Triton's language with its refusal;
splitting the ``match`` across files would separate a construct from the refusal of its neighbours. The
rules that stand alone are already mixins (signature, calls, reduction, scan, layout, indirect), and the
module around the kernel is checked in :mod:`workbench.kir.module`.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Mapping
from typing import Any

from workbench.errors import VersionMismatchError
from workbench.kir import indirect, layout
from workbench.kir.build import Builder
from workbench.kir.calls import (  # noqa: F401 - re-exported: the refusal vocabulary
    ASSERTS,
    ATOMICS,
    BLOCK_AXES,
    IGNORED_MEMORY_KEYWORDS,
    PAYLOAD_MODULES,
    PAYLOAD_TL,
    REDUCTION_BLOCKS,
    REDUCTIONS,
    CallRules,
    _Builtin,
    _Function,
    _Method,
    _Module,
    _Pointer,
    _Shape,
    _float_of,
    _is_float,
)
from workbench.kir.errors import KernelSourceError, RefusedConstruct
from workbench.kir.module import check_module
from workbench.kir.nodes import Binding, Kernel, Node, Param, type_sources, walk
from workbench.kir.ops import Op
from workbench.kir.reduction import ReductionRules, Row
from workbench.kir.scan import ScanRules, helper_defs
from workbench.kir.signature import SignatureRules
from workbench.kir.types import TL_DTYPES, FloatType

# The versions the IR was validated against (cross-checked against Triton's interpreter).
TORCH_SERIES = "2.13"
TRITON_SERIES = "3.7"

_BINOPS = {
    ast.Add: Op.ADD,
    ast.Sub: Op.SUB,
    ast.Mult: Op.MUL,
    ast.FloorDiv: Op.FLOORDIV,
    ast.Mod: Op.MOD,
    ast.BitAnd: Op.AND,
    ast.BitOr: Op.OR,
}
_CMPOPS = {ast.Lt: Op.LT, ast.LtE: Op.LE, ast.Gt: Op.GT, ast.GtE: Op.GE, ast.Eq: Op.EQ, ast.NotEq: Op.NE}
_OPERATOR_NAMES = {
    ast.Pow: "**",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.BitXor: "^",
    ast.MatMult: "@",
    ast.Invert: "~",
    ast.Not: "not",
}



def parse(
    kernel: Any,
    *,
    signature: Mapping[str, str] | None = None,
    name: str | None = None,
    grid_type: str | None = None,
    exprs: Mapping[str, str] | None = None,
    check_versions: bool = True,
) -> Kernel:
    """Parse a kernel into IR.

    ``kernel`` is a :class:`~workbench.capture.CapturedKernel` (its ``jit_source``, signature, grid type and
    size expressions are used) or kernel text (a module or a bare ``def``). For text, ``signature`` maps
    parameters to Triton signature types (``'*bf16'``, ``'i64'``, ``'constexpr'``); without it, string
    annotations on the parameters (``ks0: 'i64'``, as :func:`~workbench.kir.renderer` writes them) are used;
    ``exprs`` gives size/numel parameters' expressions in shape symbols (else read from the docstring).

    Raises :class:`RefusedConstruct` for constructs outside the IR, :class:`KernelSourceError` for text that
    is not a readable kernel, :class:`~workbench.errors.VersionMismatchError` for records captured under
    another torch/triton series (pass ``check_versions=False`` to try anyway).
    """
    exprs = dict(exprs or {})
    program = ""
    helpers = ""
    if hasattr(kernel, "jit_source") and hasattr(kernel, "signature"):
        ck = kernel
        if check_versions:
            _check_versions(ck)
        try:
            text = ck.jit_source
        except Exception as exc:  # InputError from capture.record: no def of that name
            raise KernelSourceError(getattr(ck, "name", "<kernel>"), None, str(exc)) from None
        signature = dict(ck.signature) if signature is None else signature
        name = ck.name
        grid_type = ck.grid_type if grid_type is None else grid_type
        program = ck.program
        if hasattr(ck, "helper_sources"):
            try:
                helpers = "\n".join(t for _, t in ck.helper_sources)
            except Exception as exc:  # InputError from capture.record: an ambiguous helper
                raise KernelSourceError(getattr(ck, "name", "<kernel>"), None, str(exc)) from None
        exprs = {a.name: a.expr for a in ck.size_args}
        exprs.update({n.name: n.expr for n in ck.numels})
        # the module is the unit: nothing beside Inductor's preamble may change what the kernel's text means
        check_module(ck.source, ck.name, signature, grid_type=ck.grid_type, exprs=exprs)
    elif isinstance(kernel, str):
        text = kernel
        check_module(text, name or _def_name(text), signature, record=False)
    else:
        raise KernelSourceError(
            "<kernel>", None, f"cannot parse a {type(kernel).__name__}",
            "pass a CapturedKernel (workbench.capture.load) or the kernel's text",
        )
    return _Parser(text, signature, name, grid_type, exprs, program, helpers).run()


def _def_name(text: str) -> str:
    """The name of the first ``def`` in ``text`` (for messages about a module given as text)."""
    import re as _re

    m = _re.search(r"^def\s+(\w+)", text, _re.M)
    return m.group(1) if m else "<kernel>"


def _check_versions(ck: Any) -> None:
    tv, trv = str(getattr(ck, "torch_version", "")), str(getattr(ck, "triton_version", ""))
    if not tv.startswith(TORCH_SERIES) or not trv.startswith(TRITON_SERIES):
        raise VersionMismatchError(
            f"{ck.name}: captured under torch {tv or '?'} / triton {trv or '?'}, but the kernel IR models "
            f"Inductor's output for torch {TORCH_SERIES}.x / triton {TRITON_SERIES}.x; re-capture it with the "
            "pinned versions, or parse with check_versions=False and review the result"
        )


class _Parser(SignatureRules, CallRules, ReductionRules, ScanRules):
    def __init__(self, text: str, signature, name, grid_type, exprs, program, helpers: str = ""):
        self.text = text
        self.signature = dict(signature) if signature is not None else None
        self.want_name = name
        self.grid_type = grid_type
        self.exprs = exprs
        self.program = program
        self.helper_text = helpers  # a record's other @triton.jit functions (kir/scan.py)
        self.helpers: dict[str, ast.FunctionDef] = {}
        self.kname = name or "<kernel>"
        self.b = Builder(self.kname)
        self.env: dict[str, Node] = {}
        self.assigned: dict[str, int] = {}
        self.used: dict[str, int] = {}
        self.params: dict[str, Param] = {}
        self.bindings: list[Binding] = []
        self.loads: list[Node] = []
        self.load_lines: list[int] = []
        self.stores: list[Node] = []
        self.store_lines: list[int] = []
        self.def_line = 1
        self.placing: list[ast.expr] = []  # subscripted expressions being read (kir/layout.py)
        self.placed: dict[str, str] = {}  # 1-D kernels: the placement each block was first given
        self._reduction_init()

    # -- errors -------------------------------------------------------------------------------------------
    def refuse(self, construct: str, detail: str = "", fix: str = "") -> RefusedConstruct:
        return RefusedConstruct(self.kname, self.b.line, construct, detail, fix)

    def bad(self, problem: str, line: int | None = None) -> KernelSourceError:
        return KernelSourceError(self.kname, line if line is not None else self.b.line, problem)

    def _line(self, n: ast.AST) -> int:
        return getattr(n, "lineno", self.def_line) - self.def_line + 1

    # -- driver -------------------------------------------------------------------------------------------
    def run(self) -> Kernel:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # SyntaxWarning for odd literals: the text is data, not code
                tree = ast.parse(self.text)
        except SyntaxError as exc:
            raise KernelSourceError(self.kname, exc.lineno, f"not valid Python ({exc.msg})") from None
        except (ValueError, RecursionError, MemoryError) as exc:
            raise KernelSourceError(self.kname, None, f"not parseable ({type(exc).__name__})") from None
        fn = self._find_def(tree)
        self.helpers = helper_defs(tree, fn)
        if self.helper_text:
            try:
                self.helpers.update(helper_defs(ast.parse(self.helper_text), fn))
            except SyntaxError as exc:
                raise KernelSourceError(self.kname, None, f"a helper beside the kernel is not valid Python ({exc.msg})") from None
        self.def_line = fn.lineno
        self.kname = self.want_name or fn.name
        self.b.kernel = self.kname
        self._docstring_facts(fn)
        self._params(fn)
        for stmt in fn.body:
            self.b.line = self._line(stmt)
            self._statement(stmt)
        self.b.line = None
        if not self.stores:
            raise self.refuse("kernel without a store", "nothing is written")
        self._check_indices()
        grid, blocks = self._grid()
        reduction = self.reduction()
        return Kernel(
            name=self.kname,
            params=tuple(self.params.values()),
            loads=tuple(self.loads),
            stores=tuple(self.stores),
            grid=grid,
            blocks=blocks,
            bindings=tuple(self.bindings),
            load_lines=tuple(self.load_lines),
            store_lines=tuple(self.store_lines),
            program=self.program,
            source=self.text,
            reduction=reduction,
            carries=tuple(self.carries),
            load_loops=tuple(self.loop_of(x) for x in self.load_lines) if reduction else (),
            store_loops=tuple(self.loop_of(x) for x in self.store_lines) if reduction else (),
        )

    # -- statements ---------------------------------------------------------------------------------------
    def _statement(self, s: ast.stmt) -> None:
        match s:
            case ast.Assign(targets=[ast.Name(id=name)], value=value):
                if isinstance(value, ast.Constant) or (
                    isinstance(value, ast.UnaryOp) and isinstance(value.operand, ast.Constant)
                ):
                    # ``r0_numel = 64`` / persistent ``r0_offset = 0`` are reduction facts (ReductionRules);
                    # any other name, e.g. ``xnumel = 192``: the code generator makes it a strong scalar
                    # (Builder.assigned).
                    if self._static_literal(name, value):
                        return
                    n = self.b.assigned(self._value(self._expr(value)))
                else:
                    got = self._expr(value)
                    n = got if isinstance(got, Row) else self._value(got)  # a name may hold a 1-D row result
                self._assign(name, n)
            case ast.Assign(targets=[ast.Tuple(elts=elts)], value=value):
                self._multi_assign(elts, value)
            case ast.AnnAssign():
                self._ann_assign(s)
            case ast.Assign(targets=targets):
                raise self.refuse("multiple or destructuring assignment", ast.unparse(s)[:60])
            case ast.AugAssign(target=ast.Name(id=name)):
                raise self.refuse("name reassigned after use", f"{name} updated in place")
            case ast.Expr(value=ast.Constant(value=str())):
                pass  # docstring
            case ast.Expr(value=ast.Call() as call) if indirect.is_device_assert(call):
                indirect.device_assert(self, call)
            case ast.Expr(value=ast.Call() as call):
                result = self._call(call, statement=True)
                if result is not None:
                    raise self.refuse("expression statement", ast.unparse(s)[:60])
            case ast.Pass():
                pass
            case ast.For() | ast.While() | ast.AsyncFor():
                self._loop(s)
            case ast.If():
                raise self.refuse("control flow", "if statement")
            case ast.Assert():
                raise self.refuse("device assert", ast.unparse(s)[:60])
            case ast.Return():
                raise self.refuse("return statement")
            case ast.With() | ast.AsyncWith():
                raise self.refuse("with block")
            case ast.FunctionDef() | ast.AsyncFunctionDef() | ast.ClassDef() | ast.Lambda():
                raise self.refuse("nested definition")
            case _:
                raise self.refuse(f"{type(s).__name__} statement", ast.unparse(s)[:60])

    def _assign(self, name: str, n: Node | Row) -> None:
        held = self.env.get(name)
        if isinstance(held, Row) and held.node is n:
            # ``tmp4 = tmp4[:, None]``: the 1-D row result re-bound as the same value laid out [XBLOCK, 1]
            self.env[name] = n
            self.bindings.append(Binding(name, self.b.line or 0, n))
            return
        if isinstance(n, Row):
            self._assign_node(name, n.node)
            self.env[name] = n
            return
        self._assign_node(name, n)

    def _assign_node(self, name: str, n: Node) -> None:
        if name in self.params and (self.params[name].kind == "numel" or (
                self.params[name].kind == "constexpr" and re.fullmatch(r"[xy]numel", name))) \
                and name not in self.used and name not in self.assigned and n.op is Op.CONST and not n.attr[1]:
            # (a constexpr ``xnumel`` is what Inductor passes for a one-row kernel, ``xnumel = 1``)
            # ``ynumel = 6`` before any use: Inductor writes a static extent over its numel parameter; the body
            # reads the literal (a strong scalar, Builder.assigned), and so does evaluator.launch.
            self.assigned[name] = self.b.line or 0
            self.env[name] = n
            self.bindings.append(Binding(name, self.b.line or 0, n))
            return
        if name in self.params:
            # a second literal over a numel parameter included (``r0_numel = 1`` then ``r0_numel = 1024``):
            # the extent the analysis and the launch read is bound once (red team 2026-12-06)
            raise self.refuse("name reassigned after use", f"parameter {name} is reassigned")
        if self.env.get(name) is n:
            # ``tmp2 = tmp2[:, None]``: re-bound to the value it already holds (a reshape is the identity per
            # lane), so every reading of the name denotes the same node before and after
            self.bindings.append(Binding(name, self.b.line or 0, n))
            return
        if name in self.assigned and name in self.used:
            raise self.refuse(
                "name reassigned after use",
                f"{name} assigned on line {self.assigned[name]}, used on line {self.used[name]}, reassigned",
            )
        if name in ("tl", "triton", "tl_math", "libdevice", "triton_helpers", "math"):
            raise self.refuse("name reassigned after use", f"module name {name} is rebound")
        self.assigned[name] = self.b.line or 0
        self.used.pop(name, None)
        self.env[name] = n
        self.bindings.append(Binding(name, self.b.line or 0, n))

    # -- expressions --------------------------------------------------------------------------------------
    def _value(self, v: Any) -> Node:
        if isinstance(v, Node):
            return v
        if isinstance(v, Row):
            raise self.refuse("block layout", "a reduction's 1-D result used without [:, None] (Triton broadcasts it "
                              "along the r axis: element (x, r) would read row r's value)",
                              "subscript it with [:, None] as Inductor does, or use keep_dims=True")
        raise self.refuse("non-tensor value", f"{v!r} used as a value")

    def _expr(self, e: ast.expr) -> Any:
        match e:
            case ast.Name(id=name):
                return self._name(name)
            case ast.Constant(value=bool() | int() as v):
                return self.b.literal(v)
            case ast.Constant(value=float() as v):
                return self.b.fconst(v)
            case ast.Constant(value=v):
                raise self.refuse("constant", f"{v!r}")
            case ast.BinOp(left=l, op=op, right=r):
                if type(op) in _BINOPS:
                    return self.b.binary(_BINOPS[type(op)], self._value(self._expr(l)), self._value(self._expr(r)))
                if isinstance(op, ast.Div):
                    a, b = self._value(self._expr(l)), self._value(self._expr(r))
                    # semantic.truediv: integer operands are converted to fp32; the result is payload
                    return self.b.payload("truediv", FloatType("fp32") if not _is_float(a, b) else _float_of(a, b), (a, b))
                raise self.refuse(f"operator {_OPERATOR_NAMES.get(type(op), type(op).__name__)}")
            case ast.UnaryOp(op=ast.USub(), operand=x):
                return self.b.neg(self._value(self._expr(x)))
            case ast.UnaryOp(op=ast.UAdd(), operand=x):
                return self._value(self._expr(x))
            case ast.UnaryOp(op=ast.Invert(), operand=x):
                return self.b.invert(self._value(self._expr(x)))
            case ast.UnaryOp(op=op):
                raise self.refuse(f"operator {_OPERATOR_NAMES.get(type(op), type(op).__name__)}")
            case ast.Compare(left=l, ops=[op], comparators=[r]):
                return self.b.binary(_CMPOPS[type(op)], self._value(self._expr(l)), self._value(self._expr(r))) \
                    if type(op) in _CMPOPS else self._refuse_cmp(op)
            case ast.Compare():
                raise self.refuse("chained comparison")
            case ast.Call():
                return self._call(e)
            case ast.Subscript(value=v, slice=sl):
                return self._subscript(v, sl)
            case ast.Attribute(value=v, attr=attr):
                return self._attribute(v, attr)
            case ast.BoolOp():
                raise self.refuse("boolean operator and/or")
            case ast.IfExp(test=ast.Compare(left=ast.Attribute(value=x, attr="dtype"), ops=[ast.Is() | ast.IsNot() as op],
                                            comparators=[ast.Attribute(value=ast.Name(id="tl"), attr=dt)])):
                return self._expr(self._dtype_branch(e, x, op, dt))
            case ast.IfExp():
                raise self.refuse("conditional expression")
            case ast.List() | ast.Tuple():
                return [self._expr(x) for x in e.elts]
            case _:
                raise self.refuse(f"expression {type(e).__name__}", ast.unparse(e)[:60])

    def _dtype_branch(self, e: ast.IfExp, x: ast.expr, op: ast.cmpop, dt: str) -> ast.expr:
        """``A if (x).dtype is tl.<float dtype> else B`` (Inductor's integer remainder and floor division test
        the operand's dtype this way): Triton evaluates ``is`` in Python (``visit_Compare``: a constexpr), and a
        constexpr ``IfExp`` generates only the chosen branch (``visit_IfExp``), so only that branch is parsed.
        Decided only for an integer operand against a float dtype (no integer dtype object is a float one);
        anything else depends on dtype object identity, which the IR does not model, and is refused."""
        got = self._value(self._expr(x))
        want = TL_DTYPES.get(dt)
        if not isinstance(want, FloatType) or isinstance(got.type, FloatType) or getattr(got.type, "bits", None) is None:
            raise self.refuse("conditional expression", f"on a dtype test the IR does not decide: {ast.unparse(e.test)}")
        return e.orelse if isinstance(op, ast.Is) else e.body

    def _refuse_cmp(self, op: ast.cmpop):
        raise self.refuse(f"comparison {type(op).__name__}")

    def _name(self, name: str) -> Any:
        if name in self.env:
            self.used.setdefault(name, self.b.line or 0)
            return self.env[name]
        if name in self.params:
            p = self.params[name]
            self.used.setdefault(name, self.b.line or 0)
            if p.kind == "constexpr":
                return self.b.constexpr(name)
            if p.kind == "pointer":
                return _Pointer(name, p.type)  # type: ignore[arg-type]
            return self.b.arg(name, p.type)  # type: ignore[arg-type]
        if name in ("tl", "tl_math", "libdevice", "triton_helpers", "math", "triton"):
            return _Module(name)
        if name in ("float", "int", "min", "max", "abs", "range", "len"):
            return _Builtin(name)
        raise self.refuse("unknown name", name)

    def _attribute(self, v: ast.expr, attr: str) -> Any:
        base = self._expr(v)
        if isinstance(base, _Module):
            if base.name == "tl" and attr in TL_DTYPES:
                return TL_DTYPES[attr]
            if base.name == "tl" and re.fullmatch(r"u?int\d+|float\w*|bfloat16|pointer_type", attr):
                raise self.refuse("unsupported dtype", f"tl.{attr}")
            if base.name == "tl" and attr == "math":
                return _Module("math")
            return _Function(base.name, attr)
        if isinstance(base, Node):
            if attr == "dtype":
                # The type is read at parse time; narrowing re-derives types, so a type that depends on a size
                # argument (the argument itself or anything computed from it) differs between W and N.
                sizes = type_sources(base, lambda name: self.params[name].kind == "size")
                if sizes:
                    raise self.refuse(".dtype of a value narrowing retypes", f"{ast.unparse(v)}.dtype depends on "
                                      f"{', '.join(sizes)}, whose type is int64 in the kernel and int32 narrowed",
                                      "name the type (tl.int64 / tl.int32) instead of reading .dtype")
                return base.type
            if attr == "shape":
                return _Shape()
            if attr in ("T",):
                raise self.refuse("attribute outside the supported set", f".{attr}")
            return _Method(base, attr)
        if isinstance(base, _Pointer):
            if attr in ("dtype",):
                return base.type
            raise self.refuse("attribute outside the supported set", f"pointer .{attr}")
        raise self.refuse("attribute outside the supported set", f".{attr}")

    def _subscript(self, v: ast.expr, sl: ast.expr) -> Node | Row:
        self.placing.append(v)
        try:
            got = self._expr(v)
        finally:
            self.placing.pop()
        parts = sl.elts if isinstance(sl, ast.Tuple) else [sl]
        for p in parts:
            is_colon = isinstance(p, ast.Slice) and p.lower is None and p.upper is None and p.step is None
            is_none = isinstance(p, ast.Constant) and p.value is None
            if not (is_colon or is_none):
                raise self.refuse("indexing a tensor", ast.unparse(sl), "only [:], [:, None], [None, :] reshape")
        if len(parts) > 2:
            raise self.refuse("3-D block", ast.unparse(sl))
        kind = layout.placement(parts)
        if kind in (layout.COL, layout.ROW) and not (isinstance(got, Row) or layout.one_dimensional(v)):
            # ``[:, None]`` / ``[None, :]`` add an axis: on a value that already has two (``x0[:, None]`` with
            # ``x0 = xindex`` laid out [XBLOCK, 1]) Triton builds a 3-D block whose lanes the IR does not model
            raise self.refuse("block layout", f"{ast.unparse(v)[:40]}[{ast.unparse(sl)}]: a new axis on a value that "
                              "may already have two (a 3-D block)", "subscript only a tl.arange, a 1-D tl.full or a "
                              "reduction's result, as Inductor does")
        if isinstance(got, Row):
            # a reduction's 1-D result: [:, None] lays it along x (each row its own value); [:] keeps it 1-D
            if kind == layout.FLAT:
                return got
            if kind != layout.COL:
                raise self.refuse("block layout", f"{ast.unparse(v)[:40]}[{ast.unparse(sl)}]: a reduction's 1-D "
                                  "result laid along the r axis", "subscript it with [:, None]")
            got = got.node
        base = self._value(got)
        layout.place(self, base, kind, ast.unparse(v)[:40] + f"[{ast.unparse(sl)}]")
        return base  # shape only: the identity at each lane (each arange on its own axis: kir/layout.py)

    # -- calls --------------------------------------------------------------------------------------------
    def _check_indices(self) -> None:
        for kind, nodes, lines in (("load", self.loads, self.load_lines), ("store", self.stores, self.store_lines)):
            for n, line in zip(nodes, lines):
                self.b.line = line
                offset, mask = n.args[0], n.args[2] if kind == "store" else n.args[1]
                for what, x in (("offset", offset), ("mask", mask)):
                    if x.payload:
                        raise self._payload_refusal(kind, what, x)

    def _payload_refusal(self, kind: str, what: str, x: Node) -> RefusedConstruct:
        ops = list(walk(x))
        if any(o.op is Op.LOAD for o in ops):
            return self.refuse("indirect indexing", f"the {kind} {what} depends on a value loaded from memory "
                               "with no tl.device_assert bounding it before this use",
                               "bounds of a loaded index come only from a dominating device_assert")
        carried = [o.attr[0] for o in ops if o.op is Op.ACC]
        if carried:
            return self.refuse("loop-carried index", f"the {kind} {what} depends on {carried[0]}, a name the loop "
                               "carries from step to step (its value is opaque to the IR)",
                               "an index recomputed from r0_offset in each step is modelled; one carried is not")
        lib = [o.attr for o in ops if o.op is Op.PAYLOAD and "." in str(o.attr)]
        if lib:
            return self.refuse("libdevice outside payload position", f"{lib[0]} in a {kind} {what}")
        return self.refuse("float arithmetic in an index", f"the {kind} {what} is computed in floating point")
