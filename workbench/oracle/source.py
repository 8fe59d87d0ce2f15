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
Triton language and nothing else (:func:`check_body`): records are data, and a body reaching ``__import__``,
``open`` or a dunder attribute is refused by construct and line before any process runs it. Only the
function is ever executed — the module's other statements and its decorators are dropped.

Limits: a module with no or several jit functions, a jit function whose name is not the record's, or a
signature given twice with different types is an input error (:class:`OracleInputError`); a body outside the
allowed subset is :class:`NotTritonLanguage` (control flow, comprehensions and builtins are refused, none of
which Inductor's pointwise kernels use).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from workbench.errors import InputError, UnsupportedError

NARROW_FROM = "i64"
NARROW_TO = "i32"


class OracleInputError(InputError):
    """A kernel record, its text or the checker table cannot be read by the oracle (the message says why)."""


class NotTritonLanguage(UnsupportedError):
    """The jit function contains Python the oracle will not execute (it runs kernel text only when the text
    is Triton language: see :func:`check_body`)."""


# What a kernel body may name and call. The interpreter executes the body as Python, so the text must be
# Triton language and nothing else: a record is data, and a body that reaches ``__import__`` or ``open`` is
# refused before any process runs it.
MODULES = {"tl": 2, "triton_helpers": 1, "libdevice": 1, "tl_math": 1}  # root -> attribute depth allowed
DEPTH_TWO = {("tl", "math")}  # tl.math.<fn> is the only two-level chain
METHODS = {"to", "broadcast_to", "reshape", "view", "expand_dims", "trans", "permute", "dtype", "shape", "T"}
STATEMENTS = (ast.Assign, ast.AugAssign, ast.Expr, ast.Pass)
EXPRESSIONS = (ast.Name, ast.Constant, ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.IfExp, ast.Call,
               ast.Attribute, ast.Subscript, ast.Slice, ast.Tuple, ast.List, ast.keyword, ast.Load, ast.Store,
               ast.operator, ast.unaryop, ast.cmpop, ast.boolop, ast.expr_context)


@dataclass(frozen=True, slots=True)
class KernelText:
    """A kernel module's text and what the oracle reads from it."""

    name: str
    module: str  # the whole module text (as captured, or narrowed)
    function: str  # ``def name(...)`` and its body, decorators dropped
    params: tuple[str, ...]  # parameter names in order
    signature: tuple[tuple[str, str], ...]  # declared type per non-constexpr parameter ("i64", "*fp32", ...)
    constexprs: tuple[str, ...]


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


def _jit_function(tree: ast.Module, name: str, where: str) -> ast.FunctionDef:
    jitted = [n for n in tree.body if isinstance(n, ast.FunctionDef) and any(_is_jit(d) for d in n.decorator_list)]
    if len(jitted) != 1:
        found = ", ".join(n.name for n in jitted) or "none"
        raise OracleInputError(f"{where}: expected exactly one @triton.jit function named {name!r}, found {found}; "
                               "a kernel module holds one kernel")
    fn = jitted[0]
    if fn.name != name:
        raise OracleInputError(f"{where}: the @triton.jit function is {fn.name!r} but the record names {name!r}; "
                               "fix the record's name or re-capture")
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
    if len(defs) != 1:
        raise OracleInputError(f"{where}: {name!r} is defined {len(defs)} times (Python binds the last one); "
                               "remove the duplicate definition")
    return fn


def _chain(node: ast.Attribute) -> list[str] | None:
    """``a.b.c`` as ["a", "b", "c"] when rooted at a plain name, else None."""
    parts = [node.attr]
    cur = node.value
    while isinstance(cur, ast.Attribute):
        parts.append(cur.attr)
        cur = cur.value
    return [cur.id, *reversed(parts)] if isinstance(cur, ast.Name) else None


def check_body(fn: ast.FunctionDef, where: str) -> None:
    """Refuse (by construct and line) anything in the jit function but Triton language: statements are
    assignments and expression statements; names are parameters, locals and the modules ``tl``,
    ``triton_helpers``, ``libdevice``, ``tl_math``; attributes never start with ``_``; module attribute
    chains are one level (``tl.load``; ``tl.math.exp`` is the one two-level form); methods on values are
    :data:`METHODS`; annotations are strings or ``tl.constexpr``; parameters have no defaults."""
    def refuse(node: ast.AST, what: str) -> None:
        raise NotTritonLanguage(f"{where}: line {getattr(node, 'lineno', fn.lineno) - fn.lineno + 1} of "
                                f"{fn.name}: {what}; the oracle runs Triton-language kernel bodies only")

    args = fn.args
    if args.defaults or args.kw_defaults or args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs:
        refuse(fn, "parameters with defaults, *args, **kwargs or keyword-only parameters")
    for a in args.args:
        ann = a.annotation
        if ann is not None and not (isinstance(ann, ast.Constant) and isinstance(ann.value, str)) and not (
                isinstance(ann, ast.Attribute) and _chain(ann) == ["tl", "constexpr"]):
            refuse(a, f"annotation of {a.arg!r} is not a type string or tl.constexpr")
    known = {a.arg for a in args.args} | set(MODULES)
    for stmt in fn.body:
        if not isinstance(stmt, STATEMENTS):
            refuse(stmt, f"a {type(stmt).__name__} statement")
        for node in ast.walk(stmt):
            if node is stmt:
                continue
            if not isinstance(node, EXPRESSIONS):
                refuse(node, f"a {type(node).__name__} expression")
            if isinstance(node, ast.Constant) and not isinstance(node.value, (int, float, str, bool, type(None))):
                refuse(node, f"the constant {node.value!r}")
            if isinstance(node, ast.Attribute):
                if node.attr.startswith("_"):
                    refuse(node, f"the attribute {node.attr!r}")
                chain = _chain(node)
                if chain and chain[0] in MODULES:
                    depth = len(chain) - 1
                    if depth > MODULES[chain[0]] or (depth == 2 and tuple(chain[:2]) not in DEPTH_TWO):
                        refuse(node, f"{'.'.join(chain)}")
                elif node.attr not in METHODS:
                    refuse(node, f"the method or attribute {node.attr!r} on a value")
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in known:
                refuse(node, f"the name {node.id!r} (neither a parameter, an earlier local nor a Triton module)")
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(
            stmt, ast.AugAssign) else []
        for t in targets:
            if not isinstance(t, ast.Name):
                refuse(t, "an assignment to something other than a plain name")
            known.add(t.id)


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
    fn = _jit_function(tree, name, where)
    check_body(fn, where)
    params = tuple(a.arg for a in fn.args.args)
    constexprs = tuple(a.arg for a in fn.args.args if _is_constexpr(a))
    meta = _meta_signature(fn) or {}
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
    return KernelText(name, text, function, params, tuple(sig.items()), constexprs)


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
