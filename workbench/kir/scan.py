"""Scans and row selections in a kernel's text: ``tl.associative_scan`` with a combine helper, and
``triton_helpers.select_one``.

Stage: kir. A mixin of the parser (:mod:`workbench.kir.parser`). What is read:

* ``a, b = tl.associative_scan((x, y), 1, _triton_helper_fn_add0)`` (a tuple of operands or one tensor,
  axis 1 or -1 of the ``[XBLOCK, R0_BLOCK]`` tile, ``reverse=False``): one :data:`Op.SCAN` node per output,
  output ``k`` of operand ``k``'s type (Triton builds the combine region with the operands' element types and
  its verifier requires the results to have them too). The value at r lane ``j`` combines the operands at r
  lanes ``0..j`` of the row in this step, masked-off lanes included;
* the combine helper: a module-level ``@triton.jit`` function beside the kernel (``CapturedKernel.
  helper_sources``) with ``2 * n`` parameters. Its body is read with ``ast`` and must be *pure payload*:
  single assignments and one ``return`` of ``n`` values, built from its parameters, numeric literals,
  arithmetic, comparisons, bitwise operators, ``tl.where``, ``.to(dtype)`` and the payload math functions of
  :mod:`workbench.kir.calls`. No memory, no program ids or ``tl.arange``, no other names (a helper sees no
  kernel argument, so no size argument either), no calls to other helpers. The canonical text of the body
  (``ast.unparse``) is the node's attribute: two scans combine alike exactly when the texts are equal;
* ``triton_helpers.select_one(x, mask, dim=-1, keep_dims=True)``: ``tl.sum(bitcast(x) * mask, dim)``
  bitcast back (``torch/_inductor/runtime/triton_helpers.py``), a reduction over the row of both operands,
  read as :data:`Op.REDUCE` with attr ``("triton_helpers.select_one", 0)``; without ``keep_dims=True`` (the
  helper's default is ``False``) its result is 1-D, a :class:`~workbench.kir.reduction.Row`.

Refused by name: a combine helper that is missing, reads memory or anything but its parameters, has the
wrong arity or returns the wrong number of values (``scan combine function``); a reverse scan, a scan over
another axis (``scan``); ``tl.cumsum``/``tl.cumprod`` and other scan forms Inductor does not emit.
"""

from __future__ import annotations

import ast

from workbench.kir.nodes import Node, node
from workbench.kir.ops import Op

# Calls a combine helper may make: payload math only (values in, values out).
_COMBINE_CALLS = frozenset(
    {"tl.where", "tl.maximum", "tl.minimum", "tl.abs", "tl.exp", "tl.exp2", "tl.log", "tl.log2", "tl.sqrt",
     "tl.fma", "triton_helpers.maximum", "triton_helpers.minimum", "tl_math.abs", "tl_math.exp", "tl_math.log",
     "tl_math.log1p", "libdevice.exp", "libdevice.log", "libdevice.log1p", "libdevice.isnan", "libdevice.abs"}
)
_COMBINE_DTYPES = frozenset({"tl.int1", "tl.int8", "tl.int16", "tl.int32", "tl.int64", "tl.float16",
                             "tl.bfloat16", "tl.float32", "tl.float64"})
_EXPRESSIONS = (ast.BinOp, ast.UnaryOp, ast.Compare, ast.Call, ast.Name, ast.Constant, ast.Attribute,
                ast.operator, ast.unaryop, ast.cmpop, ast.Load, ast.Tuple, ast.keyword)


class ScanRules:
    """Parser hooks for scans and ``select_one`` (see the module docstring)."""

    def _combine(self, name: str, operands: int) -> str:
        """The canonical text of combine helper ``name`` after checking it is pure payload."""
        fn = self.helpers.get(name)
        if fn is None:
            raise self.refuse("scan combine function", f"{name} is not a @triton.jit helper of the kernel's module",
                              "capture the kernel with its module (CapturedKernel.helper_sources)")
        a = fn.args
        params = [p.arg for p in a.args]
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs or a.defaults or len(params) != 2 * operands:
            raise self.refuse("scan combine function", f"{name} takes {len(params)} parameters for {operands} "
                              f"operand(s); a combine function takes 2 * {operands}")
        if fn.decorator_list and not all(ast.unparse(d) in ("triton.jit", "jit") for d in fn.decorator_list):
            raise self.refuse("scan combine function", f"{name}: decorators {[ast.unparse(d) for d in fn.decorator_list]}")
        local = set(params)
        body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                                           and isinstance(s.value.value, str))]
        if not body or not isinstance(body[-1], ast.Return) or body[-1].value is None:
            raise self.refuse("scan combine function", f"{name} does not end in a return of its values")
        for s in body[:-1]:
            if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)):
                raise self.refuse("scan combine function", f"{name}: statement {ast.unparse(s)[:50]!r} "
                                  "(only single assignments and a return)")
            self._pure(name, s.value, local)
            local.add(s.targets[0].id)
        ret = body[-1].value
        values = ret.elts if isinstance(ret, ast.Tuple) else [ret]
        if len(values) != operands:
            raise self.refuse("scan combine function", f"{name} returns {len(values)} value(s) for {operands} operand(s)")
        self._pure(name, ret, local)
        return f"({', '.join(params)}): " + "; ".join(ast.unparse(s) for s in body)

    def _pure(self, name: str, e: ast.expr, local: set[str]) -> None:
        for x in ast.walk(e):
            if not isinstance(x, _EXPRESSIONS):
                raise self.refuse("scan combine function", f"{name}: {type(x).__name__} {ast.unparse(x)[:40]!r}")
            if isinstance(x, ast.Constant) and not isinstance(x.value, (bool, int, float)):
                raise self.refuse("scan combine function", f"{name}: constant {x.value!r}")
            if isinstance(x, ast.Call):
                f = ast.unparse(x.func)
                is_to = isinstance(x.func, ast.Attribute) and x.func.attr == "to" and len(x.args) == 1 \
                    and ast.unparse(x.args[0]) in _COMBINE_DTYPES and not x.keywords
                if f not in _COMBINE_CALLS and not is_to:
                    raise self.refuse("scan combine function", f"{name} calls {f} (not pure payload)",
                                      "a combine function may only compute on its parameters")
                if x.keywords and not is_to:
                    raise self.refuse("scan combine function", f"{name}: keyword arguments in {f}")
            if isinstance(x, ast.Name) and x.id not in local and x.id not in ("tl", "triton_helpers", "tl_math", "libdevice"):
                raise self.refuse("scan combine function", f"{name} reads {x.id}, which is not one of its "
                                  "parameters or locals")
            if isinstance(x, ast.Attribute) and isinstance(x.value, ast.Name) and x.value.id in local and x.attr != "to":
                raise self.refuse("scan combine function", f"{name}: attribute .{x.attr} of a value")

    def _scan(self, call: ast.Call) -> list[Node]:
        """``tl.associative_scan(operands, axis, combine_fn)``: one SCAN node per output."""
        if not self.is_reduction:
            raise self.refuse("scan", "tl.associative_scan outside a reduction kernel")
        if len(call.args) != 3 or any(isinstance(a, ast.Starred) for a in call.args):
            raise self.refuse("scan", f"tl.associative_scan with {len(call.args)} positional arguments")
        for k in call.keywords:
            if not (k.arg == "reverse" and isinstance(k.value, ast.Constant) and k.value.value is False):
                raise self.refuse("scan", f"tl.associative_scan({k.arg}=...)", "only forward scans are modelled")
        ops_e, axis_e, fn_e = call.args
        axis = self._int_literal(axis_e, "scan axis")
        if axis not in (1, -1):
            raise self.refuse("scan", f"tl.associative_scan over axis {axis}", "only scans over r (axis 1)")
        if not isinstance(fn_e, ast.Name):
            raise self.refuse("scan combine function", ast.unparse(fn_e)[:40])
        elts = ops_e.elts if isinstance(ops_e, (ast.Tuple, ast.List)) else [ops_e]
        args = tuple(self._value(self._expr(x)) for x in elts)
        text = self._combine(fn_e.id, len(args))
        return [node(Op.SCAN, a.type, args, (fn_e.id, text, k)) for k, a in enumerate(args)]

    def _select_one(self, call: ast.Call):
        """``triton_helpers.select_one(x, mask, dim=-1, keep_dims=True)``: a row reduction (module docstring)."""
        if not self.is_reduction:
            raise self.refuse("reduction", "triton_helpers.select_one outside a reduction kernel")
        a = self._args(call, ("x", "mask", "dim", "keep_dims"), 3)
        dim = self._int_literal(a["dim"], "select_one dim")
        if dim not in (1, -1):
            raise self.refuse("reduction", f"select_one over dimension {dim}", "only reductions over r (dimension 1)")
        if "keep_dims" in a and not (isinstance(a["keep_dims"], ast.Constant) and isinstance(a["keep_dims"].value, bool)):
            raise self.refuse("reduction", f"select_one keep_dims={ast.unparse(a['keep_dims'])[:30]}")
        x, mask = (self._value(self._expr(a[k])) for k in ("x", "mask"))
        if mask.type != self.b.true().type:
            raise self.refuse("reduction", f"select_one with a mask of type {mask.type}")
        n = node(Op.REDUCE, x.type, (x, mask), ("triton_helpers.select_one", 0))
        keep = a.get("keep_dims")
        if isinstance(keep, ast.Constant) and keep.value is True:
            return n  # [XBLOCK, 1]: the row's value broadcast along r
        from workbench.kir.reduction import Row

        return Row(n)  # keep_dims=False (the default): 1-D, usable only through [:, None]


def helper_defs(tree: ast.Module, kernel: ast.FunctionDef) -> dict[str, ast.FunctionDef]:
    """The module-level functions beside ``kernel`` (candidate combine helpers), by name."""
    return {d.name: d for d in tree.body if isinstance(d, ast.FunctionDef) and d is not kernel}


def combine_names(tree: ast.Module) -> set[str]:
    """Names passed as the combine function of a ``tl.associative_scan`` anywhere in the module."""
    out = set()
    for c in ast.walk(tree):
        if isinstance(c, ast.Call) and ast.unparse(c.func) == "tl.associative_scan" and len(c.args) >= 3 \
                and isinstance(c.args[2], ast.Name):
            out.add(c.args[2].id)
    return out


__all__ = ["ScanRules", "combine_names", "helper_defs"]
