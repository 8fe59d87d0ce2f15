"""Kernel text for the oracle: find the one ``@triton.jit`` function, read its declared signature, and write
the narrowed text.

Stage: oracle. Everything here works on the kernel module's *text* with Python's ``ast`` (parsed, never
executed): the jit function is located by its decorator, the signature is read from the ``triton_meta``
dictionary of Inductor's heuristics decorator (string literals only) or from the parameters' annotations,
and the narrowed text is the same module with the narrowed size arguments' declared type rewritten from
``'i64'`` to ``'i32'`` at the exact character positions of those literals — nothing else in the text moves.
The interpreter later reads argument types from this text (:func:`signature`), so the narrowed run really
runs the narrowed text.

The interpreter executes the jit function's body as Python, so :func:`read` first checks that the body is
Triton language and nothing else (:func:`~workbench.oracle.body.check_body`): records are data, and a body
reaching ``__import__``, ``open`` or a dunder attribute is refused by construct and line before any process
runs it. Only the kernel function and the module's helper jit functions (``_triton_helper_fn_*``, the combine
functions of Inductor's scans, checked the same way) are ever executed — the module's other statements and
its decorators are dropped.

Limits: a module with no or several kernel jit functions, a jit function whose name is not the record's, or a
signature given twice with different types is an input error (:class:`OracleInputError`); a body outside the
allowed subset is :class:`NotTritonLanguage` (see :mod:`workbench.oracle.body`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from workbench.oracle.body import HELPER_PREFIX, check_body
from workbench.oracle.errors import NotTritonLanguage, OracleInputError

NARROW_FROM = "i64"
NARROW_TO = "i32"

__all__ = ["KernelText", "NotTritonLanguage", "OracleInputError", "check_body", "narrow", "read"]


@dataclass(frozen=True, slots=True)
class KernelText:
    """A kernel module's text and what the oracle reads from it."""

    name: str
    module: str  # the whole module text (as captured, or narrowed)
    function: str  # ``def name(...)`` and its body, decorators dropped
    params: tuple[str, ...]  # parameter names in order
    signature: tuple[tuple[str, str], ...]  # declared type per non-constexpr parameter ("i64", "*fp32", ...)
    constexprs: tuple[str, ...]
    helpers: tuple[str, ...] = ()  # the module's helper jit functions (``def _triton_helper_fn_...``), as text


def _is_jit(dec: ast.expr) -> bool:
    target = dec.func if isinstance(dec, ast.Call) else dec
    return (isinstance(target, ast.Attribute) and target.attr == "jit" and isinstance(target.value, ast.Name)
            and target.value.id == "triton") or (isinstance(target, ast.Name) and target.id == "jit")


def _module_ast(text: str, where: str) -> ast.Module:
    try:
        return ast.parse(text)
    except SyntaxError as exc:
        raise OracleInputError(f"{where}: the kernel text is not Python (line {exc.lineno}: {exc.msg}); "
                               "re-capture the kernel") from None


def _jitted(tree: ast.Module, name: str, where: str) -> tuple[ast.FunctionDef, list[ast.FunctionDef]]:
    """The kernel (the one jit function named ``name``) and the module's helper jit functions (named
    ``_triton_helper_fn_*``, as Inductor names the combine functions of scans and reductions)."""
    jitted = [n for n in tree.body if isinstance(n, ast.FunctionDef) and any(_is_jit(d) for d in n.decorator_list)]
    helpers = [n for n in jitted if n.name.startswith(HELPER_PREFIX)]
    kernels = [n for n in jitted if not n.name.startswith(HELPER_PREFIX)]
    if len(kernels) != 1:
        found = ", ".join(n.name for n in kernels) or "none"
        raise OracleInputError(f"{where}: expected exactly one @triton.jit function named {name!r} (besides "
                               f"{HELPER_PREFIX}* helpers), found {found}; a kernel module holds one kernel")
    fn = kernels[0]
    if fn.name != name:
        raise OracleInputError(f"{where}: the @triton.jit function is {fn.name!r} but the record names {name!r}; "
                               "fix the record's name or re-capture")
    for n in [fn, *helpers]:
        defs = [d for d in tree.body if isinstance(d, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
                and d.name == n.name]
        if len(defs) != 1:
            raise OracleInputError(f"{where}: {n.name!r} is defined {len(defs)} times (Python binds the last one); "
                                   "remove the duplicate definition")
    return fn, helpers


def _jit_function(tree: ast.Module, name: str, where: str) -> ast.FunctionDef:
    return _jitted(tree, name, where)[0]


def _meta_signature(fn: ast.FunctionDef) -> dict[str, ast.Constant] | None:
    """The ``triton_meta['signature']`` literals of Inductor's heuristics decorator, if there is one."""
    for dec in fn.decorator_list:
        if not isinstance(dec, ast.Call):
            continue
        for kw in dec.keywords:
            if kw.arg != "triton_meta" or not isinstance(kw.value, ast.Dict):
                continue
            for key, value in zip(kw.value.keys, kw.value.values):
                if isinstance(key, ast.Constant) and key.value == "signature" and isinstance(value, ast.Dict):
                    out = {}
                    for k, v in zip(value.keys, value.values):
                        if isinstance(k, ast.Constant) and isinstance(v, ast.Constant) and isinstance(v.value, str):
                            out[str(k.value)] = v
                    return out
    return None


def _annotations(fn: ast.FunctionDef) -> dict[str, ast.Constant]:
    return {a.arg: a.annotation for a in fn.args.args
            if isinstance(a.annotation, ast.Constant) and isinstance(a.annotation.value, str)}


def _is_constexpr(arg: ast.arg) -> bool:
    ann = arg.annotation
    return (isinstance(ann, ast.Attribute) and ann.attr == "constexpr") or (
        isinstance(ann, ast.Constant) and ann.value == "constexpr")


def read(text: str, name: str, where: str = "kernel") -> KernelText:
    """Parse ``text`` (a kernel module) and return its jit function ``name`` with its declared signature."""
    tree = _module_ast(text, where)
    fn, helpers = _jitted(tree, name, where)
    names = frozenset(h.name for h in helpers)
    for h in helpers:
        check_body(h, where, names, helper=True)
    check_body(fn, where, names)
    params = tuple(a.arg for a in fn.args.args)
    meta = _meta_signature(fn) or {}
    # a parameter triton_meta declares 'constexpr' is one even without the annotation (Inductor's one-row
    # kernels: ``xnumel`` is 'constexpr' there and the body fixes ``xnumel = 1``)
    constexprs = tuple(a.arg for a in fn.args.args if _is_constexpr(a)
                       or (a.arg in meta and getattr(meta[a.arg], "value", None) == "constexpr"))
    ann = _annotations(fn)
    sig: dict[str, str] = {}
    for p in params:
        if p in constexprs:
            continue
        declared = {src: node.value for src, node in (("triton_meta", meta.get(p)), ("annotation", ann.get(p)))
                    if node is not None}
        if not declared:
            raise OracleInputError(f"{where}: parameter {p!r} of {name} has no declared type (neither triton_meta's "
                                   "signature nor an annotation); declare it, e.g. 'i64' or '*fp32'")
        if len(set(declared.values())) != 1:
            raise OracleInputError(f"{where}: parameter {p!r} of {name} is declared {declared}; the declarations "
                                   "must agree")
        sig[p] = next(iter(declared.values()))
    lines = text.splitlines(keepends=True)
    start = fn.lineno - 1
    function = "".join(lines[start:fn.end_lineno])
    helper_text = tuple("".join(lines[h.lineno - 1:h.end_lineno]) for h in helpers)
    return KernelText(name, text, function, params, tuple(sig.items()), constexprs, helper_text)


def narrow(text: str, name: str, args: tuple[str, ...] | frozenset[str], where: str = "kernel") -> str:
    """The same module with each of ``args`` declared ``'i32'`` instead of ``'i64'`` (in ``triton_meta`` and in
    annotations, wherever it is declared). An argument not declared ``'i64'`` is an input error: narrowing is
    only from ``i64``."""
    tree = _module_ast(text, where)
    fn = _jit_function(tree, name, where)
    nodes: list[ast.Constant] = []
    declared = {**(_meta_signature(fn) or {})}
    ann = _annotations(fn)
    for a in sorted(args):
        found = [n for n in (declared.get(a), ann.get(a)) if n is not None]
        if not found:
            raise OracleInputError(f"{where}: cannot narrow {a!r}: {name} declares no type for it")
        for node in found:
            if node.value != NARROW_FROM:
                raise OracleInputError(f"{where}: cannot narrow {a!r} of {name}: it is declared {node.value!r}, "
                                       f"not {NARROW_FROM!r}")
            nodes.append(node)
    lines = text.splitlines(keepends=True)
    # Replace from the last literal to the first so earlier positions stay valid.
    for node in sorted(nodes, key=lambda n: (n.lineno, n.col_offset), reverse=True):
        if node.lineno != node.end_lineno:
            raise OracleInputError(f"{where}: the type literal of a narrowed argument spans lines; re-capture")
        line = lines[node.lineno - 1]
        encoded = line.encode()
        literal = encoded[node.col_offset:node.end_col_offset].decode()
        quote = literal[0]
        encoded = encoded[:node.col_offset] + f"{quote}{NARROW_TO}{quote}".encode() + encoded[node.end_col_offset:]
        lines[node.lineno - 1] = encoded.decode()
    return "".join(lines)
