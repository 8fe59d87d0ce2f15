"""Variant P (partial narrowing): only the int64 ``//`` and ``%`` sites computed in int32.

Stage: rule (variants). Input: an emitted kernel (a :class:`~workbench.capture.record.CapturedKernel`, or
its parsed :class:`workbench.kir.Kernel`). Output: the kernel's text with every ``x // d`` and ``x % d``
whose type is int64 (Triton's promotion, as ``workbench.kir`` derives it) rewritten as
``(x.to(tl.int32) // d.to(tl.int32)).to(tl.int64)``; every other operation, the signature and the size
arguments (``ks*`` int64) are unchanged. Sites already int32 are left alone: casting their result to int64
would change the type of everything downstream.

Semantics: Triton's integer ``//`` and ``%`` are ``arith.divsi``/``remsi`` (truncating, C semantics) in
both widths, so on operands that fit int32 with a divisor >= 1 the int32 site computes W's value exactly
(whatever the signs; ``-2**31 // -1`` needs a divisor of -1). A literal operand is left as a literal (it
takes the int32 operand's type); one outside int32 makes the site unnarrowable (:class:`VariantError`).
When P equals W is what ``workbench check --mode partial`` certifies; this module proves nothing.

Public: :func:`partial_variant` (record -> Triton module text; kir kernel -> ``kir.render`` text),
:func:`partial_sites` (the int64 sites by source position), :func:`partial_body` (the rewritten function
body, for :mod:`workbench.rule.variants`' ``P``), :func:`site_keys` (the sites as the checker's certificate
names them), :func:`rewrite_module` (P applied to the module text Inductor is about to define: what the
rule does when a partial certificate binds).
"""

from __future__ import annotations

import ast
import warnings
from dataclasses import replace
from typing import Any

from workbench import kir
from workbench.errors import UnsupportedError
from workbench.kir.build import IMPLICIT
from workbench.kir.parser import _Parser

__all__ = ["partial_body", "partial_kernel", "partial_sites", "partial_variant", "rewrite_module", "site_keys"]

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
Position = tuple[int, int, int, int]  # (lineno, col_offset, end_lineno, end_col_offset) of the BinOp


class PartialError(UnsupportedError):
    """A site P cannot rewrite (a literal operand outside int32)."""


def _pos(e: ast.AST) -> Position:
    return (e.lineno, e.col_offset, e.end_lineno or 0, e.end_col_offset or 0)


class _SiteParser(_Parser):
    """kir's parser, also recording the type kir derives for every ``//``/``%`` (by source position)."""

    def __init__(self, *args: Any):
        super().__init__(*args)
        self.sites: dict[Position, kir.Type] = {}

    def _expr(self, e: ast.expr) -> Any:
        got = super()._expr(e)
        if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.FloorDiv, ast.Mod)) and isinstance(got, kir.Node):
            self.sites[_pos(e)] = got.type
        return got


def _text(record: Any) -> str:
    return record.jit_source


def partial_sites(record: Any) -> dict[Position, kir.Type]:
    """Every ``//`` and ``%`` of ``record``'s kernel text with the type kir derives for it."""
    exprs = {a.name: a.expr for a in record.size_args}
    exprs.update({n.name: n.expr for n in record.numels})
    helpers = "\n".join(t for _, t in getattr(record, "helper_sources", ()))  # a scan's combine function
    p = _SiteParser(_text(record), dict(record.signature), record.name, record.grid_type, exprs, record.program,
                    helpers)
    p.run()
    return p.sites


class _Rewrite(ast.NodeTransformer):
    def __init__(self, sites: dict[Position, kir.Type], kname: str):
        self.sites, self.kname, self.count = sites, kname, 0

    def visit_BinOp(self, e: ast.BinOp) -> ast.expr:
        pos = _pos(e)
        self.generic_visit(e)
        if not isinstance(e.op, (ast.FloorDiv, ast.Mod)) or self.sites.get(pos) != kir.i64:
            return e
        self.count += 1
        site = ast.BinOp(self._int32(e.left), e.op, self._int32(e.right))
        return _to(site, "int64")

    def _int32(self, x: ast.expr) -> ast.expr:
        if isinstance(x, ast.Constant) and isinstance(x.value, int) and not isinstance(x.value, bool):
            if not INT32_MIN <= x.value <= INT32_MAX:
                raise PartialError(f"kernel {self.kname}: literal {x.value} in an int64 // or % does not fit "
                                   "int32; variant P cannot compute this site in int32")
            return x
        return _to(x, "int32")


def _to(x: ast.expr, dtype: str) -> ast.expr:
    tl = ast.Attribute(ast.Name("tl", ast.Load()), dtype, ast.Load())
    return ast.Call(ast.Attribute(x, "to", ast.Load()), [tl], [])


def _rewritten(record: Any) -> tuple[ast.Module, ast.FunctionDef, int]:
    sites = partial_sites(record)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tree = ast.parse(_text(record))
    fn = next(s for s in ast.walk(tree) if isinstance(s, ast.FunctionDef) and s.name == record.name)
    rw = _Rewrite(sites, record.name)
    fn.body = [rw.visit(s) for s in fn.body]
    ast.fix_missing_locations(tree)
    return tree, fn, rw.count


def partial_body(record: Any) -> str:
    """The kernel function's body with P's rewrites, one statement per line, indented four spaces (the
    docstring, if any, dropped)."""
    _, fn, _ = _rewritten(record)
    body = fn.body
    if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant):
        body = body[1:]
    return "".join("    " + line + "\n" for s in body for line in ast.unparse(s).splitlines())


def partial_kernel(k: kir.Kernel) -> kir.Kernel:
    """The IR of P: every int64 ``//``/``%`` node of ``k`` computed on int32 casts, cast back to int64."""
    memo: dict[int, kir.Node] = {}

    def go(n: kir.Node) -> kir.Node:
        if id(n) in memo:
            return memo[id(n)]
        args = tuple(go(a) for a in n.args)
        if n.op in (kir.Op.FLOORDIV, kir.Op.MOD) and n.type == kir.i64:
            x, d = (_narrow(a, k.name) for a in args)
            out = kir.node(kir.Op.CAST, kir.i64, (kir.node(n.op, kir.i32, (x, d)),), None)
        else:
            out = kir.node(n.op, n.type, args, n.attr)
        memo[id(n)] = out
        return out

    return replace(k, loads=tuple(go(x) for x in k.loads), stores=tuple(go(x) for x in k.stores), bindings=(),
                   carries=tuple(replace(c, init=go(c.init), update=go(c.update)) for c in k.carries))


def _narrow(a: kir.Node, kname: str) -> kir.Node:
    if a.op is kir.Op.CAST and a.attr == IMPLICIT and a.args[0].type == kir.i32:
        return a.args[0]  # an int32 operand promoted only for this site
    if a.op is kir.Op.CONST and a.attr[1]:  # a weak literal: it takes the int32 operand's type
        if not INT32_MIN <= a.attr[0] <= INT32_MAX:
            raise PartialError(f"kernel {kname}: literal {a.attr[0]} in an int64 // or % does not fit int32")
        return kir.node(kir.Op.CONST, kir.i32, (), a.attr)
    return kir.node(kir.Op.CAST, kir.i32, (a,), None)


def partial_variant(record_or_kernel: Any) -> str:
    """P's text. A captured kernel record gives its Triton module (``jit_source``) with every int64
    ``//``/``%`` rewritten (compilable as Inductor's kernel is; parses back through ``kir.parse`` with the
    record's signature); a :class:`kir.Kernel` gives ``kir.render`` of :func:`partial_kernel` (parses back
    with no other input). Raises :class:`PartialError` for a site with a literal outside int32."""
    if isinstance(record_or_kernel, kir.Kernel):
        return kir.render(partial_kernel(record_or_kernel))
    tree, _, _ = _rewritten(record_or_kernel)
    return ast.unparse(tree) + "\n"


def site_keys(k: kir.Kernel) -> tuple[str, ...]:
    """P's sites as a partial certificate's ``narrowed`` names them: ``n<i>``, the walk-order index of each
    int64 ``//`` or ``%`` node (the checker's node keys; ``tests/rule`` holds the two definitions equal)."""
    nodes = list(kir.walk(*k.loads, *k.stores))
    return tuple(f"n{i}" for i, n in enumerate(nodes) if n.op in (kir.Op.FLOORDIV, kir.Op.MOD) and n.type == kir.i64)


def rewrite_module(module: str, record: Any) -> str:
    """``module`` (the kernel module text Inductor is about to define, its kernel name still Inductor's
    placeholder, which is not an identifier) with the kernel function's body replaced by P's
    (:func:`partial_body` of ``record``, the live record made from the same text with the placeholder named);
    decorators, signature and everything outside the body are kept verbatim. The body's lines are found in
    ``record.source``, which has the module's lines one for one."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tree = ast.parse(record.source)
    fns = [s for s in tree.body if isinstance(s, ast.FunctionDef) and s.name == record.name]
    lines = module.splitlines(keepends=True)
    if len(fns) != 1 or len(lines) != len(record.source.splitlines()):
        raise PartialError(f"kernel {record.name}: the module text does not match its live record line for line; "
                           "variant P rewrites only a kernel it has parsed")
    fn = fns[0]
    first = fn.body[0]
    if isinstance(first, ast.Expr) and isinstance(getattr(first, "value", None), ast.Constant) and len(fn.body) > 1:
        first = fn.body[1]  # a docstring stays; P's body replaces the statements after it
    start, end = first.lineno - 1, fn.end_lineno or len(lines)
    return "".join(lines[:start]) + partial_body(record) + "".join(lines[end:])
