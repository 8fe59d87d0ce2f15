"""Device asserts: which loads feed an asserted index, its bound, and the oracle's own evaluation of the condition.

Stage: oracle (parent and worker). Inductor guards every indirect index with
``tl.device_assert(((0 <= tmpN) & (tmpN < BOUND)) | ~(mask), "index out of bounds: ...")``. The checker takes
that assert as a premise (the index lies in ``[0, BOUND)``); the oracle tests the premise itself, with its own
reading of the text (Python's ``ast``, never executed) and its own evaluator, sharing nothing with the IR:

* :func:`find` reads every ``tl.device_assert`` of the kernel: the condition, and when it has the index form
  above, the asserted name, the bound's expression, the pointer parameters whose *loaded values* flow into the
  name (def-use over the body's assignments; a ``tl.load``'s value comes from memory, so tracing stops there),
  and whether Inductor's negative-index wrap (``tl.where(tmp0 < 0, tmp0 + size, tmp0)``) lies between;
* :func:`evaluate` computes a condition or a bound exactly over Python integers (numpy object arrays for
  blocks), with Triton's integer division and remainder (truncating, as ``semantic.py`` lowers ``//`` and
  ``%`` on signed integers), comparisons and the bitwise ``& | ~`` of booleans. Anything else is an
  :class:`AssertModelError` naming the construct: the oracle then cannot judge the premise and says so.

The parent evaluates each bound at the launch's (wide) argument values and asks the worker to draw the index
tables' contents inside ``[0, BOUND)`` — both ends and interior values, negative ones too where the wrap is
present (:func:`workbench.oracle.memory.index_values`). At run time the worker evaluates each assert's
condition with :func:`evaluate` over the kernel's own values at that point (the interpreter's locals), and
compares with what Triton's interpreter computed.

Limits: only the index form above yields draws; any other assert (``roll``'s ``(... % ks0) < ks0``) is still
evaluated at run time, but its inputs are not steered.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Mapping

import numpy as np

from workbench.oracle.body import chain


class AssertModelError(Exception):
    """A device assert's condition (or bound) uses a construct the oracle's evaluator does not model."""


@dataclass(frozen=True, slots=True)
class Assert:
    line: int  # first and last line of the call in the parsed text
    end_line: int
    condition: ast.expr
    var: str | None = None  # the asserted index name (index form only)
    bound: ast.expr | None = None
    pointers: tuple[str, ...] = ()  # pointer parameters whose loaded values flow into ``var``
    negative: bool = False  # Inductor's negative-index wrap lies between the load and ``var``

    @property
    def text(self) -> str:
        return ast.unparse(self.condition)


def _is_assert(node: ast.AST) -> bool:
    return (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Attribute) and chain(node.value.func) == ["tl", "device_assert"])


def _statements(fn: ast.FunctionDef) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for stmt in fn.body:
        out.extend(stmt.body if isinstance(stmt, ast.For) else [stmt])
    return out


def _definitions(fn: ast.FunctionDef) -> dict[str, list[ast.expr]]:
    defs: dict[str, list[ast.expr]] = {}
    for stmt in _statements(fn):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(
            stmt, (ast.AugAssign, ast.AnnAssign)) else []
        for t in targets:
            for e in (t.elts if isinstance(t, ast.Tuple) else [t]):
                if isinstance(e, ast.Name) and getattr(stmt, "value", None) is not None:
                    defs.setdefault(e.id, []).append(stmt.value)  # type: ignore[arg-type]
    return defs


def _is_load(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and chain(node.func) == ["tl", "load"]


def _index_form(cond: ast.expr) -> tuple[str, ast.expr] | None:
    """``((0 <= V) & (V < B)) | ~(M)`` (either order of the conjuncts, ``V >= 0`` and ``B > V`` too) -> (V, B)."""
    core = cond
    if isinstance(core, ast.BinOp) and isinstance(core.op, ast.BitOr) and isinstance(core.right, ast.UnaryOp) \
            and isinstance(core.right.op, ast.Invert):
        core = core.left
    if not (isinstance(core, ast.BinOp) and isinstance(core.op, ast.BitAnd)):
        return None
    lower = upper = None
    for c in (core.left, core.right):
        if not (isinstance(c, ast.Compare) and len(c.ops) == 1):
            return None
        a, op, b = c.left, c.ops[0], c.comparators[0]
        zero = lambda n: isinstance(n, ast.Constant) and n.value == 0 and type(n.value) is int  # noqa: E731
        if isinstance(op, ast.LtE) and zero(a) and isinstance(b, ast.Name):
            lower = b.id
        elif isinstance(op, ast.GtE) and zero(b) and isinstance(a, ast.Name):
            lower = a.id
        elif isinstance(op, ast.Lt) and isinstance(a, ast.Name):
            upper = (a.id, b)
        elif isinstance(op, ast.Gt) and isinstance(b, ast.Name):
            upper = (b.id, a)
    if lower is None or upper is None or upper[0] != lower:
        return None
    return lower, upper[1]


def _sources(var: str, defs: dict[str, list[ast.expr]], pointers: frozenset[str]) -> tuple[set[str], bool]:
    """Pointer parameters whose loaded values reach ``var``, and whether a ``loaded < 0`` test lies between."""
    found: set[str] = set()
    loaded: set[str] = set()
    compares: list[ast.Compare] = []
    seen, todo = set(), [var]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for value in defs.get(name, []):
            if _is_load(value):
                loaded.add(name)
                found |= {n.id for n in ast.walk(value.args[0]) if isinstance(n, ast.Name) and n.id in pointers} \
                    if value.args else set()  # type: ignore[attr-defined]
                continue
            for node in ast.walk(value):
                if isinstance(node, ast.Compare):
                    compares.append(node)
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                    todo.append(node.id)
    negative = any(len(c.ops) == 1 and isinstance(c.ops[0], ast.Lt) and isinstance(c.left, ast.Name)
                   and c.left.id in loaded and isinstance(c.comparators[0], ast.Constant)
                   and c.comparators[0].value == 0 for c in compares)
    return found, negative


def find(fn: ast.FunctionDef, pointers: frozenset[str]) -> tuple[Assert, ...]:
    """Every ``tl.device_assert`` of ``fn`` in source order (index form recognised, see the module docstring)."""
    defs = _definitions(fn)
    out = []
    for stmt in _statements(fn):
        if not _is_assert(stmt):
            continue
        call = stmt.value  # type: ignore[attr-defined]
        if not call.args:
            raise AssertModelError(f"line {stmt.lineno}: tl.device_assert without a condition")
        cond = call.args[0]
        form = _index_form(cond)
        if form is None:
            out.append(Assert(stmt.lineno, stmt.end_lineno or stmt.lineno, cond))
            continue
        var, bound = form
        ptrs, negative = _sources(var, defs, pointers)
        out.append(Assert(stmt.lineno, stmt.end_lineno or stmt.lineno, cond, var, bound, tuple(sorted(ptrs)),
                          negative))
    return tuple(out)


def _trunc_div(a: int, b: int) -> int:
    if b == 0:
        raise AssertModelError("integer division by zero in a device assert")
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _trunc_mod(a: int, b: int) -> int:
    return a - b * _trunc_div(a, b)


_DIV = np.frompyfunc(_trunc_div, 2, 1)
_MOD = np.frompyfunc(_trunc_mod, 2, 1)


def _boolean(v, what: str):
    if isinstance(v, (bool, np.bool_)) or (isinstance(v, np.ndarray) and v.dtype == bool):
        return v
    raise AssertModelError(f"{what} of a non-boolean operand")


def evaluate(node: ast.expr, env: Mapping[str, object]):
    """The value of ``node`` (a condition or a bound) with names from ``env`` (Python ints, bools, or numpy
    arrays of Python ints (dtype object) / bools): exact integers, truncating ``//`` and ``%``."""
    match node:
        case ast.Constant(value=v) if type(v) in (int, bool):
            return v
        case ast.Name(id=name):
            if name not in env:
                raise AssertModelError(f"the name {name!r} has no value")
            return env[name]
        case ast.UnaryOp(op=ast.USub(), operand=x):
            return -evaluate(x, env)
        case ast.UnaryOp(op=ast.Invert(), operand=x):
            return np.logical_not(_boolean(evaluate(x, env), "~"))
        case ast.BinOp(left=a, op=op, right=b):
            x, y = evaluate(a, env), evaluate(b, env)
            match op:
                case ast.Add():
                    return x + y
                case ast.Sub():
                    return x - y
                case ast.Mult():
                    return x * y
                case ast.FloorDiv():
                    return _DIV(x, y) if isinstance(x, np.ndarray) or isinstance(y, np.ndarray) else _trunc_div(x, y)
                case ast.Mod():
                    return _MOD(x, y) if isinstance(x, np.ndarray) or isinstance(y, np.ndarray) else _trunc_mod(x, y)
                case ast.BitAnd():
                    return np.logical_and(_boolean(x, "&"), _boolean(y, "&"))
                case ast.BitOr():
                    return np.logical_or(_boolean(x, "|"), _boolean(y, "|"))
                case _:
                    raise AssertModelError(f"the operator {type(op).__name__} in {ast.unparse(node)!r}")
        case ast.Compare(left=a, ops=[op], comparators=[b]):
            x, y = evaluate(a, env), evaluate(b, env)
            match op:
                case ast.Lt():
                    r = x < y
                case ast.LtE():
                    r = x <= y
                case ast.Gt():
                    r = x > y
                case ast.GtE():
                    r = x >= y
                case ast.Eq():
                    r = x == y
                case ast.NotEq():
                    r = x != y
                case _:
                    raise AssertModelError(f"the comparison {type(op).__name__} in {ast.unparse(node)!r}")
            return np.asarray(r, dtype=bool) if isinstance(r, np.ndarray) else bool(r)
        case _:
            raise AssertModelError(f"the construct {type(node).__name__} in {ast.unparse(node)!r}")


def names(node: ast.expr) -> frozenset[str]:
    return frozenset(n.id for n in ast.walk(node) if isinstance(n, ast.Name))


def tables(found: tuple[Assert, ...], scalars: Mapping[str, int]) -> dict[str, tuple[int, bool]]:
    """Index tables to draw at one launch: pointer -> (the smallest asserted bound at the launch's wide argument
    values, whether a negative-index wrap lies between). Bounds naming anything but arguments are skipped."""
    out: dict[str, tuple[int, bool]] = {}
    for a in found:
        if a.var is None or a.bound is None or not a.pointers:
            continue
        try:
            bound = evaluate(a.bound, dict(scalars))
        except AssertModelError:
            continue
        if not isinstance(bound, int) or isinstance(bound, bool):
            continue
        for p in a.pointers:
            old = out.get(p)
            out[p] = (bound, a.negative) if old is None else (min(old[0], bound), old[1] or a.negative)
    return out
