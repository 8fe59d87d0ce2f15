"""Only Triton language runs: the check every jit function's body passes before any process executes it.

Stage: oracle. The interpreter executes a kernel's body as Python, and records are data, so a body reaching
``__import__``, ``open`` or a dunder attribute must never run. :func:`check_body` admits, by construct, the
language Inductor's kernels are written in and refuses anything else by construct and line
(:class:`~workbench.oracle.errors.NotTritonLanguage`, verdict ``out-of-class``):

* statements: assignments to a name or a tuple of names (``tmp4, = tl.associative_scan(...)``), augmented
  assignments, ``NAME: tl.constexpr = value`` (``RBLOCK: tl.constexpr = R0_BLOCK``), expression statements,
  ``pass``; and, at the top level of a kernel only, **Inductor's reduction loop, exactly**:
  ``for r0_offset in tl.range(0, r0_numel, R0_BLOCK):`` — three positional arguments, no keywords, no
  ``else``, a body of the simple statements above (no nested loop) that never assigns ``r0_offset``;
* names: parameters, earlier locals (in execution order: a name first assigned inside the loop is known
  there after its assignment and after the loop), the modules ``tl``, ``triton_helpers``, ``libdevice``,
  ``tl_math``, the module's helper jit functions (``_triton_helper_fn_*``), and ``float`` only as
  ``float("inf" | "-inf" | "nan")``;
* attributes: never ``_``-prefixed; module chains one level deep (``tl.math.f`` the one two-level form);
  ``triton_helpers.f`` only for the pure Triton-language helpers in :data:`TRITON_HELPERS` (no atomics,
  barriers, inline assembly or random numbers); ``libdevice.f`` only for the functions of
  :data:`LIBDEVICE`, which the worker maps to Triton's own ``tl.math`` (the interpreter cannot run libdevice's
  extern calls: they return ``None``) or of :data:`LIBDEVICE_COMPOSED`, run as compositions of ``tl.math``
  functions; methods on values from :data:`METHODS`;
* parameters without defaults, annotations that are type strings or ``tl.constexpr``.

Helper jit functions (the combine functions of ``tl.associative_scan``/``tl.reduce`` Inductor writes next
to the kernel, named ``_triton_helper_fn_*``) pass the same check, with no loop and one final ``return``.

Limits: one reduction axis (``r0``); ``tl.static_range`` loops, nested loops, ``if``/``while`` and any other
Python are refused, none of which the captured Inductor kernels use.
"""

from __future__ import annotations

import ast

from workbench.oracle.errors import NotTritonLanguage

MODULES = {"tl": 2, "triton_helpers": 1, "libdevice": 1, "tl_math": 1}  # root -> attribute depth allowed
DEPTH_TWO = {("tl", "math")}  # tl.math.<fn> is the only two-level chain
METHODS = {"to", "broadcast_to", "reshape", "view", "expand_dims", "trans", "permute", "dtype", "shape", "T"}
SIMPLE = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Pass)
EXPRESSIONS = (ast.Name, ast.Constant, ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.IfExp, ast.Call,
               ast.Attribute, ast.Subscript, ast.Slice, ast.Tuple, ast.List, ast.keyword, ast.Load, ast.Store,
               ast.operator, ast.unaryop, ast.cmpop, ast.boolop, ast.expr_context)
FLOAT_LITERALS = {"inf", "-inf", "nan"}
HELPER_PREFIX = "_triton_helper_fn_"
LOOP = ("r0_offset", "r0_numel", "R0_BLOCK")  # for r0_offset in tl.range(0, r0_numel, R0_BLOCK)
# torch/_inductor/runtime/triton_helpers.py functions that are plain Triton language (read for torch 2.13).
TRITON_HELPERS = frozenset({
    "promote_to_tensor", "div_floor_integer", "remainder_integer", "pow_integer", "is_floating", "prod",
    "minimum", "maximum", "min2", "max2", "minimum_with_index", "maximum_with_index", "min_with_index",
    "max_with_index", "exp", "online_softmax_reduce", "online_softmax_combine",
    "online_softmax_combine_with_sum", "welford_reduce", "welford_combine", "welford", "any", "select_one",
    "bucketize_binary_search", "frexp", "sort_with_index",
})
# libdevice function -> the tl.math function the worker runs in its place (same operation, numpy-backed).
LIBDEVICE = {"exp": "exp", "exp2": "exp2", "log": "log", "log2": "log2", "sqrt": "sqrt_rn", "rsqrt": "rsqrt",
             "sin": "sin", "cos": "cos", "floor": "floor", "ceil": "ceil", "erf": "erf", "abs": "abs",
             "fma": "fma"}
# libdevice functions with no tl.math namesake, run as a composition of tl.math functions (the worker's
# ``libdevice_namespace``). The oracle compares the two kernels' runs with each other, never with a GPU, so
# what matters is that both run the same deterministic function; these formulas are the usual identities.
LIBDEVICE_COMPOSED = {"tanh": "1 - 2 / (exp(2x) + 1)",
                      "signbit": "the float's bits as a signed integer of its width, < 0 (-0.0 and -NaN included)"}


def chain(node: ast.Attribute) -> list[str] | None:
    """``a.b.c`` as ["a", "b", "c"] when rooted at a plain name, else None."""
    parts = [node.attr]
    cur = node.value
    while isinstance(cur, ast.Attribute):
        parts.append(cur.attr)
        cur = cur.value
    return [cur.id, *reversed(parts)] if isinstance(cur, ast.Name) else None


def is_inductor_loop(stmt: ast.stmt) -> bool:
    """``for r0_offset in tl.range(0, r0_numel, R0_BLOCK):`` exactly (the loop form Inductor emits)."""
    if not isinstance(stmt, ast.For) or stmt.orelse or getattr(stmt, "type_comment", None):
        return False
    it = stmt.iter
    target, numel, block = LOOP
    return (isinstance(stmt.target, ast.Name) and stmt.target.id == target and isinstance(it, ast.Call)
            and isinstance(it.func, ast.Attribute) and chain(it.func) == ["tl", "range"] and not it.keywords
            and len(it.args) == 3 and isinstance(it.args[0], ast.Constant) and it.args[0].value == 0
            and type(it.args[0].value) is int and isinstance(it.args[1], ast.Name) and it.args[1].id == numel
            and isinstance(it.args[2], ast.Name) and it.args[2].id == block)


class _Checker:
    def __init__(self, fn: ast.FunctionDef, where: str, helpers: frozenset[str], helper: bool) -> None:
        self.fn, self.where, self.helper = fn, where, helper
        self.known = {a.arg for a in fn.args.args} | set(MODULES) | set(helpers)

    def refuse(self, node: ast.AST, what: str) -> None:
        line = getattr(node, "lineno", self.fn.lineno) - self.fn.lineno + 1
        raise NotTritonLanguage(f"{self.where}: line {line} of {self.fn.name}: {what}; the oracle runs "
                                "Triton-language kernel bodies only")

    def params(self) -> None:
        args = self.fn.args
        if args.defaults or args.kw_defaults or args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs:
            self.refuse(self.fn, "parameters with defaults, *args, **kwargs or keyword-only parameters")
        for a in args.args:
            ann = a.annotation
            if ann is not None and not (isinstance(ann, ast.Constant) and isinstance(ann.value, str)) and not (
                    isinstance(ann, ast.Attribute) and chain(ann) == ["tl", "constexpr"]):
                self.refuse(a, f"annotation of {a.arg!r} is not a type string or tl.constexpr")

    def expression(self, root: ast.AST) -> None:
        floats: set[int] = set()  # the ``float`` names of admitted float("inf" | "-inf" | "nan") calls
        for node in ast.walk(root):  # breadth first: a call is seen before its function name
            if not isinstance(node, EXPRESSIONS):
                self.refuse(node, f"a {type(node).__name__} expression")
            if isinstance(node, ast.Constant) and not isinstance(node.value, (int, float, str, bool, type(None))):
                self.refuse(node, f"the constant {node.value!r}")
            if isinstance(node, ast.Attribute):
                self.attribute(node)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "float":
                a = node.args
                if node.keywords or len(a) != 1 or not isinstance(a[0], ast.Constant) or a[0].value not in \
                        FLOAT_LITERALS:
                    self.refuse(node, "float(...) other than float('inf'), float('-inf'), float('nan')")
                floats.add(id(node.func))
            elif isinstance(node, ast.Name) and node.id == "float" and id(node) not in floats:
                self.refuse(node, "the name 'float' other than as float('inf' | '-inf' | 'nan')")
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in self.known \
                    and id(node) not in floats:
                self.refuse(node, f"the name {node.id!r} (neither a parameter, an earlier local nor a Triton module)")

    def attribute(self, node: ast.Attribute) -> None:
        if node.attr.startswith("_"):
            self.refuse(node, f"the attribute {node.attr!r}")
        parts = chain(node)
        if parts and parts[0] in MODULES:
            depth = len(parts) - 1
            if depth > MODULES[parts[0]] or (depth == 2 and tuple(parts[:2]) not in DEPTH_TWO):
                self.refuse(node, ".".join(parts))
            if parts[0] == "triton_helpers" and parts[1] not in TRITON_HELPERS:
                self.refuse(node, f"triton_helpers.{parts[1]} (not one of the pure Triton-language helpers the "
                                  "oracle runs)")
            if parts[0] == "libdevice" and parts[1] not in LIBDEVICE and parts[1] not in LIBDEVICE_COMPOSED:
                self.refuse(node, f"libdevice.{parts[1]} (the interpreter cannot run libdevice; the oracle maps "
                                  f"only {', '.join(sorted(LIBDEVICE | LIBDEVICE_COMPOSED))} to tl.math)")
        elif node.attr not in METHODS:
            self.refuse(node, f"the method or attribute {node.attr!r} on a value")

    def targets(self, stmt: ast.stmt, loop_target: str | None) -> list[str]:
        if isinstance(stmt, ast.Assign):
            raw = stmt.targets
        elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
            raw = [stmt.target]
        else:
            return []
        names = []
        for t in raw:
            elts = t.elts if isinstance(t, ast.Tuple) else [t]
            for e in elts:
                if not isinstance(e, ast.Name):
                    self.refuse(e, "an assignment to something other than a name or a tuple of names")
                if e.id == loop_target:
                    self.refuse(e, f"an assignment to the loop variable {loop_target!r} inside the loop")
                names.append(e.id)
        return names

    def simple(self, stmt: ast.stmt, loop_target: str | None = None) -> None:
        if isinstance(stmt, ast.AnnAssign):
            ann = stmt.annotation
            if stmt.value is None or not (isinstance(ann, ast.Attribute) and chain(ann) == ["tl", "constexpr"]) \
                    or not stmt.simple:
                self.refuse(stmt, "an annotated assignment other than NAME: tl.constexpr = value")
            self.expression(stmt.value)
        elif isinstance(stmt, ast.AugAssign):
            self.expression(stmt.value)
            if isinstance(stmt.target, ast.Name) and stmt.target.id not in self.known:
                self.refuse(stmt, f"the name {stmt.target.id!r} updated before it is assigned")
        elif isinstance(stmt, ast.Assign):
            self.expression(stmt.value)
        elif isinstance(stmt, ast.Expr):
            self.expression(stmt.value)
        self.known.update(self.targets(stmt, loop_target))

    def body(self) -> None:
        stmts = self.fn.body
        for i, stmt in enumerate(stmts):
            if self.helper and isinstance(stmt, ast.Return) and i == len(stmts) - 1 and stmt.value is not None:
                self.expression(stmt.value)
            elif isinstance(stmt, ast.For) and not self.helper:
                if not is_inductor_loop(stmt):
                    self.refuse(stmt, "a loop other than Inductor's `for r0_offset in tl.range(0, r0_numel, "
                                      "R0_BLOCK):`")
                self.expression(stmt.iter)
                self.known.add(LOOP[0])
                for inner in stmt.body:
                    if not isinstance(inner, SIMPLE):
                        self.refuse(inner, f"a {type(inner).__name__} statement inside the reduction loop")
                    self.simple(inner, LOOP[0])
            elif isinstance(stmt, SIMPLE):
                self.simple(stmt)
            else:
                self.refuse(stmt, f"a {type(stmt).__name__} statement")
        if self.helper and not (stmts and isinstance(stmts[-1], ast.Return)):
            self.refuse(self.fn, "a helper function that does not end in one return statement")


def check_body(fn: ast.FunctionDef, where: str, helpers: frozenset[str] = frozenset(), helper: bool = False) -> None:
    """Refuse (by construct and line) anything in the jit function ``fn`` but Triton language (see the module
    docstring); ``helpers`` are the names of the module's helper jit functions the body may call; ``helper``
    checks a helper itself (no loop, one final ``return``)."""
    c = _Checker(fn, where, helpers, helper)
    c.params()
    c.body()
